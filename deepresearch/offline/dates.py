"""What says when: one notion of a date for the offline engine's checks and summary leads.

A date is a year ("1616", not "2,100" or "1,287.36"; "in 804," too), an era's year
("508 BC", "AD 14"), a decade ("the 1840s"), a century or millennium, "40,000 years ago",
or a day of a month ("18 May 1804"). A count ("2,100 artworks"), an age ("at 37") or a
measure is not one.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December")  # fmt: skip
DATE = re.compile(
    r"(?<![\d.])(?<!\d,)[12]\d{3}(?!\d|[,.]\d)|\b\d+\s*(?:BCE?|AD|CE)\b|\b(?:AD|CE)\s*\d+|\b\d{3,4}s\b"
    r"|\b(?i:centur(?:y|ies)|millenni(?:um|a)"
    r"|\d[\d,.]*\s+(?:(?:thousand|million|billion)\s+)?years\s+ago)\b"
    # "became a stem duchy in 804, in …": a year of three figures after "in", where the
    # clause goes on or ends (not "in 300 cities")
    r"|\b(?:in|since|until)\s+\d{3}(?=\s*[,;:.)]|\s+(?:and|or|when|after|before)\b|$)"
    rf"|\b\d{{1,2}}\s+(?:{'|'.join(MONTHS)})\b",
)


# "What year was …", "in which year did …", "in what years were …", "in which century
# did …": a date asked without "when".
_ASKS_YEAR = re.compile(
    r"\b(?:what|which)\s+(?:years?|decades?|century|centuries)\b", re.IGNORECASE
)


def asks_year(text: str) -> bool:
    """Whether ``text`` asks for a year in words other than "when" ("What year was …")."""
    return bool(_ASKS_YEAR.search(text))


def gives_date(text: str, asked: Iterable[str] = ()) -> bool:
    """Whether ``text`` gives a date (see the module's description) other than one the
    question itself gives (``asked``: its words, lower-cased)."""
    given = {a.lower() for a in asked}
    return any(m.group().lower() not in given for m in DATE.finditer(text))
