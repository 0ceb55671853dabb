"""A Report's files, from the Report alone: a Markdown document, a standalone sanitized
HTML page, its JSON, and its cited sources as CSL-JSON and BibTeX for reference managers.

Like the rest of rendering it sits below the state (``Report.save`` calls it; it reads
reports and citations, never imports them at run time). ``deepresearch.store.export``
builds a whole session's exports on the same functions.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from deepresearch.errors import InputError
from deepresearch.redaction import scrub_secrets
from deepresearch.render.report import report_markdown
from deepresearch.render.sanitize import (
    escape_markdown,
    markdown_html,
    one_line,
    safe_href,
    strip_controls,
)

if TYPE_CHECKING:
    from deepresearch.state import Citation, Report


def html_page(markdown: str, title: str) -> str:
    """Safe Markdown as a standalone, sanitized HTML page (no scripts allowed)."""
    body = markdown_html(markdown)
    title = html.escape(one_line(strip_controls(title)))[:200]
    return scrub_secrets(
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">\n'
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "style-src 'unsafe-inline'\">\n"
        f"<title>{title}</title>\n<style>{_PAGE_STYLE}</style></head>\n"
        f"<body>\n{body}\n</body></html>\n"
    )


_PAGE_STYLE = (
    "body{max-width:50em;margin:2em auto;padding:0 1em;font:16px/1.5 sans-serif}"
    "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px}"
)


def citations_csl(citations: Sequence[Citation]) -> list[dict[str, Any]]:
    """Cited sources as CSL-JSON items (for Zotero, pandoc, citeproc). A paper from
    scholarly search (one with a DOI or a venue) is an ``article-journal`` with its
    authors, year, venue and DOI; a web page is a ``webpage``, a local file a ``document``."""
    items: list[dict[str, Any]] = []
    for c in citations:
        paper = bool(c.doi or c.venue)
        url = c.url if safe_href(c.url) else None
        if url is None and c.open_access_url:
            url = c.open_access_url if safe_href(c.open_access_url) else None
        item: dict[str, Any] = {
            "id": c.source_id,
            "type": "article-journal" if paper else "webpage" if url else "document",
            "title": _clean(c.title or c.url),
            "citation-number": c.number,
        }
        if c.authors:
            item["author"] = [_csl_name(_clean(a)) for a in c.authors if _clean(a)]
        if url is not None:
            item["URL"] = url
        item.update(_container_and_date(c, paper))
        items.append(item)
    return items


def _container_and_date(src: Citation, paper: bool) -> dict[str, Any]:
    fields: dict[str, Any] = {}
    if paper:
        if src.venue:
            fields["container-title"] = _clean(src.venue)
        if src.doi:
            fields["DOI"] = _clean(src.doi)
    elif src.domain:
        fields["container-title"] = src.domain
    if src.year is not None:
        fields["issued"] = {"date-parts": [[src.year]]}
    elif src.published:
        fields["issued"] = {"raw": str(src.published)}
    return fields


_NAME_SUFFIX = re.compile(r"[JS]r\.?|I{2,3}|IV")


def _csl_name(name: str) -> dict[str, str]:
    """A display name as a CSL name: "Family, Given" as written, else BibTeX's rule for
    "Given von Family" (the family name starts at the first lower-case word, else it is
    the last word), with a trailing "Jr."/"III" as the suffix. A single word, or a name
    with " and " in it (an organisation), stays a literal."""
    words = name.split()
    if len(words) < 2 or "and" in (w.lower() for w in words):
        return {"literal": name}
    if "," in name:
        family, *rest = (part.strip() for part in name.split(","))
        if not family:
            return {"literal": name}
        named = {"family": family, "given": rest[-1]} if rest[-1] else {"family": family}
        return named | ({"suffix": rest[0]} if len(rest) > 1 and rest[0] else {})
    suffix = words.pop() if len(words) > 2 and _NAME_SUFFIX.fullmatch(words[-1]) else ""
    start = next((i for i, w in enumerate(words[1:-1], 1) if w[0].islower()), len(words) - 1)
    named = {"family": " ".join(words[start:]), "given": " ".join(words[:start])}
    return named | ({"suffix": suffix} if suffix else {})


def citations_csl_json(citations: Sequence[Citation]) -> str:
    """:func:`citations_csl` as indented JSON."""
    return scrub_secrets(json.dumps(citations_csl(citations), indent=2, ensure_ascii=False))


def citations_bibtex(citations: Sequence[Citation]) -> str:
    """Cited sources as BibTeX, keyed by source id: a paper (DOI or venue) is an
    ``@article`` with author, year, journal, doi and url; anything else is a ``@misc``."""
    entries = []
    for item in citations_csl(citations):
        article = item["type"] == "article-journal"
        fields = [("title", _bibtex(item["title"]))]
        if item.get("author"):
            fields.append(("author", " and ".join(_bibtex_name(n) for n in item["author"])))
        issued = item.get("issued", {})
        if "date-parts" in issued:
            fields.append(("year", str(issued["date-parts"][0][0])))
        if article:
            fields += [
                (bib, _bibtex(item[csl]))
                for bib, csl in (("journal", "container-title"), ("doi", "DOI"), ("url", "URL"))
                if csl in item
            ]
        else:
            if "URL" in item:
                fields.append(("howpublished", f"\\url{{{_bibtex(item['URL'])}}}"))
            if "container-title" in item:
                fields.append(("organization", _bibtex(item["container-title"])))
            if "raw" in issued:
                fields.append(("note", f"Published {_bibtex(issued['raw'])}"))
        key = re.sub(r"[^A-Za-z0-9]", "", item["id"]) or "source"
        body = ",\n".join(f"  {name} = {{{value}}}" for name, value in fields)
        entries.append(f"@{'article' if article else 'misc'}{{{key},\n{body}\n}}")
    return scrub_secrets("\n\n".join(entries) + ("\n" if entries else ""))


# -- a Report alone (Report.save) ---------------------------------------------------------------
REPORT_FORMATS = ("md", "html", "json", "bibtex", "csl")
_REPORT_SUFFIXES = {".md": "md", ".html": "html", ".htm": "html", ".json": "json", ".bib": "bibtex"}


def report_document(report: Report) -> str:
    """A Report as a shareable Markdown document: its question as the title, the text
    escaped, ``[n]`` linked and the sources listed from its typed citations."""
    title = f"# {escape_markdown(one_line(report.question))}\n\n" if report.question else ""
    return scrub_secrets(title + report_markdown(report))


def export_report(report: Report, format: str) -> str:
    """The Report in one of :data:`REPORT_FORMATS`."""
    if format == "md":
        return report_document(report)
    if format == "html":
        return html_page(report_document(report), report.question or "Research report")
    if format == "json":
        return scrub_secrets(report.model_dump_json(indent=2))
    if format == "bibtex":
        return citations_bibtex(report.citations)
    if format == "csl":
        return citations_csl_json(report.citations)
    raise InputError(f"Unknown report format {format!r}: use one of {list(REPORT_FORMATS)}.")


def report_format(path: Path, format: str | None) -> str:
    """The format asked for, else the one the file name's suffix tells."""
    if format is not None:
        return format
    if path.name.lower().endswith(".csl.json"):
        return "csl"
    chosen = _REPORT_SUFFIXES.get(path.suffix.lower())
    if chosen is None:
        raise InputError(
            f"Cannot tell the format of {path.name!r}: use a .md, .html, .json, .bib or "
            f".csl.json name, or format= one of {list(REPORT_FORMATS)}."
        )
    return chosen


def save_report(report: Report, path: Path, format: str | None = None) -> Path:
    """Write ``report`` to ``path`` (see ``Report.save``); returns the path written."""
    target = path.expanduser()
    text = export_report(report, report_format(target, format))
    if target.is_dir():
        raise InputError(f"{target} is a folder; give a file name.")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise InputError(f"Cannot write {str(target)!r}: {exc.strerror or exc}.") from exc
    return target


def _bibtex_name(name: dict[str, str]) -> str:
    """A CSL name in BibTeX's unambiguous "von Last, Jr, First" form; a literal is braced
    so BibTeX keeps it whole."""
    if "literal" in name:
        return f"{{{_bibtex(name['literal'])}}}"
    parts = [name["family"], name.get("suffix", ""), name.get("given", "")]
    return ", ".join(_bibtex(p) for p in parts if p)


def _bibtex(text: str) -> str:
    """Text safe inside a BibTeX brace group: braces and backslashes removed."""
    return re.sub(r"[{}\\]", "", text)


def _clean(text: str) -> str:
    return strip_controls(one_line(text))
