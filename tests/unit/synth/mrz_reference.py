"""An independent reading of ICAO 9303 MRZs, for checking what synth generates.

Deliberately written from the field positions of Doc 9303 Parts 4-6, not from synth.mrz, so a
bug in the generator's composition cannot hide behind the same bug in its test.
"""

from __future__ import annotations

from datetime import date

from engines.mrz.checkdigit import check_digit


def _date(yymmdd: str, birth: bool) -> str:
    yy, mm, dd = int(yymmdd[:2]), int(yymmdd[2:4]), int(yymmdd[4:])
    # The generator's windows: births 1927-2026, expiries 2000-2069.
    year = (1900 + yy if yy > 26 else 2000 + yy) if birth else 2000 + yy
    return date(year, mm, dd).isoformat()


def _name(field: str) -> tuple[str, str]:
    head, _, tail = field.partition("<<")
    return " ".join(w for w in head.split("<") if w), " ".join(w for w in tail.split("<") if w)


def _strip(value: str) -> str:
    return value.rstrip("<")


def _check(data: str, digit: str, what: str, errors: list[str]) -> None:
    if check_digit(data) != digit:
        errors.append(f"{what}: check digit {digit!r} != {check_digit(data)!r} for {data!r}")


def read(lines: list[str] | tuple[str, ...]) -> tuple[dict[str, str], list[str]]:
    """The fields an MRZ encodes and the list of check-digit failures (empty when valid).

    A personal number is reported for TD3 only, where ICAO defines that field.
    """
    errors: list[str] = []
    if len(lines) == 3:
        l1, l2, l3 = lines
        number, number_cd, optional1 = l1[5:14], l1[14], l1[15:30]
        if number_cd == "<":  # long document number: rest and its check digit in optional data 1
            rest = optional1.split("<", 1)[0]
            full_number, number_cd = number + rest[:-1], rest[-1]
            _check(full_number, number_cd, "document number (long)", errors)
        else:
            full_number = _strip(number)
            _check(number, number_cd, "document number", errors)
        personal = ""  # TD1 optional data is issuer-defined, not a personal number
        _check(l2[0:6], l2[6], "date of birth", errors)
        _check(l2[8:14], l2[14], "date of expiry", errors)
        _check(l1[5:30] + l2[0:7] + l2[8:15] + l2[18:29], l2[29], "composite", errors)
        surname, given = _name(l3)
        fields = {
            "document_number": full_number,
            "issuing_country": _strip(l1[2:5]),
            "date_of_birth": _date(l2[0:6], birth=True),
            "sex": l2[7] if l2[7] != "<" else "X",
            "date_of_expiry": _date(l2[8:14], birth=False),
            "nationality": _strip(l2[15:18]),
            "surname": surname,
            "given_names": given,
        }
    else:
        l1, l2 = lines
        td3 = len(l1) == 44
        _check(l2[0:9], l2[9], "document number", errors)
        _check(l2[13:19], l2[19], "date of birth", errors)
        _check(l2[21:27], l2[27], "date of expiry", errors)
        if td3:
            personal_field, personal_cd = l2[28:42], l2[42]
            if personal_field == "<" * 14:
                if personal_cd not in "<0":
                    errors.append(f"empty personal number with check digit {personal_cd!r}")
            else:
                _check(personal_field, personal_cd, "personal number", errors)
            _check(l2[0:10] + l2[13:20] + l2[21:43], l2[43], "composite", errors)
            personal = _strip(personal_field)
        else:
            _check(l2[0:10] + l2[13:20] + l2[21:35], l2[35], "composite", errors)
            personal = ""  # TD2 optional data is issuer-defined, not a personal number
        surname, given = _name(l1[5:])
        fields = {
            "document_number": _strip(l2[0:9]),
            "issuing_country": _strip(l1[2:5]),
            "nationality": _strip(l2[10:13]),
            "date_of_birth": _date(l2[13:19], birth=True),
            "sex": l2[20] if l2[20] != "<" else "X",
            "date_of_expiry": _date(l2[21:27], birth=False),
            "surname": surname,
            "given_names": given,
        }
    if personal:
        fields["personal_number"] = personal
    return fields, errors
