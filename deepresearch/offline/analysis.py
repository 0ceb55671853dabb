"""Offline analysis: findings per question part, from the sources that answer that part.

Each part of the question (see ``parts``) is matched against every statement of every
gathered source, words weighted by how rare they are among the gathered texts. A source
is kept for a part only above a relevance floor; its best statements for that part become
findings (category = the part, so the report's sections follow the question). A part that
no source answers becomes an open gap, with a query to research it."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from deepresearch.offline.parts import (
    BORROWED_SHARE,
    NAME_JOINERS,
    Part,
    asks_for_entity,
    bridge_entities,
    entities,
    own_share,
    question_parts,
)
from deepresearch.offline.statements import statement_terms, statements
from deepresearch.providers import vectors
from deepresearch.roles import (
    AnalysisOutput,
    AnalyzeInputs,
    FindingDraft,
    GapDraft,
    QualityUpdate,
    SourceText,
)
from deepresearch.text import (
    TITLE_QUALIFIER,
    cited_lines,
    jaccard,
    keywords,
    stem,
    term_set,
    title_phrases,
    word_root,
)

MAX_FINDINGS = 30
SOURCES_PER_PART = 5
FINDINGS_PER_SOURCE = 3
RELEVANCE_FLOOR = 0.2  # a source's combined score for a part must reach this
MIN_STATEMENT_MATCH = 0.1  # a kept source states something about the part itself
# ... unless the statements that answer the part name it (at this strength): the entry on
# the answer of "which artist carved …" need not repeat the question's words.
ANSWER_NAMED = 0.1
RELATIVE_FLOOR = 0.5  # ... and this share of the best source's score for the part
AGREEMENT = 0.5  # idf-weighted share of a statement's words another document must hold
TWIN = 0.5  # word overlap (Jaccard) at which two statements say the same
MIN_AGREEING_TERMS = 4
BRIDGE_WEIGHT = 0.4  # a source named by the statements that answer a part
CHAIN_SHARE = 0.7  # ... named by the answer of the part that a part points back to
FULL_NAME_SHARE = 0.7  # a title that is a longer form of a name the part gives, or an alias
OPENING_WEIGHT = 0.3  # an entry whose opening statement fits what an entity part describes
UNTIED_SHARE = 0.7  # of its score, for an entry not tied to the answer a part points back to
_TOKEN = re.compile(r"[^\W\d_][\w'\-]*|\d[\w\-]*")


@dataclass
class SourceScores:
    """Per (source id, part index): the combined score, and two of its signals alone —
    the bridged strength (named by the part's answering statements) and the opening
    match (the entry opens by describing what the part asks for)."""

    total: dict[tuple[str, int], float]
    bridged: dict[tuple[str, int], float]
    opening: dict[tuple[str, int], float]


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


class Weights:
    """Inverse document frequency of words over the gathered texts: a word every source
    uses says little about which one answers."""

    def __init__(self, texts: list[set[str]]) -> None:
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
        return math.log(1 + (self.n + 1) / (self.df.get(term, 0) + 0.5))

    def match(self, part: set[str], terms: set[str]) -> float:
        """The idf-weighted share of ``part``'s words that ``terms`` contains (0 to 1).

        Args:
            part: the words asked for.
            terms: the words of a statement.
        """
        total = sum(self.idf(t) for t in part)
        return sum(self.idf(t) for t in part & terms) / total if total else 0.0

    def part_match(self, part: Part, terms: set[str]) -> float:
        """Like ``match``, a part's borrowed words (the context of "where did *he*…")
        counting BORROWED_SHARE of its own: the answer is about what the part asks."""
        own = part.own or part.terms
        weight = {t: self.idf(t) * (1.0 if t in own else BORROWED_SHARE) for t in part.terms}
        total = sum(weight.values())
        return sum(w for t, w in weight.items() if t in terms) / total if total else 0.0


def source_texts(inputs: AnalyzeInputs) -> dict[str, list[str]]:
    """Statements per source id: from compressed topics ('- text [n]' lines) when there
    are some, else from the source's own text."""
    by_citation = {s.citation: s.id for s in inputs.sources}
    out: dict[str, list[str]] = {}
    for topic in inputs.topics:
        for n, statement in cited_lines(topic.compressed):
            if n in by_citation:
                out.setdefault(by_citation[n], []).append(statement)
    for src in inputs.sources:
        if src.id not in out and src.text:
            out[src.id] = statements(src.text)
    # A source several researchers found is in several digests: each statement once.
    return {sid: list(dict.fromkeys(units)) for sid, units in out.items()}


def part_scores(
    parts: list[Part], sources: list[SourceText], units: dict[str, list[str]], weights: Weights
) -> dict[tuple[str, int], tuple[float, list[tuple[float, str]]]]:
    """(source id, part index) → (score, statements ranked for that part). A source's
    title counts as part of every statement: an entry on the thing asked about answers."""
    out: dict[tuple[str, int], tuple[float, list[tuple[float, str]]]] = {}
    for src in sources:
        title = term_set(src.title)
        for i, part in enumerate(parts):
            ranked = []
            for pos, unit in enumerate(units.get(src.id, [])):
                score = weights.part_match(part, statement_terms(unit) | title)
                ranked.append((score + (0.05 if pos == 0 else 0.0) - 0.002 * pos, unit))
            ranked.sort(key=lambda r: -r[0])
            best = ranked[0][0] if ranked else 0.0
            out[(src.id, i)] = (best, ranked)
    return out


def source_scores(
    parts: list[Part],
    sources: list[SourceText],
    units: dict[str, list[str]],
    statement: dict[tuple[str, int], tuple[float, list[tuple[float, str]]]],
    question: str,
) -> SourceScores:
    """How well each source answers each part: its best statement, its similarity to the
    part (dense vectors, when installed), whether the question names it (its title's
    words all in the question), whether sources that answer the part name it, and, for a
    part that asks for an entity, how well the source's opening statement describes it."""
    # A word of a longer name ("van" of "Antonie van Leeuwenhoek") does not name *Van*.
    names = [term_set(n) for n in entities(question)]
    named = _named_by_parts(parts, sources, names, units)
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
    for i in range(len(parts)):
        bridged = _bridged(i, parts, sources, statement, answerers, (term_set(question), names))
        named_by_answers.update({(sid, i): b for sid, b in bridged.items()})
        mentioned = " ".join(u for s in leaders[i] for _, u in statement[(s.id, i)][1][:3])
        mention_terms = term_set(mentioned)
        for s in sources:
            t = term_set(s.title)
            worded = bool(t) and t <= mention_terms and s not in leaders[i]
            out[(s.id, i)] = (
                0.6 * statement[(s.id, i)][0]
                + 0.25 * dense.get((s.id, i), 0.0)
                + 0.3 * named[(s.id, i)]
                + 0.2 * worded
                + BRIDGE_WEIGHT * bridged.get(s.id, 0.0)
                + OPENING_WEIGHT * opening.get((s.id, i), 0.0)
            )
        if parts[i].refers_back:
            _point_back(i, parts[i], sources, units, answerers, term_set(question), out, bridged)
            named_by_answers.update({(sid, i): b for sid, b in bridged.items()})
        answerers[i] = sorted(sources, key=lambda s: -out[(s.id, i)])[:SOURCES_PER_PART]
    return SourceScores(out, named_by_answers, opening)


def _named_by_parts(
    parts: list[Part], sources: list[SourceText], names: list[set[str]], units: dict[str, list[str]]
) -> dict[tuple[str, int], float]:
    """1 where a part names a source's title, FULL_NAME_SHARE where it gives a shorter
    form of the title's name or another name the source's statements use, else 0."""
    # In an entity question ("which emperor was buried with an army…") the common nouns
    # describe the answer; only the proper names it gives name an entry.
    nameable = [
        term_set(" ".join(title_phrases(p.text))) if asks_for_entity(p.text) else p.terms
        for p in parts
    ]
    named: dict[tuple[str, int], float] = {
        (s.id, i): float(_named(term_set(s.title), nameable[i], names))
        for s in sources
        for i in range(len(parts))
    }
    for i, part in enumerate(parts):
        for sid in _full_names(part, sources):
            named[(sid, i)] = max(named[(sid, i)], FULL_NAME_SHARE)
        for sid in _aliased(part, sources, units):
            named[(sid, i)] = max(named[(sid, i)], FULL_NAME_SHARE)
    return named


def _aliased(part: Part, sources: list[SourceText], units: dict[str, list[str]]) -> list[str]:
    """Entity linking by another name: the part gives a name of two words or more that no
    gathered title holds ("El Libertador"); the sources titled with a name whose statements
    use it as a name ("known as El Libertador") are the entries it stands for. A topic's
    page that mentions a product ("GitHub Actions") is not."""
    titles = [term_set(s.title) for s in sources]
    out: list[str] = []
    for phrase in entities(part.text):
        words = [w.lower().strip("'") for w in _TOKEN.findall(phrase)]
        terms = term_set(phrase)
        if len(words) < 2 or any(terms <= t for t in titles):
            continue
        for s in sources:
            said = _TOKEN.findall(" ".join(units.get(s.id, [])))
            if _is_name(s.title) and _names(said, words):
                out.append(s.id)
    return out


def _point_back(
    i: int,
    part: Part,
    sources: list[SourceText],
    units: dict[str, list[str]],
    answerers: dict[int, list[SourceText]],
    asked: set[str],
    out: dict[tuple[str, int], float],
    bridged: dict[str, float],
) -> None:
    """Scores for part ``i``, which points back ("who founded *it*"): its "it" is what the
    first and the previous part found. A statement naming one of those answers with the
    part's own words answers the part ("regarded as the founder of Sikhism"), as strongly
    as a bridge (and is kept like one); an entry not tied to the three best answers keeps
    UNTIED_SHARE of its score: evidence is tied to the answer, not only worded alike."""
    first, previous = answerers[0], answerers[i - 1]
    earlier = first[:3] + [s for s in previous[:3] if s not in first[:3]]
    for s in sources:
        if s.id not in bridged and not _tied(s, earlier, units, asked):
            out[(s.id, i)] *= UNTIED_SHARE
    answers = first + [s for s in previous if s not in first]
    for sid, share in _resolved(part, answers, sources, units).items():
        out[(sid, i)] += BRIDGE_WEIGHT * share
        bridged[sid] = max(bridged.get(sid, 0.0), share)


def _resolved(
    part: Part, answers: list[SourceText], sources: list[SourceText], units: dict[str, list[str]]
) -> dict[str, float]:
    """Per source: the largest share of the part's own words (by root: "founder" for
    "founded") that one of its statements holds while naming another source among the
    ``answers`` the part points back to."""
    own = {word_root(t) for t in part.own}
    if not own:
        return {}
    names = [(a, _name_words(a.title)) for a in answers]
    out: dict[str, float] = {}
    for s in sources:
        for unit in units.get(s.id, []):
            share = len(own & {word_root(t) for t in statement_terms(unit)}) / len(own)
            if share <= out.get(s.id, 0.0):
                continue
            said = _TOKEN.findall(unit)
            if any(a.id != s.id and _names(said, n, linked=a.title in s.links) for a, n in names):
                out[s.id] = share
    return out


def _tied(
    src: SourceText, earlier: list[SourceText], units: dict[str, list[str]], asked: set[str]
) -> bool:
    """Whether ``src`` is tied to one of the ``earlier`` answers: it is one, either names
    the other (in the gathered statements or by corpus link), or their titles share a
    word the question does not give (*Edmond Halley*, *Halley's Comet*). A passage from
    the middle of a file is tied by its file, which this cannot see: always tied."""
    if src in earlier or not _opens_document(src):
        return True
    own = _name_words(src.title)
    said = _TOKEN.findall(" ".join(units.get(src.id, [])))
    for other in earlier:
        if src.title in other.links or other.title in src.links:
            return True
        if (term_set(src.title) & term_set(other.title)) - asked:
            return True
        if _names(said, _name_words(other.title), linked=other.title in src.links):
            return True
        other_said = _TOKEN.findall(" ".join(units.get(other.id, [])))
        if _names(other_said, own, linked=src.title in other.links):
            return True
    return False


def _name_words(title: str) -> list[str]:
    """A title's words as a name, lower-cased, without its bracketed qualifier."""
    return [w.lower() for w in _TOKEN.findall(TITLE_QUALIFIER.sub("", title))]


def _opens_document(src: SourceText) -> bool:
    """A whole entry or a file's first passage: it opens by saying what it is about. A
    passage from the middle of a long file (cited as file#Lfirst-last) opens where its
    section does, and is tied to other passages by its file, not by names."""
    fragment = src.url.partition("#")[2]
    return not fragment.startswith("L") or fragment.startswith("L1-")


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
            if not _opens_document(s):
                continue
            first = units.get(s.id, [])[:1]
            scored = [score for score, unit in statement[(s.id, i)][1] if unit in first]
            if scored:
                out[(s.id, i)] = scored[0]
    return out


def _bridged(
    i: int,
    parts: list[Part],
    sources: list[SourceText],
    statement: dict[tuple[str, int], tuple[float, list[tuple[float, str]]]],
    answerers: dict[int, list[SourceText]],
    asked: tuple[set[str], list[set[str]]],
) -> dict[str, float]:
    """Sources that the best statements about part ``i`` name (as a name, capitalised, not
    a common noun: *Army* is not named by "an army of clay soldiers"), as strongly as the
    naming statement answers; for a part that points back ("the river *it* dams"), also
    those the answers to the first and the previous part name in a statement that also
    speaks to this part's own words (the hop's next entity)."""
    given = asked[1]
    referenced = [i, *([0, i - 1] if parts[i].refers_back else [])]
    mentions: list[tuple[list[str], float, str, set[str]]] = []
    for j in dict.fromkeys(referenced):
        for rank, src in enumerate(answerers[j]):
            links = set(src.links)
            for score, unit in statement[(src.id, j)][1][:3]:
                strength = score / (1 + rank)
                if j != i:
                    strength *= CHAIN_SHARE * own_share(parts[i], term_set(unit))
                mentions.append((_TOKEN.findall(unit), strength, src.id, links))
    out: dict[str, float] = {}
    for src in sources:
        title = term_set(src.title)
        if _named(title, *asked) or any(n and n <= title for n in given):
            continue  # the question names it ("Atlantic" names *Atlantic Ocean*): no hop
        name = _name_words(src.title)
        # A disambiguated title (*Don (river)*) is named only where its context is too.
        sense = title - term_set(" ".join(name))
        for tokens, strength, by, links in mentions:
            if by == src.id or strength <= out.get(src.id, 0.0):
                continue
            # The corpus links the entry from this text: a mention in any case counts.
            if not _names(tokens, name, linked=src.title in links):
                continue
            if not sense or sense & term_set(" ".join(tokens)):
                out[src.id] = strength
    return out


def _names(tokens: list[str], name: list[str], *, linked: bool = False) -> bool:
    """The tokens contain ``name`` as a phrase with a capitalised word in it ("ancient
    Greece" names *Ancient Greece*), not counting a sentence's first word; in any case
    when the corpus ``linked`` the entry from this text ("bamboo" names *Bamboo*)."""
    n = len(name)
    if not n:
        return False
    wanted = [stem(w.removesuffix("'s")) for w in name]
    for k in range(len(tokens) - n + 1):
        span = tokens[k : k + n]
        capital = any(t[:1].isupper() for j, t in enumerate(span) if k + j > 0)
        if not (capital or linked):
            continue
        said = [stem(t.lower().removesuffix("'s")) for t in span]
        if said == wanted and not _longer(tokens, k, n):
            return True
    return False


def _longer(tokens: list[str], k: int, n: int) -> bool:
    """The one-word span ``tokens[k]`` is only part of a longer capitalised name ("Don" of
    "Don Bradman" does not name *Don (river)*; "Eastern Han dynasty" names *Han dynasty*)."""
    if n > 1:
        return False
    before = k > 1 and tokens[k - 1][:1].isupper()
    after = k + n < len(tokens) and tokens[k + n][:1].isupper()
    return before or after


def _full_names(part: Part, sources: list[SourceText]) -> list[str]:
    """Entity linking by a name's longer form: the part says "Bach", an entry is titled
    *Johann Sebastian Bach* (a title that is itself a name). Per name the shortest such
    title, and none when an entry has the name exactly."""
    linked: list[str] = []
    titles = {s.id: term_set(s.title) for s in sources}
    for phrase in title_phrases(part.text):
        name = term_set(phrase)
        if not name or any(t == name for t in titles.values()):
            continue
        longer = [s for s in sources if name < titles[s.id] and _is_name(s.title)]
        if longer:
            linked.append(min(longer, key=lambda s: len(titles[s.id])).id)
    return linked


def _is_name(title: str) -> bool:
    """Every word capitalised (or a joining word such as "van"): a name, not a topic
    (*Piano sonatas (Beethoven)*)."""
    words = title.split()
    return bool(words) and all(w[:1].isupper() or w in NAME_JOINERS for w in words)


def _named(title: set[str], nameable: set[str], names: list[set[str]]) -> bool:
    """The part names this title: all its words (by root: "cricketers" names *Cricket*),
    and not only as words of a longer name."""
    if not title or not {word_root(t) for t in title} <= {word_root(t) for t in nameable}:
        return False
    return not any(title < name for name in names) or any(title == n for n in names)


def _dense(
    parts: list[Part], sources: list[SourceText], units: dict[str, list[str]]
) -> dict[tuple[str, int], float]:
    embedder = vectors.load_embedder()
    if embedder is None or not sources:
        return {}
    docs = embedder.embed([f"{s.title}. " + " ".join(units[s.id][:4]) for s in sources])
    asks = embedder.embed([p.text for p in parts])
    sims = docs @ asks.T
    return {
        (s.id, i): max(0.0, float(sims[j, i]))
        for j, s in enumerate(sources)
        for i in range(len(parts))
    }


def analyze(inputs: AnalyzeInputs) -> AnalysisOutput:
    """The offline analyzer: findings per question part from the statements that answer
    it best, sources rated by length and relevance, and unanswered parts as gaps.

    Args:
        inputs: the analyzer's inputs.
    """
    parts = question_parts(inputs.question)
    units = source_texts(inputs)
    sources = [s for s in inputs.sources if units.get(s.id)]
    bag = {s.id: statement_terms(s.title + " " + " ".join(units[s.id])) for s in sources}
    weights = Weights(list(bag.values()))
    statement = part_scores(parts, sources, units, weights)
    scores = source_scores(parts, sources, units, statement, inputs.question)
    guidance = term_set(" ".join(inputs.guidance))
    known = [term_set(k) for k in inputs.known_findings]
    chosen: list[Candidate] = []
    kept_for: dict[int, list[str]] = {}
    for i, _part in enumerate(parts):
        kept = _kept(i, sources, scores, statement)
        kept_for[i] = [s.id for s in kept]
        for rank, src in enumerate(kept):
            taken = 0
            for score, unit in statement[(src.id, i)][1]:
                terms = term_set(unit)
                if taken >= FINDINGS_PER_SOURCE:
                    break
                if any(jaccard(terms, k) >= 0.6 for k in known):
                    continue
                # The same statement may answer two parts, but each part lists it once.
                twins = [c for c in chosen if jaccard(terms, c.terms) >= 0.5]
                if any(c.part == i for c in twins) or (twins and taken):
                    continue
                bonus = 0.5 * len(terms & guidance) / (len(guidance) or 1)
                order = scores.total[(src.id, i)] + score + bonus - 0.01 * rank
                chosen.append(Candidate(unit, src.id, i, order, terms))
                taken += 1
    relevant = {sid for ids in kept_for.values() for sid in ids}
    documents = {s.id: s.url.split("#", 1)[0] for s in sources}
    for cand in chosen:
        cand.supporters = {cand.source_id} | _agreeing(cand, bag, weights, documents)
    chosen = _within_limit(chosen)
    # A digested source arrives with its text in the compressed topics, not in .text.
    length = {sid: sum(len(u) + 1 for u in us) for sid, us in units.items()}
    quality = {
        s.id: _quality(length.get(s.id, len(s.text)), s.id in relevant) for s in inputs.sources
    }
    findings = [
        FindingDraft(
            content=c.text,
            confidence=_confidence(c, quality),
            source_ids=sorted(c.supporters, key=lambda sid: (sid != c.source_id, sid)),
            category=parts[c.part].text,
        )
        for c in chosen
    ]
    gaps = _gaps(inputs, parts, kept_for, sources, units, findings)
    updates = [QualityUpdate(source_id=sid, quality=q) for sid, q in quality.items()]
    return AnalysisOutput(findings=findings, gaps=gaps, quality_updates=updates)


def _kept(
    i: int,
    sources: list[SourceText],
    scores: SourceScores,
    statement: dict[tuple[str, int], tuple[float, list[tuple[float, str]]]],
) -> list[SourceText]:
    """The sources that answer part ``i``: above the relevance floor (absolute and
    relative to the part's best), stating something about the part or named by the
    statements that answer it, from several sides."""
    total = scores.total
    ranked = sorted(sources, key=lambda s: (-total[(s.id, i)], s.citation))
    # The relative floor leaves the opening match out: an entry that opens by describing
    # the part's context ("the statue of the hero who slew Goliath") must not lift the
    # bar above the answer its text names ("carved by Michelangelo").
    best = max(
        (total[(s.id, i)] - OPENING_WEIGHT * scores.opening.get((s.id, i), 0.0) for s in ranked),
        default=0.0,
    )
    floor = max(RELEVANCE_FLOOR, RELATIVE_FLOOR * best)
    above = [
        s
        for s in ranked
        if total[(s.id, i)] >= floor
        and (
            statement[(s.id, i)][0] >= MIN_STATEMENT_MATCH
            or scores.bridged.get((s.id, i), 0.0) >= ANSWER_NAMED
        )
    ]
    kept = _diverse(above, [statement[(s.id, i)][1] for s in above])
    # The source with the part's best statement answers it most directly, whatever the
    # other signals say: it is kept (in place of the last one when the part is full),
    # unless other sources state the part as well (a tie says nothing about which).
    best_said = sorted((statement[(s.id, i)][0], s.citation, s) for s in above)[::-1]
    if best_said and (len(best_said) == 1 or best_said[0][0] > best_said[1][0]):
        direct = best_said[0][2]
        if direct not in kept:
            kept = [*kept[: SOURCES_PER_PART - 1], direct]
    return kept


def _within_limit(chosen: list[Candidate]) -> list[Candidate]:
    """At most MAX_FINDINGS, best first within each part, the limit taken round by round
    across parts (every part's best, then every part's second, ...) so that it never
    drops a later part of the question."""
    by_part: dict[int, list[Candidate]] = {}
    for cand in sorted(chosen, key=lambda c: (c.part, -c.score)):
        by_part.setdefault(cand.part, []).append(cand)
    place = {id(c): n for group in by_part.values() for n, c in enumerate(group)}
    kept = sorted(chosen, key=lambda c: (place[id(c)], c.part))[:MAX_FINDINGS]
    return sorted(kept, key=lambda c: (c.part, place[id(c)]))


def _diverse(ranked: list[SourceText], answers: list[list[tuple[float, str]]]) -> list[SourceText]:
    """Up to SOURCES_PER_PART sources in rank order, a source whose best statement repeats
    (nearly) that of a source already kept going after the others: the part's evidence
    from several sides before more of the same (maximal marginal relevance, simply)."""
    firsts: list[set[str]] = []
    kept: list[SourceText] = []
    later: list[SourceText] = []
    for src, ranked_units in zip(ranked, answers, strict=True):
        first = term_set(ranked_units[0][1]) if ranked_units else set()
        if any(jaccard(first, f) >= TWIN for f in firsts):
            later.append(src)
            continue
        firsts.append(first)
        kept.append(src)
    return (kept + later)[:SOURCES_PER_PART]


def _agreeing(
    cand: Candidate, bag: dict[str, set[str]], weights: Weights, documents: dict[str, str]
) -> set[str]:
    """Other documents (not passages of the same file) that state the same: they hold most
    of the statement's words, weighted by rarity, so the names, numbers and rare words
    that make it specific count most and the words every source uses count little. One
    passage per document (its best): a long file's passages confirm once, and do not use
    up the report's citations."""
    if len(cand.terms) < MIN_AGREEING_TERMS:
        return set()
    own = documents.get(cand.source_id)
    best: dict[str, tuple[float, str]] = {}
    for sid, terms in bag.items():
        document = documents.get(sid, sid)
        if sid == cand.source_id or document == own:
            continue
        share = weights.match(cand.terms, terms)
        if share >= AGREEMENT and share > best.get(document, (0.0, ""))[0]:
            best[document] = (share, sid)
    return {sid for _, sid in best.values()}


def _quality(length: int, relevant: bool) -> str:
    """A proxy without knowing the publisher: substantial, on-topic text rates higher."""
    if relevant and length >= 200:
        return "high"
    if relevant or length >= 400:
        return "medium"
    return "low"


def _confidence(cand: Candidate, quality: dict[str, str]) -> str:
    strong = sum(1 for sid in cand.supporters if quality.get(sid) == "high")
    n = len(cand.supporters)
    if n >= 3 and strong >= 2:
        return "confirmed"
    if n >= 2 and strong >= 1:
        return "high"
    if n >= 2 or quality.get(cand.source_id) == "high":
        return "medium"
    return "low"


def _gaps(
    inputs: AnalyzeInputs,
    parts: list[Part],
    kept_for: dict[int, list[str]],
    sources: list[SourceText],
    units: dict[str, list[str]],
    findings: list[FindingDraft],
) -> list[GapDraft]:
    """One gap per part that no source answers (with a bridge entity to follow when an
    earlier part's sources name one), and per reviewer note not yet answered."""
    answered_before = set(inputs.known_findings)
    titles = [s.title for s in sources]
    gaps: list[GapDraft] = []
    for i, part in enumerate(parts):
        if kept_for.get(i) or any(f.category == part.text for f in findings):
            continue
        if any(part.text in k for k in answered_before):
            continue
        earlier = [sid for j in range(i) for sid in kept_for.get(j, [])]
        texts = [" ".join(units[sid]) for sid in earlier]
        leads = bridge_entities(part, texts, titles, inputs.question) if texts else []
        queries = [f"{lead} {' '.join(keywords(part.text)[:4])}" for lead in leads]
        gaps.append(
            GapDraft(
                description=f"No source found answers this part of the question: {part.text}",
                suggested_queries=[*queries, part.query],
                priority=1,
            )
        )
    covered = {t for f in findings for t in term_set(f.content)}
    for note in inputs.guidance:
        terms = [w for w in keywords(note) if stem(w) not in covered]
        if terms:
            gaps.append(
                GapDraft(
                    description=f"Reviewer guidance not yet answered: {note}",
                    suggested_queries=[" ".join(terms[:6])],
                    priority=1,
                )
            )
    return gaps[:4]
