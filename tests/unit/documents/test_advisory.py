"""The advisory authenticity signals run after the decision, only where they matter
(apps.documents.advisory): a photographed document of a type the tenant's authenticity policy
names is decided with its signals pending, and the advisory step attaches them; other documents
owe none. On the real PostgreSQL and page images; the engine's answer is fixed (a reading of the
type each test names), as in tests/unit/documents/test_pipeline.py."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from django.utils import timezone

from apps.documents import blobs
from apps.documents.advisory import document_advisory, documents_advisory_reconcile
from apps.documents.models import AdvisoryState, Document
from apps.documents.models import DocumentStatus as S
from apps.documents.pipeline import document_decide, document_prepare
from apps.documents.services import document_fail, document_upload
from apps.documents.steps import PipelineStep
from tests.factories import decided_upload
from tests.support.readers import TypedReader

pytestmark = pytest.mark.django_db
SAMPLES = Path(__file__).resolve().parents[3] / "samples"
SIGNALS = {"authenticity_screen", "authenticity_print", "authenticity_edited", "authenticity_copied"}

# the steps requested, as (step, document id): settings.DOCINTEL_STEP_SENDER names record_step
REQUESTED: list[tuple[str, str]] = []


def record_step(step: PipelineStep, document_ids) -> None:
    REQUESTED.extend((str(step), str(d)) for d in document_ids)


@pytest.fixture(autouse=True)
def _recorded_steps(settings):
    settings.DOCINTEL_STEP_SENDER = f"{__name__}.record_step"
    REQUESTED.clear()
    yield
    REQUESTED.clear()


def _authenticity(document: Document) -> list[dict]:
    return [c for c in document.page_checks if c.get("kind") == "authenticity"]


def test_a_photographed_passport_is_decided_with_its_signals_pending_then_they_are_attached(
    tenant, django_capture_on_commit_callbacks
):
    """GIVEN a photographed passport (the default policy names identity documents) WHEN it is
    decided THEN its signals are pending, none computed yet, and the advisory step is requested
    once the decision commits; WHEN that step runs THEN the four page signals are attached as
    advisory authenticity checks, the state is done, and the decision is what it was."""
    document = decided_upload(
        tenant, "00000-passport.jpg", "passport", django_capture=django_capture_on_commit_callbacks
    )
    assert document.advisory_state == AdvisoryState.PENDING and document.advisory_done_at is None
    assert _authenticity(document) == []
    assert (str(PipelineStep.ADVISORY), str(document.pk)) in REQUESTED
    decided = (document.status, document.decision)

    assert document_advisory(document_id=str(document.pk)) == "done"
    document.refresh_from_db()
    checks = _authenticity(document)
    assert {c["name"] for c in checks} >= SIGNALS
    assert all(c["advisory"] and c["page"] == 1 and "score" in c for c in checks)
    assert document.advisory_state == AdvisoryState.DONE and document.advisory_done_at is not None
    assert (document.status, document.decision) == decided
    # capture checks from prepare are kept beside them
    assert [c for c in document.page_checks if c["kind"] == "capture"]


def test_the_advisory_step_run_twice_changes_nothing_the_second_time(tenant):
    """GIVEN a document whose signals were attached WHEN its message is delivered again THEN the
    step is skipped and the checks are not repeated."""
    document = decided_upload(tenant, "00001-id_card.jpg", "id_card")
    assert document_advisory(document_id=str(document.pk)) == "done"
    document.refresh_from_db()
    before = (document.page_checks, document.advisory_done_at)
    assert document_advisory(document_id=str(document.pk)) == "skipped"
    document.refresh_from_db()
    assert (document.page_checks, document.advisory_done_at) == before


def test_a_receipt_photo_owes_no_signals_under_the_default_policy(tenant, django_capture_on_commit_callbacks):
    """GIVEN a photographed receipt (not in the default policy) WHEN it is decided THEN nothing is
    pending, no advisory step is requested and no authenticity check is stored."""
    document = decided_upload(
        tenant, "00005-receipt.jpg", "receipt", django_capture=django_capture_on_commit_callbacks
    )
    assert document.advisory_state == AdvisoryState.NONE
    assert not [r for r in REQUESTED if r[0] == str(PipelineStep.ADVISORY)]
    assert _authenticity(document) == []
    assert document_advisory(document_id=str(document.pk)) == "skipped"


def test_a_tenant_policy_that_names_receipts_turns_their_signals_on(tenant):
    """GIVEN a tenant whose policy adds receipts WHEN a receipt photo is decided THEN its signals
    are owed and attached like a passport's."""
    from apps.doctypes.services import authenticity_policy_set

    authenticity_policy_set(tenant=tenant, document_types=["passport", "receipt"])
    document = decided_upload(tenant, "00005-receipt.jpg", "receipt")
    assert document.advisory_state == AdvisoryState.PENDING
    assert document_advisory(document_id=str(document.pk)) == "done"
    document.refresh_from_db()
    assert {c["name"] for c in _authenticity(document)} >= SIGNALS


def test_a_policy_without_identity_documents_leaves_a_passport_alone(tenant):
    from apps.doctypes.services import authenticity_policy_set

    authenticity_policy_set(tenant=tenant, document_types=["receipt"])
    document = decided_upload(tenant, "00000-passport.jpg", "passport", salt=3)
    assert document.advisory_state == AdvisoryState.NONE


