"""How a clause's coordinated phrases become clauses of their own: "who invented the
telephone and the radio" asks "who invented the telephone" and "who invented the radio";
"How can I run a shell command and capture its output" asks two things the subject does.
Syntax only: no topic words."""

from __future__ import annotations

import re

from deepresearch.text import (
    ARTICLES,
    AUXILIARY_OR_MODAL,
    AUXILIARY_VERBS,
    STOPWORDS,
    content_terms,
    is_past_form,
)

# English prepositions (those that can open a "which" clause: "…, and under which dynasty").
PREPOSITIONS = "about|until|since|in|to|into|from|at|by|for|of|on|under|with|during|after|before|through|against|over|within|between|among|across|along|near"
PREPOSITION_WORDS = frozenset(PREPOSITIONS.split("|"))
# "apart from Syria", "besides Syria": a phrase setting a thing aside
APART = r"(?:apart|aside)\s+from|besides|except(?:\s+for)?|other\s+than|unlike"
# A sentence opening with a phrase of place, time or exception ("Besides Syria, Saladin
# was …"): the comma closing that phrase closes a name in it too.
OPENING_PHRASE = re.compile(rf"^\W*(?:{PREPOSITIONS}|{APART})\b", re.IGNORECASE)
COORDINATION = re.compile(r"\s+(?:and|or|versus|vs\.?)\s+", re.IGNORECASE)
BETWEEN = "between"  # "between A and B" joins its two ends into one relation
_SHARED_TAIL = 3  # words of a phrase closing a clause that both its conjuncts share
# Words that end the noun phrase "between" may open before the first end: a question
# word, a verb of a question's order.
_NOT_OF_A_NOUN = frozenset(["which", "what", "who", "whom", "whose", *AUXILIARY_VERBS.split("|")])
_BETWEEN_REACH = 3  # words of a noun phrase after "between" before its first end ("the cities of")
MAX_CONJUNCT_WORDS = 4


def after_between(words: list[str], first: int) -> bool:
    """Whether the conjunct opening at ``words[first]`` follows "between", right before
    it or after a few lower-case words of a noun phrase ("lying between the cities of
    Nouadhibou and Nouakchott"): with the next conjunct it is one relation's two ends."""
    for k in range(first - 1, max(first - 2 - _BETWEEN_REACH, -1), -1):
        word = words[k].lower()
        if word == BETWEEN:
            return True
        # only a noun phrase's words: "Between which years were A and B fought" asks of two
        if words[k].endswith((",", ";", ":")) or words[k][:1].isupper() or word in _NOT_OF_A_NOUN:
            return False
    return False


def split_coordination(clause: str) -> list[str]:
    """'who invented the telephone and the radio' → two clauses sharing 'who invented'.
    Only when the conjunct after 'and' is short and ends the clause (a noun phrase), so
    'rise and fall of Rome' and clauses with their own verb stay whole."""
    matches = list(COORDINATION.finditer(clause))
    if len(matches) != 1:
        return [clause]
    m = matches[0]
    right = clause[m.end() :].split()
    left_all = clause[: m.start()].split()
    joined = m.group().strip().lower() == "and"  # "grains or fruit": either, one question
    if joined and 2 < len(right) <= _SHARED_TAIL + 1 and right[1].lower() in PREPOSITION_WORDS:
        # "does it do go-to-definition and autocomplete by itself": the short phrase after
        # the one word joined goes with both, which are one word each
        pair = split_coordination(clause[: m.end()] + right[0])
        if len(pair) == 2:
            return [f"{piece} {' '.join(right[1:])}" for piece in pair]
    if series := _things_done(left_all, right):
        return series
    if pair := _two_things_done(left_all, right):
        return pair
    if modifiers := _modifiers_shared(left_all, right):
        return modifiers
    if not right or len(right) > MAX_CONJUNCT_WORDS or len(left_all) <= len(right):
        return [clause]
    right_terms = content_terms(" ".join(right))
    if not right_terms:
        return [clause]
    # The left conjunct mirrors the right one: as many words, after the shared head.
    head, left = _aligned(left_all[: -len(right)], left_all[-len(right) :], right)
    head, left = _realigned(left_all, right) or (head, left)
    before = len(left_all) - len(right) - 1
    while before > 0 and left_all[before].endswith(","):
        before -= 1  # "between Box, Rc and RefCell": the list's earlier items
    if BETWEEN in (w.lower() for w in left_all[before:]) or after_between(left_all, before + 1):
        return [clause]  # "between 499 and 449 BC" is one span, not two things
    if not head or not content_terms(" ".join(left)) or not content_terms(" ".join(head)):
        return [clause]
    if right[0].lower() == head[-1].lower():
        right = right[1:]  # "serve as X and as Y": the head already ends with "as"
    elif (subject := _after_subject(head)) and _PREPOSITION.fullmatch(left[0]) and _bare(right[0]):
        # "Should I keep a list sorted with bisect.insort, or use heapq": not a second
        # thing to keep it sorted with but what else the subject would do ("Should I use
        # heapq").
        return [" ".join(head + left), " ".join(head[:subject] + right)]
    elif len(head) > 1 and _verb_phrase(right) and not _verb_phrase(left):
        if head[0].lower() in _ONE_THING_ASKED and _bare(right[0]):
            # "which flag do I use to trust the lockfile and skip the check": both say
            # what the one thing asked for does; apart, the second loses the lockfile.
            return [clause]
        # "run a shell command and capture its output": the conjuncts are what the subject
        # does, so the second takes the place of the head's verb ("How can I capture its
        # output").
        return [" ".join(head + left), " ".join(head[:-1] + right)]
    if _one_subject_asked(head):
        return [clause]
    return [" ".join(head + left), " ".join(head + right)]


