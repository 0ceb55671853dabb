"""Fuzz: any question, config values and corpus file contents end in a typed error or a
finished run (whatever its status) — never another exception. Offline engine, a corpus of
three small files, one iteration, few examples: it stays fast."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import deepresearch as dr
from deepresearch.errors import DeepResearchError

# Knobs whose bad values must be ConfigErrors and whose good values must not break a run.
KNOBS = [
    "max_iterations",
    "max_sub_queries",
    "max_sources_per_query",
    "topic_max_tool_calls",
    "extract_max_per_iteration",
    "max_concurrent_research_units",
    "novelty_related_threshold",
    "summarization_min_chars",
    "coverage_weights",
    "max_question_chars",
    "allow_private_urls",
]
small_values = st.one_of(
    st.integers(min_value=-3, max_value=4),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.none(),
    st.text(max_size=8),
    st.dictionaries(st.text(max_size=6), st.floats(allow_nan=True), max_size=3),
)
questions = st.one_of(
    st.text(max_size=200),
    st.text(alphabet=st.characters(codec="utf-8"), min_size=1, max_size=60).map(
        lambda t: f"How did {t} change Europe?"
    ),
    st.binary(max_size=40),
    st.integers(),
    st.none(),
)
file_contents = st.one_of(
    st.binary(max_size=1500),
    st.text(max_size=1500).map(lambda t: t.encode("utf-8", "surrogatepass")),
    st.text(max_size=400).map(lambda t: t.encode("utf-16")),
)


def run_once(question: Any, knobs: dict[str, Any], files: list[bytes]) -> dr.RunResult | None:
    """The run's result, or None when it ended in a typed error."""
    with tempfile.TemporaryDirectory() as folder:
        for name, data in zip(("a.txt", "b.md", "c.html"), files, strict=False):
            (Path(folder) / name).write_bytes(data)
        (Path(folder) / "base.md").write_text(
            "# Printing press\n\nThe printing press changed Europe after 1450. "
            "Books became cheap and literacy spread.",
            encoding="utf-8",
        )
        try:
            config = dr.Config(**knobs)
            session = dr.Session(
                question, llm="offline", search=Path(folder), config=config, persist=False
            )
            result = session.run_sync()
        except DeepResearchError as exc:
            assert str(exc).strip(), "a typed error says what went wrong"
            return None
        assert isinstance(result, dr.RunResult)
        if result.report is not None:
            assert isinstance(result.report.markdown, str)
        return result


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
# Random bytes make files the corpus skips, saying so: that warning is the behaviour asked for.
@pytest.mark.filterwarnings("ignore::deepresearch.providers.corpus.CorpusWarning")
@given(
    question=questions,
    knobs=st.dictionaries(st.sampled_from(KNOBS), small_values, max_size=3),
    files=st.lists(file_contents, max_size=3),
)
def test_any_input_gives_a_typed_error_or_a_finished_run(
    question: Any, knobs: dict[str, Any], files: list[bytes]
) -> None:
    knobs.setdefault("max_iterations", 1)
    if isinstance(knobs["max_iterations"], int) and knobs["max_iterations"] > 1:
        knobs["max_iterations"] = 1  # keep every example fast; bad values still go through
    run_once(question, knobs, files)


def test_the_fuzzer_reaches_completed_runs() -> None:
    """Not every example may be an error: a plain question over the tiny corpus finishes."""
    result = run_once("How did the printing press change Europe?", {"max_iterations": 1}, [b"x"])
    assert result is not None and result.ok and result.report is not None
