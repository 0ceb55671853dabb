"""How sources name one another: a title mentioned as a name in a statement, the
longer or shorter forms of a name, and which sources open a document (whole entries, a
file's first passage) rather than a section of one. Shared by the offline analysis's
scoring of sources per question part."""

from __future__ import annotations

import re
from collections.abc import Iterable

from deepresearch.offline.asking import NAME_JOINERS
from deepresearch.offline.parts import Part
from deepresearch.roles import SourceText
from deepresearch.text import (
    AUXILIARY_VERBS,
    NUMERAL_MARK,
    STOPWORDS,
    TITLE_QUALIFIER,
    stem,
    term_set,
    title_phrases,
    word_root,
)

TOKEN = re.compile(r"[^\W\d_][\w'\-]*|\d[\w\-]*")  # a statement's words, as written


def mentions_name(tokens: list[str], name: list[str], *, linked: bool = False) -> bool:
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
    # A text's first word is capitalised whatever it is: a name only when not a function
    # word ("Microsoft Corporation is …" does not name *Corporation*; "The Corporation" may).
    before = k > 0 and tokens[k - 1][:1].isupper() and (k > 1 or not _function_word(tokens[0]))
    after = k + n < len(tokens) and tokens[k + n][:1].isupper()
    return before or after


def is_common_noun(tokens: list[str], name: list[str]) -> bool:
    """Whether an entry's own text (its ``tokens``) writes its title's words ``name`` in
    lower case, as a common noun ("A window is an opening in a wall"), not as a name
    ("The Moon is Earth's only natural satellite")."""
    n = len(name)
    return bool(n) and any(tokens[k : k + n] == name for k in range(len(tokens) - n + 1))


def _function_word(word: str) -> bool:
    """A word that opens a sentence without being a name ("The", "In", "His")."""
    return word.lower() in STOPWORDS


def holds_phrase(tokens: list[str], words: list[str]) -> bool:
    """Whether ``tokens`` hold ``words`` (not empty) one after another."""
    n = len(words)
    return bool(n) and any(tokens[k : k + n] == words for k in range(len(tokens) - n + 1))


def name_words(title: str) -> list[str]:
    """A title's words as a name, lower-cased, without its bracketed qualifier."""
    return [w.lower() for w in TOKEN.findall(TITLE_QUALIFIER.sub("", title))]


def unpossessed(name: str) -> str:
    """A name a question gives as a possessor, without its "'s" ("Monaco's" of "how long
    is Monaco's coastline"): the entry is *Monaco*."""
    return re.sub(r"(?<=\w)['’]s$", "", name)


def names_cased(text: str, titles: Iterable[str]) -> str:
    """``text`` with each name of several words among ``titles`` that it gives in other
    case written as the title writes it ("where is charles baudelaire buried" → "…
    Charles Baudelaire …"), so the checks that read names from capitals find it. One
    word alone is left: a lower-case "time" is seldom the title *Time*."""
    for title in sorted(
        {TITLE_QUALIFIER.sub("", t).strip() for t in titles}, key=len, reverse=True
    ):
        if len(title.split()) > 1 and is_name(title):
            text = re.sub(rf"(?<!\w){re.escape(title)}(?!\w)", title, text, flags=re.IGNORECASE)
    return text


def is_name(title: str) -> bool:
    """Every word capitalised (or a joining word such as "van"): a name, not a topic
    (*Piano sonatas (Beethoven)*)."""
    words = title.split()
    return bool(words) and all(w[:1].isupper() or w in NAME_JOINERS for w in words)


def title_named(title: set[str], nameable: set[str], names: list[set[str]]) -> bool:
    """The part names this title: all its words (by root: "cricketers" names *Cricket*),
    and not only as words of a longer name. A one-letter numeral ending the title counts
    only for a part that gives one: "Pope Gregory" names *Pope Gregory I*, "World War I"
    does not name *World War II*."""
    title = _unnumbered(title, nameable)
    if not title or not {word_root(t) for t in title} <= {word_root(t) for t in nameable}:
        return False
    return not any(title < name for name in names) or any(title == n for n in names)


def _unnumbered(title: set[str], given: set[str]) -> set[str]:
    """A title's terms without the one-letter numeral ending it, unless the words that
    may name it (``given``) have one too: "Pope Gregory" names *Pope Gregory I* as
    before numerals were terms, and "World War I" still tells *World War I* from *II*."""
    if any(t.startswith(NUMERAL_MARK) for t in given):
        return title
    return {t for t in title if not t.startswith(NUMERAL_MARK)}


def full_names(part: Part, sources: list[SourceText]) -> list[str]:
    """Entity linking by a name's longer form: the part says "Bach", an entry is titled
    *Johann Sebastian Bach* (a title that is itself a name). Per name the shortest such
    title, and none when an entry has the name exactly."""
    linked: list[str] = []
    written = {s.id: term_set(s.title) for s in sources}
    for phrase in title_phrases(part.text):
        name = term_set(phrase)
        titles = {sid: _unnumbered(terms, name) for sid, terms in written.items()}
        if not name or any(t == name for t in titles.values()):
            continue
        longer = [s for s in sources if name < titles[s.id] and is_name(s.title)]
        if longer:
            linked.append(min(longer, key=lambda s: len(titles[s.id])).id)
    return linked


