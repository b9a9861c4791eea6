"""The accuracy record: what ``manage.py evaluate --record`` writes and ``bench/accuracy_table.py`` reads.

Accuracy used to live in the README as prose copied by hand from a terminal, so a figure could not
be traced back to the engine, calibration, machine and documents that produced it, and every new
engine added another paragraph. A record is one JSON document per run
(``bench/results/accuracy-<engine version>.json``) holding every figure ``evaluate`` prints, for
each evaluation set and pooled over them; the README shows the table rendered from the latest one
and the older records stay comparable beside it.

Everything is kept as counts (right out of total) so that a rate is never rounded twice and sets
can be compared or pooled again later; the rates written beside the counts are for people reading
the JSON and are recomputed, not trusted, when a record is read back. This module imports nothing
from Django: the renderer runs without settings or a database.
"""

from __future__ import annotations

import bisect
import datetime as dt
import json
import os
import platform
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

RECORD_FORMAT = 1  # bump when a key changes meaning, so old records are not misread


def _rate(right: int, total: int) -> float:
    return right / total if total else 0.0


@dataclass(frozen=True)
class Tally:
    """Right out of total: counts, not a rate, so a set of 3 and a set of 3,000 are never confused."""

    right: int
    total: int

    @property
    def rate(self) -> float:
        return _rate(self.right, self.total)

    def to_dict(self) -> dict[str, Any]:
        return {"right": self.right, "total": self.total, "rate": round(self.rate, 4)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Tally:
        return cls(right=int(data["right"]), total=int(data["total"]))


@dataclass(frozen=True)
class FieldAccuracy:
    """Exact-match accuracy of one field of one (true) document type."""

    document_type: str
    field: str
    values: Tally

    def to_dict(self) -> dict[str, Any]:
        return {"document_type": self.document_type, "field": self.field, **self.values.to_dict()}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> FieldAccuracy:
        return cls(str(data["document_type"]), str(data["field"]), Tally.from_dict(data))


@dataclass(frozen=True)
class TypeAccuracy:
    """One true document type: how many there were, how many were classified as it, their fields."""

    document_type: str
    classified: Tally  # documents of this type read as this type, out of the documents of this type
    fields: Tally

    @property
    def documents(self) -> int:
        return self.classified.total

    def to_dict(self) -> dict[str, Any]:
        return {
            "document_type": self.document_type,
            "documents": self.documents,
            "classified": self.classified.to_dict(),
            "fields": self.fields.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TypeAccuracy:
        return cls(
            str(data["document_type"]), Tally.from_dict(data["classified"]), Tally.from_dict(data["fields"])
        )


@dataclass(frozen=True)
class ReliabilityBin:
    """One equal-width bin of the reliability diagram (calibrated confidence against accuracy)."""

    low: float
    high: float
    mean_confidence: float | None  # None for an empty bin: no confidence fell there
    accuracy: float | None
    fields: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "low": round(self.low, 4),
            "high": round(self.high, 4),
            "mean_confidence": _round(self.mean_confidence),
            "accuracy": _round(self.accuracy),
            "fields": self.fields,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ReliabilityBin:
        return cls(
            float(data["low"]),
            float(data["high"]),
            _float(data["mean_confidence"]),
            _float(data["accuracy"]),
            int(data["fields"]),
        )


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def _float(value: Any) -> float | None:
    return None if value is None else float(value)


@dataclass(frozen=True)
class TypeConfusion:
    """Documents of one true type that the engine classified as another."""

    truth: str
    read_as: str
    documents: int

    def to_dict(self) -> dict[str, Any]:
        return {"truth": self.truth, "read_as": self.read_as, "documents": self.documents}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TypeConfusion:
        return cls(str(data["truth"]), str(data["read_as"]), int(data["documents"]))


@dataclass(frozen=True)
class DocumentOutcome:
    """One scored document as selective prediction sees it (kept in the report, not in the record)."""

    file: str
    confidence: float  # the document confidence (evaluation.document_confidence); 0 when the read failed
    auto_approved: bool  # what the real decision (result_assess(...).decision) did with it
    all_right: bool  # type and every labelled field right


# Thresholds are compared at the precision the record writes them, so the curve read back from a
# record and the one computed from the documents are the same points.
THRESHOLD_DIGITS = 4


@dataclass(frozen=True)
class CoveragePoint:
    """One threshold on the document confidence: the documents at or above it (those a rule "approve
    when the document confidence is at least this" would approve) and how many of them are right."""

    threshold: float
    documents: int  # all documents of the set, the coverage's denominator
    covered: int  # documents whose confidence is at least the threshold
    covered_all_right: int  # of those, documents whose type and every labelled field are right

    @property
    def coverage(self) -> float:
        return _rate(self.covered, self.documents)

    @property
    def accuracy(self) -> float:
        return _rate(self.covered_all_right, self.covered)

    def to_dict(self) -> dict[str, Any]:
        return {
            "threshold": self.threshold,
            "covered": self.covered,
            "covered_all_right": self.covered_all_right,
            "coverage": round(self.coverage, 4),
            "accuracy": round(self.accuracy, 4),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any], *, documents: int) -> CoveragePoint:
        return cls(float(data["threshold"]), documents, int(data["covered"]), int(data["covered_all_right"]))


def coverage_curve(documents: Sequence[DocumentOutcome]) -> tuple[CoveragePoint, ...]:
    """The coverage-accuracy curve: one point per distinct document confidence, highest first.

    Lowering the threshold through every distinct confidence (rounded to the record's precision)
    gives every coverage a threshold rule can reach, so the curve hides no operating point; ties
    enter together, as a threshold cannot split them. Coverage rises and the last point covers
    every document (its accuracy is the share of documents entirely right).
    """
    total = len(documents)
    ranked = sorted(documents, key=lambda d: -round(d.confidence, THRESHOLD_DIGITS))
    points: list[CoveragePoint] = []
    right = 0
    for index, document in enumerate(ranked):
        right += document.all_right
        threshold = round(document.confidence, THRESHOLD_DIGITS)
        is_last_of_tie = (
            index + 1 == total or round(ranked[index + 1].confidence, THRESHOLD_DIGITS) != threshold
        )
        if is_last_of_tie:
            points.append(CoveragePoint(threshold, total, index + 1, right))
    return tuple(points)


def accuracy_at_coverage(curve: Sequence[CoveragePoint], coverage: float) -> CoveragePoint | None:
    """The point of the curve with the least coverage that reaches ``coverage`` (None: empty curve).

    A threshold rule approving at least that share of documents, read off the curve for a table.
    """
    coverages = [p.coverage for p in curve]
    index = bisect.bisect_left(coverages, coverage - 1e-9)
    return curve[min(index, len(curve) - 1)] if curve else None


@dataclass(frozen=True)
class OperatingPoint:
    """What the real decision chose: the documents it auto-approved and how many were entirely right."""

    documents: int
    auto_approved: int
    auto_approved_all_right: int
    lowest_confidence: float | None  # the lowest document confidence it approved; None if none

    @property
    def automation_rate(self) -> float:
        return _rate(self.auto_approved, self.documents)

    @property
    def precision(self) -> float:
        return _rate(self.auto_approved_all_right, self.auto_approved)

    def to_dict(self) -> dict[str, Any]:
        return {
            "documents": self.documents,
            "auto_approved": self.auto_approved,
            "auto_approved_all_right": self.auto_approved_all_right,
            "automation_rate": round(self.automation_rate, 4),
            "precision": round(self.precision, 4),
            "lowest_confidence": _round(self.lowest_confidence),
        }


@dataclass(frozen=True)
class SetAccuracy:
    """Every figure of one evaluation set (or of all of them pooled, ``name`` "pooled")."""

    name: str
    path: str  # as given on the command line; "" for the pooled figures
    truth_sha256: str | None  # which labels were scored (a regenerated set changes it); None when pooled
    partial_labels: bool  # only the fields each truth entry names were scored (real documents)
    documents: int
    failed: int  # the engine raised: counted as wrong everywhere
    document_type: Tally
    fields: Tally
    mrz_fields: Tally  # fields of the documents whose true type carries an MRZ (passport, id_card)
    fields_scored: int  # calibrated confidences behind the ECE (values the engine returned)
    expected_calibration_error: float
    reliability: tuple[ReliabilityBin, ...]
    auto_approved: int
    auto_approved_all_right: int  # type and every labelled field right
    median_seconds_per_page: float | None  # engine time as cached: not a speed measurement
    types: tuple[TypeAccuracy, ...]
    per_field: tuple[FieldAccuracy, ...]
    confusions: tuple[TypeConfusion, ...]
    # Selective prediction (records before it have none: the defaults read them back)
    coverage_curve: tuple[CoveragePoint, ...] = ()
    auto_approved_min_confidence: float | None = None  # the lowest document confidence approved
    held_out: bool = False  # only the held-out part of a real set (apps/extraction/holdout.py)

    @property
    def straight_through_rate(self) -> float:
        return _rate(self.auto_approved, self.documents)

    @property
    def auto_approved_precision(self) -> float:
        return _rate(self.auto_approved_all_right, self.auto_approved)

    @property
    def operating_point(self) -> OperatingPoint:
        """The automation rate and precision the real decision reached (the same counts as above)."""
        return OperatingPoint(
            self.documents,
            self.auto_approved,
            self.auto_approved_all_right,
            self.auto_approved_min_confidence,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "path": self.path,
            "truth_sha256": self.truth_sha256,
            "partial_labels": self.partial_labels,
            "documents": self.documents,
            "failed": self.failed,
            "document_type": self.document_type.to_dict(),
            "fields": self.fields.to_dict(),
            "mrz_fields": self.mrz_fields.to_dict(),
            "fields_scored": self.fields_scored,
            "expected_calibration_error": round(self.expected_calibration_error, 4),
            "reliability": [b.to_dict() for b in self.reliability],
            "auto_approved": self.auto_approved,
            "auto_approved_all_right": self.auto_approved_all_right,
            "straight_through_rate": round(self.straight_through_rate, 4),
            "auto_approved_precision": round(self.auto_approved_precision, 4),
            "median_seconds_per_page": self.median_seconds_per_page,
            "types": [t.to_dict() for t in self.types],
            "per_field": [f.to_dict() for f in self.per_field],
            "confusions": [c.to_dict() for c in self.confusions],
            "held_out": self.held_out,
            "operating_point": self.operating_point.to_dict(),
            "coverage_curve": [p.to_dict() for p in self.coverage_curve],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SetAccuracy:
        return cls(
            name=str(data["name"]),
            path=str(data["path"]),
            truth_sha256=data.get("truth_sha256"),
            partial_labels=bool(data["partial_labels"]),
            documents=int(data["documents"]),
            failed=int(data["failed"]),
            document_type=Tally.from_dict(data["document_type"]),
            fields=Tally.from_dict(data["fields"]),
            mrz_fields=Tally.from_dict(data["mrz_fields"]),
            fields_scored=int(data["fields_scored"]),
            expected_calibration_error=float(data["expected_calibration_error"]),
            reliability=tuple(ReliabilityBin.from_dict(b) for b in data["reliability"]),
            auto_approved=int(data["auto_approved"]),
            auto_approved_all_right=int(data["auto_approved_all_right"]),
            median_seconds_per_page=_float(data.get("median_seconds_per_page")),
            types=tuple(TypeAccuracy.from_dict(t) for t in data["types"]),
            per_field=tuple(FieldAccuracy.from_dict(f) for f in data["per_field"]),
            confusions=tuple(TypeConfusion.from_dict(c) for c in data["confusions"]),
            coverage_curve=tuple(
                CoveragePoint.from_dict(p, documents=int(data["documents"]))
                for p in data.get("coverage_curve", ())
            ),
            auto_approved_min_confidence=_float(data.get("operating_point", {}).get("lowest_confidence")),
            held_out=bool(data.get("held_out", False)),
        )


@dataclass(frozen=True)
class Machine:
    """Where the record was made: accuracy does not depend on it, but OCR builds and timings may."""

    cpu_model: str
    cores: int
    python: str
    system: str

    @classmethod
    def this(cls) -> Machine:
        model = ""
        try:
            for line in Path("/proc/cpuinfo").read_text().splitlines():
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
        except OSError:
            pass
        return cls(
            cpu_model=model or platform.processor() or platform.machine(),
            cores=os.cpu_count() or 0,
            python=platform.python_version(),
            system=f"{platform.system()} {platform.release()} {platform.machine()}",
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "cpu_model": self.cpu_model,
            "cores": self.cores,
            "python": self.python,
            "system": self.system,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Machine:
        return cls(str(data["cpu_model"]), int(data["cores"]), str(data["python"]), str(data["system"]))


@dataclass(frozen=True)
class AccuracyRecord:
    """One ``evaluate`` run: which engine and calibration, where and when, and every set's figures."""

    engine: str  # engines.ENGINE_NAME of the checkout that ran it
    engine_version: str  # engines.ENGINE_VERSION: the record's file name carries it
    reader: str  # "local" (in-process) or "triton"
    engines_read: tuple[str, ...]  # "name version" reported by the results themselves (cache included)
    calibration_version: str
    date: str  # ISO 8601, UTC, when scoring ran (expiry rules depend on the day)
    machine: Machine
    sets: tuple[SetAccuracy, ...]
    pooled: SetAccuracy

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": RECORD_FORMAT,
            "engine": {"name": self.engine, "version": self.engine_version},
            "reader": self.reader,
            "engines_read": list(self.engines_read),
            "calibration_version": self.calibration_version,
            "date": self.date,
            "machine": self.machine.to_dict(),
            "sets": [s.to_dict() for s in self.sets],
            "pooled": self.pooled.to_dict(),
        }

    def write(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(self.to_dict(), indent=1, ensure_ascii=False) + "\n")

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> AccuracyRecord:
        if data.get("format") != RECORD_FORMAT:
            raise ValueError(f"record format {data.get('format')!r}; this code reads {RECORD_FORMAT}")
        return cls(
            engine=str(data["engine"]["name"]),
            engine_version=str(data["engine"]["version"]),
            reader=str(data["reader"]),
            engines_read=tuple(str(e) for e in data["engines_read"]),
            calibration_version=str(data["calibration_version"]),
            date=str(data["date"]),
            machine=Machine.from_dict(data["machine"]),
            sets=tuple(SetAccuracy.from_dict(s) for s in data["sets"]),
            pooled=SetAccuracy.from_dict(data["pooled"]),
        )

    @classmethod
    def load(cls, path: Path) -> AccuracyRecord:
        return cls.from_dict(json.loads(path.read_text()))


def utc_now() -> str:
    return dt.datetime.now(dt.UTC).replace(microsecond=0).isoformat().replace("+00:00", "Z")


# ---- markdown ---------------------------------------------------------------------------------------


def _pct(tally: Tally) -> str:
    return f"{tally.rate:.1%} ({tally.right:,}/{tally.total:,})" if tally.total else "—"


def _row(cells: Iterable[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def _table(header: Sequence[str], rows: Iterable[Sequence[str]], *, numeric_from: int = 1) -> list[str]:
    align = ["---" if i < numeric_from else "---:" for i in range(len(header))]
    return [_row(header), _row(align), *(_row(r) for r in rows)]


# ---- the capture gate's rates (bench/capture_gate.py) ----------------------------------------------

_FALSE_RESUBMISSION = re.compile(r"false.?resub", re.IGNORECASE)
_CATCH = re.compile(r"catch", re.IGNORECASE)
_NAME_KEYS = ("name", "set", "family", "folder", "path")
# counts behind a rate, where the gate's JSON gives them (bench/capture_gate.py's keys)
_FALSE_COUNTS = ("sent_back", "documents")
_CATCH_COUNTS = ("caught", "degraded_pages")
# the gate's family names for evaluation sets named otherwise: its "synth" is var/bench/all-types
_GATE_ALIASES = {"synth": "all-types"}


@dataclass(frozen=True)
class GateRate:
    """One family of the capture gate's measurement: how often it sent a clean page back for a
    retake (false resubmission) and how often it caught a degraded one. Read from another tool's
    JSON whose keys this code does not own, so every rate is optional and kept as text."""

    name: str
    false_resubmission: str | None
    catch: str | None

    def matches(self, s: SetAccuracy) -> bool:
        """Is this the gate's figure for that evaluation set? (Same folder name, or a path ending in it.)"""
        base = s.name.split(" (")[0]
        name = _GATE_ALIASES.get(self.name, self.name).rstrip("/")
        return bool(base) and (name == base or name.endswith("/" + base))


def _gate_value(value: Any, counts: tuple[Any, Any] | None = None) -> str | None:
    """A rate as the gate wrote it: a share as a percentage (with its counts where given)."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, dict):
        return _gate_value(next((value[k] for k in ("rate", "value", "share") if k in value), None))
    if isinstance(value, int | float):
        shown = f"{value:.1%}" if 0 <= value <= 1 else f"{value:g}"
        if counts is not None and all(isinstance(c, int) and not isinstance(c, bool) for c in counts):
            shown += f" ({counts[0]}/{counts[1]})"
        return shown
    return str(value)


def _gate_rate(node: dict[str, Any], keys: list[str], counts: tuple[str, str]) -> str | None:
    if not keys:
        return None
    key = min(keys, key=len)  # "false_resubmission" before "page_false_resubmission"
    given = (node[counts[0]], node[counts[1]]) if counts[0] in node and counts[1] in node else None
    return _gate_value(node[key], given)


def gate_rates(data: Any) -> tuple[GateRate, ...]:
    """Every family in the capture gate's JSON that states a false-resubmission or catch rate.

    Read defensively: its ``results`` (or the whole document), and in it any object, however
    nested, with a key naming a false resubmission or a catch rate is one family, named by its own
    name/set/family key or else by the key it sits under.
    """
    found: list[GateRate] = []

    def walk(node: Any, under: str) -> None:
        if isinstance(node, list):
            for item in node:
                walk(item, under)
            return
        if not isinstance(node, dict):
            return
        false_keys = [str(k) for k in node if _FALSE_RESUBMISSION.search(str(k))]
        catch_keys = [str(k) for k in node if _CATCH.search(str(k))]
        if false_keys or catch_keys:
            name = next((str(node[k]) for k in _NAME_KEYS if isinstance(node.get(k), str)), under)
            found.append(
                GateRate(
                    name or "all",
                    _gate_rate(node, false_keys, _FALSE_COUNTS),
                    _gate_rate(node, catch_keys, _CATCH_COUNTS),
                )
            )
            return
        for key, child in node.items():
            walk(child, str(key))

    results = data.get("results") if isinstance(data, dict) else None
    walk(results if isinstance(results, dict | list) else data, "")
    return tuple(found)


# ---- the tables -------------------------------------------------------------------------------------

# Coverages at which the table reads the coverage-accuracy curve (the whole curve is in the record).
TABLE_COVERAGES = (0.25, 0.5, 0.75, 1.0)


def _set_labels(record: AccuracyRecord) -> tuple[list[SetAccuracy], dict[int, str]]:
    """The sets a table shows (the pool last when there are several) and each one's label."""
    sets = list(record.sets) + ([record.pooled] if len(record.sets) > 1 else [])
    names = [s.name for s in sets]
    labels: dict[int, str] = {}
    for s in sets:
        if s is record.pooled:
            labels[id(s)] = f"all {len(record.sets)} sets pooled"
            continue
        # a set by its name, or by its path where two folders share a name
        shown = s.name if names.count(s.name) == 1 else s.path
        if s.partial_labels:
            shown = f"{shown[:-1]}, partial labels)" if shown.endswith(")") else f"{shown} (partial labels)"
        labels[id(s)] = shown
    return sets, labels


def _automated(s: SetAccuracy) -> str:
    return f"{s.straight_through_rate:.1%} ({s.auto_approved:,}/{s.documents:,})"


def _at_coverage(s: SetAccuracy, coverage: float) -> str:
    point = accuracy_at_coverage(s.coverage_curve, coverage)
    return f"{point.accuracy:.1%}" if point is not None else "—"


def selective_prediction_table(record: AccuracyRecord, gate: Sequence[GateRate] = ()) -> list[str]:
    """Per set: the operating point the decision chose, the curve read at a few coverages, and the
    capture gate's rates where it measured a family of the same name."""
    sets, labels = _set_labels(record)

    def gate_of(s: SetAccuracy) -> GateRate | None:
        return next((g for g in gate if g.matches(s)), None) if s is not record.pooled else None

    matched = any(gate_of(s) for s in sets)
    header = [
        "set",
        "automated",
        "auto-approved entirely right",
        "lowest confidence approved",
        *(f"{c:.0%} coverage" for c in TABLE_COVERAGES),
    ]
    if matched:
        header += ["false resubmissions", "catch rate"]
    rows = []
    for s in sets:
        row = [
            labels[id(s)],
            _automated(s),
            _pct(Tally(s.auto_approved_all_right, s.auto_approved)),
            "—" if s.auto_approved_min_confidence is None else f"{s.auto_approved_min_confidence:.3f}",
            *(_at_coverage(s, c) for c in TABLE_COVERAGES),
        ]
        if matched:
            rate = gate_of(s)
            row += [rate.false_resubmission or "—", rate.catch or "—"] if rate else ["—", "—"]
        rows.append(row)
    lines = _table(header, rows)
    unmatched = [g for g in gate if not any(g.matches(s) for s in record.sets)]
    if unmatched:
        lines += [
            "",
            "Capture gate (bench/capture_gate.py): clean pages sent back for a retake, degraded ones caught:",
            "",
            *_table(
                ["family", "false resubmissions", "catch rate"],
                ([g.name, g.false_resubmission or "—", g.catch or "—"] for g in unmatched),
            ),
        ]
    return lines


def readme_table(record: AccuracyRecord, gate: Sequence[GateRate] = ()) -> str:
    """The README's compact table: per set its size, fields, types, ECE and operating point, and
    the capture gate's false resubmissions where it measured the set."""
    sets, labels = _set_labels(record)

    def gate_of(s: SetAccuracy) -> GateRate | None:
        return next((g for g in gate if g.matches(s)), None) if s is not record.pooled else None

    matched = any(gate_of(s) for s in sets)  # no column of dashes where the gate measured no set
    rows = []
    for s in sets:
        rate = gate_of(s)
        rows.append(
            [
                labels[id(s)],
                f"{s.documents:,}",
                f"{s.fields.rate:.1%}",
                f"{s.document_type.rate:.1%}",
                f"{s.expected_calibration_error:.3f}",
                f"{s.auto_approved:,} of {s.documents:,}",
                f"{s.auto_approved_all_right:,} of {s.auto_approved:,}" if s.auto_approved else "—",
                *([(rate.false_resubmission or "—") if rate else "—"] if matched else []),
            ]
        )
    header = [
        "set",
        "documents",
        "fields",
        "types",
        "ECE",
        "auto-approved",
        "auto-approved entirely right",
        *(["false resubmissions"] if matched else []),
    ]
    return "\n".join(_table(header, rows)) + "\n"


def markdown(record: AccuracyRecord, *, per_field: bool = False, gate: Sequence[GateRate] = ()) -> str:
    """The record as markdown: a summary row per set (and pooled), selective prediction per set,
    then field accuracy per type.

    Only names, counts and rates: a record never holds a field value.
    """
    sets, labels = _set_labels(record)
    lines = [
        f"Engine {record.engine} {record.engine_version} ({record.reader}), calibration "
        f"`{record.calibration_version}`, {record.date}, {record.machine.cpu_model} "
        f"({record.machine.cores} cores).",
        "",
        *_table(
            [
                "set",
                "documents",
                "fields exactly right",
                "MRZ documents' fields",
                "document types",
                "ECE",
                "automated",
                "auto-approved entirely right",
            ],
            (
                [
                    labels[id(s)],
                    f"{s.documents:,}" + (f" ({s.failed} failed)" if s.failed else ""),
                    _pct(s.fields),
                    _pct(s.mrz_fields),
                    _pct(s.document_type),
                    f"{s.expected_calibration_error:.3f}",
                    _automated(s),
                    _pct(Tally(s.auto_approved_all_right, s.auto_approved)),
                ]
                for s in sets
            ),
        ),
        "",
        "Selective prediction. Automated: auto-approved by the decision, and the lowest document "
        "confidence it approved; at a coverage: the share entirely right (type and every labelled "
        "field) of that share of the set taken in order of document confidence, highest first:",
        "",
        *selective_prediction_table(record, gate),
        "",
        "Per document type (the true type; classified: read as that type):",
        "",
        *_table(
            ["set", "document type", "documents", "classified", "fields exactly right"],
            (
                [labels[id(s)], t.document_type, f"{t.documents:,}", _pct(t.classified), _pct(t.fields)]
                for s in record.sets
                for t in s.types
            ),
            numeric_from=2,
        ),
    ]
    if per_field:
        lines += ["", "Per field:", ""]
        lines += _table(
            ["set", "document type", "field", "fields exactly right"],
            (
                [labels[id(s)], f.document_type, f.field, _pct(f.values)]
                for s in record.sets
                for f in s.per_field
            ),
            numeric_from=3,
        )
    return "\n".join(lines) + "\n"
