"""How a code block or a table is stated: each line or row a brief quote of its own
("Code: `…`", "Table row: Column: cell; …"), a comment written as prose a statement, and
Markdown's own marks read as the text they mark (``plain``). Used by ``statements``,
which decides where a block is and what the prose around it says."""

from __future__ import annotations

import re

from deepresearch.text import normalize, sentences

TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}")

MAX_QUOTE_CHARS = 200  # a table row or code line quoted as such

CODE_SYMBOL_SHARE = 0.2  # a line this dense with code symbols is code, not prose

TABLE_ROW = "Table row: "

CODE = "Code: "

QUOTES = (TABLE_ROW, CODE)  # how a quoted table row or code line opens


# A line comment in a program's code: "# …" or "// …" (not "#!" nor "#include").
_COMMENT = re.compile(r"^\s*(?:#|//)\s+(\S.*)$")

COMMENT_WORDS = 8  # a comment of this many words or more is prose

# Emphasis marks come in pairs around text ("**bold**", "*word*", "*[a note]*"); a lone
# asterisk is text: a glob ("[profile.dev.package.\"*\"]"), a product ("2 * 3"), a
# footnote mark. Underscores mark nothing inside a word (CommonMark), and a dunder name
# ("__main__.py", "__init__") is a name, not strong emphasis: a statement read back from a
# summary has lost the code span that held it.
_STRONG = re.compile(
    r"\*\*(?=\S)([^\n]+?)(?<=\S)\*\*"
    r"|(?<!\w)__(?![a-z][a-z0-9_]*__)(?=\S)([^\n]+?)(?<=\S)__(?!\w)"
)

_EMPHASIS = re.compile(
    r"(?<![\w*])\*(?=[\w\[(])([^\n*]+?)(?<=[^\s*])\*(?![\w*])"
    # '_not_', not a word's inner underscores ('snake_case_name'), as CommonMark reads them
    r"|(?<![\w_])_(?=[^\s_])([^\n_]*?[^\s_])_(?![\w_])"
)

CODE_SPAN = re.compile(r"(`+)(?!`).+?(?<!`)\1(?!`)")  # a fence closes a span of its length

_HELD = re.compile("\ue000(\\d+)\ue001")

WORDS = re.compile(r"[^\W\d_]{2,}\w*")

_BACKTICKS = re.compile(r"`+")

_AUTOLINK = re.compile(r"<[a-z]+://[^>\s]*>")  # <https://…>: a link, not a tag

_MARKUP = re.compile(r"<(?![a-z]+://)[A-Za-z?!/]")

_CODE_SYMBOLS = frozenset('{}[]()<>=;/\\|&*$#@"')

# A table header of a TOML or INI block ("[profile.dev]", "[[bin]]"): the lines under it
# set keys of that table, which a line quoted alone no longer says.
_SECTION = re.compile(r"^\s*\[\[?[\w.\-\"'* ]+\]\]?\s*$")

LINKISH = re.compile(r"\[([^\]]*)\]\([^)]*\)")  # a Markdown link: its text


def code_quotes(body: list[str], *, comments: bool = True) -> list[str]:
    """The quoted lines of a code block; a line under a TOML or INI table header quoted
    with it ("[profile.release] opt-level = 3"), a header quoted alone only when no line
    under it is. With ``comments``, a comment written as prose (its lines joined) is a
    statement of its own: "# Use 'force_rollback' during testing, to ensure we do not
    persist database changes between each test case." explains the code as prose does."""
    out: list[str] = []
    section, used = "", True
    said: list[str] = []  # the comment lines read so far
    for line in [*body, ""]:
        if comments and (words := _COMMENT.match(line)):
            said.append(words[1])
            continue
        if said:
            out += _comment_statement(" ".join(said))
            said = []
        if _SECTION.match(line):
            out += [] if used else code_quote(section)
            section, used = line.strip(), False
            continue
        quoted = code_quote(f"{section} {line.strip()}") if section and line.strip() else []
        used = used or bool(quoted)
        out += quoted or code_quote(line)
    return out + ([] if used else code_quote(section))


def _comment_statement(comment: str) -> list[str]:
    """A code comment as a statement when it is prose: COMMENT_WORDS words or more, and
    no code symbols to speak of (not "# pip install -r requirements.txt")."""
    text = comment.strip()
    if len(WORDS.findall(text)) < COMMENT_WORDS or looks_like_code(text) or "=" in text:
        return []
    return [text if text.endswith((".", "!", "?")) else f"{text}."]


def _cells(line: str) -> list[str]:
    return [c.strip() for c in plain(line).strip().strip("|").split("|")]


