"""Offline topic-research roles: summarization, forced reflection, compression and
budget condensing (the supervisor's are in ``supervision``). All extractive."""

from __future__ import annotations

import re
from typing import NamedTuple

from deepresearch.offline.apart import asked_kind
from deepresearch.offline.bridges import bridge_entities, entities, linked_entries
from deepresearch.offline.clauses import POINTED_NOUN
from deepresearch.offline.earlier import PERSONAL
from deepresearch.offline.parts import (
    Part,
    agent_query,
    follows_names,
    question_parts,
)
from deepresearch.offline.referred import points_to_asked
from deepresearch.offline.relations import PLACE_PREPOSITIONS
from deepresearch.offline.roots import text_roots
from deepresearch.offline.statements import as_text, statements
from deepresearch.roles import (
    CompressInputs,
    CompressOutput,
    CondenseInputs,
    CondenseOutput,
    ReflectInputs,
    SourceText,
    SummarizeInputs,
    SummaryOutput,
)
from deepresearch.state.models import LinkFollow, ReflectionDecision
from deepresearch.text import (
    containment,
    estimate_tokens,
    keywords,
    normalize_query,
    sentences,
    term_of,
    term_set,
    title_phrases,
    truncate_words,
)

_PEOPLE = PERSONAL | {"they", "them", "their"}  # pronouns that may stand for people
MAX_ANCHORS = 2  # entities a part that points back is searched on, with its own words
HOPS_PER_TOPIC = 3  # bridge entities a topic researcher follows after its first search
LINKS_PER_TOPIC = 2  # linked entries a topic researcher tries after the bridge hops
RELEVANT_SOURCES_ENOUGH = 3  # the researcher's early exit, docs/concepts/gathering.md
SUMMARY_WORDS = 250  # the summary contract's "at most ~250 words"


def rank_sentences(text: str, query: str) -> list[tuple[int, str, float]]:
    """(position, sentence, score): query-term coverage plus a bonus for leading sentences."""
    q = term_set(query)
    ranked = []
    for i, sent in enumerate(sentences(text)):
        s_terms = term_set(sent)
        overlap = len(q & s_terms) / (len(q) or 1)
        has_number = any(ch.isdigit() for ch in sent)
        score = overlap + (0.3 if i == 0 else 0.0) + (0.1 if has_number else 0.0) - 0.02 * i
        ranked.append((i, sent, score))
    return ranked


def summarize(inputs: SummarizeInputs) -> SummaryOutput:
    """The page's statements (table rows and code lines quoted as such, never flattened
    into prose), those that bear most on the query and the question first, up to
    SUMMARY_WORDS, in page order, written so that they read back as the same statements
    (``as_text``); the five best are the key excerpts."""
    units = statements(inputs.content)
    if not units:
        return SummaryOutput(executive_summary=truncate_words(inputs.content, 300))
    focus = term_set(inputs.query + " " + inputs.title)
    asked = term_set(inputs.question)
    ranked = []
    for i, unit in enumerate(units):
        terms = term_set(unit)
        score = (
            containment(focus, terms)
            + 0.5 * containment(asked, terms)
            + (0.1 if any(ch.isdigit() for ch in unit) else 0.0)
            - 0.002 * i
        )
        ranked.append((score, i, unit))
    ranked.sort(key=lambda r: -r[0])
    kept: list[tuple[float, int, str]] = []
    words = 0
    for item in ranked:
        size = len(item[2].split())
        if kept and words + size > SUMMARY_WORDS:
            continue
        kept.append(item)
        words += size
    in_order = sorted(kept, key=lambda r: r[1])
    return SummaryOutput(
        executive_summary=as_text([u for _, _, u in in_order]),
        key_excerpts=[u for _, _, u in sorted(kept[:5], key=lambda r: r[1])],
    )


