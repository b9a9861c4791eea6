"""Composing ICAO 9303 machine-readable zones (TD1, TD2, TD3) from a holder's data.

Everything here is pure string work so it can be tested without rendering anything. Check
digits come from ``engines.mrz.checkdigit``: the generator and the reader must agree on one
implementation, or a bug in it would make every synthetic document "valid" for the wrong reason.

The ground truth of a synthetic document is what its MRZ encodes (transliterated, truncated),
not what its visual zone prints, because an MRZ reader can only ever return the former.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from datetime import date

from engines.mrz.checkdigit import check_digit

FILLER = "<"
MRZ_ALPHABET = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789<")


@dataclass(frozen=True)
class MrzFormat:
    """The geometry of one ICAO size: lines of ``line_length`` characters, a name field of ``name_width``."""

    name: str
    line_count: int
    line_length: int
    name_width: int


TD1 = MrzFormat("TD1", line_count=3, line_length=30, name_width=30)
TD2 = MrzFormat("TD2", line_count=2, line_length=36, name_width=31)
TD3 = MrzFormat("TD3", line_count=2, line_length=44, name_width=39)
FORMATS = {f.name: f for f in (TD1, TD2, TD3)}

# ICAO 9303 Part 3 §6 (transliteration of Latin characters). Anything not listed falls back to
# its base letter (NFKD without combining marks), which is what the table says for most accents.
_TRANSLITERATIONS = {
    "Ä": "AE",
    "Æ": "AE",
    "Å": "AA",
    "Ö": "OE",
    "Ø": "OE",
    "Œ": "OE",
    "Ü": "UE",
    "ß": "SS",
    "ẞ": "SS",
    "Þ": "TH",
    "Ð": "D",
    "Đ": "D",
    "Ł": "L",
    "Ħ": "H",
    "Ŋ": "N",
    "Ĳ": "IJ",
    "İ": "I",
}


class NameDoesNotFit(ValueError):
    """The name cannot be truncated the ICAO way for this width (the sampler then draws another)."""


@dataclass(frozen=True)
class NameField:
    """An encoded MRZ name field and the names it reads back as (the ground truth)."""

    field: str
    surname: str
    given_names: str
    truncated: bool


@dataclass(frozen=True)
class MrzData:
    """Everything an MRZ encodes, already in MRZ terms (codes, truncated name field, no fillers).

    ``document_number`` may exceed 9 characters only for TD1, where ICAO's long-number rule moves
    the overflow into the optional data. ``personal_number`` is "" when the document has none;
    TD3 has a personal number field with its own check digit, TD1 and TD2 carry the number in
    their optional data (see ``truth_fields`` for why that is not reported as a personal number).
    """

    format: MrzFormat
    document_code: str  # two characters: "P<", "PD", "I<", "ID", "AC", ...
    issuing_country: str  # "UTO", "D", ... (no fillers)
    name: NameField
    document_number: str
    nationality: str
    date_of_birth: date
    sex: str  # "M", "F" or "X" (encoded as "<")
    date_of_expiry: date
    personal_number: str = ""
    empty_personal_number_check: str = FILLER  # TD3 allows "<" or "0" when there is no number


def transliterate(text: str) -> str:
    """MRZ characters for printed name text: upper case A-Z, words joined by one filler.

    Apostrophes vanish ("O'BRIEN" -> "OBRIEN"); spaces and hyphens become fillers
    ("JEAN-PIERRE" -> "JEAN<PIERRE"); diacritics follow ICAO ("MÜLLER" -> "MUELLER").
    """
    out: list[str] = []
    for char in text.upper():
        if char in _TRANSLITERATIONS:
            out.append(_TRANSLITERATIONS[char])
        elif "A" <= char <= "Z" or char.isdigit():
            out.append(char)
        elif char in " -,":
            out.append(FILLER)
        elif char in "'`\u2019.":  # apostrophes and dots are dropped
            continue
        else:
            base = "".join(c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c))
            out.append("".join(c for c in base.upper() if "A" <= c <= "Z"))
    words = [w for w in "".join(out).split(FILLER) if w]
    return FILLER.join(words)


def decode_name_part(part: str) -> str:
    """A name component as the truth reports it: each run of fillers read as one space."""
    return " ".join(word for word in part.split(FILLER) if word)


def encode_name(surname: str, given_names: str, width: int) -> NameField:
    """The ICAO name field: ``SURNAME<<GIVEN<NAMES`` padded, or truncated to ``width``.

    ICAO 9303 Part 3 §4.6: a name that does not fit is cut from the end of the secondary
    identifier, and the last character of a truncated field must be a letter (the sign that a
    reader may be looking at a truncated name). Cuts that would end on a filler, or that would
    reach into the surname, raise ``NameDoesNotFit`` so that the caller draws another name: the
    generated truth is then always unambiguous.
    """
    primary = transliterate(surname)
    secondary = transliterate(given_names)
    if not primary:
        raise NameDoesNotFit("empty surname")
    full = f"{primary}{FILLER * 2}{secondary}" if secondary else primary
    if len(full) <= width:
        field, truncated = full.ljust(width, FILLER), False
    else:
        field, truncated = full[:width], True
        if field.endswith(FILLER) or len(primary) + 3 > width:
            raise NameDoesNotFit(f"{full!r} cannot be truncated to {width} characters")
    head, _, tail = field.partition(FILLER * 2)
    return NameField(
        field=field, surname=decode_name_part(head), given_names=decode_name_part(tail), truncated=truncated
    )


def pad(value: str, width: int) -> str:
    """``value`` filled with '<' to ``width``; longer values are a bug in the caller."""
    if len(value) > width:
        raise ValueError(f"{value!r} is longer than {width} characters")
    return value.ljust(width, FILLER)


def yymmdd(value: date) -> str:
    return value.strftime("%y%m%d")


def _sex(value: str) -> str:
    if value not in ("M", "F", "X"):
        raise ValueError(f"sex must be M, F or X, not {value!r}")
    return FILLER if value == "X" else value


def _with_check(value: str) -> str:
    return value + check_digit(value)


def compose(data: MrzData) -> tuple[str, ...]:
    """The MRZ lines of ``data`` in its format, every check digit computed."""
    composer = {"TD1": _compose_td1, "TD2": _compose_td2, "TD3": _compose_td3}[data.format.name]
    lines = composer(data)
    for line in lines:
        if len(line) != data.format.line_length or not set(line) <= MRZ_ALPHABET:
            raise ValueError(f"composed an invalid {data.format.name} line: {line!r}")
    return lines


def _compose_td3(data: MrzData) -> tuple[str, ...]:
    line1 = pad(data.document_code, 2) + pad(data.issuing_country, 3) + data.name.field
    number = _with_check(pad(data.document_number, 9))
    dob = _with_check(yymmdd(data.date_of_birth))
    expiry = _with_check(yymmdd(data.date_of_expiry))
    if data.personal_number:
        personal = _with_check(pad(data.personal_number, 14))
    else:
        personal = FILLER * 14 + data.empty_personal_number_check
    composite = check_digit(number + dob + expiry + personal)
    line2 = number + pad(data.nationality, 3) + dob + _sex(data.sex) + expiry + personal + composite
    return line1, line2


def _compose_td2(data: MrzData) -> tuple[str, ...]:
    line1 = pad(data.document_code, 2) + pad(data.issuing_country, 3) + data.name.field
    number = _with_check(pad(data.document_number, 9))
    dob = _with_check(yymmdd(data.date_of_birth))
    expiry = _with_check(yymmdd(data.date_of_expiry))
    optional = pad(data.personal_number, 7)
    composite = check_digit(number + dob + expiry + optional)
    line2 = number + pad(data.nationality, 3) + dob + _sex(data.sex) + expiry + optional + composite
    return line1, line2


def _compose_td1(data: MrzData) -> tuple[str, ...]:
    if len(data.document_number) > 9:
        # ICAO 9303 Part 5 §4.2.4: first 9 characters, a filler where the check digit would be,
        # then the rest, its check digit (over the whole number) and a filler in optional data 1.
        if data.personal_number:
            raise ValueError("a long TD1 document number leaves no room for a personal number")
        number = data.document_number[:9] + FILLER
        optional1 = pad(data.document_number[9:] + check_digit(data.document_number) + FILLER, 15)
    else:
        number = _with_check(pad(data.document_number, 9))
        optional1 = pad(data.personal_number, 15)
    line1 = pad(data.document_code, 2) + pad(data.issuing_country, 3) + number + optional1
    dob = _with_check(yymmdd(data.date_of_birth))
    expiry = _with_check(yymmdd(data.date_of_expiry))
    optional2 = FILLER * 11
    composite = check_digit(line1[5:30] + dob + expiry + optional2)
    line2 = dob + _sex(data.sex) + expiry + pad(data.nationality, 3) + optional2 + composite
    return line1, line2, data.name.field


def truth_fields(data: MrzData) -> dict[str, str]:
    """The ARCHITECTURE §3.1 fields the MRZ encodes: ISO dates, names as read back, no fillers.

    ``personal_number`` is reported for TD3 only: that is the one format where ICAO defines the
    field as a personal number. TD1/TD2 optional data is issuer-defined, so an MRZ reader cannot
    know it is a personal number and is not scored on it (it is in ``optional_data`` instead).
    """
    fields = {
        "document_number": data.document_number,
        "surname": data.name.surname,
        "given_names": data.name.given_names,
        "nationality": data.nationality,
        "date_of_birth": data.date_of_birth.isoformat(),
        "sex": data.sex,
        "date_of_expiry": data.date_of_expiry.isoformat(),
        "issuing_country": data.issuing_country,
    }
    if data.personal_number and data.format == TD3:
        fields["personal_number"] = data.personal_number
    return fields


def optional_data(data: MrzData) -> str:
    """What a TD1/TD2 MRZ carries in its optional data besides fillers ("" for TD3 or none)."""
    return data.personal_number if data.format != TD3 else ""


def document_type(data: MrzData) -> str:
    """ARCHITECTURE §3.2 type: TD3, and TD2 with a 'P' code, are passports; the rest ID cards."""
    if data.format == TD3 or (data.format == TD2 and data.document_code.startswith("P")):
        return "passport"
    return "id_card"
