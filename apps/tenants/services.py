"""Writes for tenants, memberships and API keys."""

from __future__ import annotations

import datetime as dt
import secrets
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from apps.audit.services import audit_record
from apps.tenants.models import ApiKey, ApiScope, Membership, Tenant, default_api_scopes, new_webhook_secret
from apps.tenants.selectors import API_KEY_PREFIX, api_key_hash
from apps.tenants.webhook_secrets import webhook_secret_seal

# last_used_at is a hint for people ("is this key still in use?"), not an access log: it is
# written at most this often per key, so that a busy key does not cost a write per request.
LAST_USED_RESOLUTION = dt.timedelta(seconds=60)


class TenantExistsError(Exception):
    pass


class UnknownScopeError(ValueError):
    """A scope that is not one of ``ApiScope``'s values."""


def api_scopes_parse(raw: str) -> list[str]:
    """``"documents:read, cases:write"`` (or ``all``) as the list of scopes a key is given, in
    ``ApiScope``'s order; an unknown scope is an error, never dropped."""
    names = {part.strip() for part in raw.split(",") if part.strip()}
    if "all" in names:
        return list(ApiScope.values)
    unknown = sorted(names - set(ApiScope.values))
    if unknown:
        raise UnknownScopeError(
            f"unknown scopes: {', '.join(unknown)} (known: {', '.join(ApiScope.values)}, or all)"
        )
    return [scope for scope in ApiScope.values if scope in names]


@transaction.atomic
def tenant_create(*, name: str) -> Tenant:
    name = name.strip()
    if not name:
        raise ValueError("a tenant needs a name")
    if Tenant.objects.filter(name=name).exists():
        raise TenantExistsError(f"tenant {name!r} already exists")
    tenant = Tenant(name=name)
    tenant.webhook_secret_encrypted = webhook_secret_seal(tenant_id=tenant.pk, secret=new_webhook_secret())
    tenant.save(force_insert=True)
    audit_record(
        tenant=tenant, actor=None, action="tenant.created", object_type="tenant", object_id=str(tenant.id)
    )
    return tenant


@transaction.atomic
def membership_grant(*, tenant: Tenant, user: User, role: str = Membership.Role.UPLOADER) -> Membership:
    membership, _ = Membership.objects.update_or_create(tenant=tenant, user=user, defaults={"role": role})
    audit_record(
        tenant=tenant,
        actor=None,
        action="membership.granted",
        object_type="user",
        object_id=str(user.pk),
        data={"role": role},
    )
    return membership


@dataclass(frozen=True)
class NewApiKey:
    api_key: ApiKey
    raw_key: str  # shown once; never stored


@transaction.atomic
def api_key_create(
    *, tenant: Tenant, name: str, rate_limit: str = "", scopes: list[str] | None = None
) -> NewApiKey:
    """A new key; ``scopes``: values of ``ApiScope`` (default: ``DEFAULT_API_SCOPES``)."""
    name = name.strip() or "default"
    scopes = api_scopes_parse(",".join(scopes)) if scopes is not None else default_api_scopes()
    prefix = secrets.token_hex(4)
    while ApiKey.objects.filter(prefix=prefix).exists():  # 32 bits: a clash is rare, never fatal
        prefix = secrets.token_hex(4)
    raw_key = f"{API_KEY_PREFIX}{prefix}_{secrets.token_urlsafe(32)}"
    api_key = ApiKey.objects.create(
        tenant=tenant,
        name=name[:100],
        prefix=prefix,
        key_hash=api_key_hash(raw_key),
        rate_limit=rate_limit,
        scopes=scopes,
    )
    audit_record(
        tenant=tenant,
        actor=None,
        action="api_key.created",
        object_type="api_key",
        object_id=str(api_key.pk),
        data={"prefix": prefix, "name": api_key.name, "scopes": scopes},
    )
    return NewApiKey(api_key, raw_key)


@transaction.atomic
def api_key_scopes_set(*, api_key: ApiKey, scopes: list[str], actor: User | None = None) -> ApiKey:
    """Give the key exactly ``scopes`` (values of ``ApiScope``), audited with before and after."""
    wanted = api_scopes_parse(",".join(scopes))
    locked = ApiKey.objects.select_for_update().get(pk=api_key.pk)
    before = list(locked.scopes)
    locked.scopes = wanted
    locked.save(update_fields=["scopes"])
    audit_record(
        tenant=locked.tenant,
        actor=actor,
        action="api_key.scopes_changed",
        object_type="api_key",
        object_id=str(locked.pk),
        data={"prefix": locked.prefix, "before": before, "after": wanted},
    )
    return locked


@transaction.atomic
def api_key_revoke(*, api_key: ApiKey, actor: User | None = None) -> ApiKey:
    """The key stops working at once; a revoked key stays listed (and audited), never reused."""
    locked = ApiKey.objects.select_for_update().get(pk=api_key.pk)
    if locked.revoked_at is not None:
        return locked
    locked.revoked_at = timezone.now()
    locked.save(update_fields=["revoked_at"])
    audit_record(
        tenant=locked.tenant,
        actor=actor,
        action="api_key.revoked",
        object_type="api_key",
        object_id=str(locked.pk),
        data={"prefix": locked.prefix},
    )
    return locked


def api_key_touch(*, api_key: ApiKey, now: dt.datetime | None = None) -> None:
    """Note that the key was used (at most once per ``LAST_USED_RESOLUTION``)."""
    now = now or timezone.now()
    if api_key.last_used_at is not None and now - api_key.last_used_at < LAST_USED_RESOLUTION:
        return
    ApiKey.objects.filter(pk=api_key.pk).update(last_used_at=now)
    api_key.last_used_at = now


@transaction.atomic
def tenant_webhook_secret_rotate(*, tenant: Tenant) -> Tenant:
    tenant.webhook_secret_encrypted = webhook_secret_seal(tenant_id=tenant.pk, secret=new_webhook_secret())
    tenant.save(update_fields=["webhook_secret_encrypted"])
    audit_record(
        tenant=tenant,
        actor=None,
        action="tenant.webhook_secret_rotated",
        object_type="tenant",
        object_id=str(tenant.pk),
    )
    return tenant
