"""The REST API on the real stack: PostgreSQL, Redis, a Celery worker process and Triton.

GIVEN a tenant with an API key, WHEN an integrator uploads through /api/v1 and polls, THEN the
worker carries the documents to a decision and the API shows the §3.1 result; the document's
callback_url receives the same result, signed, from the worker, retried after the receiver's 500;
batches (a zip) are counted and exported; another tenant's key sees none of it.
"""

from __future__ import annotations

import csv
import io
import json
import time
import zipfile

import pytest

from apps.documents.models import Document
from apps.tenants.webhook_secrets import webhook_secret_of
from apps.webhooks import signing
from apps.webhooks.models import WebhookDelivery
from engines.evidence import RULES as EVIDENCE
from tests.conftest import SAMPLES
from tests.factories import api_key_client
from tests.support.live_stack import IN_FLIGHT, TRUTH, poll, sample_file
from tests.support.webhook_receiver import Receiver

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def worker(celery_worker_process):
    return celery_worker_process


@pytest.fixture
def receiver():
    server = Receiver([500], path="/docintel")
    yield server
    server.server.shutdown()
    server.server.server_close()


def test_upload_poll_result_and_a_signed_webhook_retried_after_a_500(worker, tenant, receiver):
    api = api_key_client(tenant, name="it")
    name = "00000-passport.jpg"
    accepted = api.post(
        "/api/v1/documents", {"file": sample_file(name), "callback_url": receiver.url}, format="multipart"
    )
    assert accepted.status_code == 202, accepted.content
    result = poll(api, accepted.json()["url"], lambda b: b["status"] not in IN_FLIGHT)
    assert result["status"] in {"auto_approved", "needs_review"}, result["error"]
    assert result["document_type"] == "passport" and result["engine"]["name"] == "cpu-reference"
    assert result["fields"]["surname"]["value"] == TRUTH[name]["fields"]["surname"]
    assert result["fields"]["surname"]["source"] == "mrz"
    # every field says what supports it besides its score, in the kinds of engines/spec/evidence.toml;
    # an approved field always has some (docs/decisions.md): the MRZ's check digits, here
    for field in result["fields"].values():
        assert isinstance(field["evidence"], list) and set(field["evidence"]) <= set(EVIDENCE.kinds), field
    if result["decision"] == "auto_approved":
        assert all(f["evidence"] for f in result["fields"].values() if f["value"]), result["fields"]
    assert "mrz_check_digits" in result["fields"]["surname"]["evidence"]

    deadline = time.monotonic() + 60
    while len(receiver.received) < 2 and time.monotonic() < deadline:
        time.sleep(0.2)
    assert len(receiver.received) == 2, "the 500 was not retried"
    (first_headers, first_body), (headers, body) = receiver.received
    assert body == first_body and json.loads(body) == result  # the §3.1 result, as the API shows it
    tenant.refresh_from_db()
    assert signing.verify(
        secret=webhook_secret_of(tenant=tenant), body=body, signature=headers["X-DocIntel-Signature"],
        timestamp=headers["X-DocIntel-Timestamp"], timestamped_signature=headers["X-DocIntel-Signature-Timestamped"],
    )  # fmt: skip
    assert headers["X-DocIntel-Event"] == "document.decided"
    assert headers["X-DocIntel-Delivery"] == first_headers["X-DocIntel-Delivery"]
    delivery = WebhookDelivery.objects.get(document_id=result["id"])
    assert delivery.status == "succeeded"
    assert [a.status_code for a in delivery.attempt_log.all()] == [500, 200]


def test_idempotent_upload_on_the_real_stack(worker, tenant):
    api = api_key_client(tenant, name="it")
    name = "00006-invoice.pdf"
    key = {"Idempotency-Key": "invoice-00006"}
    first = api.post("/api/v1/documents", {"file": sample_file(name)}, format="multipart", headers=key)
    again = api.post("/api/v1/documents", {"file": sample_file(name)}, format="multipart", headers=key)
    assert first.status_code == again.status_code == 202 and again.json()["id"] == first.json()["id"]
    different = api.post(
        "/api/v1/documents",
        {"file": sample_file("00008-bank_statement.pdf")},
        format="multipart",
        headers=key,
    )
    assert different.status_code == 422 and different.json()["code"] == "idempotency_key_reused"
    result = poll(api, first.json()["url"], lambda b: b["status"] not in IN_FLIGHT)
    assert result["document_type"] == "invoice"
    assert Document.objects.count() == 1 and Document.objects.get().extractions.count() == 1


