"""Cutting a region out of a stored page image, for the review screen's field close-ups.

Boxes are page fractions ``[x0, y0, x1, y1]`` (ARCHITECTURE §3.1), so one box fits the page
whatever size it was rendered at. The crop is padded a little: a value cut off at its exact box
edges is hard to read and hides the label beside it that tells an operator what it is.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence

from PIL import Image


def page_image_type(image: bytes) -> tuple[str, str]:
    """(MIME type, file extension) of a stored page image, from its bytes: pages are JPEG, and
    PNG where they were prepared before pages became JPEG."""
    if image.startswith(b"\x89PNG"):
        return "image/png", "png"
    return "image/jpeg", "jpg"


class InvalidBoxError(ValueError):
    """Not four finite numbers describing a non-empty region of the page."""


def box_parse(raw: str) -> tuple[float, float, float, float]:
    """``"x0,y0,x1,y1"`` as a box, or ``InvalidBoxError``."""
    try:
        values = [float(part) for part in raw.split(",")]
    except ValueError as exc:
        raise InvalidBoxError("box must be four comma-separated numbers") from exc
    return box_check(values)


def box_check(values: Sequence[float]) -> tuple[float, float, float, float]:
    if len(values) != 4 or not all(math.isfinite(v) for v in values):
        raise InvalidBoxError("box must be four finite numbers x0,y0,x1,y1")
    x0, y0, x1, y1 = (min(max(float(v), 0.0), 1.0) for v in values)
    if x1 <= x0 or y1 <= y0:
        raise InvalidBoxError("box must have x0 < x1 and y0 < y1 within the page")
    return x0, y0, x1, y1


def png_crop(png: bytes, box: Sequence[float], *, pad: float = 0.02, max_side: int = 1200) -> bytes:
    """The region ``box`` of the page image ``png``, widened by ``pad`` (a page fraction) on each
    side and shrunk to at most ``max_side`` pixels, as PNG."""
    x0, y0, x1, y1 = box_check(box)
    with Image.open(io.BytesIO(png)) as page:
        page.load()
        width, height = page.size
        left = math.floor(max(x0 - pad, 0.0) * width)
        top = math.floor(max(y0 - pad, 0.0) * height)
        right = max(math.ceil(min(x1 + pad, 1.0) * width), left + 1)
        bottom = max(math.ceil(min(y1 + pad, 1.0) * height), top + 1)
        region = page.crop((left, top, right, bottom))
    region.thumbnail((max_side, max_side))
    buffer = io.BytesIO()
    region.save(buffer, format="PNG")
    return buffer.getvalue()
