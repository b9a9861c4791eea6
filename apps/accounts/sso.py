"""Single sign-on through OpenID Connect, with tenant roles from the identity provider's groups.

mozilla-django-oidc runs the authorization-code flow (state, nonce, PKCE, the ID token's RS256
signature against the provider's JWKS). This backend adds what a bank needs on top: the ID token
must come from the configured issuer, for this client, unexpired; the person is found by issuer
and subject (``SsoIdentity``), never by e-mail; and their memberships are what their groups map to
in ``DOCINTEL_OIDC_GROUP_ROLES``, on every sign-in, so a person moved or removed in the directory
loses the old role at their next sign-in. Someone whose groups map to no tenant is refused.

SSO is off until ``DOCINTEL_OIDC_CLIENT_ID`` is set; then the login page offers
"Sign in with <DOCINTEL_OIDC_PROVIDER_NAME>" (docs/operators-guide.md#single-sign-on).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

import jwt
import requests
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core.exceptions import SuspiciousOperation
from django.http import HttpRequest
from mozilla_django_oidc.auth import OIDCAuthenticationBackend

from apps.accounts.services import sso_sign_in
from apps.tenants.models import Membership

logger = logging.getLogger(__name__)

# Lowest first: a person in two groups that give the same tenant gets the higher role.
ROLE_ORDER: tuple[str, ...] = tuple(Membership.Role.values)
# Clock difference tolerated between us and the provider when checking the ID token's expiry.
CLOCK_SKEW_S = 60


class TenantRole(NamedTuple):
    tenant: str  # the tenant's name
    role: str  # a Membership.Role value


class SsoSubject(NamedTuple):
    issuer: str
    subject: str


def sso_enabled() -> bool:
    return bool(settings.OIDC_RP_CLIENT_ID)


def group_roles(raw: object) -> dict[str, tuple[TenantRole, ...]]:
    """``DOCINTEL_OIDC_GROUP_ROLES`` checked: a group name maps to ``{"tenant": name, "role": role}``
    or a list of those. Raises ValueError, naming what is wrong."""
    if not isinstance(raw, Mapping):
        raise ValueError("DOCINTEL_OIDC_GROUP_ROLES must be a JSON object of group name -> grants")
    mapping: dict[str, tuple[TenantRole, ...]] = {}
    for group, value in raw.items():
        entries = value if isinstance(value, list) else [value]
        grants = []
        for entry in entries:
            if not isinstance(entry, Mapping) or set(entry) != {"tenant", "role"}:
                raise ValueError(f"group {group!r}: each grant is {{'tenant': name, 'role': role}}")
            if entry["role"] not in ROLE_ORDER:
                raise ValueError(f"group {group!r}: role must be one of {', '.join(ROLE_ORDER)}")
            if not isinstance(entry["tenant"], str) or not entry["tenant"].strip():
                raise ValueError(f"group {group!r}: a grant names its tenant")
            grants.append(TenantRole(entry["tenant"].strip(), entry["role"]))
        mapping[str(group)] = tuple(grants)
    return mapping


def roles_for_groups(groups: Iterable[str], mapping: Mapping[str, Iterable[TenantRole]]) -> dict[str, str]:
    """Tenant name -> the highest role the groups give there."""
    roles: dict[str, str] = {}
    for group in groups:
        for grant in mapping.get(group, ()):
            held = roles.get(grant.tenant)
            if held is None or ROLE_ORDER.index(grant.role) > ROLE_ORDER.index(held):
                roles[grant.tenant] = grant.role
    return roles


def groups_in(claims: Mapping[str, Any]) -> list[str]:
    """The groups claim (``DOCINTEL_OIDC_GROUPS_CLAIM``): a list of names, or one name."""
    value = claims.get(settings.DOCINTEL_OIDC_GROUPS_CLAIM)
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [item for item in value if isinstance(item, str)]
    return []


def verified_subject(payload: Mapping[str, Any], *, issuer: str, client_id: str, now: float) -> SsoSubject:
    """The ID token's claims checked beyond its signature (OpenID Connect Core 3.1.3.7), which
    mozilla-django-oidc leaves out: issuer, audience, authorized party, expiry, subject."""
    if payload.get("iss") != issuer:
        raise SuspiciousOperation("ID token from another issuer")
    audience = payload.get("aud")
    audiences = [audience] if isinstance(audience, str) else audience if isinstance(audience, list) else []
    if client_id not in audiences:
        raise SuspiciousOperation("ID token for another client")
    if len(audiences) > 1 and payload.get("azp") != client_id:
        raise SuspiciousOperation("ID token authorized for another party")
    expires = payload.get("exp")
    if not isinstance(expires, int | float) or expires + CLOCK_SKEW_S < now:
        raise SuspiciousOperation("ID token expired or without expiry")
    subject = payload.get("sub")
    if not isinstance(subject, str) or not subject:
        raise SuspiciousOperation("ID token without subject")
    return SsoSubject(issuer, subject)


class SsoBackend(OIDCAuthenticationBackend):
    """The authentication backend for the OpenID Connect callback; inert while SSO is off."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.UserModel = get_user_model()
        if sso_enabled():
            super().__init__(*args, **kwargs)

    def authenticate(self, request: HttpRequest | None, **kwargs: Any) -> User | None:
        # Only the callback view passes a nonce: a password login never reaches the provider.
        if request is None or not sso_enabled() or not kwargs.get("nonce"):
            return None
        try:
            return super().authenticate(request, **kwargs)
        except (SuspiciousOperation, jwt.PyJWTError, requests.RequestException) as exc:
            logger.warning("single sign-on refused: %s", type(exc).__name__)
            return None

    def get_or_create_user(self, access_token: str, id_token: str, payload: dict[str, Any]) -> User | None:
        subject = verified_subject(
            payload, issuer=settings.DOCINTEL_OIDC_ISSUER, client_id=self.OIDC_RP_CLIENT_ID, now=time.time()
        )
        userinfo = self.get_userinfo(access_token, id_token, payload)
        if userinfo.get("sub") != subject.subject:
            raise SuspiciousOperation("the userinfo answer is about another subject")
        claims = {**payload, **userinfo}
        roles = roles_for_groups(groups_in(claims), group_roles(settings.DOCINTEL_OIDC_GROUP_ROLES))
        user = sso_sign_in(
            issuer=subject.issuer,
            subject=subject.subject,
            username=str(claims.get("preferred_username") or claims.get("email") or subject.subject),
            email=str(claims.get("email") or ""),
            roles=roles,
        )
        if user is None:
            logger.warning("single sign-on refused: no tenant role for the person's groups")
        return user

    def get_user(self, user_id: Any) -> User | None:
        """As ModelBackend: a deactivated user's session no longer signs them in."""
        user = super().get_user(user_id)
        return user if user is not None and self.user_can_authenticate(user) else None
