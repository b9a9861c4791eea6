"""/metrics (Prometheus) for the scraper, and nothing for people: no login, no templates."""

from __future__ import annotations

import hmac

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_GET
from prometheus_client import CONTENT_TYPE_LATEST

from apps.observability.collectors import PipelineCollector
from apps.observability.exposition import metrics_text


@require_GET
def metrics(request: HttpRequest) -> HttpResponse:
    """Open on a private network; with ``DOCINTEL_METRICS_TOKEN`` set, only ``Authorization:
    Bearer <token>`` gets an answer (404 otherwise, as for a page that does not exist)."""
    token = settings.DOCINTEL_METRICS_TOKEN
    if token:
        given = request.headers.get("Authorization", "").removeprefix("Bearer ").strip()
        if not hmac.compare_digest(given.encode(), token.encode()):
            return HttpResponse(status=404)
    return HttpResponse(metrics_text(PipelineCollector()), content_type=CONTENT_TYPE_LATEST)
