"""`deepresearch "question"` and `deepresearch resume ID`: run research from a terminal.

Options map onto Config fields, layered by the one precedence rule: flags and
``--set KEY=VALUE`` > DEEPRESEARCH_* environment > the config file > defaults.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from deepresearch.cli.result import for_stream, result_json, summary_line
from deepresearch.config import Config, parse_config_value
from deepresearch.errors import ConfigError, InputError
from deepresearch.render import one_line, report_markdown, terminal_text
from deepresearch.run_result import RunResult
from deepresearch.session import Session
from deepresearch.state import RunStatus

# Exit codes: 0 clean run, 1 failed/stopped/timed out, 2 bad input or setup,
# 3 finished with warnings (some phase degraded), 4 the session store failed
# (damaged, full disk, read-only, locked), 130 cancelled.
EXIT_WARNINGS = 3
EXIT_STORE_FAILED = 4
# What the research command can print or write with --out.
FORMATS = ("md", "json", "state")


def path_arg(text: str) -> Path:
    """A path flag's value; an empty one is refused, since Path("") is the working folder
    (``--corpus "$UNSET"`` would index it)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty path; give a file or folder name")
    return Path(text).expanduser()


def add_search_options(p: argparse.ArgumentParser) -> None:
    """Where to search and for how many iterations: shared by a run, `resume` and `batch`."""
    p.add_argument(
        "--search",
        help="search providers, comma-separated: auto, demo, corpus, tavily, semantic_scholar, "
        "openalex, arxiv, crossref, google, searxng, duckduckgo",
    )
    p.add_argument(
        "--search-mode",
        choices=["fallback", "merge"],
        help="several providers: the first that answers (fallback) or all, merged (merge)",
    )
    p.add_argument("--corpus", type=path_arg, help="search this folder of your documents")
    p.add_argument("--max-iterations", type=int, help="research iterations (default 3)")


