"""Content archive: originals of dropped or heavily compressed items, kept on disk by
SHA-256 so they can be restored, and removed after a TTL.

One JSON file per content hash, ``{hex}.json`` in ``Config.resolved_archive_dir()``,
holding :class:`ArchiveRecord`'s fields (content_hash is ``sha256:{hex}``;
docs/budgeting.md, section 7).
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, Field

from deepresearch.state import ResearchState
from deepresearch.state.models import utcnow

HASH_PREFIX = "sha256:"
ArchiveReason = Literal["dropped", "compressed"]


class ArchiveRecord(BaseModel):
    """The full text of an item that was summarised or dropped, with why and when."""

    content_hash: str
    content: str
    item_id: str
    item_type: str = "source"
    archived_at: datetime = Field(default_factory=utcnow)
    archive_reason: ArchiveReason = "dropped"
    original_tokens: int = 0
    metadata: dict[str, Any] = Field(default_factory=dict)


def content_hash(text: str) -> str:
    """The archive key of ``text`` (``sha256:`` + hex digest).

    Args:
        text: the content.
    """
    return HASH_PREFIX + hashlib.sha256(text.encode("utf-8")).hexdigest()


class ContentArchive:
    """Archived full texts as JSON files in a folder, kept for ``ttl_hours``.

    Args:
        directory: the archive folder.
        ttl_hours: how long a record is kept before cleanup may remove it.
    """

    def __init__(self, directory: Path, ttl_hours: float) -> None:
        self.directory = Path(directory).expanduser()
        self.ttl = timedelta(hours=ttl_hours)

    def path_for(self, hash_: str) -> Path:
        """The file that holds the record of ``hash_``.

        Args:
            hash_: a :func:`content_hash`.
        """
        return self.directory / f"{hash_.removeprefix(HASH_PREFIX)}.json"

    def store(
        self,
        text: str,
        *,
        item_id: str,
        item_type: str,
        reason: ArchiveReason,
        original_tokens: int,
        metadata: dict[str, Any] | None = None,
        now: datetime | None = None,
    ) -> str:
        """Archive a text (rewriting refreshes its timestamp); returns its content hash."""
        record = ArchiveRecord(
            content_hash=content_hash(text),
            content=text,
            item_id=item_id,
            item_type=item_type,
            archived_at=now or utcnow(),
            archive_reason=reason,
            original_tokens=original_tokens,
            metadata=metadata or {},
        )
        self.directory.mkdir(parents=True, exist_ok=True)
        target = self.path_for(record.content_hash)
        # Write then rename, so a reader never sees half a record.
        fd, tmp = tempfile.mkstemp(dir=self.directory, suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(record.model_dump_json(indent=2))
        os.replace(tmp, target)
        return record.content_hash

    def load(self, hash_: str, *, now: datetime | None = None) -> ArchiveRecord | None:
        """The record for a hash, or None when missing, unreadable or expired."""
        path = self.path_for(hash_)
        try:
            record = ArchiveRecord.model_validate_json(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if self._expired(record, now or utcnow()):
            return None
        return record

    def restore(self, state: ResearchState, item_id: str) -> str | None:
        """The original text of an item the budget archived in this state, if still kept."""
        fidelity = state.content_fidelity.get(item_id)
        if fidelity is None or fidelity.archived_hash is None:
            return None
        record = self.load(fidelity.archived_hash)
        return record.content if record is not None else None

    def cleanup(self, *, now: datetime | None = None) -> int:
        """Delete expired and unreadable records; returns how many files were removed."""
        if not self.directory.is_dir():
            return 0
        moment = now or utcnow()
        removed = 0
        for path in self.directory.glob("*.json"):
            try:
                record = ArchiveRecord.model_validate_json(path.read_text(encoding="utf-8"))
                expired = self._expired(record, moment)
            except (OSError, ValueError):
                expired = True
            if expired:
                path.unlink(missing_ok=True)
                removed += 1
        return removed

    def _expired(self, record: ArchiveRecord, now: datetime) -> bool:
        return now - record.archived_at > self.ttl
