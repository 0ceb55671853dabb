"""An answer cut off at the output limit is repaired with a prompt that says so."""

from __future__ import annotations

import asyncio

from deepresearch.providers.base import Message, Usage
from deepresearch.providers.structured import Answer, complete_with_repair, was_cut_off
from deepresearch.roles import ReportDraft


def test_the_repair_prompt_says_the_answer_was_cut_off() -> None:
    answers = [
        '{"markdown": "# Printing\\n\\nPresses spread to 250 towns [1] and',
        '{"markdown": "# Printing\\n\\nPresses spread [1]."}',
    ]
    seen: list[list[Message]] = []

    async def ask(extra: list[Message]) -> Answer:
        seen.append(list(extra))
        return Answer(text=answers[len(seen) - 1], usage=Usage())

    out = asyncio.run(complete_with_repair(ask, ReportDraft, max_repairs=1, provider="test"))
    assert isinstance(out.output, ReportDraft) and out.repair_attempts == 1
    assert "cut off" in seen[1][-1].content and "more briefly" in seen[1][-1].content


def test_a_complete_but_invalid_answer_is_not_called_cut_off() -> None:
    assert not was_cut_off('{"markdown": 3}')
    assert not was_cut_off('{"a": "a } inside a string"}')
    assert was_cut_off('```json\n{"a": ["x", "y"')
