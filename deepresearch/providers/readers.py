"""How text gets into the corpus index: files → title and plain text (how a query is
read is ``match_query``'s).

One reader per family of formats. A reader either returns a :class:`Document` or raises
:class:`UnreadableDocument` with a reason a user can act on; the indexer turns that
reason into a warning and an entry of ``CorpusSearch.skipped``.
"""

from __future__ import annotations

import codecs
import logging
import os
import re
import stat
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from html.parser import HTMLParser
from pathlib import Path

from deepresearch.errors import UnreadableDocument
from deepresearch.providers import asciidoc, encodings, page_chrome, pdf_outline
from deepresearch.providers.markup import as_rendered, first_title, front_matter, mdx_rendered
from deepresearch.providers.passages import heading_text, looks_like_markdown
from deepresearch.providers.rst_markup import looks_like_rst, rst_headings, rst_rendered

TEXT_SUFFIXES = frozenset({".md", ".markdown", ".mdx", ".txt", ".rst", *asciidoc.EXTENSIONS})
HTML_SUFFIXES = frozenset({".html", ".htm"})
PDF_SUFFIXES = frozenset({".pdf"})
SUPPORTED_SUFFIXES = TEXT_SUFFIXES | HTML_SUFFIXES | PDF_SUFFIXES

_BLANK_RUNS = re.compile(r"\n{3,}")
_SPACE_RUNS = re.compile(r"[ \t\r\f\v]+")
_LETTERS = re.compile(r"[^\W\d_]+")  # a word, for counting them (numbers are not)
_ALNUM = re.compile(r"[^\W_]")  # a letter or a digit


@dataclass(frozen=True)
class Document:
    """A document's title and text as a reader extracted them.

    Args:
        title: the title (a heading or the file name).
        text: the plain text.
        outline: the text with its Markdown heading lines kept, for splitting into passages;
            empty when it has none.
    """

    title: str
    text: str
    # The text with its Markdown heading lines kept ('## Budgets'), for splitting into
    # passages at headings; empty when the text itself has none.
    outline: str = ""
    # The file lines (first, last) each outline line was read from, where they differ (a
    # page's text is not its HTML): passages cite the file's lines. Empty: the outline's
    # lines are the file's.
    source_lines: tuple[tuple[int, int], ...] = ()
    # The outline lines (0-based) that are navigation, nearly all link text ("Next: Types,
    # Up: Using libffi"): chrome at a page's edges when most of the folder has them there.
    nav_lines: frozenset[int] = frozenset()
    # The encoding the file was read in when it is not UTF-8 ('cp1252': see encodings).
    encoding: str = ""


def is_supported(path: Path) -> bool:
    """Whether a reader exists for ``path``'s suffix.

    Args:
        path: a file path.
    """
    return path.suffix.lower() in SUPPORTED_SUFFIXES


def iter_supported_files(folder: Path) -> Iterator[Path]:
    """Supported files under ``folder`` in a stable order; hidden files and folders left out."""
    for parent, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for name in sorted(files):
            path = Path(parent) / name
            if not name.startswith(".") and is_supported(path):
                yield path


def nothing_readable(folder: Path, skipped: list[tuple[str, str]]) -> str:
    """What to tell a user whose corpus ``folder`` gave no document: the files it has
    that no reader takes, by suffix, or why its readable files were ``skipped`` (path,
    reason), and what to do."""
    where = f"The corpus folder {str(folder)!r} has no document the corpus can read"
    if skipped:
        path, reason = skipped[0]
        more = f" and {len(skipped) - 1} more" if len(skipped) > 1 else ""
        return f"{where}: {path} was skipped ({reason}){more}. Fix or replace those files."
    counts: dict[str, int] = {}
    for _parent, dirs, files in os.walk(folder):
        dirs[:] = [d for d in dirs if not d.startswith(".")]
        for name in files:
            if not name.startswith("."):
                suffix = Path(name).suffix.lower() or "(no suffix)"
                counts[suffix] = counts.get(suffix, 0) + 1
    found = ", ".join(f"{n} {s}" for s, n in sorted(counts.items(), key=lambda c: -c[1])[:5])
    readable = " ".join(sorted(SUPPORTED_SUFFIXES))
    return (
        f"{where} ({f'it holds {found} files' if found else 'it is empty'}; readable: "
        f"{readable}). Point the corpus at the folder that holds your documents."
    )


