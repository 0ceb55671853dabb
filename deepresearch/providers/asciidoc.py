"""AsciiDoc (`.adoc`, `.asciidoc`) read as the Markdown a reader sees rendered: section
titles as '#' heading lines, listing and literal blocks as fenced code, tables as '|'
rows, and the markup a page does not show (attribute entries, block attributes and
anchors, comments, include and image lines, block delimiters) blanked. Every line stays
where it is, so passages cite the file's lines.

Written here rather than taken from a library: the Python AsciiDoc converters
(asciidoc-py, asciidoc3) are applications that render whole documents to HTML or DocBook,
without a way to keep line numbers, which passages cite; the subset below is what a
reader needs of a documentation page.
"""

from __future__ import annotations

import re

_TITLE = re.compile(r"^(={1,6})[ \t]+(\S.*?)[ \t]*=*$")  # '== Section' (closing '=' optional)
_ATTRIBUTE_ENTRY = re.compile(r"^:!?[\w-]+!?:(?:[ \t].*)?$")  # ':toc: left', ':!sectnums:'
_BLOCK_LINE = re.compile(
    r"^(?:\[\[?[^\]]*\]\]?|(?:include|image|video|audio|toc)::.*|ifn?def::.*|endif::.*)$"
)  # '[source,java]', '[[anchor]]', 'include::x.adoc[]', 'ifdef::env[]'
_BLOCK_TITLE = re.compile(r"^\.(?=[^\s.])")  # '.Optional title' over a block
_CODE_DELIMITER = re.compile(r"^(?:-{4,}|\.{4,}|`{3}.*)$")  # listing, literal, fenced
_OTHER_DELIMITER = re.compile(r"^(?:={4,}|\*{4,}|_{4,}|\+{4,}|-{2}|\|={3,})$")
_COMMENT_BLOCK = re.compile(r"^/{4,}$")
_COMMENT_LINE = re.compile(r"^//(?!/).*$|^//$")
# Inline: 'link:url[text]', 'https://x[text]', 'xref:page.adoc[text]', '<<id,text>>' read
# as their text; 'kbd:[Ctrl+C]', 'btn:[OK]' as what they name.
_LINK = re.compile(r"(?:link:|xref:|mailto:|(?<![\w/])(?=https?://))\S*?\[([^\]]*)\]")
_CROSS_REFERENCE = re.compile(r"<<[^,>]+,\s*([^>]+)>>|<<([^>]+)>>")
_MACRO = re.compile(r"\b(?:kbd|btn|menu|footnote|pass):\S*?\[([^\]]*)\]")
_MACRO_PREFIX = re.compile(r"^(?:link|xref|mailto):")
_LIST_MARK = re.compile(r"^(?:\*{2,5}|\.{1,5}|-)[ \t]+")  # '** nested', '. ordered' items
_DESCRIPTION = re.compile(r"^(\S[^:]*?):{2,4}(\s|$)")  # 'term:: definition'
EXTENSIONS = frozenset({".adoc", ".asciidoc", ".asc"})


def asciidoc_rendered(text: str) -> str:
    """AsciiDoc as the Markdown a reader sees (see the module's docstring)."""
    out: list[str] = []
    code: str | None = None  # the delimiter of the listing block we are in
    comment = False
    for line in text.split("\n"):
        bare = line.rstrip()
        if comment:
            comment = not _COMMENT_BLOCK.match(bare)
            out.append("")
        elif code is not None:
            if bare == code:
                code = None
                out.append("```")
            else:
                out.append(line)
        elif _COMMENT_BLOCK.match(bare):
            comment = True
            out.append("")
        elif _CODE_DELIMITER.match(bare):
            code = "```" if bare.startswith("`") else bare
            out.append("```")
        else:
            out.append(_prose_line(bare))
    if code is not None:
        out.append("```")  # an unclosed block ends with the file
    return "\n".join(out)


def _prose_line(line: str) -> str:
    """One line outside a code block as a reader sees it."""
    if m := _TITLE.match(line):
        return "#" * len(m[1]) + " " + m[2]
    if (
        _ATTRIBUTE_ENTRY.match(line) or _BLOCK_LINE.match(line)
        or _OTHER_DELIMITER.match(line) or _COMMENT_LINE.match(line)
    ):  # fmt: skip
        return ""
    if line.startswith("#"):  # not a heading in AsciiDoc: keep it from reading as one
        line = " " * 4 + line
    if _BLOCK_TITLE.match(line):  # '.Supported databases' over a list: its lead-in
        return line[1:] if line.endswith((":", ".", "?", "!")) else line[1:] + ":"
    line = _LIST_MARK.sub("- ", line)
    line = _DESCRIPTION.sub(r"\1:\2", line)
    line = _LINK.sub(lambda m: m[1] or _MACRO_PREFIX.sub("", m[0].split("[", 1)[0]), line)
    line = _CROSS_REFERENCE.sub(lambda m: m[1] or m[2], line)
    return _MACRO.sub(r"\1", line)