def add_run_options(p: argparse.ArgumentParser) -> None:
    """The options shared by a new run and `resume`."""
    p.add_argument(
        "--llm", help="model spec: offline, openai:MODEL, anthropic:MODEL (default auto)"
    )
    add_search_options(p)
    p.add_argument(
        "--max-sub-queries", type=int, help="sub-queries the planner may write (default 5)"
    )
    p.add_argument(
        "--no-clarify", action="store_true", help="skip the clarifying question (enable_clarification=false)"
    )  # fmt: skip
    p.add_argument(
        "--set", dest="settings", action="append", default=[], metavar="KEY=VALUE",
        help="set any config field (repeatable), e.g. --set max_sources_per_query=3; "
        "lists and tables as JSON: --set 'search=[\"corpus\",\"demo\"]'",
    )  # fmt: skip
    p.add_argument("--config", type=path_arg, help="a deepresearch.toml file")
    p.add_argument(
        "--store", type=path_arg, help="session store (default ~/.deepresearch/sessions.db)"
    )
    p.add_argument(
        "--no-persist", "--no-store", dest="no_persist", action="store_true",
        help="do not save the session (--no-store: deprecated alias)",
    )  # fmt: skip
    p.add_argument(
        "--format", choices=FORMATS, default=None,
        help="md: the report (default); json: a compact result document (question, status, "
        "report, sources with citation numbers, findings, gaps, usage); state: the full state",
    )  # fmt: skip
    p.add_argument("--json", action="store_true", help="same as --format json")
    p.add_argument("--out", type=path_arg, help="write the output (any --format) to this file")
    p.add_argument("--quiet", action="store_true", help="no progress or summary on stderr")


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add `resume` (the research command itself is the default, see main.py)."""
    p = subparsers.add_parser(
        "resume", help="continue a saved session", description="Continue a saved session."
    )
    p.add_argument("session_id", help="session id (see `deepresearch list`)")
    add_run_options(p)
    p.set_defaults(func=resume_command)


def research_parser(prog: str, epilog: str) -> argparse.ArgumentParser:
    """The argument parser of ``deepresearch QUESTION``.

    Args:
        prog: the program name shown in usage.
        epilog: text after the options (the other commands).
    """
    p = argparse.ArgumentParser(
        prog=prog,
        description="Research a question and print a cited Markdown report.",
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("question", help="the research question; - reads it from stdin")
    add_run_options(p)
    return p


def config_from(args: argparse.Namespace) -> Config:
    """Flags and --set over environment, config file and defaults. Options a command does
    not have (e.g. `batch` has no --set) count as not given."""
    return Config.load(file=getattr(args, "config", None), **overrides_from(args))


def overrides_from(args: argparse.Namespace) -> dict[str, Any]:
    """The Config fields the flags and --set settings give."""
    overrides: dict[str, Any] = {}
    for item in getattr(args, "settings", []):
        key, sep, value = item.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or not key:
            raise ConfigError(f"--set {item!r}: write KEY=VALUE, e.g. --set max_iterations=2.")
        overrides[key] = parse_config_value(key, value)
    if getattr(args, "llm", None):
        overrides["llm"] = args.llm
    if getattr(args, "search", None):
        overrides["search"] = [s.strip() for s in args.search.split(",") if s.strip()]
    if getattr(args, "search_mode", None):
        overrides["search_mode"] = args.search_mode
    if getattr(args, "corpus", None) is not None:
        if not args.corpus.is_dir():
            raise InputError(f"Corpus folder {args.corpus} does not exist or is not a folder.")
        overrides["corpus"] = args.corpus
        overrides.setdefault("search", ["corpus"])
    flags = {
        "max_iterations": getattr(args, "max_iterations", None),
        "max_sub_queries": getattr(args, "max_sub_queries", None),
        "store_path": getattr(args, "store", None),
        "enable_clarification": False if getattr(args, "no_clarify", False) else None,
        "persist": False if getattr(args, "no_persist", False) else None,
    }
    overrides.update({k: v for k, v in flags.items() if v is not None})
    return overrides


def output_format(args: argparse.Namespace) -> str:
    """The output format the flags ask for (``--json`` or ``--format``; default md).

    Args:
        args: the parsed arguments.
    """
    if args.json and args.format not in (None, "json"):
        raise InputError(f"--json and --format {args.format} disagree; pass one of them.")
    return "json" if args.json else (args.format or "md")


def check_out_path(path: Path | None, *, store: Path | None = None) -> None:
    """Fail before any research if the output could not be written: a folder, a folder
    that cannot be created, or the session store (``store``), which the output would
    destroy. A missing parent folder is created."""
    if path is None:
        return
    if store is not None:
        target, db = path.expanduser().resolve(), store.expanduser().resolve()
        if target in (db, db.with_name(f"{db.name}-wal"), db.with_name(f"{db.name}-shm")):
            raise InputError(
                f"--out {path} is the session store; writing there would destroy every saved "
                "session. Give another file name, e.g. report.md."
            )
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


def research_command(args: argparse.Namespace) -> int:
    """Run ``deepresearch QUESTION``; returns the exit code.

    Args:
        args: the parsed arguments.
    """
    if args.question == "-":
        # Undecodable bytes become replacement characters (validate_question), not a crash.
        args.question = sys.stdin.buffer.read().decode("utf-8", "surrogateescape")
    if not args.question.strip():
        raise InputError(
            'The question is empty; ask something, e.g. deepresearch "How did the printing '
            'press change Europe?"'
        )
    fmt = output_format(args)
    config = config_from(args)
    check_out_path(args.out, store=config.resolved_store_path())
    session = Session(args.question, config=config, progress=_progress(args.quiet))
    ctx = session._context()
    if not args.quiet:
        print(f"LLM: {ctx.models.default.name} · search: {ctx.search.name}", file=sys.stderr)
    return _run_and_finish(session, args, fmt, resume=False)


def resume_command(args: argparse.Namespace) -> int:
    """Run ``deepresearch resume ID`` with the session's recorded config, changed only by
    the flags given; returns the exit code.

    Args:
        args: the parsed arguments.
    """
    fmt = output_format(args)
    store = config_from(args).resolved_store_path()
    check_out_path(args.out, store=store)
    # Resume as the session ran (its recorded Config: corpus, search, models), changed
    # only by the flags given here.
    overrides = overrides_from(args)
    for key in ("store_path", "persist"):
        overrides.pop(key, None)
    session = Session.load(
        args.session_id, store=store, progress=_progress(args.quiet), **overrides
    )
    if not args.quiet:
        print(f"Resuming {session.id} at {session.state.phase.value}", file=sys.stderr)
    return _run_and_finish(session, args, fmt, resume=True)


def _progress(quiet: bool) -> Callable[[str], None] | None:
    if quiet:
        return None
    return lambda message: print(f"· {terminal_text(message)}", file=sys.stderr, flush=True)


def _run_and_finish(session: Session, args: argparse.Namespace, fmt: str, *, resume: bool) -> int:
    started = time.monotonic()
    result = _run(session, resume)
    _emit_output(session, result, fmt, args.out)
    code = _report_outcome(session, result, quiet=args.quiet)
    if not args.quiet:
        print(summary_line(session.state, time.monotonic() - started), file=sys.stderr)
    return code


def _run(session: Session, resume: bool) -> RunResult:
    """Run with Ctrl-C as a cancel: the state is saved and the run says so."""

    async def main() -> RunResult:
        loop = asyncio.get_running_loop()
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(signal.SIGINT, session.cancel)
        return await (session.resume() if resume else session.run())

    return asyncio.run(main())


def _emit_output(session: Session, result: RunResult, fmt: str, out: Path | None) -> None:
    """The chosen format to --out or stdout; a run without a report prints nothing in md."""
    if fmt == "json":
        text: str | None = result_json(session.state) + "\n"
    elif fmt == "state":
        text = session.state.to_json() + "\n"
    else:
        # Sources wrote part of this text: escaped Markdown, no terminal control characters.
        report = result.report
        text = terminal_text(report_markdown(report)) if report is not None else None
    if text is None:
        return
    if out is None:
        # Not a UnicodeEncodeError after the research is done (--out writes UTF-8).
        sys.stdout.write(for_stream(text, sys.stdout, is_json=fmt != "md"))
        sys.stdout.flush()
        return
    try:
        out.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise InputError(f"Cannot write {out}: {exc.strerror or exc}.") from None
    print(f"Wrote {out}", file=sys.stderr)


def _report_outcome(session: Session, result: RunResult, *, quiet: bool) -> int:
    err = sys.stderr
    if not result.saved:
        print(f"deepresearch: the session was NOT saved: {result.store_error}", file=err)
    if result.status == RunStatus.COMPLETED_WITH_WARNINGS:
        print("Research completed with warnings; affected parts:", file=err)
        for line in result.warnings:
            print(f"  - {terminal_text(line)}", file=err)
        return EXIT_STORE_FAILED if not result.saved else EXIT_WARNINGS
    if result.status != RunStatus.COMPLETED:
        error = terminal_text(one_line(result.error or ""))
        print(f"Research {result.status.value}: {error}".rstrip(": "), file=err)
        if session.store is not None and result.saved:
            print(f"Resume with: deepresearch resume {session.id}", file=err)
        return 130 if result.status == RunStatus.CANCELLED else 1
    if not result.saved:
        return EXIT_STORE_FAILED
    if session.store is not None and not quiet:
        print(f"Session {session.id} saved to {session.store.path}", file=err)
    return 0
