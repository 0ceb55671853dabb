"""How well each source answers each part: bridges, openings, ties to the answer a part
points back to, aliases."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

from deepresearch.offline import relevance
from deepresearch.offline.parts import Part, question_parts
from deepresearch.roles import SourceText
from deepresearch.text import sentences, term_set
from tests.offline.conftest import Titled, said_tokens


def _scored(
    parts: list[Part], srcs: list[SourceText]
) -> tuple[dict[str, list[str]], dict[tuple[str, int], tuple[float, list[tuple[float, str]]]]]:
    """Each source's sentences as its statements, and their scores for each part."""
    units = {s.id: sentences(s.text) for s in srcs}
    weights = relevance.Weights([term_set(s.text) for s in srcs])
    return units, relevance.part_scores(parts, srcs, units, weights)


def test_an_entry_opening_with_what_an_entity_part_describes_scores_its_opening(
    titled: Titled,
) -> None:
    question = "Who became the first Roman emperor?"
    texts = {
        "Augustus": "Augustus was the first Roman emperor. He reigned for forty years.",
        "Roman Senate": "The Senate met in Rome. It named the first Roman emperor in 27 BC.",
        "Emperors › Rome": "Augustus was the first Roman emperor, as this section says.",
    }
    srcs = titled(texts)
    srcs[2] = srcs[2].model_copy(update={"url": "/docs/emperors.md#L40-52", "lines": (40, 52)})
    parts = question_parts(question)
    units, statement = _scored(parts, srcs)
    opening = relevance._opening_match(parts, srcs, units, statement)
    assert opening[("src-1", 0)] > opening.get(("src-2", 0), 0.0)  # its second statement
    assert ("src-3", 0) not in opening  # a passage from the middle of a file
    described = relevance._opening_match(
        question_parts("How did Rome grow?"), srcs, units, statement
    )
    assert described == {}  # a part that names what it asks about


def test_a_name_no_title_holds_links_the_sources_that_use_it(titled: Titled) -> None:
    srcs = titled(
        {
            "Simón Bolívar": "He is known as El Libertador, the Liberator of America.",
            "Gran Colombia": "Gran Colombia was a republic in northern South America.",
            "South America": "South America is a continent.",
            "Liberation movements": "Statues of El Libertador stand in many squares.",
        }
    )
    part = question_parts("What republic did 'El Libertador' lead in South America?")[0]
    # "South America" is a title; a topic's page (not titled with a name) only mentions it
    assert relevance._aliased(part, srcs, said_tokens(srcs)) == ["src-1"]


def test_a_one_word_name_links_only_the_entry_opening_with_it_as_another_name(
    titled: Titled,
) -> None:
    srcs = titled(
        {
            "Scandinavian Mountains": "The Scandinavian Mountains or the Scandes is a range.",
            "Norway": "Norway is a country. The Scandes run along its west coast.",
            "Arctic": "The Arctic is a polar region.",
        }
    )
    part = question_parts("How tall do the Scandes get around the Arctic Circle?")[0]
    assert relevance._aliased(part, srcs, said_tokens(srcs)) == ["src-1"]


def test_a_name_that_only_places_what_a_part_asks_about_names_its_entry_less(
    titled: Titled,
) -> None:
    srcs = titled({"Eiffel Tower": "It is a tower.", "Paris": "Paris is a city."})
    names = [term_set("Eiffel Tower"), term_set("Paris")]
    for question, place in [
        ("How tall is the Eiffel Tower in Paris?", 0.5),
        ("Where is Paris?", 1),
    ]:
        parts = question_parts(question)
        stated = _scored(parts, srcs)[1]
        named = relevance._named_by_parts(parts, srcs, names, said_tokens(srcs), stated)
        assert named[("src-2", 0)] == place
    assert named[("src-1", 0)] == 0.0


