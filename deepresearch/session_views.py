"""What a Session shows: its id, status and report, the state as DataFrames, files and
notebook reprs. :class:`~deepresearch.session.Session` inherits these views."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from deepresearch.errors import InputError
from deepresearch.state import Report, ResearchState, RunStatus

if TYPE_CHECKING:
    import pandas as pd

    from deepresearch.store import SessionStore


class SessionViews:
    """Read-only views of a session's state (mixed into :class:`Session`).

    Args:
        state: the research state the views read (set by ``Session.__init__``).
        store: the session store, or None when the session does not persist.
    """

    state: ResearchState
    store: SessionStore | None

    # copy, so editing it changes nothing (hand an edited plan back with set_sub_queries).
    @property
    def id(self) -> str:
        """The session id (the key in the store, and for ``deepresearch resume ID``)."""
        return self.state.id

    @property
    def question(self) -> str:
        """The research question, whitespace collapsed."""
        return self.state.question

    @property
    def status(self) -> RunStatus:
        """pending, running, awaiting_input, completed, stopped, cancelled, timed_out or failed."""
        return self.state.status

    @property
    def report(self) -> Report | None:
        """The cited Markdown report (``.markdown``), None before :meth:`synthesize`."""
        return self.state.report

    @property
    def sources(self) -> pd.DataFrame:
        """Sources, indexed by id (returns a copy): ``cited``/``citation`` (its ``[n]``
        in the report), title, url, provider, quality, relevance, sub-query, novelty, ..."""
        from deepresearch.notebook.frames import sources_frame

        return sources_frame(self.state)

    @property
    def findings(self) -> pd.DataFrame:
        """Findings (returns a copy), indexed by id: content, confidence, category, citations."""
        from deepresearch.notebook.frames import findings_frame

        return findings_frame(self.state)

    @property
    def gaps(self) -> pd.DataFrame:
        """Gaps (returns a copy): description, severity, whether and how they were addressed."""
        from deepresearch.notebook.frames import gaps_frame

        return gaps_frame(self.state)

    @property
    def claims(self) -> pd.DataFrame:
        """The report's sentences as verification checked them: status (supported, partial,
        unsupported, uncited), citations, the backing passage and why (returns a copy)."""
        from deepresearch.notebook.frames import claims_frame

        return claims_frame(self.state)

    @property
    def sub_queries(self) -> pd.DataFrame:
        """The plan (returns a copy), indexed by id: query, status, origin (plan, supervision,
        refinement, user), sources found. Edit it and hand it back with
        :meth:`set_sub_queries` or ``gather(sub_queries=df)``."""
        from deepresearch.notebook.frames import sub_queries_frame

        return sub_queries_frame(self.state)

    @property
    def decisions(self) -> pd.DataFrame:
        """Every agent decision, oldest first (returns a copy): phase, agent (``user`` for your
        steers), action, rationale."""
        from deepresearch.notebook.frames import decisions_frame

        return decisions_frame(self.state)

    @property
    def metrics(self) -> pd.DataFrame:
        """One row per phase run (returns a copy): duration, LLM calls, tokens, cost, searches."""
        from deepresearch.notebook.frames import metrics_frame

        return metrics_frame(self.state)

    @property
    def usage(self) -> pd.DataFrame:
        """One row per LLM call (returns a copy): role, phase, model, tokens, cost, retries."""
        from deepresearch.notebook.frames import usage_frame

        return usage_frame(self.state)

    @property
    def events(self) -> pd.DataFrame:
        """The audit trail from the store (returns a copy); InputError without a store."""
        if self.store is None:
            raise InputError("This session does not persist (persist=False): no audit trail.")
        return self.store.events_frame(self.id)

    def save(self, path: str | os.PathLike[str], format: str | None = None) -> Path:
        """Write the session to a file; ``format`` defaults from the suffix: ``.md`` (summary
        and report), ``.html`` (a standalone, sanitized page, citations linked, sources
        listed), ``.bib`` (BibTeX of the cited sources), ``.csl.json`` (CSL-JSON of the
        cited sources), ``.json`` (the full state; loads back with
        ResearchState.from_json). Returns the path written. To save the report alone, use
        ``s.report.save(path)`` (:meth:`Report.save`)."""
        from deepresearch.store import (
            export_bibtex,
            export_csl_json,
            export_html,
            export_json,
            export_markdown,
        )

        target = Path(path).expanduser()
        by_suffix = {
            ".md": "md",
            ".html": "html",
            ".htm": "html",
            ".bib": "bibtex",
            ".json": "state",
        }
        exporters = {
            "md": export_markdown, "html": export_html, "bibtex": export_bibtex,
            "csl": export_csl_json, "state": export_json,
        }  # fmt: skip
        csl = target.name.lower().endswith(".csl.json")
        chosen = format or ("csl" if csl else by_suffix.get(target.suffix.lower()))
        if chosen not in exporters:
            raise InputError(
                f"Cannot tell the format of {target.name!r}: use a .md, .html, .bib, "
                f".csl.json or .json name, or format= one of {sorted(exporters)}."
            )
        if target.is_dir():
            raise InputError(f"{target} is a folder; give a file name.")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(exporters[chosen](self.state) + "\n", encoding="utf-8")
        return target

    def finding_sources(self, finding_id: str) -> pd.DataFrame:
        """The sources finding ``finding_id`` cites, in its order (a copy; same columns as
        :attr:`sources`)."""
        from deepresearch.notebook.frames import finding_sources

        return finding_sources(self.state, finding_id)

    def __repr__(self) -> str:
        q = self.state.question
        q = q if len(q) <= 60 else q[:57] + "..."
        return (
            f"Session(id={self.id!r}, question={q!r}, status={self.status.value}, "
            f"phase={self.state.phase.value}, sources={len(self.state.sources)}, "
            f"findings={len(self.state.findings)})"
        )

    def _repr_html_(self) -> str:
        from deepresearch.render import session_html

        return session_html(self)

    def _repr_markdown_(self) -> str | None:
        from deepresearch.render import jupyter_files_route, state_report_markdown

        if self.state.report is None:
            return None
        return state_report_markdown(self.state, files=jupyter_files_route(), passages=True)
