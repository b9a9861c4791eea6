"""Idempotency keys of the REST API: one row per ``Idempotency-Key`` a tenant sent.

The row is claimed before any work, so of two requests racing with one key exactly one does the
work; it then remembers what the work made (a document or a batch) and the status it answered,
so a retry is answered with the same resource. ``fingerprint`` is the hash of what was asked
(operation, file names and bytes, options): the same key with a different request is refused.
"""

from __future__ import annotations

from django.db import models


class IdempotencyStatus(models.TextChoices):
    IN_PROGRESS = "in_progress"
    DONE = "done"


class IdempotencyKey(models.Model):
    tenant = models.ForeignKey("tenants.Tenant", on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=255)
    operation = models.CharField(max_length=40)  # "documents.create", "batches.create"
    fingerprint = models.CharField(max_length=64)
    status = models.CharField(
        max_length=12, choices=IdempotencyStatus.choices, default=IdempotencyStatus.IN_PROGRESS
    )
    response_status = models.PositiveSmallIntegerField(null=True, blank=True)
    resource_id = models.UUIDField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    completed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tenant", "key"], name="one_idempotency_key_per_tenant")
        ]
        indexes = [models.Index(fields=["created_at"])]

    def __str__(self) -> str:
        return f"{self.operation} {self.key!r} ({self.status})"
