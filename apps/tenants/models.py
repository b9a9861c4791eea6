"""Organisations, who belongs to them, and the API keys their systems call with.

Every document belongs to exactly one tenant.
"""

from __future__ import annotations

import secrets
import uuid

from django.conf import settings
from django.db import models


def new_webhook_secret() -> str:
    return secrets.token_hex(32)


class Tenant(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    name = models.CharField(max_length=200, unique=True)
    # Signs the webhooks sent to this tenant's callback URLs (HMAC-SHA256); shown by
    # ``manage.py webhook_secret``. Not a password: the receiver needs the same value to verify.
    webhook_secret = models.CharField(max_length=128, default=new_webhook_secret)
    # Days a document and everything made from it are kept after upload (``manage.py purge_expired``,
    # scheduled). Empty: DOCINTEL_RETENTION_DAYS; 0: kept until erased on request.
    retention_days = models.PositiveIntegerField(null=True, blank=True)
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


class ApiKey(models.Model):
    """A key an integrator's system sends as ``Authorization: Api-Key <key>``.

    The key itself is shown once, when it is made; only its SHA-256 is kept (the key is 256 random
    bits, so a plain hash is as good as a slow one). ``prefix`` is the visible start of the key
    (``dik_<prefix>_...``): it names the key in lists and logs and finds its row.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="api_keys")
    name = models.CharField(max_length=100)
    prefix = models.CharField(max_length=16, unique=True)
    key_hash = models.CharField(max_length=64, unique=True)
    # Requests per period for this key ("600/min"); blank: DOCINTEL_API_RATE_LIMIT.
    rate_limit = models.CharField(max_length=32, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = "API key"

    def __str__(self) -> str:
        return f"{self.name} (dik_{self.prefix}_…)"

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None
