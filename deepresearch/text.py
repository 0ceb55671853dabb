"""Text tools every layer shares: word and query normalisation, the sentence splitter, the
token estimate. Deterministic and dependency-free, so state, providers, phases, budget and
the offline engine all import from here and agree on what a word, a sentence, a query
and a token are."""

from __future__ import annotations

import functools
import math
import re
import unicodedata
from collections.abc import Callable, Iterable

STOPWORDS = frozenset(
    [
        "a", "about", "above", "after", "again", "against", "all", "also", "am", "an",
        "and", "any", "are", "as", "at", "be", "because", "been", "before", "being",
        "below", "between", "both", "but", "by", "can", "could", "did", "do", "does",
        "doing", "down", "during", "each", "few", "for", "from", "further", "had", "has",
        "have", "having", "he", "her", "here", "hers", "herself", "him", "himself", "his",
        "how", "i", "if", "in", "into", "is", "it", "its", "itself", "just", "me", "more",
        "most", "my", "myself", "no", "never", "none", "nor", "not", "now", "of", "off",
        "on", "once", "only", "or", "other", "others", "our", "ours", "ourselves", "out",
        "over", "own", "same", "she", "should", "so", "some", "such", "than", "that",
        "the", "their", "theirs", "them", "themselves", "then", "there", "these", "they",
        "this", "those", "through", "to", "too", "under", "until", "up", "very", "was",
        "we", "were", "what", "when", "where", "which", "while", "who", "whom", "why",
        "will", "with", "would", "you", "your", "yours", "yourself", "yourselves", "it's",
        # contractions of the words above ("I'm", "don't"): as empty of meaning
        "i'm", "i'd", "i've", "i'll", "we're", "we've", "we'd", "we'll", "you're",
        "you've", "you'd", "you'll", "they're", "they've", "they'd", "he's", "she's",
        "that's", "there's", "what's", "let's", "don't", "doesn't", "didn't", "can't",
        "won't", "isn't", "aren't", "wasn't", "weren't", "hasn't", "haven't", "hadn't",
        "shouldn't", "couldn't", "wouldn't",
        # words of a request's frame ("tell me", "compare") and vague ones
        "known", "know", "tell", "explain", "describe", "compare", "contrast", "role",
        "play", "plays", "matter", "matters", "much", "many", "large", "become", "became",
        "get", "got", "make", "made", "whose", "whats", "use", "used", "using", "way",
        "ways", "like", "kind", "one", "two", "well", "within", "via", "s",
    ]
)  # fmt: skip
# Indefinite pronouns: ending a compound, they stand for any ("X-Forwarded-whatever": the
# X-Forwarded headers). (Not stopwords: "without typing anything special" is asked of.)
_INDEFINITE = frozenset(
    [
        "something", "anything", "everything", "nothing", "someone", "anyone", "everyone",
        "somebody", "anybody", "everybody", "nobody", "somewhere", "anywhere",
        "everywhere", "nowhere", "whatever", "whichever", "whoever", "whenever",
        "wherever",
    ]
)  # fmt: skip
ARTICLES = frozenset({"the", "a", "an"})
# A count written in words ("four strings", "twenty-one", "eight-time"). English cardinals
# are a small closed set, so listed rather than parsed (recognising one is all that is
# needed); "one" is left out, mostly a pronoun ("one of the greatest").
NUMBER_WORD = re.compile(
    r"(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|(?:thir|four|fif|six|seven"
    r"|eigh|nine)teen|(?:twen|thir|for|fif|six|seven|eigh|nine)ty|dozens?"
    r"|(?:hundred|thousand|million|billion)s?)(?:-[a-z]+)?",
    re.IGNORECASE,
)
# A number joined to its unit by a hyphen ("13-day", "five-year"): the unit is group 1.
_NUMBER_COMPOUND = re.compile(rf"(?:\d[\d.,]*|{NUMBER_WORD.pattern})-([a-z]+)", re.IGNORECASE)


def with_units(terms: set[str]) -> set[str]:
    """``terms`` and the unit of each number compound among them: "a 13-day
    confrontation" speaks of days, "a five-year plan" of years ("twenty-one" of none)."""
    units = (m[1].lower() for t in terms if (m := _NUMBER_COMPOUND.fullmatch(t)))
    return terms | {u for u in units if u != "one" and not NUMBER_WORD.fullmatch(u)}


