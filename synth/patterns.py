"""Security-like backgrounds: tinted gradients, guilloche curves, wave bands, microprint, emblems.

Real documents print the visual zone over fine line patterns; a reader trained or tuned on flat
white cards learns to find text wherever there is ink. These patterns are cheap approximations
(OpenCV anti-aliased polylines over a numpy gradient), drawn faintly enough that text stays
legible, and kept light under the MRZ as ICAO's clear zone requires.
"""

from __future__ import annotations

import colorsys
import math
from dataclasses import dataclass

import cv2
import numpy as np

Color = tuple[int, int, int]

_SHIFT = 4  # sub-pixel precision of cv2 polylines: coordinates are multiplied by 2**_SHIFT


@dataclass(frozen=True)
class Palette:
    """The colours of one document design."""

    paper: Color  # gradient start
    paper2: Color  # gradient end
    pattern: Color  # guilloche lines
    accent: Color  # header band, emblem, titles
    label: Color  # field captions
    ink: Color  # printed values
    header_text: Color  # text printed on the header band


def hsv(h: float, s: float, v: float) -> Color:
    r, g, b = colorsys.hsv_to_rgb(h % 1.0, min(max(s, 0.0), 1.0), min(max(v, 0.0), 1.0))
    return round(r * 255), round(g * 255), round(b * 255)


def sample_palette(rng: np.random.Generator) -> Palette:
    """A pastel paper with a darker accent of a nearby hue: passports come in every colour."""
    hue = float(rng.random())
    accent = hsv(hue + rng.uniform(-0.08, 0.08), rng.uniform(0.45, 0.9), rng.uniform(0.25, 0.55))
    ink_roll = rng.random()
    if ink_roll < 0.6:
        ink = hsv(0, 0, rng.uniform(0.0, 0.12))
    elif ink_roll < 0.85:
        ink = hsv(0.62, rng.uniform(0.5, 0.8), rng.uniform(0.15, 0.35))  # dark blue
    else:
        ink = accent
    label = accent if rng.random() < 0.6 else hsv(0, 0, rng.uniform(0.25, 0.45))
    return Palette(
        paper=hsv(hue, rng.uniform(0.03, 0.2), rng.uniform(0.93, 1.0)),
        paper2=hsv(hue + rng.uniform(-0.15, 0.15), rng.uniform(0.05, 0.3), rng.uniform(0.88, 0.99)),
        pattern=hsv(hue + rng.uniform(-0.1, 0.1), rng.uniform(0.25, 0.6), rng.uniform(0.55, 0.85)),
        accent=accent,
        label=label,
        ink=ink,
        header_text=(255, 255, 255) if rng.random() < 0.8 else hsv(hue, 0.1, 0.97),
    )


