"""A digital PDF page's text layer (media/pdf_render.py): its runs of text with their boxes."""

from __future__ import annotations

import json

import pypdfium2 as pdfium
import pytest
from fpdf import FPDF

from media.pdf_render import _text_layer


def _page_lines(pdf_bytes: bytes) -> list[str]:
    document = pdfium.PdfDocument(pdf_bytes)
    try:
        page = document[0]
        width, height = page.get_size()
        payload = _text_layer(page, width, height)
        return [line["text"] for line in json.loads(payload)["lines"]]
    finally:
        document.close()


def _pdf(*runs: tuple[float, float, str]) -> bytes:
    pdf = FPDF(unit="mm")
    pdf.add_page(format=(210, 297))
    pdf.set_font("Helvetica", size=10)
    for x, y, text in runs:
        pdf.text(x, y, text)
    return bytes(pdf.output())


def test_runs_apart_are_lines_as_set() -> None:
    lines = _page_lines(_pdf((20, 40, "RECHNUNGS-NR."), (95, 40, "202501-396"), (20, 60, "12379 Berlin")))
    assert lines == ["RECHNUNGS-NR.", "202501-396", "12379 Berlin"]


@pytest.mark.parametrize("number_at", [80, 60])  # overrun by fewer letters than it has, and by more
def test_a_name_overrunning_the_next_column_does_not_interleave_with_it(number_at: float) -> None:
    """GIVEN a customer's name so long that it runs into the invoice number's column, on the
    same baseline
    WHEN the page's text layer is read
    THEN the name and the number are each whole: their letters do not mix ("202Wagner ...",
    "202501-396kt)") as every character inside each run's bounds would."""
    lines = _page_lines(
        _pdf((18, 64, "Wagner & Schneider UG (haftungsbeschraenkt)"), (number_at, 64, "202501-396"))
    )
    assert "Wagner & Schneider UG (haftungsbeschraenkt)" in lines
    assert "202501-396" in lines


def _glyph_by_glyph(*runs: tuple[float, float, str], size_pt: float = 10) -> bytes:
    """A page set the way browsers print one: every glyph placed on its own, a word space
    (a quarter em) between words, no space characters written."""
    pdf = FPDF(unit="pt")
    pdf.add_page(format=(595, 842))
    pdf.set_font("Helvetica", size=size_pt)
    for x, y, text in runs:
        for word_index, word in enumerate(text.split(" ")):
            if word_index:
                x += 0.25 * size_pt
            for char in word:
                pdf.text(x, y, char)
                x += pdf.get_string_width(char)
    return bytes(pdf.output())


def test_a_page_set_glyph_by_glyph_reads_as_runs_of_words() -> None:
    """GIVEN a page whose every glyph is its own text object (Chromium's "Save as PDF", most
    HTML-to-PDF services), with a label and its value apart on one line and a comma hanging
    below the baseline
    WHEN its text layer is read
    THEN each run is one line of words, as it reads on the page, not one line per letter."""
    lines = _page_lines(
        _glyph_by_glyph((50, 100, "Amount due"), (200, 100, "1,234.56"), (50, 130, "Power & Light Co"))
    )
    assert lines == ["Amount due", "1,234.56", "Power & Light Co"]


def test_a_page_set_in_runs_keeps_pdfiums_runs() -> None:
    """The glyph reader applies only to pages set glyph by glyph: a label and value set as runs
    close together stay the two runs the typesetter made."""
    lines = _page_lines(_pdf((20, 40, "Total:"), (33, 40, "12.50")))
    assert lines == ["Total:", "12.50"]


def test_a_page_set_partly_glyph_by_glyph_reads_as_runs_of_words() -> None:
    """GIVEN a browser's page where some text was set in runs (whole-pixel type sizes group) and
    the rest glyph by glyph, so that PDFium's rects average several glyphs each
    THEN the glyph-by-glyph text still reads as words, and the runs as they were set."""
    pdf = FPDF(unit="pt")
    pdf.add_page(format=(595, 842))
    pdf.set_font("Helvetica", size=10)
    pdf.text(300, 820, "Page 1 of 1 printed by the statement service")
    for row in range(8):  # enough text set in runs that the rects average far more than a glyph
        pdf.text(300, 400 + 20 * row, f"Opening balance carried forward, line {row}")
    for y, text in ((100, "Northbridge Bank plc"), (130, "78 Castle Wynd"), (160, "Sheffield")):
        x = 50.0
        for word_index, word in enumerate(text.split(" ")):
            x += 2.5 if word_index else 0.0
            for char in word:
                pdf.text(x, y, char)
                x += pdf.get_string_width(char)
    lines = _page_lines(bytes(pdf.output()))
    assert sorted(lines) == sorted(
        [
            "Northbridge Bank plc",
            "78 Castle Wynd",
            "Sheffield",
            "Page 1 of 1 printed by the statement service",
            *(f"Opening balance carried forward, line {row}" for row in range(8)),
        ]
    )
