"""Review queues, the tasks in them, and what operators said about each field.

Writes go through ``apps.review.services``; reads for the UI through ``apps.review.selectors``.
A task's ``status`` is where it stands in the workflow; whether somebody is working on it right
now is its *lease* (``lease_holder`` until ``lease_expires_at``), kept apart from the status so
that a lease that runs out simply hands the task back to the pool it came from (open, waiting
for a checker, or escalated) without a background job.
"""

from __future__ import annotations

import datetime as dt
import uuid

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q

from apps.review import rules


class ReviewQueue(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    tenant = models.ForeignKey("tenants.Tenant", on_delete=models.CASCADE, related_name="review_queues")
    name = models.CharField(max_length=100)
    # Filters: empty accepts everything (see apps.review.rules for how the best queue is chosen).
    document_types = models.JSONField(default=list, blank=True)
    task_kinds = models.JSONField(default=list, blank=True)
    priority = models.IntegerField(default=0, help_text="higher is served first")
    sla = models.DurationField(default=dt.timedelta(hours=24), help_text="time from routing to the deadline")
    # Maker-checker: reviews of these document types need a second, different operator to approve.
    maker_checker_document_types = models.JSONField(default=list, blank=True)
    # Share of auto-approved documents drawn for quality audit; null follows DOCINTEL_QA_SAMPLE_RATE.
    qa_sample_rate = models.FloatField(null=True, blank=True)
    is_default = models.BooleanField(default=False, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-priority", "name"]
        constraints = [
            models.UniqueConstraint(fields=["tenant", "name"], name="one_queue_name_per_tenant"),
            models.UniqueConstraint(
                fields=["tenant"], condition=Q(is_default=True), name="one_default_queue_per_tenant"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.tenant_id})"

    def clean(self) -> None:
        errors = rules.queue_settings_errors(
            name=self.name,
            document_types=self.document_types or [],
            task_kinds=self.task_kinds or [],
            maker_checker_document_types=self.maker_checker_document_types or [],
            qa_sample_rate=self.qa_sample_rate,
            sla_seconds=self.sla.total_seconds() if self.sla is not None else 0,
        )
        if errors:
            raise ValidationError(errors)

    @property
    def effective_qa_sample_rate(self) -> float:
        return settings.DOCINTEL_QA_SAMPLE_RATE if self.qa_sample_rate is None else self.qa_sample_rate

    def as_rule(self) -> rules.QueueRule:
        return rules.QueueRule(
            key=self.pk,
            document_types=tuple(self.document_types or ()),
            task_kinds=tuple(self.task_kinds or ()),
            priority=self.priority,
        )


class TaskKind(models.TextChoices):
    REVIEW = rules.REVIEW
    QUALITY_AUDIT = rules.QUALITY_AUDIT


class TaskStatus(models.TextChoices):
    OPEN = "open"  # waiting for an operator (leased while one works on it)
    AWAITING_CHECK = "awaiting_check"  # maker approved; waiting for a different operator to check
    ESCALATED = "escalated"  # waiting for a supervisor
    DONE = "done"


class TaskOutcome(models.TextChoices):
    APPROVED = "approved"  # a review: the document is approved; an audit: the auto-approval was right
    REJECTED = "rejected"  # a review: the document is rejected; an audit: the auto-approval was wrong


class RejectReason(models.TextChoices):
    """Why a document was rejected: a code, so the audit trail can say why without free text."""

    ILLEGIBLE = "illegible"
    WRONG_DOCUMENT_TYPE = "wrong_document_type"
    EXPIRED = "expired"
    INCOMPLETE = "incomplete"
    SUSPECTED_FRAUD = "suspected_fraud"
    DUPLICATE = "duplicate"
    OTHER = "other"


# Statuses a task can be claimed from; DONE never is.
WAITING = (TaskStatus.OPEN, TaskStatus.AWAITING_CHECK, TaskStatus.ESCALATED)


class ReviewTask(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    tenant = models.ForeignKey("tenants.Tenant", on_delete=models.CASCADE, related_name="review_tasks")
    document = models.ForeignKey("documents.Document", on_delete=models.CASCADE, related_name="review_tasks")
    queue = models.ForeignKey(ReviewQueue, on_delete=models.PROTECT, related_name="tasks")
    kind = models.CharField(max_length=20, choices=TaskKind.choices, default=TaskKind.REVIEW)
    document_type = models.CharField(max_length=50, blank=True)  # as routed; filters and maker-checker
    reasons = models.JSONField(default=list, blank=True)  # the decision's reasons: field and check names only
    priority = models.IntegerField(default=0)
    due_at = models.DateTimeField()
    status = models.CharField(max_length=20, choices=TaskStatus.choices, default=TaskStatus.OPEN)
    outcome = models.CharField(max_length=20, choices=TaskOutcome.choices, blank=True)
    lease_holder = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    lease_expires_at = models.DateTimeField(null=True, blank=True)
    claimed_at = models.DateTimeField(null=True, blank=True)
    maker = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    maker_approved_at = models.DateTimeField(null=True, blank=True)
    escalated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    escalated_at = models.DateTimeField(null=True, blank=True)
    # Free text written by operators may quote the document: kept here, never in logs or the audit trail.
    escalation_note = models.TextField(blank=True)
    reject_reason = models.CharField(max_length=30, choices=RejectReason.choices, blank=True)
    reject_note = models.TextField(blank=True)
    completed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    completed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-priority", "due_at", "created_at"]
        constraints = [
            # Routing is idempotent: a re-delivered ``decide`` cannot queue a document twice.
            models.UniqueConstraint(
                fields=["document", "kind"], name="one_review_task_per_document_and_kind"
            ),
            models.CheckConstraint(
                condition=Q(lease_holder__isnull=True) | Q(lease_expires_at__isnull=False),
                name="a_lease_has_an_expiry",
            ),
        ]
        indexes = [
            models.Index(fields=["tenant", "status", "-priority", "due_at"], name="review_task_claim_order"),
            models.Index(fields=["queue", "status"], name="review_task_queue_status"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} task {self.id} ({self.status})"


class FieldLabel(models.Model):
    """One field an operator confirmed or corrected: the engine's evidence and whether it was right.

    These rows are the labelled data ``manage.py recalibrate`` refits the calibration on. They hold
    no values (only whether the engine's value survived review), so they can be kept and pooled
    across tenants without carrying anybody's personal data.
    """

    tenant = models.ForeignKey("tenants.Tenant", on_delete=models.CASCADE, related_name="+")
    task = models.ForeignKey(ReviewTask, on_delete=models.CASCADE, related_name="field_labels")
    field = models.OneToOneField("documents.Field", on_delete=models.CASCADE, related_name="review_label")
    document_type = models.CharField(max_length=50, blank=True)
    task_kind = models.CharField(max_length=20, choices=TaskKind.choices)
    # The engine's evidence, as it was before any review changed the field.
    name = models.CharField(max_length=100)
    source = models.CharField(max_length=20)
    valid = models.BooleanField(null=True, blank=True)
    raw_confidence = models.FloatField()
    present = models.BooleanField()  # False: the engine found no value
    confidence = models.FloatField(null=True, blank=True)  # calibrated, by calibration_version
    calibration_version = models.CharField(max_length=50, blank=True)
    engine_name = models.CharField(max_length=100, blank=True)
    engine_version = models.CharField(max_length=50, blank=True)
    # The label: is the engine's value (or its absence) what the operator left in place?
    correct = models.BooleanField()
    labelled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["engine_name", "engine_version"])]

    def __str__(self) -> str:
        return f"label of {self.name} on task {self.task_id}: {'right' if self.correct else 'wrong'}"


class FieldCorrection(models.Model):
    """One change an operator made to a field's value, old and new, in order.

    Values are document data, stored like ``documents.Field.value`` and never logged or audited.
    The first correction's ``old_value`` is what the engine read.
    """

    task = models.ForeignKey(ReviewTask, on_delete=models.CASCADE, related_name="corrections")
    field = models.ForeignKey("documents.Field", on_delete=models.CASCADE, related_name="review_corrections")
    old_value = models.TextField(null=True, blank=True)  # noqa: DJ001 — "no value" differs from ""
    new_value = models.TextField(null=True, blank=True)  # noqa: DJ001
    corrected_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"correction of field {self.field_id} on task {self.task_id}"
