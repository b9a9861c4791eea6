"""Making a clean rendering look scanned or photographed.

A reader only tested on perfect renderings tells us nothing about uploads. Each profile is a
recipe of optional steps, each drawn from the document's own random generator (so a seed
reproduces it exactly) and scaled by ``severity`` (0 = untouched, 1 = the profile's full
range). The steps applied are recorded so a benchmark can break errors down by cause.

- ``clean``: the rendering as is (PNG, or JPEG at a high quality).
- ``scan``: a flatbed scan: small skew, sometimes upside down or sideways, the card on the
  scanner's lid colour, slight blur, noise, low contrast, downscaling, JPEG.
- ``photo``: a phone photo of the card on a table: rotation, perspective, a textured background
  with a drop shadow, uneven light, glare, shadows, defocus or motion blur, noise, JPEG.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from synth.identity import pick, pick_weighted
from synth.patterns import hsv
from synth.render import RenderedDocument

PROFILES = ("clean", "scan", "photo")


@dataclass(frozen=True)
class Degraded:
    """The final pixels, how to encode them, and the steps that produced them."""

    image: np.ndarray  # H x W x 3 uint8 RGB
    extension: str  # "png" or "jpg"
    jpeg_quality: int | None
    steps: tuple[str, ...]


def degrade(
    rendered: RenderedDocument, rng: np.random.Generator, profile: str, severity: float = 1.0
) -> Degraded:
    """Apply ``profile`` to ``rendered`` at ``severity`` (0..1)."""
    severity = min(max(severity, 0.0), 1.0)
    if profile == "clean":
        return _clean(rendered, rng)
    if profile == "scan":
        return _scan(rendered, rng, severity)
    if profile == "photo":
        return _photo(rendered, rng, severity)
    raise ValueError(f"unknown profile {profile!r}; expected one of {PROFILES}")


# --------------------------------------------------------------------------------------------
# Profiles


def _clean(rendered: RenderedDocument, rng: np.random.Generator) -> Degraded:
    if rng.random() < 0.55:
        return Degraded(rendered.image, "png", None, ())
    quality = int(rng.integers(90, 98))
    return Degraded(rendered.image, "jpg", quality, (f"jpeg:{quality}",))


def _scan(rendered: RenderedDocument, rng: np.random.Generator, severity: float) -> Degraded:
    steps: list[str] = []
    image, mask = rendered.image, rendered.mask
    image, mask = _orientation(image, mask, rng, p_flip=0.05 * severity, p_side=0.04 * severity, steps=steps)
    angle = float(np.clip(rng.normal(0, 1.3), -4, 4)) * severity
    bed = hsv(rng.uniform(0, 1), rng.uniform(0, 0.06), rng.uniform(0.9, 1.0))
    image, mask = _rotate(image, mask, angle, bed)
    steps.append(f"skew:{angle:.1f}")
    image = _on_scanner_bed(image, mask, rng, bed)
    steps.append("scanner-bed")
    if rng.random() < 0.3:
        image = _tint(image, rng)
        steps.append("tint")
    if rng.random() < 0.7:
        sigma = rng.uniform(0.3, 1.1) * severity
        image = _gaussian_blur(image, sigma)
        steps.append(f"blur:{sigma:.2f}")
    if rng.random() < 0.3:
        contrast = 1 - rng.uniform(0.15, 0.45) * severity
        image = _low_contrast(image, contrast)
        steps.append(f"contrast:{contrast:.2f}")
    sigma = rng.uniform(1.0, 5.0) * severity
    image = _noise(image, rng, sigma)
    steps.append(f"noise:{sigma:.1f}")
    if rng.random() < 0.5:
        factor = 1 - rng.uniform(0.1, 0.45) * severity
        image = _downscale(image, factor)
        steps.append(f"downscale:{factor:.2f}")
    if rng.random() < 0.8:
        quality = round(95 - rng.uniform(0, 40) * severity)
        steps.append(f"jpeg:{quality}")
        return Degraded(image, "jpg", quality, tuple(steps))
    return Degraded(image, "png", None, tuple(steps))


_FULL_PAGE_PIXELS = 2200  # a rendered side at least this long is a full page, not a card


def _photo(rendered: RenderedDocument, rng: np.random.Generator, severity: float) -> Degraded:
    steps: list[str] = []
    image, mask = rendered.image, rendered.mask
    image, mask = _orientation(image, mask, rng, p_flip=0.05 * severity, p_side=0.05 * severity, steps=steps)
    angle = rng.uniform(-12, 12) * severity
    tilt = rng.uniform(0.02, 0.1) * severity
    longest = rng.uniform(1100, 2000)
    if max(image.shape[:2]) >= _FULL_PAGE_PIXELS:
        # a phone photo of a whole A4/letter page keeps more pixels than one of a card: people
        # fill the frame with the page, and a 12-megapixel camera sends 1800-3200 pixels
        longest *= 1.6
    image, mask, table, shrink = _on_table(image, mask, rng, angle, tilt, longest)
    steps += [f"rotate:{angle:.1f}", f"perspective:{tilt:.3f}", f"table:{table}"]
    if shrink < 0.999:
        steps.append(f"downscale:{shrink:.2f}")
    if rng.random() < 0.7:
        image = _uneven_light(image, rng, 0.45 * severity)
        steps.append("lighting")
    if rng.random() < 0.35:
        image = _shadow(image, rng, rng.uniform(0.2, 0.45) * severity)
        steps.append("shadow")
    if rng.random() < 0.3:
        image = _glare(image, mask, rng, rng.uniform(0.35, 0.8) * severity)
        steps.append("glare")
    blur_roll = rng.random()
    if blur_roll < 0.45:
        sigma = rng.uniform(0.5, 1.8) * severity
        image = _gaussian_blur(image, sigma)
        steps.append(f"blur:{sigma:.2f}")
    elif blur_roll < 0.7:
        length = max(1, round(rng.uniform(2, 9) * severity))
        image = _motion_blur(image, length, rng.uniform(0, 180))
        steps.append(f"motion-blur:{length}")
    if rng.random() < 0.2:
        contrast = 1 - rng.uniform(0.15, 0.4) * severity
        image = _low_contrast(image, contrast)
        steps.append(f"contrast:{contrast:.2f}")
    sigma = rng.uniform(2.0, 8.0) * severity
    image = _noise(image, rng, sigma)
    steps.append(f"noise:{sigma:.1f}")
    if rng.random() < 0.9:
        quality = round(92 - rng.uniform(0, 50) * severity)
        steps.append(f"jpeg:{quality}")
        return Degraded(image, "jpg", quality, tuple(steps))
    return Degraded(image, "png", None, tuple(steps))


# --------------------------------------------------------------------------------------------
# Geometry


def _orientation(
    image: np.ndarray,
    mask: np.ndarray,
    rng: np.random.Generator,
    p_flip: float,
    p_side: float,
    steps: list[str],
) -> tuple[np.ndarray, np.ndarray]:
    """Occasionally upside down (180°) or sideways (90°/270°), exactly, before any skew."""
    roll = rng.random()
    if roll < p_flip:
        steps.append("rotate180")
        return np.rot90(image, 2).copy(), np.rot90(mask, 2).copy()
    if roll < p_flip + p_side:
        k = pick(rng, (1, 3))
        steps.append(f"rotate{90 * k}")
        return np.rot90(image, k).copy(), np.rot90(mask, k).copy()
    return image, mask


def _rotate(
    image: np.ndarray, mask: np.ndarray, degrees: float, fill: tuple[int, int, int]
) -> tuple[np.ndarray, np.ndarray]:
    """Rotate about the centre, growing the canvas so no corner is cut off."""
    h, w = image.shape[:2]
    matrix = cv2.getRotationMatrix2D((w / 2, h / 2), degrees, 1.0)
    cos, sin = abs(matrix[0, 0]), abs(matrix[0, 1])
    new_w, new_h = math.ceil(h * sin + w * cos), math.ceil(h * cos + w * sin)
    matrix[0, 2] += new_w / 2 - w / 2
    matrix[1, 2] += new_h / 2 - h / 2
    rotated = cv2.warpAffine(image, matrix, (new_w, new_h), flags=cv2.INTER_LINEAR, borderValue=fill)
    rotated_mask = cv2.warpAffine(mask, matrix, (new_w, new_h), flags=cv2.INTER_LINEAR, borderValue=(0,))
    return rotated, rotated_mask


def _composite(background: np.ndarray, image: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """``image`` over ``background`` where ``mask`` says (anti-aliased edges blend)."""
    alpha = mask.astype(np.float32) / 255.0
    return cv2.blendLinear(image, background, alpha, 1.0 - alpha)


def _on_scanner_bed(
    image: np.ndarray, mask: np.ndarray, rng: np.random.Generator, bed: tuple[int, int, int]
) -> np.ndarray:
    """The card somewhere on a larger scan, with the faint dark rim scanners leave at card edges."""
    h, w = image.shape[:2]
    left, right = (round(w * rng.uniform(0.02, 0.2)) for _ in range(2))
    top, bottom = (round(h * rng.uniform(0.02, 0.2)) for _ in range(2))
    canvas = np.empty((h + top + bottom, w + left + right, 3), np.uint8)
    canvas[:] = bed
    full_mask = np.zeros(canvas.shape[:2], np.uint8)
    full_mask[top : top + h, left : left + w] = mask
    full_image = canvas.copy()
    full_image[top : top + h, left : left + w] = image
    rim = cv2.GaussianBlur(full_mask, (0, 0), 2.0)
    rim_strength = rng.uniform(0.1, 0.3)
    # bed colour darkened by the rim, as a lookup table on the blurred mask (uint8 all the way)
    levels = np.arange(256, dtype=np.float32)[:, None] / 255.0
    lut = np.clip(np.array(bed, np.float32)[None, :] * (1 - rim_strength * levels), 0, 255).astype(np.uint8)
    shaded = cv2.LUT(cv2.merge([rim, rim, rim]), lut.reshape(256, 1, 3))
    return _composite(shaded, full_image, full_mask)


def _on_table(
    image: np.ndarray,
    mask: np.ndarray,
    rng: np.random.Generator,
    degrees: float,
    tilt: float,
    longest: float,
) -> tuple[np.ndarray, np.ndarray, str, float]:
    """Warp the card by a rotation plus a random perspective onto a textured table, with a shadow.

    The frame's longest side is at most ``longest`` pixels; the card is shrunk first (area
    interpolation, no aliasing) so nothing is computed at a resolution that is thrown away.
    Returns the photo, the card's mask in it, the table kind and the scale applied to the card.
    """
    h, w = image.shape[:2]
    scale_out = rng.uniform(1.15, 1.6)
    frame_w, frame_h = max(w, h) * scale_out, max(w, h) * scale_out * rng.uniform(0.65, 0.85)
    if h > w:
        frame_w, frame_h = frame_h, frame_w
    shrink = min(1.0, longest / max(frame_w, frame_h))
    if shrink < 0.999:
        size = (max(1, round(w * shrink)), max(1, round(h * shrink)))
        image = cv2.resize(image, size, interpolation=cv2.INTER_AREA)
        mask = cv2.resize(mask, size, interpolation=cv2.INTER_AREA)
        h, w = image.shape[:2]
    out_w, out_h = round(frame_w * shrink), round(frame_h * shrink)
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    theta = math.radians(degrees)
    rot = np.array([[math.cos(theta), -math.sin(theta)], [math.sin(theta), math.cos(theta)]], np.float32)
    centered = (src - [w / 2, h / 2]) @ rot.T
    jitter = rng.uniform(-tilt, tilt, size=(4, 2)).astype(np.float32) * [w, h]
    dst = centered + jitter
    span = dst.max(axis=0) - dst.min(axis=0)
    dst = dst * min(out_w * 0.94 / span[0], out_h * 0.94 / span[1], 1.0)
    lo, hi = dst.min(axis=0), dst.max(axis=0)
    offset = [rng.uniform(-lo[0], out_w - hi[0]), rng.uniform(-lo[1], out_h - hi[1])]
    homography = cv2.getPerspectiveTransform(src, (dst + offset).astype(np.float32))
    warped = cv2.warpPerspective(image, homography, (out_w, out_h), flags=cv2.INTER_LINEAR)
    warped_mask = cv2.warpPerspective(mask, homography, (out_w, out_h), flags=cv2.INTER_LINEAR)
    # Drop shadow: the mask, offset and blurred, computed at a quarter of the resolution.
    small = cv2.resize(warped_mask, (max(1, out_w // 4), max(1, out_h // 4)), interpolation=cv2.INTER_AREA)
    sh, sw = small.shape[:2]
    shift = np.array([[1, 0, rng.uniform(-0.02, 0.02) * sw], [0, 1, rng.uniform(0.0, 0.03) * sh]], np.float32)
    small = cv2.GaussianBlur(cv2.warpAffine(small, shift, (sw, sh)), (0, 0), max(1.0, 0.0025 * out_w))
    shadow = _upsample(small.astype(np.float32) / 255.0, out_w, out_h)
    table, kind = _table(rng, out_w, out_h, light=1 - rng.uniform(0.25, 0.55) * shadow)
    return _composite(table, warped, warped_mask), warped_mask, kind, shrink


# --------------------------------------------------------------------------------------------
# Backgrounds


def smooth_noise(rng: np.random.Generator, width: int, height: int, cell: int) -> np.ndarray:
    """Low-frequency noise in about [-1, 1]: random values on a coarse grid, cubic-upsampled."""
    grid = rng.normal(0, 1, size=(height // cell + 3, width // cell + 3)).astype(np.float32)
    return cv2.resize(grid, (width, height), interpolation=cv2.INTER_CUBIC)


def _coarse_grid(width: int, height: int, step: int = 8) -> tuple[np.ndarray, np.ndarray]:
    """Normalised x and y (0..1) on a grid ``step`` times coarser than the image."""
    small_w, small_h = max(4, width // step), max(4, height // step)
    ys, xs = np.mgrid[0:small_h, 0:small_w].astype(np.float32)
    return xs / small_w, ys / small_h


def _upsample(field: np.ndarray, width: int, height: int) -> np.ndarray:
    return cv2.resize(field.astype(np.float32), (width, height), interpolation=cv2.INTER_LINEAR)


def _table(rng: np.random.Generator, width: int, height: int, light: np.ndarray) -> tuple[np.ndarray, str]:
    """A wooden, plain, woven or paper surface to photograph the card on, lit by ``light`` (H x W)."""
    kind = pick_weighted(rng, (("wood", 0.35), ("plain", 0.35), ("fabric", 0.15), ("paper", 0.15)))
    if kind == "wood":  # computed at half resolution: the grain is coarse anyway
        half_w, half_h = max(4, width // 2), max(4, height // 2)
        base = hsv(rng.uniform(0.05, 0.1), rng.uniform(0.35, 0.7), rng.uniform(0.3, 0.75))
        ys, xs = np.mgrid[0:half_h, 0:half_w].astype(np.float32)
        along = ys if rng.random() < 0.5 else xs  # planks run either way
        warp = smooth_noise(rng, half_w, half_h, 96) * rng.uniform(2, 6)
        period = rng.uniform(3, 9)
        grain = np.sin(2 * math.pi * (along + warp) / period)
        grain += 0.5 * np.sin(2 * math.pi * (along + 1.7 * warp) / (2.3 * period))
        shade = _upsample(1 + 0.06 * grain + 0.08 * smooth_noise(rng, half_w, half_h, 24), width, height)
    elif kind == "fabric":
        base = hsv(rng.uniform(0, 1), rng.uniform(0.2, 0.6), rng.uniform(0.3, 0.8))
        period = rng.uniform(4, 10)
        rows = np.sin(2 * math.pi * np.arange(height, dtype=np.float32) / period)
        cols = np.sin(2 * math.pi * np.arange(width, dtype=np.float32) / period)
        shade = 1 + 0.05 * np.outer(rows, cols) + 0.06 * smooth_noise(rng, width, height, 32)
    elif kind == "paper":
        base = hsv(rng.uniform(0.08, 0.16), rng.uniform(0.0, 0.12), rng.uniform(0.85, 0.98))
        shade = 1 + 0.03 * smooth_noise(rng, width, height, 48)
    else:
        base = hsv(rng.uniform(0, 1), rng.uniform(0, 0.3), rng.uniform(0.15, 0.9))
        shade = 1 + 0.07 * smooth_noise(rng, width, height, 96)
    return _colorize(base, shade * light), kind


def _colorize(color: tuple[int, int, int], shade: np.ndarray) -> np.ndarray:
    """``color`` times a per-pixel ``shade`` (0..2), via a lookup table on the quantised shade."""
    quantised = np.clip(shade * 128, 0, 255).astype(np.uint8)
    lut = np.array(color, np.float32)[None, :] * (np.arange(256, dtype=np.float32)[:, None] / 128)
    return _apply_lut(cv2.merge([quantised, quantised, quantised]), lut)


# --------------------------------------------------------------------------------------------
# Photometric


def _tint(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A warm cast (yellowed paper, a scanner lamp): per-channel gains through a lookup table."""
    gains = np.array([1.0, rng.uniform(0.97, 1.0), rng.uniform(0.9, 0.98)], np.float32)
    return _apply_lut(image, np.arange(256, dtype=np.float32)[:, None] * gains[None, :])


