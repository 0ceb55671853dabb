"""Deterministic merging of concurrent researchers' sources.

Researchers of one gathering round run in parallel and finish in any order. If each new
source took the next global id and citation number as it arrived, the numbers — and so
every later prompt, token count and report — would depend on timing. Instead a
researcher's new sources are *provisional*: numbered within its own sub-query
(``sq-2/1``, ``sq-2/2``, ...), deduplicated only against the sources settled before the
round and its own, and shown to its own prompts with citation numbers no other settled
source has. When the round ends, :func:`settle_sources` gives them their final ids and
citation numbers in a stable order — sub-query order, then the order each researcher
found them (search after search, by rank) — folds URLs that two researchers both found
into the first one's source (a DOI found twice too), and rewrites each topic's ``[n]`` citations to match.
"""

from __future__ import annotations

import re
from typing import Any

from deepresearch.state import ResearchState, Source, SubQuery

_MARK = "/"
_CITATIONS = re.compile(r"\[(\d+(?:\s*,\s*\d+)*)\]")


def is_provisional(src: Source) -> bool:
    """Whether the source still has its provisional id (``sq-2/1``; see :func:`settle_sources`).

    Args:
        src: a gathered source.
    """
    return _MARK in src.id


def visible_sources(state: ResearchState, sub_query_id: str) -> list[Source]:
    """What one researcher may see: every settled source and its own provisional ones."""
    return [s for s in state.sources if not is_provisional(s) or s.sub_query_id == sub_query_id]


def add_provisional_source(state: ResearchState, sq: SubQuery, **fields: Any) -> Source:
    """A new source of ``sq``'s researcher, numbered after every settled source."""
    k = 1 + sum(1 for s in state.sources if is_provisional(s) and s.sub_query_id == sq.id)
    settled = state.counters.get("src", 0)
    src = Source(
        id=f"{sq.id}{_MARK}{k}",
        citation=settled + k,
        iteration=state.iteration,
        sub_query_id=sq.id,
        **fields,
    )
    state.sources.append(src)
    return src


def settle_sources(state: ResearchState) -> int:
    """Give every provisional source its final id and citation, in sub-query order then
    finding order; return how many sources were settled (duplicates folded excluded)."""
    pending = [s for s in state.sources if is_provisional(s)]
    if not pending:
        return 0
    rank = {sq.id: i for i, sq in enumerate(state.sub_queries)}
    pending.sort(key=lambda s: (rank.get(s.sub_query_id or "", len(rank)), _local(s)))
    kept = [s for s in state.sources if not is_provisional(s)]
    by_url = {s.url: s for s in kept}
    by_doi = {s.doi: s for s in kept if s.doi}  # one paper found under two landing pages
    new_id: dict[str, str] = {}
    citation_maps: dict[str, dict[int, int]] = {}
    for src in pending:
        owner = src.sub_query_id or ""
        old_id, old_citation = src.id, src.citation
        final = by_url.get(src.url) or (by_doi.get(src.doi) if src.doi else None)
        if final is None:
            n = state.counters.get("src", 0) + 1
            state.counters["src"] = n
            src.id, src.citation = f"src-{n}", n
            kept.append(src)
            by_url[src.url] = final = src
            if src.doi:
                by_doi.setdefault(src.doi, src)
        new_id[old_id] = final.id
        citation_maps.setdefault(owner, {})[old_citation] = final.citation
    state.sources = kept
    for topic in state.topic_results:
        topic.source_ids = list(dict.fromkeys(new_id.get(i, i) for i in topic.source_ids))
        mapping = citation_maps.get(topic.sub_query_id)
        if mapping and topic.compressed_findings:
            topic.compressed_findings = renumber(topic.compressed_findings, mapping)
    return len(new_id)


def renumber(text: str, mapping: dict[int, int]) -> str:
    """Rewrite ``[n]`` and ``[n, m]`` citations through ``mapping`` (others unchanged)."""

    def one(match: re.Match[str]) -> str:
        numbers = [int(p) for p in match[1].split(",")]
        return "[" + ", ".join(str(mapping.get(n, n)) for n in numbers) + "]"

    return _CITATIONS.sub(one, text)


def _local(src: Source) -> int:
    return int(src.id.rsplit(_MARK, 1)[1])
