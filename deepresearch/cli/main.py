"""`deepresearch "question"`: run research from a terminal; plus session commands."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from deepresearch.cli.sessions import EXIT_STORE_FAILED
from deepresearch.config import Config
from deepresearch.errors import DeepResearchError, InputError, StoreError
from deepresearch.render import one_line, report_markdown, terminal_text
from deepresearch.session import RunResult, Session
from deepresearch.state import RunStatus

SESSION_COMMANDS = {"list", "show", "delete", "export", "resume"}
# Exit codes: 0 clean run, 1 failed/stopped/timed out, 2 bad input or setup,
# 3 finished with warnings (some phase degraded), 4 the session store failed
# (EXIT_STORE_FAILED: damaged, full disk, read-only, locked), 130 cancelled.
EXIT_WARNINGS = 3
STORE_FAILED = EXIT_STORE_FAILED


def _research_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="deepresearch",
        description="Research a question and print a cited Markdown report. "
        "Session commands: deepresearch {list,show,delete,export,resume,batch} --help",
    )
    p.add_argument("question", help="the research question")
    _common(p)
    return p


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--llm", help="model spec: offline, openai:MODEL, anthropic:MODEL (default: auto)"
    )
    p.add_argument("--search", help="search providers, comma-separated: demo, corpus, tavily, auto")
    p.add_argument("--corpus", type=Path, help="search this folder of your documents")
    p.add_argument("--max-iterations", type=int, help="research iterations (default 3)")
    p.add_argument("--config", type=Path, help="a deepresearch.toml file")
    p.add_argument(
        "--store", type=Path, help="SQLite session store (default ~/.deepresearch/sessions.db)"
    )
    p.add_argument(
        "--no-persist", "--no-store", dest="no_persist", action="store_true",
        help="do not save the session (--no-store: deprecated alias)",
    )  # fmt: skip
    p.add_argument("--out", type=Path, help="write the report here instead of stdout")
    p.add_argument("--json", action="store_true", help="print the final state as JSON")
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")


def _config(args: argparse.Namespace) -> Config:
    overrides: dict[str, Any] = {}
    if args.llm:
        overrides["llm"] = args.llm
    if args.search:
        overrides["search"] = [s.strip() for s in args.search.split(",") if s.strip()]
    if args.corpus is not None:
        if not args.corpus.is_dir():
            raise DeepResearchError(
                f"Corpus folder {args.corpus} does not exist or is not a folder."
            )
        overrides["corpus"] = args.corpus
        overrides.setdefault("search", ["corpus"])
    if args.max_iterations is not None:
        overrides["max_iterations"] = args.max_iterations
    if args.store is not None:
        overrides["store_path"] = args.store
    if args.no_persist:
        overrides["persist"] = False
    return Config.load(file=args.config, **overrides)


def check_out_path(path: Path | None) -> None:
    """Fail before any research if the report could not be written: a folder, or a folder
    that cannot be created. A missing parent folder is created."""
    if path is None:
        return
    if path.is_dir():
        raise InputError(f"--out {path} is a folder; give a file name, e.g. {path / 'report.md'}.")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InputError(
            f"--out {path}: cannot create its folder: {exc.strerror or exc}."
        ) from None
    if not os.access(path.parent, os.W_OK):
        raise InputError(f"--out {path}: the folder {path.parent} is not writable.")


def _progress(quiet: bool) -> Callable[[str], None] | None:
    if quiet:
        return None
    return lambda message: print(f"· {terminal_text(message)}", file=sys.stderr, flush=True)


def _run(session: Session, resume: bool) -> RunResult:
    """Run with Ctrl-C as a cancel: the state is saved and the run says so."""

    async def main() -> RunResult:
        loop = asyncio.get_running_loop()
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(signal.SIGINT, session.cancel)
        return await (session.resume() if resume else session.run())

    return asyncio.run(main())


def _finish(session: Session, result: RunResult, args: argparse.Namespace) -> int:
    err = sys.stderr
    if args.json:
        sys.stdout.write(session.state.to_json() + "\n")
    elif result.report is not None:
        # Sources wrote part of this text: escaped Markdown, no terminal control characters.
        text = terminal_text(report_markdown(result.report))
        if args.out:
            args.out.write_text(text, encoding="utf-8")
            print(f"Report written to {args.out}", file=err)
        else:
            sys.stdout.write(text)
    if not result.saved:
        print(f"deepresearch: the session was NOT saved: {result.store_error}", file=err)
    if result.status == RunStatus.COMPLETED_WITH_WARNINGS:
        print("Research completed with warnings; affected parts:", file=err)
        for line in result.warnings:
            print(f"  - {terminal_text(line)}", file=err)
        return STORE_FAILED if not result.saved else EXIT_WARNINGS
    if result.status != RunStatus.COMPLETED:
        error = terminal_text(one_line(result.error or ""))
        print(f"Research {result.status.value}: {error}".rstrip(": "), file=err)
        if session.store is not None and result.saved:
            print(f"Resume with: deepresearch resume {session.id}", file=err)
        return 130 if result.status == RunStatus.CANCELLED else 1
    if not result.saved:
        return STORE_FAILED
    if session.store is not None and not args.quiet:
        print(f"Session {session.id} saved to {session.store.path}", file=err)
    return 0


def research_main(argv: list[str]) -> int:
    args = _research_parser().parse_args(argv)
    if not args.question.strip():
        print("deepresearch: error: the question is empty; ask something, e.g. "
              "deepresearch \"How did the printing press change Europe?\"", file=sys.stderr)  # fmt: skip
        return 2
    check_out_path(args.out)
    config = _config(args)
    session = Session(args.question, config=config, progress=_progress(args.quiet))
    ctx = session._context()
    if not args.quiet:
        print(f"LLM: {ctx.models.default.name} · search: {ctx.search.name}", file=sys.stderr)
    return _finish(session, _run(session, resume=False), args)


def resume_main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="deepresearch resume", description="Continue a saved session.")
    p.add_argument("session_id")
    _common(p)
    args = p.parse_args(argv)
    check_out_path(args.out)
    config = _config(args)
    session = Session.load(args.session_id, config=config, progress=_progress(args.quiet))
    if not args.quiet:
        print(f"Resuming {session.id} at {session.state.phase.value}", file=sys.stderr)
    return _finish(session, _run(session, resume=True), args)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        if argv and argv[0] == "resume":
            return resume_main(argv[1:])
        if argv and argv[0] == "batch":
            from deepresearch.cli.batch import batch_main

            return batch_main(argv[1:], _config)
        if argv and argv[0] in SESSION_COMMANDS:
            from deepresearch.cli import sessions

            parser = argparse.ArgumentParser(prog="deepresearch")
            sessions.register(parser.add_subparsers(dest="command", required=True))
            args = parser.parse_args(argv)
            return int(args.func(args))
        return research_main(argv)
    except StoreError as exc:
        print(f"deepresearch: store error: {terminal_text(one_line(str(exc)))}", file=sys.stderr)
        return STORE_FAILED
    except DeepResearchError as exc:
        print(f"deepresearch: error: {terminal_text(str(exc))}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