# Where a heading's name ends and its description starts: "Rc<T>, the Reference Counted
# Smart Pointer", "Cargo: the Rust package manager", "Pin — pinned pointers".
_DESCRIBED_AFTER = re.compile(r",\s+(?:the|a|an)\s+|:\s+|\s+[—–-]\s+", re.IGNORECASE)


def document_names(title: str) -> list[set[str]]:
    """The names a passage's title gives its document, beyond the title itself: a
    passage of a long file is titled "Document › Section", and the document's title may
    lead with the name it describes. Empty for a whole entry (no section)."""
    if " › " not in title:
        return [t for t in _head_name(title) if t]
    document = title.split(" › ", 1)[0]
    return [t for t in [term_set(document), *_head_name(document)] if t]


def _head_name(title: str) -> list[set[str]]:
    """The name a title leads with before its description, if it has one."""
    parts = _DESCRIBED_AFTER.split(title, maxsplit=1)
    return [term_set(parts[0])] if len(parts) == 2 else []


def opens_document(src: SourceText) -> bool:
    """A whole document (an entry, a page, a short file) or the passage a long file starts
    with: it opens by saying what it is about. A passage from the middle of a long file
    (``lines`` past its first line) opens where its section does, and is tied to other
    passages by its file, not by names."""
    return src.lines is None or src.lines[0] == 1


def made_from(token: str, name: str) -> bool:
    """Whether a capitalised ``token`` is an adjective made from a one-word ``name``
    (lower-cased), as in "the first Roman emperor" for the emperor of Rome, "the Chinese
    capital", "a Norwegian figure skater": it begins with the name but for its last two
    letters, at least three ("Rom", "Chin", "Norw"; not "Austrian" for Australia)."""
    lead = name[: max(3, len(name) - 2)]
    return token[:1].isupper() and token.lower().startswith(lead) and len(token) > len(lead)


def same_form(token: str, attribute: str) -> bool:
    """Whether the ``token`` is the ``attribute``'s word in some form ("capitals",
    "presidency")."""
    said, asked = word_root(stem(token.lower())), word_root(stem(attribute))
    short, long = sorted((said, asked), key=len)
    return bool(short) and long.startswith(short) and len(short) >= min(len(long) - 2, 4)


# "Which Austrian monk …", "Which Polish astronomer …": a part describing what it asks for
# by capitalised adjectives (a people's, a place's, a faith's) before the kind's noun.
_DESCRIBED_KIND = re.compile(
    r"^\W*(?i:which|what)\s+(?P<adjectives>(?:[A-Z][\w'\-]*\s+)+)"
    rf"(?!(?:{AUXILIARY_VERBS})\b)(?P<noun>[a-z][\w\-]*)\b"
)
DESCRIPTION_REACH = 3  # words before a kind's noun in an entry's opening that describe it


def describes_kind(part: str) -> bool:
    """Whether a part asks for a thing by capitalised adjectives before its kind's noun
    ("Which German composer went deaf")."""
    return _DESCRIBED_KIND.match(part) is not None


def describes_otherwise(part: str, opening: str) -> bool:
    """Whether an entry's ``opening`` describes it as the kind a part asks for with other
    capitalised adjectives than the part's: "Kūkai … was a Japanese Buddhist monk" is no
    "Austrian monk"; "an Austrian biologist, … Augustinian friar" and an opening that does
    not say the kind ("a Renaissance polymath" for a "Polish astronomer") may be."""
    if (m := _DESCRIBED_KIND.match(part)) is None:
        return False
    asked = [a.lower() for a in m["adjectives"].split()]
    tokens = TOKEN.findall(opening)
    for k, token in enumerate(tokens):
        if k == 0 or not same_form(token, m["noun"]):
            continue
        before = [t for t in tokens[max(1, k - DESCRIPTION_REACH) : k] if t[:1].isupper()]
        if before and not any(_akin(t.lower(), a) for t in before for a in asked):
            return True
    return False


def _akin(said: str, asked: str) -> bool:
    """The same adjective, or one made from the other's name ("Austrian", "Austria")."""
    return (
        said == asked or made_from(said.capitalize(), asked) or made_from(asked.capitalize(), said)
    )


BY_REACH = 5  # words after "by" that may name the doer ("by the Russian author Leo Tolstoy")


def names_doer_by(statement: str, thing: set[str]) -> bool:
    """Whether a ``statement`` names a doer after "by" with none of the ``thing``'s words
    (lower-cased): "both by Michelangelo", not "waged by the Roman general Gaius Julius
    Caesar" for Caesar."""
    for m in re.finditer(r"\bby\b", statement):
        named = [t for t in TOKEN.findall(statement[m.end() :])[:BY_REACH] if t[0].isupper()]
        if named and not {t.lower() for t in named} & thing:
            return True
    return False
