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


def test_the_recogniser_reads_only_the_scripts_documents_print() -> None:
    """GIVEN the recogniser's output where a Chinese character (月) or a letterlike sign (℃, as a
    smeared MRZ's C was read: "6℃YP" for CYP) is likeliest in a frame and a Latin one next
    THEN the Latin one is read: no document we read prints the others."""
    recognizer = get_ocr()._engine.text_rec
    vocabulary = recognizer._vocabulary
    frames = []
    for likeliest, next_best in (("月", "1"), ("℃", "C"), ("Y", "Y")):
        frame = np.zeros(len(vocabulary), dtype=np.float32)
        frame[vocabulary.index(likeliest)] = 0.6
        frame[vocabulary.index(next_best)] += 0.3
        frames += [frame, np.eye(len(vocabulary), dtype=np.float32)[0]]  # a blank between characters
    crop = np.full((48, 96, 3), 255, dtype=np.uint8)
    text, _ = recognizer._decode(np.stack(frames), crop, 96, 96, 48)
    assert text == "1CY"
