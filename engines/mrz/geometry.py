"""Where MRZ lines sit on the page: line geometry, crops, and character boxes.

A text line is described by its centre line (left point, right point) and its height, which
survives small rotations and perspective better than axis-aligned boxes. MRZ lines of one zone
share their left edge and (being equally many fixed-pitch characters long) their width, so a line
the detector cut short can be extended to its neighbours' extent, and a line it missed can be
placed one line pitch away from a line it found.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class LineGeom:
    """A text line: centre-line end points ``left`` and ``right`` (page pixels) and its height."""

    left: np.ndarray
    right: np.ndarray
    height: float

    @classmethod
    def from_quad(cls, quad: np.ndarray) -> LineGeom:
        tl, tr, br, bl = (np.asarray(p, dtype=np.float64) for p in quad)
        height = (np.linalg.norm(bl - tl) + np.linalg.norm(br - tr)) / 2
        return cls(left=(tl + bl) / 2, right=(tr + br) / 2, height=float(height))

    @property
    def width(self) -> float:
        return float(np.linalg.norm(self.right - self.left))

    @property
    def centre(self) -> np.ndarray:
        return (self.left + self.right) / 2

    @property
    def direction(self) -> np.ndarray:
        d = self.right - self.left
        return d / max(float(np.linalg.norm(d)), 1e-6)

    @property
    def normal(self) -> np.ndarray:
        """Unit vector perpendicular to the line, pointing down the page."""
        u = self.direction
        return np.array([-u[1], u[0]])

    def quad(self) -> np.ndarray:
        """Corners clockwise from top-left."""
        off = self.normal * self.height / 2
        return np.array(
            [self.left - off, self.right - off, self.right + off, self.left + off], dtype=np.float32
        )

    def padded(self, pad: float) -> LineGeom:
        """The line lengthened at both ends by ``pad`` times its height."""
        off = self.direction * self.height * pad
        return LineGeom(self.left - off, self.right + off, self.height)

    def shifted(self, distance: float) -> LineGeom:
        """The same line moved ``distance`` pixels down the page (negative: up)."""
        off = self.normal * distance
        return LineGeom(self.left + off, self.right + off, self.height)

    def extended(self, left_s: float, right_s: float, origin: np.ndarray, direction: np.ndarray) -> LineGeom:
        """This line stretched to span ``left_s..right_s`` along ``direction`` from ``origin``."""
        c = self.centre
        s = float(np.dot(c - origin, direction))
        return LineGeom(c + (left_s - s) * direction, c + (right_s - s) * direction, self.height)


def crop_line(
    image: np.ndarray,
    line: LineGeom,
    *,
    out_height: int = 48,
    pad: float = 0.0,
    grow: float = 1.0,
    stretch: float = 1.0,
) -> np.ndarray:
    """The line's pixels, straightened and scaled to ``out_height``.

    ``pad`` widens the crop on both ends by that fraction of the line height; ``grow`` multiplies
    its height (the recogniser wants some margin above and below the characters); ``stretch``
    scales the width beyond the aspect ratio (narrow fonts read better widened).
    """
    padded = line.padded(pad)
    grown = LineGeom(padded.left, padded.right, line.height * grow)
    src = grown.quad()
    scale = out_height / max(grown.height, 1.0)
    out_w = max(round(grown.width * scale * stretch), out_height)
    dst = np.array([[0, 0], [out_w, 0], [out_w, out_height], [0, out_height]], dtype=np.float32)
    matrix = cv2.getPerspectiveTransform(src, dst)
    interp = cv2.INTER_CUBIC if scale > 1 else cv2.INTER_AREA
    return cv2.warpPerspective(
        image, matrix, (out_w, out_height), flags=interp, borderMode=cv2.BORDER_REPLICATE
    )


def char_quad(line: LineGeom, start: float, end: float) -> np.ndarray:
    """The quad of the part of ``line`` between fractions ``start`` and ``end`` of its length."""
    a = line.left + (line.right - line.left) * start
    b = line.left + (line.right - line.left) * end
    return LineGeom(a, b, line.height).quad()


def bbox_fraction(quads: list[np.ndarray], width: int, height: int) -> tuple[float, float, float, float]:
    """Axis-aligned box around quads, as fractions of the page, clamped to 0..1."""
    pts = np.vstack(quads)
    x0, y0 = pts.min(axis=0)
    x1, y1 = pts.max(axis=0)

    def clamp(v: float) -> float:
        return round(min(max(v, 0.0), 1.0), 4)

    return clamp(x0 / width), clamp(y0 / height), clamp(x1 / width), clamp(y1 / height)
