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
    text, degrees = ocr_page_text(page, page=1)
    assert (degrees + turned_by) % 360 == 0
    read = [line.text for line in text.lines]
    assert read[0].replace(" ", "") == "ACMEENERGYLTD"
    assert "Amount due" in read[-1]
    # the first line's box, mapped back, lies near the top left of the upright page's content
    x0, y0, x1, y1 = text.lines[0].bbox
    assert y0 < 0.25 and x0 < 0.2
    back = unrotate_bbox(text.lines[0].bbox, degrees)
    assert 0 <= back[0] < back[2] <= 1 and 0 <= back[1] < back[3] <= 1
