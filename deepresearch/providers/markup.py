"""Plain-text markups read as a reader sees them rendered: Markdown without its comments
and link definitions, MDX without its imports and component tags, reStructuredText
without its directives and with its section titles as Markdown headings, YAML front
matter read for a title. Every line stays where it is, so line numbers (which passages
cite) still match the file."""

from __future__ import annotations

import re
import textwrap

from deepresearch.providers.rst_markup import (
    CODE_DIRECTIVE,
    FENCE_RUN,
    NAVIGATION,
    directive_label,
    rst_rendered,
    target_shown,
)

_HEADING = re.compile(r"^#[ \t]+(.+?)[ \t#]*$")


_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
# A link reference definition ('[dns.lookup()]: #dnslookup'), and a reference link using
# one: full '[text][label]', collapsed '[text][]' or shortcut '[text]'.
_LINK_DEFINITION = re.compile(r"^ {0,3}\[(?!\^)([^\]\n]+)\]:[ \t]*\S+.*$", re.MULTILINE)
_REFERENCE_LINK = re.compile(r"!?\[([^\]\n]+)\](?:\[([^\]\n]*)\])?(?![(:\[])")
# A footnote's reference ('CPython[^pypy]') renders as a raised number, no word of the
# sentence; its definition ('[^pypy]: On PyPy, …') as its text at the page's foot.
_FOOTNOTE_REFERENCE = re.compile(r"[ \t]*\[\^[^\]\s]+\](?!:)")
_FOOTNOTE_DEFINITION = re.compile(r"^( {0,3})\[\^[^\]\s]+\]:[ \t]*", re.MULTILINE)


def as_rendered(text: str) -> str:
    """Markdown as a reader sees it rendered: without its HTML comments ('<!-- YAML added:
    v8.3.0 -->') and link reference definitions, its reference links as their text
    ('[`dns.lookup()`][]' reads `dns.lookup()`); a bracket whose label nothing defines is
    text ('a[i][j]'); without template tags, admonition markers and inline HTML tags (see
    _TEMPLATE_TAG). Code blocks are kept as written (a page showing HTML), and every line
    break stays, so line numbers still match the file."""
    labels = {_label(m[1]) for m in _LINK_DEFINITION.finditer(text)}

    def link(m: re.Match[str]) -> str:
        return m[1] if _label(m[2] or m[1]) in labels else m[0]

    out: list[str] = []
    prose: list[str] = []  # the lines since the last code fence
    # The open MyST directives: each one's fence ('````') and where in ``prose`` its label
    # is (-1: said already).
    directives: list[tuple[str, int]] = []

    def flush() -> None:
        chunk = _marks_read("\n".join(prose))
        if labels:
            chunk = _REFERENCE_LINK.sub(link, _LINK_DEFINITION.sub("", chunk))
        if prose:  # none between a code block's end and the next one's start
            out.extend(_without_html_tags(line) for line in chunk.split("\n"))
        prose.clear()
        # the open directives' labels are said: code follows them
        directives[:] = [(fence, -1) for fence, _ in directives]

    fenced = options = yaml = False
    for line in _whole_directives_read(text).split("\n"):
        directive = None if fenced else _MYST_DIRECTIVE.match(line)
        if directive and not CODE_DIRECTIVE.fullmatch(directive["name"]):
            directives.append((directive["fence"], len(prose)))
            prose.append(directive_label(directive["name"], directive["argument"]))
            options = True
        elif not fenced and directives and _closes(line, directives[-1][0]):
            _, at = directives.pop()
            prose.append("")
            if at >= 0 and not any(p.strip() for p in prose[at + 1 :]):
                prose[at] = _said_alone(prose[at])
        elif options and (_MYST_OPTION.match(line) or line.strip() == "---" or yaml):
            # options as ':depth: 2' lines, or a YAML block between '---' lines, then none
            closing = yaml and line.strip() == "---"
            yaml = (yaml or line.strip() == "---") and not closing
            options = not closing
            prose.append("")
        elif FENCE_RUN.match(line):
            if not fenced:
                flush()
            fenced, options = not fenced, False
            out.append(line)
        elif fenced:
            out.append(line)
        else:
            prose.append(line)
            options = False
    flush()
    return "\n".join(out)


