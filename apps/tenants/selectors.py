"""Reads for tenants: which tenants may a user act for."""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import QuerySet

from apps.tenants.models import Tenant


def tenants_for_user(*, user: User | AnonymousUser) -> QuerySet[Tenant]:
    if not user.is_authenticated:
        return Tenant.objects.none()
    return Tenant.objects.filter(memberships__user=user).order_by("name")


def tenant_get_by_name(*, name: str) -> Tenant | None:
    return Tenant.objects.filter(name=name).first()
