"""Drawing fictitious document holders: names, countries, numbers and dates.

The distributions lean on the cases MRZ readers get wrong rather than on realism: multi-word
and hyphenated names, names long enough to be truncated, Germany's one-letter code "D", the
TD1 long document number, the sex "X" (encoded as a filler), personal numbers that are present
or absent, and dates at both ends of the windows a reader must resolve two-digit years into
(births 1927-2026, expiries 2000-2069). Expiries otherwise follow the documents people upload:
most were issued within their validity period before ``IN_CIRCULATION_ON`` and are still valid,
so an evaluation's straight-through rate is not swamped by expired documents (fewer than one in
ten is).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from typing import TypeVar

import numpy as np

from synth import data
from synth.mrz import TD1, TD2, TD3, MrzData, MrzFormat, NameDoesNotFit, NameField, encode_name

T = TypeVar("T")

BIRTH_WINDOW = (date(1927, 1, 1), date(2026, 12, 31))
EXPIRY_WINDOW = (date(2000, 1, 1), date(2069, 12, 31))
# the day the generator's documents in circulation are valid on: fixed, so a seed gives the same bytes
IN_CIRCULATION_ON = date(2026, 12, 1)

_ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_DIGITS = "0123456789"

# Document codes per format, with weights. ICAO: P = passport, I/A/C = identity documents.
DOCUMENT_CODES: dict[str, tuple[tuple[str, float], ...]] = {
    "TD3": (("P<", 0.8), ("PD", 0.07), ("PO", 0.07), ("PS", 0.06)),
    "TD1": (("I<", 0.45), ("ID", 0.3), ("IR", 0.1), ("AC", 0.05), ("C<", 0.05), ("IP", 0.05)),
    "TD2": (("I<", 0.3), ("ID", 0.2), ("P<", 0.3), ("IR", 0.1), ("AC", 0.05), ("C<", 0.05)),
}


@dataclass(frozen=True)
class Identity:
    """A holder and their document: the MRZ data plus what only the visual zone shows."""

    mrz: MrzData
    printed_surname: str  # as printed, with diacritics, hyphens and apostrophes
    printed_given_names: str
    issuing_country_name: str
    nationality_name: str
    place_of_birth: str
    date_of_issue: date
    authority: str


def pick(rng: np.random.Generator, items: Sequence[T]) -> T:
    """One item of ``items``, drawn uniformly (typed, unlike ``rng.choice`` on objects)."""
    return items[int(rng.integers(len(items)))]


def pick_weighted(rng: np.random.Generator, items: Sequence[tuple[T, float]]) -> T:
    weights = np.array([w for _, w in items], dtype=float)
    index = int(rng.choice(len(items), p=weights / weights.sum()))
    return items[index][0]


def random_date(rng: np.random.Generator, start: date, end: date) -> date:
    """A uniform date in [start, end]."""
    return start + timedelta(days=int(rng.integers(0, (end - start).days + 1)))


def random_string(rng: np.random.Generator, alphabet: str, length: int) -> str:
    return "".join(alphabet[int(i)] for i in rng.integers(0, len(alphabet), size=length))


def document_number(rng: np.random.Generator, length: int) -> str:
    """An alphanumeric document number in one of the shapes states use (all digits, prefixed, mixed)."""
    style = int(rng.integers(4))
    if style == 0:
        return random_string(rng, _DIGITS, length)
    if style == 1:
        prefix = int(rng.integers(1, 3))
        return random_string(rng, _LETTERS, prefix) + random_string(rng, _DIGITS, length - prefix)
    if style == 2:  # like the ICAO specimen L898902C3: letter, digits, a letter near the end
        body = random_string(rng, _DIGITS, length - 2)
        return random_string(rng, _LETTERS, 1) + body[:-1] + random_string(rng, _LETTERS, 1) + body[-1]
    return random_string(rng, _ALNUM, length)


def personal_number(rng: np.random.Generator, max_length: int) -> str:
    length = int(rng.integers(min(4, max_length), max_length + 1))
    if rng.random() < 0.6:
        return random_string(rng, _DIGITS, length)
    return random_string(rng, _ALNUM, length)


def _surname(rng: np.random.Generator, long: bool) -> str:
    roll = rng.random()
    base = pick(rng, data.SURNAMES)
    if long:
        return " ".join([pick(rng, data.SURNAME_PARTICLES), base, pick(rng, data.SURNAMES)])
    if roll < 0.7:
        return base
    if roll < 0.82:
        return f"{pick(rng, data.SURNAME_PARTICLES)} {base}"
    if roll < 0.92:
        return f"{base} {pick(rng, data.SURNAMES)}"
    return f"{base}-{pick(rng, data.SURNAMES)}"


def _given_names(rng: np.random.Generator, sex: str, long: bool) -> str:
    if sex == "M":
        pool = data.GIVEN_NAMES_MALE
    elif sex == "F":
        pool = data.GIVEN_NAMES_FEMALE
    else:
        pool = data.GIVEN_NAMES_MALE + data.GIVEN_NAMES_FEMALE
    count = (
        int(rng.integers(3, 7)) if long else pick_weighted(rng, ((1, 0.45), (2, 0.35), (3, 0.13), (4, 0.07)))
    )
    return " ".join(pick(rng, pool) for _ in range(count))


def _name(rng: np.random.Generator, sex: str, fmt: MrzFormat) -> tuple[str, str, NameField]:
    """Printed surname and given names, and their MRZ field (about one in seven gets truncated)."""
    for _ in range(50):
        long = rng.random() < 0.12
        surname, given = _surname(rng, long), _given_names(rng, sex, long)
        try:
            return surname, given, encode_name(surname, given, fmt.name_width)
        except NameDoesNotFit:
            continue
    surname, given = "ERIKSSON", "ANNA"  # unreachable in practice; keeps the function total
    return surname, given, encode_name(surname, given, fmt.name_width)


def _birth_date(rng: np.random.Generator) -> date:
    roll = rng.random()
    if roll < 0.06:  # the edges of the window, where century inference goes wrong
        year = pick(rng, (1927, 1928, 1929, 2024, 2025, 2026))
        return random_date(rng, date(year, 1, 1), date(year, 12, 31))
    if roll < 0.75:
        return random_date(rng, date(1950, 1, 1), date(2008, 12, 31))
    return random_date(rng, *BIRTH_WINDOW)


def _expiry_date(rng: np.random.Generator, birth: date, validity_years: int) -> date:
    roll = rng.random()
    if roll < 0.06:  # the edges of the window, where century inference goes wrong
        year = pick(rng, (2000, 2001, 2068, 2069))
        edge = random_date(rng, date(year, 1, 1), date(year, 12, 31))
        if edge > birth:
            return edge
    if roll < 0.2:  # anywhere in the window: expired long ago, or valid for decades
        return random_date(rng, max(EXPIRY_WINDOW[0], birth + timedelta(days=1)), EXPIRY_WINDOW[1])
    validity = timedelta(days=round(365.25 * validity_years))
    first = max(birth, IN_CIRCULATION_ON - validity)
    issued = random_date(rng, first, max(first, IN_CIRCULATION_ON))
    return issued + validity - timedelta(days=1)


def sample_identity(rng: np.random.Generator, fmt: MrzFormat, document_code: str | None = None) -> Identity:
    """A random, internally consistent holder and document for an MRZ of format ``fmt``."""
    code = document_code or pick_weighted(rng, DOCUMENT_CODES[fmt.name])
    issuing_code, issuing_name = pick(rng, data.COUNTRIES)
    if rng.random() < 0.85:
        nationality_code, nationality_name = issuing_code, issuing_name
    else:
        nationality_code, nationality_name = pick(rng, data.COUNTRIES)
    sex = pick_weighted(rng, (("M", 0.46), ("F", 0.46), ("X", 0.08)))
    surname, given, name_field = _name(rng, sex, fmt)

    long_number = fmt == TD1 and rng.random() < 0.1
    number = document_number(rng, int(rng.integers(10, 13)) if long_number else int(rng.integers(6, 10)))

    personal = ""
    if (fmt == TD3 and rng.random() < 0.4) or (fmt == TD1 and not long_number and rng.random() < 0.35):
        personal = personal_number(rng, 14)
    elif fmt == TD2 and rng.random() < 0.25:
        personal = personal_number(rng, 7)

    birth = _birth_date(rng)
    validity_years = pick(rng, (5, 10))
    expiry = _expiry_date(rng, birth, validity_years)
    issue = max(birth, expiry - timedelta(days=round(365.25 * validity_years) - 1))

    mrz = MrzData(
        format=fmt,
        document_code=code,
        issuing_country=issuing_code,
        name=name_field,
        document_number=number,
        nationality=nationality_code,
        date_of_birth=birth,
        sex=sex,
        date_of_expiry=expiry,
        personal_number=personal,
        empty_personal_number_check="0" if rng.random() < 0.3 else "<",
    )
    return Identity(
        mrz=mrz,
        printed_surname=surname,
        printed_given_names=given,
        issuing_country_name=issuing_name,
        nationality_name=nationality_name,
        place_of_birth=pick(rng, data.CITIES),
        date_of_issue=issue,
        authority=pick(rng, data.CITIES),
    )
