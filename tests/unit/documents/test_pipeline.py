"""The worker's steps, run in-process on the real database with the real CPU engine."""

import datetime as dt
import json
from pathlib import Path

import pytest
from django.utils import timezone

from apps.audit.models import AuditEvent
from apps.audit.services import audit_chain_verify
from apps.documents.models import Document, Extraction, Field
from apps.documents.models import DocumentStatus as S
from apps.documents.pipeline import (
    StepOutcome,
    document_decide,
    document_infer,
    document_prepare,
    document_validate,
    documents_reconcile,
)
from apps.documents.services import document_upload
from apps.documents.state import document_transition
from apps.documents.steps import PipelineStep
from apps.extraction.readers import LocalReader
from apps.review.models import ReviewTask
from tests.conftest import REALDATA
from tests.support.readers import FixedReader

pytestmark = pytest.mark.django_db
ICAO_PASSPORT = REALDATA / "id_specimens" / "mrzdocs_passports_ICAO_Example.png"
SAMPLES = Path(__file__).resolve().parents[3] / "samples"


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
    assert outcome.ran and outcome.next_step is None
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
    assert document_prepare(document_id=document_id).next_step == PipelineStep.INFER
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
    assert actions == [(str(document.pk), PipelineStep.PREPARE)]
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
    assert document.attempt_count == settings.DOCINTEL_MAX_ATTEMPTS  # the refused attempt is not counted


def test_reconciler_re_enqueues_recent_documents_when_the_broker_lost_its_messages(tenant):
    document = _upload(tenant, b"\x89PNG\r\n\x1a\n" + b"\x04" * 64)
    actions = documents_reconcile(now=timezone.now() + dt.timedelta(seconds=1), messages_lost=True)
    assert actions == [(str(document.pk), PipelineStep.PREPARE)]


def _sample_upload(tenant, seed: int) -> Document:
    content = (SAMPLES / "00000-passport.jpg").read_bytes() + bytes([seed])  # other bytes, same image
    return _upload(tenant, content, "passport.jpg")


def test_infer_validates_and_decides_in_the_same_step_and_audits_both_transitions(tenant):
    """GIVEN a prepared document WHEN the infer step stores the engine's result THEN the document
    is decided in that step (nothing left for a validate or decide message), its fields carry
    calibrated confidences and settled validity, its checks include the business checks, and the
    audit trail holds PROCESSING → EXTRACTED and EXTRACTED → the decision, as with separate steps."""
    document = _sample_upload(tenant, 1)
    document_id = str(document.pk)
    document_prepare(document_id=document_id)
    outcome = document_infer(document_id=document_id, reader=FixedReader())
    assert outcome == StepOutcome(ran=True, next_step=None)
    document.refresh_from_db()
    assert document.status == S.NEEDS_REVIEW == document.decision  # expired in 2012
    extraction = document.extractions.get()
    assert extraction.validated_at is not None and extraction.calibration_version
    assert "document_not_expired" in {c["name"] for c in extraction.checks}
    fields = {f.name: f for f in extraction.fields.all()}
    assert all(f.confidence is not None for f in fields.values())
    assert fields["sex"].valid is False and fields["sex"].raw_confidence == 0.9
    assert {"prepare", "infer", "validate"} <= set(document.timings_ms)
    moves = [
        (e.data["from"], e.data["to"])
        for e in AuditEvent.objects.filter(object_id=document_id, action="document.status_changed").order_by(
            "id"
        )
    ]
    assert moves == [
        ("received", "queued"),
        ("queued", "processing"),
        ("processing", "extracted"),
        ("extracted", "needs_review"),
    ]
    assert ReviewTask.objects.filter(document=document).count() == 1
    assert audit_chain_verify().ok
    # a redelivered infer, validate or decide message finds the document decided and does nothing
    assert not document_infer(document_id=document_id, reader=FixedReader()).ran
    assert not document_validate(document_id=document_id).ran
    assert not document_decide(document_id=document_id).ran
    assert AuditEvent.objects.filter(object_id=document_id).count() == 5  # 4 moves and the upload


def test_validate_and_decide_still_finish_a_document_found_extracted(tenant):
    """GIVEN a document left in EXTRACTED with an unvalidated extraction (an older worker stored it)
    WHEN the reconciler's validate and decide run THEN it ends with the decision the one-step path
    takes, its fields calibrated."""
    document = _sample_upload(tenant, 2)
    document_id = str(document.pk)
    document_prepare(document_id=document_id)
    result = FixedReader().read_document([b""])
    extraction = Extraction.objects.create(
        document=document, engine_name="fixed", engine_version="1", raw_result=result.to_dict()
    )
    Field.objects.bulk_create(
        Field(extraction=extraction, name=n, value=f.value, raw_confidence=f.confidence, source=f.source)
        for n, f in result.fields.items()
    )
    document_transition(document=document, target=S.EXTRACTED)
    assert documents_reconcile(now=timezone.now() + dt.timedelta(seconds=1), messages_lost=True) == [
        (document_id, PipelineStep.VALIDATE)
    ]
    assert document_validate(document_id=document_id).next_step == PipelineStep.DECIDE
    assert document_decide(document_id=document_id).ran
    document.refresh_from_db()
    assert document.status == S.NEEDS_REVIEW
    assert all(f.confidence is not None for f in extraction.fields.all())
    assert audit_chain_verify().ok


@pytest.mark.django_db(transaction=True)  # each step commits, as in production
def test_each_step_stays_within_its_query_budget(tenant, django_assert_max_num_queries):
    """GIVEN a tenant whose default review queue exists WHEN a document goes through upload,
    prepare and infer THEN each step issues no more queries than budgeted: the CPU a document costs
    is mostly the ORM's, so a regression here shows as a failure (bench/queries.py prints them)."""
    first = _sample_upload(tenant, 3)  # creates the tenant's default review queue
    document_prepare(document_id=str(first.pk))
    document_infer(document_id=str(first.pk), reader=FixedReader())

    content = (SAMPLES / "00000-passport.jpg").read_bytes() + b"\x04"
    # upload: dedup SELECT; BEGIN, INSERT (received and queued), 2 audit events (chain lock, head, INSERT), COMMIT
    with django_assert_max_num_queries(7):
        document = document_upload(tenant=tenant, content=content, original_name="p.jpg", uploaded_by=None)
    document_id = str(document.document.pk)
    # prepare: UPDATE … RETURNING; BEGIN, lock, INSERT pages, UPDATE, audit (lock, head,
    # INSERT), COMMIT
    with django_assert_max_num_queries(9):
        document_prepare(document_id=document_id)
    # infer: UPDATE … RETURNING, pages, the tenant's own types (apps.doctypes); BEGIN, lock,
    # extraction, fields, review tasks?, callback?, one UPDATE for both transitions, queues, review
    # task INSERT, 3 audit events (lock, head, INSERT), COMMIT, then the cases holding it, after the
    # commit (one query for a batch); and no more for a batch of documents (test_pipeline_batches)
    # but an UPDATE each
    with django_assert_max_num_queries(17):
        document_infer(document_id=document_id, reader=FixedReader())
    assert Document.objects.get(pk=document_id).status == S.NEEDS_REVIEW
