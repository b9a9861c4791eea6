"""A tenant's own document type on the Gemma 4 path: vLLM on CPU serving the tiny Gemma 4.

GIVEN a payslip schema defined through /api/v1/document-types, WHEN a payslip is uploaded naming
the type, THEN the worker sends the version's schema with the pages to Triton (schema_json), the
Gemma 4 doc_pipeline decodes against it, and the result has exactly the schema's fields, in its
order, with their titles, read by the model and sent to review (no calibration of the type yet).
The tiny model's weights are random: what is asserted is the shape guided decoding guarantees —
every answer parses, fits the tenant's schema, and each value is written in its field's format.
"""

from __future__ import annotations

import io
import json
import re
import time
from typing import Any

import httpx
import jsonschema
import pytest
from rest_framework.test import APIClient

from engines.custom_types import DEFAULT_MAX_LENGTH, TypeCandidate, parse_schema, pattern_refusals
from engines.llm import pipeline
from engines.llm.guided_grammar import decoded_schema, text_schema
from engines.llm.model_client import ModelRequest
from engines.llm.openai_backend import chat_request, generation_from_response
from engines.llm.parsing import parse_model_json
from engines.llm.schemas import CLASSIFY_TYPES, extraction_schema, tenant_schema
from tests.support.payslip import PAYSLIP_SCHEMA, payslip_pdf

pytestmark = pytest.mark.integration
IN_FLIGHT = {"received", "queued", "processing", "extracted"}
CUSTOM = parse_schema(PAYSLIP_SCHEMA)


def _fits_its_format(name: str, value: str) -> bool:
    field = CUSTOM.field(name)
    assert field is not None
    if field.format in DEFAULT_MAX_LENGTH:  # free text: its pattern is the JSON text's (with escapes)
        return field.min_length <= len(value) <= (field.max_length or 0)
    pattern = field.value_schema().get("pattern")
    if pattern is not None:
        return re.fullmatch(pattern, value) is not None
    return value in field.enum


def _extract(vllm_engine: Any, schema: dict[str, Any], max_tokens: int | None = None) -> httpx.Response:
    call = pipeline.plan_extraction("payslip", schema, 1)
    call = pipeline.ModelCall(call.prompt, schema, max_tokens or call.max_tokens)
    request = chat_request("gemma4-e4b", ModelRequest("extract", call, (_page_data_uri(),), 280))
    return httpx.post(f"{vllm_engine.url}/chat/completions", json=request, timeout=180)


def _page_data_uri() -> str:
    import base64

    from media.preprocessing import PageLimits, prepare_pages

    [page] = prepare_pages(payslip_pdf(), "application/pdf", PageLimits(pdf_sandbox=False))
    mime = "image/png" if page.image.startswith(b"\x89PNG") else "image/jpeg"
    return f"data:{mime};base64," + base64.b64encode(page.image).decode()


def _settled(api: APIClient, url: str, timeout_s: float = 300) -> dict[str, Any]:
    """The document's result once it has left the pipeline's in-flight states."""
    deadline = time.monotonic() + timeout_s
    result: dict[str, Any] = api.get(url).json()
    while result["status"] in IN_FLIGHT:
        assert time.monotonic() < deadline, result
        time.sleep(0.5)
        result = api.get(url).json()
    return result


def test_the_guided_answer_fits_the_tenants_schema(vllm_engine):
    schema = tenant_schema(CUSTOM.normalized)
    call = pipeline.plan_extraction("payslip", schema, 1)
    assert "Net pay: take-home pay, amount paid" in call.prompt  # titles and descriptions told
    request = chat_request("gemma4-e4b", ModelRequest("extract", call, (_page_data_uri(),), 280))
    response = httpx.post(f"{vllm_engine.url}/chat/completions", json=request, timeout=180)
    assert response.status_code == 200, response.text[:500]
    generation = generation_from_response(response.json())
    answer = json.loads(generation.text)
    jsonschema.validate(answer, decoded_schema(schema))
    assert list(answer) == list(PAYSLIP_SCHEMA["properties"])
    assert all(_fits_its_format(n, v) for n, v in answer.items() if v is not None)
    fields, parsed = pipeline.read_extraction(generation, schema)
    assert not parsed.truncated and list(fields) == list(CUSTOM.names)