def _zip(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for member, content in members.items():
            archive.writestr(member, content)
    return buffer.getvalue()


def test_a_zip_batch_is_counted_exported_and_invisible_to_other_tenants(worker, tenant, other_tenant):
    api, other = api_key_client(tenant, name="it"), api_key_client(other_tenant, name="it")
    names = ["00006-invoice.pdf", "00008-bank_statement.pdf"]
    archive = _zip({f"in/{n}": (SAMPLES / n).read_bytes() for n in names})
    bomb = _zip({"ok.pdf": (SAMPLES / names[0]).read_bytes(), "bomb.png": b"\0" * 20_000_000})
    traversal = _zip({"../../outside.pdf": (SAMPLES / names[0]).read_bytes()})
    for evil, code in ((bomb, "suspicious_compression"), (traversal, "unsafe_member_path")):
        refused = api.post("/api/v1/batches", {"files": [sample_file("x.zip", evil)]}, format="multipart")
        assert refused.json()["code"] == code and refused.status_code in {413, 422}
    assert Document.objects.count() == 0

    accepted = api.post("/api/v1/batches", {"files": [sample_file("docs.zip", archive)]}, format="multipart")
    assert accepted.status_code == 202, accepted.content
    batch = poll(api, accepted.json()["url"], lambda b: not set(b["counts"]) & IN_FLIGHT)
    assert batch["total"] == 2 and sum(batch["counts"].values()) == 2
    assert [d["file"] for d in batch["documents"]] == [f"docs.zip/in/{n}" for n in names]
    lines = b"".join(api.get(batch["exports"]["jsonl"]).streaming_content).decode().splitlines()
    assert sorted(json.loads(line)["document_type"] for line in lines) == ["bank_statement", "invoice"]
    rows = list(csv.DictReader(io.StringIO(api.get(batch["exports"]["csv"]).content.decode())))
    invoice = next(r for r in rows if r["document_type"] == "invoice")
    assert invoice["invoice_number"] == TRUTH[names[0]]["fields"]["invoice_number"]

    document_id = batch["documents"][0]["id"]
    for path in (
        f"documents/{document_id}", f"documents/{document_id}/original", f"documents/{document_id}/pages/1",
        f"batches/{batch['id']}", f"batches/{batch['id']}/results.jsonl", f"batches/{batch['id']}/results.csv",
    ):  # fmt: skip
        assert api.get(f"/api/v1/{path}").status_code == 200, path
        response = other.get(f"/api/v1/{path}")
        assert response.status_code == 404 and response.json()["code"] == "not_found", path
    assert other.get("/api/v1/documents").json()["results"] == []
    assert other.get("/api/v1/batches").json()["results"] == []


def _triton_inferences(url: str) -> int:
    import tritonclient.grpc as grpcclient

    stats = grpcclient.InferenceServerClient(url).get_inference_statistics(model_name="", as_json=True)
    return sum(int(m.get("inference_count", 0)) for m in stats.get("model_stats", []))


def test_a_blurred_upload_is_sent_back_for_a_new_photo_and_never_reaches_triton(
    worker, triton_server, tenant
):
    """GIVEN a sample passport photo blurred out of reading WHEN it is uploaded THEN the result is
    ``resubmission_requested`` with the reason ``blurred`` and a sentence for the applicant, and
    Triton counted no inference for it."""
    import cv2
    import numpy as np

    image = cv2.imdecode(
        np.frombuffer((SAMPLES / "00000-passport.jpg").read_bytes(), np.uint8), cv2.IMREAD_COLOR
    )
    ok, blurred = cv2.imencode(".jpg", cv2.GaussianBlur(image, (0, 0), 6.0), [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    before = _triton_inferences(triton_server)
    api = api_key_client(tenant, name="it")
    accepted = api.post(
        "/api/v1/documents", {"file": sample_file("blurred.jpg", blurred.tobytes())}, format="multipart"
    )
    assert accepted.status_code == 202, accepted.content
    result = poll(api, accepted.json()["url"], lambda b: b["status"] not in IN_FLIGHT)
    assert result["status"] == result["decision"] == "resubmission_requested", result
    assert result["resubmission"]["reasons"] == ["blurred"] and result["resubmission"]["message"]
    failed = [c["name"] for c in result["checks"] if not c["passed"]]
    assert [name for name in failed if name.startswith("capture_")] == ["capture_blurred"]
    assert result["engine"] is None and result["fields"] == {}
    assert _triton_inferences(triton_server) == before
