"""Reads for the supervisors' dashboard: how much the machine decides alone, how the queues age,
what operators correct, and how long documents wait. Supervisors and admins of the tenant only.

The *when* of every decision comes from the audit trail (``document.status_changed`` events):
it is the one record that says when each document reached each state, for auto-approved and
reviewed documents alike, and it cannot be edited after the fact. Counts are aggregated in the
database; percentiles are computed here over at most ``SAMPLE_MAX`` of the latest rows, which
keeps the page fast on a busy tenant and the code the same on PostgreSQL and SQLite.
"""

from __future__ import annotations

import datetime as dt
import math
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Count, Q
from django.utils import timezone

from apps.audit.models import AuditEvent
from apps.documents.models import Document, DocumentStatus, Field
from apps.review.errors import ReviewPermissionError
from apps.review.models import WAITING, FieldCorrection, FieldLabel, ReviewTask, TaskKind, TaskStatus
from apps.review.permissions import SUPERVISOR_ROLES, require_role
from apps.review.selectors import QueueSummary, review_queue_summaries
from apps.tenants.models import Tenant

SAMPLE_MAX = 20_000
# Waiting tasks by age; the last bucket is open-ended.
AGE_BUCKETS: tuple[tuple[str, dt.timedelta], ...] = (
    ("< 1 h", dt.timedelta(hours=1)),
    ("1-4 h", dt.timedelta(hours=4)),
    ("4-24 h", dt.timedelta(hours=24)),
    ("1-3 d", dt.timedelta(days=3)),
    ("> 3 d", dt.timedelta.max),
)
CONFIDENCE_BINS = 10
# A field's correction rate is shown once this many of its values were reviewed: below, one
# correction out of two would read as a 50 % error rate.
MIN_FIELD_LABELS = 3
_DECIDED = (DocumentStatus.AUTO_APPROVED, DocumentStatus.NEEDS_REVIEW)
_FINISHED = (DocumentStatus.AUTO_APPROVED, DocumentStatus.APPROVED, DocumentStatus.REJECTED)


@dataclass(frozen=True)
class Percentiles:
    count: int
    p50: float | None  # seconds
    p90: float | None
    p99: float | None


@dataclass(frozen=True)
class Day:
    date: dt.date
    auto_approved: int  # decided by the machine alone
    routed: int  # sent to a person
    approved: int  # approved by operators (documents whose review finished that day)
    rejected: int

    @property
    def straight_through_rate(self) -> float | None:
        decided = self.auto_approved + self.routed
        return self.auto_approved / decided if decided else None


@dataclass(frozen=True)
class FieldRate:
    document_type: str
    name: str
    reviewed: int
    corrected: int

    @property
    def rate(self) -> float:
        return self.corrected / self.reviewed if self.reviewed else 0.0


@dataclass(frozen=True)
class ConfidenceBin:
    low: float
    high: float
    confirmed: int  # an operator said the engine's value was right
    corrected: int  # an operator changed it
    unreviewed: int  # nobody looked (auto-approved, or left alone in review)


@dataclass(frozen=True)
class OperatorRow:
    username: str
    role: str
    finished: int  # tasks this operator approved or rejected in the period
    rejected: int
    escalated: int
    corrections: int
    live_leases: int
    median_handle_s: float | None  # claim → finish


@dataclass(frozen=True)
class Dashboard:
    since: dt.datetime
    now: dt.datetime
    days: list[Day]
    decided: int
    auto_approved: int
    queues: list[QueueSummary]
    waiting: int
    breached_open: int
    finished_reviews: int
    breached_finished: int  # of those, finished after their deadline
    age_buckets: list[tuple[str, int]]
    field_rates: list[FieldRate]
    confidence_bins: list[ConfidenceBin]
    processing: Percentiles  # upload → the machine's decision
    review: Percentiles  # routed to review → finished
    handle: Percentiles  # claimed → finished
    operators: list[OperatorRow]
    escalated_open: int

    @property
    def straight_through_rate(self) -> float | None:
        return self.auto_approved / self.decided if self.decided else None

    @property
    def finished_documents(self) -> int:
        return sum(d.auto_approved + d.approved + d.rejected for d in self.days)

    @property
    def per_day(self) -> float:
        return self.finished_documents / max(len(self.days), 1)

    @property
    def sla_breach_rate(self) -> float | None:
        return self.breached_finished / self.finished_reviews if self.finished_reviews else None

    @property
    def oldest_age(self) -> dt.timedelta | None:
        ages = [q.oldest_age for q in self.queues if q.oldest_age is not None]
        return max(ages) if ages else None


def percentiles(values: Sequence[float]) -> Percentiles:
    """Nearest-rank percentiles: each one is a value that really occurred."""
    if not values:
        return Percentiles(0, None, None, None)
    ordered = sorted(values)

    def rank(p: float) -> float:
        return ordered[max(math.ceil(p * len(ordered)) - 1, 0)]

    return Percentiles(len(ordered), rank(0.50), rank(0.90), rank(0.99))


