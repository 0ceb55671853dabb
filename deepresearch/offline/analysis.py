"""Offline analysis: findings per question part, from the sources that answer that part.

Each source is scored for each part of the question (see ``relevance``). A source is
kept for a part only above a relevance floor; its best statements for that part become
findings (category = the part, so the report's sections follow the question). A part that
no source answers becomes an open gap, with a query to research it."""

from __future__ import annotations

from deepresearch.offline.answer_kinds import answer_kind, gives
from deepresearch.offline.attributes import attribute_phrases
from deepresearch.offline.bridges import bridge_entities, prose_sentences
from deepresearch.offline.code_blocks import with_code_blocks, with_examples
from deepresearch.offline.commonness import everyday_share
from deepresearch.offline.copies import NEAR_COPY, near_copies
from deepresearch.offline.coverage import (
    borrowed_names,
    topic_roots,
)
from deepresearch.offline.mentions import names_cased
from deepresearch.offline.parts import Part, question_parts
from deepresearch.offline.quotes import QUOTES
from deepresearch.offline.relevance import (
    OPENING_WEIGHT,
    SOURCES_PER_PART,
    SourceScores,
    Weights,
    part_scores,
    source_scores,
)
from deepresearch.offline.roots import says_all, speaks_of_any, text_roots
from deepresearch.offline.siblings import other_kinds
from deepresearch.offline.statements import statement_terms, statements
from deepresearch.offline.unanswered import Candidate, on_given_only, unanswered_parts
from deepresearch.roles import (
    AnalysisOutput,
    AnalyzeInputs,
    FindingDraft,
    GapDraft,
    QualityUpdate,
    SourceText,
)
from deepresearch.text import (
    cited_lines,
    jaccard,
    keywords,
    term_of,
    term_set,
    word_root,
)

FINDINGS_PER_SOURCE = 3
# A part's findings, shared among the sources kept for it: a part that one or two sources
# answer is told from more of each, not left with three lines apiece.
PART_FINDINGS = 10
# The part's best source may give LEAD_EXTRA statements beyond its share: in a
# documentation page the answer often goes on past the sentences that share the question's
# words (a package ID's short form, `regex@1.4.3`, after the sentences saying what it is).
LEAD_EXTRA = 2
RELEVANCE_FLOOR = 0.2  # a source's combined score for a part must reach this
ANSWERED_PART_FLOOR = 0.12  # ... or this, for a part another source reaches RELEVANCE_FLOOR
MIN_STATEMENT_MATCH = 0.1  # a kept source states something about the part itself
# ... unless the statements that answer the part name it (at this strength): the entry on
# the answer of "which artist carved …" need not repeat the question's words.
ANSWER_NAMED = 0.1
RELATIVE_FLOOR = 0.5  # ... and this share of the best source's score for the part
AGREEMENT = 0.5  # idf-weighted share of a statement's words another document must hold
TWIN = 0.5  # word overlap (Jaccard) at which two statements say the same
MIN_AGREEING_TERMS = 4
# Why a part is a gap when no source was kept for it (other reasons: coverage.py).
NO_SOURCE = "no source examined matches it"


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


def analyze(inputs: AnalyzeInputs) -> AnalysisOutput:
    """The offline analyzer: findings per question part from the statements that answer
    it best, sources rated by length and relevance, and unanswered parts as gaps.

    Args:
        inputs: the analyzer's inputs.
    """
    parts = question_parts(inputs.question, inputs.titles)
    units = source_texts(inputs)
    sources = [s for s in inputs.sources if units.get(s.id)]
    bag = {s.id: statement_terms(s.title + " " + " ".join(units[s.id])) for s in sources}
    weights = Weights(list(bag.values()))
    scores, statement, kept = _kept_per_part(inputs, parts, (sources, units), weights)
    if everyday := everyday_share():
        # Whether a part is answered is decided with every word at full weight, so a part
        # only a passage's everyday words match stays a gap; what answers it, with the
        # asker's everyday words that no gathered text uses weighing less.
        shared = Weights(list(bag.values()), everyday)
        ranked = _kept_per_part(inputs, parts, (sources, units), shared)
        scores, statement = ranked[0], ranked[1]
        kept = {i: (ranked[2][i] or kept[i]) if kept[i] or parts[i].scene else [] for i in kept}
    documents = {s.id: s.document for s in sources}
    chosen = _candidates(inputs, (parts, kept), (scores, statement), documents)
    origin = (documents, near_copies(sources, units))
    asked = statement_terms(inputs.question)
    for cand in chosen:
        cand.supporters = {cand.source_id} | _agreeing(cand, bag, weights, origin, asked)
    chosen, ungiven = on_given_only(parts, chosen, sources, inputs.titles)
    # A part whose findings only share a word with it is a gap, its findings not its answer.
    unsaid, off_referent = unanswered_parts(parts, chosen, sources, units, inputs)
    unanswered = ungiven | unsaid
    chosen = [c for c in chosen if c not in off_referent]
    # Best first within each part. No cap across parts: each part is bounded by its
    # sources' shares, and a cap would cut the answers of a question asking four things.
    chosen = sorted(
        (c for c in chosen if c.part not in unanswered),
        key=lambda c: (c.part, c.extra, -c.score),
    )
    chosen = with_examples(chosen, units, documents)
    chosen = with_code_blocks(chosen, units, {s.id: s.text for s in sources})
    kept_for = {i: [] if i in unanswered else [s.id for s in ss] for i, ss in kept.items()}
    relevant = {sid for ids in kept_for.values() for sid in ids}
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
    gaps = _gaps(inputs, parts, (kept_for, unanswered), sources, units, findings)
    updates = [QualityUpdate(source_id=sid, quality=q) for sid, q in quality.items()]
    return AnalysisOutput(findings=findings, gaps=gaps, quality_updates=updates)


