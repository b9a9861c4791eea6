"""The last line of a postal address (engines/business/places.py): city, region and postal code in
each country's shape, through the letters and digits OCR confuses.
"""

from __future__ import annotations

import pytest

from engines.business.places import parse_city_line
from engines.layout import Line


@pytest.mark.parametrize(
    ("text", "city", "postcode"),
    [
        ("Oxford Ox96NZ", "OXFORD", "OX9 6NZ"),  # a letter read in lower case
        ("OXFORD 0X9 6SX", "OXFORD", "OX9 6SX"),  # O read as zero
        ("0X96SX", "", "OX9 6SX"),
        ("SHEFTIELD S6TAL", "SHEFTIELD", "S6 7AL"),  # the inward 7 read as T
        ("Item 12 OBS", None, None),  # an area of digits alone is no postcode
        ("Birmingham BI0 7YG", "BIRMINGHAM", "B10 7YG"),  # no area is BI: B, and the I a one
        # glued to a city in capitals, the inward 1 read as I; the two-letter area wins
        ("LONDONSE7IQG", "LONDON", "SE7 1QG"),
        ("LEEDSLS62AB", "LEEDS", "LS6 2AB"),
        ("INVOICE2024", None, None),
    ],
)
def test_a_british_postcode_ocr_misread_is_still_a_postcode(
    text: str, city: str | None, postcode: str | None
) -> None:
    parsed = parse_city_line(Line(text, 0.9, (0.1, 0.1, 0.3, 0.12), 1))
    assert (parsed.city, parsed.postal_code) == (city, postcode) if parsed else city is None


@pytest.mark.parametrize(
    ("text", "postcode", "repaired"),
    [
        ("Mississauga ON L7C sV3", "L7C 5V3", True),  # a digit read as a letter: a guess, doubted
        ("Toronto ON MSV 2T6", "M5V 2T6", True),
        ("Halifax NS B3T 4R6", "B3T 4R6", False),
        ("Toronto ON M5V ZT6", None, None),  # Z is no digit's lookalike
    ],
)
def test_a_canadian_postal_code_ocr_misread_is_still_one(
    text: str, postcode: str | None, repaired: bool | None
) -> None:
    parsed = parse_city_line(Line(text, 0.9, (0.1, 0.1, 0.3, 0.12), 1))
    assert (
        (parsed.postal_code, parsed.postal_code_repaired) == (postcode, repaired)
        if parsed
        else postcode is None
    )


@pytest.mark.parametrize(
    ("text", "city", "postcode"),
    [
        ("CH-20B5Neuchatel", "NEUCHATEL", "2085"),  # an 8 read as B
        ("B1363Munchen", "MUNCHEN", "81363"),
        ("BOSS Hamburg", None, None),  # a word, not a code: too few digits
    ],
)
def test_a_postal_code_before_its_city_with_a_digit_read_as_a_letter_is_repaired(
    text: str, city: str | None, postcode: str | None
) -> None:
    parsed = parse_city_line(Line(text, 0.9, (0.1, 0.1, 0.3, 0.12), 1))
    if city is None:
        assert parsed is None
    else:
        assert parsed is not None and (parsed.city, parsed.postal_code, parsed.postal_code_repaired) == (
            city,
            postcode,
            True,
        )


@pytest.mark.parametrize(
    ("text", "repaired"),
    [
        ("Birmingham BI0 7YG", True),
        ("SHEFTIELD S6TAL", True),
        ("Oxford Ox96NZ", False),  # only the case was OCR's: no letter was taken for a digit
        ("BIRMINGHAM B10 7YQ", False),
        ("LONDONSE71QG", True),  # where the city ends is a guess
    ],
)
def test_a_postcode_read_only_after_undoing_a_confusion_is_marked_repaired(text: str, repaired: bool) -> None:
    parsed = parse_city_line(Line(text, 0.9, (0.1, 0.1, 0.3, 0.12), 1))
    assert parsed is not None and parsed.postal_code_repaired is repaired


@pytest.mark.parametrize(
    ("printed", "city", "postal_code"),
    [
        ("33200 B0RDEAUX", "BORDEAUX", "33200"),  # a monospaced O read as a zero
        ("75008 PAR1S", "PARIS", "75008"),
        ("LONDON SW1A 1AA", "LONDON", "SW1A 1AA"),  # a postcode's digits stay digits
        ("1012 AB AMSTERDAM", "AMSTERDAM", "1012 AB"),
    ],
)
def test_a_city_line_is_read_through_digits_ocr_put_in_its_words(printed, city, postal_code):
    parsed = parse_city_line(Line(printed, 0.9, (0.1, 0.5, 0.4, 0.52), 1))
    assert parsed is not None and (parsed.city, parsed.postal_code) == (city, postal_code)


@pytest.mark.parametrize(
    ("printed", "city"),
    [
        ("Salt LakeCity. UT84158", "SALT LAKECITY"),  # the comma before the state read as a stop
        ("Philadelphia. PA 19160", "PHILADELPHIA"),
        ("St. Louis, MO 63101", "ST. LOUIS"),  # an abbreviation's stop inside the name stays
        ("Chicago.IL60673", "CHICAGO"),  # ... and glued to the state
        ("Miami.FL33145", "MIAMI"),
    ],
)
def test_a_citys_name_never_ends_in_a_full_stop(printed: str, city: str) -> None:
    parsed = parse_city_line(Line(printed, 0.9, (0.1, 0.5, 0.4, 0.52), 1))
    assert parsed is not None and parsed.city == city


@pytest.mark.parametrize(
    ("printed", "city", "postal_code"),
    [
        ("1273 GENÈVE", "GENÈVE", "1273"),  # a Swiss code: GE is the start of the city, no Dutch code
        ("1015 CJAmsterdam", "AMSTERDAM", "1015 CJ"),  # a Dutch code glued to its city
        ("5029 HW TILBURG", "TILBURG", "5029 HW"),
    ],
)
def test_a_dutch_postcodes_letters_are_never_a_citys_first_letters(printed, city, postal_code):
    parsed = parse_city_line(Line(printed, 0.9, (0.1, 0.5, 0.4, 0.52), 1))
    assert parsed is not None and (parsed.city, parsed.postal_code) == (city, postal_code)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("5647 Hz Eindhoven", ("EINDHOVEN", "5647 HZ", "NL")),  # a letter of the code read small
        ("1080XPAMSTERDAM", ("AMSTERDAM", "1080 XP", "NL")),  # the line glued, no country known
        ("1080 XPAMSTERDAM", ("AMSTERDAM", "1080 XP", "NL")),
        ("1273 Genève", ("GENÈVE", "1273", "XX")),  # a Swiss code and its city stay so
        ("1273GENEVE", ("GENEVE", "1273", "XX")),
        ("3000 Bern", ("BERN", "3000", "XX")),
    ],
)
def test_a_dutch_code_with_a_letter_read_in_lower_case_is_told_by_the_dutch_city_after_it(
    text: str, expected: tuple[str, str, str]
) -> None:
    """GIVEN a Dutch city line whose postcode's second letter OCR read in lower case ("Hz"), or
    whose code OCR glued to the city ("1080XPAMSTERDAM") on a page that names no country
    THEN the code keeps both its letters and the city is the Dutch one (once "HZ EINDHOVEN",
    5647, and "XP AMSTERDAM", 1080)."""
    parsed = parse_city_line(Line(text, 0.9, (0.1, 0.1, 0.3, 0.12), 1))
    assert parsed is not None and (parsed.city, parsed.postal_code, parsed.country) == expected
