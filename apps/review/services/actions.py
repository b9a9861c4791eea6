"""What an operator does with a claimed task: confirm or correct fields, approve, reject, escalate.

Every action locks the task row, checks that the user works in the task's tenant with a
reviewing role and holds the task's lease (renewing it: an operator who is working does not lose
the task), and writes one audit event. Audit events name fields and say *that* a value changed,
never what it was or became: values are personal data and stay in the documents' own tables.

A review's approval or rejection moves the document NEEDS_REVIEW → APPROVED | REJECTED through
``apps.documents.state``. With maker-checker on for the document type (see ``ReviewQueue``), the
first approval only records the maker and puts the task back in the pool as ``awaiting_check``;
the document is approved when a different operator approves it too. A correction made after the
maker approved withdraws that approval: the values the maker saw are not the values any more.

A quality audit checks a document that was already auto-approved (a terminal state): approving
it records that the machine was right, rejecting it that it was wrong; the document's state is
not changed, and its field labels feed calibration exactly like a review's.
"""

from __future__ import annotations

import datetime as dt

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from apps.audit.services import audit_record
from apps.documents.models import Document, DocumentStatus, Extraction, Field
from apps.documents.state import document_transition
from apps.review import rules
from apps.review.errors import (
    FieldNotFoundError,
    InvalidInputError,
    LeaseError,
    SameOperatorError,
    TaskStateError,
)
from apps.review.models import (
    FieldCorrection,
    FieldLabel,
    RejectReason,
    ReviewTask,
    TaskKind,
    TaskOutcome,
    TaskStatus,
)
from apps.review.permissions import REVIEWER_ROLES, SUPERVISOR_ROLES, require_role
from apps.review.services.claims import lease_duration
from apps.review.services.labels import field_label_capture, field_label_settle
from apps.webhooks.models import WebhookEvent
from apps.webhooks.services import webhook_document_event

# A value an operator confirmed or typed is certain as far as the system is concerned.
OPERATOR_CONFIDENCE = 1.0


def _begin(*, task: ReviewTask, user: User, now: dt.datetime) -> ReviewTask:
    """The task, locked, after the tenant, role, status and lease checks every action shares."""
    locked = (
        ReviewTask.objects.select_for_update(of=("self",)).select_related("tenant", "queue").get(pk=task.pk)
    )
    role = require_role(user=user, tenant=locked.tenant, roles=REVIEWER_ROLES)
    if locked.status == TaskStatus.DONE:
        raise TaskStateError("the task is already done")
    if locked.status == TaskStatus.ESCALATED and role not in SUPERVISOR_ROLES:
        raise TaskStateError("an escalated task is for a supervisor")
    if locked.lease_holder_id != user.pk:
        raise LeaseError("claim the task before acting on it")
    locked.lease_expires_at = now + lease_duration()
    return locked


def _release(task: ReviewTask) -> None:
    task.lease_holder = None
    task.lease_expires_at = None


def _audit(task: ReviewTask, user: User, action: str, **data: object) -> None:
    audit_record(
        tenant=task.tenant,
        actor=user,
        action=f"review.{action}",
        object_type="review_task",
        object_id=str(task.pk),
        data={"document": str(task.document_id), "kind": task.kind, **data},
    )


def _field(task: ReviewTask, name: str) -> Field:
    extraction = Extraction.objects.filter(document_id=task.document_id).order_by("-created_at").first()
    field = (
        Field.objects.select_for_update(of=("self",))
        .select_related("extraction")
        .filter(extraction=extraction, name=name)
        .first()
        if extraction is not None
        else None
    )
    if field is None:
        raise FieldNotFoundError(f"the document has no field {name!r}")
    return field


@transaction.atomic
def review_field_confirm(
    *, task: ReviewTask, user: User, field_name: str, now: dt.datetime | None = None
) -> FieldLabel:
    """The operator says the field's value (or its absence) is right as it stands."""
    now = now or timezone.now()
    locked = _begin(task=task, user=user, now=now)
    field = _field(locked, field_name)
    label = field_label_capture(task=locked, field=field, user=user)
    field.confidence = OPERATOR_CONFIDENCE
    field.save(update_fields=["confidence"])
    label = field_label_settle(label=label, field=field, user=user)
    locked.save(update_fields=["lease_expires_at", "updated_at"])
    _audit(locked, user, "field_confirmed", field=field.name)
    return label


def _normalise(value: str | None) -> str | None:
    """Surrounding blanks are never part of a value; an empty answer means "the document has none"."""
    value = (value or "").strip()
    return value or None


@transaction.atomic
def review_field_correct(
    *, task: ReviewTask, user: User, field_name: str, value: str | None, now: dt.datetime | None = None
) -> FieldLabel:
    """The operator replaces the field's value (None or blank: the document has no such value).

    The old and new values are kept as a ``FieldCorrection``; the field's confidence becomes the
    operator's, and its validator verdict, which was about the old value, is cleared.
    """
    now = now or timezone.now()
    new_value = _normalise(value)
    locked = _begin(task=task, user=user, now=now)
    field = _field(locked, field_name)
    label = field_label_capture(task=locked, field=field, user=user)
    changed = field.value != new_value
    withdrawn = False
    if changed:
        FieldCorrection.objects.create(
            task=locked, field=field, old_value=field.value, new_value=new_value, corrected_by=user
        )
        field.value = new_value
        field.valid = None
        if locked.maker_id is not None:
            withdrawn = True
            locked.maker = None
            locked.maker_approved_at = None
            if locked.status == TaskStatus.AWAITING_CHECK:
                locked.status = TaskStatus.OPEN
    field.confidence = OPERATOR_CONFIDENCE
    field.save(update_fields=["value", "valid", "confidence"])
    label = field_label_settle(label=label, field=field, user=user)
    locked.save(update_fields=["lease_expires_at", "maker", "maker_approved_at", "status", "updated_at"])
    _audit(
        locked,
        user,
        "field_corrected",
        field=field.name,
        value_changed=changed,
        **({"maker_approval_withdrawn": True} if withdrawn else {}),
    )
    return label