def _modifiers_shared(left: list[str], right: list[str]) -> list[str]:
    """Two modifiers of one noun written alike ("incoming and outgoing names", "reading
    and writing files"), each asked with the noun: [] unless the word before "and" and
    the first after it end alike (in "-ing" or "-ed") and one noun follows."""
    if len(right) != 2 or not left:
        return []
    first, second = left[-1].lower(), right[0].lower()
    ending = next((e for e in ("ing", "ed") if first.endswith(e) and second.endswith(e)), "")
    if not ending or len(first) <= len(ending) + 2 or len(second) <= len(ending) + 2:
        return []
    return [" ".join([*left, right[1]]), " ".join([*left[:-1], *right])]


def _aligned(head: list[str], left: list[str], right: list[str]) -> tuple[list[str], list[str]]:
    """The shared head and the left conjunct, the left one as many words as the
    ``right`` one, moved to begin where a noun phrase does."""
    article = next((k for k in (1, 2) if len(head) > k and head[-k].lower() in ARTICLES), 0)
    if article and right[0].lower() not in ARTICLES and not _PREPOSITION.fullmatch(right[0]):
        # "with an INI file read by configparser or TOML read by tomllib": the head would
        # end inside the left conjunct's noun phrase, which begins at its article.
        return head[:-article], head[-article:] + left
    if right[0].lower() in _DETERMINERS and left[0].lower() not in _DETERMINERS:
        # "skip the virtualenv and its activation entirely": a noun phrase, as the right
        # conjunct is, begins at its determiner; the verb before it is the shared head's.
        opens = [k for k, w in enumerate(left) if w.lower() in _DETERMINERS]
        if opens:
            return head + left[: opens[-1]], left[opens[-1] :]
        if article:
            # "the nickname of Mahler's Second Symphony and the year it premiered": the
            # left noun phrase began in the head, at its article
            return head[:-article], head[-article:] + left
    return head, left


def _one_subject_asked(head: list[str]) -> bool:
    """Whether the head asks for one thing of a kind that does what follows to the two
    things ("Which Olympian god ruled | the oceans and quakes": one god did both), not for
    each ("Which countries border …", "What is the capital of …", "What happened to …",
    "which bay borders it to | the southwest and southeast")."""
    if len(head) < 3 or head[0].lower() not in ("which", "what"):
        return False
    kind = [w.lower() for w in head[1:-1]]
    return not any(
        _AUXILIARY_OR_MODAL.fullmatch(w) or is_past_form(w) or _plural(w) for w in kind
    ) and not (_AUXILIARY_OR_MODAL.fullmatch(head[-1]) or _PREPOSITION.fullmatch(head[-1]))


def _plural(word: str) -> bool:
    """Whether a lower-case word reads as a plural noun (or a verb's -s form)."""
    return word.endswith("s") and not word.endswith(("ss", "us", "is"))


_PREPOSITION = re.compile(PREPOSITIONS, re.IGNORECASE)


def _realigned(left_all: list[str], right: list[str]) -> tuple[list[str], list[str]] | None:
    """The shared head and the left conjunct where the left one is longer than the right:
    from the word both open with ("coverage won for free versus coverage bought"), or
    after the auxiliary and subject a right conjunct opening with a verb shares ("which
    kinds of history is it tied to or considered a branch of"); None otherwise."""
    longer = len(left_all) - len(right)  # the left conjunct starts before this
    opener = right[0].lower()
    if opener not in STOPWORDS:
        at = [k for k, w in enumerate(left_all) if w.lower() == opener]
        if at and 0 < at[-1] < longer:
            return left_all[: at[-1]], left_all[at[-1] :]
    if _bare(right[0]):
        for k in range(len(left_all) - 2, longer - 1, -1):
            if left_all[k].lower() in _SUBJECT_PRONOUNS and _AUXILIARY_OR_MODAL.fullmatch(
                left_all[k - 1]
            ):
                return left_all[: k + 1], left_all[k + 1 :]
    return None


