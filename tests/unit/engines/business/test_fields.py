"""What the business readers share (engines/business/fields.py): the code parser of invoice
numbers and the repair of what OCR does to text.
"""

from __future__ import annotations

import pytest

from engines.business.fields import code_parser, repair_ocr_text


@pytest.mark.parametrize("text", ["21.Juni 2022", "21. Juni 2022", "12.03.2024", ": 03/04/2026"])
def test_a_date_is_never_read_as_an_invoice_number(text: str) -> None:
    """A photographed German invoice put its "DATUM" box's "21.Juni 2022" next to the number's
    label; the date's day is no identifier."""
    assert code_parser(text) is None


@pytest.mark.parametrize(
    ("text", "number"),
    [
        ("9724/2022", "9724/2022"),
        ("No. RE-2026-0042", "RE-2026-0042"),
        ("A-26.03.2024", "A-26.03.2024"),  # a date that ends with the number is part of it
        # a page header's "MF-72235 · 26 juli 2024", its separator and a space lost by OCR
        ("MF-72235-26juli 2024", "MF-72235"),
        ("F2023/7673-19-09-2023", "F2023/7673"),  # the date ends the glued token
        ("INV-2023-01-15", "INV-2023-01-15"),  # a number made of a date keeps it
        ("NR-77448", "NR-77448"),  # a prefix a hyphen joins to the digits is the number's own
        ("Nr. 77448", "77448"),  # a caption's abbreviation is not
        ("Ne2552439", "2552439"),  # "Nº" whose º OCR read as an e, glued to the number
        ("NE2552439", "NE2552439"),  # in capitals, a prefix of the number's own
    ],
)
def test_an_invoice_number_keeps_its_own_year_and_sheds_a_date_glued_after_it(text: str, number: str) -> None:
    parsed = code_parser(text)
    assert parsed is not None and parsed.value == number


@pytest.mark.parametrize(
    ("read", "printed"),
    [
        ("StraBe 12", "Straße 12"),
        ("WeiB Sanitar AG", "Weiß Sanitar AG"),  # a capital B ending a lower-case word
        ("WeiBSanitar AG", "Weiß Sanitar AG"),  # and the space after it lost
        ("Jager & GroB KG", "Jager & Groß KG"),
        ("ABB AG", "ABB AG"),
        ("GmbH", "GmbH"),
        ("Jacob", "Jacob"),
    ],
)
def test_an_eszett_ocr_read_as_capital_b_is_put_back(read: str, printed: str) -> None:
    assert repair_ocr_text(read) == printed
