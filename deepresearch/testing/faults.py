"""Faults to inject into runs, to test recovery: hooks that fail a run or kill its process."""

from __future__ import annotations

import os
from pathlib import Path

from deepresearch.errors import DeepResearchError
from deepresearch.state import Phase, ResearchState


class CrashOnce:
    """A think-pause hook that ends the whole process (``os._exit``) after ``phase`` of a
    question containing ``word`` — once: a marker file in ``marker_dir`` remembers it, so a
    retried or resumed run goes on. Used to test that a lost worker resumes."""

    def __init__(self, marker_dir: str | Path, word: str, phase: Phase = Phase.GATHERING) -> None:
        self.marker_dir = Path(marker_dir)
        self.word = word.lower()
        self.phase = phase

    def __call__(self, state: ResearchState, prompt: str) -> None:
        if self.word not in state.question.lower() or state.phase != self.phase:
            return
        marker = self.marker_dir / f"crashed-{state.id}"
        if marker.exists():
            return
        self.marker_dir.mkdir(parents=True, exist_ok=True)
        marker.write_text(state.phase.value)
        os._exit(17)


class FailingHook:
    """A think-pause hook that fails the run (a DeepResearchError, recorded as the session's
    failure) after ``phase`` of questions containing ``word``. With ``marker_dir`` it fails
    only once per session, so a resumed run completes."""

    def __init__(
        self, word: str, phase: Phase = Phase.PLANNING, marker_dir: str | Path | None = None
    ) -> None:
        self.word = word.lower()
        self.phase = phase
        self.marker_dir = Path(marker_dir) if marker_dir is not None else None

    def __call__(self, state: ResearchState, prompt: str) -> None:
        if self.word not in state.question.lower() or state.phase != self.phase:
            return
        if self.marker_dir is not None:
            marker = self.marker_dir / f"failed-{state.id}"
            if marker.exists():
                return
            self.marker_dir.mkdir(parents=True, exist_ok=True)
            marker.write_text(state.phase.value)
        raise DeepResearchError(f"injected failure after {state.phase.value}")
