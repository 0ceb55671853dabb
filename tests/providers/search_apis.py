"""Shared pieces of the search-API tests: the paper and web records, configs pointing at
the loopback servers, a retry policy that records its waits instead of sleeping."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from deepresearch.config import Config
from deepresearch.providers.resilience import RetryPolicy

from .conftest import Recorder

DATA = Path(__file__).parent / "data"
LITERATURE = json.loads((DATA / "literature.json").read_text(encoding="utf-8"))
PAPERS: list[dict[str, Any]] = LITERATURE["papers"]
WEB_PAGES: list[dict[str, Any]] = LITERATURE["web_pages"]
NOTES = DATA / "notes"
KEY = "sk-test-0123456789-secret"


def api_config(**knobs: Any) -> Config:
    """No waiting between requests (the APIs' own rates would slow the tests down)."""
    return Config.build(
        {
            "provider_requests_per_minute": 60_000,
            "retry_base_delay_s": 0.0,
            "operation_timeout_s": 10,
            **knobs,
        }
    )


def recording_retries(provider: Any) -> Recorder:
    """Replace the provider's retry sleep with a Recorder; return it."""
    recorder = Recorder()
    holder = provider.api if hasattr(provider, "api") else provider
    holder.retry = RetryPolicy(max_retries=2, base_delay_s=0.01, sleep=recorder)
    return recorder