def reflect(inputs: ReflectInputs) -> ReflectionDecision:
    """Decide after each search: done, search again with a refined query, or extract.

    A sub-query that names what it asks about is done once enough relevant sources cover
    it (the early exit of docs/concepts/gathering.md). One that asks for something it does not name ("which
    emperor…", "where did he…") or points back to an earlier part first follows the
    entities its best sources name (bridge hops), then its own words alone."""
    if inputs.tool_calls_used >= inputs.max_tool_calls:
        return ReflectionDecision(research_complete=True, rationale="Tool-call budget spent.")
    # A directive is a paragraph whose first sentence names the topic; the rest is
    # instructions, whose words are not things to search for.
    focus = inputs.sub_query.split(". ", 1)[0]
    if inputs.follow is not None:
        # A supervisor's directive to follow links (supervision._gap_link): its titles are entries to
        # try, not words to search for, and the words after them only a gate.
        return ReflectionDecision(research_complete=True, rationale="The links are followed.")
    target = term_set(focus)
    relevant = [
        s for s in inputs.sources if containment(target, term_set(s.title + " " + s.text)) >= 0.5
    ]
    ran = {normalize_query(q) for q in inputs.queries_run}
    for note in inputs.guidance:
        guided = " ".join(keywords(focus)[:3] + keywords(note)[:6])
        if guided and normalize_query(guided) not in ran:
            return ReflectionDecision(
                continue_searching=True,
                refined_query=guided,
                rationale=f"Following reviewer guidance: {truncate_words(note, 100)}",
            )
    hops = _leads(inputs, focus, ran)
    new = inputs.last_novelty.get("new", 0)
    if inputs.last_novelty and new == 0 and not hops:
        return ReflectionDecision(
            research_complete=True,
            rationale=f"The last search returned nothing new ({inputs.novelty_summary}).",
        )
    if len(relevant) >= RELEVANT_SOURCES_ENOUGH and not hops:
        return ReflectionDecision(
            research_complete=True,
            rationale=f"{len(relevant)} relevant sources cover the sub-query.",
        )
    return _search_on(inputs, focus, relevant, ran, hops)


def _search_on(
    inputs: ReflectInputs,
    focus: str,
    relevant: list[SourceText],
    ran: set[str],
    hops: list[_Lead],
) -> ReflectionDecision:
    """Not done yet: search the sub-query's words no source holds, else follow a bridge
    entity, else read the relevant sources whose snippet promises more."""
    covered: set[str] = set()
    for s in inputs.sources:
        covered |= term_set(s.title + " " + s.text)
    missing = [w for w in keywords(focus) if term_of(w) not in covered]
    extract = [
        s.url
        for s in relevant
        if s.text.endswith("…") or (s.snippet and len(s.text) <= len(s.snippet))
    ][: inputs.max_extract]
    if missing:
        refined = " ".join(dict.fromkeys(missing + keywords(inputs.question)[:3]))
        if normalize_query(refined) not in ran:
            return ReflectionDecision(
                continue_searching=True,
                refined_query=refined,
                urls_to_extract=extract,
                rationale=f"Not yet covered: {', '.join(missing)}.",
            )
    if hops:
        lead = hops[0]
        return ReflectionDecision(
            continue_searching=True,
            refined_query=lead.query,
            rationale=lead.why,
            follow=lead.follow,
        )
    if extract:
        return ReflectionDecision(
            continue_searching=False,
            urls_to_extract=extract,
            rationale="Snippets suggest more detail behind these URLs.",
        )
    return ReflectionDecision(
        continue_searching=False,
        rationale=f"{len(relevant)} relevant sources; no uncovered terms left to search for.",
    )


_TAG = re.compile(r"^\[[A-Z]+(?::[^\]]*)?\]\s*")  # the novelty tag a reflection view carries


class _Lead(NamedTuple):
    """A search still to make: its query, why, and the links it follows (if it does)."""

    query: str
    why: str
    follow: LinkFollow | None = None