_ONE_THING_ASKED = frozenset(["which", "what", "who"])  # question words asking for a thing
_AUXILIARY_OR_MODAL = re.compile(AUXILIARY_OR_MODAL, re.IGNORECASE)
_SUBJECT_PRONOUNS = frozenset(["i", "we", "you", "they", "he", "she", "it"])
_ASKED_OF = _SUBJECT_PRONOUNS | {"that", "this", "there"}  # an auxiliary asking of them
_LEAD_IN_WORDS = 5  # a phrase a question may open with before its auxiliary ("In that mode,")


def _things_done(left: list[str], right: list[str]) -> list[str]:
    """A series of three things or more the subject would do, each asked on its own:
    "How do I keep the line breaks, hide the notes, and make -h work" asks "How do I hide
    the notes"; [] when ``left`` (before the last "and") and ``right`` (after it) are not
    such a series."""
    subject = _after_subject(left)
    items = [i.split() for i in " ".join(left[subject:]).split(",") if i.strip()]
    series = [*items, right]
    if (
        not subject
        or len(items) < 2
        or not all(_bare(i[0]) and content_terms(" ".join(i)) for i in series)
    ):
        return []
    return [" ".join(left[:subject] + i) for i in series]


def _two_things_done(left: list[str], right: list[str]) -> list[str]:
    """Two things the subject would do, however long: "How do you register a custom marker
    …, and make a mistyped marker name an error" asks "How do you make a mistyped marker
    name an error" too. The second opens with a verb and its object (not an auxiliary
    asking of a subject: ", and will that …" asks a question of its own); [] otherwise."""
    subject = _after_subject(left)
    # "And in that mode, can we keep running … and keep …": asked after a lead-in phrase
    lead = next((k + 1 for k, w in enumerate(left[:_LEAD_IN_WORDS]) if w.endswith(",")), 0)
    if not subject and lead and (after := _after_subject(left[lead:])):
        subject = lead + after
    if (
        not subject
        or len(left) <= subject
        or not _bare(left[subject])
        or not _bare(right[0])
        or not (_verb_phrase(right) or _clause_ended(left[subject + 1 :], right))
        # ", and will that still let users …" asks a question of its own
        or (_AUXILIARY_OR_MODAL.fullmatch(right[0]) and right[1].lower() in _ASKED_OF)
    ):
        return []
    return [" ".join(left).rstrip(","), " ".join(left[:subject] + right)]


def _clause_ended(done: list[str], right: list[str]) -> bool:
    """Whether the first thing done (``done``: after its verb) ends with a verb of its own
    ("limit how many items | are displayed"), so the conjunct after "and" (``right``, two
    words at least: "cut long strings short") is no second noun phrase of it, but a second
    thing the subject does."""
    return len(right) > 1 and any(_AUXILIARY_OR_MODAL.fullmatch(w) for w in done)


def _after_subject(head: list[str]) -> int:
    """Where a question's head goes on after its subject pronoun, asked after its
    auxiliary ("Should I | keep a list sorted", "How do we | …"), or 0."""
    for n, word in enumerate(head[:3]):
        if (
            word.lower() in _SUBJECT_PRONOUNS
            and n > 0
            and _AUXILIARY_OR_MODAL.fullmatch(head[n - 1])
        ):
            return n + 1
    return 0


def _bare(word: str) -> bool:
    """Whether a conjunct's first word can be a verb: lower case, not a preposition, a
    determiner or a number ("use heapq", not "with heapq", "the heap", "TOML")."""
    return (
        word.isalpha()
        and word.islower()
        and not _PREPOSITION.fullmatch(word)
        and word not in _DETERMINERS
    )


# Words that open a noun phrase: a verb's object or a noun's owner follows a verb.
_DETERMINERS = frozenset(
    ["the", "a", "an", "its", "his", "her", "their", "my", "your", "our", "this", "that",
     "these", "those", "some", "any", "each", "every", "all"]
)  # fmt: skip


def _verb_phrase(conjunct: list[str]) -> bool:
    """Whether a conjunct reads as a verb and its object ("capture its output", "print
    it"): a word that opens no noun phrase, then one that does or a pronoun object."""
    return (
        len(conjunct) >= 2
        and conjunct[0].lower() not in _DETERMINERS
        and conjunct[1].lower() in _DETERMINERS | _OBJECT_PRONOUNS
    )


_OBJECT_PRONOUNS = frozenset(["it", "them", "him", "me", "us"])  # "print it"
