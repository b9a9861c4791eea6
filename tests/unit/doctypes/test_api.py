"""/api/v1/document-types: define, version, list, read; the tenant's own only; uploads that name one.

GIVEN a tenant with an API key, WHEN it posts a payslip schema, THEN the type exists at version 1;
a changed schema is version 2 while the same schema again stays version 1; another tenant sees
none of it (404) and cannot upload with it; a refused schema answers 400 with every problem.
"""

from __future__ import annotations

import copy

import pytest
from rest_framework.test import APIClient

from apps.doctypes.models import DocumentTypeVersion
from apps.documents.models import Document
from tests.support.payslip import PAYSLIP_SCHEMA, payslip_pdf
from tests.support.uploads import upload

pytestmark = pytest.mark.django_db


@pytest.fixture
def other_api(other_api_key) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Api-Key {other_api_key}")
    return client


def _define(api: APIClient, schema: dict | None = None, name: str = "payslip"):
    body = {"name": name, "description": "A monthly payslip", "schema": schema or PAYSLIP_SCHEMA}
    return api.post("/api/v1/document-types", body, format="json")


def test_a_type_is_defined_then_listed_and_read_with_its_stored_schema(api):
    created = _define(api)
    assert created.status_code == 201 and created.json() == {"name": "payslip", "version": 1}
    [listed] = api.get("/api/v1/document-types").json()
    assert listed["name"] == "payslip" and listed["version"] == 1
    detail = api.get("/api/v1/document-types/payslip").json()
    assert list(detail["schema"]["properties"]) == list(PAYSLIP_SCHEMA["properties"])
    assert detail["schema"]["properties"]["employer_name"]["maxLength"] == 120  # defaulted


def test_a_changed_schema_is_a_new_version_and_the_same_schema_is_not(api):
    _define(api)
    again = _define(api)
    assert again.status_code == 200 and again.json()["version"] == 1
    changed = copy.deepcopy(PAYSLIP_SCHEMA)
    changed["properties"]["tax_code"] = {
        "type": "string",
        "title": "Tax code",
        "format": "code",
        "pattern": "^[0-9A-Z]{2,6}$",
    }
    second = _define(api, changed)
    assert second.status_code == 201 and second.json()["version"] == 2
    detail = api.get("/api/v1/document-types/payslip").json()
    assert detail["version"] == 2 and [v["version"] for v in detail["versions"]] == [2, 1]
    first = api.get("/api/v1/document-types/payslip", {"version": 1}).json()
    assert "tax_code" not in first["schema"]["properties"]
    assert DocumentTypeVersion.objects.count() == 2


def test_a_refused_schema_answers_400_with_every_problem(api):
    bad = copy.deepcopy(PAYSLIP_SCHEMA)
    bad["properties"]["note"] = {"type": "string", "maxLength": 100000}
    bad["properties"]["ref"] = {"type": "string", "$ref": "#/$defs/x"}
    response = _define(api, bad)
    body = response.json()
    assert response.status_code == 400 and body["code"] == "invalid_document_type"
    assert any("maxLength" in p for p in body["errors"]["schema"])
    assert any("references" in p for p in body["errors"]["schema"])
    clash = _define(api, name="invoice")
    assert clash.status_code == 400 and "built-in" in clash.json()["errors"]["name"][0]
    assert not DocumentTypeVersion.objects.exists()


def test_another_tenant_can_neither_see_nor_use_the_type(api, other_api):
    _define(api)
    assert other_api.get("/api/v1/document-types/payslip").status_code == 404
    assert other_api.get("/api/v1/document-types").json() == []
    refused = other_api.post(
        "/api/v1/documents",
        {"file": upload(payslip_pdf(), "p.pdf"), "document_type": "payslip"},
        format="multipart",
    )
    assert refused.status_code == 400 and "document_type" in refused.json()["errors"]
    assert not Document.objects.exists()


def test_an_upload_may_name_the_tenants_own_type(api):
    _define(api)
    accepted = api.post(
        "/api/v1/documents",
        {"file": upload(payslip_pdf(), "p.pdf"), "document_type": "payslip"},
        format="multipart",
    )
    assert accepted.status_code == 202, accepted.content
    assert Document.objects.get().document_type_hint == "payslip"


@pytest.mark.parametrize("pattern", [r"^([A-Z])\1[0-9]{2}$", r"^\bAB[0-9]{2}$", r"^(?=A)[A-Z][0-9]{2}$"])
def test_a_pattern_the_model_engine_refuses_is_refused_at_definition(api, pattern):
    """GIVEN a code pattern Python's ``re`` compiles but the engine's grammar compiler refuses
    (vLLM would answer 400 to every document of the type), WHEN the type is defined, THEN it is
    refused with 400 and the field's reason, and nothing is saved."""
    bad = copy.deepcopy(PAYSLIP_SCHEMA)
    bad["properties"]["branch"] = {"type": "string", "format": "code", "pattern": pattern}
    response = _define(api, bad)
    assert response.status_code == 400, response.content
    [problem] = response.json()["errors"]["schema"]
    assert problem.startswith("branch: ") and "not supported" in problem
    assert not DocumentTypeVersion.objects.exists()


def test_ordinary_json_schema_patterns_are_accepted_and_the_detail_says_what_was_bounded(api):
    """GIVEN a payslip schema as a new user writes it (a ``+`` pattern, a pattern beside a
    maxLength), WHEN it is defined, THEN it is accepted as written and the type's detail says how
    each pattern was bounded for the model."""
    schema = copy.deepcopy(PAYSLIP_SCHEMA)
    schema["properties"]["net_pay"] = {"type": "string", "title": "Net pay", "pattern": r"^[0-9]+\.[0-9]{2}$"}
    schema["properties"]["employee_id"]["pattern"] = "^E-[0-9]+$"
    schema["properties"]["employee_id"]["maxLength"] = 10
    created = _define(api, schema)
    assert created.status_code == 201, created.content
    detail = api.get("/api/v1/document-types/payslip").json()
    assert detail["schema"]["properties"]["net_pay"]["pattern"] == r"^[0-9]+\.[0-9]{2}$"  # as written
    bounds = detail["bounds"]
    assert r"^[0-9]{1,120}\.[0-9]{2}$" in bounds["net_pay"] and "default of 120" in bounds["net_pay"]
    assert "^E-[0-9]{1,10}$" in bounds["employee_id"] and "its maxLength" in bounds["employee_id"]
    assert bounds["employer_name"].startswith("at most 120 characters")
