"""The auto-approval threshold per document type, chosen at a stated precision on documents the
calibration was not fitted on.

A threshold chosen on the documents the maps were fitted on flatters itself. So the fitting
documents are split in two folds (by file name, as apps.extraction.holdout splits a set): the maps
and layouts fitted on one fold assess the other, and every document is then judged by a
calibration that never saw it, as a customer's document will be. Per type, the threshold is the
lowest calibrated confidence at which the documents that would be approved are entirely right at
least ``target`` of the time (a plain held-out choice). A type with too few such documents keeps
the configured default (``DOCINTEL_AUTO_APPROVE_MIN_CONFIDENCE``); a type where no threshold
reaches the target gets one no confidence reaches (nothing of it is approved automatically).
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from apps.extraction.calibration import Calibration
from apps.extraction.evaluation import Sample
from apps.extraction.services import result_assess

MIN_DOCUMENTS = 10  # fewer out-of-fold documents of a type and its threshold is not chosen
NEVER = 1.0  # a threshold no calibrated confidence reaches (they stop at 0.999)


@dataclass(frozen=True)
class Candidate:
    """One out-of-fold document as the threshold sees it."""

    document_type: str
    score: float  # the least calibrated confidence among its fields (what the threshold compares)
    eligible: bool  # would be approved at a threshold of 0: nothing else stops it
    right: bool  # type and every labelled field right


def fold_of(file_name: str, folds: int = 2, *, salt: str = "fold") -> int:
    """A stable fold per file (salted apart from the held-out split, and from other fold splits:
    a split nested inside one fold must not fall along the same line)."""
    return hashlib.sha256(f"{salt}:{file_name}".encode()).digest()[0] % folds


def candidate(sample: Sample, calibration: Calibration, today: dt.date) -> Candidate | None:
    if sample.result is None:
        return None
    assessment = result_assess(result=sample.result, today=today, calibration=calibration, min_confidence=0.0)
    predicted = assessment.result
    right = predicted.document_type == sample.truth_type and all(
        (got := predicted.fields.get(name)) is not None and got.value == expected
        for name, expected in sample.truth_fields.items()
    )
    score = min(assessment.confidences.values(), default=1.0)
    return Candidate(predicted.document_type, score, assessment.decision.outcome == "auto_approved", right)


def out_of_fold(
    samples: Sequence[Sample], fit: Callable[[Sequence[Sample]], Calibration], today: dt.date, folds: int = 2
) -> list[Candidate]:
    """Every sample judged by a calibration fitted on the other folds."""
    out: list[Candidate] = []
    for k in range(folds):
        inside = [s for s in samples if fold_of(s.file) == k]
        calibration = fit([s for s in samples if fold_of(s.file) != k])
        out.extend(c for s in inside if (c := candidate(s, calibration, today)) is not None)
    return out


def choose(candidates: Iterable[Candidate], *, target: float) -> dict[str, float]:
    """Per type, the lowest threshold whose approved documents are right at least ``target`` of
    the time (types with fewer than MIN_DOCUMENTS eligible documents are left out)."""
    by_type: dict[str, list[Candidate]] = defaultdict(list)
    for one in candidates:
        if one.eligible:
            by_type[one.document_type].append(one)
    chosen: dict[str, float] = {}
    for document_type, eligible in sorted(by_type.items()):
        if len(eligible) < MIN_DOCUMENTS:
            continue
        chosen[document_type] = NEVER
        for threshold in sorted({c.score for c in eligible}):
            approved = [c for c in eligible if c.score >= threshold]
            wrong = sum(not c.right for c in approved)
            if wrong <= (1.0 - target) * len(approved):
                chosen[document_type] = round(threshold, 4)
                break
    return chosen
