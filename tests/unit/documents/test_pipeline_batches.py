"""The dispatcher's batched steps (apps.documents.pipeline.documents_infer_begin/finish): many
documents read and stored in one go, each ending exactly as it would on its own."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from apps.audit.models import AuditEvent
from apps.audit.services import audit_chain_verify
from apps.documents.models import Document
from apps.documents.models import DocumentStatus as S
from apps.documents.pipeline import (
    InferInput,
    StepOutcome,
    document_infer_finish,
    document_prepare,
    documents_infer_begin,
    documents_infer_finish,
    documents_prepare,
)
from apps.documents.services import document_fail, document_upload
from apps.documents.steps import PipelineStep
from apps.review.models import ReviewTask
from apps.review.services.queues import review_queue_default
from engines.types import EngineError, FieldResult
from tests.support.readers import FixedReader
from workers.dispatcher import _batch_or_each

pytestmark = pytest.mark.django_db
SAMPLE = Path(__file__).resolve().parents[3] / "samples" / "00000-passport.jpg"


def _prepared(tenant, count: int, salt: int) -> list[str]:
    ids = []
    for i in range(count):
        content = SAMPLE.read_bytes() + bytes([salt, i])  # other bytes, same image
        document = document_upload(tenant=tenant, content=content, original_name="p.jpg", uploaded_by=None)
        document_prepare(document_id=str(document.document.pk))
        ids.append(str(document.document.pk))
    return ids


def _moves(document_id: str) -> list[tuple[str, str]]:
    events = AuditEvent.objects.filter(object_id=document_id, action="document.status_changed").order_by("id")
    return [(e.data["from"], e.data["to"]) for e in events]


def test_a_batch_is_read_and_stored_in_a_few_queries_and_each_document_ends_as_alone(
    tenant, django_assert_max_num_queries
):
    """GIVEN 6 prepared documents WHEN their inputs are read together and their results stored
    together THEN reading takes 3 queries (the attempts, the pages, the tenants' own types),
    storing 13 (one UPDATE for them all), and each
    document is decided with its review task and both transitions audited, the chain intact."""
    ids = _prepared(tenant, 6, salt=1)
    review_queue_default(tenant=tenant)  # exists from the tenant's first review on
    with django_assert_max_num_queries(3):
        begun = documents_infer_begin(document_ids=ids)
    assert all(isinstance(b, InferInput) and len(b.pages) == 1 for b in begun)
    assert [str(b.document.pk) for b in begun] == ids  # in the order asked
    result = FixedReader().read_document([b""])
    with django_assert_max_num_queries(13):
        outcomes = documents_infer_finish(finished=[(b, result) for b in begun])
    assert outcomes == [StepOutcome(ran=True)] * len(ids)
    for document_id in ids:
        document = Document.objects.get(pk=document_id)
        assert (document.status, document.decision, document.document_type) == (
            S.NEEDS_REVIEW, S.NEEDS_REVIEW, "passport",
        )  # fmt: skip
        assert {"prepare", "infer", "validate"} <= set(document.timings_ms)
        assert document.extractions.get().fields.count() == len(result.fields)
        assert _moves(document_id)[-2:] == [("processing", "extracted"), ("extracted", "needs_review")]
    assert ReviewTask.objects.filter(document_id__in=ids).count() == len(ids)
    assert audit_chain_verify().ok
    # the same batch again (redelivered messages) finds them decided and does nothing
    assert documents_infer_begin(document_ids=ids) == [StepOutcome(ran=False)] * len(ids)
    assert documents_infer_finish(finished=[(b, result) for b in begun]) == [StepOutcome(ran=False)] * len(
        ids
    )


def test_a_document_that_moved_on_or_failed_in_the_engine_does_not_hold_up_its_batch(tenant):
    """GIVEN a batch of 4 where one document was failed meanwhile and the engine refused another
    WHEN stored together THEN the refused one is FAILED with the engine's code, the failed one is
    left as it was, and the other two are decided."""
    ids = _prepared(tenant, 4, salt=2)
    begun = documents_infer_begin(document_ids=ids)
    document_fail(document=begun[1].document, code="internal_error", message="an operator cancelled it")
    result = FixedReader().read_document([b""])
    refused = EngineError("unreadable_image", "no text found")
    outcomes = documents_infer_finish(
        finished=[(begun[0], result), (begun[1], result), (begun[2], refused), (begun[3], result)]
    )
    assert outcomes == [
        StepOutcome(ran=True),
        StepOutcome(ran=False),
        StepOutcome(ran=True),
        StepOutcome(ran=True),
    ]
    statuses = [Document.objects.get(pk=i) for i in ids]
    assert [(d.status, d.error_code) for d in statuses] == [
        (S.NEEDS_REVIEW, ""), (S.FAILED, "internal_error"), (S.FAILED, "unreadable_image"), (S.NEEDS_REVIEW, ""),
    ]  # fmt: skip
    assert audit_chain_verify().ok


def test_a_row_the_database_refuses_fails_alone_when_the_batch_is_retried_one_by_one(tenant):
    """GIVEN a batch of 3 in which one result cannot be stored (a field source longer than its
    column) WHEN the dispatcher stores it THEN the batch is rolled back, retried one document at a
    time, the two good documents are decided and the bad one's error is its own result."""
    ids = _prepared(tenant, 3, salt=3)
    begun = documents_infer_begin(document_ids=ids)
    good = FixedReader().read_document([b""])
    bad = dataclasses.replace(
        good,
        fields={**good.fields, "surname": FieldResult("ERIKSSON", 0.95, page=1, bbox=None, source="x" * 40)},
    )
    results = _batch_or_each(
        batch=lambda items: documents_infer_finish(finished=items),
        each=lambda item: document_infer_finish(begun=item[0], result=item[1]),
        items=[(begun[0], good), (begun[1], bad), (begun[2], good)],
    )
    assert results[0] == results[2] == StepOutcome(ran=True)
    assert isinstance(results[1], Exception)
    assert [Document.objects.get(pk=i).status for i in ids] == [S.NEEDS_REVIEW, S.PROCESSING, S.NEEDS_REVIEW]
    assert audit_chain_verify().ok


def _queued(tenant, count: int, salt: int) -> list[str]:
    ids = []
    for i in range(count):
        content = SAMPLE.read_bytes() + bytes([salt, i])
        document = document_upload(tenant=tenant, content=content, original_name="p.jpg", uploaded_by=None)
        ids.append(str(document.document.pk))
    return ids


def test_a_batch_is_prepared_in_one_transaction_and_a_bad_file_fails_alone(
    tenant, django_assert_max_num_queries
):
    """GIVEN 4 queued photos and a corrupt file WHEN prepared together THEN the 4 have their page
    stored and are PROCESSING (infer next), the corrupt one is FAILED with its code, and the good
    ones took one transaction: far fewer queries than one document at a time (9 each)."""
    good = _queued(tenant, 4, salt=4)
    broken = document_upload(
        tenant=tenant,
        content=b"\xff\xd8\xff\xe0" + b"\x00garbage" * 50,
        original_name="b.jpg",
        uploaded_by=None,
    ).document
    ids = [good[0], good[1], str(broken.pk), good[2], good[3]]
    # attempts (1); the corrupt file's failure (its own transaction, 7); the batch: BEGIN, lock,
    # pages, one UPDATE for them all, audit (lock, head, INSERT), COMMIT
    with django_assert_max_num_queries(1 + 7 + 8):
        outcomes = documents_prepare(document_ids=ids)
    infer = PipelineStep.INFER
    assert [o.next_step for o in outcomes] == [infer, infer, None, infer, infer]
    assert all(o.ran for o in outcomes)
    for document_id in good:
        document = Document.objects.get(pk=document_id)
        assert document.status == S.PROCESSING and document.attempt_count == 1
        assert (
            document.status_changed_at > document.created_at
            and document.updated_at >= document.status_changed_at
        )
        assert document.pages.count() == 1 and "prepare" in document.timings_ms
        assert _moves(document_id)[-1] == ("queued", "processing")
    broken.refresh_from_db()
    assert (broken.status, broken.error_code) == (S.FAILED, "unreadable_image")
    assert documents_prepare(document_ids=ids) == [StepOutcome(ran=False)] * len(ids)  # redelivered
    assert audit_chain_verify().ok


def test_a_document_with_an_attempt_behind_it_is_not_prepared_with_its_batch(tenant):
    """GIVEN a prepare batch whose message came back after a worker died on it (one document's
    attempt is counted) WHEN the task runs THEN that document is left to a message of its own
    (still QUEUED here) and the others are prepared together."""
    from workers.tasks import prepare_batch

    ids = _queued(tenant, 3, salt=5)
    Document.objects.filter(pk=ids[1]).update(attempt_count=1)
    prepare_batch(ids)
    statuses = [Document.objects.get(pk=i).status for i in ids]
    assert statuses == [S.PROCESSING, S.QUEUED, S.PROCESSING]


def test_the_readings_glyph_signal_is_stored_beside_the_page_checks(tenant):
    """GIVEN a prepared passport photo whose page shows a date with one digit pasted in at another
    size WHEN the reading places that date THEN the document is decided with its advisory signals
    pending, and the advisory step then stores the authenticity_glyphs check, flagged on the
    date's box, among the document's page checks; the decision does not change because of it."""
    from apps.documents import blobs
    from apps.documents.advisory import document_advisory
    from apps.documents.models import AdvisoryState
    from tests.support import glyph_pages
    from tests.support.glyph_pages import DATE_BOX, jpeg_bytes

    (document_id,) = _prepared(tenant, 1, salt=9)
    document = Document.objects.get(pk=document_id)
    glyph_page = jpeg_bytes(glyph_pages.glyph_page({"scale": 1.25}))
    blobs.blob_write(document=document, name=document.pages.get().blob_name, plaintext=glyph_page)
    (begun,) = documents_infer_begin(document_ids=[document_id])
    assert isinstance(begun, InferInput) and begun.pages == [glyph_page]
    result = FixedReader().read_document([b""])
    fields = dict(result.fields)
    fields["date_of_birth"] = FieldResult("1985-03-29", 0.99, page=1, bbox=DATE_BOX, source="ocr")
    result = dataclasses.replace(result, fields=fields)
    assert documents_infer_finish(finished=[(begun, result)]) == [StepOutcome(ran=True)]
    document = Document.objects.get(pk=document_id)
    assert document.advisory_state == AdvisoryState.PENDING
    assert not [c for c in document.page_checks if c["kind"] == "authenticity"]
    assert document_advisory(document_id=document_id) == "done"
    document = Document.objects.get(pk=document_id)
    (glyphs,) = [c for c in document.page_checks if c["name"] == "authenticity_glyphs"]
    assert not glyphs["passed"] and glyphs["advisory"] and glyphs["region"] == [round(v, 4) for v in DATE_BOX]
    assert document.advisory_state == AdvisoryState.DONE and document.advisory_done_at is not None
    assert document.status == S.NEEDS_REVIEW
