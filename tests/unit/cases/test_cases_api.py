"""/api/v1/cases on the database, without a worker: the answers' shapes, validation, tenant
isolation and refusals. The real stack (uploads read by the worker) is
tests/integration/test_cases_api.py."""

from __future__ import annotations

import io
import uuid

import pytest
from PIL import Image

from apps.cases.models import Case
from tests.factories import APPLICANT_PASSPORT, api_key_client, proof_of_address, read_document

pytestmark = pytest.mark.django_db


def png(seed: int) -> io.BytesIO:
    buffer = io.BytesIO()
    Image.new("RGB", (40, 30), (seed, 80, 120)).save(buffer, format="PNG")
    buffer.seek(0)
    buffer.name = f"scan-{seed}.png"
    return buffer


@pytest.fixture
def read_applicant(tenant):
    return [
        read_document(tenant, "passport", **APPLICANT_PASSPORT),
        read_document(tenant, "proof_of_address", source="ocr", **proof_of_address("2026-12-01")),
    ]


def test_a_case_from_read_documents_is_decided_and_shows_each_documents_result(tenant, read_applicant):
    api = api_key_client(tenant, name="t")
    response = api.post(
        "/api/v1/cases",
        {"document_ids": [str(d.pk) for d in read_applicant], "external_reference": "cust-1",
         "full_name": "Anna Müller", "date_of_birth": "1990-04-01"},
        format="multipart",
    )  # fmt: skip
    assert response.status_code == 202, response.content
    accepted = response.json()
    assert set(accepted) == {"id", "status", "url"} and accepted["url"].endswith(
        f"/api/v1/cases/{accepted['id']}"
    )
    case = api.get(accepted["url"]).json()
    assert case["status"] == "approved" and case["decision"] == "approved", case["reasons"]
    assert case["decision_rule"] == "all_checks_passed" and case["external_reference"] == "cust-1"
    assert {c["name"] for c in case["checks"]} >= {
        "same_person",
        "date_of_birth_consistent",
        "address_matches",
    }
    assert all(set(c) >= {"name", "passed", "detail", "links"} for c in case["checks"])
    assert [d["id"] for d in case["documents"]] == [str(d.pk) for d in read_applicant]
    assert case["documents"][0]["fields"]["surname"]["value"] == "MUELLER"  # the §3.1 result
    assert Case.objects.get(pk=accepted["id"]).declared == {
        "full_name": "Anna Müller",
        "date_of_birth": "1990-04-01",
    }


def test_uploaded_files_make_a_case_that_waits_for_them(tenant):
    api = api_key_client(tenant, name="t")
    response = api.post("/api/v1/cases", {"files": [png(1), png(2)]}, format="multipart")
    assert response.status_code == 202, response.content
    case = api.get(response.json()["url"]).json()
    assert case["status"] == "open" and case["decision"] is None and case["checks"] == []
    assert [d["status"] for d in case["documents"]] == ["queued", "queued"]


def test_another_tenants_case_and_documents_are_not_found(tenant, other_tenant, read_applicant):
    api, other = api_key_client(tenant, name="t"), api_key_client(other_tenant, name="t")
    created = api.post(
        "/api/v1/cases", {"document_ids": [str(read_applicant[0].pk)]}, format="multipart"
    ).json()
    for response in (
        other.get(created["url"]),
        other.post(f"{created['url']}/documents", {"files": [png(3)]}, format="multipart"),
        other.post("/api/v1/cases", {"document_ids": [str(read_applicant[1].pk)]}, format="multipart"),
        api.get(f"/api/v1/cases/{uuid.uuid4()}"),
    ):
        assert response.status_code == 404 and response.json()["code"] == "not_found"


def test_documents_are_added_by_id_and_a_closed_case_refuses_more(tenant, read_applicant):
    api = api_key_client(tenant, name="t")
    created = api.post(
        "/api/v1/cases", {"document_ids": [str(read_applicant[0].pk)]}, format="multipart"
    ).json()
    assert api.get(created["url"]).json()["decision_rule"] == "required_documents_present"
    added = api.post(
        f"{created['url']}/documents", {"document_ids": [str(read_applicant[1].pk)]}, format="multipart"
    )
    assert added.status_code == 202 and added.json()["status"] == "approved"
    refused = api.post(f"{created['url']}/documents", {"files": [png(4)]}, format="multipart")
    assert refused.status_code == 422 and refused.json()["code"] == "case_closed"


@pytest.mark.parametrize(
    ("data", "code"),
    [
        ({"date_of_birth": "yesterday"}, "invalid_request"),
        ({"document_ids": ["not-a-uuid"]}, "invalid_request"),
        ({"surname": "X"}, "invalid_request"),  # unknown field
        ({"callback_url": "ftp://x"}, "invalid_request"),
        ({"external_reference": "no documents"}, "invalid_request"),
        ({"full_name": "", "document_ids": []}, "invalid_request"),  # blank is not absent
    ],
)
def test_invalid_requests_are_refused_with_the_error_shape(tenant, data, code):
    response = api_key_client(tenant, name="t").post("/api/v1/cases", data, format="multipart")
    assert response.status_code == 400 and response.json()["code"] == code
    assert Case.objects.count() == 0


def test_a_file_that_cannot_be_a_document_refuses_the_whole_case(tenant):
    text = io.BytesIO(b"hello")
    text.name = "notes.txt"
    response = api_key_client(tenant, name="t").post(
        "/api/v1/cases", {"files": [png(5), text]}, format="multipart"
    )
    assert response.status_code == 415 and response.json()["code"] == "unsupported_file_type"
    assert Case.objects.count() == 0


def test_the_schema_documents_the_case_endpoints(tenant):
    schema = api_key_client(tenant, name="t").get("/api/v1/schema", {"format": "json"}).json()
    assert {"/api/v1/cases", "/api/v1/cases/{case_id}", "/api/v1/cases/{case_id}/documents"} <= set(
        schema["paths"]
    )
    operation = schema["paths"]["/api/v1/cases/{case_id}"]["get"]
    assert operation["operationId"] == "cases_retrieve" and "404" in operation["responses"]