def _kept_per_part(
    inputs: AnalyzeInputs,
    parts: list[Part],
    texts: tuple[list[SourceText], dict[str, list[str]]],
    weights: Weights,
) -> tuple[
    SourceScores,
    dict[tuple[str, int], tuple[float, list[tuple[float, str]]]],
    dict[int, list[SourceText]],
]:
    """The sources' and statements' scores for each part with these ``weights``, and the
    sources kept for each part."""
    sources, units = texts
    statement = part_scores(parts, sources, units, weights)
    scores = source_scores(parts, sources, units, statement, inputs.question, inputs.answered_parts)
    topical = _topical(parts, sources, units, scores, inputs.question)
    kept = {i: _kept(i, parts[i], topical[i], scores, statement) for i in range(len(parts))}
    return scores, statement, kept


def _topical(
    parts: list[Part],
    sources: list[SourceText],
    units: dict[str, list[str]],
    scores: SourceScores,
    question: str,
) -> dict[int, list[SourceText]]:
    """Per part, the sources that may answer it: for a short part naming what it asks
    about (``coverage.topic_roots``, in the ``question``), those that speak of it, and for
    a short part asking about a name an earlier part gives (``coverage.borrowed_names``),
    those that state the name whole; in either case also those that such a source's
    statements answering the part name (a bridge). For any other part, all of them."""
    titles = [s.title for s in sources]
    roots: dict[str, set[str]] = {}
    out: dict[int, list[SourceText]] = {}
    # "Compare the Nile and the Amazon": not *Amazon (company)*
    others = other_kinds(parts, sources, {s.id: units[s.id][0] for s in sources})
    for i, part in enumerate(parts):
        topic = topic_roots(part, titles, question)
        names = [] if topic else borrowed_names(part, parts[:i], titles)
        on_kind = [s for s in sources if s.id not in others.get(i, set())]
        if not topic and not names:
            out[i] = on_kind
            continue
        for s in sources:
            if s.id not in roots:
                roots[s.id] = text_roots(f"{s.title} {' '.join(units[s.id])}")
        speaking = {s.id for s in sources if _speaks_of(roots[s.id], topic, names)}
        # A bridge counts when a source that speaks of the thing names it: *Year*'s
        # statements name *Gregorian calendar*, which says nothing of penicillin's year.
        # (Such a part does not point back, so its every bridge has its namers.)
        out[i] = [
            s
            for s in on_kind
            if s.id in speaking
            or (
                scores.bridged.get((s.id, i), 0.0) >= ANSWER_NAMED
                and scores.namers.get((s.id, i), set()) & speaking
            )
        ]
    return out


def _speaks_of(said: set[str], topic: set[str], names: list[set[str]]) -> bool:
    """Whether a source's roots (``said``) hold a root of the ``topic``, or, without one,
    every root of one of the ``names``."""
    return speaks_of_any(topic, said) if topic else any(says_all(n, said) for n in names)


