"""How well each gathered source answers each part of the question (offline analysis).

Every statement of every source is matched against each part, words weighted by how rare
they are among the gathered texts; a source's score for a part adds its similarity to
the part (dense vectors, when installed), whether the question names it, whether the
statements that answer the part name it (bridges), and, for parts that ask for an entity
or point back to an earlier part, how its opening and its ties to the earlier answer fit.
``analysis`` keeps the best sources per part and turns their statements into findings."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Collection
from dataclasses import dataclass

from deepresearch.offline import hops
from deepresearch.offline.answer_kinds import answer_kind, gives, unstated_superlative
from deepresearch.offline.asking import (
    asks_for_entity,
    main_clause,
)
from deepresearch.offline.bridges import BORROWED_SHARE, entities
from deepresearch.offline.mentions import (
    TOKEN,
    describes_otherwise,
    document_names,
    full_names,
    is_name,
    mentions_name,
    opens_document,
    title_named,
)
from deepresearch.offline.parts import Part
from deepresearch.offline.quotes import CODE
from deepresearch.offline.referents import expletive
from deepresearch.offline.relations import party_names
from deepresearch.offline.statements import signposts, statement_terms
from deepresearch.offline.wording import Wording
from deepresearch.providers import vectors
from deepresearch.roles import SourceText
from deepresearch.text import stem, term_set, title_phrases, words

SOURCES_PER_PART = 5  # sources kept per part; also a part's answerers while scoring
FULL_NAME_SHARE = 0.7  # a title that is a longer form of a name the part gives, or an alias
PLACING_SHARE = 0.5  # a title a part gives only to place what it asks about
OPENING_WEIGHT = 0.3  # an entry whose opening statement fits what an entity part describes
# Of its match, for a lead-in ("Let's see what's inside the build script:"): it says what
# follows, not the thing itself, and what follows is stated with it or after it.
LEAD_IN_SHARE = 0.7
# ... and for a statement about the text itself ("Finally, we'll discuss lifetimes: …"):
# it says what the text does, where a statement beside it says what the thing is.
SIGNPOST_SHARE = 0.5


@dataclass
class SourceScores:
    """Per (source id, part index): the combined score, and two of its signals alone —
    the bridged strength (named by the part's answering statements) and the opening
    match (the entry opens by describing what the part asks for) — and, for a source
    bridged by the part's own answers, the ids of the sources whose statements name it."""

    total: dict[tuple[str, int], float]
    bridged: dict[tuple[str, int], float]
    opening: dict[tuple[str, int], float]
    namers: dict[tuple[str, int], set[str]]


class Weights:
    """Inverse document frequency of words over the gathered texts: a word every source
    uses says little about which one answers. ``everyday``: the share of its weight a word
    no gathered text uses keeps for how common it is in English (``commonness``); without
    it, such a word weighs most, as the rarest."""

    def __init__(
        self, texts: list[set[str]], everyday: Callable[[str], float] | None = None
    ) -> None:
        self.everyday = everyday
        self.n = len(texts)
        self.df: dict[str, int] = {}
        for terms in texts:
            for t in terms:
                self.df[t] = self.df.get(t, 0) + 1

    def idf(self, term: str) -> float:
        """How rare ``term`` is among the gathered texts (higher = says more).

        Args:
            term: a word.
        """
        df = self.df.get(term, 0)
        idf = math.log(1 + (self.n + 1) / (df + 0.5))
        return idf * self.everyday(term) if self.everyday and not df else idf

    def match(self, part: set[str], terms: set[str]) -> float:
        """The idf-weighted share of ``part``'s words that ``terms`` contains (0 to 1).

        Args:
            part: the words asked for.
            terms: the words of a statement.
        """
        # fsum: a sum over a set in any order, so equal statements tie in every process
        total = math.fsum(self.idf(t) for t in part)
        return math.fsum(self.idf(t) for t in part & terms) / total if total else 0.0

    def part_match(self, part: Part, terms: set[str]) -> float:
        """Like ``match``, a part's borrowed words (the context of "where did *he*…")
        counting BORROWED_SHARE of its own: the answer is about what the part asks."""
        own = part.own or part.terms
        weight = {t: self.idf(t) * (1.0 if t in own else BORROWED_SHARE) for t in part.terms}
        weight |= {t: self.idf(t) * BORROWED_SHARE for t in part.story_terms}
        total = math.fsum(weight.values())
        said = math.fsum(w for t, w in weight.items() if t in terms or _pieces_said(t, terms))
        return said / total if total else 0.0


def _pieces_said(term: str, terms: set[str]) -> bool:
    """Whether a hyphenated ``term`` is said in ``terms`` as its separate words
    ("second-highest" by "the second highest mountain")."""
    pieces = term.split("-")
    return len(pieces) > 1 and all(stem(p) in terms for p in pieces if p)


def part_scores(
    parts: list[Part], sources: list[SourceText], units: dict[str, list[str]], weights: Weights
) -> dict[tuple[str, int], tuple[float, list[tuple[float, str]]]]:
    """(source id, part index) → (score, statements ranked for that part). A source's
    title counts as part of every statement: an entry on the thing asked about answers.
    Names and quoted phrases count as the question writes them (see ``wording``)."""
    wording = Wording.of(parts, [s.title for s in sources])
    asked = set(words(" ".join(p.text for p in parts)))
    kinds = [answer_kind(p.text, names=True) for p in parts]
    negations = [not p.scene and asks_negated(p.text) for p in parts]
    any_negated = any(negations)  # statements are scanned for a "no" only then
    out: dict[tuple[str, int], tuple[float, list[tuple[float, str]]]] = {}
    stated = {s.id: [wording.stated(u, s.title) for u in units.get(s.id, [])] for s in sources}
    told = _told_around(sources, stated) if any(p.story for p in parts) else {}
    for src in sources:
        said, its_units = stated[src.id], units.get(src.id, [])
        shares = [_share(unit) for unit in its_units]
        # each statement's own words, without its title's (which count for all of them)
        own = [statement_terms(u) for u in its_units]
        code = [t if u.startswith(CODE) else None for u, t in zip(its_units, own, strict=True)]
        bare = own if src.lines else []  # in a passage: a whole entry's title is its subject
        negated = [any_negated and NEGATION.search(u) is not None for u in its_units]
        # In a passage of a longer file a pointing word stands for what the sentence
        # before it spoke of; in a whole entry, mostly for the entry's own subject, whose
        # title counts for every statement already.
        context = _antecedents(its_units, said, passage=src.lines is not None)
        known = asked | set(words(src.title))
        opening = its_units[:1] if opens_document(src) else []
        every = told.get(src.id, set())
        passage = [weights.part_match(p, every) if p.story else 0.0 for p in parts]
        for i, part in enumerate(parts):
            kind = kinds[i]
            denied = negations[i]
            # an entry describing itself as another kind of thing than the one asked for
            # ("a Japanese Buddhist monk" for "Which Austrian monk") answers it less
            fit = OTHERWISE_SHARE if opening and describes_otherwise(part.text, opening[0]) else 1.0
            ranked = []
            for pos, (unit, terms) in enumerate(zip(its_units, said, strict=True)):
                score = weights.part_match(part, terms)
                if context[pos]:
                    whole = weights.part_match(part, terms | context[pos])
                    score += INHERITED_SHARE * (whole - score)
                if part.story:
                    score += STORY_PASSAGE_SHARE * max(0.0, passage[i] - score)
                score *= shares[pos] * fit
                if denied and negated[pos]:
                    # "which one should not be committed": "Do not commit the .pdm-python
                    # file" answers it, "You must commit the pyproject.toml file" the other
                    score *= NEGATION_GAIN
                if (said_in_code := code[pos]) is not None and not said_in_code & part.terms:
                    score -= CODE_BY_TITLE  # a code line matched by its heading alone
                ranked.append((score + (0.05 if pos == 0 else 0.0) - 0.002 * pos, unit))
            best = max((r[0] for r in ranked), default=0.0)
            if bare:
                ranked = _own_words_first(ranked, part, (bare, context), weights)
            given = {u for sc, u in ranked if kind and sc > 0 and gives(u, kind, known, part.text)}
            ranked.sort(key=lambda r: -(r[0] + (ANSWER_KIND_BONUS if r[1] in given else 0.0)))
            out[(src.id, i)] = (best, ranked)
    return out


def _own_words_first(
    ranked: list[tuple[float, str]],
    part: Part,
    said: tuple[list[set[str]], list[set[str]]],
    weights: Weights,
) -> list[tuple[float, str]]:
    """A passage's statements (``ranked``, in passage order) each raised by
    OWN_WORDS_SHARE of its match to ``part`` by the words it says itself (``said``: per
    statement, its own words and those of what it points back to), not its heading's."""
    bare, context = said
    return [
        (score + OWN_WORDS_SHARE * weights.part_match(part, bare[pos] | context[pos]), unit)
        for pos, (score, unit) in enumerate(ranked)
    ]


def _told_around(
    sources: list[SourceText], stated: dict[str, list[set[str]]]
) -> dict[str, set[str]]:
    """Per source, the words of its statements and of the gathered passages of its document
    just before and after it: a part asking about the asker's story as a whole is answered
    where a stretch of the document tells that story (its problem in one section, the fix
    in the next), which no one statement says all of."""
    by_document: dict[str, list[SourceText]] = {}
    for s in sources:
        by_document.setdefault(s.document, []).append(s)
    out: dict[str, set[str]] = {}
    for passages in by_document.values():
        passages.sort(key=lambda s: s.lines or (0, 0))
        for n, s in enumerate(passages):
            near = passages[max(0, n - 1) : n + 2] if s.lines else [s]
            out[s.id] = set().union(*(t for p in near for t in stated[p.id]))
    return out


STORY_PASSAGE_SHARE = 0.5  # of a statement's shortfall from its passage's match to a story
OTHERWISE_SHARE = 0.5  # of a statement's match, from an entry describing another kind

# A part asking in the negative ("which one should not be") is answered by a statement
# saying no: its match counts this many times.
NEGATION = re.compile(r"\b(?:not|never|cannot)\b|n['’]t\b", re.IGNORECASE)
NEGATION_GAIN = 1.5
NEGATION_WORDS = 6  # the question's negation comes this early ("why do my handlers never run")
# Words opening a clause of another kind than the question's own: a negation after them
# is the asker's circumstance ("if the keyring is not available", "but not bad status
# codes", "packages that do not report …").
_SUBORDINATE = frozenset({"if", "when", "whenever", "where", "that", "so", "because", "but", "unless", "while", "who", "which", "whose"})  # fmt: skip


def asks_negated(part: str) -> bool:
    """Whether the question ``part`` asks in the negative ("which one should not be",
    "Why doesn't uv trust …"): a negation among its first NEGATION_WORDS words, before any
    word opening another clause."""
    for n, word in enumerate(part.split()[:NEGATION_WORDS]):
        # "If not, what …" is a condition; "which one" asks, "the users who" goes on
        if word.lower().strip(",;:") in _SUBORDINATE and (n or word.lower() != "which"):
            return False
        if NEGATION.search(word):
            return True
    return False


# A code line that states none of a part's words matches it through its source's title
# alone: prose the title matches as well goes first (the explanation after `>>> def bar():`).
CODE_BY_TITLE = 0.02


# A statement opening with a word that points back ("This parameter is tunable through
# sys.setswitchinterval().", "It currently defaults to 5 milliseconds.") says it of what
# the statement before it spoke of: that one's words count for it too, at this share.
INHERITED_SHARE = 0.5
# So does one opening with a phrase that goes on from it ("In this case you should use
# `TestClient(app, raise_server_exceptions=False)`", "To do so, …", "If so, …").
_POINTS_BACK = re.compile(
    r"^(?:it|its|this|these|they|their|such|in (?:this|that|such a|either|which) case|"
    r"to do (?:this|that|so)|for (?:this|that)|if so|otherwise|instead)\b",
    re.IGNORECASE,
)


def _antecedents(units: list[str], said: list[set[str]], *, passage: bool) -> list[set[str]]:
    """Per statement of a ``passage``, the words of what it points back to: for one
    opening with "It", "This", "They"… (not "It is estimated that …"), the statement before
    it's, with what that one pointed back to in turn; else (and in a whole entry) none."""
    out: list[set[str]] = []
    for pos, unit in enumerate(units):
        back = passage and pos > 0 and bool(_POINTS_BACK.match(unit)) and not expletive(unit)
        out.append(said[pos - 1] | out[pos - 1] if back else set())
    return out


# Within a passage, a statement saying the part's words itself ranks as if it matched
# this share of them more than one matching through the heading alone ("Keep in mind
# that the invocation order … is not guaranteed" before "In summary, the pipeline is …",
# both under "Invocation Order", for "is the order they run in defined").
OWN_WORDS_SHARE = 0.1


# Within a source, a statement giving the kind of answer a part asks for (see
# ``answer_kinds``: a name for "which …" or "where", a date for "when", a number for "how
# many" …) ranks as if it matched this much more: "He also served as a civil servant for
# the Commonwealth of England under … Oliver Cromwell" before "Paradise Lost elevated
# Milton's reputation …".
ANSWER_KIND_BONUS = 0.05


def _share(unit: str) -> float:
    """Of a statement's match, the share it keeps: less for a lead-in or a signpost."""
    return (LEAD_IN_SHARE if unit.endswith(":") else 1.0) * (
        SIGNPOST_SHARE if signposts(unit) else 1.0
    )


def source_scores(
    parts: list[Part],
    sources: list[SourceText],
    units: dict[str, list[str]],
    statement: dict[tuple[str, int], tuple[float, list[tuple[float, str]]]],
    question: str,
    answered: Collection[str] = (),
) -> SourceScores:
    """How well each source answers each part: its best statement, its similarity to the
    part (dense vectors, when installed), whether the question names it (its title's
    words all in the question), whether sources that answer the part name it, and, for a
    part that asks for an entity, how well the source's opening statement describes it.
    ``answered``: the parts earlier iterations answered (see ``hops.point_back``)."""
    # A word of a longer name ("van" of "Antonie van Leeuwenhoek") does not name *Van*.
    names = [term_set(n) for n in entities(question)]
    said = {sid: TOKEN.findall(" ".join(us)) for sid, us in units.items()}  # once per source
    named = _named_by_parts(parts, sources, names, said, statement)
    dense = _dense(parts, sources, units)
    opening = _opening_match(parts, sources, units, statement)
    first = {
        (s.id, i): statement[(s.id, i)][0] + 0.3 * named[(s.id, i)]
        for s in sources
        for i in range(len(parts))
    }
    leaders = {i: sorted(sources, key=lambda s: -first[(s.id, i)])[:3] for i in range(len(parts))}
    # A part's answerers: its leaders while it is scored, then its best sources by score.
    answerers = dict(leaders)
    out: dict[tuple[str, int], float] = {}
    named_by_answers: dict[tuple[str, int], float] = {}
    namers: dict[tuple[str, int], set[str]] = {}
    for i in range(len(parts)):
        asked = (term_set(question), names)
        named_by: dict[str, set[str]] = {}
        bridged = hops.bridged(i, parts, sources, (statement, said), answerers, asked, named_by)
        for sid, strength in hops.naming_answer(parts[i], leaders[i], sources, units, said).items():
            bridged[sid] = max(bridged.get(sid, 0.0), strength)
            named_by.setdefault(sid, set()).add(leaders[i][0].id)
        named_by_answers.update({(sid, i): b for sid, b in bridged.items()})
        namers.update({(sid, i): by for sid, by in named_by.items()})
        stating = _stating_superlative(parts[i], sources, statement, i)
        worded = _worded(i, sources, leaders[i], statement)
        for s in sources:
            out[(s.id, i)] = (
                0.6 * statement[(s.id, i)][0]
                + 0.25 * dense.get((s.id, i), 0.0)
                + 0.3 * named[(s.id, i)]
                + 0.2 * (s.id in worded)
                + hops.BRIDGE_WEIGHT * bridged.get(s.id, 0.0)
                + OPENING_WEIGHT * opening.get((s.id, i), 0.0)
                + STATES_FIRST_WEIGHT * (s.id in stating)
            )
        if parts[i].refers_back:
            hops.point_back(
                i, parts[i], sources, (units, said), answerers, term_set(question), out, bridged,
                settled=parts[i - 1].text in answered,
            )  # fmt: skip
            named_by_answers.update({(sid, i): b for sid, b in bridged.items()})
        answerers[i] = sorted(sources, key=lambda s: -out[(s.id, i)])[:SOURCES_PER_PART]
    return SourceScores(out, named_by_answers, opening, namers)


def _worded(
    i: int,
    sources: list[SourceText],
    leaders: list[SourceText],
    statement: dict[tuple[str, int], tuple[float, list[tuple[float, str]]]],
) -> set[str]:
    """The ids of the sources (not ``leaders``) whose titles' words the leaders' best
    statements for part ``i`` all say: entries they name. Only by what sources of other
    documents say: a passage's statements word its own heading, which says nothing of
    another passage under it."""
    said = [
        (s.document, term_set(" ".join(u for _, u in statement[(s.id, i)][1][:3]))) for s in leaders
    ]
    # per document, what the leaders of the others say
    elsewhere = {
        doc: set().union(*(terms for d, terms in said if d != doc))
        for doc in {s.document for s in sources}
    }
    out: set[str] = set()
    for s in sources:
        title = term_set(s.title)
        if title and s not in leaders and title <= elsewhere[s.document]:
            out.add(s.id)
    return out


# A source saying the superlative a part asks ("Röntgen became the first recipient of the
# Nobel Prize in Physics"), where others only share its words ("received the Nobel Prize").
STATES_FIRST_WEIGHT = 0.2
STATING_REACH = 3  # of a source's statements ranked best for the part, those read


def _stating_superlative(
    part: Part,
    sources: list[SourceText],
    statement: dict[tuple[str, int], tuple[float, list[tuple[float, str]]]],
    i: int,
) -> set[str]:
    """The ids of the ``sources`` one of whose best statements for the part (the ``i``th)
    says the superlative it asks who is or which thing has (see
    ``answer_kinds.unstated_superlative``); none for a part asking neither, which that
    check leaves unasked even of no text."""
    if unstated_superlative(part.text, []) is None:
        return set()
    return {
        s.id
        for s in sources
        if any(
            sc > 0 and unstated_superlative(part.text, [u]) is None
            for sc, u in statement[(s.id, i)][1][:STATING_REACH]
        )
    }


def _named_by_parts(
    parts: list[Part],
    sources: list[SourceText],
    names: list[set[str]],
    said: dict[str, list[str]],
    statement: dict[tuple[str, int], tuple[float, list[tuple[float, str]]]],
) -> dict[tuple[str, int], float]:
    """1 where a part names a source's title (a one-word title it gives as a common noun:
    that word's share of the part), FULL_NAME_SHARE where it gives a shorter
    form of the title's name or another name the source's statements use, else 0."""
    # In an entity question ("which emperor was buried with an army…") the common nouns
    # describe the answer; only the proper names it gives name an entry.
    nameable = [
        term_set(" ".join(title_phrases(p.text))) if asks_for_entity(p.text) else p.terms
        for p in parts
    ]
    named: dict[tuple[str, int], float] = {
        (s.id, i): float(title_named(term_set(s.title), nameable[i], names))
        for s in sources
        for i in range(len(parts))
    }
    # A one-word title the question writes as a common noun ("gases" for *Gas*) names
    # the entry only as much as that word is of the part: "why do certain gases in the air
    # make a planet warmer" is not about *Gas*; "what is a gas" is.
    for s in sources:
        title = term_set(s.title)
        if len(title) != 1 or any(title <= n for n in names):
            continue
        for i, part in enumerate(parts):
            if named[(s.id, i)] == 1.0:
                named[(s.id, i)] = 1 / max(len(part.terms), 1)
    # A name that only places what a part asks about ("how tall do the Scandes get around
    # the Arctic Circle") names its entry less than the name of the thing asked about.
    for i, part in enumerate(parts):
        placing = _placing_names(part.text)
        for s in sources:
            if named[(s.id, i)] == 1.0 and any(term_set(s.title) == p for p in placing):
                named[(s.id, i)] = PLACING_SHARE
    # A story the asker opens with names what the question is about ("I put
    # GZipMiddleware in front of the app …. Will the event feed get compressed").
    told = term_set(" ".join(n for p in parts if p.scene for n in title_phrases(p.text)))
    for i, part in enumerate(parts):
        given = term_set(" ".join(title_phrases(part.text)))
        for sid in _named_documents(i, sources, given, names, statement):
            named[(sid, i)] = max(named[(sid, i)], FULL_NAME_SHARE)
        for sid in _named_sections(
            part, sources, set() if part.scene or part.refers_back else told, names
        ):
            named[(sid, i)] = max(named[(sid, i)], FULL_NAME_SHARE)
        for sid in full_names(part, sources):
            named[(sid, i)] = max(named[(sid, i)], FULL_NAME_SHARE)
        for sid in _aliased(part, sources, said):
            named[(sid, i)] = max(named[(sid, i)], FULL_NAME_SHARE)
    return named


def _placing_names(part: str) -> list[set[str]]:
    """The terms of each name ``part`` gives only to place what it asks about (see
    ``relations.party_names``), when it names that thing too; else none."""
    given = entities(part)
    parties = party_names(part, given)
    if not parties or len(parties) == len(given):
        return []
    return [term_set(n) for n in given if n not in parties]


def _named_sections(
    part: Part, sources: list[SourceText], told: set[str], names: list[set[str]]
) -> list[str]:
    """Entity linking for a long file's sections: the passages headed by a name the part
    asks about (in its main clause, not "… a solution that avoids PyPI") or the asker's
    story gave (``told``): "GZipMiddleware" names *middleware › GZipMiddleware*."""
    given = term_set(" ".join(title_phrases(main_clause(part.text)))) | told
    return [
        s.id
        for s in sources
        if " › " in s.title and title_named(term_set(s.title.rsplit(" › ", 1)[1]), given, names)
    ]


def _named_documents(
    i: int,
    sources: list[SourceText],
    nameable: set[str],
    names: list[set[str]],
    statement: dict[tuple[str, int], tuple[float, list[tuple[float, str]]]],
) -> list[str]:
    """Entity linking for a long file's passages: a name the part gives names the document ("the
    difference between Rc<T> and Arc<T>" names the chapter "Rc<T>, the Reference Counted
    Smart Pointer"). One passage per document stands for it, the one stating the part
    best: the others are sections the part did not ask for."""
    best: dict[str, str] = {}
    for s in sources:
        if any(title_named(d, nameable, names) for d in document_names(s.title)):
            doc = s.document
            if doc not in best or statement[(s.id, i)][0] > statement[(best[doc], i)][0]:
                best[doc] = s.id
    return list(best.values())


def _aliased(part: Part, sources: list[SourceText], said: dict[str, list[str]]) -> list[str]:
    """Entity linking by another name: the part gives a name that no gathered title holds;
    the sources titled with a name whose statements use it as a name ("known as El
    Libertador") are the entries it stands for, of two words or more. A topic's page that
    mentions a product ("GitHub Actions") is not. A name of one word ("Scandes") is so
    common a mention that only an entry opening with it as its subject's other name is."""
    titles = [term_set(s.title) for s in sources]
    out: list[str] = []
    for phrase in entities(part.text):
        words = [w.lower().strip("'") for w in TOKEN.findall(phrase)]
        if not words or any(term_set(phrase) <= t for t in titles):
            continue
        for s in sources:
            tokens = said.get(s.id, [])
            if not is_name(s.title):
                continue
            if mentions_name(tokens, words) if len(words) > 1 else _opens_as(tokens, words[0], s):
                out.append(s.id)
    return out


_OPENING_VERBS = frozenset({"is", "was", "are", "were"})
_OPENING_SUBJECT = 12  # the most words an entry's opening names its subject in


def _opens_as(tokens: list[str], name: str, source: SourceText) -> bool:
    """Whether an entry's opening (``tokens``: its statements' words) names its subject
    by its title and by ``name`` too, before its verb: "The Scandinavian Mountains or the
    Scandes is a mountain range", "Asmara, or Asmera, is the capital"."""
    lower = [t.lower() for t in tokens[:_OPENING_SUBJECT]]
    verb = next((k for k, t in enumerate(lower) if t in _OPENING_VERBS), None)
    if verb is None or name not in lower[:verb]:
        return False
    return term_set(source.title) <= term_set(" ".join(lower[:verb]))


def _opening_match(
    parts: list[Part],
    sources: list[SourceText],
    units: dict[str, list[str]],
    statement: dict[tuple[str, int], tuple[float, list[tuple[float, str]]]],
) -> dict[tuple[str, int], float]:
    """For a part that asks for something it does not name: how well each source's
    opening statement matches it. An entry opens by saying what it is ("X was the first
    Roman emperor"), so the entry whose opening fits the description is the answer."""
    out: dict[tuple[str, int], float] = {}
    for i, part in enumerate(parts):
        if not asks_for_entity(part.text):
            continue
        for s in sources:
            if not opens_document(s):
                continue
            first = units.get(s.id, [])[:1]
            scored = [score for score, unit in statement[(s.id, i)][1] if unit in first]
            if scored:
                out[(s.id, i)] = scored[0]
    return out


def _dense(
    parts: list[Part], sources: list[SourceText], units: dict[str, list[str]]
) -> dict[tuple[str, int], float]:
    embedder = vectors.load_embedder()
    if embedder is None or not sources:
        return {}
    docs = embedder.embed([f"{s.title}. " + " ".join(units[s.id][:4]) for s in sources])
    asks = embedder.embed([f"{p.story} {p.text}".strip() for p in parts])
    sims = docs @ asks.T
    return {
        (s.id, i): max(0.0, float(sims[j, i]))
        for j, s in enumerate(sources)
        for i in range(len(parts))
    }