# English auxiliary verbs, as a pattern alternation: what follows a question word that
# asks ("when did", "how old is"), as opposed to a clause that says ("when creating").
AUXILIARY_VERBS = "is|are|was|were|do|does|did|has|have|had|can|could|will|would|should"
# ... and the modals: a verb before its subject puts a clause in a question's order
AUXILIARY_OR_MODAL = f"{AUXILIARY_VERBS}|shall|may|might|must"
COPULAS = frozenset({"is", "are", "was", "were"})  # the forms of "be" a statement says
# Words that shape a question but name no topic of it.
QUESTION_FRAME = frozenset(
    [
        "what",
        "who",
        "when",
        "where",
        "why",
        "how",
        "which",
        "is",
        "are",
        "was",
        "were",
        "do",
        "does",
        "did",
        "the",
        "a",
        "an",
    ]
)

_WORD = re.compile(r"[^\W_](?:[^\W_]|['\-])*")  # any script: 'Königsberg', 'Röntgen'
# A sentence ends at . ! ? or …, with any [n] citation markers right after it, before a
# word that starts a sentence (capital or digit, maybe after a quote, parenthesis or
# emphasis mark) or the end. Not before "[": that is a citation marker of the sentence.
_BOUNDARY = re.compile(r"[.!?…](?:\s*\[\d+(?:\s*,\s*\d+)*\])*(?=\s+[\"'(*]?[A-Z0-9]|\s*$)")
# ... or before any word, in a text written without capitals ("my build broke. how do i");
# in a question, before a question word written in lower case ("… (old).py`. why are they").
_UNCASED_BOUNDARY = re.compile(r"[.!?…](?=\s+[\"'(*]?[^\W_]|\s*$)")
_ASKING_BOUNDARY = re.compile(
    rf"{_BOUNDARY.pattern}|[.!?…](?=\s+(?:what|how|why|when|where|who|whom|whose|which)\b)"
)
# ... but not after an abbreviation or an initial ("e.g.", "a.k.a.", "c. 1775", "J. S.
# Bach"), nor after one that stands before a number or a name ("Symphony No. 41", "Op.
# 27", "Prof. Curie", "Mt. Everest"). Letters each followed by a dot ("i.e.", "U.S.",
# "a.k.a.") are one abbreviation, whatever its letters.
_ABBREVIATION = re.compile(
    r"(?:(?<![\w.])(?:(?:[A-Za-z]\.)+[A-Za-z]|c|ca|St|Dr|Mr|Mrs|Ms|vs|No|Nos|Vol|Op|pp|Fig|Prof|Gen|Gov|Mt|Lt|Col|Sgt|Capt|Rev|Fr)|\b[A-Z])\.$"
)
MIN_SENTENCE_CHARS = 20  # shorter pieces of prose are fragments, not statements


def normalize(text: str) -> str:
    """``text`` in Unicode NFKC form (ligatures and full-width forms folded).

    Args:
        text: any text.
    """
    return unicodedata.normalize("NFKC", text)


def normalize_query(query: str) -> str:
    """The form two queries are compared in: case and spacing do not make a new query."""
    return " ".join(query.lower().split())


def unaccented(word: str) -> str:
    """``word`` without its accents and with one apostrophe ("baháʼí" → "baha'i"): terms
    match as the corpus search matches words ("Dvorak" asked, "Dvořák" written)."""
    if word.isascii():  # most words: nothing to fold (every term of every text passes here)
        return word
    folded = unicodedata.normalize("NFKD", word.replace("ʼ", "'"))
    return "".join(c for c in folded if not unicodedata.combining(c))


def words(text: str) -> list[str]:
    """Lower-cased words; a possessive "'s" is dropped ("Picasso's" → "picasso")."""
    return [w for w, _ in _cased_words(text)]


def _cased_words(text: str) -> list[tuple[str, str]]:
    """Each word lower-cased (possessive dropped) beside it as written."""
    out = []
    for w in _WORD.findall(normalize(text).replace("’", "'")):
        low = w.lower()
        head, _, last = low.rpartition("-")
        low = head if head and last in _INDEFINITE else low
        out.append(((low[:-2] if low.endswith("'s") else low).strip("'-"), w))
    return out


