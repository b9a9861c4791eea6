"""Turning the engine's raw field confidences into calibrated probabilities.

A raw OCR score is not a probability that a value is exactly right. A field whose MRZ check
digit fails is wrong far more often than its OCR score suggests, and one whose check digit
passes is right far more often. Until issue 3 fits isotonic maps on labelled data, the map is a
small monotone table per evidence class, versioned so stored confidences say which map made them.
"""

from __future__ import annotations

from bisect import bisect_right

CALIBRATION_VERSION = "mrz-table-1"

# (raw confidence knots, calibrated values) per evidence class; linear between knots.
_TABLES: dict[str, tuple[tuple[float, ...], tuple[float, ...]]] = {
    # A check digit covers the value and passed: substitution errors are caught with p≈0.9.
    "verified": ((0.0, 0.5, 0.8, 0.95, 1.0), (0.55, 0.8, 0.93, 0.98, 0.99)),
    # A check digit covers the value and failed: the value is probably wrong.
    "failed": ((0.0, 1.0), (0.02, 0.25)),
    # No check digit covers the value (names, countries): only the OCR score speaks.
    "unverified": ((0.0, 0.5, 0.8, 0.95, 1.0), (0.05, 0.35, 0.7, 0.9, 0.95)),
}


def _interpolate(knots: tuple[float, ...], values: tuple[float, ...], x: float) -> float:
    x = min(max(x, knots[0]), knots[-1])
    index = min(bisect_right(knots, x), len(knots) - 1)
    x0, x1 = knots[index - 1], knots[index]
    y0, y1 = values[index - 1], values[index]
    return y0 if x1 == x0 else y0 + (y1 - y0) * (x - x0) / (x1 - x0)


def calibrate(*, raw_confidence: float, valid: bool | None) -> float:
    evidence = "verified" if valid is True else "failed" if valid is False else "unverified"
    knots, values = _TABLES[evidence]
    return round(_interpolate(knots, values, raw_confidence), 4)
