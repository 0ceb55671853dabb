"""`deepresearch list | show ID | delete ID | export ID`: the saved sessions from a shell.

main.py calls :func:`register` and dispatches ``args.func(args) -> int``. Every failure
is one line on stderr and exit code 2 (4 when the store itself fails).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

from deepresearch.cli.research import check_out_path, path_arg
from deepresearch.cli.result import result_json
from deepresearch.config import Config
from deepresearch.errors import (
    DeepResearchError,
    SessionNotFoundError,
    StateVersionError,
    StoreError,
)
from deepresearch.render import one_line, terminal_text
from deepresearch.state import ResearchState
from deepresearch.store import (
    SessionStore,
    export_bibtex,
    export_csl_json,
    export_html,
    export_json,
    export_markdown,
    timeline,
)

EXIT_ERROR = 2
# The session store cannot be read or written (damaged, full disk, read-only, locked).
EXIT_STORE_FAILED = 4  # the same as cli.research's
EXPORTS: dict[str, Callable[[ResearchState], str]] = {
    "md": export_markdown,
    "html": export_html,
    "json": result_json,
    "bibtex": export_bibtex,
    "csl": export_csl_json,
    "state": export_json,
}
QUESTION_WIDTH = 60

Command = Callable[[argparse.Namespace], int]


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the session commands to the main parser."""
    p = subparsers.add_parser(
        "list",
        help="list saved research sessions",
        description="List saved research sessions, newest first.",
    )
    _add_store_option(p)
    p.set_defaults(func=_guarded(cmd_list))

    p = subparsers.add_parser("show", help="a session's summary and timeline")
    p.add_argument("id", help="session id (see `deepresearch list`)")
    _add_store_option(p)
    p.set_defaults(func=_guarded(cmd_show))

    p = subparsers.add_parser("delete", help="delete a session with its events")
    p.add_argument("id", help="session id")
    _add_store_option(p)
    p.set_defaults(func=_guarded(cmd_delete))

    p = subparsers.add_parser(
        "export", help="export a session", description="Write a saved session in one format."
    )
    p.add_argument("id", help="session id")
    p.add_argument(
        "--format", choices=tuple(EXPORTS), default="md",
        help="md: summary and report (default); html: a standalone, sanitized page; json: "
        "the compact result document (as `deepresearch --json`); bibtex / csl: the report's "
        "cited sources for reference managers; state: the full saved state",
    )  # fmt: skip
    p.add_argument("--out", type=path_arg, help="write to this file instead of stdout")
    _add_store_option(p)
    p.set_defaults(func=_guarded(cmd_export))


def _add_store_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--store",
        type=path_arg,
        default=None,
        help="session store file (default: the configured store_path, ~/.deepresearch/sessions.db)",
    )


def cmd_list(args: argparse.Namespace) -> int:
    """``deepresearch list``: one row per stored session; returns the exit code.

    Args:
        args: the parsed arguments.
    """
    path = _store_path(args)
    if not path.exists():
        _write(f"No sessions yet ({path} does not exist).")
        return 0
    with SessionStore(path) as store:
        sessions = store.list()
    if not sessions:
        _write(f"No sessions in {path}.")
        return 0
    rows = [("ID", "STATUS", "PHASE", "ITER", "SOURCES", "UPDATED", "QUESTION")]
    for s in sessions:
        question = " ".join(s.question.split())
        if len(question) > QUESTION_WIDTH:
            question = question[: QUESTION_WIDTH - 1] + "…"
        rows.append(
            (
                s.id,
                s.status.value,
                s.phase.value,
                str(s.iteration),
                str(s.sources),
                s.updated_at.strftime("%Y-%m-%d %H:%M"),
                question,
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    for row in rows:
        cells = [cell.ljust(width) for cell, width in zip(row, widths, strict=False)]
        _write("  ".join([*cells, row[-1]]))
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    """``deepresearch show ID``: the session's timeline; returns the exit code.

    Args:
        args: the parsed arguments.
    """
    with _open_existing(args) as store:
        events = store.events(args.id)
        try:
            state = store.load(args.id)
        except StateVersionError as exc:
            # The audit trail is still worth seeing when the state cannot be read.
            if events:
                _write(timeline(events))
            return _fail(str(exc))
    _write(timeline(events, state))
    return 0


def cmd_delete(args: argparse.Namespace) -> int:
    """``deepresearch delete ID``; returns the exit code.

    Args:
        args: the parsed arguments.
    """
    with _open_existing(args) as store:
        store.delete(args.id)
    _write(f"Deleted session {args.id}.")
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    """``deepresearch export ID``: the session in a format, to stdout or ``--out``;
    returns the exit code.

    Args:
        args: the parsed arguments.
    """
    check_out_path(args.out, store=_store_path(args))
    with _open_existing(args) as store:
        state = store.load(args.id)
    text = EXPORTS[args.format](state)
    if args.out is None:
        _write(text)
        return 0
    try:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text + "\n", encoding="utf-8")
    except OSError as exc:
        return _fail(f"Cannot write {args.out}: {exc}")
    print(f"Wrote {args.out}", file=sys.stderr)
    return 0


# -- helpers ----------------------------------------------------------------------------
def _store_path(args: argparse.Namespace) -> Path:
    if args.store is not None:
        return Path(args.store).expanduser()
    return Config.load().resolved_store_path()


def _open_existing(args: argparse.Namespace) -> SessionStore:
    path = _store_path(args)
    if not path.exists():
        # Opening would create an empty store; the id cannot be in it anyway.
        raise SessionNotFoundError(f"No session {args.id!r}: there is no store at {path}.")
    return SessionStore(path)


def _guarded(command: Command) -> Command:
    """Turn the errors a user can cause into one clear line and exit code 2."""

    def run(args: argparse.Namespace) -> int:
        try:
            return command(args)
        except BrokenPipeError:
            raise  # the reader went away: main() ends quietly
        except StoreError as exc:
            return _fail(str(exc), code=EXIT_STORE_FAILED)
        except (DeepResearchError, OSError) as exc:
            return _fail(str(exc))

    run.__name__ = command.__name__
    run.__doc__ = command.__doc__
    return run


def _fail(message: str, *, code: int = EXIT_ERROR) -> int:
    print(f"deepresearch: error: {terminal_text(one_line(message))}", file=sys.stderr)
    return code


def _write(text: str) -> None:
    """Print without terminal control characters from sources or questions, degrading
    symbols instead of crashing on a terminal that cannot show them."""
    text = terminal_text(text)
    encoding = sys.stdout.encoding or "utf-8"
    print(text.encode(encoding, errors="replace").decode(encoding, errors="replace"))
