"""Elements that a scanner ran together, split where the standard's element ids stand.

Keyboard wedges and some phone SDKs drop the control characters of a PDF417 payload, so a card
arrives as "DAQD1234567DCSPUBLICDDENDACJOHN...". The ids are still there; so are ids inside
values ("ADDAMS" holds DDA, "DAYTON" holds DAY). A split is kept only where it leaves every value
in the form the standard gives it (a date is eight digits, a truncation flag T, N or U, an eye
colour three letters, free text non-empty unless the element may be left empty). Each element
lost one separator, so the subfiles' declared lengths say how many elements there are; where
they lie, every id the issuer wrote stands where an element starts, so the split with the most
elements is taken. Among those, splits that repeat an element are dropped and the ones that
check more forms kept; when two remain ("LINDA" then "DADMARIA" is LIN + ADMARIA as well), the
payload is refused as ambiguous: the reader never guesses.

The same search mends a payload that lost a single separator where the value it ran into is out
of its form ("DBB05151980DBA05152030"). Where both are free text ("DCSSMITHDACJOHN" on a card
with no DAC) nothing says whether a separator was lost or the name is "MCDADE" on a card
without DAD, so that value is kept whole and named as suspect.

Jurisdiction subfiles ("ZA" then "ZAA...") are split too, so that their elements do not run
into the last licence element. Nothing here logs or raises with a value.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass

from engines.licence.aamva_data import TABLES

_Z_SUBFILE = re.compile(r"Z[A-Z]")
TRAILING = " \r\n\t\x00"  # what may follow a payload's last value: padding, a terminator
_KEPT = 32  # splits of one number of elements weighed one by one; more are too many to tell apart
# A version 10 card defines 50 licence elements; with a jurisdiction subfile and ids inside values
# a real payload shows well under this many places an element may start. More is no licence, and
# would cost the search time for nothing.
_MOST_STARTS = 160


class AmbiguousSplit(ValueError):
    """The run-together elements split in more than one way the standard allows (no values)."""


@dataclass(frozen=True)
class _Start:
    at: int
    element_id: str  # "" for a jurisdiction subfile's two-letter type
    width: int


def split_run_together(
    body: str, version: int | None, *, present: Collection[str] = (), expected: int | None = None
) -> list[tuple[str, str]]:
    """(id, value) of each element of ``body``, a subfile's elements with no separators between
    them (it starts with an element id). ``present`` are ids the card carries elsewhere, which
    no split may repeat. ``expected`` is how many elements (jurisdiction subfiles' included) the
    header's subfile lengths say there are, one separator lost after each: when a split has
    exactly that many, it is preferred to one with more.

    Raises :class:`AmbiguousSplit` when no split, or more than one, leaves every value in form.
    """
    body = body.rstrip(TRAILING)
    starts = _starts(body, TABLES.element_ids(version))
    if not starts or starts[0].at != 0:
        raise AmbiguousSplit("the elements do not start with an element id of their version")
    if len(starts) > _MOST_STARTS:
        raise AmbiguousSplit("the run-together payload holds more element ids than any card carries")
    found = _counts(body, starts)
    if not found[0]:
        raise AmbiguousSplit("no split of the run-together elements leaves every value in its form")
    count = expected if expected in found[0] else max(found[0])
    paths = _paths(body, starts, found, count)
    readings = [
        elements
        for elements in (_elements(body, starts, path) for path in paths)
        if _unique(elements, present)
    ]
    # An id with a value in its form inside free text is rarely chance ("...GUADALUPEDBB19800515"
    # is no residence street "UPEDBB19800515"): the splits that check more values are kept.
    checked = max((_checked(elements) for elements in readings), default=0)
    readings = [elements for elements in readings if _checked(elements) == checked]
    if len(paths) > _KEPT or len(readings) > 1:
        raise AmbiguousSplit("the run-together elements split in more than one way")
    if not readings:
        raise AmbiguousSplit("every split of the run-together elements holds an element id twice")
    return readings[0]


def _elements(body: str, starts: list[_Start], path: tuple[int, ...]) -> list[tuple[str, str]]:
    ends = [starts[i].at for i in path[1:]] + [len(body)]
    return [
        (starts[i].element_id, body[starts[i].at + starts[i].width : end].strip())
        for i, end in zip(path, ends, strict=True)
        if starts[i].element_id
    ]


def _checked(elements: list[tuple[str, str]]) -> int:
    """Elements whose value was checked: against its form, or as the placeholder issuers write
    for an absent value ("DADNONE" after "AMANDA" is DAD "NONE", not "ADNONE")."""
    return sum(
        1
        for element_id, value in elements
        if element_id in TABLES.element_forms or (value and value.upper() in TABLES.placeholders)
    )


def _unique(elements: list[tuple[str, str]], present: Collection[str]) -> bool:
    ids = [element_id for element_id, _ in elements]
    return len(set(ids)) == len(ids) and not set(ids) & set(present)


def out_of_form(element_id: str, value: str) -> bool:
    """Whether one element's value is out of its form, as when it lost the separator before the
    next element ("DBB05151980DBA05152030")."""
    return not _in_form(element_id, value.strip(TRAILING))


def holds_missing_id(value: str, version: int | None, present: Collection[str]) -> bool:
    """Whether a value holds the id of an element its edition makes mandatory and the card
    lacks: "DCSSMITHDACJOHN" lost a separator, or "MCDADE" is a name on a card without DAD.
    Nothing tells the two apart, so such a value is kept and named, never split."""
    return any(
        element_id in value and element_id not in present for element_id in TABLES.mandatory_ids(version)
    )


def _starts(body: str, ids: frozenset[str]) -> list[_Start]:
    """Where an element may start: an id of the card's version, a jurisdiction subfile's type
    ("ZA" right before "ZA?"), or, after that type, one of its elements."""
    out = []
    subfiles: set[str] = set()
    for at in range(len(body) - 2):
        piece = body[at : at + 3]
        if piece in ids:
            out.append(_Start(at, piece, 3))
        kind = piece[:2]
        if _Z_SUBFILE.fullmatch(kind) and body[at + 2 : at + 4] == kind:
            out.append(_Start(at, "", 2))  # a type, never an element: its first element follows
            subfiles.add(kind)
        elif kind in subfiles and piece[2].isalnum():
            out.append(_Start(at, piece, 3))
    return out


def _in_form(element_id: str, value: str) -> bool:
    if not value:
        return element_id.startswith("Z") or element_id in TABLES.may_be_empty
    form = TABLES.element_forms.get(element_id)
    return form is None or form.fullmatch(value.upper()) is not None


def _counts(body: str, starts: list[_Start]) -> list[dict[int, int]]:
    """For each start, how many splits from there to the end leave every value in form, by
    their number of elements (subfile types not counted; more than ``_KEPT`` counted as
    ``_KEPT + 1``): counts only, so that a payload dense with ids costs no more than its pairs."""
    found: list[dict[int, int]] = [{} for _ in starts]
    for i in range(len(starts) - 1, -1, -1):
        start = starts[i]
        value_from = start.at + start.width
        own = 1 if start.element_id else 0
        options = found[i]
        if _fits(start, body[value_from:]):
            options[own] = 1
        for j in range(i + 1, len(starts)):
            if starts[j].at < value_from or not found[j] or not _may_follow(start, starts[j]):
                continue
            if _fits(start, body[value_from : starts[j].at]):
                for count, ways in found[j].items():
                    options[count + own] = min(_KEPT + 1, options.get(count + own, 0) + ways)
    return found


def _paths(body: str, starts: list[_Start], found: list[dict[int, int]], count: int) -> list[tuple[int, ...]]:
    """Up to ``_KEPT + 1`` splits of ``count`` elements, as indices into ``starts``."""
    out: list[tuple[int, ...]] = []

    def walk(i: int, need: int, path: tuple[int, ...]) -> None:
        start = starts[i]
        value_from = start.at + start.width
        rest = need - (1 if start.element_id else 0)
        if rest == 0 and _fits(start, body[value_from:]):
            out.append((*path, i))
        for j in range(i + 1, len(starts)):
            if len(out) > _KEPT:
                return
            if rest not in found[j] or starts[j].at < value_from or not _may_follow(start, starts[j]):
                continue
            if _fits(start, body[value_from : starts[j].at]):
                walk(j, rest, (*path, i))

    walk(0, count, ())
    return out


def _may_follow(before: _Start, after: _Start) -> bool:
    """A jurisdiction's element follows its subfile's type or another of its elements; a
    subfile's type follows an element; licence elements follow each other."""
    if not after.element_id:
        return bool(before.element_id)
    if after.element_id.startswith("Z"):
        return not before.element_id or before.element_id.startswith("Z")
    return bool(before.element_id) and not before.element_id.startswith("Z")


def _fits(start: _Start, value: str) -> bool:
    if not start.element_id:
        return value == ""  # a subfile type is followed straight by its first element
    return _in_form(start.element_id, value.strip(TRAILING))
