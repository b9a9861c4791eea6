"""Reads for the review UI and dashboards, always scoped to what the caller may see.

Only operators, supervisors and admins of a tenant see its queues and tasks; anybody else, and
any member of another tenant, gets an empty answer or None, never another tenant's rows.
"""

from __future__ import annotations

import datetime as dt
import uuid
from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import (
    BooleanField,
    Case,
    Count,
    DurationField,
    ExpressionWrapper,
    F,
    Min,
    Q,
    QuerySet,
    Value,
    When,
)
from django.utils import timezone

from apps.documents.models import Extraction
from apps.review.models import WAITING, FieldCorrection, FieldLabel, ReviewQueue, ReviewTask, TaskStatus
from apps.review.permissions import REVIEWER_ROLES, is_reviewer, is_supervisor
from apps.tenants.models import Tenant


def review_queues_visible_to(*, user: User | AnonymousUser, tenant: Tenant) -> QuerySet[ReviewQueue]:
    if not is_reviewer(user=user, tenant=tenant):
        return ReviewQueue.objects.none()
    return ReviewQueue.objects.filter(tenant=tenant)


def review_queue_get_for_user(*, user: User | AnonymousUser, queue_id: str) -> ReviewQueue | None:
    """None both for a missing id and for a queue the user may not see: callers answer 404 to both."""
    if not _is_uuid(queue_id) or not user.is_authenticated:
        return None
    return (
        ReviewQueue.objects.filter(
            pk=queue_id, tenant__memberships__user=user, tenant__memberships__role__in=REVIEWER_ROLES
        )
        .select_related("tenant")
        .first()
    )


@dataclass(frozen=True)
class QueueSummary:
    """One row of the queue listing: how much is waiting and how old the oldest of it is."""

    queue: ReviewQueue
    depth: int  # tasks not done yet, whether somebody is working on them or not
    in_progress: int  # of those, leased to somebody right now
    awaiting_check: int
    escalated: int
    sla_breached: int  # not done and past their deadline
    oldest_age: dt.timedelta | None  # of the oldest task not done yet


def review_queue_summaries(
    *, user: User | AnonymousUser, tenant: Tenant, now: dt.datetime | None = None
) -> list[QueueSummary]:
    """Every queue of the tenant the user may see, highest priority first, with its depth and aging."""
    now = now or timezone.now()
    waiting = Q(tasks__status__in=WAITING)
    queues = review_queues_visible_to(user=user, tenant=tenant).annotate(
        depth=Count("tasks", filter=waiting),
        in_progress=Count("tasks", filter=waiting & Q(tasks__lease_expires_at__gt=now)),
        awaiting=Count("tasks", filter=Q(tasks__status=TaskStatus.AWAITING_CHECK)),
        escalated=Count("tasks", filter=Q(tasks__status=TaskStatus.ESCALATED)),
        breached=Count("tasks", filter=waiting & Q(tasks__due_at__lt=now)),
        oldest=Min("tasks__created_at", filter=waiting),
    )
    return [
        QueueSummary(
            queue=q,
            depth=q.depth,
            in_progress=q.in_progress,
            awaiting_check=q.awaiting,
            escalated=q.escalated,
            sla_breached=q.breached,
            oldest_age=now - q.oldest if q.oldest is not None else None,
        )
        for q in queues
    ]


def review_tasks_visible_to(
    *,
    user: User | AnonymousUser,
    tenant: Tenant,
    queue: ReviewQueue | None = None,
    document_type: str | None = None,
    statuses: tuple[str, ...] = WAITING,
    now: dt.datetime | None = None,
) -> QuerySet[ReviewTask]:
    """The tenant's tasks in claim order, each annotated with ``age`` (a timedelta since it was
    routed), ``sla_breached`` (past its deadline, or finished after it) and ``is_leased``.

    A queryset, so the UI can paginate it.
    """
    if not is_reviewer(user=user, tenant=tenant):
        return ReviewTask.objects.none()
    now = now or timezone.now()
    tasks = ReviewTask.objects.filter(tenant=tenant, status__in=statuses)
    if queue is not None:
        tasks = tasks.filter(queue=queue)
    if document_type:
        tasks = tasks.filter(document_type=document_type)
    return (
        tasks.select_related("queue", "lease_holder")
        .annotate(
            age=ExpressionWrapper(Value(now) - F("created_at"), output_field=DurationField()),
            sla_breached=Case(
                When(Q(status=TaskStatus.DONE) & Q(completed_at__gt=F("due_at")), then=Value(True)),
                When(~Q(status=TaskStatus.DONE) & Q(due_at__lt=now), then=Value(True)),
                default=Value(False),
                output_field=BooleanField(),
            ),
            is_leased=Case(
                When(lease_expires_at__gt=now, then=Value(True)),
                default=Value(False),
                output_field=BooleanField(),
            ),
        )
        .order_by("-priority", "due_at", "created_at")
    )


def review_task_get_for_user(*, user: User | AnonymousUser, task_id: str) -> ReviewTask | None:
    """None both for a missing id and for a task the user may not see: callers answer 404 to both."""
    if not _is_uuid(task_id) or not user.is_authenticated:
        return None
    return (
        ReviewTask.objects.filter(
            pk=task_id, tenant__memberships__user=user, tenant__memberships__role__in=REVIEWER_ROLES
        )
        .select_related("tenant", "queue", "document")
        .first()
    )


@dataclass(frozen=True)
class FieldUnderReview:
    """A field as the review screen shows it; ``review`` is None until an operator acted on it."""

    name: str
    value: str | None
    confidence: float | None
    page: int
    bbox: list[float] | None
    source: str
    valid: bool | None
    review: str | None  # "confirmed" (the engine was right) or "corrected"
    evidence: tuple[str, ...] = ()  # what supported the engine's value besides its score


def review_task_fields(*, task: ReviewTask) -> list[FieldUnderReview]:
    """The fields of the task's document, with what review did to each. ``task`` must come from a
    scoped selector (``review_task_get_for_user``): this one does not check the caller."""
    extraction = Extraction.objects.filter(document_id=task.document_id).order_by("-created_at").first()
    if extraction is None:
        return []
    labels = {label.field_id: label for label in FieldLabel.objects.filter(field__extraction=extraction)}
    return [
        FieldUnderReview(
            name=f.name,
            value=f.value,
            confidence=f.confidence,
            page=f.page,
            bbox=f.bbox,
            source=f.source,
            valid=f.valid,
            review=None if f.pk not in labels else "confirmed" if labels[f.pk].correct else "corrected",
            evidence=tuple(f.evidence or ()),
        )
        for f in extraction.fields.all()
    ]


def review_task_corrections(*, task: ReviewTask) -> QuerySet[FieldCorrection]:
    """The task's corrections, oldest first (values included: for the review screen, never for logs)."""
    return FieldCorrection.objects.filter(task=task).select_related("field", "corrected_by").order_by("id")


def review_workload_by_operator(*, user: User | AnonymousUser, tenant: Tenant) -> dict[int, int]:
    """Supervisors' view of who is working on how many tasks right now (user id → live leases)."""
    if not is_supervisor(user=user, tenant=tenant):
        return {}
    now = timezone.now()
    rows = (
        ReviewTask.objects.filter(tenant=tenant, lease_expires_at__gt=now)
        .values("lease_holder")
        .annotate(n=Count("id"))
    )
    return {row["lease_holder"]: row["n"] for row in rows}


def _is_uuid(value: str) -> bool:
    try:
        uuid.UUID(str(value))
    except ValueError:
        return False
    return True
