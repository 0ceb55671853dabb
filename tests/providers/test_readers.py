"""How files are read (readers): Markdown as a reader sees it rendered."""

from __future__ import annotations

from pathlib import Path

from deepresearch.offline.statements import statements
from deepresearch.providers.corpus import CorpusSearch
from deepresearch.providers.readers import read_document

from .conftest import read_as

API_PAGE = """# DNS

<!--introduced_in=v0.10.0-->

> Stability: 2 - Stable

The `node:dns` module enables name resolution. Although named for the
[Domain Name System (DNS)][], it does not always use the DNS protocol:
[`dns.lookup()`][lookup] uses the operating system, see [the guide].
An array is indexed as `a[i][j]`, and [this bracket] is text.

```html
<!-- a comment shown in a code block -->
```

## dns.resolve()

<!-- YAML
added: v0.1.27
changes:
  - version: v18.0.0
-->

Uses the DNS protocol to resolve a host name into an array of resource records.

[Domain Name System (DNS)]: https://en.wikipedia.org/wiki/Domain_Name_System
[LOOKUP]: #dnslookup
[the   guide]: guide.md
"""


def test_markdown_reads_without_comments_and_reference_links(tmp_path: Path) -> None:
    path = tmp_path / "dns.md"
    path.write_text(API_PAGE, "utf-8")
    doc = read_document(path)
    assert "introduced_in" not in doc.text and "YAML" not in doc.text
    assert "added: v0.1.27" not in doc.text
    assert "Although named for the\nDomain Name System (DNS), it does not" in doc.text
    assert "`dns.lookup()` uses the operating system, see the guide." in doc.text
    assert "`a[i][j]`, and [this bracket] is text" in doc.text  # nothing defines them
    assert "<!-- a comment shown in a code block -->" in doc.outline  # code as written
    assert "wikipedia" not in doc.text and "#dnslookup" not in doc.text  # definitions
    # Every line stays where the file has it: passages cite the file's lines.
    lines = API_PAGE.splitlines()
    for n, line in enumerate(doc.outline.splitlines()):
        assert not line.strip() or line == lines[n] or "[" in lines[n]


async def test_a_passage_after_a_comment_cites_the_files_lines(tmp_path: Path) -> None:
    filler = "\n\n".join(
        f"Paragraph {n} of the introduction, about nothing much." for n in range(40)
    )
    text = f"# Guide\n\n{filler}\n\n## Resolve\n\n<!-- YAML\nadded: v1\n-->\n\nResolvers query servers.\n"
    (tmp_path / "guide.md").write_text(text, "utf-8")
    hits = await CorpusSearch(tmp_path).search("resolvers query servers", max_results=3)
    hit = next(h for h in hits if "Resolvers query servers." in h.content)
    assert hit.lines is not None and "YAML" not in hit.content
    first, last = hit.lines
    assert "Resolvers query servers." in "\n".join(text.splitlines()[first - 1 : last])


RST_PAGE = """.. _architecture:

:mod:`email` Package Architecture
=================================

.. toctree::
   :maxdepth: 2

.. This comment says
   nothing a reader sees.

The model is the :class:`~email.message.Message` class; see :ref:`the guide <guide>`.

.. note::
   :class: tip

   Policies control headers.

.. [1] A footnote is text.
"""


def test_rst_reads_without_comments_and_directive_lines(tmp_path: Path) -> None:
    path = tmp_path / "architecture.rst"
    path.write_text(RST_PAGE, "utf-8")
    doc = read_document(path)
    assert doc.title == "email Package Architecture"
    assert "The model is the Message class; see the guide." in doc.text
    assert "Policies control headers." in doc.text  # a directive's content is kept
    assert ".. [1] A footnote is text." in doc.text
    for hidden in ("_architecture", "toctree", "maxdepth", "comment", "nothing", "note::"):
        assert hidden not in doc.text, hidden
    assert len(doc.outline.splitlines()) == len(RST_PAGE.rstrip().splitlines())  # lines kept