def test_a_common_noun_names_a_one_word_entry_by_its_share_of_the_part(titled: Titled) -> None:
    texts = {"Gas": "A gas is a state of matter.", "Mars": "Mars is a planet."}
    srcs = titled(texts)
    said = said_tokens(srcs)
    names = [term_set("Mars")]
    about = question_parts("What is a gas?")
    passing = question_parts("Why do certain gases in the air make Mars warmer?")
    stated = _scored(about, srcs)[1]
    assert relevance._named_by_parts(about, srcs, names, said, stated)[("src-1", 0)] == 1.0
    named = relevance._named_by_parts(passing, srcs, names, said, _scored(passing, srcs)[1])
    assert named[("src-1", 0)] == 1 / len(passing[0].terms)  # "gases": one word of six
    assert named[("src-2", 0)] == 1.0  # a name the question gives, capitalised


def test_a_name_the_part_gives_links_one_passage_of_the_document_it_names(
    titled: Titled,
) -> None:
    texts = {
        "Rc<T>, the Reference Counted Smart Pointer › Sharing Data": "It is for one thread.",
        "Rc<T>, the Reference Counted Smart Pointer › Cloning": "The difference: a count.",
        "Shared State › Arc<T>": "Arc<T> is like Rc<T> but safe across threads.",
        "npm › Developer Usage": "Teams are managed with the npm team command.",
    }
    srcs = [
        s.model_copy(update={"url": f"/book/{'rc' if 'Rc<T>,' in s.title else s.id}.html#L1"})
        for s in titled(texts)
    ]
    part = question_parts("What is the difference between Rc<T> and Arc<T>?")
    named = relevance._named_by_parts(part, srcs, [], said_tokens(srcs), _scored(part, srcs)[1])
    # the chapter named "Rc<T>" is linked once, by its passage that states the part best;
    # the section headed "Arc<T>" by its heading
    linked = [s.title for s in srcs if named[(s.id, 0)] == relevance.FULL_NAME_SHARE]
    assert linked == [
        "Rc<T>, the Reference Counted Smart Pointer › Cloning",
        "Shared State › Arc<T>",
    ]
    npm = question_parts("Which npm command manages teams?")
    named = relevance._named_by_parts(npm, srcs, [], said_tokens(srcs), _scored(npm, srcs)[1])
    assert named[("src-4", 0)] == 0.0  # a lower-case word is not a name the part gives


def test_a_lead_in_ranks_below_a_statement_that_says_as_much(titled: Titled) -> None:
    # Both state the part's words; the lead-in only says that the settings follow.
    (src,) = titled(
        {
            "Profiles": "The release profile settings are these:\n"
            "The release profile settings favour speed over build time."
        }
    )
    parts = question_parts("What are the release profile settings?")
    units = {src.id: ["The release profile settings are these:",
                      "The release profile settings favour speed over build time."]}  # fmt: skip
    weights = relevance.Weights([term_set(src.text)])
    _, ranked = relevance.part_scores(parts, [src], units, weights)[(src.id, 0)]
    assert ranked[0][1].startswith("The release profile settings favour")


def test_a_statement_about_the_text_ranks_below_one_about_the_subject(titled: Titled) -> None:
    # Both state the part's words, the first first; it only announces what the text does.
    announce = "Finally, we'll discuss how lifetimes relate references for the compiler."
    state = "Lifetimes tell the compiler how references relate to each other."
    (src,) = titled({"Generics": f"{announce}\n{state}"})
    parts = question_parts("How do lifetimes relate references for the compiler?")
    weights = relevance.Weights([term_set(src.text)])
    _, ranked = relevance.part_scores(parts, [src], {src.id: [announce, state]}, weights)[
        (src.id, 0)
    ]
    assert ranked[0][1] == state


