"""Signed-in sessions end after ``DOCINTEL_SESSION_IDLE_TIMEOUT_S`` without a request.

An operator's screen left open at lunch shows people's documents and can approve them. Django's own
session lifetime (``SESSION_COOKIE_AGE``) runs from the last save, and saving on every request
(``SESSION_SAVE_EVERY_REQUEST``) would write the session row on every page and poll; this
middleware keeps the time of the last request in the session, rewrites it at most every
``_resolution`` seconds, and logs the user out when the gap is longer than the timeout. The session
row itself expires with the same timeout, so an abandoned one also dies in the database.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from django.conf import settings
from django.contrib.auth import logout
from django.http import HttpRequest, HttpResponse

LAST_SEEN_KEY = "docintel_last_seen"


def _resolution(timeout_s: int) -> int:
    """How stale the stored time may get: a minute, or a tenth of a short timeout (tests)."""
    return min(60, timeout_s // 10)


class IdleSessionTimeoutMiddleware:
    """After AuthenticationMiddleware: ends an idle signed-in session before the view runs."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        timeout = settings.DOCINTEL_SESSION_IDLE_TIMEOUT_S
        if timeout > 0 and request.user.is_authenticated:
            now = time.time()
            last_seen = request.session.get(LAST_SEEN_KEY)
            if not isinstance(last_seen, int | float):
                _touch(request, now, timeout)
            elif now - last_seen > timeout:
                logout(request)  # flushes the session; the view sees an anonymous user
            elif now - last_seen >= _resolution(timeout):
                _touch(request, now, timeout)
        response = self.get_response(request)
        if timeout > 0 and request.user.is_authenticated and LAST_SEEN_KEY not in request.session:
            _touch(request, time.time(), timeout)  # signed in by this request: the clock starts now
        return response


def _touch(request: HttpRequest, now: float, timeout_s: int) -> None:
    request.session[LAST_SEEN_KEY] = now
    request.session.set_expiry(timeout_s)
