"""Why a part's findings do not answer it: the checks ``analysis`` runs on what it drew."""

from __future__ import annotations

import pytest

from deepresearch.offline import analysis, unanswered
from deepresearch.offline.parts import question_parts
from deepresearch.offline.unanswered import Candidate
from deepresearch.providers import vectors
from deepresearch.roles import AnalyzeInputs
from tests.offline.conftest import Titled


@pytest.mark.skipif(not vectors.available(), reason="wordllama not installed")
def test_a_part_pointing_back_asking_where_a_state_holds_reads_the_sources_tied_to_the_answer(
    titled: Titled,
) -> None:
    # *Claude Debussy* says "born" of another composer: "where was he born" stays unanswered
    question = "Which composer wrote The Magic Flute, and where was he born?"
    srcs = titled(
        {
            "The Magic Flute": "The Magic Flute is an opera in two acts by Wolfgang Amadeus "
            "Mozart to a German libretto. The work premiered in Vienna in 1791.",
            "Claude Debussy": "Claude Debussy was a French composer, born in Saint-Germain. "
            "He wrote the opera Pelléas et Mélisande.",
        }
    )
    out = analysis.analyze(AnalyzeInputs(question=question, sources=srcs))
    composer, born = (p.text for p in question_parts(question))
    assert any(f.category == composer for f in out.findings)
    assert not any(f.category == born for f in out.findings)
    assert any(g.reason.endswith("has no word for 'born'") for g in out.gaps)
    # the state said by a source tied to the answer answers it
    srcs[1] = srcs[1].model_copy(
        update={"text": "Mozart's opera The Magic Flute was written after he was born in Salzburg."}
    )
    out = analysis.analyze(AnalyzeInputs(question=question, sources=srcs))
    assert any(f.category == born for f in out.findings)


def test_a_part_pointing_back_keeps_only_its_tied_findings_when_one_states_the_kind_asked(
    titled: Titled,
) -> None:
    # "they" are the discoverers: *James Watson*'s Nobel Prize is theirs, *Paul
    # Samuelson*'s is another man's
    question = "Who discovered the structure of DNA, and what prize did they win?"
    watson = (
        "James Watson is an American molecular biologist. In 1953 he and Francis Crick "
        "discovered the double helix structure of DNA. In 1962 Watson and Crick were "
        "awarded the Nobel Prize in Physiology or Medicine."
    )
    samuelson = (
        "Paul Samuelson was an American economist. He was the first American to win the "
        "Nobel Memorial Prize in Economic Sciences."
    )
    srcs = titled({"James Watson": watson, "Paul Samuelson": samuelson})
    out = analysis.analyze(AnalyzeInputs(question=question, sources=srcs))
    prize = question_parts(question)[1].text
    drawn = [f.content for f in out.findings if f.category == prize]
    assert any("Physiology or Medicine" in f for f in drawn)
    assert not any("Economic Sciences" in f for f in drawn)
    # without a tied line stating a prize, the untied entry may be the answer
    srcs[0] = srcs[0].model_copy(update={"text": watson.rsplit(" In 1962", 1)[0]})
    out = analysis.analyze(AnalyzeInputs(question=question, sources=srcs))
    drawn = [f.content for f in out.findings if f.category == prize]
    assert any("Economic Sciences" in f for f in drawn)


def test_a_part_pointing_back_asking_when_keeps_only_its_tied_findings_when_one_dates_it(
    titled: Titled,
) -> None:
    # "he" is the last emperor: *Emperor Gong*'s abdication is another man's
    question = "Who was the last emperor of Quillia, and when did he abdicate?"
    verre = (
        "Tomas Verre was the last emperor of Quillia. Verre was forced to abdicate "
        "the throne in February 1912 after the revolution."
    )
    gong = "Emperor Gong was forced to abdicate the throne of the Later Zhou in 960."
    srcs = titled({"Tomas Verre": verre, "Emperor Gong": gong})
    out = analysis.analyze(AnalyzeInputs(question=question, sources=srcs))
    when = question_parts(question)[1].text
    drawn = [f.content for f in out.findings if f.category == when]
    assert any("1912" in f for f in drawn)
    assert not any("960" in f for f in drawn)


