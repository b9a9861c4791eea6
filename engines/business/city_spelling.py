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
unknown one near none, is left alone: an unknown town is no evidence of a misreading. Nor is a
known town near a city: the gazetteer's small towns are known as read but never a respelling's
target, as each town near a misreading makes a wrong guess likelier than a right one.
"""

from __future__ import annotations

import dataclasses
import re
import string
import unicodedata
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping

from engines.business.common_cities import COMMON_CITIES, KNOWN_TOWNS
from engines.business.name_spelling import confusion_variants, unaccented
from engines.types import Check, FieldResult

CITY_FIELDS = frozenset({"address_city"})
CHECK_NAME = "city_spelling"
_DOUBT_FACTOR = 0.5  # on the raw confidence; the calibration learns what is left
_MIN_LETTERS = 5  # shorter names lie one letter from too many others (ULM, ELM)


def _letters(text: str) -> str:
    """Letters only, plain: what two spellings of one city share."""
    return _NOT_A_LETTER.sub("", unaccented(text))


_NOT_A_LETTER = re.compile("[^A-Z]+")


@dataclasses.dataclass(frozen=True)
class CityIndex:
    """The known places, keyed as a reading is compared with them."""

    by_letters: Mapping[str, tuple[str, ...]]  # a city's letters: the cities spelled with them
    by_unspaced: Mapping[str, tuple[str, ...]]  # a city without its spaces: the cities so spelled
    known_letters: frozenset[str]  # the letters of every known city and town: never respelled
    known_spellings: frozenset[str]  # every known town, unaccented: never respaced


def city_index(cities: Iterable[str], towns: Iterable[str] = ()) -> CityIndex:
    """The index of ``cities`` (what a reading may be respelled or respaced to) and ``towns``
    (known as read, but no target: a town near a misreading is a likelier wrong guess)."""
    plain = {city: unaccented(city) for city in cities}  # each once: 10,000 places at import
    plain_towns = {unaccented(town) for town in towns}
    return CityIndex(
        by_letters=_keyed(plain, lambda p: _NOT_A_LETTER.sub("", p)),
        by_unspaced=_keyed(plain, lambda p: p.replace(" ", "")),
        known_letters=frozenset(_NOT_A_LETTER.sub("", p) for p in plain_towns | set(plain.values())),
        known_spellings=frozenset(plain_towns),
    )


def _keyed(plain: dict[str, str], key: Callable[[str], str]) -> dict[str, tuple[str, ...]]:
    """The cities (``plain``: each city's unaccented spelling) by ``key`` of that spelling, one
    kept of those that differ only in accents (MONTRÉAL and MONTREAL are one city, not two a
    misreading could be of: the accented spelling says more)."""
    spellings: dict[str, dict[str, str]] = defaultdict(dict)
    for city, unaccented_city in sorted(plain.items()):
        kept = spellings[key(unaccented_city)].setdefault(unaccented_city, city)
        if kept == unaccented_city and city != unaccented_city:
            spellings[key(unaccented_city)][unaccented_city] = city
    return {k: tuple(by_plain.values()) for k, by_plain in spellings.items()}


_INDEX = city_index(COMMON_CITIES, KNOWN_TOWNS)


def mend_city_spellings(
    fields: dict[str, FieldResult], *, index: CityIndex | None = None
) -> tuple[dict[str, FieldResult], list[Check]]:
    """OCR'd cities respaced as the known city they spell, or respelled and doubted where they
    are one confusion from one; one check lists the doubted fields. ``index``: the known places
    (the gazetteer's unless a test or a measurement gives others)."""
    index = index or _INDEX
    out = dict(fields)
    doubted = []
    for name in sorted(CITY_FIELDS & fields.keys()):
        f = fields[name]
        if f.source != "ocr" or not f.value:
            continue
        respaced = _respaced(f.value, index)
        if respaced is not None:
            out[name] = dataclasses.replace(f, value=respaced)
            continue
        likely = _one_confusion_from(f.value, index)
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


def likely_city(value: str, index: CityIndex | None = None) -> str | None:
    """What :func:`mend_city_spellings` makes of an OCR'd ``value``: the known city it spells but
    for spaces or one confusion, or None where it is left as read."""
    index = index or _INDEX
    return _respaced(value, index) or _one_confusion_from(value, index)


def _respaced(value: str, index: CityIndex) -> str | None:
    """``value`` with the spaces of the one known city it spells but for spaces, or None (no
    such city, a known town spelled so, or spaced as it already)."""
    unspaced = value.replace(" ", "")
    cities = index.by_unspaced.get(unaccented(unspaced), ())
    if len(cities) != 1 or unaccented(value) in index.known_spellings:
        return None
    (city,) = cities
    if len(city.replace(" ", "")) != len(unspaced):
        return None  # "ß" read as "SS": the letters do not line up one for one
    letters = iter(unspaced)
    spaced = "".join(" " if c == " " else next(letters) for c in city)
    return None if spaced == value else spaced


def _one_confusion_from(value: str, index: CityIndex) -> str | None:
    """The one known city that ``value``, itself no known city or town, is one OCR confusion, one
    lost letter or one extra letter away from, spelled with accents only where ``value`` has some."""
    letters = _letters(value)
    if len(letters) < _MIN_LETTERS or letters in index.known_letters:
        return None
    variants = confusion_variants(letters)
    variants |= {letters[:i] + letters[i + 1 :] for i in range(len(letters))}
    variants |= {
        letters[:i] + c + letters[i:] for i in range(len(letters) + 1) for c in string.ascii_uppercase
    }
    cities = {city for variant in variants for city in index.by_letters.get(variant, ())}
    if len(cities) != 1:
        return None
    city = cities.pop()
    accented = any(unicodedata.combining(c) for c in unicodedata.normalize("NFKD", value))
    return city if accented else unaccented(city)