def _said_alone(label: str) -> str:
    """A directive's label with nothing under it, as a sentence: a version note's ('New in
    version 22.3.'); one whose line already ends a sentence ('```{note} Try tqdm.') as
    written."""
    said = label.removesuffix(":")
    return said if said.endswith((".", "?", "!")) else f"{said}."


def _marks_read(chunk: str) -> str:
    """Markdown prose without its comments, template tags, admonition markers and
    footnote references, a footnote as its text, a content tab's title as its label and a
    MyST role as its text; line breaks kept."""
    chunk = _AUTODOC.sub(_autodoc_read, _COMMENT.sub(_line_breaks, chunk))
    chunk = _FOOTNOTE_REFERENCE.sub("", _FOOTNOTE_DEFINITION.sub(r"\1", chunk))
    chunk = _ADMONITION.sub("", _TITLED_BOX.sub(_box_title, chunk))
    chunk = _TEMPLATE_TAG.sub(_line_breaks, chunk)
    return _MYST_ROLE.sub(_role_read, _CONTENT_TAB.sub(r"\1:", chunk))


# mkdocstrings' API entry ('::: httpx.Client' and its indented options, ':docstring:'),
# which MkDocs renders as the object's name over its docstring: the name is what the
# sources hold, so it reads as the name in code, its options as nothing.
_AUTODOC = re.compile(r"^ {0,3}:::[ \t]+([A-Za-z_][\w.]*)[ \t]*$((?:\n[ \t]+\S.*)*)", re.M)


def _autodoc_read(m: re.Match[str]) -> str:
    """An entry's name in code; a bare word with no options ('::: tip') is a VitePress
    box's marker, left for _ADMONITION to drop."""
    if "." not in m[1] and not m[2]:
        return m[0]
    return f"`{m[1]}`" + "\n" * m[2].count("\n")


def _role_read(m: re.Match[str]) -> str:
    """A MyST role as its text, with the line breaks its target wrapped over, so no line
    moves ('{ref}`the docs` / `<docs>`' over two lines); a target marked '~' as its last
    name ('{meth}`~ParamType.convert`' reads convert), as Sphinx shows it."""
    return target_shown(m[1]) + "\n" * m[0].count("\n")


# MyST's directive whose content is reStructuredText ('```{eval-rst}'), which Sphinx
# evaluates as such: a code block in it ('.. code-block:: powershell') is code.
_EVAL_RST = "eval-rst"


def _whole_directives_read(text: str) -> str:
    """Markdown with each MyST eval-rst directive read as the reST it holds (see
    ``rst_rendered``), its own lines blank, and each navigation directive blank; one in
    a code block (a page showing MyST) or never closed stays as written. Every line
    stays where it is."""
    lines = text.split("\n")
    out: list[str] = []
    code = None  # the fence of the code block being read
    directives: list[str] = []  # the fences of the open directives holding Markdown
    # The open eval-rst or navigation directive: its fence, its line, whether navigation.
    held: tuple[str, int, bool] | None = None
    for n, line in enumerate(lines):
        directive = None if code or held else _MYST_DIRECTIVE.match(line)
        if held is not None and _closes(line, held[0]):
            body = lines[held[1] + 1 : n]
            rendered = [] if held[2] else rst_rendered(textwrap.dedent("\n".join(body))).split("\n")
            # navigation reads as nothing; a code block running to its end is fenced on
            # the closing line
            out += ["", *rendered, *[""] * (len(body) + 1 - len(rendered))]
            held = None
        elif held is not None:
            continue
        elif code is not None:
            code = None if _closes(line, code) else code
            out.append(line)
        elif directive and directive["name"] in (_EVAL_RST, *NAVIGATION):
            held = (directive["fence"], n, directive["name"] in NAVIGATION)
        elif directive and not CODE_DIRECTIVE.fullmatch(directive["name"]):
            directives.append(directive["fence"])
            out.append(line)
        elif directives and _closes(line, directives[-1]):
            directives.pop()
            out.append(line)
        else:
            opened = directive or FENCE_RUN.match(line)
            code = (directive["fence"] if directive else opened[1]) if opened else None
            out.append(line)
    return "\n".join(out + (lines[held[1] :] if held is not None else []))


