"""The holder's name in an AAMVA barcode, in each layout the standard's versions allow.

- versions 04 to 10: family name ``DCS``, first name ``DAC``, middle names ``DAD``, suffix
  ``DCU``, and truncation flags ``DDE``/``DDF``/``DDG`` (T: the issuer cut the name to fit);
- versions 02 and 03: ``DCS`` and the given names in ``DCT`` ("FIRST,MIDDLE" or "FIRST MIDDLE");
- version 01: the whole name in ``DAA``, or last/first/middle in ``DAB``/``DAC``/``DAD`` and the
  suffix in ``DAE``. ``DAA`` with commas (or ``$``) is "LAST,FIRST,MIDDLE[,SUFFIX]" by the
  standard; with spaces only, the order is the issuer's ("JOHN Q SMITH" or "SMITH JOHN Q"), and
  nothing in the barcode says which, so every split is kept as an alternative for the printed
  front to settle (:func:`settle_order`), and the reading says it is unsettled.

A suffix goes to its own field: from its element, from the fourth part of a comma-separated
``DAA``, or taken off the end of a name element where it is a word no name is (JR, III; never
"V", which is a middle initial far more often). Nothing here logs or raises with a value.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from engines.licence.aamva_data import TABLES

_SPACES = re.compile(r"\s+")
_FULL_NAME_SEPARATORS = re.compile(f"[{re.escape(TABLES.full_name_separators)}]")

# Layouts (also the words a check detail uses)
SEPARATE = "separate elements"
FULL_NAME_SEPARATED = "full name with separators"
FULL_NAME_SPACES = "full name in the issuer's order"


@dataclass(frozen=True)
class NameReading:
    """Surname, given names and suffix as read. ``alternatives`` holds every other (surname,
    given names) split of a full name whose order the barcode does not say (empty when it
    does); ``truncated`` the fields the issuer flagged as cut short. Personal data: out of repr."""

    surname: str | None = field(repr=False)
    given_names: str | None = field(repr=False)
    suffix: str | None = field(repr=False)
    layout: str
    alternatives: tuple[tuple[str, str], ...] = field(default=(), repr=False)
    truncated: tuple[str, ...] = ()

    @property
    def order_settled(self) -> bool:
        return not self.alternatives


def clean_text(value: str | None, *, strip_commas: bool = False) -> str | None:
    """Upper case, one space between words, padding and "NONE"-like placeholders removed."""
    if value is None:
        return None
    text = _SPACES.sub(" ", value).strip().upper()
    if strip_commas:
        text = text.strip(", ").replace(" ,", ",")
    if text in TABLES.placeholders:
        return None
    return text or None


def normalise_suffix(value: str | None) -> str | None:
    """A suffix as the standard writes it ("JR." -> "JR"); None for a placeholder or no suffix."""
    text = clean_text(value, strip_commas=True)
    if text is None:
        return None
    text = text.replace(".", "").replace(" ", "")
    return text or None


def split_suffix(name: str | None) -> tuple[str | None, str | None]:
    """(name, suffix) with a trailing suffix word taken off a name of more than one word."""
    if not name:
        return name, None
    words = name.replace(",", " ").split()
    last = words[-1].rstrip(".") if words else ""
    if len(words) >= 2 and last in TABLES.suffixes_in_names:
        return " ".join(words[:-1]), last
    return name, None


def first_of(elements: Mapping[str, str], key: str) -> str | None:
    """The value of the first element the card carries among those that hold ``key``."""
    for element_id in TABLES.elements[key]:
        if element_id in elements:
            return elements[element_id]
    return None


def read_names(elements: Mapping[str, str]) -> NameReading:
    """The name from whichever elements the card carries (separate ones preferred)."""
    surname = clean_text(first_of(elements, "surname"), strip_commas=True)
    first = clean_text(first_of(elements, "first_name"), strip_commas=True)
    middle = clean_text(first_of(elements, "middle_names"), strip_commas=True)
    given = " ".join(part for part in (first, middle) if part) or None
    if given is None:
        listed = first_of(elements, "given_names")
        given = clean_text(listed.replace(",", " ") if listed else None)
    suffix = normalise_suffix(first_of(elements, "name_suffix"))
    truncated = _truncated(elements)
    full = clean_text(first_of(elements, "full_name"))
    if full and (not surname or not given):
        reading = _full_name(full, suffix)
        return NameReading(
            surname=surname or reading.surname,
            given_names=given or reading.given_names,
            suffix=reading.suffix,
            layout=reading.layout if not (surname or given) else SEPARATE,
            alternatives=reading.alternatives if not (surname or given) else (),
            truncated=truncated,
        )
    if suffix is None:
        given, suffix = split_suffix(given)
    if suffix is None:
        surname, suffix = split_suffix(surname)
    return NameReading(surname, given, suffix, SEPARATE, (), truncated)


def _truncated(elements: Mapping[str, str]) -> tuple[str, ...]:
    out: list[str] = []
    for element_id, part in TABLES.truncation.items():
        if (elements.get(element_id) or "").strip().upper() in TABLES.truncated_codes:
            name = "surname" if part == "surname" else "given_names"
            if name not in out:
                out.append(name)
    return tuple(out)


def _full_name(full: str, suffix: str | None) -> NameReading:
    """``DAA``: separated parts in the standard's order, or words in the issuer's."""
    if _FULL_NAME_SEPARATORS.search(full):
        positions = [clean_text(piece) for piece in _FULL_NAME_SEPARATORS.split(full)]
        # the fourth position is the suffix's, even after an empty middle name ("SMITH,JOHN,,V")
        if len(positions) >= 4 and suffix is None and normalise_suffix(positions[3]) in TABLES.suffixes:
            suffix = normalise_suffix(positions.pop(3))
        parts = [p for p in positions if p]
        surname = parts[0] if parts else None
        given = " ".join(parts[1:]) or None
        if suffix is None:
            given, suffix = split_suffix(given)
        return NameReading(surname, given, suffix, FULL_NAME_SEPARATED)
    words = full.split()
    if suffix is None:
        rest, suffix = split_suffix(full)
        words = (rest or "").split()
    if len(words) < 2:
        return NameReading(" ".join(words) or None, None, suffix, FULL_NAME_SEPARATED)
    # The standard's own order (LAST FIRST MIDDLE) first; then every other split, either way.
    splits = [(" ".join(words[:k]), " ".join(words[k:])) for k in range(1, len(words))]
    splits += [(" ".join(words[k:]), " ".join(words[:k])) for k in range(len(words) - 1, 0, -1)]
    surname, given = splits[0]
    return NameReading(surname, given, suffix, FULL_NAME_SPACES, tuple(splits[1:]))


def settle_order(
    reading: NameReading,
    printed_surname: str | None,
    printed_given: str | None,
    agreement: Callable[[str, str, str], int],
) -> tuple[NameReading, bool]:
    """The split of an unsettled full name that the printed front confirms, and whether it did.

    ``agreement(field, coded, printed)`` rates a barcode value against a front reading: 2 the
    same, 1 the same through OCR slips, 0 different. A split is rated by its worse side (a side
    the front did not print does not count); the best-rated split wins when it is confirmed and
    no other split is rated as well. Fuzzy agreement alone cannot tell "LEE KOWALSKI" from
    "KOWALSKI", so an exact match outranks it; a tie leaves the reading unsettled."""
    if reading.order_settled or (printed_surname is None and printed_given is None):
        return reading, False
    options: Sequence[tuple[str, str]] = (
        (reading.surname or "", reading.given_names or ""),
        *reading.alternatives,
    )
    rated = []
    for surname, given in options:
        sides = []
        if printed_surname is not None:
            sides.append(agreement("surname", surname, printed_surname))
        if printed_given is not None:
            sides.append(agreement("given_names", given, printed_given))
        rated.append((min(sides), surname, given))
    best = max(rate for rate, _, _ in rated)
    winners = [(surname, given) for rate, surname, given in rated if rate == best]
    if best <= 0 or len(winners) != 1:
        return reading, False
    surname, given = winners[0]
    settled = NameReading(surname, given, reading.suffix, reading.layout, (), reading.truncated)
    return settled, True
