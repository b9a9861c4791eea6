"""Assessing an engine result: validate, calibrate, decide. Pure, so the CLI and workers share it."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.conf import settings

from apps.extraction.calibration import CALIBRATION_VERSION, calibrate
from apps.extraction.decision import CalibratedField, Decision, decide
from apps.extraction.validation import validate_result
from engines.types import EngineResult


@dataclass(frozen=True)
class Assessment:
    result: EngineResult  # with each field's ``valid`` settled and business checks appended
    confidences: dict[str, float]  # calibrated, per field name
    decision: Decision
    calibration_version: str = CALIBRATION_VERSION


def result_assess(*, result: EngineResult, today: dt.date | None = None) -> Assessment:
    validated = validate_result(result, today=today)
    confidences = {
        name: calibrate(raw_confidence=f.confidence, valid=f.valid) for name, f in validated.fields.items()
    }
    decision = decide(
        document_type=validated.document_type,
        fields=[
            CalibratedField(name=name, value=f.value, confidence=confidences[name], valid=f.valid)
            for name, f in validated.fields.items()
        ],
        checks_passed={c.name: c.passed for c in validated.checks},
        min_confidence=settings.DOCINTEL_AUTO_APPROVE_MIN_CONFIDENCE,
    )
    return Assessment(result=validated, confidences=confidences, decision=decision)
