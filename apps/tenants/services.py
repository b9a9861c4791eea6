"""Writes for tenants and memberships."""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction

from apps.audit.services import audit_record
from apps.tenants.models import Membership, Tenant


class TenantExistsError(Exception):
    pass


@transaction.atomic
def tenant_create(*, name: str) -> Tenant:
    name = name.strip()
    if not name:
        raise ValueError("a tenant needs a name")
    if Tenant.objects.filter(name=name).exists():
        raise TenantExistsError(f"tenant {name!r} already exists")
    tenant = Tenant.objects.create(name=name)
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
