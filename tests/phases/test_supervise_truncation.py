"""Type-aware truncation of the supervisor's message history (seeds 004, phase 4): 60% of
the budget for reasoning (think, delegation), 40% for findings, oldest dropped first,
findings cut to their headline, the last two thinks always kept."""

from __future__ import annotations

from typing import Literal

from deepresearch.config import Config
from deepresearch.phases.supervise import truncate_messages
from deepresearch.state import SupervisionMessage
from deepresearch.text import estimate_tokens

Kind = Literal["think", "delegation", "tool_result"]


def test_defaults_follow_the_seeds() -> None:
    cfg = Config()
    assert cfg.supervision_reasoning_share == 0.6
    assert cfg.preserve_last_n_thinks == 2


def _msg(kind: Kind, rnd: int, tokens: int, tag: str) -> SupervisionMessage:
    head = f"{tag} headline sentence. Detail "
    body = head + "x" * (tokens * 4 - len(head) - 1)
    m = SupervisionMessage(kind=kind, round=rnd, content=body)
    assert estimate_tokens(m.content) == tokens
    return m


def _kept(lines: list[str], messages: list[SupervisionMessage]) -> list[int]:
    tags = [f"] {m.content.split()[0]} " for m in messages]
    return [i for i, tag in enumerate(tags) if any(tag in ln for ln in lines)]


def test_truncation_splits_budget_sixty_forty_between_reasoning_and_findings() -> None:
    thinks = [_msg("think", i, 100, f"T{i}") for i in range(10)]
    results = [_msg("tool_result", i, 100, f"R{i}") for i in range(10)]
    cfg = Config()
    assert cfg.supervision_reasoning_share == 0.6

    only_reasoning = truncate_messages(thinks, 1000, cfg.supervision_reasoning_share, 2)
    assert _kept(only_reasoning, thinks) == [4, 5, 6, 7, 8, 9]  # 600 tokens, newest kept
    only_findings = truncate_messages(results, 1000, cfg.supervision_reasoning_share, 2)
    full = [ln for ln in only_findings if "x" * 50 in ln]
    assert (
        len(full) == len(only_findings) == 4
    )  # 400 tokens of whole findings, the rest cut or dropped
    assert all(f"R{i}" in full[k] for k, i in enumerate(range(6, 10)))

    mixed = [m for pair in zip(thinks, results, strict=True) for m in pair]
    lines = truncate_messages(mixed, 1000, 0.6, 2)
    reasoning = sum(estimate_tokens(ln.split("] ", 1)[1]) for ln in lines if " think]" in ln)
    findings = sum(estimate_tokens(ln.split("] ", 1)[1]) for ln in lines if "tool_result]" in ln)
    assert reasoning <= 600 and findings <= 400
    assert reasoning > 400  # reasoning really got the larger share
    rounds = [int(ln.split()[1]) for ln in lines]
    assert rounds == sorted(rounds)  # chronological order kept


def test_truncation_always_keeps_the_last_two_thinks() -> None:
    messages = [
        _msg("think", 1, 10, "OLD"),
        _msg("delegation", 1, 10, "DEL"),
        _msg("think", 2, 700, "BIG1"),
        _msg("think", 3, 700, "BIG2"),
    ]
    lines = truncate_messages(messages, 500, 0.6, 2)
    text = "\n".join(lines)
    assert "BIG1" in text and "BIG2" in text  # kept although each alone exceeds the budget
    assert "OLD" not in text and "DEL" not in text  # no reasoning budget left for them
    assert "BIG1" not in "\n".join(truncate_messages(messages, 500, 0.6, 1))


def test_truncation_cuts_findings_to_their_headline_before_dropping_them() -> None:
    messages = [_msg("tool_result", i, 300, f"F{i}") for i in range(3)]
    lines = truncate_messages(messages, 1000, 0.6, 2)  # 400 tokens for findings
    assert len(lines) == 3
    assert "x" * 50 in lines[-1]  # the newest whole
    assert lines[0].endswith("F0 headline sentence.")  # older ones as headlines
    assert lines[1].endswith("F1 headline sentence.")
