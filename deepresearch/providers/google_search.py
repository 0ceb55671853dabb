"""Google Programmable Search (the Custom Search JSON API, ``/customsearch/v1``) over httpx.

``google-api-python-client`` was checked first: it is synchronous and builds its client
from a discovery document fetched at run time; the API is one GET, called directly. Needs
an API key (``GOOGLE_API_KEY``) and a search engine id (``Config.google_engine_id``, the
``cx``). At most 10 results per request; 100 queries a day are free, then paid up to
10,000. Google announced that the API is closed to new customers; existing engines work.
"""

from __future__ import annotations

from collections.abc import Mapping

import httpx

from deepresearch.config import Config
from deepresearch.errors import ProviderError, ProviderUnavailableError
from deepresearch.providers.base import SearchHit, web_hit
from deepresearch.providers.credentials import Secret
from deepresearch.providers.http_api import ApiLimits, HttpApi, as_list, optional_key, text
from deepresearch.providers.web_pages import PageFetcher

GOOGLE_URL = "https://customsearch.googleapis.com"
KEY_ENV = "GOOGLE_API_KEY"
_MAX_NUM = 10
_KEY_REFUSED = ("API_KEY_INVALID", "API key not valid", "keyInvalid")
_QUOTA_GONE = ("dailyLimitExceeded", "Queries per day")


class GoogleApi(HttpApi):
    """Google's Custom Search JSON API over HTTP; a refused key or spent quota is unavailability."""

    def status_error(self, response: httpx.Response) -> ProviderError:
        """The ProviderError an HTTP error answer stands for, with the API's own explanation.

        Args:
            response: the error answer.
        """
        body = response.text
        if any(marker in body for marker in _KEY_REFUSED):
            return ProviderUnavailableError(
                f"google: the API key was refused; check {KEY_ENV}.", provider=self.provider
            )
        if response.status_code in (403, 429) and any(m in body for m in _QUOTA_GONE):
            return ProviderUnavailableError(
                f"google: today's query quota is used up: {self.message_of(response)}",
                provider=self.provider,
            )
        return super().status_error(response)


class GoogleSearch:
    """``SearchProvider`` over a Programmable Search Engine; extract fetches pages."""

    name = "google"

    def __init__(self, config: Config, api: HttpApi, key: Secret, engine_id: str) -> None:
        self.config = config
        self.api = api
        self.pages = PageFetcher(config)
        self._key = key
        self.engine_id = engine_id

    @classmethod
    def from_config(
        cls,
        config: Config,
        *,
        api_key_value: str | None = None,
        environ: Mapping[str, str] | None = None,
    ) -> GoogleSearch:
        """The Google provider as ``config`` sets it up.

        Args:
            config: the run's Config.
            api_key_value: a key to use instead of the environment's.
            environ: the environment to read the key from (default ``os.environ``).
        """
        key = optional_key(KEY_ENV, api_key_value, environ)
        if key is None or not config.search_apis.google_engine_id:
            missing = [
                what
                for what, ok in (
                    (KEY_ENV, key),
                    ("Config.google_engine_id", config.search_apis.google_engine_id),
                )
                if not ok
            ]
            raise ProviderUnavailableError(
                f"google needs {' and '.join(missing)} (an API key and a Programmable Search "
                "Engine id, the 'cx').",
                provider=cls.name,
            )
        api = GoogleApi(
            cls.name,
            config.search_apis.google_base_url or GOOGLE_URL,
            config,
            limits=ApiLimits(requests_per_minute=100),
            headers={"x-goog-api-key": key.reveal()},  # not in the URL, which gets logged
            secrets=(key,),
            key_hint=f"Check {KEY_ENV} and that the Custom Search API is enabled for it.",
        )
        return cls(config, api, key, config.search_apis.google_engine_id)

    def __repr__(self) -> str:
        return f"GoogleSearch(base_url={self.api.base_url!r}, engine_id={self.engine_id!r})"

    async def search(self, query: str, *, max_results: int) -> list[SearchHit]:
        """Search for ``query``; the hits, best first.

        Args:
            query: the search query.
            max_results: the most hits returned.
        """
        params = {
            "cx": self.engine_id,
            "q": query,
            "num": max(1, min(max_results, _MAX_NUM)),
        }
        data = await self.api.get_json("/customsearch/v1", params)
        hits = [
            web_hit(
                text(item.get("link")),
                text(item.get("title")),
                text(item.get("snippet")),
                self.name,
            )
            for item in as_list(data, "items", self.api)
        ]
        return [hit for hit in hits if hit is not None][:max_results]

    async def extract(self, urls: list[str]) -> list[SearchHit]:
        """The full text of each page in ``urls`` that can be fetched (see docs/search/pages.md).

        Args:
            urls: the pages to fetch.
        """
        return await self.pages.extract(urls, provider=self.name)
