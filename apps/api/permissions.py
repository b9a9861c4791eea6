"""Who may call which REST operation: one table (``ACCESS``) and one DRF permission class.

Every operation of ``/api/v1`` is a row: the URL's name and the HTTP method, with the least role a
logged-in member of the tenant needs (``Membership.Role``, ranked uploader < operator <
supervisor < admin) and the scope an API key needs (``ApiScope``). The rule in words:

* uploader — upload, and read the tenant's documents, batches and document types;
* operator — cases (the case pages ask for a reviewing role too), and decisions (reprocess,
  approve/reject): ``reviews:write``;
* admin — what configures the tenant: defining document types, and which of them get the
  authenticity signals (``types:admin``).

A signed export link (``apps.api.signed_urls``) opens only the one download it was signed for,
and was handed out by an operation that needs ``documents:read``: it needs nothing more here.

An operation missing from the table is refused (403) — it fails closed — and
``tests/unit/api/test_access_table.py`` fails for any URL of the URLconf that has no row, so a new
endpoint cannot ship without saying who may call it. The OpenAPI schema states each operation's
role and scope from the same table (``apps.api.schema.AccessAutoSchema``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rest_framework.request import Request

from apps.api.authentication import ActsForTenant, request_tenant
from apps.api.errors import ApiError
from apps.api.signed_urls import SignedUrlGrant
from apps.tenants.models import ApiKey, ApiScope, Membership

Role = Membership.Role
# Each role may do what the ones before it may.
ROLE_ORDER: tuple[str, ...] = (Role.UPLOADER, Role.OPERATOR, Role.SUPERVISOR, Role.ADMIN)


@dataclass(frozen=True)
class Access:
    """What one operation asks of its caller: a member's least ``role``, or a key's ``scope``."""

    role: str
    scope: str


READ_DOCUMENTS = Access(Role.UPLOADER, ApiScope.DOCUMENTS_READ)
UPLOAD = Access(Role.UPLOADER, ApiScope.DOCUMENTS_WRITE)
READ_CASES = Access(Role.OPERATOR, ApiScope.CASES_READ)
WRITE_CASES = Access(Role.OPERATOR, ApiScope.CASES_WRITE)
READ_TYPES = Access(Role.UPLOADER, ApiScope.TYPES_READ)
ADMIN_TYPES = Access(Role.ADMIN, ApiScope.TYPES_ADMIN)
DECIDE = Access(Role.OPERATOR, ApiScope.REVIEWS_WRITE)
READ_WEBHOOKS = Access(Role.OPERATOR, ApiScope.WEBHOOKS_READ)
REDRIVE_WEBHOOKS = Access(Role.OPERATOR, ApiScope.WEBHOOKS_WRITE)

# URL name → method → access. HEAD is GET's.
ACCESS: dict[str, dict[str, Access]] = {
    "api:documents": {"GET": READ_DOCUMENTS, "POST": UPLOAD},
    "api:document": {"GET": READ_DOCUMENTS},
    "api:document_original": {"GET": READ_DOCUMENTS},
    "api:document_page": {"GET": READ_DOCUMENTS},
    "api:document_reprocess": {"POST": DECIDE},
    "api:batches": {"GET": READ_DOCUMENTS, "POST": UPLOAD},
    "api:batch": {"GET": READ_DOCUMENTS},
    "api:batch_export_jsonl": {"GET": READ_DOCUMENTS},
    "api:batch_export_csv": {"GET": READ_DOCUMENTS},
    "api:cases": {"POST": WRITE_CASES},
    "api:case": {"GET": READ_CASES},
    "api:case_documents": {"POST": WRITE_CASES},
    "api:document_types": {"GET": READ_TYPES, "POST": ADMIN_TYPES},
    "api:document_type": {"GET": READ_TYPES},
    "api:authenticity_policy": {"GET": ADMIN_TYPES, "PUT": ADMIN_TYPES},
    "api:webhook_dead_letters": {"GET": READ_WEBHOOKS},
    "api:webhook_dead_letters_redrive": {"POST": REDRIVE_WEBHOOKS},
}
# Open to anyone: the schema and its viewer describe the API and hold no tenant's data.
PUBLIC: frozenset[str] = frozenset({"api:schema", "api:docs"})


def access_for(view_name: str, method: str) -> Access | None:
    """The table's row for an operation; None when it has none (the operation is then refused)."""
    return ACCESS.get(view_name, {}).get("GET" if method == "HEAD" else method)


def role_at_least(role: str | None, least: str) -> bool:
    return role in ROLE_ORDER and ROLE_ORDER.index(role) >= ROLE_ORDER.index(least)


def request_role(request: Request) -> str | None:
    """The logged-in user's role in the tenant the request acts for (None for a key)."""
    if not hasattr(request, "_docintel_role"):
        tenant = request_tenant(request)
        user = request.user
        role = None
        if tenant is not None and user is not None and user.is_authenticated:
            role = Membership.objects.filter(tenant=tenant, user=user).values_list("role", flat=True).first()
        request._docintel_role = role  # type: ignore[attr-defined]
    return request._docintel_role  # type: ignore[attr-defined]


def _handles(view: Any, method: str) -> bool:
    """Whether the view has a handler of its own for ``method`` (else it answers 405)."""
    if method == "OPTIONS":
        return False  # no metadata class: OPTIONS answers 405 (settings: DEFAULT_METADATA_CLASS)
    method = "GET" if method == "HEAD" else method
    return method.lower() in view.http_method_names and hasattr(view, method.lower())


class RoleOrScope(ActsForTenant):
    """The caller acts for a tenant (``ActsForTenant``), and has the role (a member) or the scope
    (a key) ``ACCESS`` names for the operation; a signed link opens its own download. Refusals
    are 403 ``insufficient_role`` / ``insufficient_scope`` / ``operation_not_declared``."""

    def has_permission(self, request: Request, view: Any) -> bool:
        if not super().has_permission(request, view):
            return False  # DRF answers 401 without credentials, 403 with some
        if isinstance(request.auth, SignedUrlGrant):
            return True  # authenticated for this one path, by GET, until it expires
        method = (request.method or "").upper()
        if not _handles(view, method):
            return True  # the view answers 405
        match = request.resolver_match
        view_name = match.view_name if match is not None else ""
        access = access_for(view_name, method)
        if access is None:
            raise ApiError(403, "operation_not_declared", "this operation has no declared role or scope")
        if isinstance(request.auth, ApiKey):
            if access.scope not in request.auth.scopes:
                raise ApiError(
                    403,
                    "insufficient_scope",
                    f"this operation needs an API key with the scope {access.scope}",
                )
            return True
        role = request_role(request)
        if not role_at_least(role, access.role):
            raise ApiError(
                403,
                "insufficient_role",
                f"this operation needs the role {access.role} or above in the tenant (yours: {role})",
            )
        return True
