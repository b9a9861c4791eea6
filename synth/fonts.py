"""Finding fonts on the machine, with a fallback at every step.

Varied fonts in the visual zone keep a reader from learning one typeface; the MRZ is printed in
OCR-B as ICAO requires whenever ``fonts-ocr-b`` is installed, else in a monospaced font.
Candidates are listed in a fixed order and filtered by existence, so a given seed draws the same
fonts on every machine that has the same packages (see FONTS.md).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from PIL import ImageFont

FontType = ImageFont.FreeTypeFont | ImageFont.ImageFont

_ROOT = Path("/usr/share/fonts")


@dataclass(frozen=True)
class FontFace:
    """A typeface in the visual zone: a regular and a bold file (the same file when no bold exists)."""

    name: str
    regular: str
    bold: str


# (name, regular, bold) relative to /usr/share/fonts, by Debian package.
_VIZ_CANDIDATES: tuple[tuple[str, str, str], ...] = (
    # fonts-dejavu-core (present on the base image)
    ("DejaVu Sans", "truetype/dejavu/DejaVuSans.ttf", "truetype/dejavu/DejaVuSans-Bold.ttf"),
    (
        "DejaVu Sans Condensed",
        "truetype/dejavu/DejaVuSansCondensed.ttf",
        "truetype/dejavu/DejaVuSansCondensed-Bold.ttf",
    ),
    ("DejaVu Serif", "truetype/dejavu/DejaVuSerif.ttf", "truetype/dejavu/DejaVuSerif-Bold.ttf"),
    (
        "DejaVu Serif Condensed",
        "truetype/dejavu/DejaVuSerifCondensed.ttf",
        "truetype/dejavu/DejaVuSerifCondensed-Bold.ttf",
    ),
    # fonts-liberation
    (
        "Liberation Sans",
        "truetype/liberation/LiberationSans-Regular.ttf",
        "truetype/liberation/LiberationSans-Bold.ttf",
    ),
    (
        "Liberation Sans Narrow",
        "truetype/liberation/LiberationSansNarrow-Regular.ttf",
        "truetype/liberation/LiberationSansNarrow-Bold.ttf",
    ),
    (
        "Liberation Serif",
        "truetype/liberation/LiberationSerif-Regular.ttf",
        "truetype/liberation/LiberationSerif-Bold.ttf",
    ),
    # fonts-freefont-ttf
    ("FreeSans", "truetype/freefont/FreeSans.ttf", "truetype/freefont/FreeSansBold.ttf"),
    ("FreeSerif", "truetype/freefont/FreeSerif.ttf", "truetype/freefont/FreeSerifBold.ttf"),
    # fonts-urw-base35
    ("Nimbus Sans", "opentype/urw-base35/NimbusSans-Regular.otf", "opentype/urw-base35/NimbusSans-Bold.otf"),
    (
        "Nimbus Sans Narrow",
        "opentype/urw-base35/NimbusSansNarrow-Regular.otf",
        "opentype/urw-base35/NimbusSansNarrow-Bold.otf",
    ),
    (
        "Nimbus Roman",
        "opentype/urw-base35/NimbusRoman-Regular.otf",
        "opentype/urw-base35/NimbusRoman-Bold.otf",
    ),
    ("URW Gothic", "opentype/urw-base35/URWGothic-Book.otf", "opentype/urw-base35/URWGothic-Demi.otf"),
    ("C059", "opentype/urw-base35/C059-Roman.otf", "opentype/urw-base35/C059-Bold.otf"),
    ("P052", "opentype/urw-base35/P052-Roman.otf", "opentype/urw-base35/P052-Bold.otf"),
    # fonts-ocr-b: some states print the visual zone in OCR-B too
    ("OCR-B", "opentype/ocr-b/OCRB.otf", "opentype/ocr-b/OCRB.otf"),
)

# MRZ typefaces, best first: OCR-B (fonts-ocr-b), then monospaced fallbacks.
_MRZ_OCRB: tuple[str, ...] = ("opentype/ocr-b/OCRB.otf", "opentype/ocr-b/OCRBS.otf")
_MRZ_MONO: tuple[str, ...] = (
    "truetype/dejavu/DejaVuSansMono.ttf",
    "truetype/liberation/LiberationMono-Regular.ttf",
    "truetype/freefont/FreeMono.ttf",
    "opentype/urw-base35/NimbusMonoPS-Regular.otf",
)

_DEFAULT = "<pillow-default>"


def _existing(path: str) -> bool:
    return (_ROOT / path).is_file()


@functools.cache
def viz_faces() -> tuple[FontFace, ...]:
    """Visual-zone typefaces installed here; Pillow's built-in font when there are none."""
    faces = tuple(
        FontFace(name, str(_ROOT / regular), str(_ROOT / bold if _existing(bold) else _ROOT / regular))
        for name, regular, bold in _VIZ_CANDIDATES
        if _existing(regular)
    )
    return faces or (FontFace("Pillow default", _DEFAULT, _DEFAULT),)


@functools.cache
def mrz_fonts() -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(OCR-B files, monospaced fallback files) installed here; either may be empty."""
    ocrb = tuple(str(_ROOT / p) for p in _MRZ_OCRB if _existing(p))
    mono = tuple(str(_ROOT / p) for p in _MRZ_MONO if _existing(p))
    return ocrb, mono


def mrz_font_choices() -> tuple[str, ...]:
    """Every MRZ font file available, OCR-B first; Pillow's built-in font when none is."""
    ocrb, mono = mrz_fonts()
    return ocrb + mono or (_DEFAULT,)


@functools.cache
def load(path: str, size: int) -> FontType:
    """A font at ``size`` pixels, cached: the renderer asks for the same few sizes over and over."""
    size = max(6, int(size))
    if path == _DEFAULT:
        return ImageFont.load_default(size)
    return ImageFont.truetype(path, size)
