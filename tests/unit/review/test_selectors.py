"""What the review UI reads: queue depth and aging, tasks with their SLA, and tenant isolation."""

import datetime as dt

import pytest
from django.utils import timezone

from apps.review.models import ReviewTask
from apps.review.selectors import (
    review_queue_get_for_user,
    review_queue_summaries,
    review_task_fields,
    review_task_get_for_user,
    review_tasks_visible_to,
    review_workload_by_operator,
)
from apps.review.services import review_field_confirm, review_field_correct, review_task_claim_next
from tests.factories import decided_document

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_tasks(tenant):
    tasks = [ReviewTask.objects.get(document=decided_document(tenant)) for _ in range(2)]
    now = timezone.now()
    ReviewTask.objects.filter(pk=tasks[0].pk).update(
        created_at=now - dt.timedelta(hours=30), due_at=now - dt.timedelta(hours=6)
    )
    return tasks


def test_queue_summary_shows_depth_work_in_progress_breaches_and_oldest_age(two_tasks, tenant, operator):
    review_task_claim_next(user=operator, tenant=tenant)
    (summary,) = review_queue_summaries(user=operator, tenant=tenant)
    assert summary.queue.is_default
    assert (summary.depth, summary.in_progress, summary.sla_breached) == (2, 1, 1)
    assert dt.timedelta(hours=29) < summary.oldest_age < dt.timedelta(hours=31)


def test_task_list_is_in_claim_order_with_age_and_breach_flag(two_tasks, tenant, operator):
    rows = list(review_tasks_visible_to(user=operator, tenant=tenant))
    assert rows == two_tasks  # the breached one is due first
    assert rows[0].sla_breached and not rows[1].sla_breached
    assert rows[0].age > dt.timedelta(hours=29) and rows[1].age < dt.timedelta(minutes=5)


def test_another_tenants_user_sees_nothing(two_tasks, tenant, other_operator, other_tenant):
    task = two_tasks[0]
    assert review_queue_summaries(user=other_operator, tenant=tenant) == []
    assert not review_tasks_visible_to(user=other_operator, tenant=tenant).exists()
    assert review_task_get_for_user(user=other_operator, task_id=str(task.pk)) is None
    assert review_queue_get_for_user(user=other_operator, queue_id=str(task.queue_id)) is None
    assert not review_tasks_visible_to(user=other_operator, tenant=other_tenant).exists()


def test_uploaders_see_no_review_work(two_tasks, tenant, uploader):
    assert review_queue_summaries(user=uploader, tenant=tenant) == []
    assert review_task_get_for_user(user=uploader, task_id=str(two_tasks[0].pk)) is None


def test_a_member_gets_their_tenants_task_and_nonsense_ids_answer_none(two_tasks, operator):
    assert review_task_get_for_user(user=operator, task_id=str(two_tasks[0].pk)) == two_tasks[0]
    assert review_task_get_for_user(user=operator, task_id="not-a-uuid") is None


def test_task_fields_show_what_review_did_to_each(two_tasks, tenant, operator):
    task = review_task_claim_next(user=operator, tenant=tenant)
    review_field_confirm(task=task, user=operator, field_name="sex")
    review_field_correct(task=task, user=operator, field_name="surname", value="ERIKSON")
    fields = {f.name: f for f in review_task_fields(task=task)}
    assert fields["sex"].review == "confirmed" and fields["surname"].review == "corrected"
    assert fields["surname"].value == "ERIKSON" and fields["nationality"].review is None


def test_workload_is_for_supervisors(two_tasks, tenant, operator, supervisor):
    review_task_claim_next(user=operator, tenant=tenant)
    assert review_workload_by_operator(user=supervisor, tenant=tenant) == {operator.pk: 1}
    assert review_workload_by_operator(user=operator, tenant=tenant) == {}
