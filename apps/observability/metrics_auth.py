"""Who may read /metrics: with ``DOCINTEL_METRICS_TOKEN`` set (production requires it), only a
scraper sending ``Authorization: Bearer <token>``. One check for the web server's /metrics and the
workers' and dispatcher's exporter, so the scraper sends the same header to every DocIntel pod."""

from __future__ import annotations

import hmac

from django.conf import settings


def metrics_authorized(authorization: str | None) -> bool:
    """Whether a request with this ``Authorization`` header may read /metrics."""
    token = settings.DOCINTEL_METRICS_TOKEN
    if not token:
        return True  # development and tests: no token configured (production refuses to start so)
    given = (authorization or "").removeprefix("Bearer ").strip()
    return hmac.compare_digest(given.encode(), token.encode())
