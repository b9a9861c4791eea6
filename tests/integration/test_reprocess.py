"""A failed document tried again, carried to a decision by the real Celery worker and Triton.

GIVEN documents an outage of the model engine failed after their pages were read (the prepare
step run in-process, then ``document_fail`` with ``max_attempts_exceeded``, as the retries running
out leave them), WHEN an operator asks through the API, when ``manage.py reprocess`` is run, or
when the same bytes are uploaded again, THEN each goes back through the normal dispatch path and
the worker and Triton decide it, its callback told; an uploader is refused and another tenant
finds nothing.
"""

from __future__ import annotations

import io
import json
import time

import pytest
from django.core.management import call_command
from django.db import transaction
from rest_framework.test import APIClient

from apps.audit.models import AuditEvent
from apps.documents import error_codes
from apps.documents.models import Document
from apps.documents.models import DocumentStatus as S
from apps.documents.pipeline import documents_prepare
from apps.documents.services import document_fail, document_upload
from apps.documents.state import IN_FLIGHT
from tests.conftest import SAMPLES
from tests.factories import member, session_client
from tests.support.webhook_receiver import Receiver

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]
DECIDED = {S.AUTO_APPROVED, S.NEEDS_REVIEW}


@pytest.fixture
def worker(celery_worker_process):
    return celery_worker_process


def _failed_by_an_outage(tenant, name: str, code: str = error_codes.MAX_ATTEMPTS_EXCEEDED) -> Document:
    """Uploaded and prepared (its pages stored), then failed before inference: one transaction, so
    the prepare message its upload sends on commit finds it failed and does nothing."""
    with transaction.atomic():
        document = document_upload(
            tenant=tenant, content=(SAMPLES / name).read_bytes(), original_name=name, uploaded_by=None
        ).document
        documents_prepare(document_ids=[str(document.pk)])
        document = document_fail(document=document, code=code, message="the model engine was unavailable")
    assert document.status == S.FAILED and document.pages.exists()
    return document


def _settled(document: Document, timeout_s: float = 180) -> Document:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        document.refresh_from_db()
        if document.status not in IN_FLIGHT:
            return document
        time.sleep(0.25)
    raise AssertionError(f"document still {document.status} after {timeout_s} s")


def test_an_operator_reprocesses_a_failed_document_through_the_api_and_it_is_decided(
    worker, tenant, other_tenant, operator, django_user_model
):
    document = _failed_by_an_outage(tenant, "00000-passport.jpg")
    url = f"/api/v1/documents/{document.pk}/reprocess"
    uploader = member(tenant, username="uma", role="uploader")
    assert session_client(uploader).post(url).status_code == 403
    stranger = member(other_tenant, username="oscar", role="admin")
    assert session_client(stranger).post(url).status_code == 404
    document.refresh_from_db()
    assert document.status == S.FAILED

    response = session_client(operator).post(url)
    assert response.status_code == 202, response.content
    decided = _settled(document)
    assert decided.status in DECIDED, (decided.error_code, decided.error_message)
    assert (decided.document_type, decided.error_code, decided.reprocess_count) == ("passport", "", 1)
    assert decided.extractions.count() == 1 and decided.pages.count() == 1
    result = session_client(operator).get(f"/api/v1/documents/{document.pk}").json()
    assert result["status"] == decided.status and result["error"] is None
    moves = [
        (e.data["from"], e.data["to"])
        for e in AuditEvent.objects.filter(object_id=str(document.pk), action="document.status_changed")
    ]
    assert moves[:4] == [("received", "queued"), ("queued", "processing"), ("processing", "failed"),
                         ("failed", "received")]  # fmt: skip
    assert moves[4:6] == [("received", "queued"), ("queued", "processing")]
    assert AuditEvent.objects.get(object_id=str(document.pk), action="document.reprocessed").actor == operator


def test_the_command_reprocesses_the_documents_an_outage_failed(worker, tenant):
    outage = _failed_by_an_outage(tenant, "00005-receipt.jpg")
    other = _failed_by_an_outage(tenant, "00003-passport.jpg", code=error_codes.UNREADABLE_IMAGE)
    out = io.StringIO()
    call_command("reprocess", "--status", "failed", "--error-code", "max_attempts_exceeded", "--since", "1h",
                 stdout=out)  # fmt: skip
    assert out.getvalue().splitlines() == [str(outage.pk), "reprocessed 1 failed documents"]
    decided = _settled(outage)
    assert decided.status in DECIDED and decided.document_type == "receipt", decided.error_code
    other.refresh_from_db()
    assert other.status == S.FAILED  # its code was not asked for


@pytest.fixture
def receiver():
    server = Receiver(path="/docintel")
    yield server
    server.server.shutdown()
    server.server.server_close()


def test_uploading_a_failed_documents_bytes_again_reprocesses_it_and_its_callback_hears(
    worker, tenant, receiver
):
    from apps.tenants.services import api_key_create

    document = _failed_by_an_outage(tenant, "00001-id_card.jpg")
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Api-Key {api_key_create(tenant=tenant, name='it').raw_key}")
    handle = io.BytesIO((SAMPLES / "00001-id_card.jpg").read_bytes())
    handle.name = "id-again.jpg"
    response = api.post(
        "/api/v1/documents", {"file": handle, "callback_url": receiver.url}, format="multipart"
    )
    assert response.status_code == 200, response.content
    assert (response.json()["id"], response.json()["duplicate"]) == (str(document.pk), True)
    decided = _settled(document)
    assert decided.status in DECIDED and decided.document_type == "id_card", decided.error_code
    deadline = time.monotonic() + 60
    while not receiver.received and time.monotonic() < deadline:
        time.sleep(0.2)
    ((headers, body),) = receiver.received
    assert headers["X-DocIntel-Event"] == "document.decided"
    assert json.loads(body)["status"] == decided.status
