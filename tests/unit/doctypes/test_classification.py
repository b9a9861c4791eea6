"""Classified into a tenant's own type: the worker offers the tenant's types to the engine.

GIVEN a tenant with a payslip type (two versions), WHEN a payslip is uploaded without naming its
type, THEN the engine call carries the tenant's types (name, description, latest version and its
schema) as ``document_types_json`` and no other tenant's; an engine that classifies the document
as a payslip has its fields validated against that version's schema, the version is pinned on the
document, and the result, the document page and the review screen show it as the payslip it is.
The CPU reference engine, offered the same, does not guess a tenant's type.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Sequence
from typing import Any

import pytest
from django.urls import reverse

from apps.doctypes.models import DocumentTypeReading
from apps.doctypes.services import document_type_define
from apps.documents.models import Document, DocumentStatus
from apps.documents.pipeline import document_infer, document_prepare, documents_infer_begin
from apps.documents.services import document_upload
from apps.extraction.readers import LocalReader
from apps.review.models import ReviewTask
from engines.types import EngineResult, FieldResult
from tests.support.payslip import PAYSLIP_SCHEMA, PAYSLIP_TRUTH, payslip_pdf

pytestmark = pytest.mark.django_db
SECOND = copy.deepcopy(PAYSLIP_SCHEMA)
del SECOND["properties"]["employee_address"]


class ClassifyingReader:
    """An engine that classifies every document as ``answer`` and reads the offered type's fields
    (what the Gemma 4 path does with document_types_json), recording what it was sent."""

    def __init__(self, answer: str = "payslip") -> None:
        self.answer = answer
        self.calls: list[dict[str, Any]] = []

    def read_document(
        self,
        pages: Sequence[bytes],
        *,
        document_type_hint: str | None = None,
        text_layer: Sequence[str] | None = None,
        schema_json: str | None = None,
        document_types_json: str | None = None,
    ) -> EngineResult:
        self.calls.append(
            {"hint": document_type_hint, "schema_json": schema_json, "types": document_types_json}
        )
        offered = {t["name"]: t for t in json.loads(document_types_json or "[]")}
        names = list(offered[self.answer]["schema"]["properties"]) if self.answer in offered else []
        fields = {
            n: FieldResult(value=PAYSLIP_TRUTH[n], confidence=0.9, page=1, bbox=None, source="model")
            for n in names
        }
        return EngineResult(
            self.answer, 0.97, len(pages), fields, engine_name="gemma4", engine_version="test"
        )


def _upload(tenant, hint: str = "", seed: str = "") -> Document:
    document = document_upload(
        tenant=tenant, content=payslip_pdf(seed=seed), original_name="payslip.pdf", uploaded_by=None,
        document_type_hint=hint,
    ).document  # fmt: skip
    document_prepare(document_id=str(document.pk))
    return document


def _read(tenant, reader, hint: str = "", seed: str = "") -> Document:
    document = _upload(tenant, hint, seed)
    document_infer(document_id=str(document.pk), reader=reader)
    return Document.objects.get(pk=document.pk)


@pytest.fixture
def payslip_type(tenant):
    document_type_define(
        tenant=tenant, name="payslip", description="A monthly payslip", schema=PAYSLIP_SCHEMA
    )
    return document_type_define(tenant=tenant, name="payslip", description="A monthly payslip", schema=SECOND)


def test_the_engine_is_offered_the_tenants_types_at_their_latest_version(tenant, other_tenant, payslip_type):
    document_type_define(tenant=other_tenant, name="contract", description="Theirs", schema=PAYSLIP_SCHEMA)
    reader = ClassifyingReader()
    _read(tenant, reader)
    [call] = reader.calls
    assert call["hint"] is None and call["schema_json"] is None
    [offered] = json.loads(call["types"])  # the other tenant's contract is not offered
    assert offered["name"] == "payslip" and offered["description"] == "A monthly payslip"
    assert offered["version"] == 2 and "employee_address" not in offered["schema"]["properties"]


def test_a_document_classified_into_the_type_is_read_with_it_and_keeps_its_version(
    tenant, payslip_type, api, operator_client
):
    document = _read(tenant, ClassifyingReader())
    assert document.document_type == "payslip" and document.status == DocumentStatus.NEEDS_REVIEW
    assert DocumentTypeReading.objects.get(document=document).version == payslip_type.version
    result = api.get(f"/api/v1/documents/{document.pk}").json()
    assert list(result["fields"]) == list(SECOND["properties"]) and result["document_type_version"] == 2
    assert all(f["valid"] is True for f in result["fields"].values())  # validated by the schema's formats
    assert result["fields"]["net_pay"]["title"] == "Net pay"
    checks = {c["name"]: c["passed"] for c in result["checks"]}
    assert checks["confidence_calibrated"] is False and checks["required_fields_present"] is True
    task = ReviewTask.objects.get(document=document)
    page = operator_client.get(reverse("review:task_detail", args=[task.pk])).content.decode()
    assert page.index("Employee ID") < page.index("Net pay")
    shown = operator_client.get(reverse("ingestion:document_detail", args=[document.pk])).content.decode()
    assert shown.count('title="Required to approve"') == len(["employee_name", "pay_date", "net_pay"])


def test_a_document_classified_as_a_built_in_type_pins_nothing(tenant, payslip_type):
    document = _read(tenant, ClassifyingReader(answer="other"))
    assert document.document_type == "other"
    assert not DocumentTypeReading.objects.filter(document=document).exists()


def test_a_built_in_hint_still_offers_the_types_and_a_named_type_sends_its_schema_alone(tenant, payslip_type):
    reader = ClassifyingReader()
    _read(tenant, reader, hint="invoice")
    _read(tenant, reader, hint="payslip", seed="2")
    assert reader.calls[0]["types"] is not None and reader.calls[0]["hint"] == "invoice"
    assert reader.calls[1]["types"] is None and json.loads(reader.calls[1]["schema_json"])["properties"]


def test_each_document_of_a_batch_is_offered_its_own_tenants_types(tenant, other_tenant, payslip_type):
    document_type_define(tenant=other_tenant, name="contract", description="", schema=PAYSLIP_SCHEMA)
    ours, theirs = _upload(tenant), _upload(other_tenant)
    begun = documents_infer_begin(document_ids=[str(ours.pk), str(theirs.pk)])
    assert [[v.document_type.name for v in b.candidates] for b in begun] == [["payslip"], ["contract"]]


def test_the_cpu_engine_does_not_guess_a_tenants_type(tenant, payslip_type):
    document = _read(tenant, LocalReader())
    assert document.document_type != "payslip"
    assert not DocumentTypeReading.objects.filter(document=document).exists()
