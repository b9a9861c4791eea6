"""Swagger UI under the Content-Security-Policy (apps.security.headers).

drf-spectacular's split view serves its start-up script as a file of its own instead of an inline
``<script>``, so ``script-src 'self'`` holds. Its page still carries a small inline ``<style>``
(and Swagger UI injects more), so this page alone also allows inline styles, never inline scripts.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.views import SpectacularSwaggerSplitView
from rest_framework.request import Request
from rest_framework.response import Response

from apps.security.headers import CSP_HEADER, DEFAULT_CSP, csp_header

SWAGGER_CSP = csp_header({**DEFAULT_CSP, "style-src": "'self' 'unsafe-inline'"})


class SwaggerUiView(SpectacularSwaggerSplitView):
    def finalize_response(self, request: Request, response: Response, *args: Any, **kwargs: Any) -> Response:
        response = super().finalize_response(request, response, *args, **kwargs)
        response[CSP_HEADER] = SWAGGER_CSP
        return response
