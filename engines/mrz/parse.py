"""Parse an ICAO 9303 MRZ (TD1, TD2, TD3) into canonical fields and check every check digit.

Input lines must already have the exact format shape (3x30, 2x36 or 2x44); OCR clean-up is
repair.py's job. Field names follow ARCHITECTURE §3.2.

Which fields a check digit covers (``MrzField.valid``):

- document_number, date_of_birth, date_of_expiry and (TD3) personal_number each have their own
  check digit: ``valid`` is that digit's verdict (a date that passes its check digit but is not a
  real calendar date is invalid).
- surname, given_names, nationality, issuing_country and sex are covered by *no* check digit in
  any of the three formats: the composite digit only spans the number, dates and optional data.
  Their ``valid`` is therefore ``None`` ("no validator applies"); claiming the composite check for
  them would make a mis-read name look verified. The one exception: a names field without the
  "<<" that ends every primary identifier (followed by given names or by filler) was misread,
  its filler taken for letters ("VENKATARAGHAVANKKHANAKAGNIESZK"), so surname and given names
  are invalid.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engines.mrz.checkdigit import check_digit, is_valid
from engines.mrz.formats import FORMATS, CheckSpec, MrzFormat, Span, format_for_shape

_MRZ_LINE = re.compile(r"^[0-9A-Z<]+$")
_SEPARATOR = "<<"  # after the primary identifier, in every names field


class MrzParseError(ValueError):
    """The lines are not an MRZ of a known shape."""


@dataclass(frozen=True)
class MrzField:
    """One canonical field: its value, its check-digit verdict and where it was read from."""

    value: str | None  # None when the characters do not make a value (e.g. day 31 of February)
    valid: bool | None
    spans: tuple[Span, ...]  # the MRZ characters the value comes from (for bboxes and confidences)
    check: Span | None = None  # the check digit that covers it, if any


@dataclass(frozen=True)
class MrzParse:
    format: MrzFormat
    lines: tuple[str, ...]
    document_code: str
    document_type: str  # "passport" | "id_card"
    fields: dict[str, MrzField]
    check_digits: dict[str, bool]  # check name -> passed ("document_number", ..., "composite")

    @property
    def checks_passed(self) -> bool:
        return all(self.check_digits.values())

    @property
    def failed_checks(self) -> list[str]:
        return [name for name, ok in self.check_digits.items() if not ok]


def parse_mrz(lines: Sequence[str], *, today: dt.date | None = None) -> MrzParse:
    """Parse exact MRZ lines. Raises MrzParseError when their shape or characters are wrong."""
    lines = tuple(lines)
    fmt = format_for_shape(len(lines), len(lines[0]) if lines else 0)
    if fmt is None or any(len(line) != fmt.line_length for line in lines):
        shapes = ", ".join(f"{f.line_count}x{f.line_length}" for f in FORMATS)
        raise MrzParseError(f"MRZ must be one of {shapes}; got {len(lines)} lines")
    if not all(_MRZ_LINE.match(line) for line in lines):
        raise MrzParseError("MRZ lines may only contain 0-9, A-Z and '<'")
    today = today or dt.date.today()
    sp = fmt.spans

    code = sp["document_code"].read(lines)
    checks: dict[str, bool] = {}
    fields: dict[str, MrzField] = {}

    specs = {spec.name: spec for spec in effective_checks(fmt, lines)}
    for name, spec in specs.items():
        checks[name] = check_passes(spec, lines)

    number_spec = specs["document_number"]
    raw_number = "".join(span.read(lines) for span in number_spec.data)
    number = raw_number.replace("<", "")
    # A number starts at its field's first position and filler only pads its end, so a '<'
    # before any of its characters is a misread one: one the check digit cannot tell from '<'
    # (0, A, K, U all weigh 0 mod 10), as a K read as filler made KA63062 "A63062", and two
    # made JO0V0KKJ "JO0V0J", with the check digit passing.
    ok = checks["document_number"] and "<" not in raw_number.rstrip("<")
    spans = tuple(_without_trailing_filler(span, lines) for span in number_spec.data)
    fields["document_number"] = MrzField(number or None, ok, spans, number_spec.digit)

    for name, expand in (("date_of_birth", _birth_year), ("date_of_expiry", _expiry_year)):
        span, check = sp[name], sp[f"{name}_check"]
        iso = _iso_date(span.read(lines), expand, today)
        fields[name] = MrzField(iso, checks[name] and iso is not None, (span,), check)

    if fmt.name == "TD3":
        span, check = sp["personal_number"], sp["personal_number_check"]
        value = _personal_number(span.read(lines))
        if value:
            trimmed = _without_trailing_filler(span, lines)
            ok = checks["personal_number"] and not _o_and_zero_undecided(span.read(lines))
            fields["personal_number"] = MrzField(value, ok, (trimmed,), check)

    names_raw = sp["names"].read(lines)
    surname, given = _names(names_raw)
    names_span = sp["names"]
    names_valid = None if _SEPARATOR in names_raw else False
    fields["surname"] = MrzField(surname or None, names_valid, (names_span,))
    if given:
        fields["given_names"] = MrzField(given, names_valid, (names_span,))
    for name in ("nationality", "issuing_country"):
        fields[name] = MrzField(sp[name].read(lines).replace("<", "") or None, None, (sp[name],))
    sex = sp["sex"].read(lines)
    fields["sex"] = MrzField({"M": "M", "F": "F", "X": "X", "<": "X"}.get(sex), None, (sp["sex"],))
    _narrow_name_spans(fields, names_span, sp["names"].read(lines))

    return MrzParse(
        format=fmt,
        lines=lines,
        document_code=code,
        document_type=document_type_for(fmt, code),
        fields=fields,
        check_digits=checks,
    )


def document_type_for(fmt: MrzFormat, code: str) -> str:
    """TD3 is a passport book, TD1 a card; TD2 is either, told apart by the document code."""
    if fmt.name == "TD3":
        return "passport"
    if fmt.name == "TD1":
        return "id_card"
    return "passport" if code.startswith("P") else "id_card"


def effective_checks(fmt: MrzFormat, lines: Sequence[str]) -> tuple[CheckSpec, ...]:
    """The format's check digits, with the TD1/TD2 long-document-number rule applied.

    9303 Part 5 4.2.2 / Part 6 4.2.2: when a document number has more than 9 characters, its
    first 9 fill the number field, the check-digit position holds '<', and the rest of the number
    followed by its check digit open the optional data field.
    """
    specs = []
    for spec in fmt.checks:
        if spec.name == "document_number" and fmt.name in ("TD1", "TD2") and spec.digit.read(lines) == "<":
            optional = fmt.spans["optional_data_1" if fmt.name == "TD1" else "optional_data_2"]
            overflow = optional.read(lines).split("<", 1)[0]
            if len(overflow) >= 2:
                digit_at = optional.start + len(overflow) - 1
                spec = CheckSpec(
                    spec.name,
                    (spec.data[0], Span(optional.line, optional.start, digit_at)),
                    Span(optional.line, digit_at, digit_at + 1),
                )
        specs.append(spec)
    return tuple(specs)


def check_passes(spec: CheckSpec, lines: Sequence[str]) -> bool:
    """Whether one check digit matches its data.

    An empty TD3 personal number may carry '<' instead of a check digit (9303 Part 4 4.2.2).
    """
    data = "".join(span.read(lines) for span in spec.data)
    digit = spec.digit.read(lines)
    if spec.name == "personal_number" and data.strip("<") == "" and digit == "<":
        return True
    return is_valid(data, digit)


def _without_trailing_filler(span: Span, lines: Sequence[str]) -> Span:
    """The span without the filler padding its value (for a box around the value only)."""
    length = len(span.read(lines).rstrip("<"))
    return Span(span.line, span.start, span.start + max(length, 1))


def _names(raw: str) -> tuple[str, str]:
    """Primary and secondary identifiers: '<<' separates them, '<' separates words."""
    surname, _, given = raw.strip("<").partition("<<")
    return _text(surname), _text(given)


def _personal_number(raw: str) -> str:
    """The personal number without the filler OCR read as 'K' ("10350749<K<KK<" is 10350749).

    'K' is worth 20 to a check digit, and every weight times 20 is 0 modulo 10: a 'K' read for
    '<' can never fail the number's check digit, so the digit cannot catch it. A personal number
    is one code; letters standing apart from it after filler are misread filler."""
    parts = [part for part in raw.split("<") if part]
    while len(parts) > 1 and set(parts[-1]) == {"K"}:
        parts.pop()
    return " ".join(parts)


_MAX_LOOKALIKES = 8  # O and 0 in a field past this many are not searched (2^n readings)


def _o_and_zero_undecided(raw: str) -> bool:
    """Does a field of letters and digits ("HKAOO3OO45EWTN") read with its O and 0 swapped
    otherwise pass the same check digit? O weighs 24, 0 nothing: one swap always changes the
    digit, but two at weights 7 and 3 (28 + 12 = 40) never do, so the check digit cannot say
    which of the two, OCR-B's alike, each is, and the field is not verified by it."""
    positions = [i for i, char in enumerate(raw) if char in "O0"]
    if len(positions) < 2 or len(positions) > _MAX_LOOKALIKES:
        return False
    if not any(char.isalpha() and char != "O" for char in raw):
        return False  # a number of digits alone: its 0 are zeros
    digit = check_digit(raw)
    for mask in range(1, 2 ** len(positions)):
        chars = list(raw)
        for bit, position in enumerate(positions):
            if mask >> bit & 1:
                chars[position] = "0" if chars[position] == "O" else "O"
        if check_digit("".join(chars)) == digit:
            return True
    return False


