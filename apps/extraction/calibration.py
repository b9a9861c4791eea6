"""Turning the engine's raw field confidences into calibrated probabilities.

A raw OCR score is not the probability that a value is exactly right: a name read at 0.95 is
wrong more often than a date read at 0.95 whose check digit passed. So the calibration is a set of
monotone maps (isotonic regression, fitted by pool-adjacent-violators), one per *evidence class*:
the document type and field (a receipt's merchant is harder than a statement's IBAN), the field's
source (mrz, barcode, ocr, text_layer), its family (name, date, number, amount, code, address)
and whether a validator or cross-check passed, failed, did not apply, or no value was found. A
class with too few labelled examples falls back to a coarser one (source and family, then source,
then validity alone), then to the raw score.

The document type's confidence gets the same treatment, one map per type the engine named: a
classifier's softmax at 0.7 may be right 99 times in 100 for passports and 80 for receipts.
A tenant's own type is keyed with its tenant (:func:`calibration_type`): no tenant's labels
calibrate another's type of the same name.

The maps are a versioned artefact (``artefacts/calibration.json``), fitted on generated documents
by ``manage.py calibrate`` and refitted on operators' corrections; each stored confidence records
the version that made it, so old results can be told apart after a refit.
"""

from __future__ import annotations

import datetime as dt
import functools
import json
import logging
from bisect import bisect_right
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from apps.extraction.layouts import LayoutMemory, fingerprint
from engines import ENGINE_VERSION
from engines.spec import DOCUMENT_TYPES, field_family
from engines.types import EngineResult

logger = logging.getLogger(__name__)

ARTEFACT_PATH = Path(__file__).resolve().parent / "artefacts" / "calibration.json"
MIN_EXAMPLES = 25  # fewer labelled examples than this and a class borrows its parent's map
SUPPORT_EXAMPLES = 5  # a map speaks only for raw scores with at least this many examples at or below
_PRIOR_WEIGHT = 2.0  # pseudo-examples pulling each pooled block towards the class's mean
_FLOOR, _CEILING = 0.001, 0.999
_INVALID_CAP = 0.25


@dataclass(frozen=True)
class Example:
    """One labelled field: the engine's evidence and whether its value was exactly right."""

    source: str
    name: str
    valid: bool | None
    raw_confidence: float
    correct: bool
    present: bool = True  # False: the engine found no value (right when the document has none)
    document_type: str = ""  # as the engine read it; "" where unknown (only coarser classes fit)
    # did the field's evidence suffice for an approval (engines.evidence.sufficient)? None: unknown
    supported: bool | None = None


@dataclass(frozen=True)
class TypeExample:
    """One classified document: the type the engine named, its raw confidence, and whether right."""

    document_type: str
    raw_confidence: float
    correct: bool


@dataclass(frozen=True)
class MonotoneMap:
    knots: tuple[float, ...]
    values: tuple[float, ...]
    examples: int
    # the raw score below which the map saw fewer than SUPPORT_EXAMPLES examples (None in
    # artefacts fitted before it was kept)
    support: float | None = None

    def covers(self, x: float) -> bool:
        """Did the map see enough examples at or below raw score ``x`` to speak for it? A class
        whose examples were all right (99 receipts the classifier named, all but a handful at 0.9
        and up) says nothing of a reading at 0.47, though pooling makes its map say 1.0 there."""
        return self.support is None or x >= self.support

    def __call__(self, x: float) -> float:
        if len(self.knots) == 1:
            return self.values[0]
        x = min(max(x, self.knots[0]), self.knots[-1])
        index = min(max(bisect_right(self.knots, x), 1), len(self.knots) - 1)
        x0, x1 = self.knots[index - 1], self.knots[index]
        y0, y1 = self.values[index - 1], self.values[index]
        return y0 if x1 == x0 else y0 + (y1 - y0) * (x - x0) / (x1 - x0)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "knots": list(self.knots),
            "values": list(self.values),
            "examples": self.examples,
        }
        if self.support is not None:
            data["support"] = self.support
        return data