def _seconds(delta: dt.timedelta) -> float:
    return max(delta.total_seconds(), 0.0)


def dashboard_get(
    *, user: User | AnonymousUser, tenant: Tenant, days: int = 14, now: dt.datetime | None = None
) -> Dashboard:
    """The tenant's review metrics over the last ``days`` days (ReviewPermissionError for anyone
    but its supervisors and admins)."""
    if not isinstance(user, User):
        raise ReviewPermissionError("log in first")
    require_role(user=user, tenant=tenant, roles=SUPERVISOR_ROLES)
    now = now or timezone.now()
    today = timezone.localdate(now)
    first_day = today - dt.timedelta(days=days - 1)
    since = timezone.make_aware(dt.datetime.combine(first_day, dt.time.min))

    status_events = list(
        AuditEvent.objects.filter(
            tenant=tenant,
            action="document.status_changed",
            object_type="document",
            created_at__gte=since,
            data__to__in=[*_DECIDED, *_FINISHED],
        )
        .order_by("-id")
        .values_list("object_id", "data__to", "created_at")[:SAMPLE_MAX]
    )
    per_day: dict[dt.date, Counter[str]] = defaultdict(Counter)
    decided_at: dict[str, dt.datetime] = {}
    for object_id, to, at in status_events:
        per_day[timezone.localdate(at)][to] += 1
        if to in _DECIDED:
            decided_at[object_id] = at
    day_rows = [
        Day(
            date=d,
            auto_approved=per_day[d][DocumentStatus.AUTO_APPROVED],
            routed=per_day[d][DocumentStatus.NEEDS_REVIEW],
            approved=per_day[d][DocumentStatus.APPROVED],
            rejected=per_day[d][DocumentStatus.REJECTED],
        )
        for d in (first_day + dt.timedelta(days=i) for i in range(days))
    ]
    uploaded = dict(
        Document.objects.filter(tenant=tenant, pk__in=list(decided_at)).values_list("pk", "created_at")
    )
    processing = percentiles(
        [_seconds(decided_at[str(pk)] - created) for pk, created in uploaded.items() if str(pk) in decided_at]
    )

    reviews = ReviewTask.objects.filter(tenant=tenant, kind=TaskKind.REVIEW)
    finished: list[tuple[dt.datetime, dt.datetime | None, dt.datetime, dt.datetime]] = [
        (created, claimed, done, due)
        for created, claimed, done, due in reviews.filter(status=TaskStatus.DONE, completed_at__gte=since)
        .order_by("-completed_at")
        .values_list("created_at", "claimed_at", "completed_at", "due_at")[:SAMPLE_MAX]
        if done is not None
    ]
    review_latency = percentiles([_seconds(done - created) for created, _, done, _ in finished])
    handle = percentiles(
        [_seconds(done - claimed) for _, claimed, done, _ in finished if claimed is not None]
    )
    breached_finished = len([done for _, _, done, due in finished if done > due])

    waiting = ReviewTask.objects.filter(tenant=tenant, status__in=WAITING)
    ages: Counter[str] = Counter()
    for created in waiting.values_list("created_at", flat=True)[:SAMPLE_MAX]:
        age = now - created
        ages[next(label for label, limit in AGE_BUCKETS if age < limit)] += 1

    return Dashboard(
        since=since,
        now=now,
        days=day_rows,
        decided=sum(d.auto_approved + d.routed for d in day_rows),
        auto_approved=sum(d.auto_approved for d in day_rows),
        queues=review_queue_summaries(user=user, tenant=tenant, now=now),
        waiting=waiting.count(),
        breached_open=waiting.filter(due_at__lt=now).count(),
        escalated_open=waiting.filter(status=TaskStatus.ESCALATED).count(),
        finished_reviews=len(finished),
        breached_finished=breached_finished,
        age_buckets=[(label, ages[label]) for label, _ in AGE_BUCKETS],
        field_rates=_field_rates(tenant=tenant, since=since),
        confidence_bins=_confidence_bins(tenant=tenant, since=since),
        processing=processing,
        review=review_latency,
        handle=handle,
        operators=_operators(tenant=tenant, since=since, now=now),
    )


def _field_rates(*, tenant: Tenant, since: dt.datetime) -> list[FieldRate]:
    """Per document type and field: how many values operators reviewed and how many they changed,
    worst first. Labels carry exactly this (``FieldLabel.correct``), no values."""
    rows = (
        FieldLabel.objects.filter(tenant=tenant, created_at__gte=since)
        .values("document_type", "name")
        .annotate(reviewed=Count("id"), corrected=Count("id", filter=Q(correct=False)))
        .filter(reviewed__gte=MIN_FIELD_LABELS)
    )
    rates = [FieldRate(r["document_type"], r["name"], r["reviewed"], r["corrected"]) for r in rows]
    return sorted(rates, key=lambda r: (-r.rate, -r.reviewed, r.document_type, r.name))


