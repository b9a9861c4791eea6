"""Parsing ICAO 9303 MRZs and their check digits (engines/mrz/parse.py).

The lines are the published ICAO 9303 specimens (Part 4 Appendix B for TD3, Part 5 for TD1,
Part 6 for TD2); their expected values are printed in the specification.
"""

from __future__ import annotations

import datetime as dt

import pytest

from engines.mrz.checkdigit import check_digit
from engines.mrz.formats import FORMATS, _format
from engines.mrz.parse import MrzParseError, parse_mrz

TD1 = ("I<UTOD231458907<<<<<<<<<<<<<<<", "7408122F1204159UTO<<<<<<<<<<<6", "ERIKSSON<<ANNA<MARIA<<<<<<<<<<")
TD2 = ("I<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<", "D231458907UTO7408122F1204159<<<<<<<6")
TD3 = ("P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO7408122F1204159ZE184226B<<<<<10")
TODAY = dt.date(2026, 6, 1)

SPECIMEN_VALUES = {
    "surname": "ERIKSSON",
    "given_names": "ANNA MARIA",
    "nationality": "UTO",
    "issuing_country": "UTO",
    "date_of_birth": "1974-08-12",
    "sex": "F",
    "date_of_expiry": "2012-04-15",
}


def values(lines: tuple[str, ...]) -> dict[str, str | None]:
    return {name: field.value for name, field in parse_mrz(lines, today=TODAY).fields.items()}


def test_td1_specimen_gives_every_canonical_field() -> None:
    assert values(TD1) == {**SPECIMEN_VALUES, "document_number": "D23145890"}
    assert parse_mrz(TD1, today=TODAY).document_type == "id_card"


def test_td2_specimen_gives_every_canonical_field() -> None:
    assert values(TD2) == {**SPECIMEN_VALUES, "document_number": "D23145890"}
    assert parse_mrz(TD2, today=TODAY).document_type == "id_card"


def test_td3_specimen_gives_every_canonical_field_and_the_personal_number() -> None:
    assert values(TD3) == {**SPECIMEN_VALUES, "document_number": "L898902C3", "personal_number": "ZE184226B"}
    assert parse_mrz(TD3, today=TODAY).document_type == "passport"


@pytest.mark.parametrize(
    ("lines", "checks"),
    [
        (TD1, {"document_number", "date_of_birth", "date_of_expiry", "composite"}),
        (TD2, {"document_number", "date_of_birth", "date_of_expiry", "composite"}),
        (TD3, {"document_number", "date_of_birth", "date_of_expiry", "personal_number", "composite"}),
    ],
    ids=["TD1", "TD2", "TD3"],
)
def test_every_check_digit_of_the_specimens_passes(lines: tuple[str, ...], checks: set[str]) -> None:
    parsed = parse_mrz(lines, today=TODAY)
    assert parsed.check_digits == dict.fromkeys(checks, True)
    assert parsed.checks_passed


def test_fields_covered_by_a_check_digit_are_valid_and_the_others_have_no_validator() -> None:
    fields = parse_mrz(TD3, today=TODAY).fields
    for name in ("document_number", "date_of_birth", "date_of_expiry", "personal_number"):
        assert fields[name].valid is True, name
    for name in ("surname", "given_names", "nationality", "issuing_country", "sex"):
        assert fields[name].valid is None, name


def _replace(lines: tuple[str, ...], line: int, pos: int, char: str) -> tuple[str, ...]:
    changed = list(lines)
    changed[line] = changed[line][:pos] + char + changed[line][pos + 1 :]
    return tuple(changed)


@pytest.mark.parametrize(
    ("lines", "line", "pos", "char", "failed", "invalid_field"),
    [
        (TD3, 1, 3, "7", {"document_number", "composite"}, "document_number"),
        (TD3, 1, 9, "5", {"document_number", "composite"}, "document_number"),
        (TD3, 1, 15, "5", {"date_of_birth", "composite"}, "date_of_birth"),
        (TD3, 1, 23, "1", {"date_of_expiry", "composite"}, "date_of_expiry"),
        (TD3, 1, 30, "5", {"personal_number", "composite"}, "personal_number"),
        (TD3, 1, 43, "1", {"composite"}, None),
        (TD1, 0, 7, "4", {"document_number", "composite"}, "document_number"),
        (TD1, 1, 6, "3", {"date_of_birth", "composite"}, "date_of_birth"),
        (TD1, 1, 29, "7", {"composite"}, None),
        (TD2, 1, 20 + 7, "0", {"date_of_expiry", "composite"}, "date_of_expiry"),
    ],
)
def test_a_wrong_character_fails_exactly_the_check_digits_covering_it(
    lines: tuple[str, ...], line: int, pos: int, char: str, failed: set[str], invalid_field: str | None
) -> None:
    parsed = parse_mrz(_replace(lines, line, pos, char), today=TODAY)
    assert set(parsed.failed_checks) == failed
    assert not parsed.checks_passed
    if invalid_field:
        assert parsed.fields[invalid_field].valid is False


