"""docs/configuration.md documents every Config key with its real default, in the table of
its section."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from deepresearch.config import Config, flat_fields

PAGE = Path(__file__).resolve().parents[2] / "docs" / "configuration.md"
ROW = re.compile(r"^\| `(?P<name>\w+)` \| `(?P<default>.*)` \| (?P<what>.+) \|$")
HEADING = re.compile(r"^## .*: `(?P<section>\w+)`$")


def toml_like(value: Any) -> str:
    """How the page writes a default: TOML-ish scalars, JSON for lists and tables."""
    if value is None:
        return "unset"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    return json.dumps(value)


def documented_rows() -> dict[str, tuple[str, str, str | None]]:
    """Each documented key: its default, its description and the section heading it is under."""
    rows: dict[str, tuple[str, str, str | None]] = {}
    section = None
    for line in PAGE.read_text(encoding="utf-8").splitlines():
        if heading := HEADING.match(line):
            section = heading["section"]
        match = ROW.match(line)
        if match:
            assert match["name"] not in rows, f"{match['name']} is documented twice"
            default = match["default"].replace("\\|", "|")
            rows[match["name"]] = (default, match["what"], section)
    return rows


def test_every_config_field_is_documented_and_nothing_else() -> None:
    rows = documented_rows()
    fields = set(flat_fields())
    assert not fields - set(rows), f"undocumented Config fields: {sorted(fields - set(rows))}"
    assert not set(rows) - fields, f"documented but not in Config: {sorted(set(rows) - fields)}"


def test_documented_defaults_match_the_model() -> None:
    defaults = Config()
    for name, (default, what, _) in documented_rows().items():
        assert default == toml_like(getattr(defaults, name)), name
        assert len(what) > 20, f"{name} needs a real description"


def test_every_key_is_documented_under_its_section() -> None:
    sections = {name: section for section in Config.model_fields for name in
                type(getattr(Config(), section)).model_fields}  # fmt: skip
    for name, (_, _, heading) in documented_rows().items():
        assert heading == sections[name], f"{name} belongs under `{sections[name]}`"