# A MyST directive ('```{note}', '````{tab} Linux', '```{versionadded} 22.3'): its content
# is Markdown a reader sees in a box, a tab or a version note, not code, unless the
# directive shows code; its options ('  :class: tip') render as nothing.
_MYST_DIRECTIVE = re.compile(
    r"^ {0,3}(?P<fence>`{3,}|~{3,})\{(?P<name>[\w:-]+)\}[ \t]*(?P<argument>.*)$"
)
_MYST_OPTION = re.compile(r"^[ \t]*:[\w-]+:")
# A MyST role reads as its text: '{ref}`Installing from local packages <local>`' reads
# Installing from local packages, '{pep}`517`' 517.
_MYST_ROLE = re.compile(r"\{[\w:.+-]+\}`([^`<\n]+?)(?:\s*<[^<>`\n]+>)?`")


def _closes(line: str, fence: str) -> bool:
    """Whether ``line`` closes a directive opened with ``fence``: the same character, at
    least as many times, alone on its line."""
    bare = line.strip()
    return len(bare) >= len(fence) and set(bare) == {fence[0]}


# MDX (Markdown with JSX, as Docusaurus, Nextra and Astro write docs): an ESM block ('import
# Tabs from ...', 'export const ...') runs to the next blank line; a component's tag
# ('<Tabs>', '</TabItem>', '<Note type="info" />') wraps text without being any; a JSX
# comment ('{/* ... */}') is none.
_ESM_START = re.compile(r"^(?:import|export)\s")
_JSX_TAG = re.compile(r"</?[A-Z][\w.]*(?:\s+[^<>]*?)?\s*/?>")
_JSX_COMMENT = re.compile(r"\{/\*.*?\*/\}", re.DOTALL)


def mdx_rendered(text: str) -> str:
    """MDX as the Markdown a reader sees: ESM blocks blanked, component tags dropped with
    their text kept, JSX comments dropped; code blocks as written, every line where it is."""
    out: list[str] = []
    fenced = esm = False
    for line in text.split("\n"):
        if FENCE_RUN.match(line):
            fenced = not fenced
        elif not fenced:
            esm = bool(line.strip()) and (esm or bool(_ESM_START.match(line)))
            line = "" if esm else _JSX_TAG.sub("", line)
        out.append(line)
    return _JSX_COMMENT.sub(_line_breaks, "\n".join(out))


# What a Markdown site's renderer turns into something else or nothing, outside code: a
# template tag (Liquid/Jinja '{% include … %}', Hugo '{{< note >}}', a file included as a
# code example '{* docs_src/main.py hl[3] *}'), an admonition's marker line (MkDocs '!!! note
# "Title"', Docusaurus and VitePress ':::tip' and ':::', a MyST colon fence ':::{note}' and
# its ':::' also in a list item, a PyMdown block '/// tip' and its '///'), a GitHub alert's
# '[!NOTE]', and inline HTML tags ('<code>', '<br>', '<details>'), whose text stays.
_TEMPLATE_TAG = re.compile(r"\{%.*?%\}|\{\{[<%].*?[>%]\}\}|\{\*.*?\*\}", re.DOTALL)
_ADMONITION = re.compile(
    r"^ {0,3}(?:(?:!!!|\?\?\?\+?)[ \t]+[\w-]+.*|:::.*|/{3,}(?:[ \t]*[\w-]+)?[ \t]*)$"
    r"|^[ \t]*:::+(?:\{[\w:-]+\}.*)?$|(?<=>)[ \t]*\[![A-Za-z]+\][ \t]*$",
    re.MULTILINE,
)
# An admonition's own title (MkDocs '!!! warning "Deprecated in 2.17.0"', Docusaurus
# ':::tip[Pro tip]' or ':::tip Pro tip', VitePress '::: details Click me', PyMdown '/// note |
# Technical Details') is what the box shows over its content: it reads as a MyST box's
# label does ('Deprecated in 2.17.0:'); an empty one ('!!! note ""') shows none.
_TITLED_BOX = re.compile(
    r'^( {0,3})(?:(?:!!!|\?\?\?\+?)[ \t]+[\w-]+(?:[ \t]+[\w-]+)*[ \t]+"([^"\n]*)"'
    r"|:::+[ \t]*[A-Za-z][\w-]*(?:\[([^\]\n]*)\]|[ \t]+([^\s{][^\n]*?))"
    r"|/{3,}[ \t]*[\w-]+[ \t]*\|[ \t]*([^\n]*?))[ \t]*$",
    re.M,
)