def check_file(path: Path, root: Path, *, follow_symlinks: bool, max_bytes: int) -> None:
    """Raise UnreadableDocument unless ``path`` is a regular file, inside ``root`` (or
    symlinks may be followed), and at most ``max_bytes`` long. Never opens the file, so a
    FIFO or device cannot block."""
    if path.is_symlink() and not follow_symlinks:
        try:
            inside = path.resolve(strict=True).is_relative_to(root.resolve())
        except OSError:
            inside = True  # a broken link: reading it fails and says why
        if not inside:
            raise UnreadableDocument(
                "a symlink to a file outside the corpus folder (set "
                "corpus_follow_symlinks=True to index such files)"
            )
    try:
        info = path.stat()
    except OSError:
        return  # reading fails and says why
    if not stat.S_ISREG(info.st_mode):
        kind = (
            "a FIFO" if stat.S_ISFIFO(info.st_mode)
            else "a socket" if stat.S_ISSOCK(info.st_mode)
            else "a device" if stat.S_ISCHR(info.st_mode) or stat.S_ISBLK(info.st_mode)
            else "not a file"
        )  # fmt: skip
        raise UnreadableDocument(f"not a regular file ({kind})")
    if info.st_size > max_bytes:
        raise UnreadableDocument(
            f"larger than the size limit ({info.st_size:,} > {max_bytes:,} bytes; "
            "raise corpus_max_file_bytes to index it)"
        )


def clip(text: str, limit: int) -> str:
    """At most ``limit`` chars of ``text`` on one line, cut at a word boundary."""
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    return flat[:limit].rsplit(" ", 1)[0] + "…"


def read_document(path: Path) -> Document:
    """Read one supported file. Raises UnreadableDocument for binary, empty or denied files."""
    suffix = path.suffix.lower()
    reader = _READERS.get(suffix)
    if reader is None:
        raise UnreadableDocument(f"unsupported file type {suffix!r}")
    document = reader(path)
    if not document.text.strip():
        raise UnreadableDocument("no text in the file")
    return document


def _read_bytes(path: Path) -> bytes:
    """The file's bytes; only a regular file is read (opened non-blocking, so a FIFO or
    device that slipped past the indexer's checks cannot hang the read)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except PermissionError as exc:
        raise UnreadableDocument("permission denied: check the file's read permission") from exc
    except OSError as exc:
        raise UnreadableDocument(f"cannot read the file ({exc.strerror or exc})") from exc
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise UnreadableDocument("not a regular file")
        try:
            return handle.read()
        except OSError as exc:
            raise UnreadableDocument(f"cannot read the file ({exc.strerror or exc})") from exc


def _decode_text(path: Path) -> tuple[str, str]:
    """The file's text and, when it is not UTF-8, the encoding it was read in."""
    data = _read_bytes(path)
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            return data.decode("utf-16"), ""
        except UnicodeDecodeError as exc:
            raise UnreadableDocument("damaged UTF-16 text: re-save the file as UTF-8") from exc
    # NUL bytes never occur in real text files: this catches binaries renamed to .txt.
    if b"\x00" in data:
        raise UnreadableDocument("binary content (NUL bytes), not a text file")
    try:
        return data.decode("utf-8-sig"), ""
    except UnicodeDecodeError as exc:
        # A legacy encoding (Windows-1252...) only when UTF-8 fails and detection is sure.
        decoded = encodings.decode_legacy(data)
        if decoded is None:
            raise UnreadableDocument("not UTF-8 text: re-save the file as UTF-8") from exc
        return decoded.text, decoded.encoding


