"""KYC cases: one applicant's documents, decided together (ARCHITECTURE §1, "Documents are decided
in cases"); the tenant's case policy and its blocklist of document numbers.

A case's status changes only in ``apps.cases.services`` (``_status_set``); its checks and decision
are written there by the evaluation, never by ``save()``.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models

from apps.cases import knowledge


class CaseStatus(models.TextChoices):
    OPEN = "open"  # documents still being read, or not evaluated yet
    IN_REVIEW = "in_review"  # a check or a document needs a person
    APPROVED = "approved"
    REJECTED = "rejected"
    RESUBMISSION_REQUESTED = "resubmission_requested"  # the applicant must send other documents


class Case(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    tenant = models.ForeignKey("tenants.Tenant", on_delete=models.PROTECT, related_name="cases")
    # The integrator's own id of the applicant; two cases with the same one are the same applicant
    # (a resubmission), never each other's duplicates.
    external_reference = models.CharField(max_length=200, blank=True)
    # What the applicant declared (full_name, date_of_birth, address_*): personal data, shown only
    # behind tenant checks, never logged or audited.
    declared = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=24, choices=CaseStatus.choices, default=CaseStatus.OPEN)
    decision = models.CharField(
        max_length=24, blank=True
    )  # approved, rejected, resubmission_requested, needs_review
    decision_rule = models.CharField(max_length=64, blank=True)  # the check whose rule decided
    reasons = models.JSONField(default=list, blank=True)  # "<check>: <detail>" of each failed check
    checks = models.JSONField(default=list, blank=True)  # [{"name", "passed", "detail", "links"}]
    case_date = models.DateField()  # the day the checks judge dates on
    callback_url = models.URLField(max_length=2000, blank=True)
    documents = models.ManyToManyField("documents.Document", through="CaseDocument", related_name="cases")
    evaluated_at = models.DateTimeField(null=True, blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        indexes = [models.Index(fields=["tenant", "external_reference"])]

    def __str__(self) -> str:
        return f"Case {self.id} ({self.status})"


class CaseDocument(models.Model):
    """A document of a case, with the keys other cases find it by as a duplicate: hashes (salted
    with the tenant's id) of its identity document number per type and issuing country, and of
    what its barcode holds, written when the case is evaluated. Hashes, not values: the
    numbers stay in the document's fields only."""

    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="case_documents")
    document = models.ForeignKey("documents.Document", on_delete=models.CASCADE, related_name="case_links")
    position = models.PositiveIntegerField()  # 1-based, in the order the documents were added
    number_key = models.CharField(max_length=64, blank=True, db_index=True)
    barcode_key = models.CharField(max_length=64, blank=True, db_index=True)
    added_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["case", "document"], name="one_link_per_case_document")
        ]

    def __str__(self) -> str:
        return f"document {self.document_id} of case {self.case_id}"


def _default(name: str) -> Any:
    return knowledge.rules().defaults[name]


def default_required_document_types() -> list[list[str]]:
    return [list(group) for group in _default("required_document_types")]


def validate_required_document_types(value: Any) -> None:
    """Groups of known document types: ``[["passport", "id_card"], ["proof_of_address"]]``."""
    from engines.spec import DOCUMENT_TYPES

    if not isinstance(value, list) or not all(isinstance(g, list) and g for g in value):
        raise ValidationError('a list of groups, each a list of document types: [["passport", "id_card"]]')
    unknown = sorted({t for group in value for t in group if t not in DOCUMENT_TYPES})
    if unknown:
        raise ValidationError(f"unknown document types: {', '.join(map(str, unknown))}")


