"""Questions from a file: one per line (.txt), a JSON object per line (.jsonl) or a CSV.

In .jsonl and .csv files the question is the ``question`` field (a CSV without that
header uses its first column). Blank lines and lines starting with ``#`` in .txt are skipped.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from deepresearch.errors import InputError, UnreadableDocument
from deepresearch.providers import encodings
from deepresearch.text_files import decode_unicode, not_unicode


def read_questions(path: str | Path) -> list[str]:
    """The questions in a file: one a line (``.txt``), the ``question`` column, else the
    first (``.csv``), or a ``question`` field or bare string per line (``.jsonl``); blank
    lines are skipped.

    Args:
        path: the questions file.
    """
    file = Path(path).expanduser()
    try:
        data = file.read_bytes()
        text = decode_unicode(data)
    except OSError as exc:
        raise InputError(f"Cannot read the questions file {file}: {exc}") from exc
    except UnicodeDecodeError as exc:
        excel = " (in Excel: Save As 'CSV UTF-8')" if file.suffix.lower() == ".csv" else ""
        raise InputError(
            f"The questions file {file} cannot be read: {not_unicode(data, exc)}"
            f"{_looks_like(data)}; re-save it as UTF-8{excel}."
        ) from None
    suffix = file.suffix.lower()
    if suffix == ".jsonl":
        questions = _from_jsonl(text, file)
    elif suffix == ".csv":
        questions = _from_csv(text, file)
    else:
        questions = [
            line.strip()
            for line in text.splitlines()
            if line.strip() and not line.lstrip().startswith("#")
        ]
    if not questions:
        raise InputError(f"{file} holds no questions.")
    return questions


def _looks_like(data: bytes) -> str:
    """The encoding the bytes look saved in, when detection is sure ("; it looks like
    cp1252 text"), to say what happened; questions are not read in it, as a guess could
    garble them unseen."""
    try:
        decoded = encodings.decode_legacy(data)
    except UnreadableDocument:
        return ""
    return f"; it looks like {decoded.encoding} text" if decoded is not None else ""


def _from_jsonl(text: str, file: Path) -> list[str]:
    questions = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"{file}:{number} is not JSON: {exc.msg}") from exc
        question = record.get("question") if isinstance(record, dict) else record
        if not isinstance(question, str):
            raise InputError(f'{file}:{number} needs a "question" string field.')
        questions.append(question)
    return questions


def _from_csv(text: str, file: Path) -> list[str]:
    rows = [r for r in csv.reader(io.StringIO(text)) if any(c.strip() for c in r)]
    if not rows:
        return []
    header = [c.strip().lower() for c in rows[0]]
    if "question" in header:
        column = header.index("question")
        body = rows[1:]
    else:
        column, body = 0, rows
    missing = [i for i, r in enumerate(body, 2) if len(r) <= column]
    if missing:
        raise InputError(f"{file}: row {missing[0]} has no question column.")
    return [r[column] for r in body]
