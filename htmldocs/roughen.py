"""Light wear for rendered images: paper tone, a slight skew, softness, noise and JPEG.

Pristine screenshots are the easiest input a reader will ever see; scans and phone pictures of
real bills are slightly rotated, soft, tinted and compressed. This is this family's own, deliberately
mild version of that (a reader's robustness to heavy damage is measured elsewhere): it keeps every
printed character legible, so the truth stays what the document says.
"""

from __future__ import annotations

import io
import random

import numpy as np
from PIL import Image, ImageFilter, ImageOps

_PAPER_TONES = ((255, 255, 255), (250, 248, 240), (246, 244, 238), (252, 250, 246), (242, 242, 242))
_DESK_COLOURS = ((92, 64, 44), (58, 60, 66), (176, 170, 160), (120, 98, 74), (38, 40, 44))


def _tone(image: Image.Image, rng: random.Random) -> Image.Image:
    """Multiply by a paper tone and nudge contrast, as a scanner's or camera's white point does."""
    tone = np.array(rng.choice(_PAPER_TONES), dtype=np.float32) / 255.0
    pixels = np.asarray(image.convert("RGB"), dtype=np.float32) / 255.0
    contrast = rng.uniform(0.9, 1.0)
    pixels = (pixels - 0.5) * contrast + 0.5 + rng.uniform(-0.02, 0.01)
    pixels = np.clip(pixels * tone, 0.0, 1.0)
    return Image.fromarray((pixels * 255).astype(np.uint8))


def _noise(image: Image.Image, rng: random.Random) -> Image.Image:
    sigma = rng.uniform(1.5, 5.0)
    noise = np.random.default_rng(rng.randrange(2**32)).normal(0.0, sigma, (image.height, image.width, 1))
    pixels = np.asarray(image, dtype=np.float32) + noise
    return Image.fromarray(np.clip(pixels, 0, 255).astype(np.uint8))


def scan(image: Image.Image, rng: random.Random, *, noise: bool = True) -> Image.Image:
    """A flatbed-scan look: tone, up to a degree of skew, a little blur and (for JPEGs) sensor noise.

    PNG scans skip the noise: lossless noise only makes files large, it adds nothing a reader sees.
    """
    image = _tone(image, rng)
    fill = image.getpixel((2, 2))
    angle = rng.uniform(-1.0, 1.0)
    image = image.rotate(angle, resample=Image.Resampling.BICUBIC, expand=True, fillcolor=fill)
    if rng.random() < 0.7:
        image = image.filter(ImageFilter.GaussianBlur(rng.uniform(0.3, 0.8)))
    return _noise(image, rng) if noise else image


def photo(image: Image.Image, rng: random.Random, *, noise: bool = True) -> Image.Image:
    """A receipt on a desk: a margin of desk around the slip, a few degrees of rotation, soft focus."""
    image = _tone(image, rng)
    desk = rng.choice(_DESK_COLOURS)
    pad_x = int(image.width * rng.uniform(0.12, 0.3))
    pad_y = int(image.height * rng.uniform(0.04, 0.1))
    image = ImageOps.expand(image, border=(pad_x, pad_y), fill=desk)
    image = image.rotate(
        rng.uniform(-3.0, 3.0), resample=Image.Resampling.BICUBIC, expand=False, fillcolor=desk
    )
    # light falls off towards one side, as under a desk lamp
    ramp = np.linspace(rng.uniform(0.82, 0.95), 1.0, image.width, dtype=np.float32)
    if rng.random() < 0.5:
        ramp = ramp[::-1]
    pixels = np.asarray(image, dtype=np.float32) * ramp[None, :, None]
    image = Image.fromarray(np.clip(pixels, 0, 255).astype(np.uint8))
    image = image.filter(ImageFilter.GaussianBlur(rng.uniform(0.4, 1.0)))
    return _noise(image, rng) if noise else image


def encode(image: Image.Image, form: str, rng: random.Random) -> bytes:
    """The image as PNG or JPEG (quality as phones and scanners save: 70-92)."""
    buffer = io.BytesIO()
    if form == "jpeg":
        image.convert("RGB").save(buffer, format="JPEG", quality=rng.randint(70, 92), optimize=True)
    else:
        image.save(buffer, format="PNG", optimize=False)
    return buffer.getvalue()
