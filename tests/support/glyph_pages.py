"""Pages for the one-glyph signal's tests (media.field_glyphs): a date and a name drawn glyph by glyph
with PIL, one glyph optionally drawn larger, bolder or lifted off the line, as a forger's pasted
digit is. Used by tests/unit/media/test_field_glyphs.py and the pipeline's batch tests."""

from __future__ import annotations

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

SIZE = 40
WIDTH, HEIGHT = 640, 240
DATE_BOX = (40 / WIDTH, 40 / HEIGHT, 330 / WIDTH, 110 / HEIGHT)
NAME_BOX = (40 / WIDTH, 140 / HEIGHT, 420 / WIDTH, 210 / HEIGHT)


def _font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def draw_line(
    draw: ImageDraw.ImageDraw,
    text: str,
    x: float,
    baseline: float,
    odd: int = -1,
    scale: float = 1.0,
    bold: int = 0,
    lift: float = 0.0,
) -> None:
    """``text`` glyph by glyph on ``baseline``; glyph ``odd`` drawn ``scale`` times larger,
    ``bold`` pixels of stroke heavier and ``lift`` pixels above the line."""
    for index, char in enumerate(text):
        is_odd = index == odd
        font = _font(round(SIZE * scale) if is_odd else SIZE)
        y = baseline - (lift if is_odd else 0.0)
        width = bold if is_odd else 0
        draw.text((x, y), char, font=font, fill=(30, 30, 40), anchor="ls", stroke_width=width)
        x += _font(SIZE).getlength(char) + 2


def glyph_page(date_odd: dict[str, float] | None = None, name_odd: bool = False) -> np.ndarray:
    """A camera-soft page of a date in ``DATE_BOX`` and a name in ``NAME_BOX``; ``date_odd`` draws the
    date's "3" with ``draw_line``'s odd-glyph arguments, ``name_odd`` one letter of the name larger."""
    image = Image.new("RGB", (WIDTH, HEIGHT), (236, 232, 222))
    draw = ImageDraw.Draw(image)
    odd = {"odd": 6, **(date_odd or {})} if date_odd else {}  # the "3"
    draw_line(draw, "1985-03-29", 50, 95, **odd)  # type: ignore[arg-type]
    draw_line(draw, "Katarzyna Smith", 50, 195, **({"odd": 3, "scale": 1.25} if name_odd else {}))  # type: ignore[arg-type]
    bgr = cv2.cvtColor(np.asarray(image), cv2.COLOR_RGB2BGR)
    bgr = cv2.GaussianBlur(bgr, (0, 0), 0.7)  # a camera's softness: anti-aliased edges
    ok, data = cv2.imencode(".jpg", bgr, [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    return cv2.imdecode(data, cv2.IMREAD_COLOR)


def jpeg_bytes(bgr: np.ndarray) -> bytes:
    """The page as the JPEG a stored page image is (quality 95)."""
    ok, data = cv2.imencode(".jpg", bgr, [cv2.IMWRITE_JPEG_QUALITY, 95])
    assert ok
    return data.tobytes()
