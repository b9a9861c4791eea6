"""Advisory authenticity signals of a page image: a photo of a screen, a print or photocopy, an
edited region. Each is a named check with a score and a sentence for the reviewer; none ever
declines a document (a genuine card photographed on a glossy table can look printed, a
re-saved scan can look edited): they point a reviewer at what to look at.

``screen``  a screen's sub-pixel grid photographed by a camera leaves sharp periodic peaks in the
            colour (chroma) spectrum at short periods (2-8 pixels), where a paper document's
            spectrum is smooth. Score: the strongest such peak over the spectrum's median, in
            decibels (10 log10).
``print``   a laser or offset print is made of a halftone screen of dots: sharp periodic peaks in
            the grey spectrum at short periods, in a page with little colour left. Score: the
            strongest grey peak in decibels, less a penalty for colour (a colourful page is
            unlikely to be a black-and-white print).
``edited``  a region pasted from another JPEG keeps that JPEG's 8 x 8 block grid, usually off the
            page's own grid and stronger: per 64-pixel cell, the grid's phase (where block edges
            fall) and its strength; score: the strength of the strongest cell whose grid phase
            differs from the page's, with its box.

What they cannot catch, honestly: a screen photographed from far enough away that the camera
cannot resolve its pixels; a print on a high-resolution inkjet (no regular screen); an edit
made on the uncompressed original before a single JPEG save, or a page re-compressed hard
afterwards (both erase the grid difference); a forger who knows these measures. Measured on
generated attacks in tests/unit/media/test_authenticity.py (AUC and false-positive rates in
docs/capture-quality.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

# Score at or above which a signal is flagged (shown as "not passed" to the reviewer).
# Provisional (a first small measurement, docs/capture-quality.md): high, so that clean captures
# are rarely flagged; the screen and edited signals separate poorly so far.
THRESHOLDS: dict[str, float] = {"screen": 18.0, "print": 22.0, "edited": 10.0}
EXPLANATIONS: dict[str, str] = {
    "screen": "periodic colour pattern of a screen's pixel grid (moiré): possibly a photo of a screen",
    "print": "regular halftone dots and little colour: possibly a print-out or photocopy",
    "edited": "a region with a JPEG history of its own: possibly pasted in from another image",
}
_CROP = 512
_CELL = 64


@dataclass(frozen=True)
class Signal:
    name: str  # screen | print | edited
    score: float
    threshold: float
    page: int
    region: tuple[float, float, float, float] | None = None  # shares of the page's width, height

    @property
    def flagged(self) -> bool:
        return self.score >= self.threshold

    def to_dict(self) -> dict[str, Any]:
        said = EXPLANATIONS[self.name] if self.flagged else "nothing unusual found"
        return {
            "name": f"authenticity_{self.name}",
            "passed": not self.flagged,
            "detail": f"{said} (score {self.score:.2f}, flagged from {self.threshold:g}, page {self.page})",
            "kind": "authenticity",
            "advisory": True,
            "score": round(self.score, 4),
            "threshold": self.threshold,
            "page": self.page,
            "region": None if self.region is None else [round(v, 4) for v in self.region],
        }


def _centre_crop(image: np.ndarray) -> np.ndarray:
    h, w = image.shape[:2]
    side = min(_CROP, h, w)
    top, left = (h - side) // 2, (w - side) // 2
    return image[top : top + side, left : left + side]


def _peak_db(channel: np.ndarray) -> float:
    """The strongest short-period peak of ``channel``'s spectrum over the band's median, in dB
    (JPEG's own 8-pixel harmonics left out)."""
    n = channel.shape[0]
    if n < 64:
        return 0.0
    data = channel.astype(np.float32)
    data -= cv2.blur(data, (9, 9))  # high-pass: the page's layout and lighting are not periodic
    window = np.outer(np.hanning(n), np.hanning(n)).astype(np.float32)
    spectrum = np.abs(np.fft.fftshift(np.fft.fft2(data * window)))
    fy, fx = np.mgrid[0:n, 0:n]
    fy, fx = fy - n // 2, fx - n // 2
    radius = np.hypot(fx, fy)
    band = (radius >= n / 8) & (radius <= n / 2.2)  # periods of 2.2 to 8 pixels
    harmonic = n / 8
    near_grid = (np.abs(fx / harmonic - np.round(fx / harmonic)) * harmonic <= 2) & (
        np.abs(fy / harmonic - np.round(fy / harmonic)) * harmonic <= 2
    )
    values = spectrum[band & ~near_grid]
    if values.size == 0 or float(values.max()) <= 0:
        return 0.0
    return float(10 * np.log10(values.max() / max(float(np.median(values)), 1e-6)))


def screen_score(bgr: np.ndarray) -> float:
    crop = _centre_crop(bgr).astype(np.float32)
    chroma = crop[..., 2] - crop[..., 0]  # red against blue: a sub-pixel grid alternates them
    return _peak_db(chroma)


def print_score(bgr: np.ndarray) -> float:
    crop = _centre_crop(bgr)
    gray = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
    saturation = float(np.mean(cv2.cvtColor(crop, cv2.COLOR_BGR2HSV)[..., 1])) / 255.0
    # a colourful page is unlikely a black-and-white print: up to 10 dB off for full colour
    return _peak_db(gray) - 10.0 * min(1.0, saturation / 0.25)


def edited_score(bgr: np.ndarray) -> tuple[float, tuple[float, float, float, float] | None]:
    """The strongest JPEG block grid off the page's own phase, per 64-pixel cell."""
    gray = cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY).astype(np.float32)
    h, w = (gray.shape[0] // _CELL) * _CELL, (gray.shape[1] // _CELL) * _CELL
    if h < 2 * _CELL or w < 2 * _CELL:
        return 0.0, None
    gray = gray[:h, :w]
    # second differences across columns and rows: a block edge is a step where the image is smooth
    dx = np.abs(gray[:, :-2] - 2 * gray[:, 1:-1] + gray[:, 2:])
    dy = np.abs(gray[:-2, :] - 2 * gray[1:-1, :] + gray[2:, :])
    dx = np.pad(dx, ((0, 0), (1, 1)))
    dy = np.pad(dy, ((1, 1), (0, 0)))
    rows, cols = h // _CELL, w // _CELL
    # per cell, the mean second difference at each column (row) phase modulo 8
    cx = dx.reshape(rows, _CELL, cols, _CELL // 8, 8).mean(axis=(1, 3))  # rows x cols x 8
    cy = dy.reshape(rows, _CELL // 8, 8, cols, _CELL).mean(axis=(1, 4)).transpose(0, 2, 1)
    strength = np.zeros((rows, cols), np.float32)
    phase = np.zeros((rows, cols, 2), np.int64)
    for index, profile in enumerate((cx, cy)):
        best = profile.argmax(axis=2)
        top = profile.max(axis=2)
        rest = (profile.sum(axis=2) - top) / 7
        strength += (top - rest) / np.maximum(rest, 0.5)
        phase[..., index] = best
    strength /= 2
    textured = (cx.mean(axis=2) + cy.mean(axis=2)) / 2 > 0.5
    if int(textured.sum()) < 4:
        return 0.0, None
    keys = phase[..., 0] * 8 + phase[..., 1]
    weights = np.bincount(keys[textured], weights=strength[textured], minlength=64)
    page_phase = int(weights.argmax())
    off = textured & (keys != page_phase)
    if not off.any():
        return 0.0, None
    scores = np.where(off, strength, 0.0)
    worst = np.unravel_index(int(scores.argmax()), scores.shape)
    # the region: the off-phase cells with at least half the worst strength
    strong = off & (scores >= scores[worst] / 2)
    ys, xs = np.nonzero(strong)
    box = (
        float(xs.min() * _CELL) / gray.shape[1],
        float(ys.min() * _CELL) / gray.shape[0],
        float((xs.max() + 1) * _CELL) / gray.shape[1],
        float((ys.max() + 1) * _CELL) / gray.shape[0],
    )
    return float(scores[worst]), box


def signals_of_page(bgr: np.ndarray, page: int = 1) -> list[Signal]:
    edited, box = edited_score(bgr)
    return [
        Signal("screen", screen_score(bgr), THRESHOLDS["screen"], page),
        Signal("print", print_score(bgr), THRESHOLDS["print"], page),
        Signal("edited", edited, THRESHOLDS["edited"], page, box),
    ]


def signals_of_images(images: Sequence[bytes], numbers: Sequence[int] | None = None) -> list[Signal]:
    """One signal of each kind for the document: each kind's highest-scoring page. Pages that
    do not decode are left out."""
    numbers = list(numbers) if numbers is not None else list(range(1, len(images) + 1))
    best: dict[str, Signal] = {}
    for data, number in zip(images, numbers, strict=True):
        image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
        if image is None:
            continue
        for signal in signals_of_page(image, number):
            if signal.name not in best or signal.score > best[signal.name].score:
                best[signal.name] = signal
    return [best[name] for name in ("screen", "print", "edited") if name in best]
