"""Writes for single sign-on: the user a provider's subject signs in as, and their memberships."""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Mapping

from django.contrib.auth.models import User
from django.db import transaction

from apps.audit.services import audit_record
from apps.tenants.models import Membership, SsoIdentity, Tenant
from apps.tenants.services import membership_grant

logger = logging.getLogger(__name__)


@transaction.atomic
def sso_sign_in(
    *, issuer: str, subject: str, username: str, email: str, roles: Mapping[str, str]
) -> User | None:
    """The user for ``(issuer, subject)``, made on first sign-in, with exactly the memberships
    ``roles`` (tenant name -> role) gives; None, and no membership left, when it gives none.

    The identity provider is the source of truth for who may act for which tenant: a membership it
    no longer gives is revoked, also one granted by hand.
    """
    tenants = {tenant.name: tenant for tenant in Tenant.objects.filter(name__in=list(roles))}
    if len(tenants) < len(roles):
        logger.warning("single sign-on: %d mapped tenant(s) do not exist", len(roles) - len(tenants))
    granted = {tenants[name]: role for name, role in roles.items() if name in tenants}
    identity = SsoIdentity.objects.select_related("user").filter(issuer=issuer, subject=subject).first()
    user = identity.user if identity is not None else None
    if not granted:
        if user is not None:
            sso_memberships_sync(user=user, roles={})
        return None
    if user is None:
        user = User.objects.create_user(_free_username(username, issuer, subject), email=email)
        SsoIdentity.objects.create(user=user, issuer=issuer, subject=subject)
    elif email and user.email != email:
        user.email = email
        user.save(update_fields=["email"])
    sso_memberships_sync(user=user, roles=granted)
    return user


def sso_memberships_sync(*, user: User, roles: Mapping[Tenant, str]) -> None:
    """Grant, change and revoke so that ``user``'s memberships are exactly ``roles`` (audited)."""
    held = {
        m.tenant_id: m
        for m in Membership.objects.select_for_update().filter(user=user).select_related("tenant")
    }
    for tenant, role in roles.items():
        membership = held.pop(tenant.pk, None)
        if membership is None or membership.role != role:
            membership_grant(tenant=tenant, user=user, role=role)
    for membership in held.values():
        membership.delete()
        audit_record(
            tenant=membership.tenant,
            actor=None,
            action="membership.revoked",
            object_type="user",
            object_id=str(user.pk),
            data={"role": membership.role, "source": "sso"},
        )


def _free_username(wanted: str, issuer: str, subject: str) -> str:
    """``wanted``, or with a suffix from the subject when a local user already has that name."""
    name = wanted.strip()[:150] or "sso"
    if not User.objects.filter(username=name).exists():
        return name
    suffix = hashlib.sha256(f"{issuer}\n{subject}".encode()).hexdigest()[:10]
    return f"{name[:139]}-{suffix}"
