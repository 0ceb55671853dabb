"""Why the findings drawn for a question part do not answer it (offline analysis).

A part may draw findings that only share a word with it: they name another thing
(``coverage``), miss the attribute, superlative, date, measure or relation it asks for
(``attributes``, ``answer_kinds``, ``relations``, ``relation_words``), or, for a part
pointing back, come from no source tied to what it points back to (``referred``). Each
such part is a gap with the reason, never an answer. ``analysis`` draws the findings
(``Candidate``) and leaves out the parts this finds unanswered."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from deepresearch.offline.answer_kinds import answer_kind, gives, unstated_superlative
from deepresearch.offline.apart import asked_kind
from deepresearch.offline.attributes import unstated_attribute
from deepresearch.offline.coverage import unanswered_reason, unknown_words
from deepresearch.offline.mentions import names_cased
from deepresearch.offline.parts import Part
from deepresearch.offline.referred import (
    answer_before,
    given_names,
    hangs_on_unanswered,
    off_given,
    on_either,
    tied_findings,
    unconnected,
    untied_either,
)
from deepresearch.offline.relation_words import unstated_relation
from deepresearch.offline.relations import unmeasured, untimed_event
from deepresearch.offline.roots import says_all, text_roots
from deepresearch.offline.tense import unstated_now
from deepresearch.offline.ties import untied_description
from deepresearch.roles import AnalyzeInputs, SourceText
from deepresearch.text import words


@dataclass
class Candidate:
    """A source statement that may become a finding, with the part it answers and the
    sources that agree with it."""

    text: str
    source_id: str
    part: int
    score: float
    terms: set[str] = field(default_factory=set)
    supporters: set[str] = field(default_factory=set)
    # One of the lead source's LEAD_EXTRA: it ranks after every source's share, so the
    # report shows it only where its part has room left.
    extra: bool = False


def unanswered_parts(
    parts: list[Part],
    chosen: list[Candidate],
    sources: list[SourceText],
    units: dict[str, list[str]],
    inputs: AnalyzeInputs,
) -> tuple[dict[int, str], list[Candidate]]:
    """Part index → why the findings drawn for it do not answer it (see ``coverage``), for
    each part that drew findings which only share a word with it; and the findings of a
    part pointing back that are not on what it points back to (``_off_referent``).
    ``inputs``: the parts earlier iterations' findings answer, and those findings."""
    titles = {s.id: s.title for s in sources}
    # a source by its title and by the document it is part of (a passage of a file)
    where = {s.id: {s.title, s.document} for s in sources}
    gathered = [f"{s.title} {' '.join(units.get(s.id, []))}" for s in sources]
    texts = {s.title: text for s, text in zip(sources, gathered, strict=True)}
    by_id = {s.id: text for s, text in zip(sources, gathered, strict=True)}
    # "where is charles baudelaire buried": the checks below read names by capitals, of
    # any source gathered ("the human body" an earlier iteration found)
    every = inputs.titles or list(titles.values())
    out: dict[int, str] = {}
    off: list[Candidate] = []
    unknown: dict[str, str] = {}  # root → word: things earlier parts asked about, found nowhere
    previous: list[tuple[set[str], str]] = []  # the answered part before's findings
    for i, part in enumerate(parts):
        mine = [c for c in chosen if c.part == i]
        before = names_cased(parts[i - 1].text, titles.values()) if i else None
        behind = [([titles.get(s, "") for s in {c.source_id, *c.supporters}], c.text) for c in mine]
        found = [_places(c, where) for c in mine]
        drawn = [(f, c.text) for f, c in zip(found, mine, strict=True)]
        if mine:
            cased = replace(part, text=names_cased(part.text, every))
            previous = _answer_before(parts[i - 1].text, inputs, previous, every) if i else previous
            # of a part pointing back, what the sources tied to the answer before say
            # ("where was he born": not *Claude Debussy*'s "born in Saint-Germain-en-Laye")
            tied, on = _on_referent(cased, (parts[i - 1], before), (mine, found), previous, texts)
            off += _off_referent(part, mine, on)
            reason = unanswered_reason(
                part, _said(mine, titles), [by_id[s] for s in _ids(mine)], list(titles.values()),
                gathered, parts[:i], [by_id[s] for s in _ids(tied or mine)],
            )  # fmt: skip
            reason = reason or unstated_attribute(cased.text, behind, every)
            reason = reason or unstated_superlative(cased.text, [c.text for c in mine])
            reason = reason or untimed_event(cased, behind) or unmeasured(cased.text, behind)
            reason = reason or unstated_now(cased, behind)
            reason = reason or untied_description(cased.text, behind, texts, before)
            on_it = [(titles.get(sid, ""), units.get(sid, [])) for sid in _ids(tied or mine)]
            reason = reason or unstated_relation(cased, on_it, before or "")
            answered = bool(previous) or (i > 0 and parts[i - 1].text in inputs.answered_parts)
            reason = reason or _unanswered_referent(parts[: i + 1], answered, unknown)
            if reason is None and i and part.refers_back:
                asked = (parts[i - 1], before or "")
                reason = _unconnected(cased, asked, (behind, found, drawn), previous, texts)
            if reason is not None:
                out[i] = reason
        previous = [] if i in out else _answering(part, mine, (behind, drawn), (where, every))
        if part.text not in inputs.answered_parts:  # else its thing was found before
            unknown |= {r: w for w in unknown_words(part.text, gathered) for r in text_roots(w)}
    return out, off


