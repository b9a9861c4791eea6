"""Assessing an engine result: validate, calibrate, decide. Pure, so the CLI and workers share it."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, replace

from django.conf import settings

from apps.extraction import calibration as calibration_maps
from apps.extraction.calibration import Calibration
from apps.extraction.decision import CalibratedField, Decision, decide
from apps.extraction.validation import validate_result
from engines.types import Check, EngineResult

# Sources whose raw confidences mean nothing until a map was fitted on their own labelled output: a
# model's token probabilities are not an OCR engine's scores. Until then their values never
# auto-approve on their own confidence (a value the MRZ's check digits verified is source "mrz").
NEEDS_OWN_CALIBRATION = frozenset({"model"})
UNCALIBRATED_CHECK = "confidence_calibrated"


@dataclass(frozen=True)
class Assessment:
    result: EngineResult  # ``valid`` settled, business checks appended, type confidence calibrated
    confidences: dict[str, float]  # calibrated, per field name
    decision: Decision
    calibration_version: str


def result_assess(
    *, result: EngineResult, today: dt.date | None = None, calibration: Calibration | None = None
) -> Assessment:
    """Validate, calibrate (with the shipped maps unless ``calibration`` is given) and decide."""
    calibration = calibration or calibration_maps.current()
    validated = validate_result(result, today=today)
    validated = replace(
        validated,
        document_type_confidence=calibration.calibrate_type(
            document_type=validated.document_type, raw_confidence=validated.document_type_confidence
        ),
    )
    confidences = {
        name: calibration.calibrate(
            source=f.source,
            name=name,
            valid=f.valid,
            raw_confidence=f.confidence,
            present=f.value is not None,
            document_type=validated.document_type,
        )
        for name, f in validated.fields.items()
    }
    validated = _mark_uncalibrated_sources(validated, calibration)
    decision = decide(
        document_type=validated.document_type,
        document_type_confidence=validated.document_type_confidence,
        fields=[
            CalibratedField(name=name, value=f.value, confidence=confidences[name], valid=f.valid)
            for name, f in validated.fields.items()
        ],
        checks_passed={c.name: c.passed for c in validated.checks},
        min_confidence=settings.DOCINTEL_AUTO_APPROVE_MIN_CONFIDENCE,
        min_type_confidence=settings.DOCINTEL_AUTO_APPROVE_MIN_TYPE_CONFIDENCE,
    )
    return Assessment(
        result=validated, confidences=confidences, decision=decision, calibration_version=calibration.version
    )


def _mark_uncalibrated_sources(result: EngineResult, calibration: Calibration) -> EngineResult:
    """Add a failed ``confidence_calibrated`` check naming the fields whose source has no fitted map."""
    unfitted = [
        name
        for name, f in result.fields.items()
        if f.source in NEEDS_OWN_CALIBRATION
        and not calibration.fitted_for(
            source=f.source,
            name=name,
            valid=f.valid,
            raw_confidence=f.confidence,
            present=f.value is not None,
            document_type=result.document_type,
        )
    ]
    if not unfitted:
        return result
    detail = "no calibration fitted yet for the model's confidence of " + ", ".join(sorted(unfitted))
    return replace(result, checks=[*result.checks, Check(UNCALIBRATED_CHECK, False, detail)])
