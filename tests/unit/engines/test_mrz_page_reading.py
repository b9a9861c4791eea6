"""The MRZ's unguarded codes against whole-page OCR's own reading of the MRZ lines."""

from __future__ import annotations

import pytest

from engines.layout import Line, PageText
from engines.mrz.formats import FORMATS
from engines.mrz.page_reading import codes_read_otherwise

TD1 = next(f for f in FORMATS if f.name == "TD1")
# as the MRZ reader read a clean Indian card of seed 74: HND (Honduras) for IND
READ = ("IDHNDY68901X2<5<<<<<<<<<<<<<<<", "0012175M3110315PHL<<<<<<<<<<<0", "CELIK<MURPHY<<ALEJANDRO<<<<<<<")


def _page(*texts: str) -> PageText:
    lines = tuple(Line(t, 0.9, (0.1, i / 10, 0.9, i / 10 + 0.05), 1) for i, t in enumerate(texts))
    return PageText(1, lines, "ocr")


@pytest.mark.parametrize(
    ("page_lines", "disputed"),
    [
        # page OCR reads the first line with another known state, with its own stray spaces
        (("REPUBLIC OF INDIA", "IDINDY689 0 1X2<5<<<<<<<<<<<<<<<"), {"issuing_country"}),
        # a piece of the second line the detector cut, with the other sex
        (("0012175F3110315PHL<<<<",), {"sex"}),
        # the nationality read as another state, filler glyphs as a recogniser prints them
        (("0012175M3110315PHI«««««««««0",), set()),  # PHI is no state: no evidence
        (("0012175M3110315PRK<<<<<<<<<<<0",), {"nationality"}),
        # the same codes, or text that is no reading of the MRZ at all
        (("IDHNDY68901X2<5<<<<<<<<<<<<<<<", "0012175M3110315PHL<<<<<<<<<<<0"), set()),
        (("NATIONAL IDENTITY CARD", "Nationality PHL", "Sex M", "IND"), set()),
    ],
)
def test_a_code_page_ocr_reads_as_another_valid_one_is_disputed(
    page_lines: tuple[str, ...], disputed: set[str]
) -> None:
    """GIVEN the MRZ reader's reading of a card, and what whole-page OCR read on the same page
    THEN a country code or sex that page OCR, aligned character for character with the MRZ line,
    reads as another valid value is disputed; a reading that is no valid value, an agreeing
    one, and words outside the MRZ are not."""
    assert codes_read_otherwise(READ, TD1, _page(*page_lines)) == disputed
