"""What a run returns (:class:`RunResult`) and how a question and the session's arguments
are checked before one starts."""

from __future__ import annotations

import os
import re

from pydantic import BaseModel

from deepresearch.config import Config
from deepresearch.errors import InputError
from deepresearch.providers.base import LLMProvider, SearchProvider
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


def validate_arguments(
    llm: object, search: object, config: object, hooks: object, progress: object
) -> None:
    """InputError for a Session argument of the wrong type: it would fail mid-run with a
    bare TypeError, or be ignored."""
    if llm is not None and not isinstance(llm, str | LLMProvider):
        raise InputError(
            f"llm must be a model spec ('offline', 'openai:MODEL', 'anthropic:MODEL') or an "
            f"LLMProvider, not {type(llm).__name__} ({llm!r:.40})."
        )
    if search is not None and not (
        isinstance(search, str | os.PathLike | SearchProvider)
        or (isinstance(search, list) and all(isinstance(s, str) for s in search))
    ):
        raise InputError(
            "search must be a search name ('auto', 'demo', 'corpus', ...), a list of names, a "
            f"folder of documents or a SearchProvider, not {type(search).__name__} "
            f"({search!r:.40})."
        )
    if config is not None and not isinstance(config, Config):
        raise InputError(
            f"config must be a deepresearch.Config, not {type(config).__name__}: "
            "dr.Config(max_iterations=2), or dr.Config.load(file='deepresearch.toml') for a "
            "file (config keys may also be passed straight to Session)."
        )
    if hooks is not None:
        if not isinstance(hooks, list | tuple):
            raise InputError(
                f"hooks must be a list of callables fn(state, prompt), not "
                f"{type(hooks).__name__}; e.g. hooks=[review]."
            )
        bad = [h for h in hooks if not callable(h)]
        if bad:
            raise InputError(
                f"hooks must be callables fn(state, prompt) (or a ThinkPausePanel); "
                f"got {type(bad[0]).__name__} ({bad[0]!r:.40})."
            )
    if progress is not None and not callable(progress):
        raise InputError(
            f"progress must be a callable taking one str (e.g. print), not "
            f"{type(progress).__name__}."
        )
