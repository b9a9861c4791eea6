"""Word spaces the recogniser drops are restored from the line image (engines/ocr_spaces.py)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from engines.ocr import get_ocr

FONTS = Path("/usr/share/fonts/truetype")
SANS = FONTS / "dejavu/DejaVuSans.ttf"
SERIF = FONTS / "liberation/LiberationSerif-Regular.ttf"
pytestmark = pytest.mark.skipif(not (SANS.exists() and SERIF.exists()), reason="fonts not installed")


def _read(text: str, font: Path, size: int) -> str:
    image = Image.new("RGB", (900, 60), "white")
    ImageDraw.Draw(image).text((10, 10), text, fill="black", font=ImageFont.truetype(str(font), size))
    lines = get_ocr().read_page(cv2.cvtColor(np.asarray(image), cv2.COLOR_RGB2BGR))
    return " ".join(line.text for line in lines)


@pytest.mark.parametrize(
    ("text", "font", "size"),
    [
        ("KLAUS WEBER", SANS, 22),  # read "KLAUSWEBER" by the bare model
        ("MONSIEUR NICOLAS BERNARD", SERIF, 22),  # read as one word by the bare model
    ],
)
def test_dropped_spaces_between_words_are_restored(text: str, font: Path, size: int) -> None:
    assert _read(text, font, size) == text


@pytest.mark.parametrize("text", ["Manchester M19 2LL", "Total due 1,234.50", "Jonas Weber"])
def test_codes_numbers_and_spaced_text_are_left_alone(text: str) -> None:
    assert _read(text, SANS, 30) == text