# A one-letter Roman numeral ends a name ("World War I", "Charles V", "Saturn V") when it
# follows a capitalised word that is not an acronym or a function word ("In CI I want",
# "Can I"): a term of its own, so "World War I" is not "World War II" with a word less.
_NUMERAL_LETTERS = frozenset("IVX")
NUMERAL_MARK = "#"


def _term_words(text: str) -> list[str]:
    """The words of ``text`` as :func:`words` gives them, a name's one-letter Roman
    numeral marked (``#i``) so it is kept as a term where the pronoun "I" is not."""
    cased = _cased_words(text)
    written = [w for _, w in cased]
    return [
        NUMERAL_MARK + low if ends_name(written, i) else low for i, (low, _) in enumerate(cased)
    ]


def ends_name(tokens: list[str], i: int) -> bool:
    """Whether ``tokens[i]`` (words as written) is a one-letter Roman numeral ending a
    name: "I" after "War", not after "CI" or "Can"."""
    if not 0 < i < len(tokens) or tokens[i] not in _NUMERAL_LETTERS:
        return False
    before = tokens[i - 1]
    return before[:1].isupper() and before[1:].islower() and before.lower() not in STOPWORDS


@functools.lru_cache(maxsize=50_000)  # read with a part's terms for every statement scored
def numeral_terms(text: str) -> frozenset[str]:
    """The one-letter Roman numerals ending names in ``text``, as terms (``#i``)."""
    return frozenset(w for w in _term_words(text) if w.startswith(NUMERAL_MARK))


def _meaningful(word: str) -> bool:
    return (len(word) >= 2 or word.startswith(NUMERAL_MARK)) and word not in STOPWORDS


# English irregular past forms and their verbs ("arose" → "arise"), so a question asking
# "when did it arise" matches a source saying "it arose". Only forms that are not also a
# common noun or adjective ("found", "rose", "saw", "left", "felt", "ground", "thought"
# stay as they are). English morphology, not a topic's words.
_IRREGULAR_PAST = {
    form: verb
    for verb, forms in {
        "arise": "arose arisen", "begin": "began begun", "break": "broke broken",
        "bring": "brought", "build": "built", "buy": "bought", "catch": "caught",
        "choose": "chose chosen", "come": "came", "deal": "dealt", "dig": "dug",
        "draw": "drew drawn", "drive": "drove driven", "eat": "ate eaten", "fall": "fell",
        "fight": "fought", "flee": "fled", "fly": "flew flown", "forbid": "forbade forbidden",
        "forget": "forgot forgotten", "freeze": "froze frozen", "give": "gave given",
        "go": "went gone", "grow": "grew grown", "hang": "hung", "hide": "hid hidden",
        "hold": "held", "keep": "kept", "lead": "led", "lose": "lost", "mean": "meant",
        "meet": "met", "overthrow": "overthrew overthrown", "pay": "paid",
        "ride": "rode ridden", "run": "ran", "say": "said", "sell": "sold", "send": "sent",
        "shake": "shook shaken", "sing": "sang sung", "sink": "sank sunk",
        "slay": "slew slain", "speak": "spoke spoken", "spend": "spent", "stand": "stood",
        "steal": "stole stolen", "strike": "struck stricken", "swear": "swore sworn",
        "swim": "swam swum", "take": "took taken", "teach": "taught",
        "throw": "threw thrown", "understand": "understood",
        "undertake": "undertook undertaken", "wake": "woke woken", "wear": "wore worn",
        "weep": "wept", "win": "won", "withdraw": "withdrew withdrawn",
        "write": "wrote written",
    }.items()
    for form in forms.split()
}  # fmt: skip


# Plurals and third persons that add "-es" to a hissing sound; words whose singular ends in
# "-che" ("caches", "niches") end otherwise ("-aches", "-iches").
_SIBILANT_PLURALS = ("sses", "xes", "shes", "tches", "nches", "rches", "zzes")


def is_past_form(word: str) -> bool:
    """Whether a lower-case ``word`` reads as a verb's past form ("ruled", "wrote")."""
    return word in _IRREGULAR_PAST or (len(word) > 4 and word.endswith("ed"))