@dataclass(frozen=True)
class Calibration:
    version: str
    maps: dict[str, MonotoneMap]
    # the engine version whose readings the maps were fitted on ("" where unknown): a map fitted
    # on one engine's confidences says little of another's, so a new engine version is refitted
    engine_version: str = ""
    # per document type: the layouts the maps were fitted on (``familiar_layout`` evidence)
    layouts: dict[str, LayoutMemory] = field(default_factory=dict)
    # per document type: the least calibrated confidence a field needs for an auto-approval,
    # chosen on documents the maps were not fitted on at ``target_precision`` (apps.extraction.thresholds)
    thresholds: dict[str, float] = field(default_factory=dict)
    target_precision: float | None = None
    # what the artefact was fitted on: one entry per set (path, documents, part used)
    fitted_on: tuple[dict[str, Any], ...] = ()

    def familiar(self, result: EngineResult) -> bool:
        """Is the document's layout within the fitted distance of those the maps were fitted on?"""
        memory = self.layouts.get(result.document_type)
        point = fingerprint(result)
        return memory is not None and point is not None and memory.familiar(point)

    def threshold(self, document_type: str, default: float) -> float:
        """The auto-approval threshold of a type: the one chosen for it, never below ``default``."""
        return max(default, self.thresholds.get(document_type, default))

    def calibrate(
        self,
        *,
        source: str,
        name: str,
        valid: bool | None,
        raw_confidence: float,
        present: bool = True,
        document_type: str = "",
        supported: bool | None = None,
    ) -> float:
        """The probability that the value (or, when ``present`` is False, the absence of one) is
        right, from the most specific map that covers the raw score (a coarser class answers where
        a specific one saw too few examples that low)."""
        # below a map's support, no more than it claims where its support begins: the answer
        # stays monotone in the raw score across the classes it passes through
        # A failed check digit or checksum claims little whatever a map says: where the labelled
        # data held enough failed validations to fit one, most were a misread check digit beside
        # a right value, and a map would promise that of the next, where it is the value misread.
        # Nor does it claim more than the engine's own score: a failed check never raises one.
        ceiling = min(_INVALID_CAP, max(raw_confidence, 0.0)) if valid is False else 1.0
        for key in _keys(source, name, valid, present, document_type, supported):
            found = self.maps.get(key)
            if found is None:
                continue
            if found.covers(raw_confidence):
                return round(min(max(min(found(raw_confidence), ceiling), _FLOOR), _CEILING), 4)
            ceiling = min(ceiling, found(found.support or 0.0))
        return round(min(max(raw_confidence, 0.0), ceiling), 4)

    def fitted_for(
        self,
        *,
        source: str,
        name: str,
        valid: bool | None,
        raw_confidence: float,
        present: bool = True,
        document_type: str = "",
        supported: bool | None = None,
    ) -> bool:
        """Was a map fitted on labelled values *of this source* that speaks for this raw score?
        The pooled ``*|*|…`` classes do not count: they are other sources' evidence."""
        for key in _keys(source, name, valid, present, document_type, supported):
            found = self.maps.get(key)
            if not key.startswith("*|") and found is not None and found.covers(raw_confidence):
                return True
        return False

    def calibrate_type(self, *, document_type: str, raw_confidence: float) -> float:
        """The probability that the document is of ``document_type``, as the engine said (the raw
        score itself where the type's map saw too few examples that low)."""
        found = self.maps.get(_type_key(document_type))
        if found is None:
            value = raw_confidence
        elif found.covers(raw_confidence):
            value = found(raw_confidence)
        else:
            value = min(raw_confidence, found(found.support or 0.0))
        return round(min(max(value, _FLOOR), _CEILING), 4)

    def to_json(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "engine_version": self.engine_version,
            "fitted_on": list(self.fitted_on),
            "target_precision": self.target_precision,
            "thresholds": dict(sorted(self.thresholds.items())),
            "layouts": {k: m.to_json() for k, m in sorted(self.layouts.items())},
            "maps": {k: m.to_json() for k, m in sorted(self.maps.items())},
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Calibration:
        maps = {
            key: MonotoneMap(tuple(m["knots"]), tuple(m["values"]), int(m["examples"]), m.get("support"))
            for key, m in data["maps"].items()
        }
        return cls(
            version=str(data["version"]),
            maps=maps,
            engine_version=str(data.get("engine_version", "")),
            layouts={k: LayoutMemory.from_json(v) for k, v in data.get("layouts", {}).items()},
            thresholds={k: float(v) for k, v in data.get("thresholds", {}).items()},
            target_precision=data.get("target_precision"),
            fitted_on=tuple(data.get("fitted_on", ())),
        )


IDENTITY = Calibration(version="identity", maps={})


def _validity(valid: bool | None, present: bool) -> str:
    if not present:
        return "absent"
    return "valid" if valid is True else "invalid" if valid is False else "unchecked"


def _keys(
    source: str,
    name: str,
    valid: bool | None,
    present: bool = True,
    document_type: str = "",
    supported: bool | None = None,
) -> tuple[str, ...]:
    """The evidence classes of a field, most specific first. Where it is known whether the field's
    evidence suffices (``supported``), each class is first split by it: a value at its label on a
    text layer and one nothing but its score supports are right at different rates at one score,
    most of all on layouts the maps never saw."""
    validity = _validity(valid, present)
    coarse = (f"{source}|{field_family(name)}|{validity}", f"{source}|*|{validity}", f"*|*|{validity}")
    plain = (f"{document_type}.{name}|{source}|{validity}", *coarse) if document_type else coarse
    if supported is None:
        return plain
    mark = "|supported" if supported else "|unsupported"
    # the split first where it is specific (the field, then its source and family); the pooled
    # classes below would mix sources whose support means different things
    split = tuple(key + mark for key in plain[:-2])
    return (*split, *plain)


def _type_key(document_type: str) -> str:
    return f"type|{document_type}"


def calibration_type(document_type: str, *, tenant_id: object = None) -> str:
    """The document type as the maps name it. A §3.2 type is every tenant's: its name alone, as
    the shipped artefact keys it. A tenant's own type is that tenant's alone — two tenants'
    ``payslip`` are different documents read against different schemas — so its maps are keyed
    ``payslip@<tenant id>`` (``payslip@<id>.net_pay|model|valid``, ``type|payslip@<id>``)."""
    if not document_type or document_type in DOCUMENT_TYPES or tenant_id is None:
        return document_type
    return f"{document_type}@{tenant_id}"


def isotonic(points: Iterable[tuple[float, bool]]) -> MonotoneMap:
    """Pool-adjacent-violators on (raw confidence, correct), each pooled block shrunk a little
    towards the overall rate so a block of three examples cannot claim certainty."""
    by_x: dict[float, list[float]] = defaultdict(lambda: [0.0, 0.0])  # raw score -> [right, count]
    for x, y in points:
        by_x[round(float(x), 5)][0] += 1.0 if y else 0.0
        by_x[round(float(x), 5)][1] += 1.0
    if not by_x:
        raise ValueError("no examples to fit")
    total = sum(count for _, count in by_x.values())
    prior = sum(right for right, _ in by_x.values()) / total
    # examples with the same raw score form one starting block: a map is a function of the score
    blocks: list[list[float]] = []  # [sum of y, count, sum of x]
    for x in sorted(by_x):
        right, count = by_x[x]
        blocks.append([right, count, x * count])
        while len(blocks) > 1 and blocks[-2][0] / blocks[-2][1] >= blocks[-1][0] / blocks[-1][1]:
            y_sum, count, x_sum = blocks.pop()
            blocks[-1][0] += y_sum
            blocks[-1][1] += count
            blocks[-1][2] += x_sum
    knots, values = [], []
    for y_sum, count, x_sum in blocks:
        knots.append(round(x_sum / count, 5))
        values.append(round((y_sum + _PRIOR_WEIGHT * prior) / (count + _PRIOR_WEIGHT), 5))
    # shrinking can break monotonicity between neighbours of very different sizes: restore it
    for i in range(1, len(values)):
        values[i] = max(values[i], values[i - 1])
    return MonotoneMap(tuple(knots), tuple(values), int(total), _support(by_x))


def _support(by_x: dict[float, list[float]]) -> float:
    """The lowest raw score with at least SUPPORT_EXAMPLES examples at or below it."""
    seen = 0.0
    for x in sorted(by_x):
        seen += by_x[x][1]
        if seen >= SUPPORT_EXAMPLES:
            return x
    return max(by_x)


def fit(
    examples: Iterable[Example],
    *,
    version: str | None = None,
    types: Iterable[TypeExample] = (),
    engine_version: str = "",
) -> Calibration:
    """One map per evidence class with at least MIN_EXAMPLES examples, at every level of detail
    but one: failed validations are never pooled across sources (a check digit's failure and a
    totals' arithmetic that did not add up say different things), so a source with too few of
    them keeps the low cap of :meth:`Calibration.calibrate`. And one map per document type for
    the type's confidence."""
    by_key: dict[str, list[tuple[float, bool]]] = defaultdict(list)
    for typed in types:
        by_key[_type_key(typed.document_type)].append((typed.raw_confidence, typed.correct))
    for example in examples:
        keys = _keys(
            example.source,
            example.name,
            example.valid,
            example.present,
            example.document_type,
            example.supported,
        )
        for key in keys:
            by_key[key].append((example.raw_confidence, example.correct))
    for mark in ("", "|supported", "|unsupported"):
        by_key.pop(f"*|*|{_validity(False, True)}{mark}", None)
    maps = {key: isotonic(points) for key, points in by_key.items() if len(points) >= MIN_EXAMPLES}
    return Calibration(
        version=version or f"isotonic-{dt.date.today().isoformat()}", maps=maps, engine_version=engine_version
    )


def save(calibration: Calibration, path: Path = ARTEFACT_PATH) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(calibration.to_json(), indent=1, sort_keys=True) + "\n")


def load(path: Path) -> Calibration:
    return Calibration.from_json(json.loads(path.read_text()))


@functools.cache
def current() -> Calibration:
    """The shipped artefact, or raw scores unchanged when none has been fitted yet. One fitted on
    another engine version's readings is used, and said so once: `make refit` fits it anew."""
    if not ARTEFACT_PATH.exists():
        return IDENTITY
    shipped = load(ARTEFACT_PATH)
    if shipped.engine_version != ENGINE_VERSION:
        logger.warning(
            "Calibration %s was fitted on engine %s; this is engine %s (make refit)",
            shipped.version,
            shipped.engine_version or "unknown",
            ENGINE_VERSION,
        )
    return shipped