def _td1_with_number(number: str) -> tuple[str, str, str]:
    """A TD1 whose document number is longer than 9 characters (9303 Part 5, note j)."""
    optional = (number[9:] + check_digit(number)).ljust(15, "<")
    line1 = "I<UTO" + number[:9] + "<" + optional
    line2_head = "7408122F1204159UTO" + "<" * 11
    composite = check_digit(line1[5:30] + line2_head[0:7] + line2_head[8:15] + line2_head[18:29])
    return line1, line2_head + composite, "ERIKSSON<<ANNA<MARIA<<<<<<<<<<"


def test_td1_long_document_number_continues_in_the_optional_data() -> None:
    parsed = parse_mrz(_td1_with_number("D231458907AB"), today=TODAY)
    number = parsed.fields["document_number"]
    assert number.value == "D231458907AB"
    assert number.valid is True
    assert parsed.checks_passed
    # the check digit is the character after the overflow, not position 15
    assert number.check is not None and (number.check.line, number.check.start) == (0, 18)


def test_td1_long_document_number_with_a_wrong_check_digit_is_invalid() -> None:
    lines = _td1_with_number("D231458907AB")
    wrong = str((int(lines[0][18]) + 1) % 10)
    parsed = parse_mrz(_replace(lines, 0, 18, wrong), today=TODAY)
    assert parsed.fields["document_number"].valid is False
    assert "document_number" in parsed.failed_checks


@pytest.mark.parametrize(
    ("yymmdd", "today", "expected"),
    [
        ("740812", dt.date(2026, 6, 1), "1974-08-12"),
        ("260101", dt.date(2026, 6, 1), "2026-01-01"),
        ("270101", dt.date(2026, 6, 1), "1927-01-01"),
        ("110101", dt.date(2026, 6, 1), "2011-01-01"),
    ],
)
def test_birth_year_is_the_latest_year_not_after_this_one(yymmdd: str, today: dt.date, expected: str) -> None:
    line2 = TD3[1][:13] + yymmdd + check_digit(yymmdd) + TD3[1][20:]
    assert parse_mrz((TD3[0], line2), today=today).fields["date_of_birth"].value == expected


@pytest.mark.parametrize(
    ("yymmdd", "expected"), [("120415", "2012-04-15"), ("690101", "2069-01-01"), ("700101", "1970-01-01")]
)
def test_expiry_year_lies_in_2000_to_2069(yymmdd: str, expected: str) -> None:
    line2 = TD3[1][:21] + yymmdd + check_digit(yymmdd) + TD3[1][28:]
    assert parse_mrz((TD3[0], line2), today=TODAY).fields["date_of_expiry"].value == expected


def test_impossible_calendar_date_has_no_value_and_is_invalid() -> None:
    dob = "740231"  # 31 February, with a correct check digit
    line2 = TD3[1][:13] + dob + check_digit(dob) + TD3[1][20:]
    field = parse_mrz((TD3[0], line2), today=TODAY).fields["date_of_birth"]
    assert field.value is None
    assert field.valid is False


def test_filler_sex_reads_as_x() -> None:
    assert values(_replace(TD3, 1, 20, "<"))["sex"] == "X"


def test_germany_single_letter_code_is_stripped_of_filler() -> None:
    lines = (TD3[0][:2] + "D<<" + TD3[0][5:], TD3[1][:10] + "D<<" + TD3[1][13:])
    got = values(lines)
    assert got["issuing_country"] == "D"
    assert got["nationality"] == "D"


def test_names_use_single_spaces_and_a_missing_given_name_is_omitted() -> None:
    lines = ("P<UTOVAN<DER<BERG" + "<" * 27, TD3[1])
    got = values(lines)
    assert got["surname"] == "VAN DER BERG"
    assert "given_names" not in got


@pytest.mark.parametrize(
    ("code", "document_type"), [("P<", "passport"), ("PO", "passport"), ("I<", "id_card"), ("AC", "id_card")]
)
def test_td2_document_type_follows_the_document_code(code: str, document_type: str) -> None:
    lines = (code + TD2[0][2:], TD2[1])
    assert parse_mrz(lines, today=TODAY).document_type == document_type


def test_empty_personal_number_is_omitted_and_its_filler_check_digit_passes() -> None:
    line2 = TD3[1][:28] + "<" * 15
    composite = check_digit(line2[0:10] + line2[13:20] + line2[21:43])
    parsed = parse_mrz((TD3[0], line2[:43] + composite), today=TODAY)
    assert "personal_number" not in parsed.fields
    assert parsed.check_digits["personal_number"] is True


@pytest.mark.parametrize(
    "lines",
    [(), (TD3[0],), (TD3[0], TD3[1][:-1]), (TD1[0], TD1[1]), (TD3[0].lower(), TD3[1])],
    ids=["no lines", "one line", "short line", "wrong count", "lower case"],
)
def test_lines_of_the_wrong_shape_or_alphabet_are_refused(lines: tuple[str, ...]) -> None:
    with pytest.raises(MrzParseError):
        parse_mrz(lines)