def _leads(inputs: ReflectInputs, focus: str, ran: set[str]) -> list[_Lead]:
    """Searches still to make for a sub-query that asks for an entity it does not name or
    points back to an earlier part: for one that asks who did something, its words with
    the verb as the doer's noun first (parts.agent_query: an entry says "the inventor of
    radio"); the bridge entities its best sources name (at most HOPS_PER_TOPIC), the
    part's own words without those it borrowed, then an entry its best source links to
    (see _link_lead)."""
    titles = [_TAG.sub("", s.title) for s in inputs.sources]
    parts = question_parts(inputs.question, titles)
    part = _part_for(parts, focus)
    if not inputs.sources or not follows_names(part):
        return []
    # the names the part gives decide first ("Metamorphoses" over "author", "life", "years")
    named = term_set(" ".join(entities(part.text)))
    ordered = sorted(
        zip(titles, inputs.sources, strict=True),
        key=lambda ts: _stated(part.terms, named, term_set(f"{ts[0]}. {ts[1].text}")),
    )
    # ... and the entry of a name it gives is read too: the hop from "the country that
    # borders Switzerland" starts at *Switzerland*, which says what borders it
    best = ordered[:3] + [ts for ts in ordered[3:] if _entry_named(ts[0], named, part.text)][:1]
    ranked = [sentences(text) or [text] for text in (f"{t}. {s.text}" for t, s in best)]
    # "What was that group" after "Keats strongly influenced … a later English group of
    # painters and poets": the thing the story describes is what its answering line names
    told = _told_of(parts, part) if part.refers_back else None
    of = told or _pointed_scene(parts, part)
    # a sentence opening with "It" in the entry of a name given says that name
    given = (of or part).text
    names = named if of is None else term_set(" ".join(entities(given)))
    subjects = [t if _entry_named(t, names, given) else "" for t, _ in best]
    leads = [
        _Lead(lead, f"Sources that answer '{truncate_words(focus, 80)}' name {lead}: follow it.")
        for lead in _bridges(part, of, (ranked, subjects), titles, inputs.question)
    ]
    if part.refers_back and not told:
        leads = _own_words_leads(part, titles, inputs.question) + leads
    if agent := agent_query(part):
        why = "Who did it: the part's words, its verb as the doer's noun."
        leads = [_Lead(agent, why), *leads]
    followed = {t.casefold() for t in inputs.links_followed}
    leads += _link_lead(part, best[0], titles, inputs.question, followed)
    return [lead for lead in leads if normalize_query(lead.query) not in ran]


def _bridges(
    part: Part,
    told: Part | None,
    best: tuple[list[list[str]], list[str]],
    titles: list[str],
    question: str,
) -> list[str]:
    """The bridge entities to follow for ``part`` (at most HOPS_PER_TOPIC), named where the
    sources answer it, or what it points back to (``told``: a story or the part before).
    When that is the thing the part before asks for, a name the sources write with the
    noun it asks by comes first ("the Sui dynasty" for "which dynasty was that"): an entry
    named by its kind is the kind of thing asked; an alias of the source's own subject
    ("Prince of Qin") is not. ``best``: the best sources' texts, as sentences, and the
    titles of those that are entries of names the part gives ("" for the others): a
    sentence opening with such an entry's pronoun says its name."""
    ranked, subjects = best
    found = bridge_entities(told or part, ranked, titles, question, 2 * HOPS_PER_TOPIC, subjects)
    if told is None or told.scene:
        return found[:HOPS_PER_TOPIC]
    kinds = asked_kind(told.text)
    said = " ".join(sent for text in ranked for sent in text)

    def of_kind(name: str) -> bool:
        # "the Sui dynasty": the name, or the word the sources write after it
        after = re.findall(rf"\b{re.escape(name)}\s+(\w+)", said)
        return bool(text_roots(" ".join([name, *after])) & kinds)

    return sorted(found, key=lambda name: not of_kind(name))[:HOPS_PER_TOPIC]


def _stated(terms: set[str], named: set[str], said: set[str]) -> tuple[int, int]:
    """A sort key, best first: how many of a part's ``named`` words, then of its ``terms``,
    a source's words (``said``) hold."""
    return -len(named & said), -len(terms & said)


def _entry_named(title: str, named: set[str], part: str) -> bool:
    """Whether the entry ``title`` is of a name the ``part`` gives (all its words
    ``named``), not as the place it sets things in ("lead in northern South America", "a
    gurdwara in Amritsar")."""
    own = term_set(title)
    placed = rf"\b(?:{'|'.join(PLACE_PREPOSITIONS)})\s+(?:\w+\s+){{0,2}}{re.escape(title)}\b"
    return bool(own) and own <= named and not re.search(placed, part, re.IGNORECASE)