def test_his_after_a_part_asking_who_stands_for_the_answer_and_its_sources_must_name_the_thing(
    titled: Titled,
) -> None:
    # *Ernest Lawrence* founded laboratories and invented the cyclotron: another man's
    question = "Who invented the phonograph, and where was his laboratory?"
    edison = (
        "Thomas Edison was an American inventor known for his work on the phonograph and "
        "the incandescent light bulb. Edison registered over a thousand patents."
    )
    texts = {
        "Thomas Edison": edison,
        "Ernest Lawrence": "Ernest Lawrence was an American physicist known for his "
        "invention of the cyclotron and for founding the Lawrence Berkeley National Laboratory.",
        "Laboratory": "A laboratory is a facility that provides controlled conditions in "
        "which scientific research and experiments may be performed.",
    }
    out = analysis.analyze(AnalyzeInputs(question=question, sources=titled(texts)))
    inventor, laboratory = (p.text for p in question_parts(question))
    assert any(f.category == inventor for f in out.findings)
    assert not any(f.category == laboratory for f in out.findings)
    assert any(
        g.reason.startswith("no source behind its findings speaks of both") for g in out.gaps
    )
    # his own entry naming his laboratory answers it
    texts["Thomas Edison"] = f"{edison} His laboratory was in Menlo Park, New Jersey."
    out = analysis.analyze(AnalyzeInputs(question=question, sources=titled(texts)))
    assert any(f.category == laboratory and "Menlo Park" in f.content for f in out.findings)


def test_a_part_whose_it_may_stand_for_either_keeps_the_findings_on_either(
    titled: Titled,
) -> None:
    # "it" is the university or what the part before asks for: *New York City*'s lines
    # are on neither, and *Cambridge*, named by the university's entry, states a city
    question = "When was Harvard University established, and in which city does it stand?"
    texts = {
        "Harvard University": "Harvard University was established in 1636 in Cambridge.",
        "Cambridge": "Cambridge is a city in Massachusetts, across the Charles River.",
        "New York City": "New York City is the most populous city in the United States. "
        "It stands on one of the largest natural harbors.",
    }
    out = analysis.analyze(AnalyzeInputs(question=question, sources=titled(texts)))
    city = question_parts(question)[1].text
    drawn = [f.content for f in out.findings if f.category == city]
    assert any("Cambridge is a city" in f for f in drawn)
    assert not any("New York" in f or "natural harbors" in f for f in drawn)


def test_the_answer_a_later_part_points_back_to_is_the_finding_holding_the_superlative() -> None:
    # *Empire State Building* held it once; *Burj Khalifa*'s line is the answer, from its
    # own source alone (a supporter only words a line alike)
    part = question_parts("What is the tallest building in the world, and where is it?")[0]
    burj = Candidate("It is the tallest building in the world.", "b", 0, 1.0)
    burj.supporters = {"b", "e"}
    empire = Candidate("It was the world's tallest building until 1970.", "e", 0, 0.9)
    other = Candidate("A building is a structure with a roof.", "d", 0, 0.8)
    mine = [burj, empire, other]
    places = {"b": {"Burj Khalifa"}, "e": {"Empire State Building"}, "d": {"Building"}}
    titles = ["Burj Khalifa", "Empire State Building", "Building"]
    behind = [
        ([titles[0], titles[1]], burj.text),
        ([titles[1]], empire.text),
        ([titles[2]], other.text),
    ]
    drawn = [
        ({"Burj Khalifa", "Empire State Building"}, burj.text),
        *[(places[c.source_id], c.text) for c in mine[1:]],
    ]
    answer = unanswered._answering(part, mine, (behind, drawn), (places, titles))
    assert answer == [({"Burj Khalifa"}, burj.text)]
    # a part asking no superlative points back to all it drew
    part = question_parts("What is a building, and where is it?")[0]
    assert unanswered._answering(part, mine, (behind, drawn), (places, titles)) == drawn


