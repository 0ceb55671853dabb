"""reStructuredText read as a reader sees it rendered (directive lines, comments and
targets dropped, roles and links as their text, literal, doctest and code blocks fenced as
Markdown code, section titles as Markdown headings), and the directive vocabulary MyST
shares with it. Every line stays where it is, so line numbers still match the file."""

from __future__ import annotations

import ast
import re
import textwrap
import warnings

from deepresearch.providers.rst_tables import with_tables

FENCE_RUN = re.compile(r"^ {0,3}(`{3,}|~{3,})")  # a code fence, all its characters

# Directives whose content Sphinx renders as navigation (the pages' or sections' titles),
# not as text: it reads as nothing.
NAVIGATION = frozenset(["toctree", "contents"])


def target_shown(target: str) -> str:
    """A role's target as Sphinx shows it: '!' only stops it making a link (':option:`!-x`'),
    and a target marked '~' shows its last name ('~email.message.Message' reads Message)."""
    target = target.removeprefix("!")
    return target[1:].rsplit(".", 1)[-1] if target.startswith("~") else target


# The directives whose content is code, as a literal block is (reST '.. code-block::',
# MyST '```{code-block} python').
CODE_DIRECTIVE = re.compile(
    r"code|code-block|code-cell|code-tab|sourcecode|doctest|testcode|testoutput|literalinclude"
    r"|math|mermaid|graphviz"
)
DIAGRAMS = frozenset(["mermaid", "graphviz"])  # code directives drawing a diagram
# The version notes as Sphinx renders them ('Changed in version 20.0: pip now caches …').
VERSION_NOTES = {
    "versionadded": "New in version",
    "versionchanged": "Changed in version",
    "deprecated": "Deprecated since version",
    "versionremoved": "Removed in version",
}


def directive_label(name: str, argument: str) -> str:
    """What a directive's own line reads as: a version note's words and version ('New in
    version 22.3:'), a titled box or tab its title ('Linux:'), an untitled one its kind
    ('Note:'), each leading into the content under it."""
    argument = argument.strip()
    if name in VERSION_NOTES:
        # reST may go on after the version on the directive's line ('3.4 Added …').
        version, _, rest = argument.partition(" ")
        return f"{VERSION_NOTES[name]} {version}: {rest.strip()}".replace(" :", ":").rstrip()
    label = argument or name.replace("-", " ").capitalize()
    return label if label.endswith((":", ".", "?", "!")) else f"{label}:"


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

# The admonitions whose directive line holds no title: text after '::' ('.. warning::
# Setting ``session.proxies`` may …') is the first line of their content.
_UNTITLED_BOXES = frozenset(
    ["note", "warning", "tip", "important", "caution", "attention", "danger", "error", "hint",
     "seealso", "todo"]
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
    block, a doctest block and a code directive's content are fenced code; a table is a
    Markdown table (``rst_tables``). A footnote ('.. [1] …') is text.
    Every line stays where it is, so line numbers still match the file."""
    lines = with_tables(text.split("\n"))
    out: list[str] = []
    code: list[int] = []  # lines that introduce a literal block ('Example::', '.. code::')
    drawn: dict[int, str] = {}  # ... of them, a diagram's ('.. mermaid::'): its language
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
        if CODE_DIRECTIVE.fullmatch(kind) or (kind and _holds_python(lines, len(out))):
            if kind in DIAGRAMS:
                drawn[len(out)] = kind
            code.append(len(out))
            literal = _text_column(line)
        out.append(_directive_shown(line, m[1], kind, argument))
        if "::" in (m[2] or "") and kind not in NAVIGATION:
            options = True
        else:  # a comment, a target or navigation: its block reads as nothing
            body = len(m[1])
    for start in reversed(code):
        _fence(lines, out, start, drawn.get(start, ""))
    for start in doctests:
        _fence_doctest(out, start)
    # Roles and links may wrap to the next line; what they read as keeps its line breaks.
    text = _RST_LINK.sub(r"\1", _RST_ROLE.sub(_role_text, "\n".join(out)))
    return _RST_INTERPRETED.sub(_interpreted_text, text)


def _directive_shown(line: str, lead: str, kind: str, argument: str) -> str:
    """What a directive's own ``line`` reads as (``lead``: what precedes its '..'): a
    version note or titled box its label, an object its signature in code, an untitled
    box the text after '::' (its content's first line), any other nothing."""
    said = argument.strip()
    if kind in VERSION_NOTES or (kind in _TITLED and said):
        return lead + directive_label(kind, argument)
    if _OBJECT_DIRECTIVE.fullmatch(kind) and said:
        return f"{lead}`{said}`"
    if kind in _UNTITLED_BOXES and said:
        return " " * line.index(said) + said
    return ""


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


def _fence(lines: list[str], out: list[str], start: int, language: str) -> None:
    """The literal block after ``lines[start]`` fenced as Markdown code in ``out``, its
    ``language`` named on the opening fence: the lines indented past it, from the blank
    line after it (or the directive's own line, which reads as nothing) to the blank line
    after them, so no line moves."""
    span = _block(lines, start)
    if span is None:
        return  # no block follows
    first, last = span
    # a directive's own line reads as nothing; after 'Example::', the blank line under it
    opening = start if not out[start].strip() else first - 1
    closing = last + 1
    if out[opening].strip() or (closing < len(out) and out[closing].strip()):
        return  # no blank line to fence it with, and no line may move
    out[opening] = "```" + language
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


# Interpreted text with no role (`pre_load <marshmallow.decorators.pre_load>`,
# `~marshmallow.Schema`), which the project's default role (Sphinx's `default_role`, often
# "py:obj") renders as a cross-reference: its title or its target shown.
_RST_INTERPRETED = re.compile(rf"(?<![`\w:])`((?:(?!`){_INLINE})+?)`(?![`_\w])")


def _interpreted_text(m: re.Match[str]) -> str:
    text = m[1]
    if (target := re.match(r"(.+?)\s*<[^<>]+>$", text, re.DOTALL)) is not None:
        return f"`{target[1]}`"  # `pre_load <marshmallow.decorators.pre_load>` reads pre_load
    return f"`{target_shown(text)}`"


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
    return target_shown(text)


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
            or (i > 0 and lines[i - 1].strip() and not over and not FENCE_RUN.match(lines[i - 1]))
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
