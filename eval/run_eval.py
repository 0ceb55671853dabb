"""Evaluate the offline defaults on an eval set (JSONL): gold-source recall in the report's
Sources list, fact recall, cited-source count and dangling citations, per question type,
beside plain BM25 baselines (R@5/10/20) on the question alone.

    python eval/run_eval.py                          # ../shared/eval/dev.jsonl, demo corpus
    python eval/run_eval.py --set dev2               # any set in ../shared/eval by name
    python eval/run_eval.py --set seeds_dev --corpus ../shared/seeds
    python eval/run_eval.py --set path/to/my.jsonl --only odd     # ids ending odd/even
    python eval/run_eval.py --no-summarization --no-compression   # issue 6 comparison
    python eval/run_eval.py --set dev2 --citations   # + claim-level citation precision/recall
    python eval/run_eval.py --set eval/probes_dev.jsonl   # honest outcomes, see below

Scoring follows ../shared/eval/README.md: both sides NFKC-normalised and case-folded; a gold
title counts when an entry of the report's last Sources section has that title (for a local
corpus: when the entry's path ends with the gold file name); a fact counts when it appears
anywhere in the report ("summary facts": in the executive summary alone, up to the next
heading); a dangling citation is an [n] in the body with no entry n.

``eval/probes_dev.jsonl`` measures honest outcomes rather than recall: its questions of
type ``unanswerable`` ask something the demo corpus does not say (a capital it never
names, a false premise, a thing that does not exist), and the ``unanswered`` column
counts the reports that name a part as not answered — for that type, the higher the
better; its ``answerable`` questions are shaped alike and should stay answered (0).

The pieces (``score_report``, ``bm25_baseline``, ``summarize``) are plain functions so other
measures can be added beside them.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sqlite3
import statistics
import sys
import time
import unicodedata
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # this checkout's package, not an installed one

import deepresearch as dr  # noqa: E402
from deepresearch.errors import UnreadableDocument  # noqa: E402
from deepresearch.providers import match_query, readers  # noqa: E402
from deepresearch.providers.corpus import CorpusSearch  # noqa: E402
from deepresearch.providers.demo import DemoRecords, demo_corpus, demo_data_file  # noqa: E402
from deepresearch.state import ClaimStatus, ResearchState  # noqa: E402
from deepresearch.text import glued_to_word, sub_citations  # noqa: E402

SHARED_EVAL = HERE.parent.parent / "shared" / "eval"
BASELINE_KS = (5, 10, 20)
MAX_CITED = 12

_SOURCES = re.compile(r"^#{1,3}\s*(?:sources|references)\b.*$", re.I | re.M)
_ENTRY = re.compile(r"^\s*(\d+)\.\s+(.*)$")
_SUMMARY_FLAGS = re.I | re.M | re.S
_SUMMARY = re.compile(r"^#{1,3}\s*executive summary\b.*?$(.*?)(?=^#{1,3}\s|\Z)", _SUMMARY_FLAGS)
_STOP = match_query.STOPWORDS


def norm(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


# -- questions ----------------------------------------------------------------------------
def resolve_set(name: str | None) -> Path:
    """A path, or a set name looked up in eval/ and ../shared/eval/ (default: dev)."""
    name = name or "dev"
    for candidate in (Path(name), HERE / f"{name}.jsonl", SHARED_EVAL / f"{name}.jsonl"):
        if candidate.is_file():
            return candidate
    raise SystemExit(f"eval set {name!r} not found; pass --set PATH or a name in {SHARED_EVAL}")


def load_questions(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def select(questions: list[dict[str, Any]], only: str | None) -> list[dict[str, Any]]:
    """``odd``/``even``: questions whose id ends in an odd/even number (a held-out half)."""
    if only is None:
        return questions
    want = 1 if only == "odd" else 0
    return [q for q in questions if int(re.findall(r"\d+", str(q["id"]))[-1]) % 2 == want]


# -- scoring one report -------------------------------------------------------------------
def source_entries(markdown: str) -> dict[int, str]:
    """Entries of the report's last Sources section: number → 'title — url' (normalised)."""
    parts = _SOURCES.split(markdown)
    if len(parts) < 2:
        return {}
    entries: dict[int, str] = {}
    for line in parts[-1].splitlines():
        if m := _ENTRY.match(line):
            entries[int(m[1])] = norm(m[2])
    return entries


