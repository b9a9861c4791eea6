"""A tenant's own types on the operators' pages and in ``manage.py ingest``.

GIVEN a tenant that defined a payslip, THEN the upload form offers it beside the built-in types
(grouped apart) and accepts it, another tenant's form refuses it; ``manage.py ingest --type
payslip`` reads every file as one and an unknown type is refused naming the tenant's own; the
review screen's reasons name the payslip's fields by their titles; and the document page marks
the payslip's required fields.
"""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from apps.doctypes.services import document_type_define
from apps.documents.models import Document
from apps.ingestion.presentation import field_rows
from apps.review.presentation import reason_rows
from apps.tenants.services import membership_grant
from engines.custom_types import parse_schema
from tests.support.payslip import PAYSLIP_SCHEMA, payslip_pdf

pytestmark = pytest.mark.django_db
CUSTOM = parse_schema(PAYSLIP_SCHEMA)


@pytest.fixture
def payslip_type(tenant):
    return document_type_define(tenant=tenant, name="payslip", description="A payslip", schema=PAYSLIP_SCHEMA)


def _file(content: bytes, name: str) -> io.BytesIO:
    handle = io.BytesIO(content)
    handle.name = name
    return handle


def test_the_upload_form_offers_the_tenants_types_apart_from_the_built_in_ones(operator_client, payslip_type):
    page = operator_client.get(reverse("ingestion:upload")).content.decode()
    assert '<optgroup label="Your organisation&#x27;s types">' in page
    assert page.index('value="passport"') < page.index('value="payslip"')


def test_an_upload_naming_the_tenants_type_is_accepted_and_read_as_it(operator_client, payslip_type):
    response = operator_client.post(
        reverse("ingestion:upload_json"), {"file": _file(payslip_pdf(), "p.pdf"), "document_type": "payslip"}
    )
    assert response.status_code == 202, response.content[:300]
    assert Document.objects.get().document_type_hint == "payslip"


def test_another_tenants_type_is_refused_by_the_form(client, other_tenant, django_user_model, payslip_type):
    user = django_user_model.objects.create_user(username="oscar", password="x")
    membership_grant(tenant=other_tenant, user=user, role="operator")
    client.force_login(user)
    response = client.post(
        reverse("ingestion:upload_json"), {"file": _file(payslip_pdf(), "p.pdf"), "document_type": "payslip"}
    )
    assert response.status_code == 400 and "document_type" in response.json()["error"]["message"]
    assert not Document.objects.exists()


def test_ingest_reads_every_file_as_the_tenants_type(tenant, payslip_type, tmp_path):
    (tmp_path / "a.pdf").write_bytes(payslip_pdf())
    call_command("ingest", str(tmp_path), "--tenant", tenant.name, "--document-type", "payslip")
    assert Document.objects.get().document_type_hint == "payslip"


def test_ingest_refuses_an_unknown_type_naming_the_tenants_own(tenant, payslip_type, tmp_path):
    with pytest.raises(CommandError, match=r"or one of Acme Bank's own \(payslip\)"):
        call_command("ingest", str(tmp_path), "--tenant", tenant.name, "--type", "contract")


def test_the_reasons_name_a_tenants_fields_by_their_titles():
    reasons = ["employee_id invalid", "net_pay missing", "check fields_valid failed"]
    rows = reason_rows(reasons, custom=CUSTOM)
    assert [r.text for r in rows[:2]] == ["Employee ID: failed validation", "Net pay: required, not found"]
    assert [r.field for r in rows[:2]] == ["employee_id", "net_pay"]
    assert reason_rows(reasons)[0].text == "Employee id: failed validation"  # a built-in's: humanised


def test_the_document_page_marks_a_tenants_required_fields():
    result = {"document_type": "payslip", "fields": {n: {"value": None} for n in reversed(CUSTOM.names)}}
    rows = field_rows(result, custom=CUSTOM)
    assert [r.name for r in rows] == list(CUSTOM.names)  # the schema's order
    assert {r.name for r in rows if r.required} == {"employee_name", "pay_date", "net_pay"}
    assert not any(r.required for r in field_rows(result))  # not knowing the type: nothing marked
