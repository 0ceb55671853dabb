"""JSON extraction from model text, the schema prompt, and the repair loop."""

from __future__ import annotations

import json

import pytest

from deepresearch.config import Config
from deepresearch.errors import ProviderError, StructuredOutputError
from deepresearch.providers.base import LLMRequest, Message, Usage
from deepresearch.providers.resilience import RetryPolicy
from deepresearch.providers.structured import (
    Answer,
    NativeOutput,
    _AdaptedRequest,
    complete_structured,
    complete_with_repair,
    extract_json,
    schema_instructions,
    strip_reasoning,
    validate,
)
from deepresearch.state import AgentRole

from .conftest import Recorder, Verdict


def test_extracts_fenced_json_after_a_think_block() -> None:
    text = (
        '<think>Maybe {"label": "wrong", "score": 0}?</think>\n'
        'Sure! Here you go:\n```json\n{"label": "ok", "score": 3}\n```\nAnything else?'
    )
    assert extract_json(text) == {"label": "ok", "score": 3}


def test_extracts_json_embedded_in_chatter_with_braces_inside_strings() -> None:
    text = 'The answer is {"label": "a } tricky { one", "score": 2} as requested.'
    assert extract_json(text) == {"label": "a } tricky { one", "score": 2}


def test_unclosed_reasoning_block_hides_everything_after_it() -> None:
    assert strip_reasoning('<think>{"label": "x", "score": 1} and then I ran out') == ""
    with pytest.raises(ValueError, match="empty"):
        extract_json("<think>cut off mid-thought")


def test_no_json_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="no JSON"):
        extract_json("I cannot help with that.")


def test_validate_unwraps_a_named_wrapper_and_a_single_item_list() -> None:
    assert validate({"Verdict": {"label": "a", "score": 1}}, Verdict) == Verdict(label="a", score=1)
    assert validate([{"label": "b", "score": 2}], Verdict) == Verdict(label="b", score=2)


def test_schema_instructions_name_the_schema_and_embed_it() -> None:
    text = schema_instructions(Verdict)
    assert 'schema named "Verdict"' in text
    schema = json.loads(text.split("Schema: ", 1)[1])
    assert schema["required"] == ["label", "score"]


async def test_repair_shows_the_validation_error_then_succeeds() -> None:
    seen: list[list[Message]] = []
    answers = ['{"label": "x"}', '```json\n{"label": "x", "score": 5}\n```']

    async def ask(extra: list[Message]) -> Answer:
        seen.append(list(extra))
        return Answer(text=answers[len(seen) - 1], usage=Usage(10, 2))

    result = await complete_with_repair(ask, Verdict, max_repairs=3, provider="t")
    assert result.output == Verdict(label="x", score=5)
    assert result.repair_attempts == 1
    assert result.usage == Usage(20, 4)
    assert seen[0] == []
    assert seen[1][0] == Message("assistant", '{"label": "x"}')
    assert "score" in seen[1][1].content and "Field required" in seen[1][1].content


async def test_repair_exhausted_raises_structured_output_error() -> None:
    calls = 0

    async def ask(extra: list[Message]) -> Answer:
        nonlocal calls
        calls += 1
        return Answer(text="Sorry, I can't produce JSON.", usage=Usage())

    with pytest.raises(StructuredOutputError) as info:
        await complete_with_repair(ask, Verdict, max_repairs=3, provider="openai:m")
    assert calls == 4  # the first answer and three repairs
    assert info.value.raw_text == "Sorry, I can't produce JSON."
    assert "Verdict" in str(info.value) and "3 repair" in str(info.value)


async def test_native_data_is_validated_too() -> None:
    async def ask(extra: list[Message]) -> Answer:
        return Answer(text="", usage=Usage(), data={"label": "n", "score": 1})

    result = await complete_with_repair(ask, Verdict, max_repairs=0, provider="t")
    assert result.output == Verdict(label="n", score=1)


async def test_complete_structured_resends_adapted_requests_and_retries_errors() -> None:
    request = LLMRequest(
        role=AgentRole.ANALYZER,
        phase="analysis",
        messages=[Message("user", "Rate this.")],
        output_type=Verdict,
        inputs=Verdict(label="in", score=0),
    )
    outcomes: list[Exception | str] = [
        _AdaptedRequest(),  # re-sent at once, no wait
        ProviderError("busy", retryable=True),  # retried after a wait
        '{"label": "x"}',  # repaired
        '{"label": "x", "score": 2}',
    ]
    seen: list[list[Message]] = []

    async def send(req: LLMRequest, extra: list[Message]) -> Answer:
        assert req is request
        seen.append(list(extra))
        outcome = outcomes.pop(0)
        if isinstance(outcome, Exception):
            raise outcome
        return Answer(text=outcome, usage=Usage(3, 1))

    sleep = Recorder()
    response = await complete_structured(
        request,
        send,
        provider="vendor:m",
        endpoint="vendor|test",
        config=Config(max_repair_attempts=1),
        retry=RetryPolicy(max_retries=1, base_delay_s=0.0, sleep=sleep),
    )
    assert response.output == Verdict(label="x", score=2)
    assert (response.model, response.repair_attempts, response.usage) == (
        "vendor:m",
        1,
        Usage(6, 2),
    )
    assert len(sleep.waits) == 1 and [len(e) for e in seen] == [0, 0, 0, 2]


def test_a_cut_off_answer_is_not_read_as_an_object_nested_inside_it() -> None:
    with pytest.raises(ValueError, match="incomplete or malformed"):
        extract_json('{"findings": [{"content": "Gutenberg", "source_ids": ["s1"]}, {"con')
    assert extract_json('Sure {thinking}. {"label": "x", "score": 1}') == {"label": "x", "score": 1}


def test_native_output_is_switched_off_by_evidence_for_one_model_only() -> None:
    flaky, ignoring, forced = NativeOutput("auto"), NativeOutput("auto"), NativeOutput("native")
    for valid in (True, False, False, False):
        flaky.observe(valid)
    assert flaky.enabled  # it worked once: malformed answers are the model's bad days
    ignoring.observe(False)
    assert ignoring.enabled  # one miss proves nothing
    ignoring.observe(False)
    assert not ignoring.enabled
    for _ in range(3):
        forced.observe(False)
    assert forced.enabled and forced.for_attempt([Message("user", "fix it")])
    assert not flaky.for_attempt([Message("user", "fix it")])  # repairs are prompted
    assert NativeOutput("prompt").enabled is False
    assert NativeOutput("native").rejected() is False
