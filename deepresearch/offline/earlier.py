"""What a question's part takes from the pieces before it (offline decomposition): the
asker's story it asks about as a whole, the scene that brings in the thing it points back
to ("that city"), a matter told after a question was asked, the few things just named, the
question just asked. ``parts`` decides, piece by piece, which of these a part borrows.

Syntax only: no topic words."""

from __future__ import annotations

from itertools import takewhile

from deepresearch.offline.asking import asked_text, asks_a_kind, question_word, without_connective
from deepresearch.offline.clauses import BROUGHT_IN, POINTED_NOUN
from deepresearch.offline.lending import CODE_NAME, code_words
from deepresearch.offline.part import Part
from deepresearch.offline.scenes import in_first_person, leads_in_describing, sets_scene
from deepresearch.text import keywords, term_set, title_phrases

# Pointing back to a person ("which other materials did her research help explain"), a
# part goes on from the person named, not from a lead-in just before it ("Apart from DNA").
PERSONAL = frozenset(["he", "his", "him", "she", "her", "hers"])  # pronouns of a person
SHORT_PART_WORDS = 3  # a part with this few query words says too little of its own
# Words of the few things just named that a part pointing back to them borrows.
NAMED_FEW_WORDS = 6


def elliptic(piece: str, earlier: list[str], parts: list[Part]) -> list[str]:
    """For a question of one word ("Possible?"), which asks whether what was just said can
    be, the first words of the statement just before it, when that is not the first piece
    (whose words it borrows anyway). Else none."""
    if len(piece.split()) > 1 or len(earlier) < 2 or not parts[-1].scene:
        return []
    return keywords(asked_text(earlier[-1]))[:NAMED_FEW_WORDS]


def story_asked(piece: str, told: list[str], scenes: set[str], parts: list[Part]) -> str:
    """The words of the asker's own story (``told``: every piece before ``piece``, the
    scenes of it first, then only parts asking yes or no of it; ``parts`` theirs) when
    ``piece``, pointing back after it, asks about that story as a whole: with a few words
    of its own, naming nothing ("How should this be written", "What is sitting on that
    port"; "… a few fixes never get applied when I save. Is that intentional? How do I get
    save to apply those too"). What it asks of is what the story tells, not what its
    first words say. (Not a question of its own, "Which image tag should we use": the
    story's words drew other sections of long files to it.) Else none."""
    own = keywords(asked_text(piece))
    scene = list(takewhile(lambda p: p in scenes, told))
    about = (
        bool(scene)
        and piece not in scenes
        and not sets_scene(piece)
        # after the story only parts asking yes or no of it, no story told anew
        and all(
            p not in scenes and part.refers_back and question_word(p) is None
            for p, part in zip(told[len(scene) :], parts[len(scene) :], strict=True)
        )
        and len(own) <= SHORT_PART_WORDS
        and not title_phrases(piece)
        and not CODE_NAME.search(piece)
    )
    # its names written as code first
    story = " ".join(scene)
    return " ".join(dict.fromkeys(code_words(story) + keywords(story))) if about else ""


_AROUND_POINTED = 3  # words of the story on each side of the noun pointed back to


def pointed_in_scene(piece: str, earlier: list[str], parts: list[Part]) -> list[str]:
    """The names and the words around the noun ``piece`` points back with ("that city")
    in the nearest scene of ``earlier`` that brings it in as a new thing ("in one city",
    "a larger order"), unless the piece just before says it otherwise: "… rose to fame as
    a dramatist in one city during the first years of the 1890s. What offence was he
    convicted of, and which river does that city stand on" asks of the city the story
    places him in, not of the offence; "… describe a shift to farming in West Asia soon
    after the last Ice Age. What is that shift called" of the shift, not of the accounts
    the story opens with. Else none."""
    nouns = term_set(" ".join(POINTED_NOUN.findall(piece)))
    if not nouns or not earlier:
        return []
    for k in range(len(earlier) - 1, -1, -1):
        brought = BROUGHT_IN.findall(earlier[k]) if parts[k].scene else []
        if not nouns <= term_set(" ".join(brought)):
            if k == len(earlier) - 1 and nouns <= term_set(earlier[k]):
                return []  # the piece just before says it: what it says is lent anyway
            continue
        said = keywords(earlier[k])
        at = [i for i, w in enumerate(said) if term_set(w) & nouns]
        window = said[max(0, at[0] - _AROUND_POINTED) : at[-1] + _AROUND_POINTED + 1] if at else []
        names = [w for phrase in title_phrases(earlier[k]) for w in keywords(phrase)]
        return [w for w in dict.fromkeys(names + window) if not term_set(w) & nouns]
    return []


def new_matter(
    piece: str, earlier: list[str], parts: list[Part], told: tuple[set[str], set[str]]
) -> list[str]:
    """The words of the scene a part pointing back follows when that scene is told after a
    question already asked: it opens a new matter, which is what the part points back to
    ("…; can uvicorn add those itself? Separately, a partner says our response headers
    all come back lowercase. Is that uvicorn doing it, and can I switch it off"), not the
    question's opening. Short parts pointing back between them ("Is that uvicorn doing
    it") ask of it too. Only a sentence of the story (``stated``), not a lead-in ("apart
    from the two main islands, how many smaller ones …" asks on of the islands named
    before). A scene itself tells what it points back to in its own words. ``told``: the
    story's sentences, and those told with a comma before their question ("…, so module
    and defer settings are ignored; what filter should do this instead"), which are the
    matter of the question right after them, asked before or not. Else none."""
    stated, with_comma = told
    if piece in stated or sets_scene(piece):
        return []
    for k in range(len(earlier) - 1, 0, -1):
        if parts[k].scene:
            if earlier[k] not in stated | with_comma or sets_scene(earlier[k]):
                return []
            asked = earlier[k] in with_comma or any(not p.scene for p in parts[:k])
            return keywords(without_connective(earlier[k])) if asked else []
        if not (parts[k].refers_back and len(parts[k].own) <= SHORT_PART_WORDS):
            return []
    return []


