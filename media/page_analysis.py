"""One page image, converted once, shared by the capture gate and the authenticity signals.

Issue 49: the gate (``media.capture_quality``) and the advisory signals (``media.authenticity``,
``media.copy_move``, ``media.field_glyphs``) each used to decode the page, convert it to grey
and take their own copies; on a 1600-pixel photo that alone cost more than decoding. A
:class:`PageAnalysis` holds the page as decoded (BGR, or grey) and computes what several of
them use, once and only when first asked for: the grey page, the gate's working copy (at most
``WORK_SIDE`` a side) and its grey-level histogram, and the centre crop the spectral signals
read. Every measure still accepts a plain array (an analysis is made for it): callers that hold
one pass it along, the others need not know it exists.

The grey-level histogram gives exact percentiles of a uint8 image (the same values as
``numpy.percentile``'s linear interpolation) in a pass over 256 bins instead of a sort of the page.
"""

from __future__ import annotations

from functools import cached_property

import cv2
import numpy as np

# The gate's working copy's longest side (media.capture_quality measures on it).
WORK_SIDE = 1600
# The spectral signals' centre crop's side (media.authenticity: screen and print).
CROP = 512


class PageAnalysis:
    """A BGR or grey uint8 page and what is computed from it, each once (see the module)."""

    def __init__(self, image: np.ndarray) -> None:
        if image.dtype != np.uint8 or image.ndim not in (2, 3):
            raise ValueError("a page is a BGR or grey uint8 array")
        self.image = image

    @classmethod
    def of(cls, image: np.ndarray, analysis: PageAnalysis | None = None) -> PageAnalysis:
        """``analysis`` when it is the analysis of ``image``, else a new one."""
        if analysis is not None and analysis.image is image:
            return analysis
        return cls(image)

    @property
    def bgr(self) -> np.ndarray:
        """The page in colour (a grey page as three equal channels)."""
        if self.image.ndim == 3:
            return self.image
        return self._bgr_of_gray

    @cached_property
    def _bgr_of_gray(self) -> np.ndarray:
        return cv2.cvtColor(self.image, cv2.COLOR_GRAY2BGR)

    @cached_property
    def gray(self) -> np.ndarray:
        if self.image.ndim == 2:
            return self.image
        return cv2.cvtColor(self.image, cv2.COLOR_BGR2GRAY)

    @cached_property
    def work_scale(self) -> float:
        """The working copy's size over the page's (1 for a page within ``WORK_SIDE``)."""
        return min(1.0, WORK_SIDE / max(self.gray.shape))

    @cached_property
    def work(self) -> np.ndarray:
        """The grey page fitted within ``WORK_SIDE`` pixels a side (area-averaged)."""
        scale = self.work_scale
        if scale == 1.0:
            return self.gray
        return cv2.resize(self.gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)

    @cached_property
    def work_histogram(self) -> np.ndarray:
        return histogram(self.work)

    @cached_property
    def centre_crop(self) -> np.ndarray:
        """The page's centre square, ``CROP`` pixels a side at most (BGR)."""
        image = self.bgr
        h, w = image.shape[:2]
        side = min(CROP, h, w)
        top, left = (h - side) // 2, (w - side) // 2
        return image[top : top + side, left : left + side]


def histogram(gray: np.ndarray, mask: np.ndarray | None = None) -> np.ndarray:
    """The counts of each grey level (256) of a uint8 image, over ``mask`` (nonzero) if given."""
    counts = cv2.calcHist([gray], [0], None if mask is None else mask.astype(np.uint8), [256], [0, 256])
    return counts.ravel().astype(np.int64)


def percentiles(counts: np.ndarray, q: float | tuple[float, ...]) -> np.ndarray:
    """``numpy.percentile`` (linear interpolation) of the grey levels counted in ``counts``."""
    qs = np.atleast_1d(np.asarray(q, np.float64))
    total = int(counts.sum())
    if total == 0:
        raise ValueError("no pixels to take a percentile of")
    cumulative = np.cumsum(counts)
    rank = qs / 100.0 * (total - 1)
    low = np.floor(rank).astype(np.int64)
    high = np.minimum(low + 1, total - 1)
    # the grey level of the k-th smallest pixel: the first level whose cumulative count passes k
    below = np.searchsorted(cumulative, low, side="right").astype(np.float64)
    above = np.searchsorted(cumulative, high, side="right").astype(np.float64)
    return below + (rank - low) * (above - below)