def _text(raw: str) -> str:
    return " ".join(part for part in raw.split("<") if part)


def _narrow_name_spans(fields: dict[str, MrzField], names: Span, raw: str) -> None:
    """Give surname and given names the character ranges they really occupy (for bboxes)."""
    body = raw.rstrip("<")
    cut = body.find("<<")
    surname_end = cut if cut >= 0 else len(body)
    if "surname" in fields:
        f = fields["surname"]
        fields["surname"] = MrzField(
            f.value, f.valid, (Span(names.line, names.start, names.start + max(surname_end, 1)),)
        )
    if "given_names" in fields and cut >= 0:
        f = fields["given_names"]
        start = names.start + cut + 2
        fields["given_names"] = MrzField(
            f.value, f.valid, (Span(names.line, start, max(names.start + len(body), start + 1)),)
        )


def _birth_year(yy: int, today: dt.date) -> int:
    """Birth dates lie in the 100 years up to this year: a yy after this year's is last century."""
    return 1900 + yy if yy > today.year % 100 else 2000 + yy


def _expiry_year(yy: int, today: dt.date) -> int:
    """Expiry dates are read in 2000-2069 (documents expire after issue, at most a few decades on)."""
    return 2000 + yy if yy < 70 else 1900 + yy


def _iso_date(raw: str, expand_year: Callable[[int, dt.date], int], today: dt.date) -> str | None:
    if len(raw) != 6 or not raw.isdigit():
        return None
    yy, mm, dd = int(raw[0:2]), int(raw[2:4]), int(raw[4:6])
    try:
        return dt.date(expand_year(yy, today), mm, dd).isoformat()
    except ValueError:
        return None