def test_a_date_drops_untied_findings_only_of_a_part_asking_when_its_pronoun_did_it() -> None:
    tied = [Candidate("Verre abdicated the throne in February 1912.", "s1", 1, 1.0)]
    other = Candidate("Emperor Gong abdicated in 960.", "s2", 1, 0.9)
    mine = [*tied, other]
    abdicate = question_parts("Who was the last emperor, and when did he abdicate?")[1]
    assert unanswered._off_referent(abdicate, mine, tied) == [other]
    # the part asks of another thing, described through what it points back to
    republic = question_parts(
        "Who was the dictator, and when did the republic that dictator ruled come to an end?"
    )[1]
    assert unanswered._off_referent(republic, mine, tied) == []


def test_a_part_asking_no_kind_drops_untied_findings_when_a_tied_one_says_its_words() -> None:
    # "can it fly" after the ostrich: the birds' line says "fly", the tsetse's "flies"
    # is another thing's
    part = question_parts("Which bird is the largest living bird, and can it fly?")[1]
    tied = [Candidate("Wings gave birds the ability to fly.", "s1", 1, 1.0)]
    other = Candidate("Tsetse flies are large biting flies of Africa.", "s2", 1, 0.9)
    assert unanswered._off_referent(part, [*tied, other], tied) == [other]
    # a tied finding not saying the part's words leaves the untied ones
    mute = [Candidate("The ostrich lays the largest eggs of any bird.", "s1", 1, 1.0)]
    assert unanswered._off_referent(part, [*mute, other], mute) == []


def test_a_later_iteration_reads_the_earlier_answer_that_states_what_was_asked(
    titled: Titled,
) -> None:
    # the first part's earlier findings: *Mount Kilimanjaro* states the superlative asked,
    # *Central Africa* only shares its words; "it" is the mountain, so *Chad*, in Central
    # Africa, is no answer to "in which country is it"
    question = "What is the tallest mountain in Africa, and in which country is it?"
    first, country = (p.text for p in question_parts(question))
    earlier = [
        (first, ["Mount Kilimanjaro"], "It is the highest mountain in Africa."),
        (first, ["Central Africa"], "Central Africa is a subregion that includes Chad."),
    ]
    chad = "Chad is a landlocked country in Central Africa. It borders Libya and Sudan."
    inputs = AnalyzeInputs(
        question=question,
        sources=titled({"Chad": chad}),
        answered_parts=[first],
        earlier_answers=earlier,
    )
    out = analysis.analyze(inputs)
    assert not any(f.category == country for f in out.findings)
    assert any(g.description.endswith(country) for g in out.gaps)


def test_a_part_pointing_back_after_a_scene_hangs_on_no_answer_of_the_scene(
    titled: Titled,
) -> None:
    # the scene's ", which …" asks nothing: "it" is the filter, which a source speaks of
    question = (
        "The tojson filter sorts my dict keys, which breaks an ordered payload I embed. "
        "Can I change the arguments it uses for serialization?"
    )
    srcs = titled(
        {
            "Policies": "json.dumps_kwargs: Keyword arguments to be passed to the dump "
            "function of the tojson filter. The default is to sort keys.",
            "Filters": "The tojson filter serializes a structure to JSON for use in a page.",
        }
    )
    parts = question_parts(question)
    assert parts[-2].scene and parts[-1].refers_back
    out = analysis.analyze(AnalyzeInputs(question=question, sources=srcs))
    assert not any(g.reason.startswith("it points back to") for g in out.gaps)
    assert any(f.category == parts[-1].text for f in out.findings)
