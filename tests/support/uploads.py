"""Files to upload in tests: small valid PNGs that differ by seed, and the named file handle Django's
test client and DRF's APIClient send as a multipart upload."""

from __future__ import annotations

import io

from PIL import Image


def png_bytes(seed: int = 0, size: tuple[int, int] = (60, 40)) -> bytes:
    """A small, valid PNG; different seeds give different bytes (so no content dedup)."""
    image = Image.new("RGB", size, (seed % 256, (seed // 256) % 256, 120))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


def upload(content: bytes, name: str) -> io.BytesIO:
    """``content`` as a file named ``name``: what a form's or the API's ``file`` field receives."""
    handle = io.BytesIO(content)
    handle.name = name
    return handle
