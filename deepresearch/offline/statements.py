"""What may become a finding: statements, not layout. Prose is split into sentences;
tables, code blocks, box-drawing diagrams, captions ("Listing 6-6: …"), headings,
navigation and boilerplate are not statements. A table row or a code line may still
answer a question, so each is kept as a brief quote of its own, never merged into the
prose around it: a row with its table's column names ("Table row: Environment: Cursor
Agent; Recommended Value: 40000"), so that it says what its cells are. A code block that
draws boxes is a diagram, not code. A line of markup or one dense with code symbols
outside a fence (a PDF loses its fences) is quoted as a code line too.

``statements`` is idempotent: the statements of a text made of statements are the same
statements (the offline summary and digest are such texts).

The sentence splitter is the package's one (``deepresearch.text.sentences``: punctuation,
protected abbreviations and initials). pysbd was measured as the maintained alternative:
~6 ms for a 500-character text (a run splits a few hundred) and it split "c. 1775"
mid-date; see docs/results.md.
"""

from __future__ import annotations

import functools
import re

from deepresearch.offline.quotes import (
    CODE,
    CODE_SPAN,
    LINKISH,
    MAX_QUOTE_CHARS,
    QUOTES,
    TABLE_RULE,
    WORDS,
    clip,
    code_marked,
    code_quote,
    code_quotes,
    looks_like_code,
    plain,
    table_quotes,
)
from deepresearch.providers.passages import HEADING_SEPARATOR
from deepresearch.text import (
    MIN_SENTENCE_CHARS,
    normalize,
    sentences,
    split_sentences,
    term_set,
    with_units,
    words,
)

MAX_STATEMENT_CHARS = 320  # one or two sentences
MIN_WORDS = 4
INTRODUCED_LINES = 6  # code lines a lead-in ending with ':' is stated with, at most
# How a lead-in ends: a colon, or an ellipsis that some documentation writes for one ("You
# can disable SSL verification completely..." over its example).
_LEAD_ENDS = (":", "...", "…")
_PROGRAM_LINE_ENDS = ("{", "}", ";", ":", ",", "(")
MAX_LEAD_CHARS = 120  # a lead-in repeated before each item it introduces
FRAGMENT_WORDS = 12  # ... when the item is shorter than this

