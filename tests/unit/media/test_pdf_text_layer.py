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
