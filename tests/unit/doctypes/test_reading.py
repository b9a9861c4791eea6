"""A payslip, a tenant's own type, through the worker's steps in-process with the CPU engine.

GIVEN a tenant that defined a payslip, WHEN one is uploaded naming the type and the worker's steps
run with the real CPU engine, THEN the generic label reader reads every field (saying so, with a
lowered confidence), each is validated by its format, the document goes to review (no calibration
of the type yet) keeping the version it was read with, and the API result, the document page, the
review screen and the batch exports show the fields with their titles in schema order.
"""

from __future__ import annotations

import copy
import csv
import io

import pytest
from django.urls import reverse

from apps.doctypes.models import DocumentTypeReading
from apps.doctypes.services import document_type_define
from apps.documents.models import Document, DocumentStatus
from apps.documents.pipeline import document_decide, document_infer, document_prepare, document_validate
from apps.documents.services import document_upload
from apps.extraction import calibration
from apps.extraction.readers import LocalReader
from apps.extraction.services import result_assess
from apps.review.models import ReviewTask
from engines.custom_types import parse_schema
from engines.types import EngineResult
from tests.support.payslip import PAYSLIP_SCHEMA, PAYSLIP_TRUTH, payslip_pdf

pytestmark = pytest.mark.django_db


def _read(tenant, seed: str = "") -> Document:
    document = document_upload(
        tenant=tenant, content=payslip_pdf(seed=seed), original_name="payslip.pdf", uploaded_by=None,
        document_type_hint="payslip",
    ).document  # fmt: skip
    document_id = str(document.pk)
    document_prepare(document_id=document_id)
    document_infer(document_id=document_id, reader=LocalReader())
    document_validate(document_id=document_id)
    document_decide(document_id=document_id)
    return Document.objects.get(pk=document_id)


@pytest.fixture
def payslip_type(tenant):
    return document_type_define(tenant=tenant, name="payslip", description="A payslip", schema=PAYSLIP_SCHEMA)


def test_the_generic_reader_reads_every_field_and_the_payslip_goes_to_review(tenant, payslip_type, api):
    document = _read(tenant)
    assert document.status == DocumentStatus.NEEDS_REVIEW and document.document_type == "payslip"
    result = api.get(f"/api/v1/documents/{document.pk}").json()
    assert list(result["fields"]) == list(PAYSLIP_SCHEMA["properties"])  # schema order
    assert {n: f["value"] for n, f in result["fields"].items()} == PAYSLIP_TRUTH
    assert result["fields"]["net_pay"]["title"] == "Net pay"
    assert all(f["valid"] is True and f["source"] == "text_layer" for f in result["fields"].values())
    assert all(f["confidence"] <= 0.6 for f in result["fields"].values())  # a generic first reading
    checks = {c["name"]: c for c in result["checks"]}
    assert checks["generic_reader"]["passed"] and "generic-label-reader" in checks["generic_reader"]["detail"]
    assert checks["required_fields_present"]["passed"] and checks["fields_valid"]["passed"]
    assert checks["confidence_calibrated"]["passed"] is False
    assert result["document_type_version"] == 1
    assert ReviewTask.objects.filter(document=document).exists()


def test_a_document_keeps_the_version_it_was_read_with(tenant, payslip_type, api):
    first = _read(tenant)
    changed = copy.deepcopy(PAYSLIP_SCHEMA)
    del changed["properties"]["employee_address"]
    assert (
        document_type_define(tenant=tenant, name="payslip", description="", schema=changed).version.version
        == 2
    )
    second = _read(tenant, seed="2")
    assert DocumentTypeReading.objects.get(document=first).version.version == 1
    assert "employee_address" in api.get(f"/api/v1/documents/{first.pk}").json()["fields"]
    result = api.get(f"/api/v1/documents/{second.pk}").json()
    assert result["document_type_version"] == 2 and "employee_address" not in result["fields"]


def test_the_review_screen_and_the_document_page_show_the_titles(tenant, payslip_type, operator_client):
    document = _read(tenant)
    task = ReviewTask.objects.get(document=document)
    page = operator_client.get(reverse("review:task_detail", args=[task.pk])).content.decode()
    assert page.index("Employee ID") < page.index("Pay date") < page.index("Net pay")
    shown = operator_client.get(reverse("ingestion:document_detail", args=[document.pk])).content.decode()
    assert "Period ending" in shown and "Pay frequency" in shown


def test_batch_exports_carry_the_titles_in_schema_order(tenant, payslip_type):
    from apps.batches.exports import batch_export_csv, batch_export_jsonl
    from apps.batches.models import Batch, BatchDocument

    document = _read(tenant)
    batch = Batch.objects.create(tenant=tenant)
    BatchDocument.objects.create(batch=batch, document=document, position=0, file="payslip.pdf")
    header = next(csv.reader(io.StringIO(batch_export_csv(batch=batch))))
    assert header[8:12] == [
        "Employee [employee_name]",
        "employee_name.confidence",
        "Employer [employer_name]",
        "employer_name.confidence",
    ]
    line = next(iter(batch_export_jsonl(batch=batch)))
    assert '"title": "Employee ID"' in line


def test_the_decided_webhook_carries_the_fields_in_schema_order(tenant, payslip_type):
    """The document.decided webhook's body is the API result: the payslip's own fields, keyed by
    the schema's properties, in schema order, with their titles."""
    import json

    from apps.webhooks.models import DocumentCallback, WebhookDelivery, WebhookEvent
    from apps.webhooks.services import webhook_document_event

    document = _read(tenant)
    DocumentCallback.objects.create(document=document, url="https://hooks.example.com/docintel")
    delivery = webhook_document_event(document=document, event=WebhookEvent.DOCUMENT_DECIDED)
    assert isinstance(delivery, WebhookDelivery)
    body = json.loads(delivery.body)
    assert list(body["fields"]) == list(PAYSLIP_SCHEMA["properties"])
    assert body["fields"]["employee_id"]["title"] == "Employee ID"


def test_recalibrate_fits_the_types_own_map_and_then_it_is_calibrated(
    tenant, payslip_type, tmp_path, monkeypatch
):
    from django.core.management import call_command

    from apps.doctypes import calibration as doctype_calibration

    document = _read(tenant)
    raw = EngineResult.from_dict(document.extractions.latest().raw_result)
    mapped_as = calibration.calibration_type("payslip", tenant_id=tenant.pk)  # the tenant's payslip
    examples = [
        calibration.Example(source="text_layer", name="net_pay", valid=True, raw_confidence=0.6, correct=i % 10 != 0,
                            document_type=mapped_as)
        for i in range(30)
    ]  # fmt: skip
    monkeypatch.setattr(doctype_calibration, "field_label_examples", lambda tenant=None: examples)
    out = tmp_path / "calibration.json"
    call_command(
        "recalibrate", "--document-type", "payslip", "--tenant", tenant.name, "--out", str(out),
        "--min-labels", "20",
    )  # fmt: skip
    fitted = calibration.load(out)
    assert fitted.maps and all(key.startswith(f"payslip@{tenant.pk}.") for key in fitted.maps)
    custom = parse_schema(PAYSLIP_SCHEMA)
    before = result_assess(result=raw, calibration=calibration.IDENTITY, custom=custom, tenant_id=tenant.pk)
    after = result_assess(result=raw, calibration=fitted, custom=custom, tenant_id=tenant.pk)
    assert "confidence_calibrated" in {c.name for c in before.result.checks if not c.passed}
    assert "confidence_calibrated" not in {c.name for c in after.result.checks if not c.passed}
