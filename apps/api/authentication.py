"""``Authorization: Api-Key <key>`` (ARCHITECTURE §3.4), beside the operators' session.

A request carrying a key acts for the key's tenant, with no user; a logged-in operator acts for
their tenant. ``request_tenant`` answers which tenant that is, and every query of the API is
scoped by it.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication, get_authorization_header
from rest_framework.permissions import BasePermission
from rest_framework.request import Request

from apps.api.signed_urls import SignedUrlGrant
from apps.tenants.models import ApiKey, Tenant
from apps.tenants.selectors import api_key_authenticate, tenants_for_user
from apps.tenants.services import api_key_touch

KEYWORD = "Api-Key"


class ApiKeyAuthentication(BaseAuthentication):
    def authenticate(self, request: Request) -> tuple[AnonymousUser, ApiKey] | None:
        header = get_authorization_header(request).decode("latin-1")
        scheme, _, raw_key = header.partition(" ")
        if scheme.lower() != KEYWORD.lower():
            return None  # not ours: the session may still authenticate the request
        raw_key = raw_key.strip()
        if not raw_key:
            raise exceptions.AuthenticationFailed("the Api-Key header carries no key")
        api_key = api_key_authenticate(raw_key=raw_key)
        if api_key is None:
            raise exceptions.AuthenticationFailed("the API key is not valid or was revoked")
        api_key_touch(api_key=api_key)
        return AnonymousUser(), api_key

    def authenticate_header(self, request: Request) -> str:
        return f'{KEYWORD} realm="api"'


def request_tenant(request: Request) -> Tenant | None:
    cached = getattr(request, "_docintel_tenant", None)
    if cached is not None:
        return cached
    tenant: Tenant | None = None
    if isinstance(request.auth, ApiKey | SignedUrlGrant):  # a key, or a link signed for one download
        tenant = request.auth.tenant
    elif request.user is not None and request.user.is_authenticated:
        tenant = tenants_for_user(user=request.user).first()
    request._docintel_tenant = tenant  # type: ignore[attr-defined]
    return tenant


class ActsForTenant(BasePermission):
    """An API key, or a logged-in member of a tenant. Anyone else: 401 (no credentials) or 403."""

    message = "these credentials act for no tenant"

    def has_permission(self, request: Request, view: Any) -> bool:
        return request_tenant(request) is not None


def tenant_of(request: Request) -> Tenant:
    """The caller's tenant in a view behind ``ActsForTenant``."""
    tenant = request_tenant(request)
    if tenant is None:  # pragma: no cover — ActsForTenant refused the request already
        raise exceptions.PermissionDenied(ActsForTenant.message)
    return tenant
