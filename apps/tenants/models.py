"""Organisations and who belongs to them. Every document belongs to exactly one tenant."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models


class Tenant(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    name = models.CharField(max_length=200, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.name


class Membership(models.Model):
    class Role(models.TextChoices):
        UPLOADER = "uploader"
        OPERATOR = "operator"
        SUPERVISOR = "supervisor"
        ADMIN = "admin"

    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=20, choices=Role.choices, default=Role.UPLOADER)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["tenant", "user"], name="one_membership_per_tenant")]

    def __str__(self) -> str:
        return f"{self.user_id}@{self.tenant_id}:{self.role}"