_FENCE = re.compile(r"^\s*(```|~~~)")
# A shell session's block: there "#" opens a root prompt's command, not a comment.
_SHELL_FENCE = re.compile(
    r"^\s*(?:```|~~~)\s*\{?\.?(?:console|shell|sh|bash|zsh|shell-session|sh-session|text|none)?\}?\s*$",
    re.IGNORECASE,
)
# A caption: a line of its own naming a numbered float of the document ("Listing 6-6: A
# match that …", "Figure 4-1: …", "Table 2 – …"). It labels the block beside it (code, a
# picture, a table), which is what says something; the label alone is not a statement.
_CAPTION = re.compile(
    r"^(?:Listing|Figure|Fig\.|Table|Example|Exhibit|Diagram|Chart|Illustration|Algorithm)"
    r"\s+[A-Z]?\d+(?:[-.\u2013]\d+)*[a-z]?\s*[:.\u2013\u2014-]\s+\S"
)
# Talk about the text itself rather than its subject: the writers announcing what they
# will do ("Finally, we'll discuss lifetimes …", "Let's look at …") or narrating how they
# built an example ("For this example, we've created …"), and the text as the subject of
# a verb of discourse ("This chapter covers …", "This example's purpose is …"; not "This
# section of Cargo.toml can be used …": that section is the subject's). Hypotheses
# ("let's say …") set up a case and are not announcements.
# A numbered listing or figure as the subject ("Listing 15-14 shows a … struct") describes
# the block, like a caption in prose, unless it "shows that" something is so.
_DOC = r"(?:chapter|section|guide|page|tutorial|book|example|document|article|lesson|part)"
_SIGNPOST = re.compile(
    r"^(?:[^,.;:]{0,40},\s*)?(?:let['’]s|let us|we['’]ll|we will|we['’]re going to|"
    r"we are going to|we shall)\b(?!\s+(?:say|suppose|assume|imagine|pretend)\b)"
    rf"|^(?:for|in) (?:this|the next|the following|our) {_DOC},\s*(?:we|let['’]s)\b"
    rf"|^(?:this|the next|the following|the previous) {_DOC}(?:['’]s purpose\b|\s+(?:will\s+)?"
    r"(?:covers?|describes?|explains?|discuss(?:es)?|documents?|details?|introduces?|"
    r"provides?|shows?|demonstrates?|walks?|deals?|is about|assumes?|uses?)\b)"
    r"|^(?:the \w+ in )?(?:listing|figure|table|example)s? \d[\w.-]*\s+(?!shows that\b)(?-i:[a-z])",
    re.IGNORECASE,
)
# A paragraph that opens in lower case right after a code block goes on with the sentence
# the block interrupted ("This expression:" / code / "is a block that evaluates to 4.").
_CONTINUATION = re.compile(r"^\s*[^\W\d_A-Z]")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s")
# Box drawing and block elements draw diagrams; arrows alone ("5 → 1 → 2") are prose.
_BOX = re.compile(r"[\u2500-\u259f]")
# A block that is a diagram's source ("```mermaid", MyST's "```{mermaid}"): its lines
# ("USER -->|run| PIPX") are drawn, not said.
_DIAGRAM_FENCE = re.compile(
    r"^\s*(?:```|~~~)\s*\{?\.?(?:mermaid|graphviz|dot|plantuml|d2)\b", re.IGNORECASE
)
_LIST_MARK = re.compile(r"^\s*(?:[-*+•◦▪‣]|\d+[.)])\s+")  # • ◦ ▪ ‣: bullets of PDFs and plain text
# A task list's box says whether the item is done: that is part of what the item states.
_CHECKBOX = re.compile(r"^\[([ xX])\]\s+")
CHECKBOX_STATES = {" ": "Not done: ", "x": "Done: "}
_QUOTE_MARK = re.compile(r"^\s*(?:>\s*)+")
# A line that is one code span alone, the name of what the indented text under it
# describes (how reST renders a reference entry, '.. option:: --strict')
_TERM = re.compile(r"^`([^`\s][^`]{0,78})`\s*$")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z][a-z])")
_HYPHEN = re.compile(r"(?<=\w)-(?=\w)")  # "npm-ci", "rerun-if-changed"
_CLAUSE_END = re.compile(r"(?<=[.;])\s+(?=\S)")
_LABEL = re.compile(r"^\s*(?:\*\*|__)?[A-Z][\w /-]{0,30}(?:\*\*|__)?:(?:\*\*|__)?\s")
FIELD_WORDS = 6  # a labelled line's value of at most this many words is a field's value


def _starts_statement(line: str, read: list[str]) -> bool:
    """Whether a prose ``line`` starts a statement of its own: a label ("**Date:** …",
    "Status: …"), or a line opening with bold or "__" after the end of a sentence; not a
    bold word or dunder name a wrapped sentence goes on with ("similar to the\n**report**
    summary", "allowed only in\n__init__ methods"), the prose ``read`` so far stopping
    inside it."""
    mid_sentence = bool(read) and read[-1].rstrip()[-1:] not in (".", "!", "?", ":", "")
    bold = line.lstrip().startswith(("**", "__"))
    return _LABEL.match(line) is not None or (bold and not mid_sentence)


def _field(line: str) -> bool:
    """A short labelled line, a field of what the heading above names ("**Default**: `0`",
    "**Environment Variable**: `POETRY_CACHE_DIR`"), not a labelled paragraph
    ("**Resolution**: it is likely that you've set up your proxies like this")."""
    label = _LABEL.match(line)
    return label is not None and len(line[label.end() :].split()) <= FIELD_WORDS


_TAG = re.compile(r"</?[A-Za-z][^<>]*>")
# A bare version note ("New in version 3.11.", "Deprecated since version 2.0"): when, not what.
_VERSION = re.compile(
    r"^(?:new|changed|added|removed|deprecated)\s+(?:in|since)\s+version\s+[\w.\-]+[.:]?$",
    re.IGNORECASE,
)
# Lines that are page furniture rather than content, whatever the site.
_FURNITURE = re.compile(
    r"^(?:copyright|©|all rights reserved|privacy|terms of|cookie|skip to|home\s*[|›>]|"
    r"menu|search|log ?in|sign ?in|subscribe)\b",
    re.IGNORECASE,
)