# The nouns of a life's two events read as their verbs, so "when did he die" matches
# "until his death in 1989" and "where was she born" "her birth in Warsaw". English
# morphology (no rule forms them), not a topic's words.
_EVENT_NOUNS = {"death": "die", "birth": "born"}


def stem(word: str) -> str:
    """A light plural stripper: enough to match 'empires'/'empire', 'diseases'/'disease';
    an irregular past form reads as its verb ('arose' → 'arise'), and so do the nouns of
    dying and birth ('deaths' → 'die')."""
    if word in _IRREGULAR_PAST:
        return _IRREGULAR_PAST[word]
    if len(word) <= 3:
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(_SIBILANT_PLURALS):
        return word[:-2]  # "boxes", "crashes", "patches": "-es" after a hissing sound
    if word.endswith(("ss", "us", "is", "os")):
        return word
    if word.endswith("s"):
        word = word[:-1]
    return _EVENT_NOUNS.get(word, word)


TITLE_QUALIFIER = re.compile(r"\s*\([^)]*\)")  # "Don (river)": a title's bracketed qualifier
_INFLECTION = re.compile(r"(?:ing|ed|ers|er|es|s)$")


def word_root(term: str) -> str:
    """A word without its inflection ("ended", "founder" → "end", "found"; "originate",
    "originated" → "originat"; "border", "bordered" → "bord"), when at least three letters
    remain: verbs and agent nouns match their question words."""
    # no plural "s" after a hissing sound or a vowel ("Atlantis", "virus", "Paris"), as in
    # ``stem``: else "Atlantis" would be "atlanti", which "Atlantic" begins with
    root = term if term.endswith(("ss", "us", "is", "os")) else _INFLECTION.sub("", term)
    if root != term and root.endswith("er") and len(root) >= 5:
        # a word ending in "-er" loses it as "border" does: "bordered", "discoverer" →
        # "bord", "discov", as "border", "discover"
        root = root[:-2]
    root = root.removesuffix("e") if len(root) > 3 else root  # "originate", "originated"
    if (
        len(term) > 3
        and len(root) < 3
        and term.endswith(("ed", "es"))
        and term[:-1] not in STOPWORDS
    ):
        return term[:-1]  # "died", "dies" → "die"; "used" → "use"; not "shed" → "she"
    return root if len(root) >= 3 else term


# Irregular past tenses whose doer has a noun of the verb's own ("wrote" → "writer").
_IRREGULAR_DOERS = {
    "wrote": "writer", "led": "leader", "built": "builder", "made": "maker", "won": "winner",
    "fought": "fighter", "taught": "teacher", "sang": "singer", "drove": "driver",
    "rode": "rider", "ran": "runner", "spoke": "speaker", "held": "holder", "sold": "seller",
}  # fmt: skip
# Verb endings whose doer takes "-or" (Latin-derived: creator, inventor, director, editor).
_OR_DOER = re.compile(r"(?:at|ct|ent|it|ern)$")


def agent_noun(verb: str) -> str | None:
    """The noun for the one who did what a past-tense ``verb`` says, by English
    morphology: "invented" → "inventor", "founded" → "founder", "created" → "creator",
    "unified" → "unifier", "wrote" → "writer"; None for a word that is not a past tense
    this can form one from."""
    verb = verb.lower()
    if verb in _IRREGULAR_DOERS:
        return _IRREGULAR_DOERS[verb]
    if len(verb) < 5 or not verb.endswith("ed") or verb.endswith("eed"):
        return None
    base = verb[:-2]  # "creat", "found", "describ", "plann", "unifi": the doer's stem
    return base + ("or" if _OR_DOER.search(base) and not base.endswith("itt") else "er")


# A protocol's or format's version written after a slash is part of its name: "HTTP/2"
# is not "HTTP/1.1" (an acronym, not a path such as "orders/5").
_VERSIONED = re.compile(r"\b[A-Z][A-Z0-9]+/\d+(?:\.\d+)?\b")


def keywords(text: str) -> list[str]:
    """Meaningful words as written (not stemmed), in order, without repeats: for queries."""
    seen: dict[str, str] = {}
    for w in _term_words(text):
        if _meaningful(w):
            w = w.removeprefix(NUMERAL_MARK)  # "world war i": as a search engine reads it
            seen.setdefault(stem(w), w)
    for name in _VERSIONED.findall(text):
        seen.setdefault(name.lower(), name)  # as written: its terms are read from it
    return list(seen.values())