_MD_HEADING_LINE = re.compile(r"^[ ]{0,3}#{1,6}[ \t]+(.+?)[ \t#]*$", re.MULTILINE)


def _tidy(text: str) -> str:
    """Collapse runs of spaces inside lines and of blank lines, keep paragraph breaks."""
    lines = (_SPACE_RUNS.sub(" ", line).strip() for line in text.splitlines())
    return _BLANK_RUNS.sub("\n\n", "\n".join(lines)).strip()


def _read_text(path: Path) -> Document:
    decoded, encoding = _decode_text(path)
    text, meta_title = front_matter(decoded)
    suffix = path.suffix.lower()
    markdown = suffix in (".md", ".markdown", ".mdx", *asciidoc.EXTENSIONS)
    if suffix == ".mdx":
        text = mdx_rendered(text)
    elif suffix in asciidoc.EXTENSIONS:
        text = asciidoc.asciidoc_rendered(text)
    # A '.txt' with reST's directives or roles is reST though a code line opens with '#'.
    rst = suffix == ".rst" or (suffix == ".txt" and looks_like_rst(text))
    if rst or (suffix == ".txt" and not looks_like_markdown(text)):
        text = rst_headings(rst_rendered(text) if rst else text)
    elif markdown or looks_like_markdown(text):
        text = as_rendered(text)
    title = meta_title or heading_text(first_title(text)) or path.stem
    return replace(_with_outline(title, text, markdown=markdown), encoding=encoding)


def family(path: Path | str) -> str:
    """The format family of a file by its suffix ("text", "html", "pdf"): a folder's site
    chrome is counted among the files of one family (see ``page_chrome``)."""
    suffix = Path(path).suffix.lower()
    return "html" if suffix in HTML_SUFFIXES else "pdf" if suffix in PDF_SUFFIXES else "text"


def edge_keys(doc: Document, salt: str = "") -> frozenset[int]:
    """The keys of the lines at ``doc``'s top and bottom, and ``page_chrome.nav_key`` when
    it opens or closes with a navigation line (see ``page_chrome``); ``salt``: its
    format family."""
    lines = (doc.outline or doc.text).splitlines()
    keys = page_chrome.edge_keys(lines, salt=salt)
    if page_chrome.nav_edge(lines, doc.nav_lines):
        keys.add(page_chrome.nav_key(salt))
    return frozenset(keys)


def without_chrome(doc: Document, chrome: set[int], salt: str = "") -> Document:
    """``doc`` with the runs of ``chrome`` lines at its top and bottom emptied (see
    ``page_chrome``): line numbers, which passages cite, stay where they were."""
    source = (doc.outline or doc.text).splitlines()
    blanked = page_chrome.chrome_lines(source, chrome, salt=salt, nav=doc.nav_lines)
    if all(i in blanked for i, line in enumerate(source) if line.strip()):
        # A page of navigation lines alone (an index of links) keeps them: it is what the
        # page says.
        blanked = page_chrome.chrome_lines(source, chrome, salt=salt)
    if not blanked:
        return doc
    kept = "\n".join("" if i in blanked else line for i, line in enumerate(source))
    if not doc.outline:
        return replace(doc, text=_tidy(kept))
    outline = _with_outline(doc.title, kept, markdown=True)
    return replace(doc, text=outline.text, outline=outline.outline)


def _with_outline(title: str, text: str, *, markdown: bool = False) -> Document:
    """Markdown (by suffix or by content): '# Heading' lines become sentences of their
    own in ``text``, so that the '#'s and words do not run into the paragraph below in a
    quoted finding; ``outline`` keeps them for splitting into passages."""
    if not (markdown or looks_like_markdown(text)):
        return Document(title=title, text=_tidy(text))
    plain = _MD_HEADING_LINE.sub(lambda m: m.group(1).rstrip(".:") + ".", text)
    # rstrip only: leading blank lines count, so passages keep the file's line numbers
    return Document(title=title, text=_tidy(plain), outline=text.rstrip())