def gradient(rng: np.random.Generator, width: int, height: int, palette: Palette) -> np.ndarray:
    """A linear two-colour gradient at a random angle, with a soft radial highlight.

    Computed on a coarse grid and upsampled: the field is smooth, and full-resolution float
    maths was the slowest part of rendering.
    """
    angle = rng.uniform(0, 2 * math.pi)
    small_w, small_h = max(8, width // 8), max(8, height // 8)
    ys, xs = np.mgrid[0:small_h, 0:small_w].astype(np.float32)
    t = xs * math.cos(angle) / small_w + ys * math.sin(angle) / small_h
    t = (t - t.min()) / max(float(t.max() - t.min()), 1e-6)
    cx, cy = rng.uniform(0.2, 0.8) * small_w, rng.uniform(0.2, 0.8) * small_h
    radial = np.exp(-(((xs - cx) / (0.5 * small_w)) ** 2 + ((ys - cy) / (0.5 * small_h)) ** 2))
    t = np.clip(t + 0.25 * (radial - 0.5) * rng.uniform(0, 1), 0, 1)[..., None]
    paper = np.array(palette.paper, dtype=np.float32)
    paper2 = np.array(palette.paper2, dtype=np.float32)
    small = (paper * (1 - t) + paper2 * t).astype(np.float32)
    return np.clip(cv2.resize(small, (width, height), interpolation=cv2.INTER_LINEAR), 0, 255).astype(
        np.uint8
    )


def _polyline(img: np.ndarray, points: np.ndarray, color: Color, thickness: int, closed: bool) -> None:
    pts = np.round(points * (1 << _SHIFT)).astype(np.int32).reshape(-1, 1, 2)
    cv2.polylines(img, [pts], closed, color, thickness, cv2.LINE_AA, _SHIFT)


def rosette(
    img: np.ndarray, rng: np.random.Generator, center: tuple[float, float], radius: float, color: Color
) -> None:
    """A hypotrochoid, the classic spirograph guilloche."""
    big = int(rng.integers(5, 16))
    small = int(rng.integers(2, 9))
    while math.gcd(big, small) == small:  # avoid degenerate circles
        small = int(rng.integers(2, 9))
    d = rng.uniform(0.4, 1.4) * small
    turns = small // math.gcd(big, small)
    t = np.linspace(0, 2 * math.pi * turns, 900 * turns, dtype=np.float64)
    x = (big - small) * np.cos(t) + d * np.cos((big - small) / small * t)
    y = (big - small) * np.sin(t) - d * np.sin((big - small) / small * t)
    scale = radius / max(float(np.abs(x).max()), float(np.abs(y).max()), 1e-6)
    points = np.stack([center[0] + x * scale, center[1] + y * scale], axis=1)
    _polyline(img, points, color, 1, closed=True)


def wave_band(img: np.ndarray, rng: np.random.Generator, color: Color, spacing: float) -> None:
    """Families of modulated sine lines across the whole card, crossing into a mesh."""
    height, width = img.shape[:2]
    xs = np.linspace(-10, width + 10, max(64, width // 3))
    for _family in range(int(rng.integers(1, 3))):
        wavelength = rng.uniform(0.15, 0.6) * width
        envelope = rng.uniform(0.3, 1.2) * width
        amplitude = rng.uniform(0.02, 0.08) * height
        phase_step = rng.uniform(0.05, 0.5)
        gap = spacing * rng.uniform(0.8, 1.6)
        n_lines = int(height / gap) + 4
        for k in range(n_lines):
            y0 = -2 * gap + k * gap
            ys = y0 + amplitude * np.sin(2 * math.pi * xs / wavelength + k * phase_step) * np.cos(
                2 * math.pi * xs / envelope
            )
            _polyline(img, np.stack([xs, ys], axis=1), color, 1, closed=False)


def concentric(
    img: np.ndarray, rng: np.random.Generator, center: tuple[float, float], radius: float, color: Color
) -> None:
    """Rings with a wavy radius, like the rosettes behind a portrait."""
    lobes = int(rng.integers(6, 24))
    wobble = rng.uniform(0.02, 0.08)
    t = np.linspace(0, 2 * math.pi, 720)
    for r in np.linspace(radius * 0.15, radius, int(rng.integers(8, 22))):
        rr = r * (1 + wobble * np.sin(lobes * t + r * 0.05))
        points = np.stack([center[0] + rr * np.cos(t), center[1] + rr * np.sin(t)], axis=1)
        _polyline(img, points, color, 1, closed=True)


def emblem(
    img: np.ndarray, rng: np.random.Generator, center: tuple[float, float], radius: float, color: Color
) -> None:
    """A faint seal: two rings and a star."""
    cx, cy = center
    for r in (radius, radius * 0.86):
        _polyline(
            img,
            np.stack(
                [
                    cx + r * np.cos(np.linspace(0, 2 * math.pi, 360)),
                    cy + r * np.sin(np.linspace(0, 2 * math.pi, 360)),
                ],
                axis=1,
            ),
            color,
            2,
            closed=True,
        )
    points_n = int(rng.integers(5, 9))
    angles = np.linspace(-math.pi / 2, 3 * math.pi / 2, 2 * points_n, endpoint=False)
    radii = np.where(np.arange(2 * points_n) % 2 == 0, radius * 0.7, radius * 0.3)
    star = np.stack([cx + radii * np.cos(angles), cy + radii * np.sin(angles)], axis=1)
    pts = np.round(star * (1 << _SHIFT)).astype(np.int32).reshape(-1, 1, 2)
    cv2.fillPoly(img, [pts], color, cv2.LINE_AA, _SHIFT)


def security_background(
    rng: np.random.Generator, width: int, height: int, palette: Palette, px_per_mm: float
) -> np.ndarray:
    """Gradient paper with a random mix of guilloche layers blended in faintly (H x W x 3 RGB)."""
    img = gradient(rng, width, height, palette)
    layers = rng.permutation(4)[: int(rng.integers(1, 4))]
    for layer in layers:
        overlay = img.copy()
        if layer == 0:
            wave_band(overlay, rng, palette.pattern, spacing=rng.uniform(0.8, 2.5) * px_per_mm)
        elif layer == 1:
            for _ in range(int(rng.integers(1, 4))):
                center = (rng.uniform(0, width), rng.uniform(0, height))
                rosette(overlay, rng, center, rng.uniform(0.15, 0.45) * height, palette.pattern)
        elif layer == 2:
            center = (rng.uniform(0.3, 0.9) * width, rng.uniform(0.2, 0.8) * height)
            concentric(overlay, rng, center, rng.uniform(0.3, 0.7) * height, palette.pattern)
        else:
            center = (rng.uniform(0.4, 0.8) * width, rng.uniform(0.3, 0.6) * height)
            emblem(overlay, rng, center, rng.uniform(0.15, 0.3) * height, palette.accent)
        alpha = rng.uniform(0.12, 0.4) if layer != 3 else rng.uniform(0.05, 0.12)
        img = cv2.addWeighted(img, 1 - alpha, overlay, alpha, 0)
    return img


def clear_zone(img: np.ndarray, top: int, strength: float) -> None:
    """Wash out the pattern below ``top`` (the MRZ's clear zone), in place."""
    zone = img[top:].astype(np.float32)
    img[top:] = (zone * (1 - strength) + 255 * strength).astype(np.uint8)
