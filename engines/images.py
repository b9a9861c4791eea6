"""Decode uploaded page images safely: EXIF orientation, size limit, clear errors."""

from __future__ import annotations

import io
import warnings

import cv2
import numpy as np
from PIL import Image, ImageOps

from engines.types import EngineError

MAX_PIXELS = 89_000_000  # ARCHITECTURE §4: images of at most 89 M pixels


def decode_image(data: bytes, *, max_pixels: int = MAX_PIXELS) -> np.ndarray:
    """A BGR uint8 array, upright as the camera meant it (EXIF orientation applied).

    Raises EngineError("image_too_large") before decoding pixels when the header announces more
    than ``max_pixels`` (a decompression bomb never gets allocated), and
    EngineError("unreadable_image") for anything that is not a decodable image.
    """
    if not data:
        raise EngineError("unreadable_image", "The page is empty.")
    try:
        with warnings.catch_warnings():
            # we enforce our own limit just below; Pillow's warning would only be noise
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(data)) as probe:
                width, height = probe.size
                orientation = probe.getexif().get(0x0112, 1) if probe.format == "JPEG" else 1
    except (OSError, ValueError, Image.DecompressionBombError) as exc:
        if isinstance(exc, Image.DecompressionBombError):
            raise EngineError("image_too_large", "The image has too many pixels.") from exc
        raise EngineError("unreadable_image", "The page is not a readable PNG or JPEG image.") from exc
    if width * height > max_pixels:
        raise EngineError(
            "image_too_large", f"The image has {width * height} pixels; at most {max_pixels} are allowed."
        )

    image = cv2.imdecode(np.frombuffer(data, dtype=np.uint8), cv2.IMREAD_COLOR)
    if image is None:
        raise EngineError("unreadable_image", "The page is not a readable PNG or JPEG image.")
    if orientation not in (None, 1):
        with Image.open(io.BytesIO(data)) as pil:
            upright = ImageOps.exif_transpose(pil.convert("RGB"))
        image = cv2.cvtColor(np.asarray(upright), cv2.COLOR_RGB2BGR)
    return image


def rotate(image: np.ndarray, degrees: int) -> np.ndarray:
    """Rotate by a multiple of 90 degrees clockwise."""
    turns = (degrees // 90) % 4
    if turns == 0:
        return image
    codes = {1: cv2.ROTATE_90_CLOCKWISE, 2: cv2.ROTATE_180, 3: cv2.ROTATE_90_COUNTERCLOCKWISE}
    return cv2.rotate(image, codes[turns])


def unrotate_bbox(bbox: tuple[float, float, float, float], degrees: int) -> tuple[float, float, float, float]:
    """Map a page-fraction box found on an image rotated clockwise by ``degrees`` back to the
    un-rotated page."""
    x0, y0, x1, y1 = bbox
    turns = (degrees // 90) % 4
    for _ in range(turns):
        # undo one 90-degree clockwise turn: (x, y) on the rotated page came from (y, 1 - x)
        x0, y0, x1, y1 = y0, 1 - x1, y1, 1 - x0
    return x0, y0, x1, y1
