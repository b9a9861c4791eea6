"""A small page model in millimetres that both the raster and the PDF writer draw.

Each document type composes its pages once, as text runs, lines, rectangles and simple shapes
at millimetre positions, and the same composition is then either rasterised (PIL, then the
scan/photo degradations) or written as a digital PDF with a real text layer (fpdf2). Writing
layouts once keeps the two outputs identical in content, so a PDF's text layer and an image's
pixels carry exactly the same truth.

Text sizes are in points, positions in millimetres from the top-left corner, and a text's ``y``
is its baseline. Widths are measured with the same font files both writers embed.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from fontTools.ttLib import TTFont

from synth import fonts
from synth.business.common import chance, pick, pick_weighted
from synth.patterns import Color, hsv

PT_TO_MM = 25.4 / 72

_ROOT = Path("/usr/share/fonts")


@dataclass(frozen=True)
class Face:
    """A typeface: regular and bold files (the same file where no bold exists)."""

    name: str
    regular: str
    bold: str

    def path(self, bold: bool) -> str:
        return self.bold if bold else self.regular


# Monospaced faces for thermal receipts, by Debian package, in a fixed order.
_MONO_CANDIDATES: tuple[tuple[str, str, str], ...] = (
    ("DejaVu Sans Mono", "truetype/dejavu/DejaVuSansMono.ttf", "truetype/dejavu/DejaVuSansMono-Bold.ttf"),
    (
        "Liberation Mono",
        "truetype/liberation/LiberationMono-Regular.ttf",
        "truetype/liberation/LiberationMono-Bold.ttf",
    ),
    ("FreeMono", "truetype/freefont/FreeMono.ttf", "truetype/freefont/FreeMonoBold.ttf"),
    (
        "Nimbus Mono PS",
        "opentype/urw-base35/NimbusMonoPS-Regular.otf",
        "opentype/urw-base35/NimbusMonoPS-Bold.otf",
    ),
    ("OCR-B", "opentype/ocr-b/OCRB.otf", "opentype/ocr-b/OCRB.otf"),
)
_EXTRA_CANDIDATES: tuple[tuple[str, str, str], ...] = (
    ("URW Bookman", "opentype/urw-base35/URWBookman-Light.otf", "opentype/urw-base35/URWBookman-Demi.otf"),
)
_FALLBACK = "truetype/dejavu/DejaVuSans.ttf"
_FALLBACK_BOLD = "truetype/dejavu/DejaVuSans-Bold.ttf"


def _exists(path: str) -> bool:
    return (_ROOT / path).is_file()


@functools.cache
def text_faces() -> tuple[Face, ...]:
    """Proportional faces for letters and forms: the identity generator's list, less OCR-B."""
    faces = [Face(f.name, f.regular, f.bold) for f in fonts.viz_faces() if f.name != "OCR-B"]
    faces += [
        Face(n, str(_ROOT / r), str(_ROOT / b)) for n, r, b in _EXTRA_CANDIDATES if _exists(r) and _exists(b)
    ]
    return tuple(faces)


@functools.cache
def mono_faces() -> tuple[Face, ...]:
    """Monospaced faces installed here (thermal printers print in fixed pitch)."""
    faces = tuple(
        Face(n, str(_ROOT / r), str(_ROOT / (b if _exists(b) else r)))
        for n, r, b in _MONO_CANDIDATES
        if _exists(r)
    )
    return faces or text_faces()[:1]


@functools.cache
def _cmap(path: str) -> frozenset[int]:
    try:
        with TTFont(path, lazy=True) as font:
            return frozenset(font.getBestCmap())
    except Exception:  # a font fontTools cannot read: treat it as covering nothing
        return frozenset()


@functools.cache
def resolve_font(path: str, text: str, bold: bool) -> str:
    """``path`` if it has every glyph of ``text``, else a DejaVu face that has (no tofu boxes)."""
    cmap = _cmap(path)
    if all(ord(c) in cmap for c in text if not c.isspace()):
        return path
    fallback = str(_ROOT / (_FALLBACK_BOLD if bold else _FALLBACK))
    return fallback if _exists(fallback.removeprefix(str(_ROOT) + "/")) else path


def text_width(path: str, size_pt: float, text: str) -> float:
    """Width of ``text`` in millimetres at ``size_pt`` points, from the font's own advances."""
    font = fonts.load(path, 200)
    return float(font.getlength(text)) / 200 * size_pt * PT_TO_MM


# --------------------------------------------------------------------------------------------
# The page model


