"""`deepresearch "question"`: run research from a terminal; plus subcommands.

The first argument picks the command: a known subcommand name, else it is the question.
To add a subcommand, list it in SUBCOMMANDS and give its module either a
``register(subparsers)`` that adds a parser with ``set_defaults(func=...)``
(``func(args) -> exit code``), or a ``NAME_main(argv, load_config) -> exit code`` that
parses its own arguments (``load_config`` is :func:`~deepresearch.cli.research.config_from`,
so shared options mean the same).

This module imports nothing heavy at its top: the commands' modules (and with them the
package's) load inside :func:`main`, so Ctrl-C while they load ends as "interrupted",
exit 130, not as a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import sys
import warnings
from collections.abc import Iterator
from typing import TextIO

from deepresearch.errors import DeepResearchError, StoreError

DISTRIBUTION = "deepresearch-sdk"
# name -> (one line for --help, the module whose register() adds it)
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "list": ("list saved research sessions", "deepresearch.cli.sessions"),
    "show": ("a session's summary and timeline", "deepresearch.cli.sessions"),
    "export": ("write a session: md, html, json, bibtex, csl, state", "deepresearch.cli.sessions"),
    "delete": ("delete a session with its events", "deepresearch.cli.sessions"),
    "resume": ("continue a saved session", "deepresearch.cli.research"),
    "batch": ("research every question of a file (.txt, .jsonl, .csv)", "deepresearch.cli.batch"),
    "mcp": ("serve research to MCP clients (stdio, or --http PORT)", "deepresearch.mcp.command"),
}
EXIT_ERROR = 2
# cli.research's codes, said again here: importing that module loads the whole package
EXIT_WARNINGS = 3
EXIT_STORE_FAILED = 4
STORE_FAILED = EXIT_STORE_FAILED
__all__ = ["EXIT_ERROR", "EXIT_WARNINGS", "STORE_FAILED", "SUBCOMMANDS", "main", "version"]
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as for a cancelled run
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE, as a shell reports a reader that stopped early


def version() -> str:
    """The installed package version."""
    from importlib import metadata

    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:
        from deepresearch import __version__

        return __version__


def _epilog() -> str:
    width = max(len(name) for name in SUBCOMMANDS)
    lines = [f"  {name.ljust(width)}  {text}" for name, (text, _) in SUBCOMMANDS.items()]
    return (
        "subcommands (deepresearch COMMAND --help for each):\n"
        + "\n".join(lines)
        + "\n\nexit codes: 0 done, 1 failed/stopped, 2 bad input, 3 done with warnings, "
        "4 session store failed, 130 cancelled"
    )


def _subcommand_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="deepresearch")
    subparsers = parser.add_subparsers(dest="command", required=True)
    for name in dict.fromkeys(module for _, module in SUBCOMMANDS.values()):
        module = importlib.import_module(name)
        if hasattr(module, "register"):
            module.register(subparsers)
    return parser


def _dispatch(argv: list[str]) -> int:
    if argv[:1] == ["--version"]:
        print(f"deepresearch {version()}")
        return 0
    from deepresearch.cli.research import config_from, research_command, research_parser

    if argv and argv[0] in SUBCOMMANDS:
        module = importlib.import_module(SUBCOMMANDS[argv[0]][1])
        own_main = getattr(module, f"{argv[0]}_main", None)
        if own_main is not None:
            return int(own_main(argv[1:], config_from))
        args = _subcommand_parser().parse_args(argv)
    else:
        args = research_parser("deepresearch", _epilog()).parse_args(argv)
        args.func = research_command
    return int(args.func(args))


def main(argv: list[str] | None = None) -> int:
    """The ``deepresearch`` command; returns the exit code.

    Args:
        argv: the arguments (default ``sys.argv[1:]``).
    """
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        with _warnings_as_lines():
            return _dispatch(argv)
    except StoreError as exc:
        print(f"deepresearch: store error: {_one_line(exc)}", file=sys.stderr)
        return EXIT_STORE_FAILED
    except DeepResearchError as exc:
        print(f"deepresearch: error: {_one_line(exc)}", file=sys.stderr)
        return EXIT_ERROR
    except KeyboardInterrupt:
        # Ctrl-C outside a run (setting up, writing the output, list/show/export): a run
        # itself turns Ctrl-C into a cancel that saves its state.
        print("deepresearch: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # The reader went away (`deepresearch list | head -1`): stop quietly. Point stdout
        # at /dev/null so the interpreter's final flush does not fail again.
        with open(os.devnull, "w") as devnull:
            os.dup2(devnull.fileno(), sys.stdout.fileno())
        return EXIT_BROKEN_PIPE


@contextlib.contextmanager
def _warnings_as_lines() -> Iterator[None]:
    """Warnings (a skipped corpus file, ...) as one line each on stderr, without Python's
    source file, line and code, which tell a terminal user nothing."""
    with warnings.catch_warnings():
        warnings.showwarning = _show_warning
        yield


def _show_warning(
    message: Warning | str,
    category: type[Warning],
    filename: str,
    lineno: int,
    file: TextIO | None = None,
    line: str | None = None,
) -> None:
    print(f"deepresearch: warning: {_one_line(message)}", file=file or sys.stderr)


def _one_line(message: object) -> str:
    """``message`` as one line, safe to print on a terminal."""
    from deepresearch.render import one_line, terminal_text

    return terminal_text(one_line(str(message)))


if __name__ == "__main__":
    raise SystemExit(main())