def table_quotes(rows: list[str]) -> list[str]:
    """Each body row quoted with the column names of the header row, when there is one
    (the row before a |---| rule): 'Column: cell; Column: cell'. A row too long to quote
    whole is quoted a sentence of a cell at a time, each after the row's first cell."""
    header: list[str] = []
    if len(rows) > 1 and TABLE_RULE.match(rows[1]):
        header, rows = _cells(rows[0]), rows[2:]
    out: list[str] = []
    for row in rows:
        cells = _cells(row)
        if TABLE_RULE.match(row) or sum(1 for c in cells if c) < 2:
            continue
        names = header if len(header) == len(cells) else [""] * len(cells)
        named = [f"{h}: {c}" if h else c for h, c in zip(names, cells, strict=True) if c]
        quote = "; ".join(named) if header else " | ".join(named)
        if len(quote) <= MAX_QUOTE_CHARS:
            out += [TABLE_ROW + quote] if len(quote) >= 8 else []
            continue
        key, rest = named[0], zip(names[1:], cells[1:], strict=True)
        for h, cell in rest:
            for part in sentences(cell) or [cell] if cell else []:
                said = f"{h}: {part}" if h else part
                out.append(TABLE_ROW + clip(f"{key}; {said}", MAX_QUOTE_CHARS))
    return out


def plain(text: str, *, code_marked: bool = False) -> str:
    """``text`` without Markdown's emphasis pairs and code-span backticks. A code span is
    literal (CommonMark): `__init__()` keeps its underscores, and ``**`x`**`` is bold.
    ``code_marked``: code spans keep their backticks, as a statement quoting the text shows
    them ("mark it with `is_eager=True`"); a stray backtick goes all the same."""
    spans: list[str] = []

    def hold(m: re.Match[str]) -> str:
        spans.append(m[0] if code_marked else _BACKTICKS.sub("", m[0]))
        return f"\ue000{len(spans) - 1}\ue001"  # private-use marks: no text has them

    held = CODE_SPAN.sub(hold, text)
    strong = _STRONG.sub(lambda m: m[1] or m[2], held)
    plain = _BACKTICKS.sub("", _EMPHASIS.sub(lambda m: m[1] or m[2], strong))
    return _HELD.sub(lambda m: spans[int(m[1])], plain)


def code_marked(said: list[str], clean: str, marked: str) -> list[str]:
    """The sentences ``said`` of a paragraph's ``clean`` text (``plain``), each with the code
    spans the same text keeps in ``marked`` (``plain`` with ``code_marked``): split where
    the clean text splits, shown as the page shows them ("mark it with `is_eager=True`").
    One not found whole in the text (joined to a term, cut short) is shown as it is."""
    clean, marked = (" ".join(normalize(t).split()) for t in (clean, marked))
    at = _aligned(clean, marked)
    if at is None:
        return said
    out: list[str] = []
    cursor = 0
    for sentence in said:
        p = clean.find(sentence, cursor)
        if p < 0:
            out.append(sentence)
            continue
        cursor = q = p + len(sentence)
        # an opening backtick sits between the last character before and the first
        shown = marked[at[p - 1] + 1 if p else 0 : at[q] if q < len(clean) else len(marked)]
        whole = "`" not in CODE_SPAN.sub("", shown)  # every span within the sentence
        out.append(shown.strip() if whole else sentence)
    return out


def _aligned(clean: str, marked: str) -> list[int] | None:
    """Where each character of ``clean`` stands in ``marked``, which is ``clean`` with
    code spans' backticks put back; None when it is not."""
    at: list[int] = []
    j = 0
    for ch in clean:
        while j < len(marked) and marked[j] == "`":
            j += 1
        if j == len(marked) or marked[j] != ch:
            return None
        at.append(j)
        j += 1
    return at


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters at a word, marked with "..." when cut."""
    if len(text) <= limit:
        return text
    return text[: limit - 3].rsplit(" ", 1)[0].rstrip(",;:") + "..."  # "…" once normalised


def looks_like_code(line: str) -> bool:
    """A line of markup (``<match type="string"/>``) or one dense with code symbols."""
    text = line.strip()
    if len(text) < 8:
        return False
    if _MARKUP.match(text) and text.endswith(">"):
        return True
    # Markdown's own marks are not code: **bold**, [a](b), <https://…>
    prose = _AUTOLINK.sub("link", LINKISH.sub(lambda m: m[1], plain(text)))
    visible = [ch for ch in prose if not ch.isspace()]
    dense = sum(ch in _CODE_SYMBOLS for ch in visible) >= CODE_SYMBOL_SHARE * len(visible)
    return dense and len(visible) >= 20  # a short line's few brackets say little


def code_quote(line: str) -> list[str]:
    """A code line quoted as a statement ("Code: `…`"), or none when it says nothing: too
    short or long, a block's bare opening line, a comment."""
    code = line.strip()
    # A line needs two words to say something ('"inputs": {' and 'return x' do not).
    said = len(WORDS.findall(code))
    if len(code) < 8 or len(code) > MAX_QUOTE_CHARS or said < 2:
        return []
    if said < 3 and code.endswith(("{", "(", "[")):
        return []  # a block's opening line ('match coin {'): says nothing
    if code.startswith(("#", "//", '"""', "'''")):
        return []  # comments: the prose around the block says it better
    # A code span's fence is a backtick run longer than any inside it (CommonMark), so
    # "a `Box` or `Rc`" stays one span when the quote is shown.
    fence = "`" * (max((len(run) for run in _BACKTICKS.findall(code)), default=0) + 1)
    pad = " " if code.startswith("`") or code.endswith("`") else ""
    return [f"{CODE}{fence}{pad}{code}{pad}{fence}"]