class CasePolicy(models.Model):
    """How a tenant decides its cases; a tenant without one gets the defaults of
    ``knowledge/rules.toml``."""

    tenant = models.OneToOneField("tenants.Tenant", on_delete=models.CASCADE, related_name="case_policy")
    required_document_types = models.JSONField(
        default=default_required_document_types,
        validators=[validate_required_document_types],
        help_text='groups of document types, one document of each group: [["passport", "id_card"], '
        '["proof_of_address", "bank_statement"]]',
    )
    recency_days = models.PositiveIntegerField(
        default=_default("recency_days"), help_text="a proof of address is at most this many days old"
    )
    minimum_age = models.PositiveIntegerField(default=_default("minimum_age"))
    accept_expired = models.BooleanField(
        default=_default("accept_expired"), help_text="an expired identity document does not decide the case"
    )
    name_match_threshold = models.FloatField(
        default=_default("name_match_threshold"),
        validators=[MinValueValidator(0.0), MaxValueValidator(1.0)],
        help_text="the lowest name-match score (0..1) the same-person check passes",
    )
    maker_checker = models.BooleanField(
        default=_default("maker_checker"),
        help_text="an operator's approval of a case in review needs a second, different operator",
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "case policies"

    def __str__(self) -> str:
        return f"case policy of {self.tenant_id}"


class BlockedDocumentNumber(models.Model):
    """A document number the tenant refuses (a stolen or forged document): a case with it is
    rejected. Compared without spaces, hyphens or case; ``document_type`` and
    ``issuing_country`` (or region) narrow it when set."""

    tenant = models.ForeignKey(
        "tenants.Tenant", on_delete=models.CASCADE, related_name="blocked_document_numbers"
    )
    document_number = models.CharField(max_length=64)
    document_type = models.CharField(max_length=50, blank=True)
    issuing_country = models.CharField(
        max_length=8, blank=True, help_text="alpha-3 country, or a region code"
    )
    reason = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["tenant", "document_number"])]

    def __str__(self) -> str:
        return f"blocked document number of {self.tenant_id}"


class CasePacket(models.Model):
    """One uploaded PDF that held several documents, and how it was cut into them: each page's
    guessed type and cue (``pages``: [{"page", "document_type", "confidence", "cue"}]) and each
    document's page range (``parts``: [{"first", "last", "document_type", "document_id"}]).
    The packet's own bytes are not kept: its documents joined in order are its pages again, which
    is what a reviewer's correction cuts anew."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="packets")
    sha256 = models.CharField(max_length=64, db_index=True)  # the uploaded packet's
    original_name = models.CharField(max_length=255)
    page_count = models.PositiveIntegerField()
    pages = models.JSONField(default=list)
    parts = models.JSONField(default=list)
    corrected_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    corrected_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at"]

    def __str__(self) -> str:
        return f"packet {self.id} of case {self.case_id}"


class CaseTaskStatus(models.TextChoices):
    OPEN = "open"  # waiting for an operator
    AWAITING_CHECK = "awaiting_check"  # approved by a maker, waiting for a different checker
    DONE = "done"


class CaseTaskOutcome(models.TextChoices):
    APPROVED = "approved"
    REJECTED = "rejected"
    RESUBMISSION_REQUESTED = "resubmission_requested"
    WITHDRAWN = "withdrawn"  # the case left review by itself (new documents, a re-evaluation)


class CaseReviewTask(models.Model):
    """A case in review waiting for a person: the case queue is the tenant's waiting tasks.
    Written only by ``apps.cases.review``."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    tenant = models.ForeignKey("tenants.Tenant", on_delete=models.CASCADE, related_name="case_review_tasks")
    case = models.ForeignKey(Case, on_delete=models.CASCADE, related_name="review_tasks")
    status = models.CharField(max_length=20, choices=CaseTaskStatus.choices, default=CaseTaskStatus.OPEN)
    outcome = models.CharField(max_length=24, choices=CaseTaskOutcome.choices, blank=True)
    reasons = models.JSONField(default=list, blank=True)  # the case's reasons when it was routed
    maker = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    maker_approved_at = models.DateTimeField(null=True, blank=True)
    # Free text written by operators may quote the documents: kept here, never in logs or the audit.
    note = models.TextField(blank=True)
    completed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    completed_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["case"],
                condition=~models.Q(status="done"),
                name="one_waiting_review_task_per_case",
            )
        ]
        indexes = [models.Index(fields=["tenant", "status", "created_at"], name="case_task_queue_order")]

    def __str__(self) -> str:
        return f"review task {self.id} of case {self.case_id} ({self.status})"
