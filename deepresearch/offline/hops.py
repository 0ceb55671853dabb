"""Hops: the entries the statements answering a part name (bridges), and the ties a part
pointing back ("who founded *it*") has to the earlier answer it points back to. Scores for
``relevance.source_scores``, which adds them to each source's score for each part."""

from __future__ import annotations

import re

from deepresearch.offline.asking import (
    asks_for_entity,
    compares_things,
    defines_kind,
    defines_name,
    question_word,
)
from deepresearch.offline.bridges import own_share
from deepresearch.offline.earlier import PERSONAL
from deepresearch.offline.mentions import (
    TOKEN,
    is_common_noun,
    mentions_name,
    name_words,
    opens_document,
    title_named,
)
from deepresearch.offline.parts import Part
from deepresearch.offline.referred import pronouns_said
from deepresearch.offline.statements import statement_terms
from deepresearch.roles import SourceText
from deepresearch.text import term_set

# A statement's words and its commas, which may end a capitalised name ("Sirte, Libya").
_TOKEN_OR_COMMA = re.compile(rf"{TOKEN.pattern}|,")
_JOINING = frozenset([",", "and", "or"])  # what joins the names of a list


def _placed_apart(text: str) -> list[str]:
    """The words of ``text``, with a comma kept (as a "," token) where it sets a place's
    region or country after it, "in Sirte, Libya, in 1999": one capitalised name, a comma,
    another, no list around them. In a list ("Zürich, Geneva, Basel and Bern") commas
    are dropped, as between any other words: such names are read as before."""
    tokens = _TOKEN_OR_COMMA.findall(text)

    def run(k: int, step: int) -> int:  # past the capitalised words from k on
        while 0 <= k < len(tokens) and tokens[k][:1].isupper():
            k += step
        return k

    kept = []
    for j, token in enumerate(tokens):
        if token != ",":
            kept.append(token)
            continue
        before, after = run(j - 1, -1), run(j + 1, 1)
        named = before < j - 1 and after > j + 1
        # a list: a joining word before the first name, or after the second ("and", or a
        # comma before another name or a joining word)
        then = tokens[after : after + 2]
        listed = (before >= 0 and tokens[before] in _JOINING) or (
            then[:1] in (["and"], ["or"])
            or (
                then[:1] == [","]
                and len(then) > 1
                and (then[1][:1].isupper() or then[1] in _JOINING)
            )
        )
        if named and not listed:
            kept.append(token)
    return kept


BRIDGE_WEIGHT = 0.4  # a source named by the statements that answer a part
CHAIN_SHARE = 0.7  # ... named by the answer of the part that a part points back to
UNTIED_SHARE = 0.6  # of its score, for an entry not tied to the answer a part points back to


def point_back(
    i: int,
    part: Part,
    sources: list[SourceText],
    texts: tuple[dict[str, list[str]], dict[str, list[str]]],
    answerers: dict[int, list[SourceText]],
    asked: set[str],
    out: dict[tuple[str, int], float],
    bridged: dict[str, float],
    *,
    settled: bool = False,
) -> None:
    """Scores for part ``i``, which points back ("who founded *it*"): its "it" is what the
    first and the previous part found. A statement naming one of those answers with the
    part's own words answers the part ("regarded as the founder of Sikhism"), as strongly
    as a bridge (and is kept like one); the previous part's clear best answer, stating
    every word of the part's own of itself, ranks as high; an entry not tied to the three
    best answers keeps UNTIED_SHARE of its score: evidence is tied to the answer, not only
    worded alike.
    ``texts``: each source's statements and their tokens; ``settled``: the previous part
    was answered in an earlier iteration, whose answer this one's sources may not hold."""
    units, said = texts
    first, previous = answerers[0], answerers[i - 1]
    earlier = _joined(first[:3], previous[:3])
    for s in sources:
        if s.id not in bridged and not tied(s, earlier, said, asked):
            out[(s.id, i)] *= UNTIED_SHARE
    found = resolved(part, _joined(first, previous), sources, units)
    for sid, share in found.items():
        out[(sid, i)] += BRIDGE_WEIGHT * share
        bridged[sid] = max(bridged.get(sid, 0.0), share)
    if part.own and not settled and _clear_best(previous, out, i - 1):
        # the previous part's clear best answer speaks of itself: "its highest point" after
        # "the mountain range that surrounds …" is *Zagros Mountains*' "The highest point …".
        # Every word of the part's own, and only its rank: whether it answers is left to the
        # statement, as for any source.
        itself = previous[0].id
        if itself not in found and any(
            own_share(part, statement_terms(u)) == 1.0 for u in units.get(itself, [])
        ):
            out[(itself, i)] += BRIDGE_WEIGHT