def gold_found(gold: str, entries: Iterable[str], local: bool) -> bool:
    g = norm(gold)
    for entry in entries:
        title, _, url = entry.rpartition(" — ")
        if local:
            path = url.split("#", 1)[0]  # a passage adds #L…
            if "/" in g and path.endswith("/" + g):
                return True  # a gold path relative to the folder ("usage/scripts.md")
            if g in path.rsplit("/", 1)[-1]:
                return True  # the file name is in the listed path
        elif title.strip() == g:
            return True
    return False


def summary_section(markdown: str) -> str:
    """The report's executive summary: the text under its heading up to the next heading
    (empty when the report has none)."""
    m = _SUMMARY.search(markdown)
    return m[1] if m else ""


def citation_numbers(body: str) -> set[int]:
    """The numbers the body cites, read as the report's own citations are (text.
    sub_citations): outside code and headings; a marker glued to a word ("s[0]") is
    indexing in a quote or the question, not a citation."""
    numbers: set[int] = set()

    def read(m: re.Match[str]) -> str:
        if not glued_to_word(m):
            numbers.update(int(n) for n in m[1].split(","))
        return m[0]

    sub_citations(body, read)
    return numbers


def _share(hits: list[bool]) -> float:
    """The share of ``hits`` that are true; 1.0 for none (a question that is not meant to
    be answered, as the probes' unanswerable ones, has no gold source to find)."""
    return sum(hits) / len(hits) if hits else 1.0


def score_report(markdown: str, q: dict[str, Any], *, local: bool) -> dict[str, Any]:
    entries = source_entries(markdown)
    body = _SOURCES.split(markdown)[0] if entries else markdown
    text = norm(markdown)
    summary = norm(summary_section(markdown))
    gold = list(q["gold_titles"])
    facts = list(q["facts"])
    cited = citation_numbers(body)
    return {
        "gold_recall": _share([gold_found(g, entries.values(), local) for g in gold]),
        "fact_recall": sum(norm(f) in text for f in facts) / len(facts) if facts else 1.0,
        "missing_gold": [g for g in gold if not gold_found(g, entries.values(), local)],
        "missing_facts": [f for f in facts if norm(f) not in text],
        # the same facts in the executive summary alone: does the summary answer?
        "summary_fact_recall": sum(norm(f) in summary for f in facts) / len(facts)
        if facts
        else 1.0,
        "cited": len(entries),
        "dangling": sorted(cited - set(entries)),
    }


# -- citation verification (ALCE-style, from the verification phase's claims) ---------------
CITATION_MEANS = ("citation_precision", "citation_recall", "per_citation_precision")


def citation_scores(state: ResearchState) -> dict[str, Any]:
    """Scores from ``state.claims`` (what the verification phase checked):
    citation precision = cited claims a cited source supports / cited claims;
    citation recall = claims with a supporting citation / all claims;
    per-citation precision = [n] markers that support their claim / all [n] markers;
    planted detection = supported claims re-pointed at another cited source of the same
    report that the offline check then finds unsupported / claims so planted (this checks
    the checker); planted_not_supported also counts those it finds only partly supported."""
    from deepresearch.offline.verify import verify as offline_check
    from deepresearch.phases.verify import verify_inputs

    claims = [c for c in state.claims if not c.removed]
    cited = [c for c in claims if c.source_ids]
    supported = [c for c in cited if c.status == ClaimStatus.SUPPORTED]
    markers = sum(len(c.source_ids) for c in cited)
    backing = sum(len(set(c.supporting_source_ids) & set(c.source_ids)) for c in cited)
    report_sources = state.report.cited_source_ids if state.report else []
    planted = []
    for claim in supported:
        others = [n for n in range(1, len(report_sources) + 1) if n not in claim.citations]
        if others:
            wrong = others[int(claim.id.split("-")[1]) % len(others)]
            planted.append(claim.model_copy(update={"citations": [wrong]}))
    caught = doubted = 0
    if planted:
        verdicts = offline_check(verify_inputs(state, planted, [])).verdicts
        caught = sum(v.status == "unsupported" for v in verdicts)
        doubted = sum(v.status != "supported" for v in verdicts)
    return {
        "claims": len(claims),
        "cited_claims": len(cited),
        "citation_precision": len(supported) / len(cited) if cited else 0.0,
        "citation_recall": len(supported) / len(claims) if claims else 0.0,
        "per_citation_precision": backing / markers if markers else 0.0,
        "planted": len(planted),
        "planted_caught": caught,
        "planted_doubted": doubted,
    }