def _finish(task: ReviewTask, user: User, outcome: str, now: dt.datetime) -> None:
    task.status = TaskStatus.DONE
    task.outcome = outcome
    task.completed_by = user
    task.completed_at = now
    _release(task)


_FINISH_FIELDS = [
    "status", "outcome", "completed_by", "completed_at", "lease_holder", "lease_expires_at", "updated_at",
]  # fmt: skip


@transaction.atomic
def review_task_approve(*, task: ReviewTask, user: User, now: dt.datetime | None = None) -> ReviewTask:
    """Approve the document (a review) or the machine's approval of it (a quality audit).

    Under maker-checker the first approval makes ``user`` the maker and returns the task to the
    pool as ``awaiting_check``; the approval of another operator then approves the document.
    """
    now = now or timezone.now()
    locked = _begin(task=task, user=user, now=now)
    needs_check = rules.requires_check(
        maker_checker_document_types=locked.queue.maker_checker_document_types or [],
        document_type=locked.document_type,
        kind=locked.kind,
    )
    if needs_check and locked.maker_id is None:
        locked.maker = user
        locked.maker_approved_at = now
        locked.status = TaskStatus.AWAITING_CHECK
        _release(locked)
        locked.save(
            update_fields=[
                "maker",
                "maker_approved_at",
                "status",
                "lease_holder",
                "lease_expires_at",
                "updated_at",
            ]
        )
        _audit(locked, user, "task_maker_approved")
        return locked
    if needs_check and locked.maker_id == user.pk:
        raise SameOperatorError("the maker cannot check their own approval; another operator must")
    if locked.kind == TaskKind.REVIEW:
        document = Document.objects.get(pk=locked.document_id)
        document = document_transition(document=document, target=DocumentStatus.APPROVED, actor=user)
        webhook_document_event(document=document, event=WebhookEvent.DOCUMENT_REVIEWED)
    _finish(locked, user, TaskOutcome.APPROVED, now)
    locked.save(update_fields=_FINISH_FIELDS)
    _audit(locked, user, "task_approved", **({"maker": locked.maker_id} if needs_check else {}))
    return locked


@transaction.atomic
def review_task_reject(
    *, task: ReviewTask, user: User, reason: str, note: str = "", now: dt.datetime | None = None
) -> ReviewTask:
    """Reject the document (a review) or record that its auto-approval was wrong (a quality audit).

    ``reason`` is a ``RejectReason`` code, so the audit trail can say why without free text;
    ``other`` needs a note. One rejection is enough even under maker-checker: refusing is the
    safe direction.
    """
    now = now or timezone.now()
    if reason not in RejectReason.values:
        raise InvalidInputError(f"reason must be one of {', '.join(RejectReason.values)}")
    note = note.strip()
    if reason == RejectReason.OTHER and not note:
        raise InvalidInputError("a rejection for another reason needs a note")
    locked = _begin(task=task, user=user, now=now)
    if locked.kind == TaskKind.REVIEW:
        document = Document.objects.get(pk=locked.document_id)
        document = document_transition(document=document, target=DocumentStatus.REJECTED, actor=user)
        webhook_document_event(document=document, event=WebhookEvent.DOCUMENT_REVIEWED)
    locked.reject_reason = reason
    locked.reject_note = note
    _finish(locked, user, TaskOutcome.REJECTED, now)
    locked.save(update_fields=[*_FINISH_FIELDS, "reject_reason", "reject_note"])
    _audit(locked, user, "task_rejected", reason=reason, has_note=bool(note))
    return locked


@transaction.atomic
def review_task_escalate(
    *, task: ReviewTask, user: User, note: str, now: dt.datetime | None = None
) -> ReviewTask:
    """Hand the task to the tenant's supervisors, with a note saying what the operator is unsure of.

    The task leaves the operators' pool: only supervisors and admins can claim it next. A maker's
    approval, if any, stands, so a supervisor's approval can be the check.
    """
    now = now or timezone.now()
    note = note.strip()
    if not note:
        raise InvalidInputError("say what the supervisor should look at")
    locked = _begin(task=task, user=user, now=now)
    if locked.status == TaskStatus.ESCALATED:
        raise TaskStateError("the task is already escalated")
    previous = locked.status
    locked.status = TaskStatus.ESCALATED
    locked.escalated_by = user
    locked.escalated_at = now
    locked.escalation_note = note
    _release(locked)
    locked.save(
        update_fields=[
            "status", "escalated_by", "escalated_at", "escalation_note", "lease_holder", "lease_expires_at",
            "updated_at",
        ]
    )  # fmt: skip
    _audit(locked, user, "task_escalated", previous_status=previous)
    return locked
