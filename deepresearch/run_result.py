"""What a run returns (:class:`RunResult`) and how a question is checked before one starts."""

from __future__ import annotations

import re

from pydantic import BaseModel

from deepresearch.config import Config
from deepresearch.errors import InputError
from deepresearch.state import Phase, Report, RunStatus


class RunResult(BaseModel):
    """What run() and resume() return: how the run ended, and the report if there is one."""

    session_id: str
    status: RunStatus
    phase: Phase
    iteration: int
    report: Report | None = None
    error: str | None = None
    # One line per degraded or failed phase run (empty for a clean run).
    warnings: list[str] = []
    saved: bool = True  # False: the store failed mid-run; store_error says why
    store_error: str | None = None

    @property
    def ok(self) -> bool:
        """True only for a clean, complete run (not for ``completed_with_warnings``)."""
        return self.status == RunStatus.COMPLETED

    def __repr__(self) -> str:
        extra = f", error={self.error!r}" if self.error else ""
        return (
            f"RunResult(session_id={self.session_id!r}, status={self.status.value}, "
            f"phase={self.phase.value}, iteration={self.iteration}{extra})"
        )


_SURROGATES = re.compile("[\ud800-\udfff]")


def validate_question(question: object, config: Config) -> str:
    """The question as text with whitespace collapsed, or an InputError saying what to do."""
    if isinstance(question, bytes | bytearray):
        raise InputError(
            f"The question is {type(question).__name__}, not text. Decode it first, e.g. "
            "question.decode('utf-8')."
        )
    if not isinstance(question, str):
        raise InputError(
            f"The question must be a str, not {type(question).__name__} ({question!r:.40})."
        )
    if not question.strip():
        raise InputError(
            "The research question is empty. Pass a question, e.g. 'How does X work?'."
        )
    # Lone surrogates (undecodable bytes from a terminal) cannot be saved or sent as UTF-8.
    text = " ".join(_SURROGATES.sub("\ufffd", question).split())
    if not any(ch.isalnum() for ch in text):
        raise InputError(
            f"The question {text[:40]!r} has no words, so there is nothing to research. Ask "
            "something, e.g. 'How does X work?'."
        )
    if len(text) > config.loop.max_question_chars:
        raise InputError(
            f"The question is {len(text)} characters; the limit is {config.loop.max_question_chars}. "
            "Shorten it, or put background material in a corpus folder (--corpus) and ask "
            "about it, or raise Config.max_question_chars."
        )
    return text
