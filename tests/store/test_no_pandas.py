"""The store and the package import no pandas: only DataFrame views (s.sources,
store.events_frame, deepresearch.notebook) load it, when first called."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = """
import sys
from pathlib import Path

import deepresearch as dr

loaded = {"import": "pandas" in sys.modules}
notes = Path(sys.argv[1]) / "notes"
notes.mkdir()
(notes / "press.md").write_text(
    "# Printing press\\n\\nThe printing press spread across Europe after 1450 "
    "and made books cheap enough for merchants to buy.\\n"
)
with dr.SessionStore(Path(sys.argv[1]) / "s.db") as store:
    s = dr.Session("How did the printing press change Europe?", search=notes, store=store,
                   enable_clarification=False)
    dr.run_sync(s.run())
    loaded["run and save"] = "pandas" in sys.modules
    again = dr.Session.load(s.id, store=store)
    again.save(Path(sys.argv[1]) / "report.md")
    store.list()
    loaded["load and export"] = "pandas" in sys.modules
    again.sources
    loaded["a DataFrame view"] = "pandas" in sys.modules
print(loaded)
"""


def test_pandas_is_imported_only_by_the_dataframe_views(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(tmp_path)],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).parents[2],
    )
    assert done.stdout.strip().splitlines()[-1] == str(
        {"import": False, "run and save": False, "load and export": False,
         "a DataFrame view": True}
    )  # fmt: skip