def statements(text: str, *, code_marked: bool = False) -> list[str]:
    """Sentences of the prose in ``text`` plus brief quotes of table rows and code lines,
    in document order. Short list items under a lead-in ("Update the prompt to
    include:") are stated together with the lead-in, which is what says what they are,
    as many as fit one statement; a list item of a few sentences is one statement (see
    ``_prose_sentences``). ``code_marked``: prose keeps the code spans the page marks
    (``shown_as_written``); else its words are read as plain text."""
    out: list[str] = []
    reader = _Prose(out, marked=code_marked)
    lines = _unquoted(text.splitlines())
    i = 0
    prose = fenced = False  # the last line not blank: a paragraph's; a code block's end
    while i < len(lines):
        line = lines[i].rstrip()
        if _FENCE.match(line) or line.lstrip().startswith("|"):
            code = bool(_FENCE.match(line))
            # always past the line: a line read as a block's start that is none ends there
            i = max(i + 1, _read_block(lines, i, reader, after_prose=prose and code))
            prose, fenced = False, code
            continue
        i += 1
        opens = fenced and _CONTINUATION.match(line) is not None
        if line.strip():
            prose = fenced = False
        if reader.term and line.strip() and not line[0].isspace():
            reader.flush()
            reader.term = ""  # the text described under the term ends
        if (term := _TERM.match(line)) and _indented_next(lines, i):
            reader.flush(end_lead=True)
            reader.term = term[1]
        elif _HEADING.match(line):
            reader.flush(end_lead=True)
            reader.heading(line)
        elif TABLE_RULE.match(line) or _BOX.search(line):
            reader.flush(end_lead=True)  # a box-drawing line: a diagram's labels
        elif not line.strip():
            reader.flush()
        elif not reader.lines and _caption(line, lines[i : i + 1]):
            reader.flush(end_lead=True)
        elif _LIST_MARK.match(line) or line.lstrip().startswith(QUOTES):
            reader.item(line)
        elif looks_like_code(line):
            # Code or markup outside a fence (a PDF loses its code blocks' fences): quoted
            # as a code line, never run into the prose around it.
            reader.flush()
            out.extend(code_quote(line))
        else:
            if _starts_statement(line, reader.lines):
                reader.flush()
            reader.line(line, continues=opens)
            prose = True
    reader.flush(end_lead=True)
    # A lead-in stated with its items says nothing more alone ("The first line should:").
    following = [*out[1:], ""][: len(out)]
    return [
        s
        for s, after in zip(out, following, strict=True)
        if not (s.endswith(":") and after.startswith(s[:-1]))
    ]


def _unquoted(lines: list[str]) -> list[str]:
    """The lines without the marks of a block quote, so that a quoted code block or table
    ("> ```python") is read as one; not inside a code block that is not quoted, where "> "
    is a prompt ("> echo %ERRORLEVEL%")."""
    out: list[str] = []
    fenced = False
    for line in lines:
        quoted = not fenced and _QUOTE_MARK.match(line) is not None
        out.append(_QUOTE_MARK.sub("", line) if quoted else line)
        if not quoted and _FENCE.match(line):
            fenced = not fenced
    return out


def _indented_next(lines: list[str], start: int) -> bool:
    """Whether the first line with text from ``start`` on is indented."""
    following = next((line for line in lines[start:] if line.strip()), "")
    return following[:1].isspace()


def _read_block(lines: list[str], start: int, reader: _Prose, *, after_prose: bool) -> int:
    """State the code block or table at ``start``; returns the index after it. A short
    code block right after a lead-in or a label (``after_prose``) is stated with it (see
    ``_introduced``)."""
    out = reader.out
    reader.flush(end_lead=True)
    reader.code_follows(after_prose)
    label, reader.label = reader.label, ""
    label = f"{reader.label_lead} {label}".lstrip() if label else ""
    led = after_prose and (bool(label) or (bool(out) and out[-1].endswith(_LEAD_ENDS)))
    block, end = _layout_block(lines, start)
    # a short block stated with its lead-in says what its comments would
    code = [q for q in block if q.startswith(QUOTES)]
    shown = _introduced(label or out[-1], code) if led and not _resumes(lines, end) else None
    if shown is not None and label:
        out.append(shown)
    elif shown is not None:
        out[-1] = shown
    else:
        out.extend(block)
    return end


