"""Is a city as read a known city with a space too many, or one OCR confusion away from one?

Both OCR readers make the same mistakes in a city's name as in a person's (engines.business.
name_spelling): "rn" read as "m" in NÜRNBERG, and a space either reader saw inside a word taken
for a word space ("FREIBU RG IM BREISGAU"), since a missing space is the commoner error. Their
agreement marked such values cross-checked, and nothing else guards a city, so they were
approved straight through. What still tells them apart is that the reading is no known city
while a known city lies one space or one confusion away (engines.business.common_cities).

A reading that differs from a known city only in its spaces takes the city's spaces: the letters
are the readers', confirmed, and only where words break was in doubt. A reading one confusion
from exactly one known city is respelled to it and doubted: its confidence is lowered and a
check fails, so a reviewer confirms the likely city rather than retyping it. A known city, or an
unknown one near none, is left alone: an unknown town is no evidence of a misreading.
"""

from __future__ import annotations

import dataclasses
import string
import unicodedata
from collections import defaultdict
from collections.abc import Callable

from engines.business.common_cities import COMMON_CITIES
from engines.business.name_spelling import confusion_variants, unaccented
from engines.types import Check, FieldResult

CITY_FIELDS = frozenset({"address_city"})
CHECK_NAME = "city_spelling"
_DOUBT_FACTOR = 0.5  # on the raw confidence; the calibration learns what is left
_MIN_LETTERS = 5  # shorter names lie one letter from too many others (ULM, ELM)


def _letters(text: str) -> str:
    """Letters only, plain: what two spellings of one city share."""
    return "".join(c for c in unaccented(text) if "A" <= c <= "Z")


def _index(key: Callable[[str], str]) -> dict[str, frozenset[str]]:
    out: dict[str, set[str]] = defaultdict(set)
    for city in COMMON_CITIES:
        out[key(city)].add(city)
    return {k: frozenset(cities) for k, cities in out.items()}


_BY_LETTERS = _index(_letters)
_BY_UNSPACED = _index(lambda city: unaccented(city).replace(" ", ""))


def mend_city_spellings(fields: dict[str, FieldResult]) -> tuple[dict[str, FieldResult], list[Check]]:
    """OCR'd cities respaced as the known city they spell, or respelled and doubted where they
    are one confusion from one; one check lists the doubted fields."""
    out = dict(fields)
    doubted = []
    for name in sorted(CITY_FIELDS & fields.keys()):
        f = fields[name]
        if f.source != "ocr" or not f.value:
            continue
        respaced = _respaced(f.value)
        if respaced is not None:
            out[name] = dataclasses.replace(f, value=respaced)
            continue
        likely = _one_confusion_from(f.value)
        if likely is not None:
            doubted.append(name)
            out[name] = dataclasses.replace(
                f,
                value=likely,
                confidence=round(f.confidence * _DOUBT_FACTOR, 4),
                valid=None if f.valid is True else f.valid,
            )
    if not doubted:
        return out, []
    return out, [Check(CHECK_NAME, False, "one OCR confusion from a known city: " + ", ".join(doubted))]


def _respaced(value: str) -> str | None:
    """``value`` with the spaces of the one known city it spells but for spaces, or None (no
    such city, or spaced as it already)."""
    unspaced = value.replace(" ", "")
    cities = _BY_UNSPACED.get(unaccented(unspaced), frozenset())
    if len(cities) != 1:
        return None
    (city,) = cities
    if len(city.replace(" ", "")) != len(unspaced):
        return None  # "ß" read as "SS": the letters do not line up one for one
    letters = iter(unspaced)
    spaced = "".join(" " if c == " " else next(letters) for c in city)
    return None if spaced == value else spaced


def _one_confusion_from(value: str) -> str | None:
    """The one known city that ``value``, itself no known city, is one OCR confusion, one lost
    letter or one extra letter away from, spelled with accents only where ``value`` has some."""
    letters = _letters(value)
    if len(letters) < _MIN_LETTERS or letters in _BY_LETTERS:
        return None
    variants = confusion_variants(letters)
    variants |= {letters[:i] + letters[i + 1 :] for i in range(len(letters))}
    variants |= {
        letters[:i] + c + letters[i:] for i in range(len(letters) + 1) for c in string.ascii_uppercase
    }
    cities = {city for variant in variants for city in _BY_LETTERS.get(variant, ())}
    if len(cities) != 1:
        return None
    city = cities.pop()
    accented = any(unicodedata.combining(c) for c in unicodedata.normalize("NFKD", value))
    return city if accented else unaccented(city)
