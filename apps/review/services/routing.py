"""Routing a decided document into review: the hook the pipeline's ``decide`` step calls.

    needs_review   → a review task, with the decision's reasons (fields below their threshold,
                     invalid or missing fields, failed checks, a type like ``other`` that is never
                     decided automatically), in the best matching queue of the tenant
    auto_approved  → a quality-audit task for a deterministic sample of documents, at the rate
                     of the queue that would take it, so the auto-approval itself is measured

Runs inside ``decide``'s transaction, so a document is never decided without its task or the
other way round; and idempotent, by the (document, kind) unique constraint, so a re-delivered
message cannot queue a document twice.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence

from django.db import IntegrityError, transaction
from django.utils import timezone

from apps.audit.services import audit_record
from apps.documents.models import Document
from apps.extraction.decision import AUTO_APPROVED, NEEDS_REVIEW
from apps.review import rules
from apps.review.models import ReviewQueue, ReviewTask, TaskKind
from apps.review.services.queues import review_queue_default
from apps.tenants.models import Tenant

# Nobody waits on an audit of a document that is already approved; a customer waits on a review.
QUALITY_AUDIT_PRIORITY_OFFSET = -1


def review_queue_for(*, tenant: Tenant, document_type: str, kind: str) -> ReviewQueue:
    """The tenant's most specific queue that accepts the task, else its default queue."""
    queues: dict[object, ReviewQueue] = {q.pk: q for q in ReviewQueue.objects.filter(tenant=tenant)}
    key = rules.best_queue([q.as_rule() for q in queues.values()], document_type=document_type, kind=kind)
    return queues[key] if key is not None else review_queue_default(tenant=tenant)


class RoutingBatch:
    """Routing for documents decided together under their row locks (the dispatcher's batches):
    one query for the tasks they already have, one per tenant for its queues, one INSERT."""

    def __init__(self, document_ids: Sequence[object]) -> None:
        self.existing: set[tuple[object, str]] = set(
            ReviewTask.objects.filter(document_id__in=list(document_ids)).values_list("document_id", "kind")
        )
        self._queues: dict[object, dict[object, ReviewQueue]] = {}
        self._chosen: dict[tuple[object, str, str], ReviewQueue] = {}
        self.new_tasks: list[ReviewTask] = []

    def queue_for(self, *, tenant: Tenant, document_type: str, kind: str) -> ReviewQueue:
        chosen = self._chosen.get((tenant.pk, document_type, kind))
        if chosen is not None:
            return chosen
        if tenant.pk not in self._queues:
            self._queues[tenant.pk] = {q.pk: q for q in ReviewQueue.objects.filter(tenant=tenant)}
        queues = self._queues[tenant.pk]
        key = rules.best_queue([q.as_rule() for q in queues.values()], document_type=document_type, kind=kind)
        if key is None:
            chosen = review_queue_default(tenant=tenant)
            queues[chosen.pk] = chosen
        else:
            chosen = queues[key]
        self._chosen[(tenant.pk, document_type, kind)] = chosen
        return chosen

    def insert(self) -> None:
        """The tasks routed so far, in one INSERT (inside the caller's transaction and locks)."""
        ReviewTask.objects.bulk_create(self.new_tasks)
        self.new_tasks = []


def review_task_route(
    *,
    document: Document,
    outcome: str,
    reasons: Sequence[str],
    now: dt.datetime | None = None,
    document_locked: bool = False,
    batch: RoutingBatch | None = None,
) -> ReviewTask | None:
    """The task a just-decided document needs, created once; None when it needs none.

    ``document_locked``: the caller holds the document's row lock in this transaction, as the
    pipeline's decision does. Tasks are created only here and only under that lock, so the check
    below cannot race with another insert and the insert needs no savepoint to fall back on.

    ``batch``: the caller decides many locked documents in one transaction; the batch knows which
    of them have tasks and the tenants' queues already, and collects the new tasks for one INSERT
    (:meth:`RoutingBatch.insert`).
    """
    if outcome == NEEDS_REVIEW:
        kind = TaskKind.REVIEW
    elif outcome == AUTO_APPROVED:
        kind = TaskKind.QUALITY_AUDIT
    else:
        return None
    if batch is not None:
        if (document.pk, kind) in batch.existing:
            return None
        queue = batch.queue_for(tenant=document.tenant, document_type=document.document_type, kind=kind)
    else:
        existing = ReviewTask.objects.filter(document=document, kind=kind).first()
        if existing is not None:
            return existing
        queue = review_queue_for(tenant=document.tenant, document_type=document.document_type, kind=kind)
    if kind == TaskKind.QUALITY_AUDIT:
        if not rules.qa_sampled(document_id=document.pk, rate=queue.effective_qa_sample_rate):
            return None
        reasons = ["sampled for quality audit"]
    now = now or timezone.now()
    task = ReviewTask(
        tenant=document.tenant,
        document=document,
        queue=queue,
        kind=kind,
        document_type=document.document_type,
        reasons=list(reasons),
        priority=queue.priority + (QUALITY_AUDIT_PRIORITY_OFFSET if kind == TaskKind.QUALITY_AUDIT else 0),
        due_at=now + queue.sla,
    )
    if batch is not None:
        batch.new_tasks.append(task)
    elif document_locked:
        task.save(force_insert=True)
    else:
        try:
            with transaction.atomic():
                task.save(force_insert=True)
        except IntegrityError:
            return ReviewTask.objects.get(document=document, kind=kind)
    audit_record(
        tenant=document.tenant,
        actor=None,
        action="review.task_created",
        object_type="review_task",
        object_id=str(task.pk),
        data={
            "document": str(document.pk),
            "queue": str(queue.pk),
            "kind": kind,
            "reasons": task.reasons,
            "due_at": task.due_at.isoformat(),
        },
    )
    return task