def summarize_citations(rows: list[dict[str, Any]]) -> dict[str, Any]:
    scores = [r["claim_citations"] for r in rows]
    out: dict[str, Any] = {
        k: round(statistics.mean(float(s[k]) for s in scores), 3) for k in CITATION_MEANS
    }
    planted = sum(int(s["planted"]) for s in scores)
    out["planted"] = planted
    for key, name in (("planted_caught", "planted_detection"),
                      ("planted_doubted", "planted_not_supported")):  # fmt: skip
        out[name] = round(sum(int(s[key]) for s in scores) / planted, 3) if planted else 0.0
    return out


# -- BM25 baseline (the README's: whole documents, title weight 5) --------------------------
class Bm25Baseline:
    """FTS5 over whole documents, query = the question's non-stopword terms OR-ed."""

    def __init__(self, docs: Iterable[tuple[str, str, str]]) -> None:
        self.conn = sqlite3.connect(":memory:")
        self.conn.execute("CREATE VIRTUAL TABLE d USING fts5(key UNINDEXED, title, body, "
                          "tokenize='porter unicode61')")  # fmt: skip
        self.conn.executemany("INSERT INTO d VALUES (?, ?, ?)", docs)

    def top(self, question: str, k: int) -> list[str]:
        terms = [w for w in re.findall(r"\w+", question.lower()) if w not in _STOP]
        if not terms:
            return []
        match = " OR ".join(f'"{t}"' for t in dict.fromkeys(terms))
        rows = self.conn.execute(
            "SELECT key FROM d WHERE d MATCH ? ORDER BY bm25(d, 0, 5.0, 1.0) LIMIT ?",
            (match, k),
        ).fetchall()
        return [norm(r[0]) for r in rows]

    def recalls(self, q: dict[str, Any]) -> dict[str, float]:
        top = self.top(str(q["question"]), max(BASELINE_KS))
        gold = [norm(g) for g in q["gold_titles"]]
        return {
            f"bm25_r@{k}": _share([any(_same_file(g, key) for key in top[:k]) for g in gold])
            for k in BASELINE_KS
        }


def _same_file(gold: str, key: str) -> bool:
    """A baseline hit's key (a folder's relative path, or a demo title) is the gold: the
    whole key, or its file name, or the path a gold with a folder gives."""
    return key == gold or key.endswith("/" + gold)


def demo_docs() -> Iterator[tuple[str, str, str]]:
    for r in DemoRecords(demo_data_file()):
        yield r["title"], r["title"], r["text"]


def folder_docs(folder: Path) -> Iterator[tuple[str, str, str]]:
    for path in readers.iter_supported_files(folder):
        try:
            doc = readers.read_document(path)
        except UnreadableDocument:
            continue
        yield path.relative_to(folder).as_posix(), doc.title, doc.text


# -- running ------------------------------------------------------------------------------
async def evaluate(args: argparse.Namespace) -> dict[str, Any]:
    questions = select(load_questions(resolve_set(args.set)), args.only)
    local = args.corpus is not None
    search = CorpusSearch(args.corpus) if local else demo_corpus()
    baseline = Bm25Baseline(folder_docs(args.corpus) if local else demo_docs())
    config = dr.Config(
        llm="offline",
        search=["corpus" if local else "demo"],
        corpus=args.corpus,
        persist=False,
        max_iterations=args.max_iterations,
        fetch_time_summarization=not args.no_summarization,
        enable_compression=not args.no_compression,
        inline_compression=not args.no_compression,
    )
    rows = []
    for q in questions:
        started = time.perf_counter()
        session = dr.Session(str(q["question"]), config=config, search=search)
        await session.run()
        seconds = time.perf_counter() - started
        state = session.state
        report = state.report.markdown if state.report else ""
        gathered = [f"{norm(s.title)} — {norm(s.url)}" for s in state.sources]
        gold = list(q["gold_titles"])
        rows.append(
            {
                "id": q["id"],
                "type": q.get("type", "all"),
                **score_report(report, q, local=local),
                **baseline.recalls(q),
                "gathered_recall": _share([gold_found(g, gathered, local) for g in gold]),
                # where each missing gold source was lost: never gathered, or gathered
                # but not cited in the report
                "not_gathered": [g for g in gold if not gold_found(g, gathered, local)],
                "seconds": round(seconds, 3),
                "input_tokens": sum(u.input_tokens for u in state.usage),
                "output_tokens": sum(u.output_tokens for u in state.usage),
                "searches": sum(m.search_calls for m in state.metrics),
                "sources": len(state.sources),
                "open_gaps": len(state.unresolved_gaps()),
                # parts of the question the report names as not answered (a gap closed
                # because its follow-ups found nothing is no longer open, but is this)
                "unanswered": len(state.unanswered_gaps()),
                "iterations": state.iteration,
                "status": str(getattr(state.status, "value", state.status)),
            }
        )
        if args.citations:
            rows[-1]["claim_citations"] = citation_scores(state)
        if args.reports:
            args.reports.mkdir(parents=True, exist_ok=True)
            (args.reports / f"{q['id']}.md").write_text(report)
    extra = {"citations": summarize_citations(rows)} if args.citations else {}
    return {"set": str(resolve_set(args.set)), **summarize(rows), **extra, "rows": rows}


