"""AsciiDoc read as the Markdown a reader sees rendered (providers/asciidoc.py)."""

from __future__ import annotations

from pathlib import Path

from deepresearch.providers.asciidoc import asciidoc_rendered
from deepresearch.providers.passages import split_passages

from .conftest import read_as

GUIDE = """= Deployment Guide
:toc: left

// a comment nobody sees
This guide explains how to deploy. See xref:install.adoc[the install page],
https://example.com[the website] and <<limits,the limits>>.

== Requirements

[NOTE]
====
The service needs Java 17 or newer.
====

.Steps
. Build the image
. Push it

timeout:: The request timeout in seconds.

[source,bash]
----
# not a heading
./deploy.sh --env prod
----

////
A comment block.
////

[[limits]]
=== Limits

|===
| Option | Default
| port | 8080
|===

include::partials/footer.adoc[]
"""


def test_asciidoc_reads_as_its_markdown_with_every_line_in_place(tmp_path: Path) -> None:
    doc = read_as(tmp_path, "guide.adoc", GUIDE)
    assert doc.title == "Deployment Guide"
    assert "See the install page,\nthe website and the limits." in doc.text
    assert "The service needs Java 17 or newer." in doc.text
    assert "Steps:\n- Build the image\n- Push it" in doc.outline
    assert "timeout: The request timeout in seconds." in doc.text
    assert "```\n# not a heading\n./deploy.sh --env prod\n```" in doc.outline
    for hidden in (":toc:", "comment", "[NOTE]", "====", "[source", "[[limits]]", "include::"):
        assert hidden not in doc.outline, hidden
    assert "| port | 8080" in doc.outline and "|===" not in doc.outline
    lines = GUIDE.splitlines()
    outline = doc.outline.splitlines()
    assert outline[lines.index("=== Limits")] == "### Limits"  # passages cite file lines
    headings = {p.heading for p in split_passages(doc.outline)}
    assert headings == {
        "Deployment Guide", "Deployment Guide › Requirements",
        "Deployment Guide › Requirements › Limits",
    }  # fmt: skip


def test_an_unclosed_listing_block_ends_with_the_file() -> None:
    assert asciidoc_rendered("Run:\n----\nmake") == "Run:\n```\nmake\n```"
