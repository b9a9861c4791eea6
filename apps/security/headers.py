"""Security headers on every response, beside those Django's own middleware sets.

Django's ``SecurityMiddleware`` already sends ``X-Content-Type-Options: nosniff``,
``Referrer-Policy`` and ``Cross-Origin-Opener-Policy`` (and HSTS over HTTPS in production), and
``XFrameOptionsMiddleware`` sends ``X-Frame-Options: DENY``. This adds the Content-Security-Policy,
the Permissions-Policy and ``Cross-Origin-Resource-Policy``.

The policy fits the UI as it is built: every script is a module file under ``static/`` (no inline
script, no ``eval``), every stylesheet a file; only ``style`` *attributes* are allowed inline, as the
field boxes over a page image are placed by them (a style attribute cannot run script). A view that
needs a different policy sets the header itself; this never overwrites it.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

CSP_HEADER = "Content-Security-Policy"
DEFAULT_CSP: dict[str, str] = {
    "default-src": "'self'",
    "script-src": "'self'",
    "style-src": "'self'",
    "style-src-attr": "'unsafe-inline'",
    "img-src": "'self' data: blob:",
    "font-src": "'self'",
    "connect-src": "'self'",
    "object-src": "'none'",
    "base-uri": "'none'",
    "form-action": "'self'",
    "frame-ancestors": "'none'",
}
# Nothing in DocIntel uses the camera, microphone, location or payment APIs of a browser.
PERMISSIONS_POLICY = "camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()"


def csp_header(policy: dict[str, str]) -> str:
    return "; ".join(f"{directive} {sources}" for directive, sources in policy.items())


class SecurityHeadersMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.csp = csp_header(getattr(settings, "DOCINTEL_CSP", DEFAULT_CSP))

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.headers.setdefault(CSP_HEADER, self.csp)
        response.headers.setdefault("Permissions-Policy", PERMISSIONS_POLICY)
        response.headers.setdefault("Cross-Origin-Resource-Policy", "same-origin")
        return response