class _HTMLText(HTMLParser):
    """Visible text and the <title>, as Markdown: headings as '#' lines (passages split at
    them), list items as '- ' items, <pre> as fenced code, table rows as '|' rows, so that
    the statement reader treats them as it does in a Markdown file (a lead-in with its
    items, code and tables quoted briefly, never prose). Navigation (<nav>, <aside>,
    ``role="navigation"``) and hidden elements (``hidden``, ``aria-hidden="true"``: a
    theme's pop-ups) are skipped. A line of links to the page's own sections alone is its
    table of contents, which repeats its headings: dropped. A line of links to other pages
    with a few words around them ("Next: Types, Up: Using libffi") is marked as navigation
    (``nav``), chrome when most of the folder's pages have one at an edge."""

    _SKIPPED = frozenset({"script", "style", "noscript", "template", "svg", "nav", "aside"})
    _VOID = frozenset(
        {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
         "track", "wbr"}
    )  # fmt: skip
    _BLOCKS = frozenset(
        {"p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "h5", "h6", "section",
         "article", "header", "footer", "blockquote", "pre", "table", "ul", "ol", "hr",
         "dt", "dd", "main", "figure", "figcaption", "details", "summary"}
    )  # fmt: skip
    _HEADINGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
    # A list item's own paragraph ('<li><p>Traceback…'): its text goes on the marker's line.
    _ITEM_TEXT = frozenset({"p", "div"})
    _CELLS = frozenset({"td", "th"})

    def __init__(self, name: str = "") -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.spans: list[tuple[int, int]] = []  # the file lines each part was read from
        # Per part: links to this page's own sections, links elsewhere, words not in a link.
        self.links: list[tuple[int, int, int]] = []
        self._page = name  # the file's name: 'page.html#intro' links into the page itself
        self._anchor = False  # inside <a href>
        self._self_link = False  # inside <a href="#…">: a permalink's '¶' is not text
        self._row_links = [0, 0, 0]  # ... of the open table row
        self.verbatim: set[int] = set()  # parts whose line breaks are the file's (in <pre>)
        self.title_parts: list[str] = []
        self._skipped: list[str] = []  # the open elements being skipped, innermost last
        self._in_title = False
        self._heading_level = 0
        self._pre = 0
        self._code = 0  # open inline <code> spans written as '`'
        self._row: list[str] | None = None  # the cells of the open table row
        self._cell: list[str] | None = None
        self._header_row = False
        self._rows = 0  # rows written in the open table

    def _emit(
        self,
        text: str,
        *,
        verbatim: bool = False,
        lines: int = 0,
        links: tuple[int, int, int] = (0, 0, 0),
    ) -> None:
        """Add ``text``, read at the parser's position; ``verbatim``: its line breaks are
        the file's (in <pre>); ``lines``: the file lines it spans past its first;
        ``links``: its own-page links, other links and words outside links."""
        if verbatim:
            self.verbatim.add(len(self.parts))
        line = self.getpos()[0]
        self.parts.append(text)
        self.spans.append((line, line + lines))
        self.links.append(links)

    def _words(self, text: str) -> int:
        return 0 if self._anchor else len(_LETTERS.findall(text))

    def lines(self) -> tuple[list[str], list[tuple[int, int]], frozenset[int]]:
        """The text's lines, tidied as ``_tidy`` does, each with the file lines it spans
        (first, last): a passage of a page is cited by the page's own lines; and the
        indexes of its navigation lines. Table-of-contents lines are left out."""
        lines: list[str] = [""]
        spans: list[tuple[int, int] | None] = [None]
        counts: list[list[int]] = [[0, 0, 0]]
        parts = zip(self.parts, self.spans, self.links, strict=True)
        for n, (text, (first, last), links) in enumerate(parts):
            pieces = text.split("\n")
            # the links count on the part's first line of text (a row: the line after "\n")
            home = next((k for k, piece in enumerate(pieces) if piece.strip()), 0)
            for k, piece in enumerate(pieces):
                if k:
                    lines.append("")
                    spans.append(None)
                    counts.append([0, 0, 0])
                lines[-1] += piece
                if k == home:
                    counts[-1] = [a + b for a, b in zip(counts[-1], links, strict=True)]
                if not piece.strip():
                    continue
                start = first + k if n in self.verbatim else first
                end = start if n in self.verbatim else last
                held = spans[-1]
                spans[-1] = (held[0], max(held[1], end)) if held else (start, end)
        kept: list[tuple[str, tuple[int, int]]] = []
        nav: set[int] = set()
        fenced = False
        for line, span, (own, other, words) in zip(lines, spans, counts, strict=True):
            line = _SPACE_RUNS.sub(" ", line).strip()
            if line.startswith("```"):
                fenced = not fenced
            elif not fenced and line and not line.startswith("#"):
                if own and not other and not words:
                    continue  # the page's table of contents: its headings again
                if other and words <= own + other + 1:
                    nav.add(len(kept))
            if line or (kept and kept[-1][0]):  # one blank line between paragraphs
                at = span or (kept[-1][1] if kept else (1, 1))
                kept.append((line, at))
        while kept and not kept[-1][0]:
            kept.pop()
        return [line for line, _ in kept], [span for _, span in kept], frozenset(nav)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self._skipped:
            if tag not in self._VOID:
                self._skipped.append(tag)
            return
        hidden = any(
            (k == "hidden")
            or (k == "aria-hidden" and (v or "").lower() == "true")
            or (k == "role" and (v or "").lower() == "navigation")  # a <nav> by its role
            for k, v in attrs
        )
        if tag in self._SKIPPED or (hidden and tag not in self._VOID):
            self._skipped.append(tag)
        elif tag == "a" and (href := dict(attrs).get("href")) is not None:
            self._anchor = True
            self._self_link = href.startswith("#")
            own = href.partition("#")[0] in ("", self._page)
            link = (1, 0, 0) if own else (0, 1, 0)
            if self._row is not None:
                self._row_links = [a + b for a, b in zip(self._row_links, link, strict=True)]
            else:
                self._emit("", links=link)
        elif tag == "title":
            self._in_title = True
        elif tag == "code" and self._inline_code():
            self._code += 1
            self._emit("`")
        elif tag in self._CELLS and self._row is not None:
            self._cell = []
            self._header_row = self._header_row or tag == "th"
        elif tag == "tr":
            self._row = []
            self._row_links = [0, 0, 0]
        elif tag == "table":
            self._rows = 0
            self._emit("\n")
        elif tag in self._BLOCKS:
            if not (tag in self._ITEM_TEXT and self._at_item_marker()):
                self._emit("\n")
            if tag == "pre":
                self._pre += 1
                self._emit("```\n")
            elif tag == "li":
                self._emit("- ")
            elif tag in self._HEADINGS:
                # Headings kept as Markdown heading lines: passages split at them.
                self._heading_level = int(tag[1])
                self._emit("#" * self._heading_level + " ")

    def handle_endtag(self, tag: str) -> None:
        if self._skipped:
            if tag == self._skipped[-1]:
                self._skipped.pop()
            return
        if tag == "title":
            self._in_title = False
        elif tag == "a":
            self._anchor = self._self_link = False
        elif tag == "code" and self._code and self._inline_code():
            self._code -= 1
            self._emit("`")
        elif tag in self._CELLS and self._cell is not None and self._row is not None:
            self._row.append(" ".join("".join(self._cell).split()).replace("|", "\\|"))
            self._cell = None
        elif tag == "tr" and self._row is not None:
            if any(self._row):
                links = (self._row_links[0], self._row_links[1], self._row_links[2])
                self._emit("\n| " + " | ".join(self._row) + " |\n", links=links)
                if self._rows == 0 and self._header_row:
                    self._emit("|" + " --- |" * len(self._row) + "\n", links=links)
                self._rows += 1
            self._row, self._header_row = None, False
        elif tag == "table":
            self._emit("\n")
        elif tag in self._BLOCKS:
            if tag == "pre" and self._pre:
                self._pre -= 1
                self._emit("\n```")
            self._emit("\n")
            self._heading_level = 0

    def _at_item_marker(self) -> bool:
        """Whether nothing but spaces was written since a list item's '- ' marker."""
        for part in reversed(self.parts):
            if part == "- ":
                return True
            if part.strip() or "\n" in part:
                return False
        return False

    def _inline_code(self) -> bool:
        """Whether a <code> here is a code span of prose or a list item, written as
        Markdown's '`' (what tells 'cargo build puts…' from a sentence's lower-case
        continuation): not in <pre>, a heading, a table cell or the <title>."""
        return not (self._pre or self._heading_level or self._cell is not None or self._in_title)

    def handle_data(self, data: str) -> None:
        if self._skipped or (self._self_link and not _ALNUM.search(data)):
            return  # a heading's permalink mark ('¶', '#', '§') names nothing
        if self._in_title:
            self.title_parts.append(data)
        elif self._cell is not None:
            self._cell.append(data)
            self._row_links[2] += self._words(data)
        elif self._heading_level:
            self._emit(" ".join(data.split()) + " ")
        elif self._pre:
            self._emit(data, verbatim=True)
        else:
            # Outside <pre>, line breaks in the source are spaces: a list item or
            # paragraph wrapped in the HTML is one line of text.
            text = " ".join(data.split("\n"))
            self._emit(text, lines=data.count("\n"), links=(0, 0, self._words(data)))


