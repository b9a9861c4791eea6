"""The advisory authenticity signals on the real services: web upload → PostgreSQL → Celery on
Redis → Triton → decision, then the advisory step on ``DOCINTEL_ADVISORY_QUEUE`` (the session's
worker consumes it too).

GIVEN a photographed passport (identity: the default policy names it) WHEN it is uploaded THEN it
is decided first, with its signals pending, and the advisory step attaches them afterwards, the
decision unchanged; GIVEN a receipt photo THEN it is decided with no signals owed, none pending.
"""

import io
import time
from pathlib import Path

import pytest
from django.urls import reverse

from apps.audit.models import AuditEvent
from apps.documents.models import AdvisoryState, Document
from apps.documents.models import DocumentStatus as S
from apps.documents.state import IN_FLIGHT

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]
SAMPLES = Path(__file__).resolve().parents[2] / "samples"
SIGNALS = {"authenticity_screen", "authenticity_print", "authenticity_edited", "authenticity_copied"}


def _upload(client, content: bytes, name: str) -> Document:
    handle = io.BytesIO(content)
    handle.name = name
    response = client.post(reverse("ingestion:upload"), {"file": handle})
    assert response.status_code == 302, response.content[:500]
    return Document.objects.get(pk=response["Location"].rstrip("/").split("/")[-1])


def _wait(document: Document, settled, timeout_s: float = 180) -> Document:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        document.refresh_from_db()
        if settled(document):
            return document
        time.sleep(0.2)
    raise AssertionError(
        f"document {document.status}, advisory {document.advisory_state!r} after {timeout_s} s"
    )


def test_a_photographed_passport_is_decided_before_its_signals_are_attached(
    celery_worker_process, operator_client
):
    document = _upload(operator_client, (SAMPLES / "00000-passport.jpg").read_bytes(), "passport.jpg")
    document = _wait(document, lambda d: d.status not in IN_FLIGHT)
    assert document.status in {S.AUTO_APPROVED, S.NEEDS_REVIEW}, (document.error_code, document.error_message)
    assert document.document_type == "passport"
    decided = (document.status, document.decision)
    document = _wait(document, lambda d: d.advisory_state == AdvisoryState.DONE)
    checks = [c for c in document.page_checks if c.get("kind") == "authenticity"]
    assert {c["name"] for c in checks} >= SIGNALS and all(c["advisory"] for c in checks)
    assert (document.status, document.decision) == decided  # advisory: the decision stays
    decision_event = AuditEvent.objects.filter(
        object_id=str(document.pk), action="document.status_changed", data__to=document.decision
    ).get()
    # the decision was committed before the signals were computed: its latency excludes them
    assert decision_event.created_at < document.advisory_done_at


def test_a_receipt_photo_owes_no_signals(celery_worker_process, operator_client):
    document = _upload(operator_client, (SAMPLES / "00005-receipt.jpg").read_bytes(), "receipt.jpg")
    document = _wait(document, lambda d: d.status not in IN_FLIGHT)
    assert document.status in {S.AUTO_APPROVED, S.NEEDS_REVIEW}, (document.error_code, document.error_message)
    assert document.document_type == "receipt"
    time.sleep(1.0)  # were a step sent, the worker would take it at once
    document.refresh_from_db()
    assert document.advisory_state == AdvisoryState.NONE and document.advisory_done_at is None
    assert not [c for c in document.page_checks if c.get("kind") == "authenticity"]