@pytest.mark.django_db(transaction=True)
def test_a_payslip_defined_through_the_api_is_read_by_the_model(tenant, celery_worker_process):
    from apps.tenants.services import api_key_create

    api = APIClient()
    api.credentials(
        HTTP_AUTHORIZATION=f"Api-Key {api_key_create(tenant=tenant, name='g4', scopes=['all']).raw_key}"
    )
    body = {"name": "payslip", "description": "A monthly payslip", "schema": PAYSLIP_SCHEMA}
    assert api.post("/api/v1/document-types", body, format="json").status_code == 201
    handle = io.BytesIO(payslip_pdf())
    handle.name = "payslip.pdf"
    accepted = api.post("/api/v1/documents", {"file": handle, "document_type": "payslip"}, format="multipart")
    assert accepted.status_code == 202, accepted.content[:300]
    result = _settled(api, accepted.json()["url"])
    assert result["status"] == "needs_review", result.get("error")
    assert result["engine"]["name"] == "gemma4" and result["document_type"] == "payslip"
    assert list(result["fields"]) == list(PAYSLIP_SCHEMA["properties"])
    assert [f["title"] for f in result["fields"].values()] == [f.title for f in CUSTOM.fields]
    assert all(f["source"] == "model" for f in result["fields"].values())
    assert all(_fits_its_format(n, f["value"]) for n, f in result["fields"].items() if f["value"] is not None)
    checks = {c["name"]: c["passed"] for c in result["checks"]}
    assert checks["confidence_calibrated"] is False
    assert "classify" not in result["timings_ms"]  # the tenant named its type: no classifier call


def test_the_classifier_is_offered_the_tenants_type_and_answers_within_the_offer(vllm_engine):
    """GIVEN the tenant's payslip offered beside the §3.2 types, WHEN the tiny model classifies a
    payslip page, THEN the prompt it was sent lists the payslip with its description, its guided
    answer names one of the offered types, and that answer is read as a type decision (which type
    random weights pick is not asserted)."""
    payslip = TypeCandidate("payslip", "A monthly payslip: employer, employee, net pay", 1, CUSTOM.normalized)
    call = pipeline.plan_classification(1, [payslip])
    assert "- payslip: A monthly payslip: employer, employee, net pay" in call.prompt
    request = chat_request("gemma4-e4b", ModelRequest("classify", call, (_page_data_uri(),), 280))
    assert "- payslip: A monthly payslip" in json.dumps(request)  # the prompt travels in the request
    response = httpx.post(f"{vllm_engine.url}/chat/completions", json=request, timeout=180)
    assert response.status_code == 200, response.text[:500]
    generation = generation_from_response(response.json())
    answer = json.loads(generation.text)
    jsonschema.validate(answer, call.schema)
    assert answer["document_type"] in (*CLASSIFY_TYPES, "payslip")
    decision = pipeline.read_classification(generation, hint=None, own_types=["payslip"])
    assert decision.document_type == answer["document_type"] and 0.0 <= decision.confidence <= 1.0