def _link_lead(
    part: Part, best: tuple[str, SourceText], titles: list[str], question: str, followed: set[str]
) -> list[_Lead]:
    """The entry that the part's best source links from its answering sentence, in any
    case ("a diet of *bamboo*"): the hop a capitalised name cannot give. Asked as a
    search that follows the link (LinkFollow, phases.topic): the entry alone, kept only
    when its opening sentence states one of the part's own words (a link to a common
    noun says nothing about the part). After the bridge hops, at most LINKS_PER_TOPIC
    tries per topic (``followed``: the titles tried): each is one more source to rank."""
    if len(followed) >= LINKS_PER_TOPIC:
        return []
    title, src = best
    known = {t.casefold() for t in titles} | followed
    for lead in linked_entries(part, (title, src.text, src.links), question):
        if lead.casefold() not in known:
            follow = LinkFollow(titles=[lead], words=sorted(part.own or part.terms))
            why = f"The source that best answers it links {lead}."
            return [_Lead(follow.query(), why, follow)]
    return []


def _anchors(part: Part, titles: list[str], question: str) -> list[str]:
    """What a part that points back hangs on: the gathered titles and the question's
    capitalised phrases made only of the words it borrowed ("Thirty Years' War" for "how
    did it end"), the longest first, none inside a longer one."""
    borrowed = part.terms - part.own
    found: list[str] = []
    for name in sorted(dict.fromkeys([*title_phrases(question), *titles]), key=len, reverse=True):
        terms = term_set(name)
        if terms and terms <= borrowed and not any(terms <= term_set(f) for f in found):
            found.append(name)
    return found[:MAX_ANCHORS]


def _own_words_leads(part: Part, titles: list[str], question: str) -> list[_Lead]:
    """The part's own words, each anchor before them: alone they lose what the part is
    about ("end"); with all the borrowed words the anchor's own entries win again.
    Without an anchor, only when they are more than one word."""
    own = keywords(part.text)
    if not own or " ".join(own) == part.query:
        return []
    anchors = _anchors(part, titles, question)
    if not anchors:
        if len(own) < 2:
            return []
        return [
            _Lead(" ".join(own), "The part's own words, without those borrowed from the question.")
        ]
    return [
        _Lead(f"{a} {' '.join(own)}", f"The part's own words, on what it points back to: {a}.")
        for a in anchors
    ]


def _pointed_scene(parts: list[Part], part: Part) -> Part | None:
    """The story before a part pointing back that names the noun it points with: "that
    country's capital" after "… shares a maritime border to its east with another
    country" asks of the country that story describes, which the names its answering
    sentences give are candidates for, not of the story's own subject."""
    pointed = term_set(" ".join(POINTED_NOUN.findall(part.text)))
    if not part.refers_back or not pointed or part not in parts:
        return None
    before = parts[: parts.index(part)]
    # a piece of a hyphenated word counts ("that city" after "one Italian city-republic")
    telling = (p for p in reversed(before) if p.scene)
    return next((p for p in telling if pointed <= p.terms | _hyphen_pieces(p.terms)), None)


def _hyphen_pieces(terms: set[str]) -> set[str]:
    """The pieces of the hyphenated words among ``terms`` ("city-republic": city, republic)."""
    return {piece for term in terms if "-" in term for piece in term.split("-") if piece}


_THE_OTHER_ONE = re.compile(r"\bthe\s+other\s+one\b", re.IGNORECASE)