def test_a_digital_pdf_never_gets_signals_whatever_its_type(tenant):
    """GIVEN a digital bank statement (the address family is in the default policy) and a
    digital invoice under a policy that names invoices WHEN they are decided THEN neither owes
    signals: a digital PDF is no capture."""
    from apps.doctypes.services import authenticity_policy_set

    statement = decided_upload(tenant, "00008-bank_statement.pdf", "bank_statement")
    assert statement.advisory_state == AdvisoryState.NONE and _authenticity(statement) == []
    authenticity_policy_set(tenant=tenant, document_types=["invoice", "bank_statement"])
    invoice = decided_upload(tenant, "00006-invoice.pdf", "invoice")
    assert invoice.advisory_state == AdvisoryState.NONE and _authenticity(invoice) == []


def test_the_master_switch_turns_every_signal_off(tenant, settings):
    settings.DOCINTEL_AUTHENTICITY_SIGNALS = False
    document = decided_upload(tenant, "00000-passport.jpg", "passport", salt=4)
    assert document.advisory_state == AdvisoryState.NONE


def test_a_document_decided_by_the_decide_step_owes_its_signals_too(tenant):
    """GIVEN a passport photo found in EXTRACTED (stored by an older worker: the reconciler's path,
    validate then decide) WHEN the decide step decides it THEN its signals are pending as after
    inference."""
    from apps.documents.models import Extraction, Field
    from apps.documents.pipeline import document_validate
    from apps.documents.state import document_transition

    content = (SAMPLES / "00000-passport.jpg").read_bytes() + b"\x05"
    document = document_upload(
        tenant=tenant, content=content, original_name="p.jpg", uploaded_by=None
    ).document
    document_prepare(document_id=str(document.pk))
    result = TypedReader("passport").read_document([b""])
    extraction = Extraction.objects.create(
        document=document, engine_name="fixed", engine_version="1", raw_result=result.to_dict()
    )
    Field.objects.bulk_create(
        Field(extraction=extraction, name=n, value=f.value, raw_confidence=f.confidence, source=f.source)
        for n, f in result.fields.items()
    )
    document.refresh_from_db()
    document.document_type = "passport"
    document.save(update_fields=["document_type"])
    document_transition(document=document, target=S.EXTRACTED)
    assert document_validate(document_id=str(document.pk)).next_step == PipelineStep.DECIDE
    assert document_decide(document_id=str(document.pk)).ran
    document.refresh_from_db()
    assert document.status in {S.AUTO_APPROVED, S.NEEDS_REVIEW}
    assert document.advisory_state == AdvisoryState.PENDING


def test_a_document_erased_meanwhile_is_skipped(tenant):
    document = decided_upload(tenant, "00000-passport.jpg", "passport", salt=6)
    document_id = str(document.pk)
    document.extractions.all().delete()
    document.pages.all().delete()
    Document.objects.filter(pk=document_id).delete()
    assert document_advisory(document_id=document_id) == "skipped"


def test_pages_gone_meanwhile_end_the_advisory_work_with_no_signals(tenant):
    """GIVEN a pending document whose page images were deleted (erased while its message waited)
    WHEN the step runs THEN it is done with no signals, not retried forever."""
    document = decided_upload(tenant, "00000-passport.jpg", "passport", salt=7)
    for page in document.pages.all():
        blobs.blob_delete(name=page.blob_name)
    assert document_advisory(document_id=str(document.pk)) == "done"
    document.refresh_from_db()
    assert document.advisory_state == AdvisoryState.DONE and _authenticity(document) == []


def test_a_pending_document_left_too_long_is_requested_again(tenant, settings):
    """GIVEN a document pending its signals whose message was lost WHEN the reconciler runs past
    the deadline THEN the advisory step is requested again (and not before the deadline)."""
    document = decided_upload(tenant, "00000-passport.jpg", "passport", salt=8)
    REQUESTED.clear()
    assert documents_advisory_reconcile() == []
    later = timezone.now() + dt.timedelta(seconds=settings.DOCINTEL_STUCK_AFTER_S + 1)
    assert documents_advisory_reconcile(now=later) == [str(document.pk)]
    assert [(str(PipelineStep.ADVISORY), str(document.pk))] == REQUESTED


def test_reprocess_resets_the_advisory_state(tenant):
    from apps.documents.reprocess import ReprocessVia, document_reprocess

    document = decided_upload(tenant, "00000-passport.jpg", "passport", salt=9)
    assert document_advisory(document_id=str(document.pk)) == "done"
    document.refresh_from_db()
    # a decided document is not reprocessed: this one failed afterwards (as a later step might)
    Document.objects.filter(pk=document.pk).update(status=S.PROCESSING)
    document.refresh_from_db()
    document_fail(document=document, code="internal_error", message="test")
    document_reprocess(document=Document.objects.get(pk=document.pk), actor=None, via=ReprocessVia.COMMAND)
    document.refresh_from_db()
    assert (document.advisory_state, document.advisory_done_at, document.page_checks) == ("", None, [])


def test_the_document_and_review_pages_say_the_signals_are_pending(tenant, operator_client):
    """GIVEN a passport photo decided into review with its signals pending WHEN a reviewer opens
    its document page and its review task THEN both say the signals are pending; once attached,
    the signals are shown instead."""
    from django.urls import reverse

    from apps.review.models import ReviewTask

    document = decided_upload(tenant, "00000-passport.jpg", "passport", salt=10)
    task = ReviewTask.objects.get(document=document)
    pages = [
        reverse("ingestion:document_detail", args=[document.pk]),
        reverse("review:task_detail", args=[task.pk]),
    ]
    for url in pages:
        page = operator_client.get(url).content.decode()
        assert 'id="advisory-pending"' in page and "Authenticity signals pending" in page, url
    document_advisory(document_id=str(document.pk))
    for url in pages:
        page = operator_client.get(url).content.decode()
        assert 'id="advisory-pending"' not in page and "Authenticity signals (advisory)" in page, url
