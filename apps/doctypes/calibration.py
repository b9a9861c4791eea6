"""Calibrating a tenant's own type on operators' labels (``manage.py recalibrate --document-type``).

Until a map of the type exists, every field of a document of that type routes to review
(``apps.extraction.services``): its readers — the generic label reader, or a model decoding a new
schema — have no labelled history. Operators' confirmations and corrections of those documents
are ``FieldLabel`` rows like any other; fitted on their own, they make the type's maps
(``payslip@<tenant id>.net_pay|model|valid`` ...: keyed with the tenant, as
``apps.extraction.calibration.calibration_type`` names them), merged into the artefact beside every other map.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from pathlib import Path

from apps.audit.services import audit_record
from apps.doctypes.errors import DocumentTypeTenantRequiredError
from apps.extraction import calibration
from apps.review.errors import NotEnoughLabelsError
from apps.review.services import RefitOutcome, field_label_examples
from apps.tenants.models import Tenant
from engines.spec import DOCUMENT_TYPES


def document_type_recalibrate(
    *,
    document_type: str,
    out: Path,
    min_labels: int,
    version: str | None = None,
    tenant: Tenant | None = None,
) -> RefitOutcome:
    """Fit the maps of one document type on its labels and write them into the artefact at
    ``out`` (its other maps kept). A tenant's own type is that tenant's (``tenant`` required):
    its maps are keyed with the tenant (``payslip@<tenant id>.net_pay|…``), so two tenants'
    ``payslip`` never share one. ``NotEnoughLabelsError`` when too few labels, or none of the
    type's evidence classes has enough to fit a map."""
    if document_type not in DOCUMENT_TYPES and tenant is None:
        raise DocumentTypeTenantRequiredError(
            f"{document_type} is not a built-in type: name the tenant whose own type it is (--tenant)"
        )
    label = document_type
    document_type = calibration.calibration_type(document_type, tenant_id=tenant.pk if tenant else None)
    examples = [e for e in field_label_examples(tenant=tenant) if e.document_type == document_type]
    if len(examples) < min_labels:
        raise NotEnoughLabelsError(
            f"{len(examples)} operator labels of {label}; at least {min_labels} are needed"
        )
    version = version or f"labels-{label}-{dt.datetime.now(dt.UTC):%Y%m%d-%H%M}"
    fitted = calibration.fit(examples, version=version)
    own = {key: m for key, m in fitted.maps.items() if key.startswith(f"{document_type}.")}
    if not own:
        raise NotEnoughLabelsError(
            f"no field of {label} has {calibration.MIN_EXAMPLES} labels of one kind yet: "
            "nothing to fit a map on"
        )
    base = calibration.load(out) if out.exists() else calibration.IDENTITY
    kept = {key: m for key, m in base.maps.items() if not key.startswith(f"{document_type}.")}
    merged = calibration.Calibration(
        version=version, maps={**kept, **own}, engine_version=base.engine_version
    )
    calibration.save(merged, out)
    right = Counter(e.correct for e in examples)[True]
    audit_record(
        tenant=tenant,
        actor=None,
        action="calibration.refitted",
        object_type="calibration",
        object_id=version[:64],
        data={"document_type": label, "labels": len(examples), "right": right, "maps": len(own)},
    )
    return RefitOutcome(version=version, path=out, labels=len(examples), right=right, maps=len(own))
