"""The things a part asking of "each" one means, when the question listed them before it.

"Can I download all dependencies ahead of time, or should I copy their source code into our
repository? What do Cargo's commands for each approach do?" asks two questions: what the
command for downloading ahead does, and what the one for copying the source does. Each is
answered in its own place, so each is a part of its own, searched with the words of its own
alternative. The alternatives are the pieces one clause was split into ("Should I keep a
list sorted with bisect.insort, or use heapq"), or the items an earlier sentence lists,
after its colon if it has one, joined by ", and", ", or" or ";" ("in two situations: errors
recorded through the logging module, and every uncaught exception in any script").

Only English's own words for "each" and the list's punctuation: no topic vocabulary.
"""

from __future__ import annotations

import re

# "for each case", "each of them", "each one", "for each approach", "both of them" (not
# "each other": how things stand to one another)
_EACH = re.compile(
    r"\b(?:(?:for\s+)?each(?!\s+other\b)(?:\s+of\s+(?:them|these|those|the\s+[\w-]+))?(?:\s+[\w-]+)?"
    r"|both\s+of\s+them)\b",
    re.IGNORECASE,
)
# Where a list's items part: ", and", ", or", ";" (not "and" alone: "evenly sized and
# filling the width" is one item).
_ITEM_BREAK = re.compile(r"\s*(?:,\s*(?:and|or)\s+|;\s*)", re.IGNORECASE)
_LISTED = re.compile(r":\s+(?P<items>.+)$")  # the items after a colon
MAX_ALTERNATIVES = 3  # more items than this are a list, not alternatives to ask of apart


def asks_of_each(text: str) -> bool:
    """Whether a part asks the same of each of several things ("what does each of them
    cost", "what do I configure for each case")."""
    return _EACH.search(text) is not None


def alternatives(earlier: list[str], siblings: list[str]) -> list[str]:
    """The things a part asking of "each" means (see the module's description): the
    ``siblings`` (the pieces of the clause just before it, when it was split in two or
    more), else the items of the last ``earlier`` piece that lists two or more; none when
    none does or it lists more than MAX_ALTERNATIVES."""
    if len(siblings) >= 2:
        split = [s.strip(" ,;") for s in siblings]
        return split if len(split) <= MAX_ALTERNATIVES else []
    if not earlier:
        return []
    last = earlier[-1]
    listed = _LISTED.search(last)
    items = [i.strip(" ,;") for i in _ITEM_BREAK.split(listed["items"] if listed else last)]
    items = [i for i in items if i]
    return items if 2 <= len(items) <= MAX_ALTERNATIVES else []