def _apply_lut(image: np.ndarray, table: np.ndarray) -> np.ndarray:
    """Map each channel through a (256, 3) table: per-pixel float maths at uint8 speed."""
    lut = np.clip(np.round(table), 0, 255).astype(np.uint8).reshape(256, 1, 3)
    return cv2.LUT(image, lut)


def _gaussian_blur(image: np.ndarray, sigma: float) -> np.ndarray:
    if sigma < 0.2:
        return image
    return cv2.GaussianBlur(image, (0, 0), sigma)


def _motion_blur(image: np.ndarray, length: int, degrees: float) -> np.ndarray:
    if length < 2:
        return image
    size = 2 * length + 1
    line = np.zeros((size, size), np.float32)
    line[length, :] = 1.0
    rotation = cv2.getRotationMatrix2D((length, length), degrees, 1.0)
    kernel = np.asarray(cv2.warpAffine(line, rotation, (size, size)), np.float32)
    return cv2.filter2D(image, -1, kernel / max(float(kernel.sum()), 1e-6))


def _low_contrast(image: np.ndarray, contrast: float) -> np.ndarray:
    """Squeeze the range towards its mean grey: washed-out prints and flat scans."""
    mean = float(np.mean(cv2.mean(image)[:3]))
    levels = np.arange(256, dtype=np.float32)[:, None].repeat(3, axis=1)
    return _apply_lut(image, mean + (levels - mean) * contrast)


