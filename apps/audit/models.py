"""Append-only, hash-chained audit trail.

Each row stores the hash of the previous row, so editing or deleting any row breaks every hash
after it: ``audit_chain_verify`` finds the first broken link. Rows never carry PII, only ids,
actions and non-identifying details.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models


class AuditEventImmutableError(Exception):
    pass


class AuditEvent(models.Model):
    tenant = models.ForeignKey("tenants.Tenant", null=True, blank=True, on_delete=models.PROTECT)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT)
    action = models.CharField(max_length=100)
    object_type = models.CharField(max_length=50)
    object_id = models.CharField(max_length=64)
    data = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField()
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64, unique=True)

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["object_type", "object_id"])]

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M:%S} {self.action} {self.object_type}:{self.object_id}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.pk is not None:
            raise AuditEventImmutableError("audit events are append-only")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise AuditEventImmutableError("audit events are append-only")
