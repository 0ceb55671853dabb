"""`deepresearch batch questions.txt|.jsonl|.csv`: research every question in a file.

One JSON line per question (session id, status, sources cited, findings, gaps, tokens,
cost, time, error) goes to ``--out`` or stdout; progress and the totals go to stderr.
Running the same command again reuses completed sessions and resumes the others.
Exit code 0 when every question completed cleanly, 3 when every question has a report but
some completed with warnings, 1 otherwise, 130 on Ctrl-C (as for one question).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from deepresearch.batch import read_questions, research_many_sync
from deepresearch.batch.core import BACKENDS
from deepresearch.cli.research import add_search_options, check_out_path, path_arg
from deepresearch.cli.result import for_stream
from deepresearch.config import Config
from deepresearch.errors import InputError

EXIT_WARNINGS = 3  # the same code `deepresearch "question"` uses


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="deepresearch batch",
        description="Research every question of a file (.txt: one per line; .jsonl or .csv: "
        "a 'question' field). Re-running the same batch skips completed questions.",
    )
    p.add_argument("questions", type=path_arg, help="questions file: .txt, .jsonl or .csv")
    p.add_argument("--concurrency", type=int, default=8, help="sessions at once (default 8)")
    p.add_argument("--backend", choices=BACKENDS, default="asyncio", help="default: asyncio")
    p.add_argument("--out", type=path_arg, help="write the result rows (JSONL) here, not stdout")
    p.add_argument(
        "--llm", help="model spec: offline, openai:MODEL, anthropic:MODEL (default: auto)"
    )
    add_search_options(p)
    p.add_argument("--config", type=path_arg, help="a deepresearch.toml file")
    p.add_argument(
        "--store", type=path_arg, help="SQLite session store (default ~/.deepresearch/sessions.db)"
    )
    p.add_argument(
        "--no-persist", dest="no_persist", action="store_true",
        help="save nothing (a re-run then cannot skip completed questions)",
    )  # fmt: skip
    p.add_argument("--quiet", action="store_true", help="no progress on stderr")
    return p


def batch_main(argv: list[str], load_config: Callable[[argparse.Namespace], Config]) -> int:
    """``load_config`` is the CLI's own (deepresearch.cli.main), so the options mean the same."""
    args = _parser().parse_args(argv)
    if args.out is not None and args.out.is_dir():
        raise InputError(f"--out {args.out} is a folder; give a file name, e.g. results.jsonl.")
    questions = read_questions(args.questions)
    config = load_config(args)
    check_out_path(args.out, store=config.resolved_store_path())
    try:
        result = research_many_sync(
            questions,
            concurrency=args.concurrency,
            config=config,
            backend=args.backend,
            progress=not args.quiet,
        )
    except KeyboardInterrupt:
        print("Interrupted; run the same command again to resume.", file=sys.stderr)
        return 130
    if args.out:
        args.out.write_text(result.to_jsonl(), encoding="utf-8")
    else:
        sys.stdout.write(for_stream(result.to_jsonl(), sys.stdout, is_json=True))
    counts = ", ".join(f"{n} {s}" for s, n in sorted(result.counts.items()))
    print(f"{len(result)} questions: {counts}", file=sys.stderr)
    if result.store is not None and not args.quiet:
        print(f"Sessions saved to {result.store.path}", file=sys.stderr)
    if result.ok:
        return 0
    return EXIT_WARNINGS if result.finished else 1
