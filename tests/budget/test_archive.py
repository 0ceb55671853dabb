"""Content archive: round-trip, record structure, TTL expiry, and the budget's use of it."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path

from deepresearch.budget import BudgetItem, ContentArchive, TokenBudget
from deepresearch.budget.archive import content_hash
from deepresearch.config import Config
from deepresearch.state import ResearchState
from deepresearch.state.models import utcnow

from .doubles import ExtractiveLLM, make_context, sentences


def test_round_trip_with_the_seeds_record_structure(tmp_path: Path) -> None:
    archive = ContentArchive(tmp_path, ttl_hours=168)
    text = "The original full text. It is long."
    hash_ = archive.store(
        text,
        item_id="src-001",
        item_type="source",
        reason="dropped",
        original_tokens=5000,
        metadata={"url": "https://example.com/article", "title": "Article Title"},
    )
    assert hash_ == content_hash(text) and hash_.startswith("sha256:")
    path = tmp_path / f"{hash_.removeprefix('sha256:')}.json"
    data = json.loads(path.read_text())
    assert set(data) == {
        "content_hash",
        "content",
        "item_id",
        "item_type",
        "archived_at",
        "archive_reason",
        "original_tokens",
        "metadata",
    }
    assert data["content"] == text and data["archive_reason"] == "dropped"
    record = archive.load(hash_)
    assert record is not None and record.content == text and record.metadata["title"]
    assert archive.load("sha256:" + "0" * 64) is None


def test_expired_records_are_not_restored_and_are_cleaned(tmp_path: Path) -> None:
    archive = ContentArchive(tmp_path, ttl_hours=1)
    old = archive.store(
        "old text",
        item_id="a",
        item_type="source",
        reason="dropped",
        original_tokens=2,
        now=utcnow() - timedelta(hours=2),
    )
    fresh = archive.store(
        "fresh text", item_id="b", item_type="finding", reason="compressed", original_tokens=2
    )
    (tmp_path / "garbage.json").write_text("{not json")
    assert archive.load(old) is None
    assert archive.load(fresh) is not None
    assert archive.load(fresh, now=utcnow() + timedelta(hours=2)) is None
    assert archive.cleanup() == 2  # the expired record and the unreadable file
    assert sorted(p.name for p in tmp_path.iterdir()) == [f"{fresh.removeprefix('sha256:')}.json"]


async def fit_with(config: Config, state: ResearchState, n: int = 12) -> None:
    items = [
        BudgetItem(
            id=f"src-{i}",
            item_type="source",
            text=sentences(30, f"t{i}"),
            relevance=1 - i / n,
            metadata={"url": f"https://example.org/{i}"},
        )
        for i in range(n)
    ]
    ctx, _ = make_context(config, ExtractiveLLM())
    await TokenBudget(config).fit(
        state, ctx, phase="analysis", model_spec="offline", items=items, reserved_tokens=0
    )


async def test_budget_archives_dropped_and_compressed_content(tmp_path: Path) -> None:
    config = Config(
        model_context_overrides={"offline": 2500},
        runtime_overhead=0,
        allow_content_dropping=True,
        content_archive_enabled=True,
        research_archive_dir=tmp_path,
    )
    state = ResearchState(question="q")
    await fit_with(config, state)
    archived = {k: v for k, v in state.content_fidelity.items() if v.archived_hash}
    assert archived
    assert all(
        v.level in {"compressed", "key_points", "headline", "dropped"} for v in archived.values()
    )
    assert not any(
        v.archived_hash for v in state.content_fidelity.values() if v.level in {"full", "condensed"}
    )
    archive = ContentArchive(tmp_path, ttl_hours=168)
    item_id = next(iter(archived))
    restored = archive.restore(state, item_id)
    assert restored is not None and restored.startswith("Sentence 0 about t")
    record = archive.load(archived[item_id].archived_hash or "")
    assert record is not None and record.item_id == item_id
    assert record.metadata["url"].startswith("https://example.org/")


async def test_no_archive_when_disabled(tmp_path: Path) -> None:
    config = Config(
        model_context_overrides={"offline": 2500},
        runtime_overhead=0,
        allow_content_dropping=True,
        research_archive_dir=tmp_path / "archive",
    )
    state = ResearchState(question="q")
    await fit_with(config, state)
    assert not any(v.archived_hash for v in state.content_fidelity.values())
    assert not (tmp_path / "archive").exists()
