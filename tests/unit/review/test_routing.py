"""Routing on decide: a document that needs review lands in the right queue exactly once, and a
sample of auto-approved documents is audited."""

import datetime as dt

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from apps.audit.models import AuditEvent
from apps.documents.models import DocumentStatus as S
from apps.documents.pipeline import document_decide
from apps.review.models import ReviewQueue, ReviewTask, TaskKind, TaskStatus
from apps.review.services import QueueSettings, review_queue_create, review_task_route
from tests.factories import decided_document, extracted_document

pytestmark = pytest.mark.django_db


def test_document_below_threshold_gets_a_review_task_in_the_default_queue_with_its_reasons(tenant):
    document = decided_document(tenant)
    assert document.status == S.NEEDS_REVIEW
    task = ReviewTask.objects.get(document=document)
    assert task.kind == TaskKind.REVIEW and task.status == TaskStatus.OPEN
    assert task.queue.is_default and task.queue.tenant == tenant
    assert task.reasons == ["surname below confidence threshold"]
    assert task.document_type == "passport"
    assert task.due_at > timezone.now() + task.queue.sla - dt.timedelta(minutes=1)


def test_failed_check_and_document_type_other_are_routed_with_their_reasons(tenant):
    failed = decided_document(tenant, review=False, checks={"mrz_check_digits": False})
    other = decided_document(tenant, review=False, document_type="other", values={})
    assert ReviewTask.objects.get(document=failed).reasons == ["check mrz_check_digits failed"]
    assert ReviewTask.objects.get(document=other).reasons == ["no automatic decision for document type other"]


def test_a_queue_for_the_document_type_takes_its_documents(tenant, supervisor):
    passports = review_queue_create(
        tenant=tenant,
        actor=supervisor,
        config=QueueSettings(name="Passports", document_types=["passport"], priority=3),
    )
    task = ReviewTask.objects.get(document=decided_document(tenant))
    assert task.queue == passports and task.priority == 3
    receipt_task = ReviewTask.objects.get(
        document=decided_document(tenant, document_type="receipt", values={"merchant_name": "SPAR"})
    )
    assert receipt_task.queue.is_default


def test_auto_approved_document_is_audited_when_drawn(tenant, settings):
    settings.DOCINTEL_QA_SAMPLE_RATE = 1.0
    document = decided_document(tenant, review=False)
    assert document.status == S.AUTO_APPROVED
    task = ReviewTask.objects.get(document=document)
    assert task.kind == TaskKind.QUALITY_AUDIT and task.reasons == ["sampled for quality audit"]
    assert task.priority == task.queue.priority - 1  # behind the reviews customers wait on


def test_auto_approved_document_is_not_audited_when_not_drawn(tenant, settings):
    settings.DOCINTEL_QA_SAMPLE_RATE = 0.0
    document = decided_document(tenant, review=False)
    assert document.status == S.AUTO_APPROVED
    assert not ReviewTask.objects.filter(document=document).exists()


def test_the_queue_rate_overrides_the_setting(tenant, supervisor, settings):
    settings.DOCINTEL_QA_SAMPLE_RATE = 0.0
    review_queue_create(
        tenant=tenant, actor=supervisor, config=QueueSettings(name="Audit all", qa_sample_rate=1.0)
    )
    document = decided_document(tenant, review=False)
    assert ReviewTask.objects.get(document=document).queue.name == "Audit all"


def test_a_redelivered_decide_creates_no_second_task(tenant):
    document = extracted_document(tenant, confidences={"surname": 0.5})
    document_decide(document_id=str(document.pk))
    assert not document_decide(document_id=str(document.pk)).ran
    document.refresh_from_db()
    # even called directly again, the unique (document, kind) row is returned, not duplicated
    again = review_task_route(document=document, outcome="needs_review", reasons=["x"])
    assert ReviewTask.objects.filter(document=document).count() == 1
    assert again == ReviewTask.objects.get(document=document)
    assert AuditEvent.objects.filter(action="review.task_created").count() == 1


def test_the_database_refuses_a_second_task_of_the_same_kind_for_a_document(tenant):
    task = ReviewTask.objects.get(document=decided_document(tenant))
    with pytest.raises(IntegrityError), transaction.atomic():
        ReviewTask.objects.create(
            tenant=tenant, document=task.document, queue=task.queue, kind=task.kind, due_at=task.due_at
        )


def test_each_tenant_gets_its_own_default_queue(tenant, other_tenant):
    decided_document(tenant)
    decided_document(other_tenant)
    assert ReviewQueue.objects.filter(is_default=True).count() == 2
    for task in ReviewTask.objects.all():
        assert task.queue.tenant_id == task.tenant_id == task.document.tenant_id
