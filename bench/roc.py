"""The one ROC measure the authenticity benchmarks and their regression tests share."""

from __future__ import annotations


def auc(positives: list[float], negatives: list[float]) -> float:
    """The probability a random attack scores above a random clean page, ties counting half (the
    Mann-Whitney statistic: the area under the ROC curve); NaN when either side is empty."""
    if not positives or not negatives:
        return float("nan")
    wins = sum((p > n) + 0.5 * (p == n) for p in positives for n in negatives)
    return wins / (len(positives) * len(negatives))
