"""The Gemma 4 path on the real stack: API upload → PostgreSQL → Celery on Redis → Triton → vLLM → fields.

GIVEN vLLM serving the tiny Gemma 4, Triton running the Gemma 4 ``doc_pipeline`` (openai backend)
against it and a Celery worker on Redis (tests/gemma4/conftest.py), WHEN an integrator uploads a
document of every §3.2 type through /api/v1, THEN it reaches a decision with the fields of its
type read by the model — sent to review, since a model without a fitted calibration never
auto-approves on its own confidence — and a tenant's own schema is read into its own fields.
Random weights mean the values are noise; shape, provenance, checks and routing are what is tested.
"""

from __future__ import annotations

import io
import json
import time
from typing import Any

import pytest
from rest_framework.test import APIClient

from engines.evidence import RULES
from engines.llm.schemas import FIELD_SCHEMAS
from tests.conftest import SAMPLES

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]
IN_FLIGHT = {"received", "queued", "processing", "extracted"}
SAMPLE_OF_TYPE = {
    "passport": "00000-passport.jpg",
    "id_card": "00001-id_card.jpg",
    "driver_license": "00004-driver_license.jpg",
    "receipt": "00005-receipt.jpg",
    "invoice": "00006-invoice.pdf",
    "proof_of_address": "00007-proof_of_address.jpg",
    "bank_statement": "00008-bank_statement.pdf",
    "other": "00002-td2.jpg",
}


@pytest.fixture
def api(tenant, celery_worker_process) -> APIClient:
    from apps.tenants.services import api_key_create

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Api-Key {api_key_create(tenant=tenant, name='g4').raw_key}")
    return client


def _upload(api: APIClient, name: str, document_type: str = "") -> str:
    handle = io.BytesIO((SAMPLES / name).read_bytes())
    handle.name = name
    data: dict[str, Any] = {"file": handle}
    if document_type:
        data["document_type"] = document_type
    response = api.post("/api/v1/documents", data, format="multipart")
    assert response.status_code == 202, response.content[:300]
    return str(response.json()["url"])


def _settled(api: APIClient, urls: list[str], timeout_s: float = 300) -> list[dict[str, Any]]:
    deadline = time.monotonic() + timeout_s
    results: dict[str, dict[str, Any]] = {}
    while len(results) < len(urls):
        for url in urls:
            if url not in results and (body := api.get(url).json())["status"] not in IN_FLIGHT:
                results[url] = body
        if time.monotonic() > deadline:
            raise AssertionError(f"{len(urls) - len(results)} documents still in flight after {timeout_s} s")
        time.sleep(0.5)
    return [results[url] for url in urls]


def test_every_type_is_read_by_the_model_through_the_whole_stack(api):
    urls = [_upload(api, name, document_type) for document_type, name in SAMPLE_OF_TYPE.items()]
    urls.append(_upload(api, "00003-passport.jpg"))  # no hint: the classifier decides alone
    for result in _settled(api, urls):
        assert result["status"] == "needs_review", result.get("error")
        assert result["engine"]["name"] == "gemma4"
        document_type = result["document_type"]
        assert set(result["fields"]) == set(FIELD_SCHEMAS[document_type])
        assert all(f["source"] in {"model", "mrz"} for f in result["fields"].values())
        checks = {c["name"]: c["passed"] for c in result["checks"]}
        # every field says what supports it; a model value only where the page's text holds it
        assert all(set(f["evidence"]) <= set(RULES.kinds) for f in result["fields"].values())
        if result["fields"]:
            assert checks.get("confidence_calibrated") is False
        if result["fields"] and result["file"].endswith(".pdf"):  # a text layer: values looked up
            assert "not_grounded" in checks
            assert result["timings_ms"]["extract_prompt_tokens"] > 1000  # a page at 1120 soft tokens
        assert result["timings_ms"]["classify_prompt_tokens"] > 200


def test_a_tenants_schema_is_read_into_its_own_fields_through_triton(triton_server):
    from media.triton_client import TritonEngineClient

    schema = {
        "type": "object",
        "properties": {
            "employee_name": {"type": "string"},
            "pay_date": {"type": "string", "pattern": r"^\d{4}-\d{2}-\d{2}$"},
            "gross_pay": {"type": "number", "maximum": 1000000},
        },
    }
    with TritonEngineClient(triton_server, timeout_s=120) as client:
        result = client.read_document(
            [(SAMPLES / "00005-receipt.jpg").read_bytes()],
            document_type_hint="payslip",
            schema_json=json.dumps(schema),
        )
    assert result.document_type == "payslip" and result.engine_name == "gemma4"
    assert set(result.fields) == {"employee_name", "pay_date", "gross_pay"}
    assert all(f.source == "model" for f in result.fields.values())
    assert "classify" not in result.timings_ms  # a tenant's type skips the classifier


def test_token_counts_and_engine_latency_reach_metrics(client, triton_server):
    """What the real Triton + vLLM report of a document's calls is what /metrics exposes."""
    from apps.observability import metrics
    from media.triton_client import TritonEngineClient

    with TritonEngineClient(triton_server, timeout_s=120) as reader:
        result = reader.read_document(
            [(SAMPLES / "00005-receipt.jpg").read_bytes()], document_type_hint="receipt"
        )
    before = metrics.MODEL_TOKENS.labels("extract", "prompt")._value.get()
    metrics.model_usage_observe(result.timings_ms)  # what the infer step does with every result
    text = client.get("/metrics").content.decode()
    assert 'docintel_model_tokens_total{kind="prompt",step="classify"}' in text
    assert 'docintel_model_call_seconds_count{step="extract"}' in text
    assert (
        metrics.MODEL_TOKENS.labels("extract", "prompt")._value.get() - before
        == result.timings_ms["extract_prompt_tokens"]
    )
