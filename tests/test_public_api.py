from __future__ import annotations

import deepresearch as dr

EXPECTED = {
    "Config", "Session", "research", "run_sync", "RunResult", "Steer", "Hook", "phases",
    "ResearchState", "Report", "Source", "Finding", "Gap", "SubQuery", "Phase", "RunStatus",
    "Confidence", "SessionStore", "OfflineEngine", "LLMProvider", "SearchProvider", "LLMRequest",
    "LLMResponse", "SearchHit", "DeepResearchError", "ConfigError", "InputError", "CorpusError",
    "ProviderError", "ProviderUnavailableError", "RateLimitError", "ContextWindowError",
    "StructuredOutputError", "SearchError", "MissingExtraError", "StateVersionError",
    "SessionNotFoundError", "ResearchCancelled", "PhaseTimeoutError", "__version__",
    "StoreError", "UrlRefused", "PhaseOrderError",
    "CostLimitReached", "LLMTimeoutError", "PageFetchError", "ProviderSetupError",
    "RunAbortedError", "SessionBusyError", "BlockingRunError",
    "RunEvent", "PhaseStarted", "PhaseFinished", "SourceFound", "FindingAdded", "Paused",
    "ReportReady", "RunFinished",
    "research_many", "research_many_sync", "BatchResult", "ProviderLimit",
}  # fmt: skip


def test_all_is_exactly_the_public_api() -> None:
    assert set(dr.__all__) == EXPECTED
    for name in dr.__all__:
        assert hasattr(dr, name), name


def test_phase_functions_are_awaitables() -> None:
    import inspect

    for name in (
        "clarify",
        "brief",
        "plan",
        "gather",
        "supervise",
        "analyze",
        "synthesize",
        "refine",
    ):
        assert inspect.iscoroutinefunction(getattr(dr.phases, name))
