"""Typed results that cross the engine boundary (in process, and as JSON through Triton).

The JSON shape is the "fields part" of the ARCHITECTURE §3.1 document result, with *raw*
confidences: calibration happens later, in apps/extraction, so the same engine output can be
re-calibrated without re-running OCR.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import asdict, dataclass, field
from typing import Any

from engines import ENGINE_NAME, ENGINE_VERSION

BBox = tuple[float, float, float, float]

# ARCHITECTURE §3.1: where a value came from.
SOURCES = frozenset({"mrz", "barcode", "text_layer", "ocr", "model"})


@dataclass(frozen=True)
class FieldResult:
    """One extracted value with the engine's own (uncalibrated) confidence in 0..1."""

    value: str | None
    confidence: float
    page: int  # 1-based page number
    bbox: BBox | None  # [x0, y0, x1, y1] as fractions of the page
    source: str
    valid: bool | None = None  # True/False when a validator applies (e.g. a check digit), else None
    # What supports the value independently of its score (engines/spec/evidence.toml names the
    # kinds): the engine adds what it saw, the app adds what needs fitted knowledge.
    evidence: tuple[str, ...] = ()


@dataclass(frozen=True)
class Check:
    name: str
    passed: bool
    detail: str = ""


@dataclass(frozen=True)
class EngineResult:
    document_type: str
    document_type_confidence: float
    pages: int
    fields: dict[str, FieldResult]
    checks: list[Check] = field(default_factory=list)
    engine_name: str = ""
    engine_version: str = ""
    timings_ms: dict[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "document_type": self.document_type,
            "document_type_confidence": self.document_type_confidence,
            "pages": self.pages,
            "fields": {
                name: {
                    **asdict(f),
                    "bbox": list(f.bbox) if f.bbox is not None else None,
                    "evidence": list(f.evidence),
                }
                for name, f in self.fields.items()
            },
            "checks": [asdict(c) for c in self.checks],
            "engine": {"name": self.engine_name, "version": self.engine_version},
            "timings_ms": dict(self.timings_ms),
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> EngineResult:
        fields = {
            name: FieldResult(
                value=f["value"],
                confidence=float(f["confidence"]),
                page=int(f["page"]),
                bbox=tuple(f["bbox"]) if f.get("bbox") is not None else None,
                source=f["source"],
                valid=f.get("valid"),
                evidence=tuple(str(e) for e in f.get("evidence") or ()),
            )
            for name, f in data.get("fields", {}).items()
        }
        engine = data.get("engine", {})
        return cls(
            document_type=data["document_type"],
            document_type_confidence=float(data["document_type_confidence"]),
            pages=int(data["pages"]),
            fields=fields,
            checks=[Check(**c) for c in data.get("checks", [])],
            engine_name=engine.get("name", ""),
            engine_version=engine.get("version", ""),
            timings_ms={k: int(v) for k, v in data.get("timings_ms", {}).items()},
        )

    @classmethod
    def from_json(cls, text: str | bytes) -> EngineResult:
        return cls.from_dict(json.loads(text))


class EngineError(Exception):
    """A document the engine cannot read. ``code`` is the operator-readable error code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Extracted:
    """What one document-type reader (receipt, invoice, driver licence, ...) found: fields with raw
    confidences and the checks it ran. The pipeline wraps it into an :class:`EngineResult`."""

    fields: dict[str, FieldResult]
    checks: list[Check] = field(default_factory=list)


@dataclass(frozen=True)
class EngineContext:
    """What one reading of a document depends on besides its pages, fixed for that reading.

    The caller builds it (:meth:`from_environment` in the Triton model and the command line, one
    per document: a process outlives a day) and the engine hands it to every stage, which reads
    neither the environment nor the clock itself. The thresholds are the ones that decide which
    passes a document gets; the rules of one kind of evidence (an MRZ's, a barcode's) stay with
    the stage that reads it.
    """

    # The date the document is read on: birth and expiry dates are judged against it.
    today: dt.date
    engine_name: str = ENGINE_NAME
    engine_version: str = ENGINE_VERSION
    # Names and addresses read a second time, by another OCR (engines.second_reading); off, the
    # first reading stands unconfirmed.
    second_reading: bool = True
    # A text layer with fewer characters than this is a scan with a stray caption, not a digital page.
    min_text_layer_chars: int = 20
    # Below this probability for the hinted type, the text contradicts the caller's hint.
    hint_min_probability: float = 0.05
    # Photos mostly come one or two pages at a time (a card's two sides); longer documents, mostly
    # scans, are neither searched for motion blur (about 75 ms a page) nor read again enlarged.
    max_photo_pages: int = 2
    # A photo's document enlarged to this many pixels for a second look at print too small to read
    # at the usual size (Ocr.read_page): about twice the usual budget, 1.8 times the sides ...
    enlarged_page_pixels: int = 4_500_000
    # ... whose reading must name a type this surely to be kept: a letter read better is still a letter.
    enlarged_look_min_confidence: float = 0.6

    @classmethod
    def from_environment(cls, *, today: dt.date | None = None) -> EngineContext:
        """The context of a document read now, with the engine's settings: the one place the
        engine's callers read the clock for it (``today`` overrides it)."""
        return cls(today=today if today is not None else dt.date.today())
