"""docs/configuration.md documents every Config field with its real default."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from deepresearch.config import Config

PAGE = Path(__file__).resolve().parents[2] / "docs" / "configuration.md"
ROW = re.compile(r"^\| `(?P<name>\w+)` \| `(?P<default>.*)` \| (?P<what>.+) \|$")


def toml_like(value: Any) -> str:
    """How the page writes a default: TOML-ish scalars, JSON for lists and tables."""
    if value is None:
        return "unset"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    return json.dumps(value)


def documented_rows() -> dict[str, tuple[str, str]]:
    rows: dict[str, tuple[str, str]] = {}
    for line in PAGE.read_text(encoding="utf-8").splitlines():
        match = ROW.match(line)
        if match:
            assert match["name"] not in rows, f"{match['name']} is documented twice"
            rows[match["name"]] = (match["default"].replace("\\|", "|"), match["what"])
    return rows


def test_every_config_field_is_documented_and_nothing_else() -> None:
    rows = documented_rows()
    fields = set(Config.model_fields)
    assert not fields - set(rows), f"undocumented Config fields: {sorted(fields - set(rows))}"
    assert not set(rows) - fields, f"documented but not in Config: {sorted(set(rows) - fields)}"


def test_documented_defaults_match_the_model() -> None:
    defaults = Config()
    for name, (default, what) in documented_rows().items():
        assert default == toml_like(getattr(defaults, name)), name
        assert len(what) > 20, f"{name} needs a real description"
