"""Rasterising a composed page with PIL, ready for ``synth.degrade``.

The page is drawn at ``px_per_mm`` (150-240 dpi for letters, finer for receipts) on its paper
colour. Thermal receipts get their ink faded unevenly across the slip, as real ones do.
"""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageDraw

from synth import fonts
from synth.business.layout import PT_TO_MM, Ellipse, Line, Page, Polygon, Rect, Text
from synth.degrade import smooth_noise
from synth.render import RenderedDocument

_ANCHORS = {"l": "ls", "r": "rs", "c": "ms"}


def rasterize(page: Page, px_per_mm: float, rng: np.random.Generator, layout: str) -> RenderedDocument:
    """The page's pixels at ``px_per_mm`` (RGB), with a full mask: the page is the document."""
    width, height = round(page.width * px_per_mm), round(page.height * px_per_mm)
    image = Image.new("RGB", (width, height), page.paper)
    draw = ImageDraw.Draw(image)
    s = px_per_mm

    def px(value: float) -> float:
        return value * s

    def stroke(mm: float) -> int:
        return max(1, round(mm * s))

    for item in page.items:
        if isinstance(item, Text):
            size = max(6, round(item.size * PT_TO_MM * s))
            draw.text(
                (px(item.x), px(item.y)),
                item.text,
                font=fonts.load(item.path, size),
                fill=item.color,
                anchor=_ANCHORS[item.align],
            )
        elif isinstance(item, Rect):
            box = (px(item.x0), px(item.y0), px(item.x1) - 1, px(item.y1) - 1)
            if box[2] < box[0] or box[3] < box[1]:
                continue
            draw.rectangle(
                box, fill=item.fill, outline=item.stroke, width=stroke(item.width) if item.stroke else 0
            )
        elif isinstance(item, Line):
            draw.line(
                (px(item.x0), px(item.y0), px(item.x1), px(item.y1)),
                fill=item.color,
                width=stroke(item.width),
            )
        elif isinstance(item, Ellipse):
            draw.ellipse(
                (px(item.x0), px(item.y0), px(item.x1), px(item.y1)),
                fill=item.fill,
                outline=item.stroke,
                width=stroke(item.width) if item.stroke else 0,
            )
        elif isinstance(item, Polygon):
            draw.polygon([(px(x), px(y)) for x, y in item.points], fill=item.fill)
    pixels = np.asarray(image).copy()
    if page.thermal:
        pixels = _thermal_fade(pixels, rng, page.paper)
    return RenderedDocument(pixels, np.full(pixels.shape[:2], 255, np.uint8), px_per_mm, layout)


def _thermal_fade(pixels: np.ndarray, rng: np.random.Generator, paper: tuple[int, int, int]) -> np.ndarray:
    """Ink that fades unevenly (print head wear, heat, age): ink darkness times a smooth field."""
    h, w = pixels.shape[:2]
    strength = rng.uniform(0.1, 0.45)
    fade = 1 - strength * (0.5 + 0.5 * np.clip(smooth_noise(rng, w, h, max(8, w // 3)), -1, 1))
    if rng.random() < 0.5:  # a vertical streak where a print-head dot is weak
        x = int(rng.integers(0, w))
        band = max(2, int(w * rng.uniform(0.01, 0.04)))
        fade[:, x : x + band] *= rng.uniform(0.4, 0.8)
    paper_arr = np.array(paper, np.float32)
    ink = paper_arr - pixels.astype(np.float32)
    return np.clip(paper_arr - ink * fade[..., None], 0, 255).astype(np.uint8)
