"""Expiring signed URLs for downloads whose links are handed on (a batch's exports).

An integrator passes the export link of a batch to a system that holds no API key (a reporting
job, a colleague's spreadsheet). The link carries its tenant, an expiry and an HMAC of both with
its path, under the server's secret: it opens that one download of that tenant, by GET, until it
expires, and nothing else. Changing any part of it (the path, the tenant, the time) breaks the
signature. The download answers as it does for a key: attachment, private, never cached.
"""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass
from urllib.parse import urlencode

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.utils.crypto import constant_time_compare, salted_hmac
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication
from rest_framework.request import Request

from apps.tenants.models import Tenant

_SALT = "docintel.api.signed-url"
PARAMS = ("tenant", "expires", "signature")


@dataclass(frozen=True)
class SignedUrlGrant:
    """``request.auth`` of a request authorised by a signed URL: one path, one tenant."""

    tenant: Tenant
    path: str


def _signature(path: str, tenant_id: str, expires: int) -> str:
    return salted_hmac(_SALT, f"{path}\n{tenant_id}\n{expires}", algorithm="sha256").hexdigest()


def signed_url_make(*, path: str, tenant: Tenant, ttl_s: int | None = None, now: float | None = None) -> str:
    """``path`` with the query that opens it for ``ttl_s`` seconds (``DOCINTEL_SIGNED_URL_TTL_S``)."""
    ttl = settings.DOCINTEL_SIGNED_URL_TTL_S if ttl_s is None else ttl_s
    expires = int((now if now is not None else time.time()) + ttl)
    query = {
        "tenant": str(tenant.pk),
        "expires": expires,
        "signature": _signature(path, str(tenant.pk), expires),
    }
    return f"{path}?{urlencode(query)}"


class SignedUrlAuthentication(BaseAuthentication):
    """Authenticates a GET whose query carries a valid, unexpired signature for its own path.
    Without the parameters it steps aside for the key or the session."""

    def authenticate(self, request: Request) -> tuple[AnonymousUser, SignedUrlGrant] | None:
        params = request.query_params
        if "signature" not in params:
            return None
        if request.method not in ("GET", "HEAD"):
            raise exceptions.AuthenticationFailed("a signed URL only downloads")
        try:
            tenant_id = str(uuid.UUID(params.get("tenant", "")))
            expires = int(params.get("expires", ""))
        except ValueError as exc:
            raise exceptions.AuthenticationFailed("the signed URL is malformed") from exc
        expected = _signature(request.path, tenant_id, expires)
        if not constant_time_compare(expected, params.get("signature", "")):
            raise exceptions.AuthenticationFailed("the signed URL's signature does not match")
        if expires < time.time():
            raise exceptions.AuthenticationFailed("the signed URL has expired")
        tenant = Tenant.objects.filter(pk=tenant_id).first()
        if tenant is None:
            raise exceptions.AuthenticationFailed("the signed URL's tenant no longer exists")
        return AnonymousUser(), SignedUrlGrant(tenant=tenant, path=request.path)

    def authenticate_header(self, request: Request) -> str:
        return 'Signature realm="api"'