def _kept(
    i: int,
    part: Part,
    sources: list[SourceText],
    scores: SourceScores,
    statement: dict[tuple[str, int], tuple[float, list[tuple[float, str]]]],
) -> list[SourceText]:
    """The sources that answer part ``i`` (``part``): above the relevance floor (absolute
    and relative to the part's best), stating something about the part or named by the
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
    # The relative floor keeps out what merely shares the part's words; the next passage
    # of a section that answers goes on with that answer (a long section is packed into
    # several passages), so it needs only the absolute floor.

    def stated(s: SourceText) -> bool:
        return (
            statement[(s.id, i)][0] >= MIN_STATEMENT_MATCH
            or scores.bridged.get((s.id, i), 0.0) >= ANSWER_NAMED
        )

    leads = {_section(s) for s in ranked[:1]}
    leads |= {_section(s) for s in ranked if total[(s.id, i)] >= floor and stated(s)}
    above = [
        s
        for s in ranked
        if total[(s.id, i)] >= (RELEVANCE_FLOOR if _section(s) in leads else floor) and stated(s)
    ]
    if above and not part.refers_back:
        # A part some source answers: the next sources need only the lower floor, relative
        # to its best as before (a part none answers stays unanswered). Not for a part that
        # points back ("when did he die"): what it says of its own ("die") is said of
        # others too (*William Pitt* "until his death").
        lower = max(ANSWERED_PART_FLOOR, RELATIVE_FLOOR * best)
        passed = {s.id for s in above}
        above = [s for s in ranked if s.id in passed or (total[(s.id, i)] >= lower and stated(s))]
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


def _section(source: SourceText) -> tuple[str, str]:
    """The file and heading a passage sits under (its title carries the heading path)."""
    return (source.document, source.title)


def _candidates(
    inputs: AnalyzeInputs,
    parted: tuple[list[Part], dict[int, list[SourceText]]],
    scored: tuple[SourceScores, dict[tuple[str, int], tuple[float, list[tuple[float, str]]]]],
    documents: dict[str, str],
) -> list[Candidate]:
    """The statements that may become findings: per part, each kept source's best for it
    (its share of PART_FINDINGS; the first source LEAD_EXTRA more), not repeating a known
    finding nor, within a part, each other; ranked by the source's score, the statement's
    and the guidance it answers.
    ``parted``: the parts and the sources kept for each; ``scored``: the sources' scores and
    the statements' (see ``relevance``); ``documents``: each source's document."""
    parts, kept = parted
    scores, statement = scored
    guidance = term_set(" ".join(inputs.guidance))
    known = [term_set(k) for k in inputs.known_findings]
    chosen: list[Candidate] = []
    taken: dict[tuple[str, int], int] = {}
    # Every part's shares first, then the lead sources' extras: an extra the report may not
    # show must not keep another part from a statement it repeats.
    for extra in (0, LEAD_EXTRA):
        for i, sources in kept.items():
            asks_time = answer_kind(parts[i].text) == "time"
            stated_with = _stated_with_block([statement[(s.id, i)][1] for s in sources])
            share = max(FINDINGS_PER_SOURCE, -(-PART_FINDINGS // max(len(sources), 1)))
            for rank, src in enumerate(sources[:1] if extra else sources):
                for score, unit in statement[(src.id, i)][1]:
                    terms = term_set(unit)
                    done = taken.get((src.id, i), 0)
                    # a word of the part's own (by root: "Opened on May 24, 1883" says
                    # "open") that no statement of this source taken for it says: a
                    # statement an earlier part took is this part's answer too ("It is the
                    # only moon known to have a dense atmosphere")
                    said = set().union(
                        *(c.terms for c in chosen if c.source_id == src.id and c.part == i)
                    )
                    own = _roots(parts[i].own) & _roots(terms)
                    new_own = bool(own - _roots(said)) or (
                        bool(own) and asks_time and _dates(parts[i], unit)
                    )
                    if done >= share + extra:
                        break
                    if unit in stated_with or any(jaccard(terms, k) >= 0.6 for k in known):
                        continue
                    # The same statement may answer two parts, but each part lists it once.
                    twins = [c for c in chosen if _twins(c, src.id, unit, terms, documents)]
                    if any(c.part == i for c in twins) or (twins and done and not new_own):
                        continue
                    bonus = 0.5 * len(terms & guidance) / (len(guidance) or 1)
                    order = scores.total[(src.id, i)] + score + bonus - 0.01 * rank
                    chosen.append(Candidate(unit, src.id, i, order, terms, extra=bool(extra)))
                    taken[(src.id, i)] = done + 1
    return chosen


def _stated_with_block(ranked: list[list[tuple[float, str]]]) -> set[str]:
    """The lead-ins among the statements ``ranked`` for a part that another source states
    with the code block it introduces ("Here's how you would exclude click from Rich
    exceptions:" beside "…: import click; … install(suppress=[click])"): alone they say
    nothing the other does not."""
    units = {u for statements in ranked for _, u in statements}
    return {u for u in units if u.endswith(":") and any(o.startswith(u) and o != u for o in units)}


def _dates(part: Part, unit: str) -> bool:
    """Whether ``unit`` gives a date for ``part``, which asks when ("Opened on May 24,
    1883" for "when did it open", after a line taken that only says "when opened")."""
    return gives(unit, "time", term_set(part.text), part.text)


def _roots(terms: set[str]) -> set[str]:
    """The roots of ``terms`` ("opened" says "open")."""
    return {word_root(t) for t in terms}


def _twins(
    cand: Candidate, source_id: str, unit: str, terms: set[str], documents: dict[str, str]
) -> bool:
    """Whether ``unit`` (of source ``source_id``) says what ``cand`` says: the same text,
    nearly the same words from another document, or nearly word for word from the same
    passage. Two passages of one document are different stretches of the file, so what
    they word alike is two entries of the same shape ("fetch-retries: Default: 2; Type:
    Number" and "maxsockets: Default: 15; Type: Number" in a configuration reference), not
    one statement found twice. Likewise the quoted rows of a table (they repeat its column
    names, and often their cells' wording: each is a different record), the quoted lines
    of a code block (`opt-level = 0`, `opt-level = 3`), and two sentences of one passage
    that share half their words ("uv installs Python executables into your PATH by
    default" and "To install python and python3 executables, include the --default
    option": the second is the answer the first does not give)."""
    if cand.text == unit:
        return True
    if cand.source_id == source_id:
        quoted = unit.startswith(QUOTES) and cand.text.startswith(QUOTES)
        return not quoted and jaccard(terms, cand.terms) >= NEAR_COPY
    if documents[cand.source_id] == documents[source_id]:
        return False
    return jaccard(terms, cand.terms) >= TWIN


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
    cand: Candidate,
    bag: dict[str, set[str]],
    weights: Weights,
    origin: tuple[dict[str, str], dict[str, set[str]]],
    asked: set[str],
) -> set[str]:
    """Other documents (not passages of the same file) that state the same: they hold most
    of the statement's words, weighted by rarity, so the names, numbers and rare words
    that make it specific count most and the words every source uses count little. One
    passage per document (its best): a long file's passages confirm once, and do not use
    up the report's citations. A code line or table row repeated in other files (a
    tutorial's `use std::sync::{Arc, Mutex};`) is the same text again, not a second
    source confirming a claim: it gathers no agreement; nor does a near-copy of the
    statement's source, and near-copies of each other agree once.
    ``origin``: each source's document, and its near-copies (see ``_copies``); ``asked``:
    the question's words."""
    if len(cand.terms) < MIN_AGREEING_TERMS or cand.text.startswith(QUOTES):
        return set()
    documents, copies = origin
    # The question's words are in every source it found: a source confirms a statement
    # by holding most of what the statement says beyond them.
    specific = cand.terms - asked
    own = documents.get(cand.source_id)
    best: dict[str, tuple[float, str]] = {}
    for sid, terms in bag.items():
        document = documents.get(sid, sid)
        if sid == cand.source_id or document == own:
            continue
        share = weights.match(cand.terms, terms)
        if 2 * len(specific & terms) < len(specific):
            continue
        if share >= AGREEMENT and share > best.get(document, (0.0, ""))[0]:
            best[document] = (share, sid)
    agreeing: set[str] = set()
    for _, sid in sorted(best.values(), reverse=True):
        if not copies.get(sid, set()) & (agreeing | {cand.source_id}):
            agreeing.add(sid)
    return agreeing


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
    kept: tuple[dict[int, list[str]], dict[int, str]],
    sources: list[SourceText],
    units: dict[str, list[str]],
    findings: list[FindingDraft],
) -> list[GapDraft]:
    """One gap per part that neither this iteration's sources nor earlier findings answer
    (with a bridge entity to follow when an earlier part's sources name one), and per
    reviewer note not yet answered, each saying why.

    ``kept``: the sources kept per part, and why a part whose findings do not answer it
    is unanswered (see ``unanswered.unanswered_parts``)."""
    kept_for, unanswered = kept
    titles = [s.title for s in sources]
    gaps: list[GapDraft] = []
    for i, part in enumerate(parts):
        if kept_for.get(i) or part.text in inputs.answered_parts or part.scene:
            continue
        earlier = [sid for j in range(i) for sid in kept_for.get(j, [])]
        texts = [prose_sentences(units[sid]) for sid in earlier]
        leads = bridge_entities(part, texts, titles, inputs.question) if texts else []
        queries = [f"{lead} {' '.join(keywords(part.text)[:4])}" for lead in leads]
        # "the first emperor of China" searched as a phrase: texts stating it come first
        phrased = attribute_phrases(names_cased(part.text, titles), titles)
        gaps.append(
            GapDraft(
                description=f"No source found answers this part of the question: {part.text}",
                suggested_queries=[*([phrased] if phrased else []), *queries, part.query],
                priority=1,
                reason=unanswered.get(i, NO_SOURCE),
            )
        )
    covered = {t for f in findings for t in term_set(f.content)}
    for note in inputs.guidance:
        terms = [w for w in keywords(note) if term_of(w) not in covered]
        if terms:
            gaps.append(
                GapDraft(
                    description=f"Reviewer guidance not yet answered: {note}",
                    suggested_queries=[" ".join(terms[:6])],
                    priority=1,
                    reason=f"no finding states: {', '.join(terms[:6])}",
                )
            )
    return gaps[:4]
