"""Webhooks: where a document's result goes, and every delivery and attempt, as rows.

What was sent, when, to where and with what answer is always queryable (and shown in the admin),
so a receiver's outage is diagnosed from the database, not from logs. Rows never hold the
receiver's answer body, only its status code: it may echo document content.
"""

from __future__ import annotations

import uuid

from django.db import models


class DocumentCallback(models.Model):
    """The URL a document's result is posted to (``callback_url`` of the upload)."""

    document = models.OneToOneField(
        "documents.Document", on_delete=models.CASCADE, primary_key=True, related_name="callback"
    )
    url = models.URLField(max_length=2000)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"callback of {self.document_id}"


class WebhookEvent(models.TextChoices):
    DOCUMENT_DECIDED = "document.decided"  # auto-approved or routed to review
    DOCUMENT_REVIEWED = "document.reviewed"  # a person approved or rejected it
    DOCUMENT_FAILED = "document.failed"
    CASE_DECIDED = "case.decided"  # a KYC case's decision changed (apps.cases)


class DeliveryStatus(models.TextChoices):
    PENDING = "pending"  # waiting for its (next) attempt at ``next_attempt_at``
    SENDING = "sending"  # an attempt is in flight
    SUCCEEDED = "succeeded"
    # its retry window (DOCINTEL_WEBHOOK_RETRY_WINDOW_S) closed undelivered: a dead letter of its
    # tenant, until the tenant redrives it (the same delivery, a new window) or an admin replays it
    FAILED = "failed"


class WebhookDelivery(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    tenant = models.ForeignKey("tenants.Tenant", on_delete=models.CASCADE, related_name="+")
    # what the delivery reports: a document, or a case (``case.decided``)
    document = models.ForeignKey(
        "documents.Document",
        on_delete=models.CASCADE,
        related_name="webhook_deliveries",
        null=True,
        blank=True,
    )
    case = models.ForeignKey(
        "cases.Case", on_delete=models.CASCADE, related_name="webhook_deliveries", null=True, blank=True
    )
    event = models.CharField(max_length=40, choices=WebhookEvent.choices)
    url = models.URLField(max_length=2000)
    body = models.TextField()  # the exact JSON sent (the §3.1 result when the event happened)
    status = models.CharField(max_length=12, choices=DeliveryStatus.choices, default=DeliveryStatus.PENDING)
    attempts = models.PositiveIntegerField(default=0)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    last_status_code = models.PositiveIntegerField(null=True, blank=True)
    last_error = models.CharField(max_length=200, blank=True)
    replay_of = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="replays"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    delivered_at = models.DateTimeField(null=True, blank=True)
    # The retry window opens at creation, and again at each redrive of the dead letter.
    redriven_at = models.DateTimeField(null=True, blank=True)
    dead_lettered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name_plural = "webhook deliveries"
        indexes = [
            models.Index(fields=["status", "next_attempt_at"]),
            models.Index(fields=["tenant", "status", "created_at"], name="webhooks_dead_letters_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.event} of {self.document_id or self.case_id} ({self.status})"


class WebhookAttempt(models.Model):
    delivery = models.ForeignKey(WebhookDelivery, on_delete=models.CASCADE, related_name="attempt_log")
    number = models.PositiveIntegerField()
    started_at = models.DateTimeField()
    duration_ms = models.PositiveIntegerField()
    status_code = models.PositiveIntegerField(null=True, blank=True)  # None: no answer at all
    error = models.CharField(max_length=200, blank=True)  # e.g. "timeout", "connection refused"
    succeeded = models.BooleanField()

    class Meta:
        ordering = ["number"]

    def __str__(self) -> str:
        return f"attempt {self.number} of {self.delivery_id}"
