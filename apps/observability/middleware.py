"""Health probes and request ids, in front of everything else.

``HealthProbeMiddleware`` comes first: probes arrive with the pod's IP as Host and over plain HTTP,
so they must be answered before host validation (CommonMiddleware) and HTTPS redirects
(SecurityMiddleware) could refuse them. ``RequestIdMiddleware`` binds the caller's
``X-Request-ID`` (or a new id) to the logs and to the messages the request sends, and returns it.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from apps.observability import health
from apps.observability.context import clean_request_id, document_id_var, request_id_var

LIVE_PATH = "/healthz"
READY_PATH = "/readyz"


def _json(status: int, body: dict[str, object]) -> HttpResponse:
    return HttpResponse(json.dumps(body), status=status, content_type="application/json")


class HealthProbeMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path == LIVE_PATH:
            return _json(200, {"status": "ok"})
        if request.path == READY_PATH:
            problems = health.readiness_problems()
            if problems:
                return _json(503, {"status": "unavailable", "failing": problems})
            return _json(200, {"status": "ok"})
        return self.get_response(request)


class RequestIdMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request_id = clean_request_id(request.headers.get("X-Request-ID"))
        token = request_id_var.set(request_id)
        document_token = document_id_var.set("")
        try:
            response = self.get_response(request)
        finally:
            request_id_var.reset(token)
            document_id_var.reset(document_token)
        response["X-Request-ID"] = request_id
        return response
