""" "Next task": who may claim, in which order, and what a lease means."""

import datetime as dt

import pytest
from django.utils import timezone

from apps.audit.models import AuditEvent
from apps.review.errors import LeaseError, ReviewPermissionError
from apps.review.models import ReviewTask
from apps.review.services import (
    QueueSettings,
    review_queue_create,
    review_queue_update,
    review_task_claim_next,
    review_task_escalate,
    review_task_release,
)
from tests.factories import decided_document

pytestmark = pytest.mark.django_db


def _tasks(tenant, count: int, **kwargs) -> list[ReviewTask]:
    return [ReviewTask.objects.get(document=decided_document(tenant, **kwargs)) for _ in range(count)]


def test_claim_leases_the_task_to_the_operator_and_is_audited(tenant, operator, settings):
    settings.DOCINTEL_REVIEW_LEASE_S = 600
    (task,) = _tasks(tenant, 1)
    now = timezone.now()
    claimed = review_task_claim_next(user=operator, tenant=tenant, now=now)
    assert claimed == task
    assert claimed.lease_holder == operator and claimed.lease_expires_at == now + dt.timedelta(seconds=600)
    assert AuditEvent.objects.filter(
        action="review.task_claimed", object_id=str(task.pk), actor=operator
    ).exists()


def test_tasks_are_served_by_priority_then_deadline(tenant, operator, second_operator, supervisor):
    early, late = _tasks(tenant, 2)
    ReviewTask.objects.filter(pk=early.pk).update(due_at=timezone.now() + dt.timedelta(hours=1))
    ReviewTask.objects.filter(pk=late.pk).update(due_at=timezone.now() + dt.timedelta(hours=9))
    (urgent,) = _tasks(tenant, 1)
    ReviewTask.objects.filter(pk=urgent.pk).update(priority=10, due_at=timezone.now() + dt.timedelta(days=3))
    order = [review_task_claim_next(user=u, tenant=tenant) for u in (operator, second_operator, supervisor)]
    assert order == [urgent, early, late]


def test_an_operator_holds_one_task_at_a_time(tenant, operator):
    first, _second = _tasks(tenant, 2)
    assert review_task_claim_next(user=operator, tenant=tenant) == first
    assert review_task_claim_next(user=operator, tenant=tenant) == first


def test_a_claimed_task_is_not_handed_to_another_operator(tenant, operator, second_operator):
    _tasks(tenant, 1)
    assert review_task_claim_next(user=operator, tenant=tenant) is not None
    assert review_task_claim_next(user=second_operator, tenant=tenant) is None


def test_an_expired_lease_returns_the_task_to_the_queue(tenant, operator, second_operator, settings):
    settings.DOCINTEL_REVIEW_LEASE_S = 60
    (task,) = _tasks(tenant, 1)
    start = timezone.now()
    review_task_claim_next(user=operator, tenant=tenant, now=start)
    assert (
        review_task_claim_next(user=second_operator, tenant=tenant, now=start + dt.timedelta(seconds=59))
        is None
    )
    taken = review_task_claim_next(user=second_operator, tenant=tenant, now=start + dt.timedelta(seconds=61))
    assert taken == task and taken.lease_holder == second_operator
    event = AuditEvent.objects.filter(action="review.task_claimed", actor=second_operator).get()
    assert event.data["expired_lease_of"] == operator.pk


def test_release_hands_the_task_back(tenant, operator, second_operator):
    (task,) = _tasks(tenant, 1)
    review_task_claim_next(user=operator, tenant=tenant)
    with pytest.raises(LeaseError):
        review_task_release(task=task, user=second_operator)
    review_task_release(task=task, user=operator)
    assert review_task_claim_next(user=second_operator, tenant=tenant) == task


def test_a_supervisor_can_free_a_task_an_operator_sits_on(tenant, operator, supervisor, second_operator):
    (task,) = _tasks(tenant, 1)
    review_task_claim_next(user=operator, tenant=tenant)
    review_task_release(task=task, user=supervisor)
    assert review_task_claim_next(user=second_operator, tenant=tenant) == task


def test_an_uploader_cannot_claim(tenant, uploader):
    _tasks(tenant, 1)
    with pytest.raises(ReviewPermissionError):
        review_task_claim_next(user=uploader, tenant=tenant)


def test_an_operator_of_another_tenant_cannot_claim_here(tenant, other_tenant, other_operator):
    _tasks(tenant, 1)
    with pytest.raises(ReviewPermissionError):
        review_task_claim_next(user=other_operator, tenant=tenant)
    assert review_task_claim_next(user=other_operator, tenant=other_tenant) is None


def test_a_queue_of_another_tenant_is_refused(tenant, other_tenant, operator):
    decided_document(other_tenant)
    foreign_queue = ReviewTask.objects.get().queue
    with pytest.raises(ReviewPermissionError):
        review_task_claim_next(user=operator, tenant=tenant, queue=foreign_queue)


def test_claim_filters_by_queue_and_document_type(tenant, operator, supervisor):
    passports = review_queue_create(
        tenant=tenant, actor=supervisor, config=QueueSettings(name="Passports", document_types=["passport"])
    )
    receipt = ReviewTask.objects.get(
        document=decided_document(tenant, document_type="receipt", values={"merchant_name": "SPAR"})
    )
    passport = ReviewTask.objects.get(document=decided_document(tenant))
    ReviewTask.objects.filter(pk=receipt.pk).update(priority=99)
    assert review_task_claim_next(user=operator, tenant=tenant, queue=passports) == passport
    review_task_release(task=passport, user=operator)
    assert review_task_claim_next(user=operator, tenant=tenant, document_type="passport") == passport


def test_escalated_tasks_go_to_supervisors_only_and_first(tenant, operator, second_operator, supervisor):
    escalated, plain = _tasks(tenant, 2)
    assert review_task_claim_next(user=operator, tenant=tenant) == escalated
    review_task_escalate(task=escalated, user=operator, note="the photo looks edited")
    ReviewTask.objects.filter(pk=plain.pk).update(priority=50)
    assert review_task_claim_next(user=supervisor, tenant=tenant) == escalated
    review_task_release(task=escalated, user=supervisor)
    assert review_task_claim_next(user=second_operator, tenant=tenant) == plain
    review_task_release(task=plain, user=second_operator)
    assert review_task_claim_next(user=second_operator, tenant=tenant) == plain  # never the escalated one


def test_raising_a_queue_priority_moves_its_waiting_tasks(tenant, supervisor):
    (task,) = _tasks(tenant, 1)
    review_queue_update(queue=task.queue, actor=supervisor, config=QueueSettings(name="Default", priority=7))
    task.refresh_from_db()
    assert task.priority == 7