# How far the previous part's best source must lead the next for a part pointing back to
# be asked of it: with no clear answer, "it" may be any of them.
CLEAR_LEAD = 0.05


def _clear_best(ranked: list[SourceText], out: dict[tuple[str, int], float], i: int) -> bool:
    """Whether the best of the sources ``ranked`` for part ``i`` leads the next clearly."""
    if not ranked:
        return False
    runner_up = out[(ranked[1].id, i)] if len(ranked) > 1 else 0.0
    return out[(ranked[0].id, i)] - runner_up >= CLEAR_LEAD


def _joined(first: list[SourceText], then: list[SourceText]) -> list[SourceText]:
    return first + [s for s in then if s not in first]


def resolved(
    part: Part, answers: list[SourceText], sources: list[SourceText], units: dict[str, list[str]]
) -> dict[str, float]:
    """Per source: the largest share of the part's own words (by root: "founder" for
    "founded") that one of its statements holds while naming another source among the
    ``answers`` the part points back to."""
    if not part.own:
        return {}
    names = [(a, name_words(a.title)) for a in answers]
    out: dict[str, float] = {}
    for s in sources:
        for unit in units.get(s.id, []):
            share = own_share(part, statement_terms(unit))
            if share <= out.get(s.id, 0.0):
                continue
            said = TOKEN.findall(unit)
            if any(
                a.id != s.id and mentions_name(said, n, linked=a.title in s.links) for a, n in names
            ):
                out[s.id] = share
    return out


def tied(
    src: SourceText, earlier: list[SourceText], said: dict[str, list[str]], asked: set[str]
) -> bool:
    """Whether ``src`` is tied to one of the ``earlier`` answers: it is one, either names
    the other (in the gathered statements or by corpus link), or their titles share a
    word the question does not give (*Edmond Halley*, *Halley's Comet*). A passage from
    the middle of a file is tied by its file, which this cannot see: always tied.
    ``said``: each source's statement tokens."""
    if src in earlier or not opens_document(src):
        return True
    own = name_words(src.title)
    mine = said.get(src.id, [])
    for other in earlier:
        if src.title in other.links or other.title in src.links:
            return True
        if (term_set(src.title) & term_set(other.title)) - asked:
            return True
        if mentions_name(mine, name_words(other.title), linked=other.title in src.links):
            return True
        if mentions_name(said.get(other.id, []), own, linked=src.title in other.links):
            return True
    return False


def naming_answer(
    part: Part,
    leaders: list[SourceText],
    sources: list[SourceText],
    units: dict[str, list[str]],
    said: dict[str, list[str]],
) -> dict[str, float]:
    """Sources that name the entry answering what a part describes and state what the
    part asks of it that the entry does not: "The Russian novel in verse … was turned into
    an opera: by which composer" — *Eugene Onegin* states the novel, not the opera, and
    *Pyotr Ilyich Tchaikovsky* names "the opera Eugene Onegin". As strong as the share of
    those unstated words they state. Only when the leading entry states at least half of
    the part's own words and the part does not name it."""
    if not leaders:
        return {}
    top = leaders[0]
    own = part.own or part.terms
    stated = term_set(f"{top.title} {' '.join(units.get(top.id, []))}")
    unstated = own - stated
    name = name_words(top.title)
    if not unstated or 2 * len(own & stated) < len(own) or term_set(top.title) <= part.terms:
        return {}
    out: dict[str, float] = {}
    for src in sources:
        if src.id == top.id or not mentions_name(said.get(src.id, []), name, linked=False):
            continue
        share = len(unstated & term_set(" ".join(units.get(src.id, [])))) / len(unstated)
        if share:
            out[src.id] = share
    return out


def _may_hop(i: int, parts: list[Part]) -> bool:
    """Whether another entry than those it names may answer part ``i``. Not one asking
    who or what a thing it names is ("Who was Cleopatra": *Ptolemaic Kingdom*, which that
    entry's answer names, is context, not the answer), nor one asking, but for an entity,
    of the person an earlier part asked for and found ("how many campaigns did he
    direct": his own entry says it, not the places and people it names); "the rules of
    the game he dominated" asks of a thing his entry names, and "The director of Vertigo:
    … how many nominations did his films earn" of a person only a hop reaches."""
    part = parts[i]
    if defines_name(part.text) or defines_kind(part.text) or compares_things(part.text):
        return False  # a comparison's things are each found in its own entry
    return not (
        part.refers_back
        and i > 0
        and PERSONAL & pronouns_said(part.text)
        and not asks_for_entity(part.text)
        and any(question_word(parts[j].text) == "who" for j in {0, i - 1})
    )