def content_terms(text: str) -> list[str]:
    """Lower-cased, stemmed words that carry meaning, in order, without repeats."""
    return list(_content_terms(text))


def term_of(word: str) -> str:
    """The term a word of a text counts as (``content_terms``): unaccented, stemmed, so a
    keyword is compared with terms as they are ("Curaçao" with "curacao")."""
    return stem(unaccented(word))


@functools.lru_cache(maxsize=50_000)
def _content_terms(text: str) -> tuple[str, ...]:
    # The same source sentences are compared many times in one run: compute once.
    seen: dict[str, None] = {}
    for w in _term_words(text):
        if _meaningful(w):
            seen.setdefault(term_of(w), None)
    for name in _VERSIONED.findall(text):
        seen.setdefault(name.lower(), None)
    return tuple(seen)


@functools.lru_cache(maxsize=50_000)
def term_sequence(text: str) -> tuple[str, ...]:
    """The content terms of ``text`` in order, repeats kept (unlike ``content_terms``): for
    matching a phrase where its words stand together.

    Args:
        text: any text.
    """
    return tuple(stem(unaccented(w)) for w in _term_words(text) if _meaningful(w))


def term_set(text: str) -> set[str]:
    """The distinct content terms of ``text``.

    Args:
        text: any text.
    """
    return set(content_terms(text))


def jaccard(a: set[str], b: set[str]) -> float:
    """Jaccard similarity of two term sets (0.0 when either is empty).

    Args:
        a: one term set.
        b: the other.
    """
    if not a or not b:
        return 0.0
    return len(a & b) / len(a | b)


def containment(small: set[str], big: set[str]) -> float:
    """Share of ``small`` found in ``big``: how much of a sentence another text covers."""
    if not small:
        return 0.0
    return len(small & big) / len(small)


def split_sentences(
    text: str, *, lines: bool = False, cased: bool = True, asking: bool = False
) -> list[str]:
    """Sentences of ``text``, whitespace-normalised, each keeping the [n] markers that
    follow its end; abbreviations and initials never end one. A line break is a soft wrap
    inside prose, or with ``lines`` a boundary too (for texts whose lines are units: a
    prompt's fields, a digest's bullets). Not ``cased``: a text written without capitals,
    whose sentences may open with a small letter; ``asking``: a question, whose question
    words open a sentence in lower case too."""
    chunks = text.splitlines() if lines else [text.replace("\n", " ")]
    boundary = _UNCASED_BOUNDARY if not cased else _ASKING_BOUNDARY if asking else _BOUNDARY
    out: list[str] = []
    for chunk in chunks:
        start = 0
        for m in boundary.finditer(chunk):
            if _ABBREVIATION.search(chunk[start : m.start() + 1]):
                continue
            out.append(chunk[start : m.end()])
            start = m.end()
        out.append(chunk[start:])
    return [" ".join(piece.split()) for piece in out if piece.strip()]


def sentences(text: str) -> list[str]:
    """The prose sentences of ``text`` (NFKC-normalised) long enough to state something."""
    return [s for s in split_sentences(normalize(text)) if len(s) >= MIN_SENTENCE_CHARS]


_CONTRACTION = re.compile(r"(?:n't|'(?:m|re|ve|ll|d|s|t))$")


# Determiners opening a sentence with a capital, never a name's word: "Every time I touch …".
_INDEFINITE_DETERMINERS = frozenset(["every", "several", "another", "either", "neither"])


def title_phrases(question: str) -> list[str]:
    """Capitalised runs in a question ('Genghis Khan', 'Mongol Empire') — likely entities."""
    tokens = re.findall(r"[^\W\d_][\w'\-]*", normalize(question))
    phrases: list[str] = []
    run: list[str] = []
    for i, tok in enumerate(tokens):
        # A word is judged without its contraction: "What's", "Isn't", "I'm".
        base = _CONTRACTION.sub("", tok.lower())
        is_cap = tok[0].isupper() and (i > 0 or base not in QUESTION_FRAME)
        if (is_cap and base not in STOPWORDS and base not in _INDEFINITE_DETERMINERS) or (
            run and ends_name(tokens, i)
        ):
            run.append(tok)
        else:
            if run:
                phrases.append(" ".join(run))
            run = []
    if run:
        phrases.append(" ".join(run))
    return phrases