def few_named(
    earlier: list[str],
    split: tuple[dict[int, list[str]], int],
    parts: list[Part],
    borrowed: list[str],
) -> list[str]:
    """What a part pointing back to the few things just named borrows: the words naming
    them (see ``_named_before``), then, when the first clause names them (``split``: the
    pieces of each split clause, and how many the first clause gave), the words it
    would borrow anyway (``borrowed``): what the first clause says of them counts too ("who
    led each effort" after "how Germany and Italy were unified"); a story the asker tells
    in the first person is their circumstances ("my script moves downloads … with
    os.rename"), while a statement of facts names the things ("Vänern and Lake Van are each
    the largest lake in their country")."""
    siblings, first_pieces = split
    named, at = _named_before(earlier, siblings, parts)
    circumstances = parts[at].scene and in_first_person(earlier[at])
    said = borrowed if at < first_pieces and not circumstances else []
    return list(dict.fromkeys(named + said))[:NAMED_FEW_WORDS] or borrowed


def _named_before(
    earlier: list[str], siblings: dict[int, list[str]], parts: list[Part]
) -> tuple[list[str], int]:
    """For a part pointing back to the few things just named ("which one gives me an
    atomic move", "what does each of them cost"), the words naming them in the nearest
    ``earlier`` piece (its part among ``parts``) that does more than point back: the words
    its clause's pieces do not share ("with bisect.insort, or use heapq"), else its names
    when it gives several (code names too: "os.rename … shutil.move"), else all its words.
    With the words, that piece's index (``len(earlier)`` when there is none). A piece
    pointing back with a few words of its own ("which one fits my problem") names nothing
    they could be, unless its clause was split in several; one saying more may be where
    they are named."""
    for k in range(len(earlier) - 1, -1, -1):
        if k not in siblings and parts[k].refers_back and len(parts[k].own) <= SHORT_PART_WORDS:
            continue
        if k in siblings:
            shared = set.intersection(*(term_set(p) for p in siblings[k]))
            found = [w for p in siblings[k] for w in keywords(p) if not term_set(w) <= shared]
        else:
            names = title_phrases(earlier[k]) + CODE_NAME.findall(earlier[k])
            several = [w for n in names for w in keywords(n)] if len(names) > 1 else []
            found = several or keywords(earlier[k])
        return list(dict.fromkeys(found)), k
    return [], len(earlier)


def asked_before(
    earlier: list[str], parts: list[Part], *, lend: bool, stated: set[str], said: set[str]
) -> tuple[list[str], list[str]]:
    """After the asker's story, the nearest ``earlier`` piece that asks something of its
    own (its part among ``parts`` is no scene, nor points back with a few words: "Is that
    true"): its words, and, if the story is the asker's own (``lend``), its query's (with
    those it borrowed), up to NAMED_FEW_WORDS; none when the scene comes first.
    A short part ("what happens if none can be found", "in what order") goes on from the
    question just asked ("how do I make uv look up credentials …"), not from the
    circumstances; so, when the asker tells their own situation (``in_first_person``), does
    a part pointing back: to what that question names ("what does it throw away" after
    "… recommends a pruning step: what is it") or points back to in turn ("if I pull it"
    after "Can I delete that version"). A story stating facts ("Shandong is home to the
    mountain …") names what a part points back to.
    A lead-in just before the part, not a sentence of the story (``stated``), is what it
    asks about ("Also, when the server hangs up mid-response, what error class is that"),
    unless the part points to a person (``said``: the part's words; "Apart from DNA,
    which other materials did her research help explain"); a lead-in pointing back itself
    with fewer than two words of its own ("if I pull it") names nothing, "And if I opt into
    it for formatting" formatting."""
    for k in range(len(earlier) - 1, -1, -1):
        lead_in = k == len(earlier) - 1 and earlier[k] not in stated
        if parts[k].scene and lead_in and not said & PERSONAL:
            lent = keywords(earlier[k])[:NAMED_FEW_WORDS]
            if not parts[k].refers_back or len(parts[k].own) >= 2:
                return lent, lent
        if parts[k].scene:
            return [], []
        # "which volcano buried them" asks a kind of thing of its own ("in what year" after
        # it asks when that happened), "Is that true" none
        short = parts[k].refers_back and len(parts[k].own) <= SHORT_PART_WORDS
        if not short or asks_a_kind(earlier[k]):
            # a phrase leading in with the thing it describes names what "its" stands for
            # ("…, and for the country where Chakjobon lies, what is its population")
            named = leads_in_describing(earlier[k])
            lent = parts[k].query.split() if lend or named else []
            return keywords(earlier[k])[:NAMED_FEW_WORDS], lent[:NAMED_FEW_WORDS]
    return [], []
