"""Measuring the whole read → validate → calibrate → decide path on labelled folders.

A labelled folder holds documents and a ``truth.json`` mapping each file name to
``{"document_type": ..., "fields": {name: canonical value}}`` (the format of
``python -m synth.generate`` and of ``shared/realdata``). Engine outputs are cached per file
content and engine version, so fitting calibration and evaluating it on the same run of OCR cost
one pass, and re-running a report after a calibration change costs seconds.

Values are compared exactly (the canonical formats of ARCHITECTURE §3.1 leave nothing to
normalise), except that an amount labelled with its currency ("RM 9.00", as SROIE's labels
print it) is compared as the decimal it states. A field in the truth that the engine did not
return counts as wrong; a value the engine returned for a field the truth does not have counts as
wrong too (for calibration: it was confidently claimed and is not there), unless the folder is
labelled only in part (``partial_labels``: real documents whose labels name a few fields, such as
SROIE's merchant, date and total), where only the labelled fields are scored.

Selective prediction: each document gets one **document confidence**, the lowest of its calibrated
type confidence and the calibrated confidences of its scored fields (``document_confidence``), so
that ordering documents by it and approving those above a threshold traces the coverage-accuracy
curve (``accuracy_record.coverage_curve``), beside the operating point the real decision
(``result_assess(...).decision``) chose.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re
import statistics
import time
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from django.conf import settings

from apps.documents.filetypes import sniff_mime_type
from apps.extraction.accuracy_record import (
    DocumentOutcome,
    FieldAccuracy,
    ReliabilityBin,
    SetAccuracy,
    Tally,
    TypeAccuracy,
    TypeConfusion,
    coverage_curve,
)
from apps.extraction.calibration import Calibration, Example, TypeExample
from apps.extraction.readers import DocumentReader
from apps.extraction.services import result_assess
from apps.extraction.validation import validate_result
from engines.spec import AMOUNT_FIELDS, field_family
from engines.types import EngineError, EngineResult
from engines.validators import parse_amount
from media.preprocessing import PageLimits, prepare_pages

BINS = 10
# The document types whose fields are read from an MRZ, check digits and all: their accuracy is
# reported apart because it is what the engine can promise, and a fall there is never OCR noise.
MRZ_DOCUMENT_TYPES = frozenset({"passport", "id_card"})


@dataclass(frozen=True)
class Sample:
    """One labelled document and what the engine made of it (``result`` None when it failed)."""

    file: str
    truth_type: str
    truth_fields: dict[str, str]
    result: EngineResult | None
    error_code: str | None
    seconds: float
    pages: int
    partial_labels: bool = False  # only the fields in ``truth_fields`` are labelled

    def is_scored(self, name: str) -> bool:
        return not self.partial_labels or name in self.truth_fields


@dataclass(frozen=True)
class FieldOutcome:
    document_type: str
    name: str
    confidence: float
    correct: bool


@dataclass
class Report:
    documents: int = 0
    type_correct: int = 0
    auto_approved: int = 0
    auto_approved_all_right: int = 0
    failed: int = 0
    field_right: dict[tuple[str, str], int] = field(default_factory=lambda: defaultdict(int))
    field_total: dict[tuple[str, str], int] = field(default_factory=lambda: defaultdict(int))
    outcomes: list[FieldOutcome] = field(default_factory=list)
    seconds_per_page: list[float] = field(default_factory=list)
    type_confusions: dict[tuple[str, str], int] = field(default_factory=lambda: defaultdict(int))
    # per true document type: documents, and those classified as it (failed reads count as wrong)
    type_documents: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    type_right: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    # one per document, in the order scored: its document confidence, decision and whether all right
    document_outcomes: list[DocumentOutcome] = field(default_factory=list)

    @property
    def field_accuracy(self) -> float:
        return _ratio(sum(self.field_right.values()), sum(self.field_total.values()))

    def type_field_accuracy(self, document_type: str) -> float:
        right = sum(n for (t, _), n in self.field_right.items() if t == document_type)
        total = sum(n for (t, _), n in self.field_total.items() if t == document_type)
        return _ratio(right, total)

    def fields_of(self, document_types: Iterable[str]) -> Tally:
        """Fields right out of fields labelled, over the documents whose true type is one of these."""
        wanted = frozenset(document_types)
        return Tally(
            sum(n for (t, _), n in self.field_right.items() if t in wanted),
            sum(n for (t, _), n in self.field_total.items() if t in wanted),
        )

    @property
    def type_accuracy(self) -> float:
        return _ratio(self.type_correct, self.documents)

    @property
    def straight_through_rate(self) -> float:
        return _ratio(self.auto_approved, self.documents)

    @property
    def auto_approved_precision(self) -> float:
        return _ratio(self.auto_approved_all_right, self.auto_approved)

    def reliability(self) -> list[tuple[float, float, int]]:
        """(mean confidence, accuracy, count) per equal-width confidence bin."""
        bins: list[list[FieldOutcome]] = [[] for _ in range(BINS)]
        for outcome in self.outcomes:
            bins[min(int(outcome.confidence * BINS), BINS - 1)].append(outcome)
        return [
            (
                statistics.fmean(o.confidence for o in members) if members else (i + 0.5) / BINS,
                statistics.fmean(1.0 if o.correct else 0.0 for o in members) if members else 0.0,
                len(members),
            )
            for i, members in enumerate(bins)
        ]

    @property
    def expected_calibration_error(self) -> float:
        total = len(self.outcomes)
        if not total:
            return 0.0
        return sum(count / total * abs(acc - conf) for conf, acc, count in self.reliability() if count)


def document_confidence(type_confidence: float, field_confidences: Iterable[float]) -> float:
    """The one confidence a document is ranked by: the lowest of its calibrated type confidence and
    its scored fields' calibrated confidences.

    A document is entirely right only if its type and every field are, so it is no more likely right
    than its weakest part; the minimum (not a product: the parts' errors are far from independent)
    is also what a single threshold on every confidence, as the decision applies, approves or not.
    """
    return min([type_confidence, *field_confidences])


def _ratio(a: int, b: int) -> float:
    return a / b if b else 0.0


def load_truth(folder: Path) -> dict[str, dict[str, Any]]:
    path = folder / "truth.json"
    if not path.exists():
        raise FileNotFoundError(f"{folder} has no truth.json")
    truth: dict[str, dict[str, Any]] = json.loads(path.read_text())
    return truth


def run_engine(
    folders: Iterable[Path],
    reader: DocumentReader,
    *,
    cache_dir: Path | None = None,
    progress: Callable[[int, int], None] | None = None,
    partial_labels: bool = False,
    only: Callable[[str], bool] | None = None,
) -> list[Sample]:
    """Read every labelled document of ``folders`` (cached by content and engine version).

    ``only``: a test on the file's name (``holdout.held_out``) that the documents read must pass;
    the others are not even read, so a held-out evaluation costs only its share of OCR.
    """
    work = [
        (folder, name, spec)
        for folder in folders
        for name, spec in sorted(load_truth(folder).items())
        if only is None or only(name)
    ]
    samples = []
    for index, (folder, name, spec) in enumerate(work, start=1):
        sample = _read_one(folder / name, spec, reader, cache_dir)
        samples.append(replace(sample, partial_labels=partial_labels))
        if progress is not None:
            progress(index, len(work))
    return samples


def _read_one(path: Path, spec: dict[str, Any], reader: DocumentReader, cache_dir: Path | None) -> Sample:
    content = path.read_bytes()
    fields = {k: _canonical_truth(k, v) for k, v in spec.get("fields", {}).items() if v is not None}
    key = hashlib.sha256(content).hexdigest()
    cached = _cache_get(cache_dir, key)
    if cached is not None:
        return Sample(path.name, spec["document_type"], fields, *cached)
    started = time.perf_counter()
    result: EngineResult | None = None
    error: str | None = None
    pages = 0
    try:
        mime_type = sniff_mime_type(content[:2048])
        if mime_type is None:
            raise EngineError("unsupported_file_type", "unsupported file type")
        prepared = prepare_pages(
            content,
            mime_type,
            PageLimits(
                max_pages=settings.DOCINTEL_MAX_PAGES,
                max_image_pixels=settings.DOCINTEL_MAX_IMAGE_PIXELS,
                max_side=settings.DOCINTEL_PAGE_MAX_SIDE,
            ),
        )
        pages = len(prepared)
        text_layer = [p.text_layer for p in prepared]
        result = reader.read_document(
            [p.image for p in prepared], text_layer=text_layer if any(text_layer) else None
        )
    except EngineError as exc:
        error = exc.code
    seconds = time.perf_counter() - started
    _cache_put(cache_dir, key, result, error, seconds, pages)
    return Sample(path.name, spec["document_type"], fields, result, error, seconds, pages)


_CANONICAL_AMOUNT = re.compile(r"-?\d+\.\d{2}")


def _canonical_truth(name: str, value: str) -> str:
    """A label in the §3.1 form: an amount printed with its currency ("RM41.45") as its decimal,
    a name in upper case with words separated by one space (labels read from an e-invoice's XML
    keep the printed case: "Bei Spiel GmbH" is BEI SPIEL GMBH)."""
    if name in AMOUNT_FIELDS and not _CANONICAL_AMOUNT.fullmatch(value):
        amount = parse_amount(value)
        if amount is not None:
            return f"{amount:.2f}"
    if field_family(name) == "name":
        return " ".join(value.split()).upper()
    return value


def _cache_file(cache_dir: Path, key: str) -> Path:
    from engines import ENGINE_NAME, ENGINE_VERSION
    from media.pdf_render import PAGE_ENCODING

    return cache_dir / f"{ENGINE_NAME}-{ENGINE_VERSION}-{PAGE_ENCODING}" / f"{key}.json"


def _cache_get(cache_dir: Path | None, key: str) -> tuple[EngineResult | None, str | None, float, int] | None:
    if cache_dir is None:
        return None
    path = _cache_file(cache_dir, key)
    if not path.exists():
        return None
    data = json.loads(path.read_text())
    result = EngineResult.from_dict(data["result"]) if data["result"] else None
    return result, data["error"], float(data["seconds"]), int(data["pages"])


def _cache_put(
    cache_dir: Path | None,
    key: str,
    result: EngineResult | None,
    error: str | None,
    seconds: float,
    pages: int,
) -> None:
    if cache_dir is None:
        return
    path = _cache_file(cache_dir, key)
    path.parent.mkdir(parents=True, exist_ok=True)
    payload = {
        "result": result.to_dict() if result else None,
        "error": error,
        "seconds": seconds,
        "pages": pages,
    }
    path.write_text(json.dumps(payload))


def calibration_examples(samples: Iterable[Sample]) -> list[Example]:
    """Every field the engine returned, labelled right or wrong against the truth."""
    examples = []
    for sample in samples:
        if sample.result is None:
            continue
        # labelled with the evidence the runtime calibrates on: ``valid`` as validation settles it
        for name, f in validate_result(sample.result).fields.items():
            if not sample.is_scored(name):
                continue
            # a field found empty is right when the document has no such value
            correct = sample.truth_fields.get(name) == f.value
            examples.append(
                Example(
                    f.source,
                    name,
                    f.valid,
                    f.confidence,
                    correct,
                    present=f.value is not None,
                    document_type=sample.result.document_type,
                )
            )
    return examples


def type_examples(samples: Iterable[Sample]) -> list[TypeExample]:
    """Every classified document, labelled right or wrong against its true type."""
    return [
        TypeExample(
            s.result.document_type, s.result.document_type_confidence, s.result.document_type == s.truth_type
        )
        for s in samples
        if s.result is not None
    ]


def score(
    samples: Iterable[Sample], *, calibration: Calibration | None = None, today: dt.date | None = None
) -> Report:
    report = Report()
    for sample in samples:
        report.documents += 1
        report.type_documents[sample.truth_type] += 1
        if sample.pages:
            report.seconds_per_page.append(sample.seconds / sample.pages)
        if sample.result is None:
            report.failed += 1
            for name in sample.truth_fields:
                report.field_total[(sample.truth_type, name)] += 1
            # nothing read: ranked last, never approved, never right
            report.document_outcomes.append(DocumentOutcome(sample.file, 0.0, False, False))
            continue
        assessment = result_assess(result=sample.result, today=today, calibration=calibration)
        predicted = assessment.result
        report.type_correct += predicted.document_type == sample.truth_type
        report.type_right[sample.truth_type] += predicted.document_type == sample.truth_type
        if predicted.document_type != sample.truth_type:
            report.type_confusions[(sample.truth_type, predicted.document_type)] += 1
        all_right = predicted.document_type == sample.truth_type
        for name, expected in sample.truth_fields.items():
            got = predicted.fields.get(name)
            right = got is not None and got.value == expected
            all_right &= right
            report.field_total[(sample.truth_type, name)] += 1
            report.field_right[(sample.truth_type, name)] += right
        scored_confidences = []
        for name, f in predicted.fields.items():
            if not sample.is_scored(name):
                continue
            right = sample.truth_fields.get(name) == f.value  # an empty field is right if truth has none
            report.outcomes.append(FieldOutcome(sample.truth_type, name, assessment.confidences[name], right))
            scored_confidences.append(assessment.confidences[name])
        approved = assessment.decision.outcome == "auto_approved"
        if approved:
            report.auto_approved += 1
            report.auto_approved_all_right += all_right
        report.document_outcomes.append(
            DocumentOutcome(
                sample.file,
                document_confidence(predicted.document_type_confidence, scored_confidences),
                approved,
                all_right,
            )
        )
    return report


def truth_digest(folder: Path) -> str:
    """SHA-256 of a set's truth.json: tells a record which labels it scored (a regenerated set differs)."""
    return hashlib.sha256((folder / "truth.json").read_bytes()).hexdigest()


def set_accuracy(
    report: Report,
    *,
    name: str,
    path: str = "",
    truth_sha256: str | None = None,
    partial_labels: bool = False,
    held_out: bool = False,
) -> SetAccuracy:
    """A scored set as the record's typed figures: the same counts ``Report`` holds, nothing rounded."""
    types = sorted(report.type_documents.keys() | {t for t, _ in report.field_total})
    return SetAccuracy(
        name=name,
        path=path,
        truth_sha256=truth_sha256,
        partial_labels=partial_labels,
        held_out=held_out,
        documents=report.documents,
        failed=report.failed,
        document_type=Tally(report.type_correct, report.documents),
        fields=Tally(sum(report.field_right.values()), sum(report.field_total.values())),
        mrz_fields=report.fields_of(MRZ_DOCUMENT_TYPES),
        fields_scored=len(report.outcomes),
        expected_calibration_error=report.expected_calibration_error,
        reliability=tuple(
            ReliabilityBin(
                i / BINS, (i + 1) / BINS, confidence if count else None, accuracy if count else None, count
            )
            for i, (confidence, accuracy, count) in enumerate(report.reliability())
        ),
        auto_approved=report.auto_approved,
        auto_approved_all_right=report.auto_approved_all_right,
        median_seconds_per_page=round(statistics.median(report.seconds_per_page), 3)
        if report.seconds_per_page
        else None,
        types=tuple(
            TypeAccuracy(
                doc_type,
                Tally(report.type_right.get(doc_type, 0), report.type_documents.get(doc_type, 0)),
                report.fields_of([doc_type]),
            )
            for doc_type in types
        ),
        per_field=tuple(
            FieldAccuracy(doc_type, name, Tally(report.field_right.get((doc_type, name), 0), total))
            for (doc_type, name), total in sorted(report.field_total.items())
        ),
        confusions=tuple(
            TypeConfusion(truth, got, count)
            for (truth, got), count in sorted(report.type_confusions.items(), key=lambda kv: (-kv[1], kv[0]))
        ),
        coverage_curve=coverage_curve(report.document_outcomes),
        auto_approved_min_confidence=min(
            (d.confidence for d in report.document_outcomes if d.auto_approved), default=None
        ),
    )