class _Prose:
    """Collects prose lines into paragraphs and list items, remembering the lead-in a
    list hangs from (a paragraph or item ending with ':', else a nested item's parent)."""

    def __init__(self, out: list[str], *, marked: bool = False) -> None:
        self.out = out
        self.marked = marked  # prose keeps its code spans' backticks (``code_marked``)
        self.lines: list[str] = []
        self.indent = -1  # the current item's indentation; -1: a paragraph
        self.lead: tuple[int, str] | None = None  # (indentation, text) of the lead-in
        self.nested: bool | None = None  # items under the lead are indented deeper
        self.parents: list[tuple[int, str]] = []  # the open list items, outermost first
        self.run: tuple[str, list[str]] | None = None  # short items and their lead, to state as one
        # The paragraph right before a code block: its last sentence and, when that was
        # stated, where in ``out``. ``continues``: the paragraph being read (so far) opens
        # in lower case right after that block.
        self.before_code: tuple[str, int | None] | None = None
        self.continues = False
        self.last: tuple[str, int] | None = None  # the last paragraph, where it was stated
        # The last paragraph when it is a label too short to state ("Linux:", a tab's
        # title): the code block right after it is stated with it, and with the lead-in
        # the labels follow ("First, download the archives:"), as a list item is.
        self.label = ""
        self.label_lead = ""
        # Reading the short labelled lines right under a heading (a setting's "**Type**:
        # `int`", "**Default**: `0`"): each is an item of the heading, as a list's is.
        self.fields = False
        self.run_fields = False  # the run is of such lines, not of list items
        # The name a reference entry describes ("`--warn-unreachable`" over its indented
        # text): each paragraph under it is stated with it, "--warn-unreachable: This flag
        # will make mypy report an error …", which the paragraph alone does not name.
        self.term = ""

    def heading(self, line: str) -> None:
        """A heading is the lead-in of a list right under it ("#### fetch-retries" then
        "* Default: 2"), and of the short labelled lines right under it ("###
        `solver.min-release-age`" then "**Default**: `0`"): what they are about."""
        text = _HEADING.sub("", line).strip().rstrip("#").strip()
        if WORDS.search(text):
            self.lead, self.nested = (-1, clip(text, MAX_LEAD_CHARS)), None
            self.fields = True

    def line(self, line: str, *, continues: bool = False) -> None:
        """A line of prose; ``continues``: the first after a code block, in lower case."""
        self.continues = self.continues or continues
        if not self.lines and self.indent < 0:
            self.fields = self.fields and _field(line)
            if not self.fields:
                self._emit_run()
                self.lead = None  # a new paragraph: a list before it has ended
                self.parents.clear()
        self.lines.append(line.strip())

    def _resumed(self, own: str) -> str:
        """A paragraph that goes on with the sentence a code block interrupted: its first
        sentence after the one before the block, an ellipsis for the code ("This
        expression: … is a block that evaluates to 4."), that one then not stated alone;
        without one, the fragment is dropped and the rest of the paragraph kept."""
        before, self.before_code, self.continues = self.before_code, None, False
        if before is None:
            return " ".join(split_sentences(own)[1:])
        said, at = before
        if at is not None:
            self.out.pop(at)
        return f"{said} … {own}"

    def _sentences(self, paragraph: str, *, item: bool = False) -> list[str]:
        return _prose_sentences(paragraph, item=item, marked=self.marked)

    def item(self, line: str) -> None:
        self.flush()
        text = _LIST_MARK.sub("", line).strip()
        if box := _CHECKBOX.match(text):
            text = CHECKBOX_STATES[box[1].lower()] + text[box.end() :]
        if text.startswith(QUOTES):
            self.out.append(text)  # already a quote (a line of a summary or digest)
            return
        self.indent = len(line) - len(line.lstrip())
        while self.parents and self.parents[-1][0] >= self.indent:
            self.parents.pop()
        if self.lead is not None:
            deeper = self.indent > self.lead[0]
            if self.nested is None:
                self.nested = deeper
            if self.nested and not deeper:
                self.lead = None
        self.lines.append(text)

    def code_follows(self, paragraph: bool) -> None:
        """A code block starts; ``paragraph``: right after the last paragraph read."""
        self.before_code = None
        if paragraph and self.last is not None:
            own, mark = self.last
            said = split_sentences(own) or [own]
            stated = len(self.out) > mark and self.out[-1:] == self._sentences(said[-1])
            self.before_code = (said[-1], len(self.out) - 1 if stated else None)

    def flush(self, *, end_lead: bool = False) -> None:
        """End the paragraph or item being read; ``end_lead``: a list's lead-in ends too."""
        if self.lines:
            own = " ".join(self.lines)
            short = len(own.split()) < MIN_WORDS
            self.label = own if self.indent < 0 and short and own.endswith(":") else ""
            if not self.label:
                self.label_lead = ""
            elif self.out and self.out[-1].endswith(":"):
                self.label_lead = self.out[-1]
            if self.continues and self.indent < 0:
                own = self._resumed(own)
            mark = len(self.out)
            lead = self._lead_of(own)
            if self.fields and self.indent < 0 and self.lead is not None:
                lead = self.lead[1]
            if (self.indent >= 0 or self.fields) and lead and len(sentences(own)) <= 1:
                # A list of short items (names, values, "Dereference a raw pointer."): one
                # statement with its lead-in, "npm pack: prepack; prepare; postpack", as
                # long as it fits one; the items answer together what the lead-in asks.
                item = own.rstrip(";,")
                if self.run and (self.run[0] != lead or not _fits(lead, [*self.run[1], item])):
                    self._emit_run()
                self.run = (lead, [*(self.run[1] if self.run else []), item])
                self.run_fields = self.indent < 0
            else:
                self._emit_run()
                if self.term and self.indent < 0 and not _VERSION.match(own):
                    own = f"{self.term}: {own}"
                self.out.extend(self._sentences(_joined(lead, own), item=self.indent >= 0))
            if own.endswith(":") and len(own.split()) >= MIN_WORDS:
                # The lead-in is the sentence that ends with the colon, not its paragraph.
                said = sentences(own)
                lead = said[-1] if said and said[-1].endswith(":") else own
                self.lead, self.nested = (self.indent, clip(lead, MAX_LEAD_CHARS)), None
            if self.indent >= 0:
                self.parents.append((self.indent, clip(own, MAX_LEAD_CHARS)))
            self.last = (own, mark) if self.indent < 0 else None  # what a code block follows
            self.lines.clear()
            self.indent = -1
        if end_lead:
            self._emit_run()
            self.lead = None
            self.parents.clear()

    def _emit_run(self) -> None:
        if self.run:
            lead, items = self.run
            if self.run_fields and len(items) == 1:
                # one labelled line is no block of fields ("Source code: Lib/csv.py")
                self.out.extend(self._sentences(items[0]))
            else:
                # the lead-in stated alone says only that a list follows: its items say
                # it, after the whole lead-in (longer than one item's, then)
                if self.out and self.out[-1].endswith(":") and _opens_with(self.out[-1], lead):
                    lead = self.out.pop()
                self.out.extend(self._sentences(_joined(lead, _listed(items))))
            self.run = None

    def _lead_of(self, own: str) -> str:
        """The lead-in that completes an item that is a fragment: a short one, or one
        going on in lower case from its lead-in ("The first line should:" then "contain
        a short description of the change (preferably 50 characters …)"); '' for a long
        one that opens as a sentence, which stands alone."""
        if self.indent < 0 or (len(own.split()) >= FRAGMENT_WORDS and not own[:1].islower()):
            return ""
        lead = self.lead[1] if self.lead is not None else ""
        if not lead and self.parents:
            lead = self.parents[-1][1]
        return "" if not lead or own.startswith(lead) else lead


