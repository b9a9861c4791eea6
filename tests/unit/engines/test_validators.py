"""Parsers and validators for business-document values (engines/validators.py)."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from engines.validators import (
    POSTAL_COUNTRIES,
    date_order,
    detect_currency,
    find_amounts,
    find_dates,
    find_iban,
    format_amount,
    parse_amount,
    parse_date,
    repaired_iban,
    valid_iban,
    valid_postal_code,
)

NEW_YEARS_EVE = date(2026, 12, 31)


@pytest.mark.parametrize(
    "text",
    [
        "31/12/2026",
        "12/31/2026",
        "2026-12-31",
        "31.12.2026",
        "31-12-26",
        "31 Dec 2026",
        "Dec 31, 2026",
        "December 31 2026",
        "31 décembre 2026",
        "31. Dezember 2026",
        "31 de diciembre de 2026",
        "31 dicembre 2026",
        "31 december 2026",
        "31 dec. 2026",
        "31-DEC-2026",
        "31Dec2026",
        "Date: 31/12/2026 14:03",
    ],
)
def test_every_printed_form_of_a_date_parses_to_the_same_day(text: str) -> None:
    assert parse_date(text) == NEW_YEARS_EVE


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("22/12/201714:03", date(2017, 12, 22)),  # OCR glued the time to a four-digit year
        ("11-04-1817:42SH01", date(2018, 4, 11)),  # ... and to a two-digit year
        ("Order 100007017/04/2018 07:13 PM", date(2018, 4, 17)),  # ... and a number before it
        ("05Mar201818:24", date(2018, 3, 5)),
        ("2023-08-0109:08", date(2023, 8, 1)),  # ... and to an ISO date
        ("1er janvier 2026", date(2026, 1, 1)),
        ("3 mrt. 2026", date(2026, 3, 3)),
        ("15. März 2026", date(2026, 3, 15)),
        ("15 maart 2026", date(2026, 3, 15)),
        ("7 agosto 2026", date(2026, 8, 7)),
        ("Fecha6de septiembrede2023", date(2023, 9, 6)),  # label, day, "de" and year glued
        ("20deseptiembrede2023", date(2023, 9, 20)),
        ("October14.2022", date(2022, 10, 14)),  # the comma read as a full stop, the space lost
        ("0044001 14112019 08:02:11 0003", date(2019, 11, 14)),  # a till's stamp, no separators
        ("20191114 08:02", date(2019, 11, 14)),  # ... year first
    ],
)
def test_dates_in_ocr_text_and_other_languages(text: str, expected: date) -> None:
    assert parse_date(text) == expected


def test_ambiguous_numeric_dates_follow_the_preference_and_none_refuses_them() -> None:
    assert parse_date("03/04/2026", prefer="dmy") == date(2026, 4, 3)
    assert parse_date("03/04/2026", prefer="mdy") == date(2026, 3, 4)
    assert parse_date("03/04/2026", prefer=None) is None
    assert parse_date("13/04/2026", prefer="mdy") == date(2026, 4, 13)  # only one reading exists
    (match,) = find_dates("on 03/04/2026")
    assert match.ambiguous and (match.start, match.end) == (3, 13)


def test_one_unambiguous_date_settles_the_order_of_the_others() -> None:
    assert date_order(["Invoice date 03/04/2026", "Due 05/28/2026"]) == "mdy"
    assert date_order(["Rechnungsdatum 28.05.2026"]) == "dmy"
    assert date_order(["03/04/2026"]) is None


@pytest.mark.parametrize(
    "text",
    # a price; eight digits that are no date, or are one only beside a time of day
    [
        "32/01/2026",
        "2026-13-01",
        "31 Feb 2026",
        "no date here",
        "12:30",
        "May 5.25",
        "14112019",
        "40112019 08:02",
    ],
)
def test_impossible_dates_are_not_dates(text: str) -> None:
    assert parse_date(text) is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1,234.50", "1234.50"),
        ("1.234,50", "1234.50"),
        ("1 234,50", "1234.50"),
        ("1'234.50", "1234.50"),
        ("1\u00a0234,50", "1234.50"),
        ("-12.00", "-12.00"),
        ("12.00-", "-12.00"),
        ("(12.00)", "-12.00"),
        ("$8.20", "8.20"),
        ("RM 9.00", "9.00"),
        ("9,00 €", "9.00"),
        ("EUR 1.234,56", "1234.56"),
        ("CHF 1'234.50", "1234.50"),
        ("1.234", "1234"),
        ("0.500", "0.500"),
        ("12", "12"),
        ("1,234,567.89", "1234567.89"),
    ],
)
def test_amounts_parse_whatever_the_separators(text: str, expected: str) -> None:
    assert parse_amount(text) == Decimal(expected)


@pytest.mark.parametrize("text", ["abc", "", "1,23,456.00", "12..50", "12,"])
def test_text_that_is_not_an_amount_is_refused(text: str) -> None:
    assert parse_amount(text) is None


def test_amounts_inside_a_line_skip_percentages_dates_and_times() -> None:
    found = find_amounts("VAT 20% on 12/03/2026 at 12:30: RM12.00 and 1.234,50 €")
    assert [(str(a.value), a.decimals) for a in found] == [("12.00", 2), ("1234.50", 2)]
    assert find_amounts("Total12.50")[0].value == Decimal("12.50")  # OCR dropped the space
    assert find_amounts("(IVA INCL.):33,93")[0].value == Decimal("33.93")  # and the one after a colon
    assert find_amounts("at 15:14:00") == []


def test_canonical_amount_has_exactly_two_decimals() -> None:
    assert format_amount(Decimal("1234.5")) == "1234.50"
    assert format_amount(Decimal("7")) == "7.00"


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("Total 12,50 €", "EUR"),
        ("Total: 12.00 USD", "USD"),
        ("£ 5.00", "GBP"),
        ("¥1200", "JPY"),
        ("CHF 12.50", "CHF"),
        ("RM 12.00", "MYR"),
        ("Amount (RM)", "MYR"),
        ("Rp 150.000", "IDR"),
        ("HK$ 20", "HKD"),
        ("C$5.00", "CAD"),
        ("$1,234.50", "USD"),
        ("Balance due UsD 118.91", "USD"),  # a letter of the code read in lower case
    ],
)
def test_currency_from_symbols_codes_and_local_abbreviations(text: str, code: str) -> None:
    assert detect_currency(text) == code


def test_words_spelled_like_a_code_are_no_currency() -> None:
    assert detect_currency("Try our new menu\nPen and paper 3.00\nEur-Asia Trading") is None


def test_rm_on_an_italian_address_is_not_ringgit() -> None:
    assert detect_currency("Via Roma 1\n00184 Roma (RM)") is None
    assert detect_currency("00184 Roma RM\nTotale 12,00 EUR") == "EUR"


def test_iban_is_normalised_and_its_check_digits_verified() -> None:
    assert valid_iban("de89 3704 0044 0532 0130 00") == "DE89370400440532013000"
    assert valid_iban("IBAN: GB82 WEST 1234 5698 7654 32") == "GB82WEST12345698765432"
    assert valid_iban("DE89 3704 0044 0532 0130 01") is None  # one digit off
    assert valid_iban("12345") is None
    assert find_iban("IBAN: NL91 ABNA 0417 1643 00 BIC ABNANL2A") == ("NL91ABNA0417164300", 6, 28)


@pytest.mark.parametrize(
    ("text", "country", "canonical"),
    [
        ("90210", "US", "90210"),
        ("90210-1234", "US", "90210-1234"),
        ("m5v 2t6", "CA", "M5V 2T6"),
        ("sw1a1aa", "GB", "SW1A 1AA"),
        ("EC1A 1BB", "GB", "EC1A 1BB"),
        ("1012ab", "NL", "1012 AB"),
        ("10115", "DE", "10115"),
        ("75002", "FR", "75002"),
        ("28013", "ES", "28013"),
        ("00184", "IT", "00184"),
    ],
)
def test_postal_codes_come_back_in_their_countrys_canonical_form(
    text: str, country: str, canonical: str
) -> None:
    assert valid_postal_code(text, country) == canonical


def postal_code_countries(text: str) -> list[str]:
    return [country for country in POSTAL_COUNTRIES if valid_postal_code(text, country)]


def test_a_postal_codes_format_names_its_country_only_when_no_other_shares_it() -> None:
    assert postal_code_countries("SW1A 1AA") == ["GB"]
    assert postal_code_countries("M5V 2T6") == ["CA"]
    assert postal_code_countries("1012 AB") == ["NL"]
    assert postal_code_countries("90210-1234") == ["US"]
    assert set(postal_code_countries("10115")) >= {"US", "DE", "FR", "IT"}  # all print five digits
    assert "ES" not in postal_code_countries("60000")
    assert valid_postal_code("1012 SA", "NL") is None  # SA, SD, SS are never issued


@pytest.mark.parametrize("text", ["BI0 7YG", "QX1 1AA", "LS6 2CB", "SW1A 1AO"])
def test_a_british_postcode_outside_royal_mails_areas_and_letters_is_refused(text: str) -> None:
    """GIVEN OCR's misreads of real postcodes (B10 read BI0, unit letters no postcode uses)
    THEN they do not pass as postcodes, so they cannot be approved straight through."""
    assert valid_postal_code(text, "GB") is None


@pytest.mark.parametrize(
    ("read", "iban"),
    [
        ("IT541045 9145145668345616725", "IT54I0459145145668345616725"),  # the CIN letter read as 1
        ("DE89 37O4 0044 0532 0130 00", "DE89370400440532013000"),  # a zero read as O
        ("IT541045 9145145668345616726", None),  # a wrong digit: no class says where
        ("DE89370400440532013000", None),  # nothing to repair
    ],
)
def test_an_iban_with_a_character_in_the_wrong_class_is_repaired_only_when_mod_97_agrees(
    read: str, iban: str | None
) -> None:
    assert repaired_iban(read) == iban
    if iban is not None:
        assert valid_iban(read) is None and find_iban(f"IBAN {read}", repair=True) == (iban, 5, 5 + len(read))


def test_the_currency_knowledge_names_only_iso_4217_codes() -> None:
    """engines/knowledge/currencies.toml is data a person edits: every code it maps to must be
    one ISO 4217 knows (pycountry's list), and a symbol that is a prefix of another is tried after it."""
    import pycountry

    from engines import validators

    data = validators._CURRENCIES
    iso = {currency.alpha_3 for currency in pycountry.currencies} | set(data["codes"]["withdrawn"])
    mapped = set(data["symbols"].values()) | set(data["local_abbreviations"].values())
    assert mapped | set(data["codes"]["printed"]) | set(data["codes"]["misread_case"]) <= iso
    symbols = list(validators._SYMBOLS)
    assert symbols.index("HK$") < symbols.index("$") and symbols.index("US$") < symbols.index("$")
