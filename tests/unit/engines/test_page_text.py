"""Full-page OCR of pages turned by 0, 90, 180 and 270 degrees (engines/page_text.py)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from engines.images import rotate, unrotate_bbox
from engines.page_text import ocr_page_text

FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
pytestmark = pytest.mark.skipif(not FONT.exists(), reason="DejaVu fonts are not installed")

LINES = ["ACME ENERGY LTD", "Electricity bill", "Invoice date: 12 March 2026", "Amount due: 84.20 EUR"]


def _page() -> np.ndarray:
    image = Image.new("RGB", (900, 700), "white")
    draw = ImageDraw.Draw(image)
    font = ImageFont.truetype(str(FONT), 34)
    for i, text in enumerate(LINES):
        draw.text((60, 80 + i * 120), text, fill="black", font=font)
    return cv2.cvtColor(np.asarray(image), cv2.COLOR_RGB2BGR)


@pytest.mark.parametrize("turned_by", [0, 90, 180, 270])
def test_turned_page_is_read_upright_in_reading_order(turned_by: int) -> None:
    upright = _page()
    page = rotate(upright, turned_by)
    text, frame = ocr_page_text(page, page=1)
    assert (frame.turn + turned_by) % 360 == 0 and frame.skew == 0
    read = [line.text for line in text.lines]
    assert read[0].replace(" ", "") == "ACMEENERGYLTD"
    assert "Amount due" in read[-1]
    # the first line's box, mapped back, lies near the top left of the upright page's content
    x0, y0, _, _ = text.lines[0].bbox
    assert y0 < 0.25 and x0 < 0.2
    back = frame.to_stored(text.lines[0].bbox)
    assert back == unrotate_bbox(text.lines[0].bbox, frame.turn)
    assert 0 <= back[0] < back[2] <= 1 and 0 <= back[1] < back[3] <= 1


def test_askew_photo_is_read_in_rows_and_boxes_land_back_on_the_stored_page() -> None:
    # a bill with amounts far right of their labels, photographed 7 degrees askew
    image = Image.new("RGB", (1200, 900), "white")
    draw = ImageDraw.Draw(image)
    font = ImageFont.truetype(str(FONT), 30)
    rows = [("Subtotal", "29.94"), ("Tax", "3.89"), ("Total", "33.83"), ("Cash", "40.00")]
    for i, (label, amount) in enumerate(rows):
        draw.text((80, 200 + i * 70), label, fill="black", font=font)
        draw.text((950, 200 + i * 70), amount, fill="black", font=font)
    page = cv2.cvtColor(np.asarray(image.rotate(7, expand=False, fillcolor="white")), cv2.COLOR_RGB2BGR)
    text, frame = ocr_page_text(page, page=1)
    assert 5 < abs(frame.skew) < 9
    from engines.layout import rows as page_rows

    read = [[line.text for line in row] for row in page_rows(text)]
    assert ["Total", "33.83"] in read and ["Tax", "3.89"] in read
    total = next(line for line in text.lines if line.text == "33.83")
    x0, y0, x1, _ = frame.to_stored(total.bbox)
    # on the stored (tilted) page the amount sits higher than straight: PIL turned it anticlockwise
    assert 0.7 < x0 < x1 < 1.0 and y0 < total.bbox[1]