def _noise(image: np.ndarray, rng: np.random.Generator, sigma: float) -> np.ndarray:
    """Sensor noise: per-pixel luminance noise plus coarser colour noise."""
    if sigma < 0.3:
        return image
    h, w = image.shape[:2]
    chroma = rng.standard_normal(size=(h // 4 + 1, w // 4 + 1, 3), dtype=np.float32) * (sigma * 0.4)
    noise = np.asarray(cv2.resize(chroma, (w, h), interpolation=cv2.INTER_LINEAR), np.float32)
    noise += (rng.standard_normal(size=(h, w), dtype=np.float32) * sigma)[..., None]
    return cv2.add(image, noise, dtype=cv2.CV_8U)  # saturating, in one pass


def _downscale(image: np.ndarray, factor: float) -> np.ndarray:
    h, w = image.shape[:2]
    size = (max(1, round(w * factor)), max(1, round(h * factor)))
    return cv2.resize(image, size, interpolation=cv2.INTER_AREA)


def _scale(image: np.ndarray, gain: np.ndarray) -> np.ndarray:
    """``image`` times a per-pixel ``gain`` (H x W float), saturated to uint8 in one OpenCV pass."""
    return cv2.multiply(image, cv2.merge([gain, gain, gain]), dtype=cv2.CV_8U)


def _uneven_light(image: np.ndarray, rng: np.random.Generator, strength: float) -> np.ndarray:
    """A linear fall-off of light across the frame, plus a vignette."""
    h, w = image.shape[:2]
    xs, ys = _coarse_grid(w, h)
    angle = rng.uniform(0, 2 * math.pi)
    ramp = (xs - 0.5) * math.cos(angle) + (ys - 0.5) * math.sin(angle)
    vignette = ((xs - 0.5) ** 2 + (ys - 0.5) ** 2) * rng.uniform(0, 1)
    return _scale(image, _upsample(1 + strength * (ramp * rng.uniform(0.6, 1.2) - vignette), w, h))


def _shadow(image: np.ndarray, rng: np.random.Generator, strength: float) -> np.ndarray:
    """A soft-edged shadow (a hand or a phone) over one side of the frame."""
    h, w = image.shape[:2]
    xs, ys = _coarse_grid(w, h)
    angle = rng.uniform(0, 2 * math.pi)
    aspect_x, aspect_y = w / max(w, h), h / max(w, h)
    distance = (xs - 0.5) * aspect_x * math.cos(angle) + (ys - 0.5) * aspect_y * math.sin(angle)
    distance -= rng.uniform(0, 0.35)
    region = 1 / (1 + np.exp(-distance / rng.uniform(0.02, 0.1)))
    return _scale(image, _upsample(1 - strength * region, w, h))


def _glare(image: np.ndarray, mask: np.ndarray, rng: np.random.Generator, strength: float) -> np.ndarray:
    """A specular highlight on the card's laminate: a bright, soft-edged ellipse on the card."""
    h, w = image.shape[:2]
    xs, ys = _coarse_grid(w, h)
    small_mask = cv2.resize(mask, (xs.shape[1], xs.shape[0]), interpolation=cv2.INTER_AREA)
    inside_y, inside_x = np.nonzero(small_mask > 128)
    if len(inside_x) == 0:
        return image
    i = int(rng.integers(len(inside_x)))
    cx, cy = xs[inside_y[i], inside_x[i]], ys[inside_y[i], inside_x[i]]
    sx, sy = rng.uniform(0.04, 0.14), rng.uniform(0.03, 0.1)
    blob = _upsample(strength * np.exp(-(((xs - cx) / sx) ** 2 + ((ys - cy) / sy) ** 2)), w, h)
    # img + (255 - img) * blob == img * (1 - blob) + 255 * blob
    lifted = 255 * blob
    return cv2.add(_scale(image, 1 - blob), cv2.merge([lifted, lifted, lifted]), dtype=cv2.CV_8U)
