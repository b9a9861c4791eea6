"""Who may do what in review, by role within a tenant (``apps.tenants.Membership``).

Uploaders upload; operators claim and work tasks; supervisors also take escalated tasks and
manage queues; admins may do everything a supervisor may. A user who is not a member of the
tenant is treated exactly like an uploader: refused, and shown nothing.
"""

from __future__ import annotations

from django.contrib.auth.models import AnonymousUser, User

from apps.review.errors import ReviewPermissionError
from apps.tenants.models import Membership, Tenant

Role = Membership.Role
REVIEWER_ROLES = frozenset({Role.OPERATOR, Role.SUPERVISOR, Role.ADMIN})
SUPERVISOR_ROLES = frozenset({Role.SUPERVISOR, Role.ADMIN})


def role_in_tenant(*, user: User | AnonymousUser, tenant: Tenant | None) -> str | None:
    if tenant is None or not user.is_authenticated:
        return None
    return Membership.objects.filter(tenant=tenant, user=user).values_list("role", flat=True).first()


def require_role(*, user: User | AnonymousUser, tenant: Tenant, roles: frozenset[str]) -> str:
    """The user's role, or ReviewPermissionError when it is not one of ``roles``."""
    role = role_in_tenant(user=user, tenant=tenant)
    if role not in roles:
        raise ReviewPermissionError("this action needs one of the roles " + ", ".join(sorted(roles)))
    return role


def is_reviewer(*, user: User | AnonymousUser, tenant: Tenant | None) -> bool:
    return role_in_tenant(user=user, tenant=tenant) in REVIEWER_ROLES


def is_supervisor(*, user: User | AnonymousUser, tenant: Tenant | None) -> bool:
    return role_in_tenant(user=user, tenant=tenant) in SUPERVISOR_ROLES


def tenant_with_role(*, user: User | AnonymousUser, roles: frozenset[str]) -> tuple[Tenant, str] | None:
    """The first tenant (by name) in which ``user`` holds one of ``roles``, with that role.

    The review pages work in one tenant at a time; a user who uploads for one organisation and
    reviews for another lands on the one they review for, not on a 403.
    """
    if not user.is_authenticated:
        return None
    membership = (
        Membership.objects.filter(user=user, role__in=roles)
        .select_related("tenant")
        .order_by("tenant__name")
        .first()
    )
    return (membership.tenant, membership.role) if membership is not None else None
