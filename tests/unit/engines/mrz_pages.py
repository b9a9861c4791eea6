"""Test pages with an MRZ drawn on them, made on the spot (no binary fixtures in the repository)."""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

# OCR-B is what ICAO 9303 prescribes; DejaVu Sans Mono is on every base image we build.
MRZ_FONTS = (
    Path("/usr/share/fonts/opentype/ocr-b/OCRB.otf"),
    Path("/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"),
)
TEXT_FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")


def mrz_font() -> Path | None:
    return next((p for p in MRZ_FONTS if p.is_file()), None)


def render_page(lines: Sequence[str], *, size: int = 28, image_format: str = "PNG") -> bytes:
    """A plain page with a little printed text and the MRZ lines at the bottom."""
    font_path = mrz_font()
    assert font_path is not None, "no monospaced font installed"
    font = ImageFont.truetype(str(font_path), size)
    text_font = ImageFont.truetype(str(TEXT_FONT if TEXT_FONT.is_file() else font_path), 22)
    pitch = font.getbbox("<")[2]
    line_height = int(size * 1.6)
    page = Image.new("RGB", (pitch * len(lines[0]) + 120, 220 + line_height * len(lines)), (246, 243, 235))
    draw = ImageDraw.Draw(page)
    draw.text((60, 30), "PASSPORT / PASSEPORT", font=text_font, fill=(40, 40, 90))
    draw.text((60, 70), "Utopia", font=text_font, fill=(40, 40, 90))
    for i, line in enumerate(lines):
        draw.text((60, 160 + i * line_height), line, font=font, fill=(10, 10, 10))
    out = io.BytesIO()
    page.save(out, format=image_format)
    return out.getvalue()


def blank_page(text: str = "INVOICE 2024-117   TOTAL 12.50 EUR") -> bytes:
    """A page with ordinary printed text and no MRZ."""
    page = Image.new("RGB", (900, 600), (255, 255, 255))
    draw = ImageDraw.Draw(page)
    font = ImageFont.truetype(str(TEXT_FONT), 28) if TEXT_FONT.is_file() else ImageFont.load_default()
    for i in range(4):
        draw.text((50, 60 + 90 * i), text, font=font, fill=(0, 0, 0))
    out = io.BytesIO()
    page.save(out, format="PNG")
    return out.getvalue()