def _told_of(parts: list[Part], part: Part) -> Part | None:
    """The story before ``part`` among the question's ``parts`` (a scene) that describes
    what the part points back to by its own words ("that group": "a later English group
    of painters"), else the scene just before a part asking of "the other one" of what it
    tells of ("Hokusai influenced two European painters. For the other one, …"), else the
    part just before it when the part's "it" stands for the kind of thing that part asks
    for ("Which dynasty was that, and over which years did it rule": the sentences
    answering "which dynasty" name it), or None."""
    before = parts[: parts.index(part)] if part in parts else []
    # "that country's capital": the story telling of "another country" tells of it
    scene = (p for p in reversed(before) if p.scene and part.own and part.own <= p.terms)
    if (told := next(scene, None)) is not None:
        return told
    if before and before[-1].scene and _THE_OTHER_ONE.search(part.text):
        return before[-1]  # "the other one" of those the story tells of
    asking = before[-1] if before and not before[-1].scene else None
    # "it", not "he": a person the part before asks for is found by the part's own words
    said = set(re.findall(r"[a-z]+", part.text.lower()))
    if asking is None or "it" not in said or said & _PEOPLE or not asked_kind(asking.text):
        return None
    return asking if points_to_asked(part.text, asking.text) else None


def _part_for(parts: list[Part], focus: str) -> Part:
    """The question part (of ``parts``, split with the sources' titles: see
    ``parts.question_parts``) a sub-query researches (by its text or query), else the
    focus as a part of its own."""
    key = term_set(focus)
    for part in parts:
        if key in (term_set(part.text), part.terms):
            return part
    return Part(focus, " ".join(keywords(focus)), False)


def compress(inputs: CompressInputs) -> CompressOutput:
    """Reformat, not summarise: every sentence kept, each with its source's [n]."""
    lines = [f"Queries made: {'; '.join(inputs.queries) or inputs.sub_query}", "", "Findings:"]
    for src in inputs.sources:
        for sent in statements(src.text):
            lines.append(f"- {sent} [{src.citation}]")
    lines += ["", "Sources:"]
    lines += [f"[{s.citation}] {s.title} — {s.url}" for s in inputs.sources]
    return CompressOutput(compressed="\n".join(lines))


def _cited_lines(text: str, query: str) -> list[tuple[int, str, float]]:
    """Compressed topics are '- statement [n]' lines: rank whole lines so citations survive."""
    lines = [ln.strip() for ln in text.splitlines() if ln.strip().startswith("- ")]
    q = term_set(query)
    return [
        (i, ln, len(q & term_set(ln)) / (len(q) or 1) + (0.3 if i == 0 else 0.0) - 0.01 * i)
        for i, ln in enumerate(lines)
    ]


def condense(inputs: CondenseInputs) -> CondenseOutput:
    """Bring a text down to a degradation level, keeping the most relevant sentences
    (or cited lines, for compressed topics)."""
    lined = _cited_lines(inputs.text, inputs.query)
    if len(lined) >= 2:
        keep_lines: list[tuple[int, str, float]] = []
        used = 0
        limit = 1 if inputs.level == "headline" else len(lined)
        for item in sorted(lined, key=lambda r: -r[2]):
            cost = estimate_tokens(item[1]) + 1
            if used + cost <= inputs.target_tokens and len(keep_lines) < limit:
                keep_lines.append(item)
                used += cost
        if keep_lines:
            return CondenseOutput(text="\n".join(s for _, s, _ in sorted(keep_lines)))
    ranked = rank_sentences(inputs.text, inputs.query)
    if not ranked:
        return CondenseOutput(text=_cut(inputs.text, inputs.target_tokens))
    if inputs.level == "headline":
        return CondenseOutput(text=_cut(ranked[0][1], inputs.target_tokens))
    keep: list[tuple[int, str, float]] = []
    used = 0
    bullet = inputs.level == "key_points"
    for item in sorted(ranked, key=lambda r: -r[2]):
        cost = estimate_tokens(item[1]) + (1 if bullet else 0)
        if used + cost > inputs.target_tokens:
            continue
        keep.append(item)
        used += cost
    if not keep:
        return CondenseOutput(text=_cut(ranked[0][1], inputs.target_tokens))
    keep.sort(key=lambda r: r[0])
    if bullet:
        return CondenseOutput(text="\n".join(f"- {s}" for _, s, _ in keep))
    return CondenseOutput(text=" ".join(s for _, s, _ in keep))


def _cut(text: str, tokens: int) -> str:
    return truncate_words(text, max(8, tokens * 4 - 1))
