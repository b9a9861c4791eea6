"""Assessing an engine result: validate, calibrate, decide. Pure, so the CLI and workers share it."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, replace

from django.conf import settings

from apps.extraction import calibration as calibration_maps
from apps.extraction.calibration import Calibration
from apps.extraction.decision import CalibratedField, Decision, decide
from apps.extraction.validation import validate_result
from engines.custom_types import CustomSchema
from engines.evidence import FAMILIAR_LAYOUT, engine_evidence, sufficient, with_evidence
from engines.plausibility import implausible, plausibility_check
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
    # per field name: what supports its value besides its score (engines/spec/evidence.toml):
    # the engine's evidence, and what the app adds from fitted knowledge (``familiar_layout``)
    evidence: dict[str, tuple[str, ...]]
    calibration_version: str


def result_assess(
    *,
    result: EngineResult,
    today: dt.date | None = None,
    calibration: Calibration | None = None,
    custom: CustomSchema | None = None,
    tenant_id: object = None,
    min_confidence: float | None = None,
) -> Assessment:
    """Validate, calibrate (with the shipped maps unless ``calibration`` is given) and decide.
    ``custom``: the schema of the tenant's own type the document was read as (apps.doctypes);
    ``tenant_id``: its tenant, whose own maps of the type apply (none of another tenant's);
    ``min_confidence``: instead of the type's threshold (apps.extraction.thresholds chooses them)."""
    calibration = calibration or calibration_maps.current()
    today = today or dt.date.today()
    validated = _with_evidence(validate_result(result, today=today, custom=custom), calibration)
    if custom is None:
        validated = replace(
            validated,
            checks=[*validated.checks, plausibility_check(implausible(validated.fields, today=today))],
        )
    # the type as the maps name it: a tenant's own type with its tenant
    mapped_as = validated.document_type
    if custom is not None:
        mapped_as = calibration_maps.calibration_type(validated.document_type, tenant_id=tenant_id)
    validated = replace(
        validated,
        document_type_confidence=calibration.calibrate_type(
            document_type=mapped_as, raw_confidence=validated.document_type_confidence
        ),
    )
    # a tenant's own type shares no evidence with the §3.2 types' maps: its raw scores stand
    # until a map of the type itself was fitted
    fields_calibration = calibration
    if custom is not None and not type_calibrated(calibration, mapped_as):
        fields_calibration = calibration_maps.IDENTITY
    confidences = {
        name: fields_calibration.calibrate(
            source=f.source,
            name=name,
            valid=f.valid,
            raw_confidence=f.confidence,
            present=f.value is not None,
            document_type=mapped_as,
            supported=sufficient(name, f.evidence, present=f.value is not None),
        )
        for name, f in validated.fields.items()
    }
    validated = _mark_uncalibrated_sources(validated, calibration, mapped_as)
    if custom is not None:
        validated = _mark_uncalibrated_type(validated, calibration, mapped_as)
    decision = decide(
        document_type=validated.document_type,
        document_type_confidence=validated.document_type_confidence,
        fields=[
            CalibratedField(
                name=name, value=f.value, confidence=confidences[name], valid=f.valid, evidence=f.evidence
            )
            for name, f in validated.fields.items()
        ],
        checks_passed={c.name: c.passed for c in validated.checks},
        min_confidence=calibration.threshold(mapped_as, settings.DOCINTEL_AUTO_APPROVE_MIN_CONFIDENCE)
        if min_confidence is None
        else min_confidence,
        min_type_confidence=settings.DOCINTEL_AUTO_APPROVE_MIN_TYPE_CONFIDENCE,
        required_fields=custom.required if custom is not None else None,
    )
    return Assessment(
        result=validated,
        confidences=confidences,
        decision=decision,
        evidence={name: f.evidence for name, f in validated.fields.items()},
        calibration_version=calibration.version,
    )


def _with_evidence(result: EngineResult, calibration: Calibration) -> EngineResult:
    """Each field's evidence: what the engine attached (an engine that attaches none, or an older
    stored result, gets what its source and checks show: engines.evidence.engine_evidence), and
    ``familiar_layout`` where the document's layout is within the fitted distance of those the
    calibration was fitted on."""
    fields = engine_evidence(result.fields, result.checks)
    if calibration.familiar(result):
        fields = {name: with_evidence(f, FAMILIAR_LAYOUT) for name, f in fields.items()}
    return replace(result, fields=fields)


def _mark_uncalibrated_sources(
    result: EngineResult, calibration: Calibration, mapped_as: str
) -> EngineResult:
    """Add a failed ``confidence_calibrated`` check naming the fields whose source has no fitted
    map (``mapped_as``: the document type as the maps name it)."""
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
            document_type=mapped_as,
            supported=sufficient(name, f.evidence, present=f.value is not None),
        )
    ]
    if not unfitted:
        return result
    detail = "no calibration fitted yet for the model's confidence of " + ", ".join(sorted(unfitted))
    return replace(result, checks=[*result.checks, Check(UNCALIBRATED_CHECK, False, detail)])


def type_calibrated(calibration: Calibration, document_type: str) -> bool:
    """Was a map fitted on operators' labels of this very type (``manage.py recalibrate
    --document-type``)? A tenant's type shares no evidence with the §3.2 types' maps."""
    return any(key.startswith(f"{document_type}.") for key in calibration.maps)


def _mark_uncalibrated_type(result: EngineResult, calibration: Calibration, mapped_as: str) -> EngineResult:
    """A tenant's own type: every field routes to review until a map of that type (of that
    tenant: ``mapped_as``) exists (its readers, the generic label reader or a model on a new
    schema, have no labelled history)."""
    if type_calibrated(calibration, mapped_as) or not result.fields:
        return result
    if any(c.name == UNCALIBRATED_CHECK and not c.passed for c in result.checks):
        return result
    detail = f"no calibration fitted yet for document type {result.document_type}"
    return replace(result, checks=[*result.checks, Check(UNCALIBRATED_CHECK, False, detail)])
