"""Does whole-page OCR read the MRZ's unguarded codes as the MRZ reader did?

No check digit guards the issuing state, the nationality or the sex, and the printed page seldom
repeats the issuing state as a code. Whole-page OCR reads the MRZ lines too, in its own crops and
without the format's template: a second, independent reading. Where it reads a country code as
another known code (IND where the MRZ reader read HND on a clean card of seed 74, approved with
the wrong state), one of the two recognisers took one letter for another and nothing on the page
says which, so the field goes to an operator. A page reading that gives no known code, or none
at all, says nothing: whole-page OCR misreads a small MRZ far more often than the MRZ reader.
"""

from __future__ import annotations

from collections.abc import Sequence
from difflib import SequenceMatcher

from engines.layout import PageText
from engines.mrz.countries import is_known_code
from engines.mrz.formats import MrzFormat
from engines.mrz.repair import normalize_line

_COUNTRY_FIELDS = ("issuing_country", "nationality")
_SEXES = frozenset("MF")
# A page line is a reading of an MRZ line (or of a piece of one the detector cut) when at least
# this many of its characters, and this share of them, line up with the MRZ line.
_MIN_ALIGNED_CHARS = 8
_MIN_ALIGNED_SHARE = 0.6


def codes_read_otherwise(lines: Sequence[str], fmt: MrzFormat, page: PageText) -> set[str]:
    """The unguarded code fields (issuing state, nationality, sex) of the MRZ ``lines`` that a
    page line aligned with them reads as another valid value."""
    disputed: set[str] = set()
    readings = [normalize_line(line.text) for line in page.lines]
    for name in (*_COUNTRY_FIELDS, "sex"):
        span = fmt.spans.get(name)
        if span is None:
            continue
        ours = span.read(lines)
        for reading in readings:
            theirs = _aligned_read(lines[span.line], reading, span.start, span.end)
            if theirs is None or theirs == ours:
                continue
            valid = is_known_code(theirs) if name in _COUNTRY_FIELDS else theirs in _SEXES
            if valid:
                disputed.add(name)
    return disputed


def _aligned_read(mrz_line: str, reading: str, start: int, end: int) -> str | None:
    """What ``reading`` holds at the MRZ line's positions ``start:end``, where the two align there
    character for character (runs of equal characters, or substitutions of equal length).

    difflib's longest matching blocks, not an optimal edit alignment (rapidfuzz's opcodes): an
    optimal alignment gathers enough single letters scattered over an unrelated line to pass for
    a reading ("13PERSONALNO" read as issuing state PER against a TD3 line), while a real reading
    shares runs. At about 65 µs a call, 1.5 ms a document, speed is no reason to swap."""
    if len(reading) < _MIN_ALIGNED_CHARS:
        return None
    matcher = SequenceMatcher(None, mrz_line, reading, autojunk=False)
    aligned = sum(block.size for block in matcher.get_matching_blocks())
    if aligned < _MIN_ALIGNED_CHARS or aligned < _MIN_ALIGNED_SHARE * len(reading):
        return None
    position: dict[int, int] = {}
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal" or (tag == "replace" and i2 - i1 == j2 - j1):
            position.update({i: j1 + i - i1 for i in range(i1, i2)})
    if any(i not in position for i in range(start, end)):
        return None
    return "".join(reading[position[i]] for i in range(start, end))
