"""Plain-text markups read as a reader sees them rendered: Markdown without its comments
and link definitions, MDX without its imports and component tags, reStructuredText
without its directives and with its section titles as Markdown headings, YAML front
matter read for a title. Every line stays where it is, so line numbers (which passages
cite) still match the file."""

from __future__ import annotations

import ast
import re
import textwrap
import warnings

_HEADING = re.compile(r"^#[ \t]+(.+?)[ \t#]*$")
_FENCE_RUN = re.compile(r"^ {0,3}(`{3,}|~{3,})")  # a code fence, all its characters


# The directives whose content is code, as a literal block is (reST '.. code-block::',
# MyST '```{code-block} python').
_CODE_DIRECTIVE = re.compile(
    r"code|code-block|code-cell|code-tab|sourcecode|doctest|testcode|testoutput|literalinclude"
    r"|math|mermaid|graphviz"
)
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
        if directive and not _CODE_DIRECTIVE.fullmatch(directive["name"]):
            directives.append((directive["fence"], len(prose)))
            prose.append(_directive_label(directive["name"], directive["argument"]))
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
        elif _FENCE_RUN.match(line):
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
    return _target_shown(m[1]) + "\n" * m[0].count("\n")


def _target_shown(target: str) -> str:
    """A role's target as Sphinx shows it: '!' only stops it making a link (':option:`!-x`'),
    and a target marked '~' shows its last name ('~email.message.Message' reads Message)."""
    target = target.removeprefix("!")
    return target[1:].rsplit(".", 1)[-1] if target.startswith("~") else target


# MyST's directive whose content is reStructuredText ('```{eval-rst}'), which Sphinx
# evaluates as such: a code block in it ('.. code-block:: powershell') is code.
_EVAL_RST = "eval-rst"
# Directives whose content Sphinx renders as navigation (the pages' or sections' titles),
# not as text: it reads as nothing.
_NAVIGATION = frozenset(["toctree", "contents"])


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
        elif directive and directive["name"] in (_EVAL_RST, *_NAVIGATION):
            held = (directive["fence"], n, directive["name"] in _NAVIGATION)
        elif directive and not _CODE_DIRECTIVE.fullmatch(directive["name"]):
            directives.append(directive["fence"])
            out.append(line)
        elif directives and _closes(line, directives[-1]):
            directives.pop()
            out.append(line)
        else:
            opened = directive or _FENCE_RUN.match(line)
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
# The version notes as Sphinx renders them ('Changed in version 20.0: pip now caches …').
_VERSION_NOTES = {
    "versionadded": "New in version",
    "versionchanged": "Changed in version",
    "deprecated": "Deprecated since version",
    "versionremoved": "Removed in version",
}


def _directive_label(name: str, argument: str) -> str:
    """What a directive's own line reads as: a version note's words and version ('New in
    version 22.3:'), a titled box or tab its title ('Linux:'), an untitled one its kind
    ('Note:'), each leading into the content under it."""
    argument = argument.strip()
    if name in _VERSION_NOTES:
        # reST may go on after the version on the directive's line ('3.4 Added …').
        version, _, rest = argument.partition(" ")
        return f"{_VERSION_NOTES[name]} {version}: {rest.strip()}".replace(" :", ":").rstrip()
    label = argument or name.replace("-", " ").capitalize()
    return label if label.endswith((":", ".", "?", "!")) else f"{label}:"


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
        if _FENCE_RUN.match(line):
            fenced = not fenced
        elif not fenced:
            esm = bool(line.strip()) and (esm or bool(_ESM_START.match(line)))
            line = "" if esm else _JSX_TAG.sub("", line)
        out.append(line)
    return _JSX_COMMENT.sub(_line_breaks, "\n".join(out))


