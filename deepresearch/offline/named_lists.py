"""Names listed in a clause: "how did the music of Bach and Beethoven differ" asks it of
each name ("... of Bach differ", "... of Beethoven differ"), "the Sahara, the Gobi and
the Atacama deserts" of each desert. Syntax only: capitals, commas, "and"/"or"."""

from __future__ import annotations

import re

from deepresearch.offline.asking import NAME_JOINERS
from deepresearch.offline.coordination import BETWEEN, PREPOSITION_WORDS, after_between
from deepresearch.text import STOPWORDS, stem

_DISTRIBUTIVE = frozenset(["both", "each", "all"])  # "are both": of the subjects just named
# Words before "A and B" that make the pair one thing: "between", and a singular verb.
_ONE_THING = frozenset([BETWEEN, "is", "was", "has", "does"])
_DASHES = frozenset(["-", "–", "—"])
_AUXILIARY = re.compile(r"(?:is|are|was|were|has|have|had|do|does|did)$", re.IGNORECASE)


def is_name_word(word: str) -> bool:
    """A capitalised word that is no function word ("Bach", not "The")."""
    bare = word.strip(",;:")
    return bool(bare) and bare[0].isupper() and bare.lower() not in STOPWORDS


def _name_before(words: list[str], end: int, *, subject: bool = False) -> int:
    """Start of the name (with its 'the') that ends at ``words[end - 1]``, or ``end``
    when no name ends there. A comma ends a name; the clause's first word (a question
    word or an imperative such as "Compare") starts one only in a clause whose names are
    its ``subject`` ("Adam Smith and Keynes are …")."""
    start = end
    first = 0 if subject else 1
    while start - 1 >= first and not (start < end and words[start - 1].endswith(",")):
        prev = words[start - 1]
        # "the" joins a name only between its words ("Suleiman the Magnificent").
        inner = prev != "the" or (start - 2 >= first and is_name_word(words[start - 2]))
        joins = prev in NAME_JOINERS and inner and start < end
        if not (is_name_word(prev) or joins):
            break
        start -= 1
    while start < end and words[start] in NAME_JOINERS:
        start += 1  # a name does not begin with "of"
    if start < end and start - 1 >= first and words[start - 1].lower() == "the":
        start -= 1
    return start


def split_names(clause: str) -> tuple[list[str], list[str]]:
    """Coordinated names anywhere in a clause, each in a copy of the clause: "how did the
    music of Bach and Beethoven differ" → "... of Bach differ", "... of Beethoven differ";
    lists too ("the Sahara, the Gobi and the Atacama deserts"). Only when every item is a
    capitalised name and the last is not much longer than the one before it (then "the
    Dutch and the English East India Companies" share their words and stay whole). The
    copies, and a last conjunct that is a part of its own ("the goal they raced for")."""
    words = clause.split()
    for c, conj in enumerate(words):
        if conj.lower() not in ("and", "or") or c == 0 or c + 1 >= len(words):
            continue
        r0 = c + 2 if words[c + 1].lower() == "the" else c + 1
        r1 = _name_end(words, r0)
        # Names followed by their verb are the clause's subject, and names before a colon
        # or a dash its topic ("Jesse Owens and Usain Bolt: how many …"): it opens with them.
        subject = _subject_ends(words, r1)
        items = _names_ending_at(words, c, subject=subject)
        if placed := _placed_pair(words, items, r1):
            items, r1 = placed  # "Ibadan in Nigeria and Indore in India": each with its place
            subject = _subject_ends(words, r1)
        if r1 == r0 or not items or _one_thing_before(words, items[0][0]) or _led_in(words, items):
            # "the war between Britain and France" names one thing, and so does the subject
            # of a singular verb: "What is Pride and Prejudice about", "Where is Bosnia and
            # Herzegovina" (a title or a country, not two things).
            continue
        last_len = items[-1][1] - items[-1][0] - (words[items[-1][0]].lower() == "the")
        shared: list[str] = []
        tail_from = r1
        plural = words[r1 - 1].rstrip(",;:")
        if last_len == 1 and r1 - r0 >= 2 and _modifies_head(words, items[0][0], c, plural):
            # "the Dutch and the English East India Companies": a one-word name before a
            # plural head is a modifier of that head; each item gets it, in the singular.
            shared = [*words[r0 + 1 : r1 - 1], _singular(plural).rstrip(",;:")]
            r1 = r0 + 1
        items.append((c + 1, r1))
        head, tail = words[: items[0][0]], words[tail_from:]
        if words[tail_from - 1].endswith(":") and _names_one(tail, words, items):
            # "Bruckner and Mahler: what nationality was Bruckner": the topics of the
            # questions after them, each of which names the one it asks of
            continue
        # "A and B (are) both …": in A's own copy "both" points at A and B, not back at
        # an earlier part's answer.
        at = 1 if subject else 0
        if len(tail) > at and tail[at].lower() in _DISTRIBUTIVE:
            tail = [*tail[:at], *tail[at + 1 :]]
        # "Compare A and B and the goal they raced for": the last conjunct is a part of
        # its own (the thing both went after), not a copy in each name's part.
        extra = [" ".join(tail[1:])] if len(tail) > 2 and tail[0].lower() == "and" else []
        tail = [] if extra else tail
        # Each item ends as the last one does ("Compare Mars and Venus: their …").
        end = words[tail_from - 1]
        mark = end[len(end.rstrip(",;:")) :]
        out = [
            " ".join(head + [w.rstrip(",;:") for w in words[a:b]] + shared) + mark for a, b in items
        ]
        out = [" ".join([o, *tail]) for o in out]
        return [re.sub(r"\s+,", ",", o).strip(" ,") for o in out], extra
    return [clause], []


