"""Several operators claiming from one queue at once, on PostgreSQL, each thread on its own
connection: ``SELECT … FOR UPDATE SKIP LOCKED`` must never hand two of them the same task.

GIVEN one queue of tasks and more operators than a single claim can serve,
WHEN they all ask for "next task" at the same instant (a barrier), and keep working,
THEN no task is handed out twice and every task is claimed, and finished, exactly once.
"""

from __future__ import annotations

import threading
from collections import Counter

import pytest
from django.contrib.auth.models import User
from django.db import connection

from apps.documents.models import DocumentStatus as S
from apps.review.models import ReviewQueue, ReviewTask, TaskStatus
from apps.review.services import review_task_approve, review_task_claim_next
from apps.tenants.models import Tenant
from apps.tenants.services import membership_grant
from tests.factories import decided_document

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="SKIP LOCKED needs PostgreSQL"),
]
OPERATORS = 8


def _operators(tenant: Tenant, count: int) -> list[int]:
    ids = []
    for i in range(count):
        user = User.objects.create_user(username=f"operator{i}", password="correct horse battery")
        membership_grant(tenant=tenant, user=user, role="operator")
        ids.append(user.pk)
    return ids


def _run_concurrently(user_ids: list[int], work) -> list[BaseException]:
    """Run ``work(user)`` in one thread per user, released together; return their exceptions."""
    barrier = threading.Barrier(len(user_ids))
    errors: list[BaseException] = []

    def run(user_id: int) -> None:
        try:
            user = User.objects.get(pk=user_id)
            barrier.wait(timeout=30)
            work(user)
        except BaseException as exc:  # reported to the test, not lost in the thread
            errors.append(exc)
        finally:
            connection.close()  # each thread opened its own connection

    threads = [threading.Thread(target=run, args=(user_id,)) for user_id in user_ids]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads), "a claiming thread hung"
    return errors


def test_simultaneous_claims_never_hand_out_the_same_task(tenant):
    tasks = {ReviewTask.objects.get(document=decided_document(tenant)).pk for _ in range(5)}
    user_ids = _operators(tenant, OPERATORS)
    claims: list[tuple[int, object]] = []

    def claim_once(user: User) -> None:
        task = review_task_claim_next(user=user, tenant=tenant)
        claims.append((user.pk, task.pk if task is not None else None))

    assert _run_concurrently(user_ids, claim_once) == []
    claimed = [task_id for _, task_id in claims if task_id is not None]
    assert len(claims) == OPERATORS
    assert sorted(map(str, claimed)) == sorted(map(str, tasks))  # each task once, none twice
    holders = dict(ReviewTask.objects.values_list("pk", "lease_holder"))
    assert all(holders[task_id] == user_id for user_id, task_id in claims if task_id is not None)


def test_operators_working_one_queue_claim_every_task_exactly_once(tenant):
    tasks = {ReviewTask.objects.get(document=decided_document(tenant)).pk for _ in range(30)}
    queue = ReviewQueue.objects.get(tenant=tenant, is_default=True)
    user_ids = _operators(tenant, OPERATORS)
    claims: list[tuple[int, object]] = []

    def work_until_empty(user: User) -> None:
        while (task := review_task_claim_next(user=user, tenant=tenant, queue=queue)) is not None:
            claims.append((user.pk, task.pk))
            review_task_approve(task=task, user=user)

    assert _run_concurrently(user_ids, work_until_empty) == []
    times_claimed = Counter(task_id for _, task_id in claims)
    assert set(times_claimed) == tasks and set(times_claimed.values()) == {1}
    assert set(ReviewTask.objects.values_list("status", flat=True)) == {TaskStatus.DONE}
    assert {t.document.status for t in ReviewTask.objects.select_related("document")} == {S.APPROVED}
    completed_by = dict(ReviewTask.objects.values_list("pk", "completed_by"))
    assert all(completed_by[task_id] == user_id for user_id, task_id in claims)