def test_rst_interpreted_text_reads_as_the_default_role_shows_it(tmp_path: Path) -> None:
    path = tmp_path / "extending.rst"
    path.write_text(
        "Hooks\n=====\n\nRegister them with `pre_load <marshmallow.decorators.pre_load>`,\n"
        "`~marshmallow.Schema` and `plain` text; ``literal <kept>`` and\n"
        "`a link <https://example.org>`_ stay as they read.\n",
        "utf-8",
    )
    text = " ".join(read_document(path).text.split())
    assert "Register them with `pre_load`, `Schema` and `plain` text" in text
    assert "``literal <kept>``" in text or "literal <kept>" in text
    assert "marshmallow.decorators" not in text and "a link stay" in text


SPHINX_SOURCE = """What's New In Python 3.2
************************

The GIL was rewritten (:option:`!--with-gil` is gone; :issue:`7946`, :const:`0` off).
The interval is tunable through
:func:`sys.setswitchinterval()`; see :ref:`the threading
guide <threading>` and the `python-dev message <https://mail.python.org/x>`_.

.. seealso::

   :pep:`3147` - PYC Repository Directories

# not a heading: a line of a literal block

Example::

   x = 1

.. code-block:: python
   :linenos:

   print("code")

Text again.
"""


def test_a_txt_file_with_rst_markup_reads_as_rst(tmp_path: Path) -> None:
    """Sphinx publishes its sources as 'name.rst.txt': a '.txt' with roles and directives
    is reST by content, though a line opens with '#' as a Markdown heading would."""
    doc = read_as(tmp_path, "3.2.rst.txt", SPHINX_SOURCE)
    assert doc.title == "What's New In Python 3.2"
    assert "tunable through\nsys.setswitchinterval(); see the threading\nguide and the " in doc.text
    assert "python-dev message." in doc.text and "mail.python.org" not in doc.text
    assert "PEP 3147 - PYC Repository Directories" in doc.text  # as Sphinx shows it
    # a tracker's numbered record keeps its kind; a constant's value is a value
    assert "rewritten (--with-gil is gone; issue-7946, 0 off)" in doc.text
    assert "seealso" not in doc.text and ":func:" not in doc.text
    # a literal block is code, as a fenced block in Markdown: quoted, never prose
    assert "Example:\n```\n   x = 1\n```" in doc.outline and "::" not in doc.outline
    assert '```\n\n\n   print("code")\n```\nText again.' in doc.outline
    assert len(doc.outline.splitlines()) == len(SPHINX_SOURCE.rstrip().splitlines())