@dataclass(frozen=True)
class Text:
    x: float
    y: float  # baseline
    text: str
    path: str  # font file (glyph coverage already resolved)
    size: float  # points
    color: Color
    align: str = "l"  # "l", "r" or "c" around x


@dataclass(frozen=True)
class Rect:
    x0: float
    y0: float
    x1: float
    y1: float
    fill: Color | None = None
    stroke: Color | None = None
    width: float = 0.2  # stroke, mm


@dataclass(frozen=True)
class Line:
    x0: float
    y0: float
    x1: float
    y1: float
    color: Color
    width: float = 0.2


@dataclass(frozen=True)
class Ellipse:
    x0: float
    y0: float
    x1: float
    y1: float
    fill: Color | None = None
    stroke: Color | None = None
    width: float = 0.3


@dataclass(frozen=True)
class Polygon:
    points: tuple[tuple[float, float], ...]
    fill: Color


Item = Text | Rect | Line | Ellipse | Polygon


@dataclass
class Page:
    """One page: its size in millimetres, its paper, and what is drawn on it, in order."""

    width: float
    height: float
    items: list[Item] = field(default_factory=list)
    paper: Color = (255, 255, 255)
    thermal: bool = False  # faded thermal print: the raster writer fades the ink unevenly


# --------------------------------------------------------------------------------------------
# Style


@dataclass(frozen=True)
class Style:
    """The design of one document, drawn once: faces, colours, sizes and caption habits."""

    body: Face
    heading: Face
    accent: Color
    ink: Color
    muted: Color
    shade: Color  # light fill for table headers and boxes
    size: float  # body text, points
    margin: float  # mm
    upper_labels: bool
    colon: bool
    bold_labels: bool


def sample_style(rng: np.random.Generator, mono: bool = False) -> Style:
    faces = mono_faces() if mono else text_faces()
    body = pick(rng, faces)
    heading = body if mono or chance(rng, 0.5) else pick(rng, text_faces())
    hue = float(rng.random())
    accent = pick_weighted(
        rng,
        (
            (hsv(hue, rng.uniform(0.5, 0.9), rng.uniform(0.3, 0.6)), 0.6),
            (hsv(0, 0, rng.uniform(0.05, 0.25)), 0.3),
            (hsv(hue, rng.uniform(0.6, 1.0), rng.uniform(0.6, 0.85)), 0.1),
        ),
    )
    ink = hsv(0, 0, rng.uniform(0.0, 0.15)) if chance(rng, 0.85) else hsv(0.62, 0.6, rng.uniform(0.15, 0.3))
    return Style(
        body=body,
        heading=heading,
        accent=accent,
        ink=ink,
        muted=hsv(0, 0, rng.uniform(0.3, 0.5)),
        shade=hsv(hue, rng.uniform(0.04, 0.15), rng.uniform(0.9, 0.97)),
        size=float(rng.uniform(8.5, 10.5)),
        margin=float(rng.uniform(14, 24)),
        upper_labels=chance(rng, 0.25),
        colon=chance(rng, 0.5),
        bold_labels=chance(rng, 0.4),
    )


# --------------------------------------------------------------------------------------------
# Drawing on a page


