"""Decoding uploaded page images (engines/images.py)."""

from __future__ import annotations

import io
import struct
import zlib

import numpy as np
import pytest
from PIL import Image

from engines.images import decode_image, rotate, unrotate_bbox
from engines.types import EngineError


def png_bytes(width: int, height: int, color: tuple[int, int, int] = (200, 30, 30)) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (width, height), color).save(out, format="PNG")
    return out.getvalue()


def png_header_only(width: int, height: int) -> bytes:
    """A PNG that announces huge dimensions and holds no pixels (a decompression bomb's shape)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IEND", b"")


def test_png_decodes_to_bgr_pixels() -> None:
    image = decode_image(png_bytes(30, 20, (200, 30, 30)))
    assert image.shape == (20, 30, 3)
    assert tuple(int(v) for v in image[0, 0]) == (30, 30, 200)  # BGR


@pytest.mark.parametrize(
    "data", [b"", b"not an image at all", png_bytes(10, 10)[:40]], ids=["empty", "text", "truncated"]
)
def test_undecodable_bytes_are_refused_as_unreadable(data: bytes) -> None:
    with pytest.raises(EngineError) as error:
        decode_image(data)
    assert error.value.code == "unreadable_image"


def test_image_over_89_million_pixels_is_refused_before_decoding() -> None:
    with pytest.raises(EngineError) as error:
        decode_image(png_header_only(10_000, 9_000))  # 90 M pixels, never allocated
    assert error.value.code == "image_too_large"


def test_pixel_limit_is_a_parameter() -> None:
    with pytest.raises(EngineError) as error:
        decode_image(png_bytes(20, 20), max_pixels=399)
    assert error.value.code == "image_too_large"
    assert decode_image(png_bytes(20, 20), max_pixels=400).shape == (20, 20, 3)


def test_jpeg_exif_orientation_is_applied() -> None:
    # a landscape sensor image the camera marks "rotate 90 degrees clockwise to view" (tag 6)
    sensor = Image.new("RGB", (40, 20), (255, 255, 255))
    sensor.paste((0, 0, 0), (0, 0, 10, 20))  # dark left edge
    exif = Image.Exif()
    exif[0x0112] = 6
    out = io.BytesIO()
    sensor.save(out, format="JPEG", exif=exif.tobytes(), quality=95)
    image = decode_image(out.getvalue())
    assert image.shape[:2] == (40, 20)  # upright: portrait
    assert image[:10].mean() < 80  # the dark edge is now at the top
    assert image[-10:].mean() > 180


def test_rotate_and_unrotate_bbox_round_trip() -> None:
    page = np.zeros((100, 200, 3), dtype=np.uint8)
    page[10:20, 150:190] = 255  # a box at x 0.75-0.95, y 0.1-0.2
    for degrees in (90, 180, 270):
        turned = rotate(page, degrees)
        ys, xs = np.nonzero(turned[:, :, 0])
        h, w = turned.shape[:2]
        found = (xs.min() / w, ys.min() / h, (xs.max() + 1) / w, (ys.max() + 1) / h)
        back = unrotate_bbox(found, degrees)
        assert back == pytest.approx((0.75, 0.1, 0.95, 0.2), abs=0.01), degrees
