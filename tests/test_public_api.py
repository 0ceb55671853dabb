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
    "RunAbortedError", "SessionBusyError", "BlockingRunError", "ModelChainError",
    "RunEvent", "PhaseStarted", "PhaseFinished", "SourceFound", "FindingAdded", "Paused",
    "ReportReady", "RunFinished",
    "research_many", "research_many_sync", "BatchResult", "ProviderLimit",
    "BudgetExhaustedError", "IndexingCancelled",
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


def _own_members(cls: type) -> dict[str, object]:
    """Public methods, class/static methods and properties a class defines itself."""
    members = {}
    for name, value in vars(cls).items():
        if name.startswith("_") and name != "__init__":
            continue
        if isinstance(value, classmethod | staticmethod):
            value = value.__func__
        if isinstance(value, property) or callable(value):
            members[name] = value
    return members


def _parameters(function: object) -> list[str]:
    import inspect

    try:
        parameters = inspect.signature(function).parameters  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return []
    return [p for p in parameters if p not in {"self", "cls"}]


def _undocumented() -> list[str]:
    """Every public class, method, property and function of ``dr.__all__`` without a
    docstring, or whose docstring (the class's, for ``__init__``) leaves out an argument."""
    import enum
    import inspect

    import pydantic

    missing = []
    for name in sorted(set(dr.__all__) - {"__version__", "phases"}):
        obj = getattr(dr, name)
        if not inspect.isclass(obj):
            if not inspect.isroutine(obj):
                continue  # a type alias (Hook): documented where it is defined
            doc = inspect.getdoc(obj) or ""
            missing += [f"{name}()"] if not doc else []
            missing += [f"{name}({p})" for p in _parameters(obj) if p not in doc]
            continue
        class_doc = obj.__dict__.get("__doc__") or ""
        if not class_doc.strip():
            missing.append(name)
        if issubclass(obj, enum.Enum) or getattr(obj, "_is_protocol", False):
            continue  # an enum's members, a protocol's (absent) constructor
        for member, value in _own_members(obj).items():
            pydantics = member in pydantic.BaseModel.__dict__ or member.startswith("model_")
            if pydantics and member != "__init__":
                continue  # pydantic's own
            function = value.fget if isinstance(value, property) else value
            doc = class_doc if member == "__init__" else (inspect.getdoc(function) or "")
            if not doc.strip():
                missing.append(f"{name}.{member}")
                continue
            implied = {"message"} if issubclass(obj, BaseException) else set()
            missing += [
                f"{name}.{member}({p})"
                for p in _parameters(function)
                if p not in doc and p not in implied
            ]
    return missing


def test_every_public_name_has_a_docstring_naming_its_arguments() -> None:
    assert _undocumented() == []


def test_help_session_reads_well() -> None:
    import pydoc

    text = pydoc.render_doc(dr.Session, renderer=pydoc.plaintext)
    for expected in (
        "One research question",
        "Args:",
        "await s.plan()",
        "returns a copy",
        "save(path",
    ):
        assert expected in text, expected


def test_the_package_namespace_is_the_public_api() -> None:
    import subprocess
    import sys

    code = (
        "import sys\n"
        "import deepresearch as dr\n"
        # quick to import: the API's modules load on the first use of any of its names
        "assert 'deepresearch.session' not in sys.modules and 'pydantic' not in sys.modules\n"
        "assert {n for n in vars(dr) if not n.startswith('_')} == set()\n"
        "assert dr.Config is dr.Config\n"
        "names = {n for n in vars(dr) if not n.startswith('_')}\n"
        "assert names == {n for n in dr.__all__ if not n.startswith('_')}, names ^ set(dr.__all__)\n"
        "assert dir(dr) == sorted(dr.__all__)\n"
        "import deepresearch.llm\n"  # loaded by the package already: reached through __getattr__
        "assert deepresearch.llm.__name__ == 'deepresearch.llm'\n"
        "assert not hasattr(dr, 'no_such_name')\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
