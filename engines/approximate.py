"""Is a phrase in a text, allowing for a letter or two that OCR got wrong?

A blurred photo reads "Numero de tacture", "Montily plan", "TOTALAOUNT DUE": each one letter
away from a phrase that names the document's type. Exact matching misses all three.

The search is exact where it can be: split the phrase into ``max_edits + 1`` pieces, and any
occurrence with at most ``max_edits`` edits must contain one piece unchanged (pigeonhole). Each
place a piece occurs is then checked with an edit-distance table over a window just wide enough
for the phrase, so the cost is a few ``str.find`` calls and a small table per candidate, not a
table over the whole page.
"""

from __future__ import annotations


def occurs_approximately(phrase: str, text: str, max_edits: int) -> bool:
    """Whether ``text`` holds ``phrase`` with at most ``max_edits`` insertions, deletions or
    substitutions (anywhere: the match need not start or end at a word boundary)."""
    if max_edits <= 0:
        return phrase in text
    if len(phrase) <= max_edits:
        return True  # every letter may be the one misread
    size = len(phrase) // (max_edits + 1)
    tried: set[int] = set()
    for index in range(max_edits + 1):
        offset = index * size
        piece = phrase[offset : offset + size] if index < max_edits else phrase[offset:]
        at = text.find(piece)
        while at != -1:
            start = max(0, at - offset - max_edits)
            if start not in tried:
                tried.add(start)
                window = text[start : at - offset + len(phrase) + max_edits]
                if _edits_within(phrase, window, max_edits) <= max_edits:
                    return True
            at = text.find(piece, at + 1)
    return False


def _edits_within(phrase: str, window: str, limit: int) -> int:
    """The fewest edits that turn ``phrase`` into some stretch of ``window`` (free start and
    end), or more than ``limit`` as soon as that is certain."""
    previous = [0] * (len(window) + 1)  # the phrase's empty prefix matches anywhere for free
    for i, char in enumerate(phrase, start=1):
        current = [i] + [0] * len(window)
        for j, other in enumerate(window, start=1):
            current[j] = min(
                previous[j - 1] + (char != other),
                previous[j] + 1,
                current[j - 1] + 1,
            )
        if min(current) > limit:
            return limit + 1  # every later row only grows
        previous = current
    return min(previous)
