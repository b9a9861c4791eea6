"""Calibration maps of a tenant's own type are that tenant's: two tenants' ``payslip`` share none.

GIVEN two tenants that each defined a ``payslip``, WHEN operators of one confirm its payslips'
fields and ``manage.py recalibrate --document-type payslip --tenant`` fits the type's maps, THEN
the labels and the maps are keyed with that tenant (``payslip@<id>.…``), that tenant's payslips
are calibrated and the other's still route to review; a built-in type's keys stay its name alone,
so the shipped artefact reads as before.
"""

from __future__ import annotations

import pytest
from django.core.management import CommandError, call_command

from apps.doctypes import calibration as doctype_calibration
from apps.doctypes.services import document_type_define
from apps.documents.models import Document
from apps.documents.pipeline import document_infer, document_prepare
from apps.documents.services import document_upload
from apps.extraction import calibration
from apps.extraction.readers import LocalReader
from apps.extraction.services import result_assess
from apps.review.services import (
    field_label_examples,
    review_field_confirm,
    review_task_approve,
    review_task_claim_next,
)
from engines.custom_types import parse_schema
from engines.types import EngineResult, FieldResult
from tests.support.payslip import PAYSLIP_SCHEMA, payslip_pdf

pytestmark = pytest.mark.django_db
CUSTOM = parse_schema(PAYSLIP_SCHEMA)


def _payslip_result() -> EngineResult:
    fields = {
        n: FieldResult(value=None, confidence=0.6, page=1, bbox=None, source="text_layer")
        for n in CUSTOM.names
    }
    return EngineResult("payslip", 1.0, 1, fields)


def test_a_built_in_types_key_is_its_name_and_a_tenants_type_is_keyed_with_the_tenant(tenant, other_tenant):
    assert calibration.calibration_type("passport", tenant_id=tenant.pk) == "passport"
    ours = calibration.calibration_type("payslip", tenant_id=tenant.pk)
    assert (
        ours == f"payslip@{tenant.pk}" != calibration.calibration_type("payslip", tenant_id=other_tenant.pk)
    )


def test_the_shipped_artefact_calibrates_a_built_in_type_as_before(tenant):
    shipped = calibration.current()
    raw = EngineResult(
        "passport", 0.8, 1, {"surname": FieldResult("ERIKSSON", 0.7, 1, None, "mrz", valid=True)}
    )
    assert (
        result_assess(result=raw, calibration=shipped).confidences
        == result_assess(result=raw, calibration=shipped, tenant_id=tenant.pk).confidences
    )


def test_operators_labels_of_a_payslip_are_named_with_its_tenant(tenant, operator):
    document_type_define(tenant=tenant, name="payslip", description="", schema=PAYSLIP_SCHEMA)
    document = document_upload(
        tenant=tenant,
        content=payslip_pdf(),
        original_name="p.pdf",
        uploaded_by=None,
        document_type_hint="payslip",
    ).document
    document_prepare(document_id=str(document.pk))
    document_infer(document_id=str(document.pk), reader=LocalReader())
    assert Document.objects.get(pk=document.pk).document_type == "payslip"
    task = review_task_claim_next(user=operator, tenant=tenant)
    for name in CUSTOM.names:
        review_field_confirm(task=task, user=operator, field_name=name)
    review_task_approve(task=task, user=operator)
    assert {e.document_type for e in field_label_examples()} == {f"payslip@{tenant.pk}"}


def test_one_tenants_payslip_maps_do_not_calibrate_anothers(tenant, other_tenant, tmp_path, monkeypatch):
    examples = [
        calibration.Example("text_layer", name, None, 0.6, i % 10 != 0, False,
                            document_type=calibration.calibration_type("payslip", tenant_id=tenant.pk))
        for name in CUSTOM.names
        for i in range(30)
    ]  # fmt: skip
    monkeypatch.setattr(doctype_calibration, "field_label_examples", lambda tenant=None: examples)
    out = tmp_path / "calibration.json"
    call_command(
        "recalibrate",
        "--document-type",
        "payslip",
        "--tenant",
        tenant.name,
        "--out",
        str(out),
        "--min-labels",
        "20",
    )
    fitted = calibration.load(out)
    assert fitted.maps and all(k.startswith(f"payslip@{tenant.pk}.") for k in fitted.maps)

    def uncalibrated(tenant_id) -> bool:
        assessed = result_assess(
            result=_payslip_result(), calibration=fitted, custom=CUSTOM, tenant_id=tenant_id
        )
        return any(c.name == "confidence_calibrated" and not c.passed for c in assessed.result.checks)

    assert not uncalibrated(tenant.pk)
    assert uncalibrated(other_tenant.pk)


def test_recalibrating_a_tenants_type_needs_the_tenant(tmp_path):
    with pytest.raises(CommandError, match="--tenant"):
        call_command("recalibrate", "--document-type", "payslip", "--out", str(tmp_path / "c.json"))