def test_plain_text_with_a_hash_line_stays_markdown(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("# Notes\n\nThe :x: marker and `code` are text here.\n", "utf-8")
    assert "The :x: marker and `code` are text here." in read_document(path).text


MDX_PAGE = """---
title: Install
---
import Tabs from '@theme/Tabs';
import TabItem from '@theme/TabItem';

# Install

{/* a note to the editors */}
<Tabs>
<TabItem value="yarn" label="Yarn">
Run yarn add foo.
</TabItem>
</Tabs>

<Note type="info" />

```jsx
<Tabs>kept as written</Tabs>
```
"""


def test_mdx_reads_as_its_markdown(tmp_path: Path) -> None:
    doc = read_as(tmp_path, "install.mdx", MDX_PAGE)
    assert doc.title == "Install"
    assert "Run yarn add foo." in doc.text
    for hidden in ("import", "@theme", "editors", "TabItem", "Note"):
        assert hidden not in doc.text, hidden
    assert "<Tabs>kept as written</Tabs>" in doc.outline  # code as written
    assert len(doc.outline.splitlines()) == len(MDX_PAGE.rstrip().splitlines())


def _html_lines(folder: Path, html: str) -> list[str]:
    """The outline lines the reader makes of a page holding ``html``."""
    page = folder / "page.html"
    page.write_text(html, encoding="utf-8")
    return read_document(page).outline.splitlines()


def test_a_headings_permalink_mark_is_not_text(tmp_path: Path) -> None:
    lines = _html_lines(
        tmp_path,
        '<h2>Basic use<a class="headerlink" href="#basic-use">¶</a></h2>'
        '<p>See <a href="#fn1">[1]</a> and <a href="#basic-use">basic use</a>.</p>',
    )
    assert "## Basic use" in lines  # the mark names nothing
    assert "See [1] and basic use." in lines  # a link in the page with words is text


def test_html_code_spans_read_as_markdown_code_spans(tmp_path: Path) -> None:
    # A <code> in prose is a code span, as in Markdown: 'cargo build puts...' opens with
    # code, not with a lower-case word that goes on with a sentence.
    lines = _html_lines(
        tmp_path,
        "<h2>Build <code>--release</code></h2><p>Run:</p><pre><code>cargo build</code></pre>"
        "<p><code>cargo build</code> puts the binary in <code>target/</code>.</p>"
        "<table><tr><td><code>opt</code></td><td>level</td></tr></table>",
    )
    assert "`cargo build` puts the binary in `target/`." in lines
    assert "## Build --release" in lines  # headings and cells as before: no marks
    assert "cargo build" in lines  # the <pre> block's line, unmarked
    assert "| opt | level |" in lines


def test_a_list_items_own_paragraph_reads_on_its_marker_line(tmp_path: Path) -> None:
    # Sphinx and mdBook write a loose list's item as '<li><p>…</p></li>': the item's text
    # belongs to its marker, so the list keeps the lead-in it hangs from.
    lines = _html_lines(
        tmp_path,
        "<p>It provides the following information:</p><ul>\n<li>\n<p>Tracebacks</p></li>"
        "<li><p>Statistics per line:</p><ul><li><p>size</p></li></ul></li></ul>",
    )
    assert "- Tracebacks" in lines
    assert "- Statistics per line:" in lines
    assert "- size" in lines
    assert "-" not in lines


SITE_PAGE = """# Configuration

!!! note "Defaults"
    The server listens on port 8080 unless `PORT` is set.

:::tip Pro tip
Use `--verbose` to see every request, or `<b>` in a code span.
:::

<details>
<summary>Advanced options</summary>
The cache directory defaults to <code>~/.cache/app</code>.<br>It is changed with
the <b>APP_CACHE</b> variable.
</details>

{% include note.html content="a template tag" %}
{{< warning >}}Hugo shortcodes wrap text.{{< /warning >}}

> [!NOTE]
> Alerts are text.

=== "macOS and Linux"

    Run the script.

    === "Windows"

        Run the installer.

- Slotted classes are smaller.

    :::{note}
    Pickling them needs `__getstate__`.
    :::

Text after the list.

{* docs_src/options/version/tutorial002.py hl[16:19] *}

/// tip

Raise `typer.Exit()` to stop.

///

/// note | Technical Details

The callback runs first.

///

Text after the boxes.
"""


def test_markdown_site_dialects_read_as_they_render(tmp_path: Path) -> None:
    """MkDocs and Docusaurus admonitions, template tags and inline HTML read as the page
    a site builds from the file shows them."""
    doc = read_as(tmp_path, "configuration.md", SITE_PAGE)
    assert "The server listens on port 8080" in doc.text and "!!!" not in doc.text
    # an admonition's own title reads as its label, as a MyST box's does
    assert "Defaults:\nThe server listens on port 8080" in doc.text
    assert "Use `--verbose` to see every request, or `<b>` in a code span." in doc.text
    assert ":::" not in doc.text and "Pro tip:\nUse `--verbose`" in doc.text  # its title
    assert "defaults to ~/.cache/app. It is changed with\nthe APP_CACHE variable." in doc.text
    assert "<" not in doc.text.replace("`<b>`", "")  # tags gone, code spans as written
    assert "template tag" not in doc.text and "Hugo shortcodes wrap text." in doc.text
    assert "[!NOTE]" not in doc.text and "Alerts are text." in doc.text
    assert "macOS and Linux:\n\nRun the script." in doc.text  # a content tab's title
    assert "Windows:\n\nRun the installer." in doc.text  # ... also nested in another
    # a MyST colon fence inside a list item is a box, its marker lines nothing
    assert "\n\nPickling them needs `__getstate__`.\n\n" in doc.text
    # a file included as a code example, and PyMdown's block markers, read as nothing
    assert "docs_src" not in doc.text and "///" not in doc.text
    assert "\n\nRaise `typer.Exit()` to stop.\n\n" in doc.text
    assert "Technical Details:\n\nThe callback runs first." in doc.text  # its title
    assert len(doc.outline.splitlines()) == len(SITE_PAGE.rstrip().splitlines())


AUTODOC_PAGE = """# Exceptions

Exception classes.

::: httpx.HTTPError
    :docstring:

::: httpx.Client
    options:
      members: [get, post]

::: tip
A VitePress box.
:::

Some text after.
"""


def test_an_mkdocstrings_entry_reads_as_its_name(tmp_path: Path) -> None:
    """'::: httpx.HTTPError' renders as the object's name over its docstring: the name is
    read, as code, and its option lines (':docstring:') are not."""
    doc = read_as(tmp_path, "exceptions.md", AUTODOC_PAGE)
    assert "`httpx.HTTPError`" in doc.text and "`httpx.Client`" in doc.text
    assert ":::" not in doc.text and "docstring" not in doc.text
    assert "members" not in doc.text and "Some text after." in doc.text
    assert "A VitePress box." in doc.text and "tip" not in doc.text  # a box's marker
    assert len(doc.outline.splitlines()) == len(AUTODOC_PAGE.rstrip().splitlines())


MYST_PAGE = """# Caching

```{versionchanged} 20.0
pip now caches wheels built from a Git commit.
```

```{note}
:class: tip
The cache is safe to delete.
```

```{versionadded} 22.3
```

````{tab} Linux
```
~/.cache/pip
```

pip will also respect `XDG_CACHE_HOME`.
````

See {ref}`Installing from local packages <local-installs>` and {pep}`517`.

```{code-block} python
print("code")
```
"""


def test_myst_directives_read_as_sphinx_renders_them(tmp_path: Path) -> None:
    path = tmp_path / "caching.md"
    path.write_text(MYST_PAGE, "utf-8")
    doc = read_document(path)
    # a box, a tab or a version note holds Markdown, not code; its line is its label
    assert "Changed in version 20.0:\npip now caches wheels built from a Git commit." in doc.text
    assert "Note:\n\nThe cache is safe to delete." in doc.text  # its option reads as nothing
    assert "New in version 22.3." in doc.text  # a note with nothing under it is a sentence
    assert "Linux:\n```\n~/.cache/pip\n```\n\npip will also respect `XDG_CACHE_HOME`." in doc.text
    assert "See Installing from local packages and 517." in doc.text  # roles read as text
    assert '```{code-block} python\nprint("code")\n```' in doc.text  # code stays code
    for hidden in ("{note}", "{tab}", "{versionadded}", ":class:", "````"):
        assert hidden not in doc.text, hidden
    assert len(doc.outline.splitlines()) == len(MYST_PAGE.rstrip().splitlines())  # lines kept


def test_a_myst_box_whose_line_ends_a_sentence_reads_as_written(tmp_path: Path) -> None:
    path = tmp_path / "utils.md"
    path.write_text("# Utils\n\n```{note} If you need more, try using tqdm.\n```\n\nEnd.\n")
    assert "If you need more, try using tqdm.\n" in read_document(path).text


MYST_EVAL_RST = """# Exit codes

To read the exit code:

```{eval-rst}
.. tabs::

    .. group-tab:: PowerShell

        .. code-block:: powershell

           > echo $LASTEXITCODE

    .. group-tab:: Command Prompt

        .. code-block:: text

            > echo %ERRORLEVEL%
```
"""


def test_a_myst_eval_rst_block_reads_as_rest(tmp_path: Path) -> None:
    path = tmp_path / "exit-codes.md"
    path.write_text(MYST_EVAL_RST, "utf-8")
    doc = read_document(path)
    # its code blocks are code, each after its tab's title; its directives read as nothing
    assert "PowerShell:\n\n```\n\n> echo $LASTEXITCODE\n```" in doc.text
    assert "Command Prompt:\n\n```\n\n> echo %ERRORLEVEL%\n```" in doc.text
    for hidden in ("eval-rst", "Eval rst", ".. tabs", "code-block"):
        assert hidden not in doc.text, hidden
    assert len(doc.outline.splitlines()) == len(MYST_EVAL_RST.rstrip().splitlines())
    # one a page shows as an example, in a code block, stays as written
    shown = "# T\n\n````markdown\n```{eval-rst}\n.. note:: Hi.\n```\n````\n"
    path.write_text(shown, "utf-8")
    assert "```{eval-rst}\n.. note:: Hi.\n```" in read_document(path).text
    # a block never closed stays as written
    path.write_text("# T\n\n```{eval-rst}\n.. note::\n\n   Text.\n", "utf-8")
    assert "   Text." in read_document(path).outline


SPHINX_OBJECTS = """Configuration
=============

The methods used would be:

.. py:class:: Configuration
  :noindex:

  .. py:method:: load()

    Loads the configuration data into memory.

Types:

*   .. autoclass:: Choice
       :noindex:

Override the :meth:`~ParamType.convert` method.
"""


def test_sphinx_object_directives_read_as_their_signatures(tmp_path: Path) -> None:
    """Sphinx shows '.. py:method:: load()' as the signature over its description, and
    an autodoc entry ('.. autoclass:: Choice', also opening a list item) as the object's:
    each reads as its signature in code, its options as nothing; a role marked '~'
    ('~ParamType.convert') as the target's last name, in MyST as in reST."""
    path = tmp_path / "configuration.rst"
    path.write_text(SPHINX_OBJECTS, "utf-8")
    doc = read_document(path)
    assert "`Configuration`" in doc.text
    assert "`load()`\n\nLoads the configuration data into memory." in doc.text
    assert "* `Choice`" in doc.text and "Override the convert method." in doc.text
    for hidden in ("py:", "autoclass", "noindex", "~"):
        assert hidden not in doc.text, hidden
    assert len(doc.outline.splitlines()) == len(SPHINX_OBJECTS.rstrip().splitlines())
    myst = tmp_path / "types.md"
    myst.write_text("# Types\n\nOverride {meth}`~ParamType.convert`, not {class}`!Foo`.\n")
    assert "Override convert, not Foo." in read_document(myst).text


def test_sphinx_options_variables_and_settings_read_as_their_names(tmp_path: Path) -> None:
    """'.. option:: --warn-unreachable', '.. envvar:: MYPY_CACHE_DIR' and '.. confval::
    always_false' name what the text under them describes: read as the name in code, as
    an object's signature is, not blanked as another directive's line."""
    path = tmp_path / "options.rst"
    path.write_text(
        "Options\n=======\n\n.. option:: --warn-unreachable\n\n"
        "    This flag reports code that can never run.\n\n"
        ".. envvar:: MYPY_CACHE_DIR\n\n    Where the cache is written.\n\n"
        ".. confval:: always_false\n\n    :type: comma-separated list of strings\n",
        "utf-8",
    )
    text = read_document(path).text
    for name in ("`--warn-unreachable`", "`MYPY_CACHE_DIR`", "`always_false`"):
        assert name in text, name
    assert "option::" not in text and "confval" not in text


def test_a_rst_version_note_keeps_its_version(tmp_path: Path) -> None:
    path = tmp_path / "inspect.rst"
    path.write_text(
        "pip inspect\n===========\n\n.. versionadded:: 22.2\n\n"
        ".. versionchanged:: 23.0 The report gained an environment.\n\nText.\n",
        "utf-8",
    )
    doc = read_document(path)
    assert "New in version 22.2:" in doc.text
    assert "Changed in version 23.0: The report gained an environment." in doc.text


def test_adjacent_code_blocks_and_wrapped_roles_keep_every_line(tmp_path: Path) -> None:
    # two example directives one blank line apart: one block ends where the next starts;
    # a role whose target wraps to the next line; every line stays where it was (the
    # passages cite line ranges)
    page = (
        "# Options\n\n```{eval-rst}\n.. click:example::\n\n    @click.command()\n"
        "    def log():\n        pass\n\n.. click:run::\n\n    invoke(log)\n```\n\n"
        "Be {ref}`documented in the docstring\n  <documenting-arguments>`.\n\nEnd.\n"
    )
    path = tmp_path / "options.md"
    path.write_text(page, "utf-8")
    doc = read_document(path)
    assert len(doc.outline.splitlines()) == len(page.rstrip().splitlines())
    assert doc.outline.splitlines()[-1] == "End."
    assert "Be documented in the docstring\n" in doc.text


def test_navigation_directives_and_yaml_options_read_as_nothing(tmp_path: Path) -> None:
    page = (
        "# Topics\n\n```{contents}\n---\ndepth: 1\nlocal: true\n---\n```\n\n"
        "```{toctree}\n:maxdepth: 1\n\nauthentication\ncaching\n```\n\n"
        "```{note}\n---\nclass: tip\n---\nThe cache is safe to delete.\n```\n\nEnd.\n"
    )
    path = tmp_path / "index.md"
    path.write_text(page, "utf-8")
    doc = read_document(path)
    for hidden in ("depth", "local", "authentication", "caching", "class", "---", "Contents"):
        assert hidden not in doc.text, hidden
    assert "Note:\n\nThe cache is safe to delete." in doc.text
    assert len(doc.outline.splitlines()) == len(page.rstrip().splitlines())
    rst = tmp_path / "index.rst"
    rst.write_text("Topics\n======\n\n.. toctree::\n   :maxdepth: 1\n\n   caching\n\nText.\n")
    assert "caching" not in read_document(rst).text


def test_a_rst_directive_showing_python_is_code(tmp_path: Path) -> None:
    # a project's own directive ('.. click:example::') whose content parses as Python
    # that does something is a code block; a note's prose, or one bare word, is not
    path = tmp_path / "options.rst"
    path.write_text(
        "Options\n=======\n\n.. click:example::\n\n    @click.command()\n"
        "    @click.option('-v', count=True)\n    def log(v):\n        click.echo(v)\n\n"
        ".. note::\n\n    Counting is used for verbosity.\n\n.. hint::\n\n    Counting\n",
        "utf-8",
    )
    text = read_document(path).text
    assert "```\n\n@click.command()\n@click.option('-v', count=True)" in text
    assert text.endswith("click.echo(v)\n```\n\nCounting is used for verbosity.\n\nCounting")


def test_a_rst_directive_titled_by_its_argument_reads_as_its_title(tmp_path: Path) -> None:
    path = tmp_path / "install.rst"
    path.write_text(
        "Install\n=======\n\n.. tab:: Windows\n\n   Run the installer.\n\n"
        ".. image:: logo.png\n\n.. admonition:: Mind the PATH\n\n   Add it.\n",
        "utf-8",
    )
    doc = read_document(path)
    assert "Windows:" in doc.text and "Mind the PATH:" in doc.text
    assert "logo.png" not in doc.text  # a path is no title


def test_text_on_an_untitled_admonitions_line_is_its_content(tmp_path: Path) -> None:
    path = tmp_path / "advanced.rst"
    path.write_text(
        "Proxies\n=======\n\n.. warning::  Setting ``session.proxies`` may behave differently.\n"
        "    Values provided will be overwritten.\n\n.. note::\n\n   A note.\n",
        "utf-8",
    )
    text = read_document(path).text
    assert "Setting ``session.proxies`` may behave differently.\nValues provided" in text
    assert "warning" not in text and "note" not in text.replace("A note.", "")


def test_rst_auto_numbered_items_and_line_blocks_read_as_text(tmp_path: Path) -> None:
    path = tmp_path / "list.rst"
    path.write_text(
        "List\n====\n\n#. Use JSON output.\n\n| Manages the builds.\n\n"
        "+---+---+\n| a | b |\n+---+---+\n",
        "utf-8",
    )
    text = read_document(path).text
    assert "1. Use JSON output." in text and "#." not in text
    assert "\nManages the builds." in text and "| a | b |" in text  # a grid row stays


def test_a_generated_rst_block_is_a_comment_and_code_tabs_are_code(tmp_path: Path) -> None:
    # cog's markers ('.. [[[cog' with its indented program, '.. [[[end]]]') are comments,
    # not footnotes; a tab of code ('.. code-tab:: ini' under '.. tabs::') is code
    path = tmp_path / "contexts.rst"
    path.write_text(
        "Contexts\n========\n\nSet it:\n\n.. [[[cog\n    show_configs(ini='x')\n.. ]]]\n\n"
        ".. tabs::\n\n    .. code-tab:: ini\n        :caption: .coveragerc\n\n"
        "        [run]\n        dynamic_context = test_function\n\n"
        ".. [[[end]]] (sum: dZTDYjHw71)\n\nThey are joined with a pipe symbol.\n",
        "utf-8",
    )
    doc = read_document(path)
    for generated in ("cog", "show_configs", "[[[end", "sum:", "caption"):
        assert generated not in doc.text, generated
    assert "```\n\n[run]\ndynamic_context = test_function\n```" in doc.text
    assert doc.text.endswith("They are joined with a pipe symbol.")


def test_a_rst_literal_block_reads_as_written(tmp_path: Path) -> None:
    # a test run's '..   [100%]' and a pattern's '| two' are output and code, not a
    # comment or a line block; in a list item the block is what is indented past the
    # item's text, and the item goes on after it
    path = tmp_path / "changes.rst"
    path.write_text(
        "Changes\n=======\n\nRun it::\n\n    $ pytest -q\n    ..      [100%]\n"
        "    | two\\.pyi$\n\n* Instead of::\n\n    class C:\n        pass\n\n"
        "  you must now use::\n\n    class C(metaclass=M):\n        pass\n\n"
        "  The old variable is gone.\n",
        "utf-8",
    )
    text = read_document(path).text
    assert "$ pytest -q\n.. [100%]\n| two\\.pyi$\n```" in text  # spaces collapsed
    assert "* Instead of:\n```\n" in text and "```\nyou must now use:\n```\n" in text
    assert text.endswith("```\nThe old variable is gone.")


def test_a_rst_doctest_block_is_code(tmp_path: Path) -> None:
    # a paragraph opening with '>>>' is shown as code, its output lines too; one inside a
    # literal block is fenced once
    path = tmp_path / "shell.rst"
    path.write_text(
        "Shell\n=====\n\nCreate a context:\n\n>>> ctx = app.test_request_context()\n"
        ">>> ctx.push()\nTrue\n\nThen pop it::\n\n    >>> ctx.pop()\n\nDone.\n",
        "utf-8",
    )
    doc = read_document(path)
    assert "Create a context:\n```\n>>> ctx = app.test_request_context()" in doc.text
    assert ">>> ctx.push()\nTrue\n```\nThen pop it:\n```\n>>> ctx.pop()\n```" in doc.text
    assert len(doc.outline.splitlines()) == 14  # every line where it was
    # blocks one blank line apart go on as one: the fences stay paired, the title after
    # them a heading
    path.write_text(
        "Shell\n=====\n\n>>> a = 1\n\n>>> b = 2\n\n.. code-block:: python\n\n    c = 3\n\n"
        ">>> d = 4\n\nNext\n====\n\nText.\n",
        "utf-8",
    )
    outline = read_document(path).outline
    assert outline.count("```") == 4 and "```\n# Next\n" in outline


def test_a_markdown_footnote_reads_as_its_text(tmp_path: Path) -> None:
    # the reference renders as a raised number, the definition as text at the foot
    page = (
        "# Slots\n\nThey use less memory on CPython[^pypy] and are faster.\n"
        "Hash it for you [^fn], however.\n\n[^pypy]: On PyPy, there is no memory advantage.\n"
    )
    doc = read_as(tmp_path, "glossary.md", page)
    assert "less memory on CPython and are faster." in doc.text
    assert "Hash it for you, however." in doc.text
    assert doc.text.endswith("\n\nOn PyPy, there is no memory advantage.")
    assert len(doc.outline.splitlines()) == len(page.rstrip().splitlines())


def test_a_title_reads_without_code_marks(tmp_path: Path) -> None:
    path = tmp_path / "cmd_run.rst"
    path.write_text("Execution: ``coverage run``\n---------------------------\n\nRun it.\n")
    assert read_document(path).title == "Execution: coverage run"
    markdown = tmp_path / "cli.md"
    markdown.write_text("# The `uv auth` CLI\n\nLog in.\n")
    assert read_document(markdown).title == "The uv auth CLI"


def test_a_rst_diagram_is_fenced_as_its_language(tmp_path: Path) -> None:
    """'.. mermaid::' draws a diagram: fenced as Mermaid, its lines are no statements."""
    path = tmp_path / "how-it-works.rst"
    path.write_text(
        "How it works\n============\n\nEach app gets its own environment.\n\n"
        ".. mermaid::\n\n    flowchart LR\n    USER -->|install| TOOL\n\nThat is all.\n",
        encoding="utf-8",
    )
    text = read_document(path).text
    assert "```mermaid" in text
    assert not any("-->" in s for s in statements(text))
