"""Claiming work: "next task" with a lease, and handing it back.

``review_task_claim_next`` takes the first claimable task in priority order with
``SELECT … FOR UPDATE SKIP LOCKED``: operators asking at the same moment each lock a different
row instead of queueing behind one, and none can be handed a task another is taking. A lease
that ran out makes its task claimable again at the next claim, with no sweeper job to run.
"""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Case, IntegerField, Q, QuerySet, Value, When
from django.utils import timezone

from apps.audit.services import audit_record
from apps.review.errors import LeaseError, ReviewPermissionError
from apps.review.models import ReviewQueue, ReviewTask, TaskStatus
from apps.review.permissions import REVIEWER_ROLES, SUPERVISOR_ROLES, require_role
from apps.tenants.models import Tenant


def lease_duration() -> dt.timedelta:
    return dt.timedelta(seconds=settings.DOCINTEL_REVIEW_LEASE_S)


def lease_is_free(*, now: dt.datetime) -> Q:
    """Tasks nobody is working on: never leased, released, or whose lease ran out."""
    return Q(lease_holder__isnull=True) | Q(lease_expires_at__lte=now)


def claimable_tasks(*, user: User, tenant: Tenant, role: str, now: dt.datetime) -> QuerySet[ReviewTask]:
    """What ``user`` may take next in ``tenant``, in the order it should be served.

    Operators take open tasks and other makers' approvals to check; supervisors and admins also
    take escalated tasks, first, since nobody else can. Then higher priority, then the nearest
    deadline, then the oldest.
    """
    statuses = [TaskStatus.OPEN, TaskStatus.AWAITING_CHECK]
    if role in SUPERVISOR_ROLES:
        statuses.append(TaskStatus.ESCALATED)
    return (
        ReviewTask.objects.filter(tenant=tenant, status__in=statuses)
        .filter(lease_is_free(now=now))
        .exclude(status=TaskStatus.AWAITING_CHECK, maker=user)
        .order_by(
            Case(
                When(status=TaskStatus.ESCALATED, then=Value(0)),
                default=Value(1),
                output_field=IntegerField(),
            ),
            "-priority",
            "due_at",
            "created_at",
        )
    )


@transaction.atomic
def review_task_claim_next(
    *,
    user: User,
    tenant: Tenant,
    queue: ReviewQueue | None = None,
    document_type: str | None = None,
    now: dt.datetime | None = None,
) -> ReviewTask | None:
    """Lease the next task to ``user``, optionally from one queue or of one document type.

    One task at a time: a user who still holds a live lease in the tenant gets that task back
    (its lease renewed) whatever the filters, so "next" never piles up abandoned claims. None
    when nothing is claimable. Uploaders and non-members get ReviewPermissionError.
    """
    role = require_role(user=user, tenant=tenant, roles=REVIEWER_ROLES)
    if queue is not None and queue.tenant_id != tenant.pk:
        raise ReviewPermissionError("the queue belongs to another tenant")
    now = now or timezone.now()
    held = (
        ReviewTask.objects.select_for_update()
        .filter(tenant=tenant, lease_holder=user, lease_expires_at__gt=now)
        .exclude(status=TaskStatus.DONE)
        .first()
    )
    if held is not None:
        held.lease_expires_at = now + lease_duration()
        held.save(update_fields=["lease_expires_at", "updated_at"])
        return held
    candidates = claimable_tasks(user=user, tenant=tenant, role=role, now=now)
    if queue is not None:
        candidates = candidates.filter(queue=queue)
    if document_type:
        candidates = candidates.filter(document_type=document_type)
    task = candidates.select_for_update(skip_locked=True).first()
    if task is None:
        return None
    previous_holder = task.lease_holder_id
    task.lease_holder = user
    task.lease_expires_at = now + lease_duration()
    task.claimed_at = now
    task.save(update_fields=["lease_holder", "lease_expires_at", "claimed_at", "updated_at"])
    audit_record(
        tenant=tenant,
        actor=user,
        action="review.task_claimed",
        object_type="review_task",
        object_id=str(task.pk),
        data={
            "status": task.status,
            "lease_expires_at": task.lease_expires_at.isoformat(),
            **({"expired_lease_of": previous_holder} if previous_holder else {}),
        },
    )
    return task


@transaction.atomic
def review_task_release(*, task: ReviewTask, user: User) -> ReviewTask:
    """Hand a claimed task back to its pool unchanged. The lease holder may, and so may a
    supervisor (to free a task an absent operator sits on)."""
    locked = ReviewTask.objects.select_for_update().get(pk=task.pk)
    role = require_role(user=user, tenant=locked.tenant, roles=REVIEWER_ROLES)
    if locked.lease_holder_id is None:
        return locked
    if locked.lease_holder_id != user.pk and role not in SUPERVISOR_ROLES:
        raise LeaseError("only the operator working on the task or a supervisor can release it")
    holder = locked.lease_holder_id
    locked.lease_holder = None
    locked.lease_expires_at = None
    locked.save(update_fields=["lease_holder", "lease_expires_at", "updated_at"])
    audit_record(
        tenant=locked.tenant,
        actor=user,
        action="review.task_released",
        object_type="review_task",
        object_id=str(locked.pk),
        data={"holder": holder},
    )
    return locked
