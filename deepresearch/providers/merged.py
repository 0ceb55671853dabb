"""Merged search: ask every provider at once, fuse their rankings, drop duplicates.

``Config(search=[...], search_mode="merge")`` builds a :class:`MergedSearch`. Rankings are
fused by reciprocal rank fusion (Cormack et al., 2009): a hit at rank r (from 1) in one
provider's list scores ``1 / (60 + r)``, and a document's score is the sum over the lists
that hold it. Two hits are one document when they share a DOI, else a normalised URL, else
a normalised title. The merged hit is the one from the provider that ranked it best, with
fields it lacks (DOI, abstract, citation count, open-access URL...) filled from the others;
``provider`` names the provider whose hit was kept and ``metadata["found_by"]`` lists all.
"""

from __future__ import annotations

import asyncio
import logging
import re
from urllib.parse import parse_qsl, urlencode, urlsplit

from deepresearch.errors import ProviderError, ProviderUnavailableError, SearchError
from deepresearch.providers.base import SCHOLARLY_FIELDS, SearchHit, SearchProvider
from deepresearch.providers.fallback import FallbackSearch

logger = logging.getLogger("deepresearch.providers")

RRF_K = 60  # the constant of the original paper; it damps the weight of top ranks
_TRACKING = re.compile(r"^(utm_\w+|fbclid|gclid|ref|ref_src)$", re.IGNORECASE)
_NOT_WORD = re.compile(r"[^\w]+")
_FILLABLE = ("title", "snippet", "content", "raw_content", "published", *SCHOLARLY_FIELDS)


class MergedSearch(FallbackSearch):
    """Every provider answers each search; extract asks them in order, as fallback does.

    A failing provider is left out of that search (and out of the run when it reports
    itself unavailable); :attr:`last_failures` says which failed and why. When every
    provider fails, :class:`SearchError` lists each failure.
    """

    def __init__(self, providers: list[SearchProvider]) -> None:
        super().__init__(providers)
        self.last_failures: dict[str, str] = {}

    def __repr__(self) -> str:
        return f"MergedSearch({[p.name for p in self.providers]!r})"

    async def search(self, query: str, *, max_results: int) -> list[SearchHit]:
        """Ask every usable provider at once and fuse their hits by reciprocal rank, dropping
        duplicates; SearchError listing every failure when none answers.

        Args:
            query: the search query.
            max_results: the most hits returned.
        """
        usable = self._usable()
        answers = await asyncio.gather(
            *(p.search(query, max_results=max_results) for p in usable), return_exceptions=True
        )
        lists: list[tuple[str, list[SearchHit]]] = []
        self.last_failures = dict(self._unavailable)
        for provider, answer in zip(usable, answers, strict=True):
            if isinstance(answer, ProviderError):
                self.last_failures[provider.name] = self._note(provider, answer)
            elif isinstance(answer, BaseException):
                raise answer
            else:
                lists.append((provider.name, answer))
        if not lists:
            raise SearchError(
                f"Every search provider failed for {query!r}: "
                + "; ".join(f"{n}: {why}" for n, why in self.last_failures.items()),
                provider=self.name,
            )
        return fuse(lists)[:max_results]

    def _note(self, provider: SearchProvider, exc: ProviderError) -> str:
        if isinstance(exc, ProviderUnavailableError):
            self._unavailable[provider.name] = str(exc)
        logger.warning("search provider %s failed: %s", provider.name, exc)
        return str(exc)


def fuse(lists: list[tuple[str, list[SearchHit]]]) -> list[SearchHit]:
    """Reciprocal rank fusion of (provider name, ranked hits) lists, duplicates merged."""
    scores: dict[str, float] = {}
    best: dict[str, tuple[int, SearchHit]] = {}  # key -> (best rank, its hit)
    found_by: dict[str, list[str]] = {}
    others: dict[str, list[SearchHit]] = {}
    aliases: dict[str, str] = {}  # every identity key of a document -> its first key
    for name, hits in lists:
        for rank, hit in enumerate(hits, start=1):
            keys = identity_keys(hit)
            key = next((aliases[k] for k in keys if k in aliases), keys[0])
            for k in keys:
                aliases.setdefault(k, key)
            scores[key] = scores.get(key, 0.0) + 1.0 / (RRF_K + rank)
            tagged = hit if hit.provider else hit.model_copy(update={"provider": name})
            found_by.setdefault(key, [])
            if tagged.provider not in found_by[key]:
                found_by[key].append(tagged.provider)
            if key not in best or rank < best[key][0]:
                if key in best:
                    others.setdefault(key, []).append(best[key][1])
                best[key] = (rank, tagged)
            else:
                others.setdefault(key, []).append(tagged)
    order = sorted(scores, key=lambda k: (-scores[k], best[k][0]))
    merged = []
    for key in order:
        hit = _filled(best[key][1], others.get(key, []))
        hit.score = round(scores[key], 6)
        hit.metadata = {**hit.metadata, "found_by": found_by[key]}
        merged.append(hit)
    return merged


def identity_keys(hit: SearchHit) -> list[str]:
    """The keys that make two hits one document: DOI, normalised URL, normalised title."""
    keys = []
    if hit.doi:
        keys.append("doi:" + hit.doi.lower())
    keys.append("url:" + normalized_url(hit.url))
    title = _NOT_WORD.sub(" ", hit.title.casefold()).strip()
    if len(title) >= 20:  # short titles ("Introduction") are not identities
        keys.append("title:" + title)
    return keys


def normalized_url(url: str) -> str:
    """Lower-case scheme-less host without ``www.``, no fragment, no tracking parameters,
    no trailing slash: the same page however a provider spelled it."""
    parts = urlsplit(url.strip())
    if not parts.netloc:
        return url.strip()  # a local document's path
    host = parts.netloc.lower().removeprefix("www.")
    query = urlencode(sorted((k, v) for k, v in parse_qsl(parts.query) if not _TRACKING.match(k)))
    path = parts.path.rstrip("/")
    return f"{host}{path}" + (f"?{query}" if query else "")


def _filled(hit: SearchHit, others: list[SearchHit]) -> SearchHit:
    """A copy of ``hit`` whose empty fields take the first non-empty value of the others
    (a Crossref DOI for an arXiv preprint, an OpenAlex abstract for a Crossref record)."""
    update = {}
    for name in _FILLABLE:
        if getattr(hit, name) in (None, "", []):
            for other in others:
                value = getattr(other, name)
                if value not in (None, "", []):
                    update[name] = value
                    break
    return hit.model_copy(update=update, deep=True)