class Pen:
    """Adds items to a page in the document's style; returns widths and next baselines."""

    def __init__(self, page: Page, style: Style) -> None:
        self.page = page
        self.style = style

    @property
    def width(self) -> float:
        return self.page.width

    @property
    def height(self) -> float:
        return self.page.height

    def font(self, text: str, bold: bool = False, face: Face | None = None) -> str:
        return resolve_font((face or self.style.body).path(bold), text, bold)

    def measure(
        self, text: str, size: float | None = None, bold: bool = False, face: Face | None = None
    ) -> float:
        return text_width(self.font(text, bold, face), size or self.style.size, text)

    def text(
        self,
        x: float,
        y: float,
        text: str,
        size: float | None = None,
        bold: bool = False,
        color: Color | None = None,
        align: str = "l",
        face: Face | None = None,
        max_width: float | None = None,
    ) -> float:
        """Draw one run (shrunk to ``max_width`` if given); returns its width in mm."""
        if not text:
            return 0.0
        size = size or self.style.size
        path = self.font(text, bold, face)
        width = text_width(path, size, text)
        if max_width and width > max_width > 0:
            size *= max_width / width
            width = max_width
        self.page.items.append(Text(x, y, text, path, size, color or self.style.ink, align))
        return width

    def lines(
        self,
        x: float,
        y: float,
        lines: Sequence[str],
        size: float | None = None,
        leading: float = 1.3,
        bold_first: bool = False,
        color: Color | None = None,
        align: str = "l",
        face: Face | None = None,
    ) -> float:
        """Several runs one under the other; returns the baseline after the last."""
        size = size or self.style.size
        step = size * PT_TO_MM * leading
        for i, line in enumerate(lines):
            self.text(x, y, line, size, bold=bold_first and i == 0, color=color, align=align, face=face)
            y += step
        return y

    def wrap(
        self,
        x: float,
        y: float,
        text: str,
        width: float,
        size: float | None = None,
        leading: float = 1.35,
        color: Color | None = None,
        bold: bool = False,
    ) -> float:
        """A paragraph broken into lines no wider than ``width``; returns the next baseline."""
        size = size or self.style.size
        words, line = text.split(), ""
        out: list[str] = []
        for word in words:
            candidate = f"{line} {word}".strip()
            if line and self.measure(candidate, size, bold) > width:
                out.append(line)
                line = word
            else:
                line = candidate
        if line:
            out.append(line)
        step = size * PT_TO_MM * leading
        for row in out:
            self.text(x, y, row, size, bold=bold, color=color)
            y += step
        return y

    def rule(self, x0: float, x1: float, y: float, color: Color | None = None, width: float = 0.25) -> None:
        self.page.items.append(Line(x0, y, x1, y, color or self.style.muted, width))

    def vline(self, x: float, y0: float, y1: float, color: Color | None = None, width: float = 0.25) -> None:
        self.page.items.append(Line(x, y0, x, y1, color or self.style.muted, width))

    def rect(
        self,
        x0: float,
        y0: float,
        x1: float,
        y1: float,
        fill: Color | None = None,
        stroke: Color | None = None,
        width: float = 0.25,
    ) -> None:
        self.page.items.append(Rect(x0, y0, x1, y1, fill, stroke, width))

    def ellipse(
        self,
        x0: float,
        y0: float,
        x1: float,
        y1: float,
        fill: Color | None = None,
        stroke: Color | None = None,
    ) -> None:
        self.page.items.append(Ellipse(x0, y0, x1, y1, fill, stroke))

    def polygon(self, points: Sequence[tuple[float, float]], fill: Color) -> None:
        self.page.items.append(Polygon(tuple(points), fill))

    def step(self, size: float | None = None, leading: float = 1.3) -> float:
        """The distance between baselines at ``size``."""
        return (size or self.style.size) * PT_TO_MM * leading


def logo(
    pen: Pen, rng: np.random.Generator, x: float, y: float, size: float, name: str, color: Color
) -> float:
    """A simple mark at (x, y) top-left, ``size`` mm tall: a disc, a square, a triangle or bars
    with the organisation's initial. Returns its width."""
    kind = int(rng.integers(5))
    initial = next((c for c in name if c.isalpha()), "X").upper()
    light = (255, 255, 255)
    if kind == 0:
        pen.ellipse(x, y, x + size, y + size, fill=color)
        pen.text(
            x + size / 2,
            y + size * 0.7,
            initial,
            size=size * 1.6,
            bold=True,
            color=light,
            align="c",
            face=pen.style.heading,
        )
        return size
    if kind == 1:
        pen.rect(x, y, x + size, y + size, fill=color)
        pen.text(
            x + size / 2,
            y + size * 0.72,
            initial,
            size=size * 1.7,
            bold=True,
            color=light,
            align="c",
            face=pen.style.heading,
        )
        return size
    if kind == 2:
        pen.polygon(((x, y + size), (x + size / 2, y), (x + size, y + size)), fill=color)
        pen.polygon(
            ((x + size * 0.3, y + size), (x + size * 0.65, y + size * 0.35), (x + size * 1.0, y + size)),
            fill=hsv(0, 0, 0.85),
        )
        return size
    if kind == 3:
        for i in range(4):
            h = size * (0.4 + 0.2 * i)
            pen.rect(
                x + i * size * 0.28, y + size - h, x + i * size * 0.28 + size * 0.2, y + size, fill=color
            )
        return size * 1.05
    pen.ellipse(x, y, x + size, y + size, stroke=color, fill=None)
    pen.ellipse(x + size * 0.25, y + size * 0.25, x + size * 0.75, y + size * 0.75, fill=color)
    return size


def barcode(pen: Pen, rng: np.random.Generator, x: float, y: float, width: float, height: float) -> None:
    """Bars that look like a receipt's Code 128 (not meant to decode)."""
    cursor = x
    while cursor < x + width:
        bar = float(rng.choice((0.25, 0.5, 0.75)))
        gap = float(rng.choice((0.25, 0.5, 0.75)))
        pen.rect(cursor, y, min(cursor + bar, x + width), y + height, fill=(20, 20, 20))
        cursor += bar + gap