def _caption(line: str, following: list[str]) -> bool:
    """Whether ``line``, which opens a paragraph, is a caption: the whole paragraph (the
    ``following`` line is blank, or there is none), naming a numbered listing, figure or
    table, also in the markup Markdown allows ('<span class="caption">Listing 6-6: …')."""
    alone = not following or not following[0].strip()
    return alone and _CAPTION.match(_TAG.sub("", plain(line.strip()))) is not None


def _opens_with(statement: str, lead: str) -> bool:
    """Whether ``statement`` is the ``lead``-in (as kept: cut, its Markdown marks in)."""
    said, kept = words(statement), words(lead)
    return bool(kept) and said[: len(kept)] == kept


def _fits(lead: str, items: list[str]) -> bool:
    return len(_joined(lead, _listed(items))) <= MAX_STATEMENT_CHARS


def _listed(items: list[str]) -> str:
    """Items as one clause list, "a; b; c." (the last keeps its full stop)."""
    return "; ".join([*(i.rstrip(".") for i in items[:-1]), items[-1]])


def _joined(lead: str, own: str) -> str:
    if not lead:
        return own
    return f"{lead} {own}" if lead.endswith(":") else f"{lead}: {own}"


def signposts(statement: str) -> bool:
    """Whether ``statement`` talks about the text it is in rather than its subject: it
    announces what the text will do, narrates how an example was made, or has the text
    itself as its subject. Such a sentence may still say something, so it is ranked
    lower, not dropped."""
    return _SIGNPOST.match(statement.lstrip()) is not None