def _name_end(words: list[str], start: int) -> int:
    """Where the name opening at ``words[start]`` ends: after its last capitalised word
    (and the words joining its words: "Mato Grosso do Sul"), or a word ending with a comma,
    semicolon or colon."""
    end = start
    while end < len(words) and (
        is_name_word(words[end])
        or (words[end] in NAME_JOINERS and end + 1 < len(words) and is_name_word(words[end + 1]))
    ):
        end += 1
        if words[end - 1].endswith((",", ";", ":")):
            break
    return end


def _names_one(tail: list[str], words: list[str], items: list[tuple[int, int]]) -> bool:
    """Whether the words after a list of names (``items``: spans of ``words``) name one of
    them again."""
    named = {w.strip(",;:").removesuffix("'s") for a, b in items for w in words[a:b]}
    said = {w.strip(",;:?.").removesuffix("'s") for w in tail}
    return bool(named - STOPWORDS & said)


def _subject_ends(words: list[str], end: int) -> bool:
    """Whether names ending at ``words[end - 1]`` are the clause's subject (their verb
    follows) or its topic (a colon or a dash follows)."""
    verb = end < len(words) and bool(_AUXILIARY.match(words[end]) or words[end] in _DASHES)
    return verb or words[end - 1].endswith(":")


def _placed_pair(
    words: list[str], items: list[tuple[int, int]], end: int
) -> tuple[list[tuple[int, int]], int] | None:
    """For two names each placed by the same preposition ("Ibadan in Nigeria and Indore
    in India"; ``items``: the one name before "and", ``end``: where the one after it
    ends), the span of the first with its place, and where the second's place ends; else
    None."""
    if len(items) != 1 or end + 1 >= len(words):
        return None
    at = items[0][0] - 1  # the preposition before the first place
    if at < 1 or words[at].lower() not in PREPOSITION_WORDS or words[end] != words[at]:
        return None
    start = _name_before(words, at, subject=True)
    after = _name_end(words, end + 1)
    if start == at or after == end + 1 or words[at - 1].endswith((",", ";", ":")):
        return None
    return [(start, items[0][1])], after


def _led_in(words: list[str], items: list[tuple[int, int]]) -> bool:
    """Whether a comma-ended capitalised word opens the clause just before the list's first
    name: a first name of the list ("Aruba, Bonaire and Curaçao lie …") or a word leading
    in ("However, Bach and …"); which, the words do not tell, so the clause stays whole."""
    return items[0][0] == 1 and words[0].endswith(",") and is_name_word(words[0])


def _one_thing_before(words: list[str], first: int) -> bool:
    """Whether the words before a list's first name (at ``first``) make the names one
    thing: a singular verb right before it, or "between" (see ``after_between``)."""
    return words[first - 1].lower() in _ONE_THING or after_between(words, first)


def _modifies_head(words: list[str], first: int, conjunction: int, plural: str) -> bool:
    """Whether the one-word name opening a list at ``words[first]`` may modify the plural
    head that ends it: the head is plural and the list is written with "the" ("the Dutch
    and the English East India Companies"); a name with its own capitalised "The" after
    the conjunction is a name of its own ("ABBA and The Beach Boys")."""
    written = "the" in words[first - 1 : first + 1] and words[conjunction + 1] != "The"
    return written and stem(plural.lower()) != plural.lower()


def _names_ending_at(words: list[str], end: int, *, subject: bool) -> list[tuple[int, int]]:
    """The (start, end) spans of the names listed before ``words[end]`` (an "and"): the
    name that ends there, and those before it each ending with a comma ("A, B and …")."""
    items: list[tuple[int, int]] = []
    while True:
        start = _name_before(words, end, subject=subject)
        if start == end or not is_name_word(words[end - 1]):
            return items
        items.insert(0, (start, end))
        if start - 1 < 1 or not words[start - 1].endswith(","):
            return items
        end = start


def _singular(word: str) -> str:
    """A plural noun as written, in the singular ("Companies" → "Company")."""
    lower, single = word.lower(), stem(word.lower())
    pairs = enumerate(zip(lower, single, strict=False))
    same = next((n for n, (a, b) in pairs if a != b), len(single))
    return word[:same] + single[same:]
