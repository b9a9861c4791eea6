"""The plots of an evaluation, drawn with Pillow (no plotting stack to install).

The reliability diagram: bars show, per confidence bin, how often the fields in it were right; the
diagonal is perfect calibration; the bar's width is fixed and its count is printed above it, so a
bin with three fields is not mistaken for evidence.

The coverage-accuracy plot: per set, the share of documents entirely right among those whose
document confidence reaches a threshold, against the share of the set that threshold covers, and a
ring where the real decision operates (its automation rate and the precision of what it approved).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from apps.extraction.accuracy_record import SetAccuracy

_SIZE = 640
_MARGIN = 70


def draw_reliability(bins: list[tuple[float, float, int]], *, title: str, path: Path) -> None:
    """Write a PNG of (mean confidence, accuracy, count) per equal-width bin to ``path``."""
    image = Image.new("RGB", (_SIZE, _SIZE), "white")
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default()
    plot = _SIZE - 2 * _MARGIN

    def xy(x: float, y: float) -> tuple[float, float]:
        return _MARGIN + x * plot, _SIZE - _MARGIN - y * plot

    draw.rectangle([xy(0, 1), xy(1, 0)], outline="black")
    draw.line([xy(0, 0), xy(1, 1)], fill=(150, 150, 150), width=2)
    width = 1 / len(bins)
    for i, (confidence, accuracy, count) in enumerate(bins):
        if not count:
            continue
        left, right = i * width, (i + 1) * width
        draw.rectangle([xy(left + 0.01, accuracy), xy(right - 0.01, 0)], fill=(70, 110, 200), outline="black")
        draw.ellipse(
            [
                xy(confidence, confidence)[0] - 3,
                xy(0, confidence)[1] - 3,
                xy(confidence, confidence)[0] + 3,
                xy(0, confidence)[1] + 3,
            ],
            fill=(220, 60, 40),
        )
        draw.text(xy(left + 0.02, min(accuracy + 0.05, 1.0)), str(count), fill="black", font=font)
    for tick in range(0, 11, 2):
        value = tick / 10
        draw.text((xy(value, 0)[0] - 8, _SIZE - _MARGIN + 8), f"{value:.1f}", fill="black", font=font)
        draw.text((_MARGIN - 30, xy(0, value)[1] - 6), f"{value:.1f}", fill="black", font=font)
    draw.text((_MARGIN, 20), title, fill="black", font=font)
    draw.text(
        (_SIZE // 2 - 150, _SIZE - 30),
        "mean confidence of the bin (red dots at its accuracy)",
        fill="black",
        font=font,
    )
    draw.text((8, _MARGIN - 30), "accuracy (bars)", fill="black", font=font)
    path.parent.mkdir(parents=True, exist_ok=True)
    image.save(path)


# Distinguishable on white and in grey print (Okabe-Ito), one per set.
_COLOURS = [
    (0, 114, 178),
    (213, 94, 0),
    (0, 158, 115),
    (204, 121, 167),
    (230, 159, 0),
    (86, 180, 233),
    (120, 120, 120),
    (0, 0, 0),
]


def draw_coverage_accuracy(sets: Sequence[SetAccuracy], *, title: str, path: Path) -> None:
    """Write a PNG of each set's coverage-accuracy curve and the decision's operating point.

    The accuracy axis starts at the nearest tenth below the lowest accuracy drawn (0.5 at most), so
    curves near 1 stay apart; its lower bound is printed like every other tick.
    """
    width, height, margin, legend = 960, 640, 70, 330
    plot_w, plot_h = width - legend - 2 * margin, height - 2 * margin
    image = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default()
    drawn = [s for s in sets if s.coverage_curve]
    accuracies = [p.accuracy for s in drawn for p in s.coverage_curve]
    accuracies += [s.auto_approved_precision for s in drawn if s.auto_approved]
    low = min(0.5, math.floor(min(accuracies, default=1.0) * 10) / 10)

    def xy(coverage: float, accuracy: float) -> tuple[float, float]:
        return margin + coverage * plot_w, height - margin - (accuracy - low) / (1 - low) * plot_h

    for tick in range(11):
        x = tick / 10
        draw.line([xy(x, low), xy(x, 1)], fill=(232, 232, 232))
        draw.text((xy(x, low)[0] - 8, height - margin + 8), f"{x:.1f}", fill="black", font=font)
    steps = round((1 - low) * 10)
    for tick in range(steps + 1):
        y = low + tick / 10
        draw.line([xy(0, y), xy(1, y)], fill=(232, 232, 232))
        draw.text((margin - 30, xy(0, y)[1] - 6), f"{y:.1f}", fill="black", font=font)
    draw.rectangle([xy(0, 1), xy(1, low)], outline="black")
    for index, s in enumerate(drawn):
        colour = _COLOURS[index % len(_COLOURS)]
        points = [xy(p.coverage, p.accuracy) for p in s.coverage_curve]
        if len(points) > 1:
            draw.line(points, fill=colour, width=2)
        for x, y in points:
            draw.ellipse([x - 2, y - 2, x + 2, y + 2], fill=colour)
        if s.auto_approved:
            x, y = xy(s.straight_through_rate, s.auto_approved_precision)
            draw.ellipse([x - 6, y - 6, x + 6, y + 6], outline=colour, width=3)
        top = margin + index * 44
        left = width - legend + 10
        draw.line([(left, top + 6), (left + 24, top + 6)], fill=colour, width=3)
        draw.text((left + 32, top), s.name, fill="black", font=font)
        draw.text(
            (left + 32, top + 14),
            f"decision: {s.auto_approved}/{s.documents} auto-approved, "
            f"{s.auto_approved_all_right} entirely right",
            fill="black",
            font=font,
        )
    draw.text((margin, 12), title, fill="black", font=font)
    draw.text(
        (margin + plot_w // 2 - 200, height - 30),
        "coverage: share of documents whose document confidence reaches the threshold",
        fill="black",
        font=font,
    )
    draw.text(
        (8, margin - 24),
        "share of those entirely right (rings: the decision's operating point)",
        fill="black",
        font=font,
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    image.save(path)