def test_a_code_line_matched_by_its_title_alone_ranks_below_prose_matched_so(
    titled: Titled,
) -> None:
    # Both say nothing the part asks but through their title; the code line comes first.
    opening = "This can be a surprise in code that worked before."
    code = "Code: `>>> def bar():`"
    prose = "An assignment to a name in a scope makes that name local to the scope."
    (src,) = titled({"Why do I get an UnboundLocalError?": f"{opening}\n{code}\n{prose}"})
    parts = question_parts("Why do I get an UnboundLocalError?")
    weights = relevance.Weights([term_set(src.text)])
    units = {src.id: [opening, code, prose]}
    _, ranked = relevance.part_scores(parts, [src], units, weights)[(src.id, 0)]
    assert [u for _, u in ranked] == [opening, prose, code]
    # a code line stating the part's words is matched by them, and keeps its place
    code = "Code: `>>> counter = 0`"
    parts = question_parts("Why do I get an UnboundLocalError for my counter?")
    units = {src.id: [opening, code, prose]}
    _, ranked = relevance.part_scores(parts, [src], units, weights)[(src.id, 0)]
    order = [u for _, u in ranked]
    assert order.index(code) < order.index(prose)


_MATCH_IN_A_FRESH_PROCESS = """
from deepresearch.offline.relevance import Weights
words = [f"term{i}" for i in range(60)]
texts = [set(words[i % 11 :: (i % 5) + 2]) for i in range(40)]
print(repr(Weights(texts).match(set(words), set(words[::2]))))
"""


