"""Organisations, who belongs to them, and the API keys their systems call with.

Every document belongs to exactly one tenant.
"""

from __future__ import annotations

import secrets
import uuid

from django.conf import settings
from django.db import models


def new_webhook_secret() -> str:
    """A fresh webhook secret, in clear (``apps.tenants.webhook_secrets`` seals it)."""
    return secrets.token_hex(32)


class Tenant(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    name = models.CharField(max_length=200, unique=True)
    # The secret that signs the webhooks sent to this tenant's callback URLs (HMAC-SHA256), sealed
    # under the master key (``apps.tenants.webhook_secrets``; ``manage.py webhook_secret`` shows
    # it). Not a password: the receiver needs the same value to verify.
    webhook_secret_encrypted = models.BinaryField()
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


class ApiScope(models.TextChoices):
    """What an API key may do; ``apps.api.permissions.ACCESS`` names the scope each operation needs
    (as it names the least role a logged-in member needs)."""

    DOCUMENTS_READ = "documents:read", "read documents, their pages and originals, batches and exports"
    DOCUMENTS_WRITE = "documents:write", "upload documents and batches"
    CASES_READ = "cases:read", "read KYC cases"
    CASES_WRITE = "cases:write", "open KYC cases and add documents to them"
    TYPES_READ = "types:read", "read the tenant's own document types"
    TYPES_ADMIN = "types:admin", "define document types (tenant configuration)"
    REVIEWS_WRITE = "reviews:write", "decisions: approve or reject, reprocess a failed document"
    WEBHOOKS_READ = "webhooks:read", "read the tenant's undelivered webhook events"
    WEBHOOKS_WRITE = "webhooks:write", "send undelivered webhook events again"


# What an integration does: what keys did before they had scopes (upload, read results, open cases,
# read types) and its own undelivered webhooks, but neither configuring the tenant (types:admin)
# nor an operator's decisions (reviews:write). A key is made with these unless told otherwise, and
# the keys that existed before scopes were given these (migration 0005; docs/security.md).
DEFAULT_API_SCOPES: tuple[str, ...] = (
    ApiScope.DOCUMENTS_READ,
    ApiScope.DOCUMENTS_WRITE,
    ApiScope.CASES_READ,
    ApiScope.CASES_WRITE,
    ApiScope.TYPES_READ,
    ApiScope.WEBHOOKS_READ,
    ApiScope.WEBHOOKS_WRITE,
)


def default_api_scopes() -> list[str]:
    return [str(scope) for scope in DEFAULT_API_SCOPES]


class ApiKey(models.Model):
    """A key an integrator's system sends as ``Authorization: Api-Key <key>``.

    The key itself is shown once, when it is made; only its SHA-256 is kept (the key is 256 random
    bits, so a plain hash is as good as a slow one). ``prefix`` is the visible start of the key
    (``dik_<prefix>_...``): it names the key in lists and logs and finds its row. ``scopes`` (values
    of ``ApiScope``) say which operations it may call.
    """

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    tenant = models.ForeignKey(Tenant, on_delete=models.CASCADE, related_name="api_keys")
    name = models.CharField(max_length=100)
    prefix = models.CharField(max_length=16, unique=True)
    key_hash = models.CharField(max_length=64, unique=True)
    # Requests per period for this key ("600/min"); blank: DOCINTEL_API_RATE_LIMIT.
    rate_limit = models.CharField(max_length=32, blank=True)
    scopes = models.JSONField(default=default_api_scopes)
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


class SsoIdentity(models.Model):
    """A person as the single sign-on provider names them, and the user they sign in as.

    Found by the ID token's issuer and subject, the pair OpenID Connect promises never to reassign,
    and never by e-mail or user name: a provider may let people change those, and a local user of
    the same name must not be taken over (apps/accounts/sso.py).
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="sso_identity"
    )
    issuer = models.CharField(max_length=255)
    subject = models.CharField(max_length=255)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = "single sign-on identity"
        constraints = [models.UniqueConstraint(fields=["issuer", "subject"], name="one_user_per_sso_subject")]

    def __str__(self) -> str:
        return f"{self.user_id} ({self.issuer})"
