"""Writes on review queues: the tenant's default queue, and supervisors creating or changing queues."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import F

from apps.audit.services import audit_record
from apps.review import rules
from apps.review.errors import InvalidInputError
from apps.review.models import WAITING, ReviewQueue, ReviewTask
from apps.review.permissions import SUPERVISOR_ROLES, require_role
from apps.tenants.models import Tenant

DEFAULT_QUEUE_NAME = "Default"


@dataclass(frozen=True)
class QueueSettings:
    """Everything a supervisor can set on a queue (see ``ReviewQueue`` for the meaning of each)."""

    name: str
    document_types: Sequence[str] = ()
    task_kinds: Sequence[str] = ()
    priority: int = 0
    sla: dt.timedelta = field(default_factory=lambda: dt.timedelta(hours=24))
    maker_checker_document_types: Sequence[str] = ()
    qa_sample_rate: float | None = None

    def errors(self) -> list[str]:
        return rules.queue_settings_errors(
            name=self.name,
            document_types=self.document_types,
            task_kinds=self.task_kinds,
            maker_checker_document_types=self.maker_checker_document_types,
            qa_sample_rate=self.qa_sample_rate,
            sla_seconds=self.sla.total_seconds(),
        )


def review_queue_default(*, tenant: Tenant) -> ReviewQueue:
    """The tenant's catch-all queue, created the first time a document of the tenant needs one.

    Two workers deciding documents of a new tenant at once both try to create it; the partial
    unique constraint lets one win and the other read the winner's row.
    """
    existing = ReviewQueue.objects.filter(tenant=tenant, is_default=True).first()
    if existing is not None:
        return existing
    try:
        with transaction.atomic():
            queue = ReviewQueue.objects.create(
                tenant=tenant,
                name=DEFAULT_QUEUE_NAME,
                is_default=True,
                sla=dt.timedelta(seconds=settings.DOCINTEL_REVIEW_DEFAULT_SLA_S),
            )
            audit_record(
                tenant=tenant,
                actor=None,
                action="review.queue_created",
                object_type="review_queue",
                object_id=str(queue.pk),
                data={"default": True},
            )
            return queue
    except IntegrityError:
        return ReviewQueue.objects.get(tenant=tenant, is_default=True)


def _apply(queue: ReviewQueue, config: QueueSettings) -> None:
    errors = config.errors()
    if errors:
        raise InvalidInputError("; ".join(errors))
    queue.name = config.name.strip()
    queue.document_types = sorted(set(config.document_types))
    queue.task_kinds = sorted(set(config.task_kinds))
    queue.priority = config.priority
    queue.sla = config.sla
    queue.maker_checker_document_types = sorted(set(config.maker_checker_document_types))
    queue.qa_sample_rate = config.qa_sample_rate


def _audit_data(queue: ReviewQueue) -> dict[str, object]:
    return {
        **asdict(
            QueueSettings(
                name=queue.name,
                document_types=queue.document_types,
                task_kinds=queue.task_kinds,
                priority=queue.priority,
                sla=queue.sla,
                maker_checker_document_types=queue.maker_checker_document_types,
                qa_sample_rate=queue.qa_sample_rate,
            )
        ),
        "sla": queue.sla.total_seconds(),
    }


@transaction.atomic
def review_queue_create(*, tenant: Tenant, actor: User, config: QueueSettings) -> ReviewQueue:
    """A new queue of the tenant; supervisors and admins only. Applies to documents routed from now on."""
    require_role(user=actor, tenant=tenant, roles=SUPERVISOR_ROLES)
    queue = ReviewQueue(tenant=tenant)
    _apply(queue, config)
    if ReviewQueue.objects.filter(tenant=tenant, name=queue.name).exists():
        raise InvalidInputError(f"a queue named {queue.name!r} already exists")
    queue.save()
    audit_record(
        tenant=tenant,
        actor=actor,
        action="review.queue_created",
        object_type="review_queue",
        object_id=str(queue.pk),
        data=_audit_data(queue),
    )
    return queue


@transaction.atomic
def review_queue_update(*, queue: ReviewQueue, actor: User, config: QueueSettings) -> ReviewQueue:
    """Change a queue's settings; supervisors and admins only.

    Waiting tasks move with a priority change (a supervisor raising a queue expects its backlog to
    come first) and maker-checker is looked up at approval, so it applies to them too; deadlines
    already promised stay, a new SLA applies to tasks routed from now on.
    """
    locked = ReviewQueue.objects.select_for_update().get(pk=queue.pk)
    require_role(user=actor, tenant=locked.tenant, roles=SUPERVISOR_ROLES)
    old_priority = locked.priority
    _apply(locked, config)
    if ReviewQueue.objects.filter(tenant=locked.tenant, name=locked.name).exclude(pk=locked.pk).exists():
        raise InvalidInputError(f"a queue named {locked.name!r} already exists")
    locked.save()
    if locked.priority != old_priority:
        ReviewTask.objects.filter(queue=locked, status__in=WAITING).update(
            priority=F("priority") + (locked.priority - old_priority)
        )
    audit_record(
        tenant=locked.tenant,
        actor=actor,
        action="review.queue_updated",
        object_type="review_queue",
        object_id=str(locked.pk),
        data=_audit_data(locked),
    )
    return locked