def statement_terms(text: str) -> set[str]:
    """The words of a statement, with the parts of its camel-case identifiers too
    ("AgentRole.GATHERER" says agent and role; snake_case is split by the tokenizer), and
    of the hyphenated words its code spans give ("`npm-ci`" says npm and ci; in prose
    "second-largest" is one word), and the units of its number compounds ("13-day")."""
    terms = with_units(term_set(text))
    split = CODE_SPAN.sub(lambda m: _HYPHEN.sub(" ", m.group()), _CAMEL.sub(" ", text))
    return terms | term_set(split) if split != text else terms


def title_terms(title: str) -> set[str]:
    """The words of a source's title, with the parts of a hyphenated name that is a
    whole segment of its heading path ("npm-ci › Synopsis" says npm and ci; "Trans-Siberian
    Railway" is a name of words)."""
    whole = [s for s in title.split(HEADING_SEPARATOR) if s.strip() and " " not in s.strip()]
    return term_set(title) | term_set(_HYPHEN.sub(" ", " ".join(whole)))


def _layout_block(lines: list[str], start: int) -> tuple[list[str], int]:
    """The quotes of the fenced code block or table starting at ``start``, and the index
    of the line after it."""
    if _FENCE.match(lines[start]):
        end = start + 1
        while end < len(lines) and not _FENCE.match(lines[end]):
            end += 1
        body = lines[start + 1 : end]
        if _DIAGRAM_FENCE.match(lines[start]) or any(_BOX.search(line) for line in body):
            return [], end + 1  # a diagram, drawn in a code block or as a diagram's source
        shell = _SHELL_FENCE.match(lines[start]) is not None
        return code_quotes(body, comments=not shell), end + 1
    end = start
    while end < len(lines) and lines[end].lstrip().startswith("|"):
        end += 1
    return table_quotes(lines[start:end]), end


def _introduced(lead: str, block: list[str]) -> str | None:
    """A lead-in sentence ("here are the default values for the dev and release
    profiles:") with the few settings or commands of the code block it introduces, as one
    statement: the lead-in alone says nothing, and the lines alone do not say what they
    are. None for a longer block or a program's lines (which open or end a block or a
    statement: a listing says more a line at a time). Written without backticks, as a
    statement read back from a summary is (``plain``)."""
    code = [q.removeprefix(CODE).strip("`").strip() for q in block]
    if not 0 < len(block) <= INTRODUCED_LINES or not all(q.startswith(CODE) for q in block):
        return None
    if any(line.endswith(_PROGRAM_LINE_ENDS) for line in code):
        return None
    # "Using the truststore package to support system certificate stores..." leads in
    # as a colon does.
    lead = re.sub(r"(?:\.\.\.|…)$", ":", lead)
    joined = f"{lead} {'; '.join(code)}"
    # The lead-in may be a whole sentence and its code a quote's length: one statement.
    return joined if len(joined) <= MAX_STATEMENT_CHARS + MAX_QUOTE_CHARS else None