def bridged(
    i: int,
    parts: list[Part],
    sources: list[SourceText],
    texts: tuple[
        dict[tuple[str, int], tuple[float, list[tuple[float, str]]]], dict[str, list[str]]
    ],
    answerers: dict[int, list[SourceText]],
    asked: tuple[set[str], list[set[str]]],
    named_by: dict[str, set[str]],
) -> dict[str, float]:
    """Sources that the best statements about part ``i`` name (as a name, capitalised, not
    a common noun: *Army* is not named by "an army of clay soldiers"), as strongly as the
    naming statement answers; for a part that points back ("the river *it* dams"), also
    those the answers to the first and the previous part name in a statement that also
    speaks to this part's own words (the hop's next entity). ``texts``: the statements'
    scores and each source's statement tokens; ``named_by`` collects, per source named,
    the sources whose statements name it."""
    said = texts[1]
    if not _may_hop(i, parts):
        return {}
    given = asked[1]
    points_back = parts[i].refers_back and i > 0
    # A part that points back asks about what the earlier parts found: its own answerers
    # name a hop only when tied to those answers ("why was it important" after "What did
    # Alexander Fleming discover": *Alexander Pushkin*, sharing only "Alexander", does not).
    earlier = _joined(answerers[0][:3], answerers[i - 1][:3]) if points_back else []
    mentions = _answer_mentions(i, parts, texts, answerers, (earlier, asked[0]))
    out: dict[str, float] = {}
    for src in sources:
        title = term_set(src.title)
        if title_named(title, *asked) or any(n and n <= title for n in given):
            continue  # the question names it ("Atlantic" names *Atlantic Ocean*): no hop
        name = name_words(src.title)
        # A disambiguated title (*Don (river)*) is named only where its context is too.
        sense = title - term_set(" ".join(name))
        # An entry on a common noun (its text writes "a window") is not the name a text
        # capitalises ("software like Windows"): only the corpus's link says it is meant.
        common = is_common_noun(said.get(src.id, []), name)
        for tokens, strength, by, links in mentions:
            # a weaker mention by a namer already recorded changes nothing
            weaker = strength <= out.get(src.id, 0.0) and by in named_by.get(src.id, ())
            if by == src.id or strength <= 0.0 or weaker:
                continue
            # The corpus links the entry from this text: a mention in any case counts.
            linked = src.title in links
            # a comma ends a name ("in Sirte, Libya" names *Libya*), but within a title
            words = [t for t in tokens if t != ","] if "," in src.title else tokens
            if (common and not linked) or not mentions_name(words, name, linked=linked):
                continue
            if not sense or sense & term_set(" ".join(tokens)):
                named_by.setdefault(src.id, set()).add(by)
                out[src.id] = max(out.get(src.id, 0.0), strength)
    return out


def _answer_mentions(
    i: int,
    parts: list[Part],
    texts: tuple[
        dict[tuple[str, int], tuple[float, list[tuple[float, str]]]], dict[str, list[str]]
    ],
    answerers: dict[int, list[SourceText]],
    tie: tuple[list[SourceText], set[str]],
) -> list[tuple[list[str], float, str, set[str]]]:
    """The best three statements of each answerer of part ``i`` (and, for a part pointing
    back, of the first and the previous part, weighed by how much they speak to its own
    words): their tokens, strength, source id and the source's links. ``tie``: the
    earlier answers a pointing part's own answerers must be tied to, and the question's
    words."""
    statement, said = texts
    earlier, question = tie
    referenced = [i, *([0, i - 1] if parts[i].refers_back and i > 0 else [])]
    mentions: list[tuple[list[str], float, str, set[str]]] = []
    for j in dict.fromkeys(referenced):
        for rank, src in enumerate(answerers[j]):
            if j == i and earlier and not tied(src, earlier, said, question):
                continue
            links = set(src.links)
            for score, unit in statement[(src.id, j)][1][:3]:
                strength = score / (1 + rank)
                if j != i:
                    strength *= CHAIN_SHARE * own_share(parts[i], term_set(unit))
                mentions.append((_placed_apart(unit), strength, src.id, links))
    return mentions