def _answer_before(
    before: str, inputs: AnalyzeInputs, drawn: list[tuple[set[str], str]], titles: list[str]
) -> list[tuple[set[str], str]]:
    """The answer to the part ``before`` (see ``referred.answer_before``); of an earlier
    iteration's findings for it, those stating the superlative or attribute it asks, when
    some do, as ``_answering`` keeps of this iteration's: "in which country is it" after
    "What is the tallest mountain in Africa" is asked of *Mount Kilimanjaro*, not of
    *Central Africa*, whose text names Chad."""
    answers = answer_before(before, inputs, drawn)
    if answers is drawn:
        return drawn
    stating = _stating(before, [(sorted(where), text) for where, text in answers], titles)
    return answers if stating is None else [answers[k] for k in stating] or answers


# "The Empire State Building was the world's tallest building until …": held no more
_HELD_UNTIL = re.compile(r"\b(?:was|were)\b[^.;]*\buntil\b", re.IGNORECASE)


def _answering(
    part: Part,
    mine: list[Candidate],
    drawn: tuple[list[tuple[list[str], str]], list[tuple[set[str], str]]],
    where: tuple[dict[str, set[str]], list[str]],
) -> list[tuple[set[str], str]]:
    """Of the findings ``mine`` drawn for a part (``drawn``: each one's sources' titles
    and text, and its places and text), those stating the superlative or the attribute it
    asks, when it asks one and some do, each by its own source alone (``where``: each
    source's places, and the gathered titles): the answer a later part points back to.
    "what is its capital" after "Which country has the largest population in Africa" is
    *Nigeria*'s, "the most populous country in Africa", not that of *South Africa*, which
    agrees with the line in words ("the fifth-most populous country in Africa"); nor one
    that held it once ("was the world's tallest building until 1970")."""
    behind, found = drawn
    places, titles = where
    if (stating := _stating(part.text, behind, titles)) is None:
        return found
    return [(places[mine[k].source_id], mine[k].text) for k in stating] or found


def _stating(part: str, behind: list[tuple[list[str], str]], titles: list[str]) -> list[int] | None:
    """Of the findings ``behind`` the answer to ``part`` (each one's sources' titles and
    text), the indices of those stating the superlative or attribute it asks and not one
    held only once; None when it asks none or each finding states it."""
    cased = names_cased(part, titles)
    stating = [
        k
        for k, said in enumerate(behind)
        if unstated_superlative(cased, [said[1]]) is None
        and unstated_attribute(cased, [said], titles) is None
    ]
    if len(stating) == len(behind):
        return None
    return [k for k in stating if not _HELD_UNTIL.search(behind[k][1])]


_WHEN_IT = re.compile(r"^\W*when\s+\w+\s+(?:he|she|it|they)\b", re.IGNORECASE)


def _off_referent(part: Part, mine: list[Candidate], tied: list[Candidate]) -> list[Candidate]:
    """Of the findings drawn for ``part`` (``mine``), pointing back, those not on what it
    points back to, when one that is (``tied``) states the kind of thing the part asks
    for, gives the date it asks for ("when did he abdicate", see ``answer_kinds``) or,
    asking neither, says its own words ("can it fly": the birds' "the ability to fly",
    not *Tsetse fly*'s "flies"): "what prize did they win" after "Who discovered the
    structure of DNA" is answered by *James Watson*'s "awarded the Nobel Prize", and *Paul
    Samuelson*'s Nobel is another man's. Without such a line an entry tied by meaning
    alone may be the answer (*Vikings* for "which seafaring people did he belong to" after
    Leif Erikson)."""
    kind = asked_kind(part.text)
    # a date only, of what it points back to ("when did he abdicate", not "when did the
    # republic that dictator ruled come to an end"): any number is some measure, and any
    # name some doer, of a thing wrongly tied ("22,500 MW" for "how long is the river it
    # dams")
    answer = answer_kind(part.text)
    dated = answer == "time" and bool(_WHEN_IT.match(part.text))
    asked = set(words(part.text))
    # asking no kind of thing nor of answer ("can it fly"), its own words said of it: a
    # doer's deed may be said by a wrongly tied entry too ("founded")
    own = set() if kind or answer else text_roots(" ".join(part.own))

    def states(text: str) -> bool:
        return (
            (bool(kind) and says_all(kind, text_roots(text)))
            or (dated and gives(text, "time", asked, part.text))
            or (bool(own) and says_all(own, text_roots(text)))
        )

    if not tied or not any(states(c.text) for c in tied):
        return []
    return [c for c in mine if c not in tied]


