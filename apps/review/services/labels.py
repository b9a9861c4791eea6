"""Operators' verdicts on fields as labelled data, and refitting the calibration on them.

Every field an operator confirms or corrects becomes one ``FieldLabel``: the engine's evidence
for it (source, field name, validator outcome, raw confidence, whether it found a value), taken
before review touched the field, and whether the engine's value is what the operator left in
place. That is exactly an ``apps.extraction.calibration.Example``, so ``manage.py recalibrate``
can refit the maps on real documents instead of generated ones. Quality-audit tasks matter here:
they label auto-approved, high-confidence fields, which reviews alone would never see.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path

from django.contrib.auth.models import User

from apps.audit.services import audit_record
from apps.documents.models import Field
from apps.extraction import calibration
from apps.review.errors import NotEnoughLabelsError
from apps.review.models import FieldCorrection, FieldLabel, ReviewTask
from apps.tenants.models import Tenant


def field_label_capture(*, task: ReviewTask, field: Field, user: User) -> FieldLabel:
    """The field's label row, created with the engine's evidence the first time review touches it.

    Call it before changing the field: later actions on the same field keep the first evidence.
    """
    label = FieldLabel.objects.filter(field=field).first()
    if label is not None:
        return label
    extraction = field.extraction
    return FieldLabel.objects.create(
        tenant_id=task.tenant_id,
        task=task,
        field=field,
        document_type=task.document_type,
        task_kind=task.kind,
        name=field.name,
        source=field.source,
        valid=field.valid,
        raw_confidence=field.raw_confidence,
        present=field.value is not None,
        confidence=field.confidence,
        calibration_version=extraction.calibration_version,
        engine_name=extraction.engine_name,
        engine_version=extraction.engine_version,
        correct=True,
        labelled_by=user,
    )


def engine_value(*, field: Field) -> str | None:
    """What the engine read: the first correction's old value, else the value as it stands."""
    first = FieldCorrection.objects.filter(field=field).order_by("id").first()
    return first.old_value if first is not None else field.value


def field_label_settle(*, label: FieldLabel, field: Field, user: User) -> FieldLabel:
    """After an operator affirmed the field's current value: was the engine right?"""
    label.correct = field.value == engine_value(field=field)
    label.labelled_by = user
    label.save(update_fields=["correct", "labelled_by", "updated_at"])
    return label


def field_label_examples(*, tenant: Tenant | None = None) -> list[calibration.Example]:
    """Every label (of one tenant, or all: labels carry no values) as a calibration example; a
    tenant's own type is named with its tenant (``calibration.calibration_type``), so pooling all
    tenants' labels never mixes two tenants' types of one name."""
    labels = FieldLabel.objects.all() if tenant is None else FieldLabel.objects.filter(tenant=tenant)
    return [
        calibration.Example(
            source=row["source"],
            name=row["name"],
            valid=row["valid"],
            raw_confidence=row["raw_confidence"],
            correct=row["correct"],
            present=row["present"],
            document_type=calibration.calibration_type(row["document_type"], tenant_id=row["tenant_id"]),
        )
        for row in labels.values(
            "source", "name", "valid", "raw_confidence", "correct", "present", "document_type", "tenant_id"
        )
    ]


@dataclass(frozen=True)
class RefitOutcome:
    version: str
    path: Path
    labels: int
    right: int
    maps: int


def calibration_refit(
    *, out: Path, min_labels: int, version: str | None = None, tenant: Tenant | None = None
) -> RefitOutcome:
    """Fit the calibration maps on operators' labels and write the versioned artefact to ``out``.

    Refuses with fewer than ``min_labels`` labels, or when no evidence class has enough of them to
    fit a map (the artefact would silently fall back to raw scores everywhere). Processes that
    already loaded the old artefact keep it until they restart.
    """
    examples = field_label_examples(tenant=tenant)
    if len(examples) < min_labels:
        raise NotEnoughLabelsError(
            f"{len(examples)} operator labels; at least {min_labels} are needed to refit the calibration"
        )
    version = version or f"labels-{dt.datetime.now(dt.UTC):%Y%m%d-%H%M}"
    fitted = calibration.fit(examples, version=version)
    # what labels do not refit stays the shipped artefact's: the layouts it was fitted on
    # (familiar_layout evidence) and the thresholds per type chosen out of fold
    shipped = calibration.current()
    fitted = replace(
        fitted,
        engine_version=shipped.engine_version,
        layouts=shipped.layouts,
        thresholds=shipped.thresholds,
        target_precision=shipped.target_precision,
        fitted_on=(
            *shipped.fitted_on,
            {"path": "operator labels", "documents": None, "part": f"{len(examples)} labels"},
        ),
    )
    if not fitted.maps:
        raise NotEnoughLabelsError(
            f"no evidence class has {calibration.MIN_EXAMPLES} labels yet: nothing to fit a map on"
        )
    calibration.save(fitted, out)
    right = Counter(e.correct for e in examples)[True]
    audit_record(
        tenant=tenant,
        actor=None,
        action="calibration.refitted",
        object_type="calibration",
        object_id=version[:64],
        data={"labels": len(examples), "right": right, "maps": len(fitted.maps)},
    )
    return RefitOutcome(version=version, path=out, labels=len(examples), right=right, maps=len(fitted.maps))
