"""Reads for tenants: which tenants may a user act for, and which key a request carries."""

from __future__ import annotations

import hashlib
import hmac

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import QuerySet

from apps.tenants.models import ApiKey, Tenant

API_KEY_PREFIX = "dik_"


def tenants_for_user(*, user: User | AnonymousUser) -> QuerySet[Tenant]:
    if not user.is_authenticated:
        return Tenant.objects.none()
    return Tenant.objects.filter(memberships__user=user).order_by("name")


def tenant_get_by_name(*, name: str) -> Tenant | None:
    return Tenant.objects.filter(name=name).first()


def api_key_hash(raw_key: str) -> str:
    return hashlib.sha256(raw_key.encode("utf-8")).hexdigest()


def api_key_authenticate(*, raw_key: str) -> ApiKey | None:
    """The active key ``raw_key`` is, with its tenant; None for anything else (malformed, unknown,
    revoked). The row is found by the visible prefix and the hashes compared in constant time."""
    if not raw_key.startswith(API_KEY_PREFIX) or len(raw_key) > 200:
        return None
    prefix, _, secret = raw_key[len(API_KEY_PREFIX) :].partition("_")
    if not prefix or not secret:
        return None
    key = ApiKey.objects.select_related("tenant").filter(prefix=prefix, revoked_at__isnull=True).first()
    if key is None or not hmac.compare_digest(key.key_hash, api_key_hash(raw_key)):
        return None
    return key


def api_keys_of_tenant(*, tenant: Tenant) -> QuerySet[ApiKey]:
    return ApiKey.objects.filter(tenant=tenant).order_by("created_at")
