"""Does a document's layout resemble those the calibration was fitted on?

A calibrated score is a probability only where the maps saw documents like this one: on a layout
from elsewhere a reader can take a heading for a name at 0.999. So the calibration keeps, per
document type, the layout fingerprints of the documents it was fitted on, and the distance within
which a new document counts as familiar (``familiar_layout`` evidence, engines/spec/evidence.toml).

A fingerprint is where the type's fields were found: for each field of the type, whether it was
found and the centre of its box on the page, plus how many pages and whether the text came from a
text layer. Documents of one template put their fields in the same places, whatever the values;
two templates rarely do. The radius is fitted, not chosen: the distance from each fitted document
to its nearest other fitted document, at a high quantile (``RADIUS_QUANTILE``), so a document is
familiar when it is as close to the fitted ones as they are to each other.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from engines.spec import CATALOGUE
from engines.types import EngineResult

# Fingerprints kept per type: enough to cover a handful of templates, few enough to ship.
MAX_POINTS = 240
RADIUS_QUANTILE = 0.9
MIN_POINTS = 8  # fewer fitted documents of a type and none of its layouts is familiar


def fingerprint(result: EngineResult) -> tuple[float, ...] | None:
    """The layout fingerprint of a read document, or None for a type outside §3.2."""
    spec = CATALOGUE.types.get(result.document_type)
    if spec is None or not spec.fields:
        return None
    values: list[float] = []
    for name in spec.fields:
        found = result.fields.get(name)
        if found is None or found.value is None or found.bbox is None:
            values.extend((0.0, 0.5, 0.5))
            continue
        x0, y0, x1, y1 = found.bbox
        # a field on a later page sits below the first page's
        values.extend((1.0, (x0 + x1) / 2, min(1.0, ((y0 + y1) / 2 + found.page - 1) / 2)))
    sources = [f.source for f in result.fields.values() if f.value is not None]
    values.append(sum(s == "text_layer" for s in sources) / len(sources) if sources else 0.0)
    values.append(min(1.0, math.log2(max(result.pages, 1)) / 4))
    return tuple(values)


@dataclass(frozen=True)
class LayoutMemory:
    """The fitted fingerprints of one document type, and the radius of familiarity."""

    points: tuple[tuple[float, ...], ...]
    radius: float
    fitted: int  # documents of the type it was fitted on (points may be a subsample)

    def distance(self, point: Sequence[float]) -> float:
        if not self.points or len(point) != len(self.points[0]):
            return math.inf
        found = np.asarray(self.points, dtype=np.float64) - np.asarray(point, dtype=np.float64)
        return float(np.sqrt((found * found).mean(axis=1)).min())

    def familiar(self, point: Sequence[float]) -> bool:
        return len(self.points) >= MIN_POINTS and self.distance(point) <= self.radius

    def to_json(self) -> dict[str, Any]:
        return {
            "points": [[round(v, 3) for v in p] for p in self.points],
            "radius": round(self.radius, 4),
            "fitted": self.fitted,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> LayoutMemory:
        return cls(
            tuple(tuple(float(v) for v in p) for p in data["points"]),
            float(data["radius"]),
            int(data["fitted"]),
        )


def fit_layouts(results: Iterable[EngineResult]) -> dict[str, LayoutMemory]:
    """One memory per document type from the documents read (as the engine typed them)."""
    by_type: dict[str, list[tuple[float, ...]]] = {}
    for result in results:
        point = fingerprint(result)
        if point is not None:
            by_type.setdefault(result.document_type, []).append(point)
    out = {}
    for document_type, points in sorted(by_type.items()):
        unique = sorted(set(points))
        if len(unique) < MIN_POINTS:
            continue
        array = np.asarray(unique, dtype=np.float64)
        nearest = []
        for i in range(len(array)):
            diff = np.delete(array, i, axis=0) - array[i]
            nearest.append(float(np.sqrt((diff * diff).mean(axis=1)).min()))
        radius = float(np.quantile(nearest, RADIUS_QUANTILE))
        step = max(1, math.ceil(len(unique) / MAX_POINTS))
        out[document_type] = LayoutMemory(tuple(unique[::step]), radius, len(points))
    return out