def _unconnected(
    part: Part,
    before: tuple[Part, str],
    drawn: tuple[list[tuple[list[str], str]], list[set[str]], list[tuple[set[str], str]]],
    answers: list[tuple[set[str], str]],
    texts: dict[str, str],
) -> str | None:
    """Why ``part``, pointing back, is not answered of what it points back to (see
    ``referred``): its findings are tied to no answer of the part ``before`` it (that part,
    and its text with names cased), or, of a name that part gives, date nothing of it, or
    stand for neither thing it may point back to. ``drawn``: its findings by their
    sources' titles, by where they are, and both; ``texts``: each source's text by title."""
    behind, found, both = drawn
    earlier, cased = before
    given = given_names(part.text, cased)
    reason = unconnected(part, earlier, (behind, found), answers, texts)
    reason = reason or (untimed_event(part, behind, given) if given else None)
    return reason or untied_either(part.text, cased, both, answers, texts.keys())


def _said(mine: list[Candidate], titles: dict[str, str]) -> list[str]:
    """The texts of the findings ``mine``, each with its supporting sources' titles."""
    return [c.text + " " + " ".join(titles.get(s, "") for s in c.supporters) for c in mine]


def _ids(found: list[Candidate]) -> list[str]:
    """The ids of the sources behind the ``found`` statements, each once."""
    return list(dict.fromkeys(sid for c in found for sid in sorted(c.supporters | {c.source_id})))


def _on_referent(
    part: Part,
    before: tuple[Part, str | None],
    drawn: tuple[list[Candidate], list[set[str]]],
    answers: list[tuple[set[str], str]],
    texts: dict[str, str],
) -> tuple[list[Candidate], list[Candidate]]:
    """Of the findings drawn for ``part`` (with, for each, its sources by title and
    document), those from the sources tied to the ``answers`` of the part ``before`` it
    (that part, and its text with names cased; see ``referred.tied_findings``), and those
    on what it points back to: the tied ones, or, where its "it" may stand for that answer
    or a name the part before gives, those on either (``referred.on_either``). All of them
    for the first part."""
    mine, found = drawn
    earlier, cased = before
    if cased is None:
        return mine, mine
    asked = (earlier.text, text_roots(" ".join(earlier.own)))
    tied = [mine[k] for k in tied_findings(part.text, asked, found, answers, texts.keys())]
    either = [(f, c.text) for f, c in zip(found, mine, strict=True)]
    on = on_either(part.text, cased, either, answers, texts.keys())
    return tied, tied if on is None else [mine[k] for k in on]


def on_given_only(
    parts: list[Part], chosen: list[Candidate], sources: list[SourceText], every: list[str]
) -> tuple[list[Candidate], dict[int, str]]:
    """The ``chosen`` findings less those ``referred.off_given`` drops, and part index →
    why a part left with none is not answered. ``every``: the titles of every source
    gathered, earlier iterations' too (the entry a pronoun stands for may be one)."""
    titles = {s.id: s.title for s in sources}
    where = {s.id: {s.title, s.document} for s in sources}
    links = {s.id: s.links for s in sources}
    asked = [(names_cased(p.text, titles.values()), p.refers_back) for p in parts]
    found = [(c.part, _places(c, where), c.text, links[c.source_id]) for c in chosen]
    dropped, ungiven = off_given(asked, found, titles.values(), every or list(titles.values()))
    return [c for n, c in enumerate(chosen) if n not in dropped], ungiven


def _places(c: Candidate, where: dict[str, set[str]]) -> set[str]:
    """The titles and documents (``where``: per source) of a finding's sources."""
    return set().union(*(where[s] for s in {c.source_id, *c.supporters}))


def _unanswered_referent(
    parts: list[Part], before_answered: bool, unknown: dict[str, str]
) -> str | None:
    """Why the last of ``parts``, pointing back, is not answered: what it points back to
    was found nowhere, or is what the part before it asks for and that part, no scene, was
    not answered, in this iteration or an earlier one (``before_answered``)."""
    part = parts[-1]
    if len(parts) < 2 or not part.refers_back:
        return None
    # "who proved it" after "what is the zorblax theorem": what it hangs on is unknown
    asked = text_roots(part.query) if unknown else set()
    if hung := [w for r, w in unknown.items() if r in asked]:
        return f"it refers to {' '.join(hung)!r}, which no source found speaks of"
    # a scene asks nothing: a part pointing back into it hangs on no answer of it
    scene = parts[-2].scene
    return None if scene else hangs_on_unanswered(part.text, parts[-2].text, before_answered)
