"""A passage's place in its document travels explicitly from the search hit to the source
and to the view the offline engine reads; its URL fragment is only the citation."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from phase_support import fast_config

from deepresearch import roles
from deepresearch.offline.mentions import opens_document
from deepresearch.offline.statements import statements
from deepresearch.phases.common import source_text
from deepresearch.phases.gather import gather
from deepresearch.providers.base import web_hit
from deepresearch.providers.corpus import CorpusSearch
from deepresearch.state import Phase, ResearchState, Source
from deepresearch.testing import FunctionLLM, StaticSearch, context

FILLER = " ".join(f"Background sentence number {i} about nothing much." for i in range(40))
HANDBOOK = (
    "# Handbook\n\nThe handbook says how budgets work.\n\n## Budgets\n\n"
    f"{FILLER}\n\n### Token limits\n\nWhen content is too long the budget is cut by "
    f"ten percent and the call retried.\n\n## Supervision\n\n{FILLER}\n"
)


def _gathering(query: str) -> ResearchState:
    state = ResearchState(question="How is content that is too long cut?", max_iterations=1)
    state.phase = Phase.GATHERING
    state.add_sub_query(query)
    return state


async def test_a_corpus_passage_keeps_its_lines_from_hit_to_source_to_role_view(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DEEPRESEARCH_HOME", str(tmp_path / "home"))
    root = tmp_path / "docs"
    root.mkdir()
    (root / "handbook.md").write_text(HANDBOOK, "utf-8")
    state = _gathering("content too long budget cut retried handbook")
    await gather(state, context(FunctionLLM(), CorpusSearch(root), config=fast_config()))
    by_title = {s.title: s for s in state.sources}
    middle, first = by_title["Handbook › Token limits"], by_title["Handbook"]
    assert middle.lines is not None and middle.lines[0] > 1
    assert middle.url.endswith("#L{}-{}".format(*middle.lines))  # the citation is unchanged
    assert first.lines is not None and first.lines[0] == 1
    assert source_text(middle).lines == middle.lines
    assert not opens_document(source_text(middle)) and opens_document(source_text(first))
    again = ResearchState.from_json(state.to_json())
    assert [s.lines for s in again.sources] == [s.lines for s in state.sources]


async def test_a_web_page_whose_url_has_a_line_anchor_is_a_whole_document() -> None:
    hit = web_hit("https://example.org/guide#L5-9", "Guide", "Guide to cutting content.", "web")
    assert hit is not None and hit.lines is None
    state = _gathering("guide cutting content")
    await gather(state, context(FunctionLLM(), StaticSearch([hit]), config=fast_config()))
    (src,) = state.sources
    assert src.url == "https://example.org/guide#L5-9" and src.lines is None
    assert opens_document(source_text(src))


def test_a_passages_place_is_not_in_the_schema_a_model_is_sent() -> None:
    # The offline engine's knowledge of corpus passages: a model is neither shown nor asked it.
    for model in (roles.SourceText, roles.AnalyzeInputs, roles.ReflectInputs):
        assert '"lines"' not in json.dumps(model.model_json_schema()), model.__name__


def test_the_view_of_a_summarised_source_states_a_whole_list_item_whole() -> None:
    item = "FnMut applies to closures that mutate. These closures can be called more than once."
    page = f"Closures implement these traits:\n\n- {item}\n\nA closure is a function here.\n"
    src = Source(
        id="src-1", citation=1, url="/docs/closures.md", title="Closures",
        content="A closure is a function here.", raw_content=page, summarized=True,
        excerpts=["A closure is a function here.", item],
    )  # fmt: skip
    assert item in statements(source_text(src).text)
    assert item in statements(source_text(src.model_copy(update={"excerpts": []}), page=True).text)