def _resumes(lines: list[str], start: int) -> bool:
    """Whether the first line with text from ``start`` goes on with a sentence that a code
    block interrupted (it opens in lower case)."""
    for line in lines[start:]:
        if line.strip():
            return _CONTINUATION.match(line) is not None
    return False


@functools.lru_cache(maxsize=256)  # read for each finding a source's text supports
def shown_as_written(text: str) -> dict[str, str]:
    """For the statements of ``text`` whose prose holds code spans, each one as the page
    marks it ("mark it with `is_eager=True`"): how a finding read as plain text is shown."""
    if "`" not in text:  # no code span: most texts, which need no second reading
        return {}
    plain, shown = statements(text), statements(text, code_marked=True)
    if len(plain) != len(shown):  # never expected: the same reading, marks kept
        return {}
    return {said: marked for said, marked in zip(plain, shown, strict=True) if said != marked}


def as_text(units: list[str]) -> str:
    """Statements written as a text that ``statements`` reads back as the same statements:
    one a paragraph, a statement of several sentences (a list item stated whole) as a list
    item, which a paragraph's sentences would not stay."""
    return "\n\n".join(f"- {u}" if len(sentences(u)) > 1 else u for u in units)


def _prose_sentences(paragraph: str, *, item: bool = False, marked: bool = False) -> list[str]:
    """The statements of a paragraph, a sentence each; of a list ``item``, the whole item
    when it fits one statement: an item's sentences make one point ("FnMut applies to
    closures that … These closures can be called more than once.": the second alone says
    nothing of which closures)."""
    clean = LINKISH.sub(lambda m: m[1], plain(paragraph))
    found: list[str] = []
    said = sentences(clean) or [clean.strip()]
    if item and (defined := _defined_term(clean)):
        said = defined
    elif item and len(said) > 1 and len(" ".join(said)) <= MAX_STATEMENT_CHARS:
        said = [" ".join(said)]
    for whole in said:
        for sent in _shorter(whole):
            if len(sent.split()) < MIN_WORDS or _FURNITURE.match(sent) or _VERSION.match(sent):
                continue
            # A lead-in stated with its code is longer (``_introduced``): read back from
            # ``as_text``, it stays whole.
            found.append(clip(sent, MAX_STATEMENT_CHARS + MAX_QUOTE_CHARS))
    if not marked:
        return found
    return code_marked(
        found, clean, LINKISH.sub(lambda m: m[1], plain(paragraph, code_marked=True))
    )


# An item's lead naming what it defines ("`DEFAULT_VERSION`. The value that …"): one word
# before a period.
_TERM_LEAD = re.compile(r"^([^\W\d][\w.\-/]*)\.$")


def _defined_term(item: str) -> list[str]:
    """The statements of a list ``item`` opening with the term it defines, that term joined
    to its first sentence ("DEFAULT_VERSION: The value that …"), which alone is too short to
    state anything: the whole item when it fits one statement, its short sentences too
    ("… is present. Defaults to None."); else [] (not such an item)."""
    every = split_sentences(normalize(item))
    lead = _TERM_LEAD.match(every[0]) if len(every) > 1 else None
    if lead is None:
        return []
    every = [f"{lead[1]}: {every[1]}", *every[2:]]
    joined = " ".join(every)
    if len(joined) <= MAX_STATEMENT_CHARS:
        return [joined]
    return [s for s in every if len(s) >= MIN_SENTENCE_CHARS]


def _shorter(sentence: str) -> list[str]:
    """An over-long sentence cut where a sentence or clause may end ('. ', '; ') even
    before a lower-case word ("… for aggregation. foundry-mcp's mixin is …"), so that
    its end is not clipped away."""
    if len(sentence) <= MAX_STATEMENT_CHARS:
        return [sentence]
    pieces = [p for p in _CLAUSE_END.split(sentence) if p.strip()]
    return pieces if all(len(p.split()) >= MIN_WORDS for p in pieces) else [sentence]