_MEANS = (
    "gold_recall",
    "gathered_recall",
    "fact_recall",
    "summary_fact_recall",
    *(f"bm25_r@{k}" for k in BASELINE_KS),
)


def summarize(rows: list[dict[str, Any]]) -> dict[str, Any]:
    def figures(group: list[dict[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {"questions": len(group)}
        for key in _MEANS:
            out[key] = round(statistics.mean(float(r[key]) for r in group), 3)
        out["max_cited"] = max(int(r["cited"]) for r in group)
        out["over_cited"] = sum(int(r["cited"]) > MAX_CITED for r in group)
        out["dangling"] = sum(len(r["dangling"]) for r in group)
        # questions whose report names a part (or note) as not answered
        out["with_unanswered"] = sum(int(r.get("unanswered", 0)) > 0 for r in group)
        out["median_seconds"] = round(statistics.median(float(r["seconds"]) for r in group), 3)
        return out

    types = sorted({str(r["type"]) for r in rows})
    by_type = {t: figures([r for r in rows if r["type"] == t]) for t in types}
    total = {
        "total_input_tokens": sum(int(r["input_tokens"]) for r in rows),
        "total_output_tokens": sum(int(r["output_tokens"]) for r in rows),
        "total_searches": sum(int(r["searches"]) for r in rows),
    }
    return {"all": figures(rows), "by_type": by_type if len(types) > 1 else {}, **total}


def print_table(result: dict[str, Any]) -> None:
    head = "group      n   gold gathrd facts summry | bm25 R@5  R@10  R@20 | cited≤12 dangling"
    head += "  med s  unanswered"
    print(head)
    groups = {"all": result["all"], **result["by_type"]}
    for name, f in groups.items():
        print(
            f"{name:<8} {f['questions']:>3}  {f['gold_recall']:.3f} {f['gathered_recall']:.3f}"
            f" {f['fact_recall']:.3f} {f['summary_fact_recall']:.3f} |"
            f"   {f['bm25_r@5']:.3f} {f['bm25_r@10']:.3f} {f['bm25_r@20']:.3f} |"
            f"   max {f['max_cited']:>2} ({f['over_cited']} over) {f['dangling']:>3}"
            f"  {f['median_seconds']:.2f}  {f['with_unanswered']:>3}"
        )


def main() -> int:
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--set", "--questions", dest="set", help="set name (dev, dev2, ...) or path")
    p.add_argument("--corpus", type=Path, help="a folder to search instead of the demo corpus")
    p.add_argument("--only", choices=["odd", "even"], help="half of the set, by id parity")
    p.add_argument("--max-iterations", type=int, default=3)
    p.add_argument("--no-summarization", action="store_true")
    p.add_argument("--no-compression", action="store_true")
    p.add_argument("--quiet", action="store_true", help="no per-question lines")
    p.add_argument(
        "--citations",
        action="store_true",
        help="also score the report's claims: citation precision/recall (see citation_scores)",
    )
    p.add_argument("--json", type=Path, help="also write the full results here")
    p.add_argument("--reports", type=Path, help="write each report here as <id>.md")
    args = p.parse_args()
    result = asyncio.run(evaluate(args))
    if not args.quiet:
        for r in result["rows"]:
            print(
                f"{r['id']} [{r['type']}]: gold {r['gold_recall']:.2f} facts "
                f"{r['fact_recall']:.2f} summary {r['summary_fact_recall']:.2f} "
                f"bm25@10 {r['bm25_r@10']:.2f} cited {r['cited']} "
                f"{r['seconds']:.2f}s missing {r['missing_gold'] + r['missing_facts']}"
                + (f" not gathered {r['not_gathered']}" if r["not_gathered"] else "")
                + (f" dangling {r['dangling']}" if r["dangling"] else "")
            )
    print_table(result)
    print(json.dumps({k: v for k, v in result.items() if k not in ("rows", "all", "by_type")}))
    if args.json:
        args.json.write_text(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