def _read_html(path: Path) -> Document:
    parser = _HTMLText(path.name)
    text, encoding = _decode_text(path)
    parser.feed(text)
    parser.close()
    title = " ".join("".join(parser.title_parts).split())
    lines, spans, nav = parser.lines()
    doc = _with_outline(title or path.stem, "\n".join(lines), markdown=True)
    return replace(doc, source_lines=tuple(spans), nav_lines=nav, encoding=encoding)


@contextmanager
def _pypdf_quiet() -> Iterator[None]:
    """pypdf logs what it repairs or gives up on ("EOF marker not found") as warnings, which
    Python prints to stderr when the application configured no logging: a file it cannot
    read is reported once, as the corpus's skipped file, and a repaired one needs no note."""
    log = logging.getLogger("pypdf")
    level = log.level
    log.setLevel(logging.ERROR)
    try:
        yield
    finally:
        log.setLevel(level)


def _read_pdf(path: Path) -> Document:
    try:
        from pypdf import PdfReader
    except ImportError as exc:
        raise UnreadableDocument(
            "PDF support is not installed: pip install 'deepresearch-sdk[pdf]'"
        ) from exc
    try:
        with _pypdf_quiet():
            reader = PdfReader(str(path))
            pages = page_chrome.pages_without_chrome(
                [page.extract_text() or "" for page in reader.pages]
            )
            meta_title = reader.metadata.title if reader.metadata else None
            marks = pdf_outline.bookmarks(reader)
    except PermissionError as exc:
        raise UnreadableDocument("permission denied: check the file's read permission") from exc
    except Exception as exc:  # pypdf raises many types for damaged or encrypted files
        raise UnreadableDocument(f"not a readable PDF ({type(exc).__name__}: {exc})") from exc
    title = (str(meta_title).strip() if meta_title else "") or path.stem
    outline = pdf_outline.with_headings([_tidy(page).splitlines() for page in pages], marks)
    if outline:  # its bookmarks as headings: passages split at them and name them
        return _with_outline(title, outline, markdown=True)
    return Document(title=title, text=_tidy("\n\n".join(pages)))


_READERS: dict[str, Callable[[Path], Document]] = {
    **dict.fromkeys(TEXT_SUFFIXES, _read_text),
    **dict.fromkeys(HTML_SUFFIXES, _read_html),
    **dict.fromkeys(PDF_SUFFIXES, _read_pdf),
}
