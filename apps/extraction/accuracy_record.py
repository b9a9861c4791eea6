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

import datetime as dt
import json
import os
import platform
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

    @property
    def straight_through_rate(self) -> float:
        return _rate(self.auto_approved, self.documents)

    @property
    def auto_approved_precision(self) -> float:
        return _rate(self.auto_approved_all_right, self.auto_approved)

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


def markdown(record: AccuracyRecord, *, per_field: bool = False) -> str:
    """The record as markdown: a summary row per set (and pooled), then field accuracy per type.

    Only names, counts and rates: a record never holds a field value.
    """
    sets = list(record.sets) + ([record.pooled] if len(record.sets) > 1 else [])
    names = [s.name for s in sets]

    def label(s: SetAccuracy) -> str:
        """A set by its folder name, or by its path where two folders share a name."""
        if s is record.pooled:
            return f"all {len(record.sets)} sets pooled"
        shown = s.name if names.count(s.name) == 1 else s.path
        return f"{shown} (partial labels)" if s.partial_labels else shown

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
                "straight through",
                "auto-approved entirely right",
            ],
            (
                [
                    label(s),
                    f"{s.documents:,}" + (f" ({s.failed} failed)" if s.failed else ""),
                    _pct(s.fields),
                    _pct(s.mrz_fields),
                    _pct(s.document_type),
                    f"{s.expected_calibration_error:.3f}",
                    f"{s.straight_through_rate:.1%}",
                    _pct(Tally(s.auto_approved_all_right, s.auto_approved)),
                ]
                for s in sets
            ),
        ),
        "",
        "Per document type (the true type; classified: read as that type):",
        "",
        *_table(
            ["set", "document type", "documents", "classified", "fields exactly right"],
            (
                [label(s), t.document_type, f"{t.documents:,}", _pct(t.classified), _pct(t.fields)]
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
            ([label(s), f.document_type, f.field, _pct(f.values)] for s in record.sets for f in s.per_field),
            numeric_from=3,
        )
    return "\n".join(lines) + "\n"
