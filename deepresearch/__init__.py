"""deepresearch: notebook-first deep research — offline by default.

>>> import deepresearch as dr
>>> report = await dr.research("How did the printing press change Europe?")
"""

import sys as _sys
import typing as _typing
from importlib import import_module as _import_module

if _typing.TYPE_CHECKING:
    from deepresearch import phases
    from deepresearch.batch import BatchResult, ProviderLimit, research_many, research_many_sync
    from deepresearch.config import Config
    from deepresearch.errors import (
        BlockingRunError,
        BudgetExhaustedError,
        ConfigError,
        ContextWindowError,
        CorpusError,
        CostLimitReached,
        DeepResearchError,
        IndexingCancelled,
        InputError,
        LLMTimeoutError,
        MissingExtraError,
        ModelChainError,
        PageFetchError,
        PhaseOrderError,
        PhaseTimeoutError,
        ProviderError,
        ProviderSetupError,
        ProviderUnavailableError,
        RateLimitError,
        ResearchCancelled,
        RunAbortedError,
        SearchError,
        SessionBusyError,
        SessionNotFoundError,
        StateVersionError,
        StoreError,
        StructuredOutputError,
        UrlRefused,
    )
    from deepresearch.offline import OfflineEngine
    from deepresearch.one_call import research
    from deepresearch.providers.base import (
        LLMProvider,
        LLMRequest,
        LLMResponse,
        SearchHit,
        SearchProvider,
    )
    from deepresearch.run_result import RunResult
    from deepresearch.session import Session
    from deepresearch.state import (
        Confidence,
        Finding,
        Gap,
        Phase,
        Report,
        ResearchState,
        RunStatus,
        Source,
        SubQuery,
    )
    from deepresearch.store import SessionStore
    from deepresearch.stream import (
        FindingAdded,
        Paused,
        PhaseFinished,
        PhaseStarted,
        ReportReady,
        RunEvent,
        RunFinished,
        SourceFound,
    )
    from deepresearch.sync import run_sync
    from deepresearch.workflow.hooks import Hook, Steer

# The public names and the modules they live in. They are bound on the first use of any of
# them (PEP 562 ``__getattr__`` below), not at ``import deepresearch``: importing the
# package stays quick, so the command line is in its own code (which turns Ctrl-C into
# "interrupted", exit 130) before the heavy modules load.
_HOMES: dict[str, tuple[str, ...]] = {
    "deepresearch.phases": ("phases",),
    "deepresearch.batch": ("BatchResult", "ProviderLimit", "research_many", "research_many_sync"),
    "deepresearch.config": ("Config",),
    "deepresearch.errors": (
        "BlockingRunError",
        "BudgetExhaustedError",
        "ConfigError",
        "ContextWindowError",
        "CorpusError",
        "CostLimitReached",
        "DeepResearchError",
        "IndexingCancelled",
        "InputError",
        "LLMTimeoutError",
        "MissingExtraError",
        "ModelChainError",
        "PageFetchError",
        "PhaseOrderError",
        "PhaseTimeoutError",
        "ProviderError",
        "ProviderSetupError",
        "ProviderUnavailableError",
        "RateLimitError",
        "ResearchCancelled",
        "RunAbortedError",
        "SearchError",
        "SessionBusyError",
        "SessionNotFoundError",
        "StateVersionError",
        "StoreError",
        "StructuredOutputError",
        "UrlRefused",
    ),
    "deepresearch.offline": ("OfflineEngine",),
    "deepresearch.one_call": ("research",),
    "deepresearch.providers.base": (
        "LLMProvider",
        "LLMRequest",
        "LLMResponse",
        "SearchHit",
        "SearchProvider",
    ),
    "deepresearch.run_result": ("RunResult",),
    "deepresearch.session": ("Session",),
    "deepresearch.state": (
        "Confidence",
        "Finding",
        "Gap",
        "Phase",
        "Report",
        "ResearchState",
        "RunStatus",
        "Source",
        "SubQuery",
    ),
    "deepresearch.store": ("SessionStore",),
    "deepresearch.stream": (
        "FindingAdded",
        "Paused",
        "PhaseFinished",
        "PhaseStarted",
        "ReportReady",
        "RunEvent",
        "RunFinished",
        "SourceFound",
    ),
    "deepresearch.sync": ("run_sync",),
    "deepresearch.workflow.hooks": ("Hook", "Steer"),
}

__version__ = "0.1.0"

__all__ = [
    "BatchResult",
    "BlockingRunError",
    "BudgetExhaustedError",
    "Confidence",
    "Config",
    "ConfigError",
    "ContextWindowError",
    "CorpusError",
    "CostLimitReached",
    "DeepResearchError",
    "Finding",
    "FindingAdded",
    "Gap",
    "Hook",
    "IndexingCancelled",
    "InputError",
    "LLMProvider",
    "LLMRequest",
    "LLMResponse",
    "LLMTimeoutError",
    "MissingExtraError",
    "ModelChainError",
    "OfflineEngine",
    "PageFetchError",
    "Paused",
    "Phase",
    "PhaseFinished",
    "PhaseOrderError",
    "PhaseStarted",
    "PhaseTimeoutError",
    "ProviderError",
    "ProviderLimit",
    "ProviderSetupError",
    "ProviderUnavailableError",
    "RateLimitError",
    "Report",
    "ReportReady",
    "ResearchCancelled",
    "ResearchState",
    "RunAbortedError",
    "RunEvent",
    "RunFinished",
    "RunResult",
    "RunStatus",
    "SearchError",
    "SearchHit",
    "SearchProvider",
    "Session",
    "SessionBusyError",
    "SessionNotFoundError",
    "SessionStore",
    "Source",
    "SourceFound",
    "StateVersionError",
    "Steer",
    "StoreError",
    "StructuredOutputError",
    "SubQuery",
    "UrlRefused",
    "__version__",
    "phases",
    "research",
    "research_many",
    "research_many_sync",
    "run_sync",
]


def _load() -> None:
    """Bind every public name. Importing their modules binds every internal submodule they
    load (config, llm, store, ...) as an attribute of the package too; only ``__all__`` is
    the API, so the rest are removed again."""
    namespace = globals()
    for home, names in _HOMES.items():
        module = _import_module(home)
        for name in names:
            namespace[name] = module if home == f"{__name__}.{name}" else getattr(module, name)
    for name in [n for n in namespace if not n.startswith("_") and n not in __all__]:
        del namespace[name]


def __dir__() -> list[str]:
    return sorted(__all__)


if not _typing.TYPE_CHECKING:  # hidden from type checkers, so `dr.typo` stays an error there

    def __getattr__(name: str) -> object:
        if name in __all__:
            _load()
            return globals()[name]
        # `import deepresearch.llm` then `deepresearch.llm.x` (and monkeypatch/mock targets
        # like "deepresearch.llm.x") reach a submodule loaded before, whose attribute
        # _load() removed: the import system binds it only on the first load.
        module = _sys.modules.get(f"{__name__}.{name}")
        if module is None:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        return module
