"""OpenAPI pieces drf-spectacular cannot infer: the Api-Key scheme, the error body, and who may
call each operation (``apps.api.permissions.ACCESS``)."""

from __future__ import annotations

from functools import cache
from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers

from apps.api.permissions import access_for
from apps.tenants.models import ApiScope


class ApiKeySchemeExtension(OpenApiAuthenticationExtension):
    target_class = "apps.api.authentication.ApiKeyAuthentication"
    name = "ApiKeyAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "`Api-Key <key>`; make a key with `manage.py create_api_key --tenant NAME "
            "[--scopes ...]`. A key may call the operations its scopes allow (each operation's "
            "`x-docintel-scope`): "
            + "; ".join(f"`{scope.value}`: {scope.label}" for scope in ApiScope)
            + ".",
        }


class SignedUrlSchemeExtension(OpenApiAuthenticationExtension):
    target_class = "apps.api.signed_urls.SignedUrlAuthentication"
    name = "SignedUrl"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {
            "type": "apiKey",
            "in": "query",
            "name": "signature",
            "description": "An expiring link from a batch's `exports` (with `tenant` and `expires`): "
            "opens that one download without a key until it expires.",
        }


class ErrorSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="machine-readable, e.g. `file_too_large`, `rate_limited`")
    message = serializers.CharField(help_text="for people")
    errors = serializers.DictField(  # type: ignore[assignment]  # a field, popped by DRF
        required=False, help_text="per request field, for `invalid_request`"
    )


_DESCRIPTIONS = {
    400: "invalid request (`invalid_request`, `invalid_idempotency_key`, ...)",
    401: "no or invalid credentials",
    403: "the credentials act for no tenant, or lack the role or scope the operation needs "
    "(`insufficient_role`, `insufficient_scope`)",
    404: "no such resource (or another tenant's)",
    405: "method not allowed",
    409: "a request with this Idempotency-Key is still being processed",
    413: "too large: the file, the request or too many files (§4 limits)",
    415: "unsupported media type or file type",
    422: "understood but refused: a page limit, an unreadable archive, a reused Idempotency-Key",
    429: "rate limited; see Retry-After",
}
COMMON = (400, 401, 403, 404, 405, 415, 429)


def errors(*statuses: int) -> dict[int, OpenApiResponse]:
    return {
        s: OpenApiResponse(ErrorSerializer, description=_DESCRIPTIONS[s])
        for s in sorted({*COMMON, *statuses})
    }


@cache
def _url_names() -> dict[type, str]:
    """Each API view class with its URL's name (``api:documents``), from the URLconf."""
    from apps.api import urls  # here: the views import this module

    return {
        pattern.callback.cls: f"{urls.app_name}:{pattern.name}"
        for pattern in urls.urlpatterns
        if hasattr(pattern.callback, "cls")
    }


class AccessAutoSchema(AutoSchema):
    """Each operation states who may call it, from ``ACCESS``: ``x-docintel-role`` (the least role
    of a logged-in member) and ``x-docintel-scope`` (an API key's scope), and says so in words."""

    def get_operation(self, *args: Any, **kwargs: Any) -> dict[str, Any] | None:
        operation = super().get_operation(*args, **kwargs)
        if operation is None:
            return None
        access = access_for(_url_names().get(type(self.view), ""), self.method)
        if access is None:
            return operation  # refused at runtime; tests/unit/api/test_access_table.py fails first
        operation["x-docintel-role"] = access.role
        operation["x-docintel-scope"] = access.scope
        needs = (
            f"**Access:** an API key with the scope `{access.scope}`, or a member of the tenant with "
            f"the role `{access.role}` or above."
        )
        description = operation.get("description", "")
        operation["description"] = f"{description}\n\n{needs}" if description else needs
        return operation