def _confidence_bins(*, tenant: Tenant, since: dt.datetime) -> list[ConfidenceBin]:
    """The calibrated confidences of the fields of documents decided in the period, split by what
    review said about them: confident fields should almost never be corrected, and a bin where
    they are is a calibration problem. A reviewed field's confidence is the one the engine gave
    (kept on its label), not the 1.0 an operator's confirmation set."""
    rows = (
        Field.objects.filter(
            extraction__document__tenant=tenant,
            extraction__document__created_at__gte=since,
            extraction__validated_at__isnull=False,
        )
        .order_by("-id")
        .values_list("confidence", "review_label__confidence", "review_label__correct")[:SAMPLE_MAX]
    )
    counts = [[0, 0, 0] for _ in range(CONFIDENCE_BINS)]
    for confidence, label_confidence, correct in rows:
        value = label_confidence if correct is not None else confidence
        if value is None:
            continue
        index = min(int(value * CONFIDENCE_BINS), CONFIDENCE_BINS - 1)
        counts[index][0 if correct is True else 1 if correct is False else 2] += 1
    return [
        ConfidenceBin(i / CONFIDENCE_BINS, (i + 1) / CONFIDENCE_BINS, *counts[i])
        for i in range(CONFIDENCE_BINS)
    ]


def _operators(*, tenant: Tenant, since: dt.datetime, now: dt.datetime) -> list[OperatorRow]:
    """Every reviewer of the tenant with what they finished in the period and hold right now."""
    members = list(
        tenant.memberships.filter(role__in=["operator", "supervisor", "admin"])
        .select_related("user")
        .order_by("user__username")
    )
    done = ReviewTask.objects.filter(tenant=tenant, status=TaskStatus.DONE, completed_at__gte=since)
    finished = Counter(done.values_list("completed_by", flat=True))
    rejected = Counter(done.filter(outcome="rejected").values_list("completed_by", flat=True))
    escalated = Counter(
        ReviewTask.objects.filter(tenant=tenant, escalated_at__gte=since).values_list(
            "escalated_by", flat=True
        )
    )
    corrections = Counter(
        FieldCorrection.objects.filter(task__tenant=tenant, created_at__gte=since).values_list(
            "corrected_by", flat=True
        )
    )
    leases = Counter(
        ReviewTask.objects.filter(tenant=tenant, lease_expires_at__gt=now).values_list(
            "lease_holder", flat=True
        )
    )
    handle: dict[int, list[float]] = defaultdict(list)
    for user_id, claimed, completed in done.exclude(claimed_at=None).values_list(
        "completed_by", "claimed_at", "completed_at"
    )[:SAMPLE_MAX]:
        if user_id is not None and claimed is not None and completed is not None:
            handle[user_id].append(_seconds(completed - claimed))
    return [
        OperatorRow(
            username=m.user.get_username(),
            role=m.role,
            finished=finished[m.user_id],
            rejected=rejected[m.user_id],
            escalated=escalated[m.user_id],
            corrections=corrections[m.user_id],
            live_leases=leases[m.user_id],
            median_handle_s=percentiles(handle[m.user_id]).p50,
        )
        for m in members
    ]


@dataclass(frozen=True)
class CaptureCounts:
    """Documents of the period sent back for a new photo, by reason, and the advisory
    authenticity signals flagged, by signal (one document counts once per reason or signal)."""

    measured: int  # documents whose page images were measured
    resubmissions: int
    by_reason: list[tuple[str, int]]
    flagged: int
    by_signal: list[tuple[str, int]]


def capture_counts_get(*, tenant: Tenant, days: int = 14, now: dt.datetime | None = None) -> CaptureCounts:
    """The period's capture-quality resubmissions and authenticity flags, from the checks the
    prepare step stored with each document (at most ``SAMPLE_MAX`` of the latest documents)."""
    now = now or timezone.now()
    first_day = timezone.localdate(now) - dt.timedelta(days=days - 1)
    since = timezone.make_aware(dt.datetime.combine(first_day, dt.time.min))
    rows = (
        Document.objects.filter(tenant=tenant, created_at__gte=since)
        .exclude(page_checks=[])
        .order_by("-created_at")
        .values_list("decision", "page_checks")[:SAMPLE_MAX]
    )
    reasons: Counter[str] = Counter()
    signals: Counter[str] = Counter()
    measured = resubmissions = flagged = 0
    for decision, checks in rows:
        measured += 1
        failed = [c for c in checks or [] if not c.get("passed")]
        if decision == DocumentStatus.RESUBMISSION_REQUESTED:
            resubmissions += 1
            reasons.update({c.get("reason") or c["name"] for c in failed if c.get("kind") == "capture"})
        named = {c["name"].removeprefix("authenticity_") for c in failed if c.get("kind") == "authenticity"}
        flagged += bool(named)
        signals.update(named)
    return CaptureCounts(measured, resubmissions, reasons.most_common(), flagged, signals.most_common())