@pytest.mark.django_db(transaction=True)
def test_an_upload_without_a_type_is_classified_among_the_tenants_types(tenant, celery_worker_process):
    """GIVEN a payslip type defined through the API, WHEN a payslip is uploaded without naming a
    type, THEN the worker offers the type to the Gemma 4 doc_pipeline (document_types_json), the
    classifier runs, and the result is consistent with its choice: read with the payslip's schema
    and its version when it chose the payslip, with the §3.2 type's fields otherwise."""
    from apps.tenants.services import api_key_create
    from engines.spec import FIELDS

    api = APIClient()
    api.credentials(
        HTTP_AUTHORIZATION=f"Api-Key {api_key_create(tenant=tenant, name='g4c', scopes=['all']).raw_key}"
    )
    body = {"name": "payslip", "description": "A monthly payslip", "schema": PAYSLIP_SCHEMA}
    assert api.post("/api/v1/document-types", body, format="json").status_code == 201
    handle = io.BytesIO(payslip_pdf(seed="classified"))
    handle.name = "payslip.pdf"
    accepted = api.post("/api/v1/documents", {"file": handle}, format="multipart")
    assert accepted.status_code == 202, accepted.content[:300]
    result = _settled(api, accepted.json()["url"])
    assert result["status"] in {"needs_review", "auto_approved"}, result.get("error")
    assert result["engine"]["name"] == "gemma4" and "classify" in result["timings_ms"]
    if result["document_type"] == "payslip":
        assert list(result["fields"]) == list(PAYSLIP_SCHEMA["properties"])
        assert result["document_type_version"] == 1
    else:
        assert set(result["fields"]) <= set(FIELDS.get(result["document_type"], ()))
        assert result.get("document_type_version") is None


def test_the_engine_takes_bounded_strings_unicode_names_and_ordinary_patterns(vllm_engine):
    """GIVEN the built-in schemas (free text bounded by a pattern that lets escapes through, names
    in any script's capitals) and a tenant's schema as a new user writes it (``+``, a pattern
    beside a maxLength), WHEN each is sent to vLLM, THEN each is answered 200 with an answer that
    fits it: the engine compiles what the definition accepted (issue 50, items 1 to 3)."""
    ordinary = {
        "type": "object",
        "properties": {
            "net_pay": {"type": "string", "title": "Net pay", "pattern": r"^[0-9]+\.[0-9]{2}$"},
            "employee_id": {
                "type": "string",
                "title": "Employee ID",
                "pattern": "^E-[0-9]+$",
                "maxLength": 10,
            },
            "employer_name": {"type": "string", "title": "Employer", "format": "name"},
        },
    }
    custom = parse_schema(ordinary)
    assert pattern_refusals(custom) == []
    for schema in (
        extraction_schema("passport"),
        extraction_schema("bank_statement"),
        tenant_schema(custom.normalized),
    ):
        response = _extract(vllm_engine, schema)
        assert response.status_code == 200, response.text[:500]
        parsed = parse_model_json(generation_from_response(response.json()).text)  # cut: the members before
        jsonschema.validate(parsed.data, {**decoded_schema(schema), "required": []})


def test_a_pattern_refused_at_definition_is_one_the_engine_refuses(vllm_engine):
    """GIVEN a code pattern with a word boundary, which Python's ``re`` and RE2 accept, WHEN its
    type is defined, THEN it is refused, as vLLM refuses its schema (400): before this check every
    document of such a type failed as ``model_request_refused``."""
    schema = {"type": "object", "properties": {"branch": {"type": "string", "pattern": r"^\bAB[0-9]{2}$"}}}
    assert pattern_refusals(parse_schema(schema))
    assert _extract(vllm_engine, tenant_schema(schema)).status_code == 400


def test_a_value_the_grammar_ends_at_its_bound_is_flagged_for_review(vllm_engine):
    """GIVEN an account number the grammar lets be 32 characters at most (here at least, too, so
    random weights must reach the bound), WHEN vLLM writes it, THEN the grammar ends it at 32 and
    the answer as read marks it not valid, with a failed check that names it: a number cut at its
    bound goes to review instead of passing with an ordinary score."""
    schema = {
        "type": "object",
        "properties": {"iban_or_account_number": text_schema(32, 32)},
        "required": ["iban_or_account_number"],
        "additionalProperties": False,
    }
    response = _extract(vllm_engine, schema, max_tokens=120)
    assert response.status_code == 200, response.text[:500]
    generation = generation_from_response(response.json())
    assert len(json.loads(generation.text)["iban_or_account_number"]) == 32
    fields, parsed = pipeline.read_extraction(generation, schema)
    assert fields["iban_or_account_number"].valid is False
    checks = {c.name: c for c in pipeline.verify("bank_statement", fields, parsed)}
    assert checks["value_within_length_bound"].passed is False
    assert checks["value_within_length_bound"].detail.endswith("iban_or_account_number")