def test_filler_read_as_k_after_the_personal_number_is_filler() -> None:
    """'K' adds nothing to any check digit (20 x weight is 0 modulo 10), so "ZE184226B<K<KK"
    passes every check exactly like the printed "ZE184226B<<<<<"; the stray K's are filler."""
    line2 = TD3[1][:28] + "ZE184226B<K<KK" + TD3[1][42:]
    result = parse_mrz((TD3[0], line2), today=TODAY)
    assert result.fields["personal_number"].value == "ZE184226B"
    assert result.fields["personal_number"].valid is True


def test_a_personal_number_of_k_alone_is_kept() -> None:
    line2 = TD3[1][:28] + "KK<<<<<<<<<<<<" + TD3[1][42:]
    line2 = line2[:42] + str(check_digit("KK<<<<<<<<<<<<")) + line2[43:]
    fields = parse_mrz((TD3[0], line2), today=TODAY).fields
    assert fields["personal_number"].value == "KK"


def test_a_names_field_whose_separator_was_read_as_letters_is_invalid() -> None:
    """Filler read as K: "ERIKSSONKKANNAKMARIAKKKKKKKKKK" has no "<<", which every names field
    has after its primary identifier, so the names cannot be trusted (no check digit covers them)."""
    misread = (*TD1[:2], "ERIKSSONKKANNAKMARIAKKKKKKKKKK")
    fields = parse_mrz(misread, today=TODAY).fields
    assert fields["surname"].valid is False
    assert parse_mrz(TD1, today=TODAY).fields["surname"].valid is None
    only_surname = (*TD1[:2], "VENKATARAGHAVAN<<<<<<<<<<<<<<<")  # no given names: still a separator
    assert parse_mrz(only_surname, today=TODAY).fields["surname"].valid is None


@pytest.mark.parametrize(
    ("truth_line", "read_line", "read_number"),
    [
        # a German card's KA63062 whose K the recogniser read as '<' (K weighs 20, '<' 0)
        ("C<D<<KA63062<<7<<<<<<<<<<<<<<<", "C<D<<<A63062<<7<<<<<<<<<<<<<<<", "A63062"),
        # a card's JO0V0KKJ whose two K it read as '<': filler inside the number
        ("I<D<<JO0V0KKJ<9<<<<<<<<<<<<<<<", "I<D<<JO0V0<<J<9<<<<<<<<<<<<<<<", "JO0V0J"),
    ],
)
def test_a_document_number_read_with_filler_before_a_character_is_invalid_though_its_check_passes(
    truth_line: str, read_line: str, read_number: str
) -> None:
    """GIVEN a TD1 number whose K the recogniser read as '<' (alike mod 10: the check digit passes)
    THEN the number read is not valid: a number starts at its field's first position, and
    filler only pads its end."""
    rest = ("0304199F3505311D<<<<<<<<<<<<<0", "KHAN<<MARIA<<<<<<<<<<<<<<<<<<<")
    assert parse_mrz((truth_line, *rest), today=TODAY).fields["document_number"].valid is True
    parsed = parse_mrz((read_line, *rest), today=TODAY)
    number = parsed.fields["document_number"]
    assert number.value == read_number and parsed.check_digits["document_number"]
    assert number.valid is False


def test_a_personal_number_whose_o_and_0_the_check_digit_cannot_tell_apart_is_not_verified() -> None:
    """GIVEN a passport whose personal number HKAOO3OO45EWTN the recogniser read with zeros for
    its O (two swaps at weights 7 and 3 leave the check digit as it was)
    THEN the number read passes its check digit but is not valid: a person reads the print.
    A number of digits alone keeps its zeros."""
    read = (TD3[0], "L898902C36UTO7408122F1204159HKA0030045EWTN72")
    parsed = parse_mrz(read, today=TODAY)
    assert parsed.check_digits["personal_number"] and parsed.fields["personal_number"].valid is False
    assert parse_mrz(TD3, today=TODAY).fields["personal_number"].valid is True


def test_the_formats_read_from_data_have_icaos_shapes_and_check_digits() -> None:
    """engines/knowledge/mrz_formats.toml: 3 lines of 30, 2 of 36, 2 of 44, each check digit
    after the field it guards and the composite over the fields 9303 lists."""
    assert [(f.name, f.line_count, f.line_length) for f in FORMATS] == [
        ("TD1", 3, 30),
        ("TD2", 2, 36),
        ("TD3", 2, 44),
    ]
    composite = {f.name: next(c for c in f.checks if c.name == "composite") for f in FORMATS}
    assert [(s.line, s.start, s.end) for s in composite["TD1"].data] == [
        (0, 5, 30),
        (1, 0, 7),
        (1, 8, 15),
        (1, 18, 29),
    ]
    assert [(s.line, s.start, s.end) for s in composite["TD3"].data] == [(1, 0, 10), (1, 13, 20), (1, 21, 43)]
    assert FORMATS[2].templates[1] == "xxxxxxxxxcaaannnnnncsnnnnnncxxxxxxxxxxxxxxkc"


def test_a_format_whose_field_names_no_known_class_is_refused() -> None:
    with pytest.raises(ValueError, match="TD9 field names"):
        _format("TD9", {"lines": [{"names": "q30"}], "checks": {}})
