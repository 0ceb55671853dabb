"""One citation numbering everywhere, and cited local files that open in JupyterLab.

The sources frame's ``citation``, the session card, the findings' ``citations``, the claims
and the report's ``[n]`` all come from the report's typed citations. A cited file of your
own links through the Jupyter server's files route when it lies under the server root;
otherwise the cited passage is quoted instead of a dead ``file://`` link.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import deepresearch as dr
from deepresearch.render import (
    FilesRoute,
    jupyter_files_route,
    markdown_html,
    session_html,
    state_markdown,
)
from deepresearch.state import Citation, Report, ResearchState
from deepresearch.testing import FunctionLLM, StaticSearch

DOCS = [
    {"url": "https://ex.org/press", "title": "Printing press",
     "content": "The printing press spread literacy and books across Europe after 1450."},
    {"url": "https://ex.org/gutenberg", "title": "Johannes Gutenberg",
     "content": "Johannes Gutenberg built the printing press with movable type in Mainz."},
    {"url": "https://ex.org/reformation", "title": "Reformation pamphlets",
     "content": "Printed pamphlets carried Luther's ideas across Europe quickly."},
    {"url": "https://ex.org/venice", "title": "Venice printing",
     "content": "Venice became a centre of printing with Aldus Manutius and italic type."},
]  # fmt: skip
MARKER = re.compile(r"\[(\d+)\]")


async def test_the_frames_the_card_and_the_report_use_the_same_numbers() -> None:
    config = dr.Config(max_iterations=1, enable_supervision=False, max_sub_queries=3)
    s = dr.Session("How did the printing press change Europe?", llm=FunctionLLM(),
                   search=StaticSearch(DOCS), config=config, persist=False)  # fmt: skip
    await s.run()
    assert s.report is not None and s.report.citations
    numbers = {c.source_id: c.number for c in s.report.citations}
    # The sources frame: `citation` is the report's number, `ref` the stable one.
    frame = s.sources
    cited = frame[frame["cited"]]
    assert {sid: int(n) for sid, n in cited["citation"].items()} == numbers
    assert frame[~frame["cited"]]["citation"].isna().all()
    # The report text only uses those numbers, and its sources list agrees.
    body = s.report.markdown.split("## Sources")[0]
    assert {int(n) for n in MARKER.findall(body)} <= set(numbers.values())
    for c in s.report.citations:
        assert f"{c.number}. {frame.loc[c.source_id, 'title']}" in s.report.markdown
    # Findings: their `citations` are the report numbers of their cited sources.
    for fid, row in s.findings.iterrows():
        finding = next(f for f in s.state.findings if f.id == fid)
        assert row["citations"] == [numbers[i] for i in finding.source_ids if i in numbers]
    # The session card lists cited sources under the report's numbers.
    card = session_html(s)
    for c in s.report.citations[:5]:
        title = str(frame.loc[c.source_id, "title"])
        assert re.search(rf"\[{c.number}\] <a [^>]*>{re.escape(title)}</a>", card), card


def test_frames_follow_the_typed_citations_not_the_order_of_ids() -> None:
    state = ResearchState(question="q")
    a = state.new_source(url="https://a.org", title="A")
    b = state.new_source(url="https://b.org", title="B")
    state.report = Report(
        markdown="B first [1], then A [2].\n",
        cited_source_ids=[a.id, b.id],  # an order the numbers do not follow
        citations=[
            Citation(number=1, source_id=b.id, title="B", url=b.url),
            Citation(number=2, source_id=a.id, title="A", url=a.url),
        ],
    )
    from deepresearch.notebook import sources_frame

    assert sources_frame(state)["citation"].to_dict() == {a.id: 2, b.id: 1}
    assert "[1] <a" in session_html(type("S", (), {"state": state})())
    assert "B</a>" in session_html(type("S", (), {"state": state})()).split("[2]")[0]


def local_state(tmp_path: Path) -> tuple[ResearchState, Path, Path]:
    served = tmp_path / "server" / "docs" / "notes: v2.md"
    served.parent.mkdir(parents=True)
    served.write_text("Timeouts are 30 s.", encoding="utf-8")
    outside = tmp_path / "elsewhere" / "retries.md"
    outside.parent.mkdir()
    outside.write_text("Retries happen three times.", encoding="utf-8")
    state = ResearchState(question="What did the team decide?")
    one = state.new_source(url=str(served), title="Timeouts", content="Timeouts are 30 s.")
    two = state.new_source(
        url=f"file://{outside}", title="Retries", content="Clients retry three times [x](y)."
    )
    state.report = Report(
        markdown="Timeouts [1]. Retries [2].\n",
        cited_source_ids=[one.id, two.id],
        citations=[
            Citation(number=1, source_id=one.id, title="Timeouts", url=one.url),
            Citation(number=2, source_id=two.id, title="Retries", url=two.url),
        ],
    )
    return state, served, outside


def test_a_file_under_the_server_root_links_through_the_files_route(tmp_path: Path) -> None:
    state, served, outside = local_state(tmp_path)
    notebooks = tmp_path / "server" / "notebooks"
    notebooks.mkdir()
    route = FilesRoute(root=tmp_path / "server", notebook_dir=notebooks)
    href = "../docs/notes%3A%20v2.md"  # relative to the notebook; ":" cannot become a scheme
    assert route.href(str(served)) == href
    assert route.href(f"file://{outside}") is None
    assert route.href("https://ex.org/x") is None and route.href("docs/relative.md") is None
    text = state_markdown(state, files=route, passages=True)
    assert f"Timeouts \\[[1]({href})\\]" in text and f"1. [Timeouts]({href})" in text
    # Outside the root: no link at all, the cited passage quoted under the location.
    assert "Retries \\[2\\]" in text and "file://" not in text.split("## Sources")[0]
    assert "   > Clients retry three times \\[x\\](y)." in text
    page = markdown_html(text)
    assert f'href="{href}"' in page and "<blockquote>" in page
    assert 'href="file:' not in page


def test_without_a_jupyter_server_local_files_are_quoted_not_linked(tmp_path: Path) -> None:
    state, _, _ = local_state(tmp_path)
    text = state_markdown(state, passages=True)
    assert "href" not in markdown_html(text)  # nothing is a link
    assert text.count("   > ") == 2


def test_the_files_route_comes_from_what_jupyter_tells_the_kernel(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "server"
    folder = root / "notebooks"
    folder.mkdir(parents=True)
    monkeypatch.delenv("JPY_SESSION_NAME", raising=False)
    assert jupyter_files_route() is None
    # An API path relative to the root; the kernel runs in the notebook's folder.
    monkeypatch.chdir(folder)
    monkeypatch.setenv("JPY_SESSION_NAME", "notebooks/report.ipynb")
    assert jupyter_files_route() == FilesRoute(root=root, notebook_dir=folder)
    monkeypatch.setenv("JPY_SESSION_NAME", "other/report.ipynb")
    assert jupyter_files_route() is None  # the kernel is not where that path says
    # An absolute path: the root comes from the server's runtime file.
    runtime = tmp_path / "runtime"
    runtime.mkdir()
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", str(runtime))
    monkeypatch.setenv("JPY_SESSION_NAME", str(folder / "report.ipynb"))
    assert jupyter_files_route() is None
    (runtime / "jpserver-1.json").write_text(json.dumps({"root_dir": str(root)}))
    (runtime / "jpserver-2.json").write_text(json.dumps({"root_dir": str(tmp_path / "x")}))
    assert jupyter_files_route() == FilesRoute(root=root, notebook_dir=folder)
