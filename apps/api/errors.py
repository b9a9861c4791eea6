"""Every API error is JSON: ``{"code": "...", "message": "..."}`` (validation errors add
``errors``, per field). This module turns DRF's and Django's exceptions into that shape, and
answers 404 and 500 under ``/api/`` in it too (Django's own pages are HTML)."""

from __future__ import annotations

import math
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig, SuspiciousOperation, TooManyFilesSent
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.views import defaults
from rest_framework import exceptions
from rest_framework.response import Response

API_PREFIX = "/api/"

_CODES: list[tuple[type[exceptions.APIException], str]] = [
    (exceptions.ValidationError, "invalid_request"),
    (exceptions.ParseError, "malformed_request"),
    (exceptions.NotAuthenticated, "not_authenticated"),
    (exceptions.AuthenticationFailed, "authentication_failed"),
    (exceptions.PermissionDenied, "permission_denied"),
    (exceptions.NotFound, "not_found"),
    (exceptions.MethodNotAllowed, "method_not_allowed"),
    (exceptions.NotAcceptable, "not_acceptable"),
    (exceptions.UnsupportedMediaType, "unsupported_media_type"),
    (exceptions.Throttled, "rate_limited"),
]


class ApiError(exceptions.APIException):
    """A refusal with our own code: ``raise ApiError(413, "file_too_large", "...")``."""

    def __init__(self, status_code: int, code: str, message: str, **extra: Any) -> None:
        super().__init__(detail=message, code=code)
        self.status_code = status_code
        self.error_code = code
        self.message = message
        self.extra = extra


def _flatten(detail: Any, prefix: str = "") -> list[str]:
    if isinstance(detail, dict):
        return [m for key, value in detail.items() for m in _flatten(value, f"{prefix}{key}: ")]
    if isinstance(detail, list):
        return [m for item in detail for m in _flatten(item, prefix)]
    return [f"{prefix}{detail}"]


def _message(exc: exceptions.APIException) -> str:
    if isinstance(exc, exceptions.Throttled):
        wait = math.ceil(getattr(exc, "wait", None) or 1)
        return f"too many requests for this key; retry in {wait} s"
    return "; ".join(_flatten(exc.detail)) or str(exc.default_detail)


def _translate(exc: Exception) -> Exception:
    if isinstance(exc, Http404):
        return exceptions.NotFound("no such resource")
    if isinstance(exc, DjangoPermissionDenied):
        return exceptions.PermissionDenied()
    if isinstance(exc, TooManyFilesSent):
        return ApiError(413, "too_many_files", "the request holds more files than a batch may")
    if isinstance(exc, RequestDataTooBig):
        return ApiError(413, "request_too_large", "the request's form fields are too large")
    if isinstance(exc, SuspiciousOperation):
        return ApiError(400, "malformed_request", "the request could not be read")
    return exc


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    exc = _translate(exc)
    if not isinstance(exc, exceptions.APIException):
        return None  # a bug: Django answers 500 (JSON under /api/, see server_error)
    headers: dict[str, str] = {}
    auth_header = getattr(exc, "auth_header", None)
    if auth_header:
        headers["WWW-Authenticate"] = auth_header
    if isinstance(exc, exceptions.Throttled):
        headers["Retry-After"] = str(math.ceil(getattr(exc, "wait", None) or 1))
    if isinstance(exc, ApiError):
        body: dict[str, Any] = {"code": exc.error_code, "message": exc.message, **exc.extra}
    else:
        code = next((c for cls, c in _CODES if isinstance(exc, cls)), "error")
        body = {"code": code, "message": _message(exc)}
        if isinstance(exc, exceptions.ValidationError) and isinstance(exc.detail, dict):
            body["errors"] = exc.detail
    return Response(body, status=exc.status_code, headers=headers)


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith(API_PREFIX)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    if _is_api(request):
        return JsonResponse({"code": "not_found", "message": "no such resource"}, status=404)
    return defaults.page_not_found(request, exception)


def server_error(request: HttpRequest) -> HttpResponse:
    if _is_api(request):
        return JsonResponse(
            {"code": "internal_error", "message": "the server failed; it was logged"}, status=500
        )
    return defaults.server_error(request)