def test_a_statement_scores_the_same_in_every_process() -> None:
    """Sets iterate in an order that changes with each process's string hashing, and a
    float sum in another order can differ in its last digit: two equal statements then
    tie differently from run to run, and so did reports (docsB-12's facts moved)."""
    root = Path(__file__).resolve().parents[2]
    said = {
        subprocess.run(
            [sys.executable, "-c", _MATCH_IN_A_FRESH_PROCESS],
            env={**os.environ, "PYTHONHASHSEED": str(seed), "PYTHONPATH": str(root)},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        for seed in range(8)
    }
    assert len(said) == 1


def _ranked_first(srcs: list[SourceText], question: str) -> str:
    """The statement the first source ranks first for the question's only part."""
    _units, scored = _scored(question_parts(question), srcs)
    return scored[(srcs[0].id, 0)][1][0][1]


GIL_SECTION = (
    "Regular locks now accept a timeout in seconds. "
    "The thread switching mechanism was rewritten. "
    "It is tuned through the setswitchinterval function, which tunes it."
)


def test_a_passage_statement_pointing_back_counts_what_it_points_back_to() -> None:
    """In a passage of a long file, "It is tuned …" speaks of what the sentence before it
    spoke of: its words count for it too, so the answer outranks a sentence that
    shares as many of the question's words by itself."""
    question = "Which function tunes the thread switching mechanism?"
    passage = SourceText(
        id="p", citation=1, title="What's New › Multi-threading", url="new.txt#L1-9",
        text=GIL_SECTION, lines=(1, 9),
    )  # fmt: skip
    assert _ranked_first([passage], question).startswith("It is tuned")
    # In a whole entry "This"/"It" stands mostly for the entry's subject: no inheritance.
    entry = passage.model_copy(update={"url": "new.txt", "lines": None})
    assert _ranked_first([entry], question).startswith("The thread switching")
    # "In this case …" goes on from the sentence before it as "It" does
    client = SourceText(
        id="p", citation=1, title="testclient", url="testclient.md#L1-9", lines=(1, 9),
        text="By default the client will raise exceptions that occur in the application. "
        "Occasionally you might want to test the content of error responses instead. "
        "In this case you should use the flag that keeps it quiet, set to False.",
    )  # fmt: skip
    asked = "How do you make the client return error responses instead of exceptions?"
    assert _ranked_first([client], asked).startswith("Occasionally")
    said = relevance._antecedents(
        sentences(client.text), [term_set(u) for u in sentences(client.text)], passage=True
    )
    assert "error" in said[2] and not said[1]


def test_within_a_source_the_statement_giving_the_kind_asked_for_comes_first(
    titled: Titled,
) -> None:
    # "Under which leader …" asks for a name; "In what year …" for a date. The restating
    # statement matches the part about as well (other sources name Paradise Lost too), but
    # gives neither.
    opening = "John Milton was a poet."
    restating = "Paradise Lost made the author famous."
    answering = "He served as a civil servant under Oliver Cromwell."
    dated = "He served as a civil servant from 1649."
    (src,) = titled({"John Milton": f"{opening}\n{restating}\n{answering}\n{dated}"})
    units = {src.id: [opening, restating, answering, dated]}
    others = [term_set(f"Paradise Lost, the poem, {n}") for n in ("one", "two", "three")]
    weights = relevance.Weights([term_set(src.text), *others])
    for question, first in (
        ("Under which leader did the author of Paradise Lost serve as a civil servant?", answering),
        ("In what year did the author of Paradise Lost serve as a civil servant?", dated),
    ):
        parts = question_parts(question)
        best, ranked = relevance.part_scores(parts, [src], units, weights)[(src.id, 0)]
        assert ranked[0][1] == first
        # The order within the source changes; the source's own score does not.
        assert best == max(score for score, _ in ranked)
        assert best == next(score for score, unit in ranked if unit == restating)


def test_a_hyphenated_word_of_the_part_is_matched_by_its_words_apart() -> None:
    parts = question_parts("Which range holds the world's second-highest peak?")
    weights = relevance.Weights([term_set("a b c")])
    apart = term_set("K2 is the second highest peak of the range.")
    assert weights.part_match(parts[0], apart) == weights.part_match(
        parts[0], apart | {"second-highest"}
    )
    # one of its words alone does not say it
    one = term_set("Everest is the highest peak of the range.")
    assert weights.part_match(parts[0], one) < weights.part_match(parts[0], apart)


def test_an_entry_describing_itself_as_another_kind_matches_the_part_less(titled: Titled) -> None:
    parts = question_parts("Which Austrian monk founded the science of genetics?")
    srcs = titled(
        {
            "Kūkai": "Kūkai was a Japanese Buddhist monk who founded the Shingon school. "
            "He founded temples.",
            "Gregor Mendel": "Gregor Mendel was an Austrian friar. He is the founder of the "
            "modern science of genetics.",
        }
    )
    _, statement = _scored(parts, srcs)
    kukai, mendel = (statement[(s.id, 0)][0] for s in srcs)
    assert mendel > kukai
    # the same entry, asked of a monk with no adjective, matches in full
    _, plain = _scored(question_parts("Which monk founded the Shingon school?"), srcs)
    assert plain[(srcs[0].id, 0)][0] > plain[(srcs[1].id, 0)][0]


def test_a_source_stating_the_superlative_asked_scores_above_one_sharing_its_words(
    titled: Titled,
) -> None:
    # both received the prize; only one is said to be its first recipient
    question = "Who received the very first Nobel Prize in Physics?"
    texts = {
        "Robert Millikan": "Robert Millikan was an American physicist who received the "
        "Nobel Prize in Physics in 1923.",
        "Wilhelm Röntgen": "Wilhelm Röntgen was a German physicist. In 1901, Röntgen became "
        "the first recipient of the Nobel Prize in Physics.",
    }
    srcs = titled(texts)
    parts = question_parts(question)
    units, statement = _scored(parts, srcs)
    assert relevance._stating_superlative(parts[0], srcs, statement, 0) == {"src-2"}
    scores = relevance.source_scores(parts, srcs, units, statement, question)
    assert scores.total[("src-2", 0)] > scores.total[("src-1", 0)]
    # a part asking no superlative gives no source that bonus
    plain = question_parts("Who received the Nobel Prize in Physics?")
    units, statement = _scored(plain, srcs)
    assert relevance._stating_superlative(plain[0], srcs, statement, 0) == set()


def test_a_section_headed_by_a_name_the_part_asks_about_or_the_story_gave_is_named(
    titled: Titled,
) -> None:
    texts = {
        "middleware › GZipMiddleware": "The middleware won't compress server-sent events.",
        "middleware › Using middleware": "Middleware wraps the application.",
        "Overview › PyPI": "The package index lists files for each package.",
    }
    srcs = titled(texts)
    story = (
        "I put GZipMiddleware in front of my app and now I worry about my event feed. "
        "Will the event feed get compressed, and is that deliberate?"
    )
    parts = question_parts(story)
    assert parts[0].scene and not parts[1].scene
    named = relevance._named_by_parts(parts, srcs, [], said_tokens(srcs), _scored(parts, srcs)[1])
    assert named[("src-1", 1)] == relevance.FULL_NAME_SHARE  # the story's name, a heading
    assert named[("src-2", 1)] == 0.0
    assert named[("src-1", 2)] == 0.0  # a part pointing back asks of the story, not its names
    # a name in a clause describing what the part asks about is not what it asks about
    avoids = question_parts("Which option gives a local install solution that avoids PyPI?")
    named = relevance._named_by_parts(avoids, srcs, [], said_tokens(srcs), _scored(avoids, srcs)[1])
    assert named[("src-3", 0)] == 0.0
    asks = question_parts("What does PyPI list for each package?")
    named = relevance._named_by_parts(asks, srcs, [], said_tokens(srcs), _scored(asks, srcs)[1])
    assert named[("src-3", 0)] == relevance.FULL_NAME_SHARE


def test_a_part_asking_in_the_negative_ranks_the_statement_saying_no_first(
    titled: Titled,
) -> None:
    (src,) = titled(
        {
            "Version control": "The pyproject.toml file must be committed as it holds the "
            "project's build metadata and dependencies.\nDo not commit the .pdm-python file."
        }
    )
    question = "Which files should be committed to version control, which one should not be?"
    parts = question_parts(question)
    _, scores = _scored(parts, [src])
    assert scores[(src.id, 1)][1][0][1] == "Do not commit the .pdm-python file."
    # a part asking in the positive keeps the statement that shares more of its words
    assert scores[(src.id, 0)][1][0][1].startswith("The pyproject.toml file must")
    # a negation in a clause of the asker's circumstances asks nothing in the negative
    assert relevance.asks_negated("Why doesn't PDM have one")
    assert not relevance.asks_negated("where does it write the password if the keyring is not set")
    assert not relevance.asks_negated("which class would cover read stalls but not bad statuses")
    assert not relevance.asks_negated("If not, what does the chapter point me to")


def test_a_part_asking_about_the_askers_story_is_answered_where_a_stretch_of_a_document_tells_it(
    titled: Titled,
) -> None:
    question = (
        "Our export endpoint builds one giant CSV string and the worker runs out of memory. "
        "I changed the view to yield rows from a generator, but now it crashes with a "
        "RuntimeError. How should this be written?"
    )
    srcs = titled(
        {
            "Streaming": "Send a large CSV file from a generator rather than from memory.",
            "Streaming › Context": "A generator that reads the request raises a RuntimeError. "
            "Wrap it in stream_with_context.",
            "Tutorial › Tests": "Tests check that the code you have written works.",
            "Tutorial › Views": "A view returns the response body.",
        }
    )
    for n, (doc, lines) in enumerate(
        [("stream", (1, 9)), ("stream", (10, 20)), ("tutorial", (1, 9)), ("tutorial", (10, 20))]
    ):
        url = f"/docs/{doc}.rst#L{lines[0]}-{lines[1]}"
        srcs[n] = srcs[n].model_copy(update={"url": url, "lines": lines})
    parts = question_parts(question)
    last = len(parts) - 1
    _, statement = _scored(parts, srcs)
    # "Wrap it in stream_with_context" shares no word with the part: the section before it
    # in the same document tells the rest of the story (the CSV, the memory)
    assert statement[("src-2", last)][0] > statement[("src-3", last)][0]
    told = relevance._told_around(srcs, {s.id: [term_set(s.text)] for s in srcs})
    assert told["src-2"] == told["src-1"]  # two passages, each the other's neighbour
    assert term_set("written") <= told["src-3"] and not term_set("written") & told["src-2"]
    # without the story, "written" alone draws the tutorial's line
    alone = [*parts[:last], replace(parts[last], story="")]
    _, unstoried = _scored(alone, srcs)
    assert unstoried[("src-3", last)][0] > unstoried[("src-2", last)][0]


def test_a_heading_worded_by_a_passage_under_it_names_no_other_passage_of_its_document(
    titled: Titled,
) -> None:
    # a passage's statements word its own heading: that says nothing of the passage after
    # it, while an entry of another document the answers name is worded by them
    question = "How does Rust call external code?"
    texts = {
        "Extern functions": "Extern functions let Rust call external code through a shim.",
        "Extern functions ": "The ABI is named in quotes.",
        "Shim": "The ABI is named in quotes.",
        "FFI": "Rust can call external code through the FFI.",
        "Linking": "To call external code from Rust, link it first.",
    }
    srcs = titled(texts)
    srcs[0] = srcs[0].model_copy(update={"url": "/docs/ffi.md#L1-5", "lines": (1, 5)})
    srcs[1] = srcs[1].model_copy(
        update={"url": "/docs/ffi.md#L6-9", "lines": (6, 9), "title": "Extern functions"}
    )
    parts = question_parts(question)
    units, statement = _scored(parts, srcs)
    scores = relevance.source_scores(parts, srcs, units, statement, question)
    assert statement[("src-2", 0)][0] == statement[("src-3", 0)][0]
    assert scores.total[("src-3", 0)] > scores.total[("src-2", 0)]


def test_in_a_passage_a_statement_saying_the_parts_words_itself_ranks_first(
    titled: Titled,
) -> None:
    # All match "order" through the heading; the last says it as well.
    intro = "Processors are registered with decorators."
    summary = "In summary, deserialization goes through a fixed pipeline."
    warning = "The invocation order of decorated methods of the same type is not guaranteed."
    (src,) = titled({"Extending › Invocation Order": f"{intro}\n{summary}\n{warning}"})
    src = src.model_copy(update={"url": "/docs/extending.rst#L155-179", "lines": (155, 179)})
    parts = question_parts("Is the order of my hooks defined?")
    weights = relevance.Weights([term_set(src.text), {"schema"}, {"field"}])
    units = {src.id: [intro, summary, warning]}

    def order(source: SourceText) -> list[str]:
        _, ranked = relevance.part_scores(parts, [source], units, weights)[(source.id, 0)]
        return [u for _, u in ranked]

    assert order(src).index(warning) < order(src).index(summary)
    # A whole entry's statements all speak of its title's subject: they keep their order.
    whole = src.model_copy(update={"url": "/docs/extending.rst", "lines": None})
    assert order(whole) == [intro, summary, warning]


def test_a_word_no_gathered_text_uses_keeps_its_everyday_share() -> None:
    texts = [{"socket", "timeout"}, {"socket", "proxy"}]
    plain = relevance.Weights(texts)
    everyday = relevance.Weights(texts, lambda term: 0.5 if term == "laptop" else 1.0)
    assert everyday.idf("laptop") == plain.idf("laptop") / 2
    # a word some text uses weighs by those texts alone
    assert everyday.idf("socket") == plain.idf("socket")
    # the asker's everyday word weighs less, so the passage sharing the rest says more
    part = {"laptop", "socket", "timeout"}
    assert everyday.match(part, texts[0]) > plain.match(part, texts[0])
