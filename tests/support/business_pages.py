"""Pages for the business-document readers' tests (tests/unit/engines/business): page text built by
hand from rows of cells, as OCR or a PDF text layer would give it, and the same rows rendered with
PIL and read back through the real OCR."""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path

import pytest
from PIL import Image, ImageDraw, ImageFont

from engines.layout import Line, PageText, page_from_ocr, sort_reading_order
from engines.types import Extracted

Cell = tuple[float, str]
Row = tuple[float, Sequence[Cell]]
FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
BOLD = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")


def page(rows: Sequence[Row], *, source: str = "text_layer", number: int = 1) -> PageText:
    """A page from rows of (y, [(x, text), ...]) in page fractions, about 0.012 wide a character."""
    lines = [
        Line(text, 0.98, (x, y, min(1.0, x + 0.012 * len(text)), y + 0.015), number)
        for y, cells in rows
        for x, text in cells
    ]
    return PageText(number, tuple(sort_reading_order(lines)), source)


def values(result: Extracted) -> dict[str, str | None]:
    """Each field's value by name: what a test compares, leaving confidences to the tests about them."""
    return {name: field.value for name, field in result.fields.items()}


def render(rows: Sequence[Row], *, size: int = 20, width: int = 1000, height: int = 1300) -> PageText:
    """The rows drawn in DejaVu Sans (a cell starting "**" in bold) and read back by the real OCR."""
    from engines.images import decode_image
    from engines.ocr import get_ocr

    image = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(image)
    for y, cells in rows:
        for x, text in cells:
            bold = text.startswith("**")
            font = ImageFont.truetype(str(BOLD if bold else FONT), size)
            draw.text((x * width, y * height), text.strip("*"), font=font, fill=(15, 15, 15))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    bgr = decode_image(buffer.getvalue())
    ocr_lines = get_ocr().read_page(bgr)
    return page_from_ocr(
        [(line.text, line.score, line.quad) for line in ocr_lines], width=width, height=height, page=1
    )


needs_font = pytest.mark.skipif(
    not FONT.is_file(), reason="DejaVu Sans is not installed to render test pages"
)
