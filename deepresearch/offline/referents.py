"""What a statement's opening pronoun stands for, said beside it where the report shows the
statement after another source's, or after one of its own source's that does not name the
entry ("The electron was the first subatomic particle to be discovered. He (J. J.
Thomson) received …").

An entry's statements are extracted one by one, and an entry's later sentences open with
"It", "He" or "His" for its subject. Shown after another source's statement, the pronoun
reads as that one's subject: "The Atlas Mountains are a mountain range in the Maghreb [1]
It is the highest mountain in Africa [3]" says the Atlas is Africa's highest mountain. The
report names the entry in brackets after the pronoun, as a quotation clarifies its
referent: "It (Mount Kilimanjaro) is the highest mountain in Africa [3]".

Only where that is what the pronoun stands for:
- the source is a whole entry (a passage of a long file continues its section, whose
  subject its title does not say);
- "He", "She", "His", "Her" in an entry that speaks of a person (its statements in the
  report say "he", "his", "she" or "her"), "It", "Its" in one that does not, nor
  describes its subject as one "who" did something (in *Murasaki Shikibu*, "It is the
  first novel written by a woman" is *The Tale of Genji*; in *Johannes Gutenberg*, "… was
  a German inventor and craftsman who invented the movable-type printing press", "It had
  a profound impact on … the Renaissance" is his press), "They",
  "Their" in one whose name is plural (*Atlas Mountains*; in *Vincent van Gogh*, "They
  include landscapes" are his paintings);
- not "It" standing for nothing ("It is estimated that …", "It was not until …").
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from deepresearch.offline.mentions import TOKEN
from deepresearch.providers.passages import HEADING_SEPARATOR
from deepresearch.roles import FindingBrief, SourceRef
from deepresearch.text import TITLE_QUALIFIER

_OPENING = re.compile(r"^(?P<pronoun>It|Its|He|She|His|Her|They|Their)\s")
_PERSONAL = frozenset({"He", "She", "His", "Her"})
_PLURAL = frozenset({"They", "Their"})
_POSSESSIVE = frozenset({"Its", "His", "Her", "Their"})
# A personal pronoun: an entry whose statements use one speaks of a person, and a part
# using one asks about a person (report.py).
PERSON_WORDS = re.compile(r"\b(?:he|she|his|her|him)\b", re.IGNORECASE)
# "… was a German inventor and craftsman who invented …": a subject described as one who
# did something is a person.
_DESCRIBED_PERSON = re.compile(r"\b(?:is|was)\s+(?:an?|the)\s+[^.;,]*?\bwho\b")
# "It is estimated that", "It was not until", "It is possible to": an "it" standing for
# nothing, which the clause after it fills.
_EXPLETIVE = re.compile(
    r"^It\s+(?:is|was|has\s+been|had\s+been|seems|seemed|appears|appeared|remains)\s+"
    r"(?:\S+\s+){0,2}?(?:that|to|whether|not\s+until)\b"
)


def opens_with_subject(sentence: str) -> bool:
    """Whether a sentence of an entry opens with a pronoun for the entry's subject ("It is
    bordered by …", "His works …"), not an "it" standing for nothing."""
    return _OPENING.match(sentence) is not None and not expletive(sentence)


def expletive(statement: str) -> bool:
    """Whether a statement opens with an "it" standing for nothing ("It is estimated that
    …"), which the clause after it fills."""
    return _EXPLETIVE.match(statement) is not None


class Referents:
    """The entries among a report's sources whose statements' opening pronouns stand for
    their subject: citation → the subject's name, and which of them speak of a person."""

    def __init__(self, sources: Iterable[SourceRef], findings: Iterable[FindingBrief]) -> None:
        self.names = {
            s.citation: TITLE_QUALIFIER.sub("", s.title).strip()
            for s in sources
            if "#" not in s.url and HEADING_SEPARATOR not in s.title
        }
        findings = list(findings)
        self.persons = frozenset(
            f.citations[0] for f in findings if f.citations and PERSON_WORDS.search(f.content)
        )
        # an entry describing its subject as one "who" did something is on a person too,
        # which an "it" does not stand for; the report reads ``persons`` alone for what a
        # part's "he" may stand for
        self._described_persons = frozenset(
            f.citations[0] for f in findings if f.citations and _DESCRIBED_PERSON.search(f.content)
        )

    def said(self, finding: FindingBrief, after: FindingBrief | None) -> str:
        """The finding's statement as the report shows it right ``after`` another (None:
        first in its line or list): its opening pronoun glossed with its entry's name
        where the statement before does not go on about the entry (``_goes_on``)."""
        source = finding.citations[0] if finding.citations else None
        m = _OPENING.match(finding.content)
        name = self.names.get(source) if source is not None else None
        # after its own source's statement naming the entry, the pronoun reads right
        # ("Mars is … [1] It is …"); after one that does not, it reads as nobody
        # ("The electron was the first subatomic particle to be discovered. He received …")
        if m is None or not name or (after is not None and _goes_on(after, source, name)):
            return finding.content
        pronoun = m["pronoun"]
        if (pronoun in _PERSONAL) != (source in self.persons) or expletive(finding.content):
            return finding.content
        if source in self._described_persons and pronoun not in _PERSONAL:
            return finding.content
        # a person is one, whatever the name's last letter ("LeBron James")
        if pronoun not in _PERSONAL and (pronoun in _PLURAL) != _plural(name):
            return finding.content
        gloss = f"{name}'s" if pronoun in _POSSESSIVE else name
        return f"{pronoun} ({gloss}){finding.content[len(pronoun) :]}"


def _goes_on(before: FindingBrief, source: int | None, name: str) -> bool:
    """Whether a statement shown right after ``before`` goes on from it about the entry
    ``name`` (its ``source``'s): ``before`` is that source's and says the name, its last
    word, or a pronoun standing for it in turn."""
    if before.citations[:1] != [source]:
        return False
    said = [w.lower() for w in TOKEN.findall(before.content)]
    last = [w.lower() for w in TOKEN.findall(name)][-1:]
    return bool(_OPENING.match(before.content)) or bool(last and last[0] in said)


def _plural(name: str) -> bool:
    """Whether a name is of several things ("Atlas Mountains", "The Beatles"): its last word
    ends in a plural "s" (not "ss", "us", "is": "Princess", "Uranus", "Paris")."""
    last = name.split()[-1] if name.split() else ""
    return last.endswith("s") and not last.endswith(("ss", "us", "is"))
