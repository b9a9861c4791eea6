"""OpenAPI pieces drf-spectacular cannot infer: the Api-Key scheme and the error body."""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.utils import OpenApiResponse
from rest_framework import serializers


class ApiKeySchemeExtension(OpenApiAuthenticationExtension):
    target_class = "apps.api.authentication.ApiKeyAuthentication"
    name = "ApiKeyAuth"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "`Api-Key <key>`; make a key with `manage.py create_api_key --tenant NAME`.",
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
    403: "the credentials act for no tenant",
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