def _box_title(m: re.Match[str]) -> str:
    title = next((t for t in m.groups()[1:] if t is not None), "").strip()
    if not title:
        return ""
    return m[1] + (title if title.endswith((".", "?", "!", ":")) else f"{title}:")


# A content tab's title (MkDocs Material '=== "macOS and Linux"') reads as a MyST tab's
# does: 'macOS and Linux:', leading into the tab's content.
_CONTENT_TAB = re.compile(r'^[ \t]*===[!+]?[ \t]+"([^"\n]+)"[ \t]*$', re.MULTILINE)
_HTML_TAG = re.compile(r"</?[A-Za-z][\w-]*(?:\s[^<>]*)?/?>")
_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")


def _line_breaks(m: re.Match[str]) -> str:
    """What a dropped stretch leaves: its line breaks, so no line moves."""
    return "\n" * m[0].count("\n")


def _without_html_tags(line: str) -> str:
    """A Markdown line without its inline HTML tags, their text kept ('<b>APP_CACHE</b>'
    reads APP_CACHE, '<br>' a space); tags inside code spans are code."""
    if "<" not in line:
        return line
    out, end = [], 0
    for m in _CODE_SPAN.finditer(line):
        out += [_HTML_TAG.sub(_tag_text, line[end : m.start()]), m[0]]
        end = m.end()
    return "".join([*out, _HTML_TAG.sub(_tag_text, line[end:])])


def _tag_text(m: re.Match[str]) -> str:
    return " " if m[0].lower().startswith("<br") else ""


def _label(text: str) -> str:
    """A link label as Markdown matches it: case and runs of spaces do not count."""
    return " ".join(text.split()).casefold()


# YAML front matter (static site generators: Jekyll, Hugo, Docusaurus, MkDocs…): a block of
# 'key: value' lines between two '---' lines at the very top of a Markdown file.
_FRONT_MATTER = re.compile(r"\A---[ \t]*\n((?:.*\n){0,40}?)---[ \t]*(?:\n|\Z)")
_META_LINE = re.compile(r"^([A-Za-z_][\w-]*)[ \t]*:[ \t]*(.*)$")


def front_matter(text: str) -> tuple[str, str]:
    """The text with its front matter block read, and the block's ``title``. The block's
    lines are blanked (so line numbers still match the file) except a ``description``,
    which is kept as the document's first sentence; '' for the title when there is none."""
    m = _FRONT_MATTER.match(text)
    if m is None:
        return text, ""
    fields: dict[str, str] = {}
    for line in m[1].splitlines():
        if field := _META_LINE.match(line):
            fields.setdefault(field[1].lower(), field[2].strip().strip("'\""))
    if not fields:
        return text, ""  # a thematic break at the top, not front matter
    body = ["" for _ in m[0].splitlines()]
    if description := fields.get("description", ""):
        body[0] = description.rstrip(".") + "."
    return "\n".join(body) + "\n" + text[m.end() :], fields.get("title", "")


def first_title(text: str) -> str:
    """The first '# Title' line outside code fences ('# comment' lines in a shell block
    are not titles)."""
    fenced = False
    for line in text.splitlines():
        if FENCE_RUN.match(line):
            fenced = not fenced
        elif not fenced and (m := _HEADING.match(line)):
            return m.group(1).strip()
    return ""
