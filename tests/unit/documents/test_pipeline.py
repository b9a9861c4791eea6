"""The worker's steps, run in-process on the real database with the real CPU engine."""

import datetime as dt
import json

import pytest
from django.utils import timezone

from apps.documents.models import Document
from apps.documents.models import DocumentStatus as S
from apps.documents.pipeline import (
    INFER,
    PREPARE,
    document_decide,
    document_infer,
    document_prepare,
    document_validate,
    documents_reconcile,
)
from apps.documents.services import document_upload
from apps.extraction.readers import LocalReader
from tests.conftest import REALDATA

pytestmark = pytest.mark.django_db
ICAO_PASSPORT = REALDATA / "id_specimens" / "mrzdocs_passports_ICAO_Example.png"


def _upload(tenant, content: bytes, name: str = "doc.png") -> Document:
    return document_upload(tenant=tenant, content=content, original_name=name, uploaded_by=None).document


def _run_all(document: Document) -> Document:
    document_id = str(document.pk)
    document_prepare(document_id=document_id)
    document_infer(document_id=document_id, reader=LocalReader())
    document_validate(document_id=document_id)
    document_decide(document_id=document_id)
    return Document.objects.get(pk=document_id)


def test_corrupt_image_fails_with_a_readable_error_code(tenant):
    document = _upload(tenant, b"\xff\xd8\xff\xe0" + b"\x00garbage" * 50, "broken.jpg")
    outcome = document_prepare(document_id=str(document.pk))
    document.refresh_from_db()
    assert outcome.ran and outcome.next_task is None
    assert (document.status, document.error_code) == (S.FAILED, "unreadable_image")
    assert document.error_message


def test_corrupt_pdf_fails_with_corrupt_pdf(tenant):
    document = _upload(tenant, b"%PDF-1.7\n" + b"not really a pdf" * 20, "broken.pdf")
    document_prepare(document_id=str(document.pk))
    document.refresh_from_db()
    assert (document.status, document.error_code) == (S.FAILED, "corrupt_pdf")


@pytest.mark.skipif(not ICAO_PASSPORT.exists(), reason="../shared/realdata is not beside the checkout")
def test_passport_goes_through_every_step_and_its_fields_are_stored(tenant):
    truth = json.loads((REALDATA / "id_specimens" / "truth.json").read_text())[ICAO_PASSPORT.name]
    document = _run_all(_upload(tenant, ICAO_PASSPORT.read_bytes(), ICAO_PASSPORT.name))
    assert document.status == S.NEEDS_REVIEW  # the ICAO specimen expired in 2012
    assert document.document_type == "passport"
    extraction = document.extractions.get()
    stored = {f.name: f.value for f in extraction.fields.all()}
    for name, value in truth["fields"].items():
        assert stored[name] == value, name
    assert all(f.confidence is not None for f in extraction.fields.all())
    assert {"prepare", "infer", "validate"} <= set(document.timings_ms)


@pytest.mark.skipif(not ICAO_PASSPORT.exists(), reason="../shared/realdata is not beside the checkout")
def test_repeating_a_step_after_it_ran_changes_nothing(tenant):
    document = _upload(tenant, ICAO_PASSPORT.read_bytes())
    document_id = str(document.pk)
    assert document_prepare(document_id=document_id).next_task == INFER
    assert not document_prepare(document_id=document_id).ran
    assert Document.objects.get(pk=document_id).pages.count() == 1
    document_infer(document_id=document_id, reader=LocalReader())
    assert not document_infer(document_id=document_id, reader=LocalReader()).ran
    assert Document.objects.get(pk=document_id).extractions.count() == 1


def test_reconciler_re_enqueues_a_stuck_document_and_counts_the_attempt(tenant, settings):
    document = _upload(tenant, b"\x89PNG\r\n\x1a\n" + b"\x00" * 64)
    Document.objects.filter(pk=document.pk).update(updated_at=timezone.now() - dt.timedelta(hours=1))
    actions = documents_reconcile()
    document.refresh_from_db()
    assert actions == [(str(document.pk), PREPARE)]
    assert document.attempt_count == 1 and document.status == S.QUEUED


def test_reconciler_leaves_recent_documents_alone(tenant):
    _upload(tenant, b"\x89PNG\r\n\x1a\n" + b"\x01" * 64)
    assert documents_reconcile() == []


def test_document_that_keeps_getting_stuck_ends_failed(tenant, settings):
    document = _upload(tenant, b"\x89PNG\r\n\x1a\n" + b"\x02" * 64)
    Document.objects.filter(pk=document.pk).update(
        attempt_count=settings.DOCINTEL_MAX_ATTEMPTS, updated_at=timezone.now() - dt.timedelta(hours=1)
    )
    documents_reconcile()
    document.refresh_from_db()
    assert (document.status, document.error_code) == (S.FAILED, "max_attempts_exceeded")


def test_step_past_the_attempt_limit_fails_the_document(tenant, settings):
    document = _upload(tenant, b"\x89PNG\r\n\x1a\n" + b"\x03" * 64)
    Document.objects.filter(pk=document.pk).update(attempt_count=settings.DOCINTEL_MAX_ATTEMPTS)
    assert not document_prepare(document_id=str(document.pk)).ran
    document.refresh_from_db()
    assert (document.status, document.error_code) == (S.FAILED, "max_attempts_exceeded")


def test_reconciler_re_enqueues_recent_documents_when_the_broker_lost_its_messages(tenant):
    document = _upload(tenant, b"\x89PNG\r\n\x1a\n" + b"\x04" * 64)
    actions = documents_reconcile(now=timezone.now() + dt.timedelta(seconds=1), messages_lost=True)
    assert actions == [(str(document.pk), PREPARE)]
