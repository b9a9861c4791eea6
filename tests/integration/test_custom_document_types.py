"""A tenant's own document type on the real stack: PostgreSQL, Redis, a Celery worker and Triton
running the CPU reference engine.

GIVEN a tenant that defines a payslip through /api/v1/document-types, WHEN it uploads a payslip
naming the type (one document, and a batch), THEN Triton's doc_pipeline reads it with the tenant's
schema (schema_json) by the generic label reader, the worker validates and sends it to review,
and the API result and the batch's CSV export carry the schema's fields with their titles, in
order; another tenant's key sees neither the type nor the document.
"""

from __future__ import annotations

import csv
import io
import time
from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.factories import api_key_client
from tests.support.payslip import PAYSLIP_SCHEMA, PAYSLIP_TRUTH, payslip_pdf

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]
IN_FLIGHT = {"received", "queued", "processing", "extracted"}


def _file(content: bytes, name: str = "payslip.pdf") -> io.BytesIO:
    handle = io.BytesIO(content)
    handle.name = name
    return handle


def _poll(api: APIClient, url: str, timeout_s: float = 180) -> dict[str, Any]:
    deadline = time.monotonic() + timeout_s
    while (body := api.get(url).json())["status"] in IN_FLIGHT:
        if time.monotonic() > deadline:
            raise AssertionError(f"not done after {timeout_s} s: {body}")
        time.sleep(0.5)
    return body


def test_a_payslip_is_defined_uploaded_read_by_the_generic_reader_and_exported(
    celery_worker_process, tenant, other_tenant
):
    api, other = (
        api_key_client(tenant, name="it", scopes=["all"]),
        api_key_client(other_tenant, name="it", scopes=["all"]),
    )
    defined = api.post(
        "/api/v1/document-types",
        {"name": "payslip", "description": "A monthly payslip", "schema": PAYSLIP_SCHEMA},
        format="json",
    )
    assert defined.status_code == 201 and defined.json() == {"name": "payslip", "version": 1}

    accepted = api.post(
        "/api/v1/documents", {"file": _file(payslip_pdf()), "document_type": "payslip"}, format="multipart"
    )
    assert accepted.status_code == 202, accepted.content
    result = _poll(api, accepted.json()["url"])
    assert result["status"] == "needs_review", result["error"]
    assert result["document_type"] == "payslip" and result["engine"]["name"] == "cpu-reference"
    assert list(result["fields"]) == list(PAYSLIP_SCHEMA["properties"])
    assert {name: f["value"] for name, f in result["fields"].items()} == PAYSLIP_TRUTH
    assert [f["title"] for f in result["fields"].values()][:3] == ["Employee", "Employer", "Employee ID"]
    checks = {c["name"]: c["passed"] for c in result["checks"]}
    assert checks["generic_reader"] and checks["fields_valid"] and checks["required_fields_present"]
    assert checks["confidence_calibrated"] is False  # no map of the type yet: review
    assert result["document_type_version"] == 1

    batch = api.post(
        "/api/v1/batches",
        {"files": [_file(payslip_pdf(seed="b"), "b.pdf")], "document_type": "payslip"},
        format="multipart",
    )
    assert batch.status_code == 202, batch.content
    _poll(api, batch.json()["documents"][0]["url"])
    exports = api.get(batch.json()["url"]).json()["exports"]
    rows = list(csv.reader(io.StringIO(APIClient().get(exports["csv"]).content.decode())))
    header = dict(zip(rows[0], rows[1], strict=True))
    assert header["Net pay [net_pay]"] == "2731.45" and header["Pay date [pay_date]"] == "2026-03-28"

    assert other.get("/api/v1/document-types/payslip").status_code == 404
    assert other.get(accepted.json()["url"]).status_code == 404