# What a Markdown site's renderer turns into something else or nothing, outside code: a
# template tag (Liquid/Jinja '{% include … %}', Hugo '{{< note >}}'), an admonition's marker
# line (MkDocs '!!! note "Title"', Docusaurus and VitePress ':::tip' and ':::', a MyST
# colon fence ':::{note}' and its ':::' also in a list item), a GitHub
# alert's '[!NOTE]', and inline HTML tags ('<code>', '<br>', '<details>'), whose text stays.
_TEMPLATE_TAG = re.compile(r"\{%.*?%\}|\{\{[<%].*?[>%]\}\}", re.DOTALL)
_ADMONITION = re.compile(
    r"^ {0,3}(?:(?:!!!|\?\?\?\+?)[ \t]+[\w-]+.*|:::.*)$|^[ \t]*:::+(?:\{[\w:-]+\}.*)?$"
    r"|(?<=>)[ \t]*\[![A-Za-z]+\][ \t]*$",
    re.MULTILINE,
)
# An admonition's own title (MkDocs '!!! warning "Deprecated in 2.17.0"', Docusaurus
# ':::tip[Pro tip]' or ':::tip Pro tip', VitePress '::: details Click me') is what the box
# shows over its content: it reads as a MyST box's label does ('Deprecated in 2.17.0:'); an
# empty one ('!!! note ""') shows none.
_TITLED_BOX = re.compile(
    r'^( {0,3})(?:(?:!!!|\?\?\?\+?)[ \t]+[\w-]+(?:[ \t]+[\w-]+)*[ \t]+"([^"\n]*)"'
    r"|:::+[ \t]*[A-Za-z][\w-]*(?:\[([^\]\n]*)\]|[ \t]+([^\s{][^\n]*?)))[ \t]*$",
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


# '.. note::', '.. _target:', and a directive opening a list item ('*   .. autoclass:: Path')
_RST_EXPLICIT = re.compile(r"^([ \t]*(?:[*+-][ \t]+)?)\.\.(?:[ \t]+(.*))?$")
_RST_OPTION = re.compile(r"^[ \t]+:[\w-]+:")  # a directive's option line ('   :linenos:')
# A footnote or citation ('.. [1] …', '.. [#note] …', '.. [RFC2616] …'), which is text;
# another '.. [' opens a comment ('.. [[[cog' of a generated block).
_RST_FOOTNOTE = re.compile(r"\[(?:\d+|#[\w.-]*|\*|[A-Za-z_][\w.-]*)\](?:\s|$)")
# Inline text that may wrap to the next line, not past a paragraph's end.
_INLINE = r"(?:[^`\n]|\n(?![ \t]*\n))"
_RST_ROLE = re.compile(rf":[\w.+-]+(?::[\w.+-]+)*:`({_INLINE}+)`")  # ':mod:`email`'
# A hyperlink reference reads as its text: '`the docs <https://…>`_', '`PEP 8`_'.
_RST_LINK = re.compile(rf"(?<![`\w])`((?:(?![<>]){_INLINE})+?)(?:\s*<[^<>`]+>)?`__?(?!\w)")


# An auto-numbered list item ('#. Use JSON') reads as a numbered one; a line of a line
# block ('| Manages the building of packages') as its text (a grid table's row, which
# ends with '|', stays a row).
_RST_AUTO_NUMBER = re.compile(r"^([ \t]*)#\.([ \t]+)")
_RST_LINE_BLOCK = re.compile(r"^([ \t]*)\|[ \t]+(?=.*[^|\s][ \t]*$)")
# The reST directives whose argument is a title Sphinx shows ('.. group-tab:: PowerShell',
# '.. admonition:: Caution with pipes'), read as a MyST tab's or box's title is; other
# arguments are a language, a path or a target, shown as no text.
_TITLED = frozenset(
    ["tab", "group-tab", "tab-item", "admonition", "topic", "sidebar", "rubric",
     "dropdown", "card", "table", "list-table", "csv-table"]
)  # fmt: skip


# Sphinx's object directives ('.. py:method:: load()', '.. autoclass:: Choice', with or
# without a domain): Sphinx shows the object's signature over its description, so the
# line reads as that signature in code (an autodoc entry's name; its docstring is not here).
_OBJECT_DIRECTIVE = re.compile(
    r"(?:(?:py|c|cpp|js):)?(?:function|class|method|classmethod|staticmethod|attribute"
    r"|property|data|exception|decorator|macro|member|struct|type|var)"
    r"|auto(?:class|function|method|attribute|property|data|exception|decorator)"
    # Sphinx's own objects: a command-line option, an environment variable, a setting
    # ('.. option:: --strict', '.. confval:: warn_unused_ignores'): what the text under
    # it describes, named nowhere else
    r"|(?:std:)?(?:option|cmdoption|envvar|confval|describe|object)"
)


def rst_rendered(text: str) -> str:
    """reStructuredText as a reader sees it rendered: comments and hyperlink targets ('..
    _changes:') with their indented blocks, and directive lines ('.. note::', with their
    options) blanked, a directive's content kept; a role reads as its text (':mod:`email`'
    reads email, ':class:`~email.message.Message`' Message, ':pep:`8`' PEP 8); an object's
    directive ('.. py:method:: load()') reads as its signature in code; a literal
    block, a doctest block and a code directive's content are fenced code. A footnote
    ('.. [1] …') is text.
    Every line stays where it is, so line numbers still match the file."""
    lines = text.split("\n")
    out: list[str] = []
    code: list[int] = []  # lines that introduce a literal block ('Example::', '.. code::')
    body: int | None = None  # blanking a comment's block: lines indented past this
    options = False  # blanking a directive's option lines
    literal: int | None = None  # in a literal block: lines indented past this are as written
    doctests: list[int] = []  # the first lines of doctest blocks ('>>> import attr')
    for line in lines:
        indent = len(line) - len(line.lstrip())
        if body is not None and (not line.strip() or indent > body):
            out.append("")
            continue
        if options and _RST_OPTION.match(line):
            out.append("")
            continue
        if literal is not None and (not line.strip() or indent > literal):
            out.append(line)  # '..   [100%]' in a test run's output is no comment
            continue
        body, options, literal = None, False, None
        m = _RST_EXPLICIT.match(line)
        if _DOCTEST.match(line) and out and not out[-1].strip():
            doctests.append(len(out))
        if m is None or _RST_FOOTNOTE.match(m[2] or ""):
            line = _RST_LINE_BLOCK.sub(r"\1", _RST_AUTO_NUMBER.sub(r"\g<1>1.\2", line))
            if line.rstrip().endswith("::"):
                code.append(len(out))
                literal, line = _text_column(line), _without_literal_mark(line.rstrip())
            out.append(line)
            continue
        kind, directive, argument = (m[2] or "").partition("::")
        kind = kind.strip() if directive else ""
        if _CODE_DIRECTIVE.fullmatch(kind) or (kind and _holds_python(lines, len(out))):
            code.append(len(out))
            literal = _text_column(line)
        if kind in _VERSION_NOTES or (kind in _TITLED and argument.strip()):
            out.append(m[1] + _directive_label(kind, argument))
        elif _OBJECT_DIRECTIVE.fullmatch(kind) and argument.strip():
            out.append(f"{m[1]}`{argument.strip()}`")
        else:
            out.append("")
        if "::" in (m[2] or "") and kind not in _NAVIGATION:
            options = True
        else:  # a comment, a target or navigation: its block reads as nothing
            body = len(m[1])
    for start in reversed(code):
        _fence(lines, out, start)
    for start in doctests:
        _fence_doctest(out, start)
    # Roles and links may wrap to the next line; what they read as keeps its line breaks.
    return _RST_LINK.sub(r"\1", _RST_ROLE.sub(_role_text, "\n".join(out)))


def _without_literal_mark(line: str) -> str:
    """A line ending in '::' (a literal block follows) as reST renders it: 'Example::'
    reads 'Example:'; 'Example ::' and a lone '::' read without it."""
    bare = line[:-2]
    return bare if not bare.strip() or bare[-1].isspace() else bare + ":"


def _block(lines: list[str], start: int) -> tuple[int, int] | None:
    """The first and last line of the block indented under ``lines[start]`` (past its
    blank and option lines), or None when none follows."""
    base = _text_column(lines[start])
    first = start + 1
    while first < len(lines) and (not lines[first].strip() or _RST_OPTION.match(lines[first])):
        first += 1
    if first >= len(lines) or _indent(lines[first]) <= base:
        return None
    last = first
    for i in range(first, len(lines)):
        if lines[i].strip():
            if _indent(lines[i]) <= base:
                break
            last = i
    return first, last


# What a block of Python does beyond naming a value: a block of prose never parses as
# these.
_PYTHON_STATEMENTS = (
    ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom,
    ast.Assign, ast.AugAssign, ast.AnnAssign, ast.With, ast.For, ast.While, ast.If, ast.Try,
)  # fmt: skip


def _holds_python(lines: list[str], start: int) -> bool:
    """Whether the block under the directive at ``lines[start]`` is Python code (a custom
    directive showing an example, '.. click:example::'): it parses, and it defines,
    imports, assigns, loops or calls."""
    span = _block(lines, start)
    if span is None:
        return False
    source = textwrap.dedent("\n".join(lines[span[0] : span[1] + 1]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # an example's escapes ('\\f' in a docstring)
        try:
            tree = ast.parse(source)
        except (SyntaxError, ValueError):
            return False
    return any(
        isinstance(node, _PYTHON_STATEMENTS)
        or (isinstance(node, ast.Expr) and isinstance(node.value, ast.Call))
        for node in tree.body
    )


def _fence(lines: list[str], out: list[str], start: int) -> None:
    """The literal block after ``lines[start]`` fenced as Markdown code in ``out``: the
    lines indented past it, from the blank line after it (or the directive's own line,
    which reads as nothing) to the blank line after them, so no line moves."""
    span = _block(lines, start)
    if span is None:
        return  # no block follows
    first, last = span
    # a directive's own line reads as nothing; after 'Example::', the blank line under it
    opening = start if not out[start].strip() else first - 1
    closing = last + 1
    if out[opening].strip() or (closing < len(out) and out[closing].strip()):
        return  # no blank line to fence it with, and no line may move
    out[opening] = "```"
    if closing < len(out):
        out[closing] = "```"
    else:
        out.append("```")


# A doctest block: a paragraph opening with the interpreter's prompt, which reST shows as
# code without a '::' before it.
_DOCTEST = re.compile(r"^[ \t]*>>>(?:[ \t]|$)")


def _fence_doctest(out: list[str], start: int) -> None:
    """The doctest block from ``out[start]`` to the paragraph's end fenced as Markdown code
    on the blank lines around it, so no line moves. A code block just before or after it,
    whose fence already stands on that blank line, goes on through it instead."""
    end = next((n for n in range(start, len(out)) if out[n].strip() in ("", "```")), len(out))
    out[start - 1] = "" if out[start - 1] == "```" else "```"
    if end == len(out):
        out.append("```")
    else:
        out[end] = "" if out[end] == "```" else "```"


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


# A list item's marker ('* ', '2. ', '#. '): the item's text, and a block under it, is
# indented past it.
_ITEM_MARKER = re.compile(r"^[ \t]*(?:[*+-]|\d+[.)]|#\.)[ \t]+")


def _text_column(line: str) -> int:
    """Where the text of ``line`` begins, past a list item's marker: a literal block
    after it is indented further ('* Instead of::' with its block at four spaces)."""
    m = _ITEM_MARKER.match(line)
    return len(m[0]) if m else _indent(line)


# reStructuredText by content: a directive or target line ('.. note::', '.. _guide:') or
# a role (':func:`open`'), which plain text does not write (Sphinx publishes its sources
# as 'name.rst.txt').
_RST_MARK = re.compile(
    r"^[ \t]*\.\.[ \t]+(?:[\w:-]+::|_[^:\n]+:)|" + _RST_ROLE.pattern, re.MULTILINE
)


def looks_like_rst(text: str) -> bool:
    """Whether plain text is reStructuredText: it has a directive, a target or a role."""
    return _RST_MARK.search(text) is not None


# Roles whose target is a value, shown as written (':const:`0`'), not a numbered record.
_VALUE_ROLES = frozenset(["const", "data", "attr", "obj", "code", "literal", "samp", "math"])


def _role_text(m: re.Match[str]) -> str:
    text = m[1].removeprefix("!")
    kind = m[0][1 : m[0].rindex(":")].rsplit(":", 1)[-1]  # ':py:const:' is a const
    if kind in ("pep", "rfc") and text.isdigit():
        return f"{kind.upper()} {text}"  # as Sphinx shows them: ':pep:`8`' reads PEP 8
    if text.isdigit() and kind not in _VALUE_ROLES:
        # a numbered record of a tracker (':issue:`2335`', ':gh:`1234`'), as Sphinx's
        # extlinks show one ('gh-1234'): a number alone would read as a figure
        return f"{kind}-{text}"
    if (target := re.match(r"(.+?)\s*<[^<>]+>$", text, re.DOTALL)) is not None:
        return target[1]  # ':ref:`the guide <guide>`' reads the guide
    return _target_shown(text)


# A reStructuredText section title: a line underlined (and maybe overlined) by a run of
# one punctuation character at least as long as the title.
_RST_RULE = re.compile(r"^([=\-~^\"'`#*+:._<>])\1{2,}[ \t]*$")
_MD_LIKE = re.compile(r"^ {0,3}#")


def rst_headings(text: str) -> str:
    """reStructuredText section titles as Markdown heading lines ('Install' over '====='
    becomes '# Install'), levels in the order the underline styles first appear, as
    reST defines them; the rule lines are blanked so line numbers still match the file.
    Text unchanged when it has no titles. Other lines that would read as Markdown
    headings ('# comment' in a code block) are indented out of the way."""
    lines = text.splitlines()
    out = [(" " * 4 + line) if _MD_LIKE.match(line) else line for line in lines]
    styles: list[tuple[str, bool]] = []
    found = False
    i = 0
    while i + 1 < len(lines):
        title, rule = lines[i], lines[i + 1]
        over = bool(_RST_RULE.match(title)) and i + 2 < len(lines)
        if over:  # overline, title, underline of the same character
            title, rule = lines[i + 1], lines[i + 2]
        bare = title.strip()
        m = _RST_RULE.match(rule)
        if (
            not m or not bare or _RST_RULE.match(title) or (not over and title[:1].isspace())
            or len(rule.rstrip()) < len(title.rstrip()) or (over and lines[i][0] != m[1])
            or (i > 0 and lines[i - 1].strip() and not over and not _FENCE_RUN.match(lines[i - 1]))
        ):  # fmt: skip
            i += 1
            continue
        style = (m[1], over)
        if style not in styles:
            styles.append(style)
        level = min(styles.index(style) + 1, 6)
        span = 3 if over else 2
        out[i : i + span] = [""] * span
        out[i + (1 if over else 0)] = "#" * level + " " + bare
        found, i = True, i + span
    return "\n".join(out) + ("\n" if text.endswith("\n") else "") if found else text


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
        if _FENCE_RUN.match(line):
            fenced = not fenced
        elif not fenced and (m := _HEADING.match(line)):
            return m.group(1).strip()
    return ""
