"""deepresearch: notebook-first deep research — offline by default.

>>> import deepresearch as dr
>>> report = await dr.research("How did the printing press change Europe?")
"""

import sys as _sys
import typing as _typing

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

# The imports above bind every internal submodule they load (config, llm, store, ...) as an
# attribute of the package; only ``__all__`` is the API, so the rest are removed here.
for _name in [name for name in globals() if not name.startswith("_") and name not in __all__]:
    del globals()[_name]
del _name


def __dir__() -> list[str]:
    return sorted(__all__)


if not _typing.TYPE_CHECKING:  # hidden from type checkers, so `dr.typo` stays an error there

    def __getattr__(name: str) -> object:
        # `import deepresearch.llm` then `deepresearch.llm.x` (and monkeypatch/mock targets
        # like "deepresearch.llm.x") reach a submodule loaded before, whose attribute the
        # loop above removed: the import system binds it only on the first load.
        module = _sys.modules.get(f"{__name__}.{name}")
        if module is None:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
        return module
