"""Scaling page images down to the size the engines read, cheaply and without aliasing.

Pillow's resampling is the slow part of preparing a page (bench/preprocess.py: Lanczos from a
2,016-pixel draft to 1,600 took longer than decoding the 12-megapixel JPEG). OpenCV's SIMD
resizers do the same in a few milliseconds:

* a reduction by 1.5x or more averages pixel areas (``INTER_AREA``: every source pixel counts,
  so fine print does not alias into noise);
* a smaller one is bicubic (``INTER_CUBIC``): below 1.5x each output pixel lies within the
  kernel's reach of every source pixel it covers, and it keeps strokes sharper than area
  averaging.
"""

from __future__ import annotations

import cv2
import numpy as np
from PIL import Image

AREA_FROM_FACTOR = 1.5


def fitted_size(size: tuple[int, int], max_side: int) -> tuple[int, int]:
    """``size`` scaled so that its longest side is at most ``max_side`` (never enlarged)."""
    scale = min(1.0, max_side / max(size))
    return max(1, round(size[0] * scale)), max(1, round(size[1] * scale))


def scale_to(image: Image.Image, size: tuple[int, int]) -> Image.Image:
    """``image`` (RGB or L) resized down to ``size``; returned as is when it already has it."""
    if image.size == size:
        return image
    factor = max(image.width / size[0], image.height / size[1])
    interpolation = cv2.INTER_AREA if factor >= AREA_FROM_FACTOR else cv2.INTER_CUBIC
    pixels = cv2.resize(np.asarray(image), size, interpolation=interpolation)
    return Image.fromarray(pixels)  # (h, w, 3) uint8 is RGB, (h, w) is L


def fit(image: Image.Image, max_side: int) -> Image.Image:
    """``image`` as RGB (or L) with its longest side at most ``max_side``."""
    if image.mode not in ("RGB", "L"):
        image = image.convert("RGB")
    return scale_to(image, fitted_size(image.size, max_side))