def clauses(question: str) -> list[str]:
    """Split a compound question on 'and'/commas/';' into its parts."""
    text = normalize(question).strip().rstrip("?.!")
    parts = re.split(
        r"\s*(?:;|,\s*and\s+|\s+and\s+(?=(?:what|how|why|when|where|who|which|is|are|does|did|do)\b)|,\s*(?=(?:what|how|why|when|where|who|which)\b))",
        text,
        flags=re.IGNORECASE,
    )
    return [p.strip() for p in parts if p and len(content_terms(p)) > 0]


def truncate_words(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters at a word boundary, with an ellipsis.

    Args:
        text: any text.
        limit: the most characters kept.
    """
    if len(text) <= limit:
        return text
    cut = text[:limit].rsplit(" ", 1)[0]
    return cut.rstrip(",;:") + "…"


def unique(items: Iterable[str]) -> list[str]:
    """``items`` without duplicates by normalised query, first spelling kept, in order.

    Args:
        items: queries or other strings.
    """
    seen: dict[str, str] = {}
    for item in items:
        key = normalize_query(item)
        if key and key not in seen:
            seen[key] = item
    return list(seen.values())


def estimate_tokens(text: str, chars_per_token: float = 4.0) -> int:
    """The token estimate every layer uses when it has no tokenizer: characters /
    ``chars_per_token`` (4 for English prose), plus half a token per extra UTF-8 byte, as
    tokenizers split non-ASCII text more finely. Errs high, so budgets stay safe."""
    if not text:
        return 0
    estimate = len(text) / chars_per_token
    if not text.isascii():
        estimate += (len(text.encode("utf-8")) - len(text)) / 2
    return math.ceil(estimate)


_CITED_LINE = re.compile(r"^-\s+(?P<text>.+?)\s+\[(?P<n>\d+)\]\s*$")


def cited_lines(digest: str) -> list[tuple[int, str]]:
    """(citation, statement) for each '- statement [n]' line of a compressed topic."""
    out = []
    for line in digest.splitlines():
        if m := _CITED_LINE.match(line.strip()):
            out.append((int(m["n"]), m["text"]))
    return out


CITATION_MARKER = re.compile(r"\[(\d+(?:\s*,\s*\d+)*)\]")
# Where "[0]" is text, never a citation: code (fenced blocks, code spans) and headings
# (the question and its parts, as the user wrote them).
_NOT_CITED = re.compile(r"```.*?```|~~~.*?~~~|(`+)[^\n]*?\1|^#{1,6}[ \t][^\n]*$", re.S | re.M)


def glued_to_word(match: re.Match[str]) -> bool:
    """Whether a bracket ``match`` follows a word character with no space ("s[0]"): an
    index, when the number is not a source's."""
    before = match.string[match.start() - 1] if match.start() > 0 else " "
    return before.isalnum() or before == "_"


def sub_citations(text: str, replace: Callable[[re.Match[str]], str]) -> str:
    """``text`` with each citation marker ("[3]", "[1, 4]") replaced by ``replace(match)``,
    outside code and headings. A marker ``replace`` drops that is glued to a word ("s[0]",
    "v[2]") is indexing, not a citation, and stays as written."""

    def one(match: re.Match[str]) -> str:
        out = replace(match)
        return match[0] if not out and glued_to_word(match) else out

    pieces: list[str] = []
    last = 0
    for kept in _NOT_CITED.finditer(text):
        pieces += [CITATION_MARKER.sub(one, text[last : kept.start()]), kept[0]]
        last = kept.end()
    return "".join([*pieces, CITATION_MARKER.sub(one, text[last:])])


def escape_citation_markers(text: str) -> str:
    """``text`` quoted from a source with its bracketed numbers escaped as Markdown
    ("itertools.accumulate([1, 2, 3])" → "…(\\[1, 2, 3\\])", "v[2]" → "v\\[2\\]"): they are
    the source's own text, not citations of the report's sources, and render the same.
    Code and headings are left as written (no marker there is read as a citation)."""
    return sub_citations(text, lambda m: f"\\[{m[1]}\\]")
