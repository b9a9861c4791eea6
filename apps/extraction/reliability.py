"""The reliability diagram of an evaluation, drawn with Pillow (no plotting stack to install).

Bars show, per confidence bin, how often the fields in it were right; the diagonal is perfect
calibration; the bar's width is fixed and its count is printed above it, so a bin with three
fields is not mistaken for evidence.
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

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
