"""/metrics (Prometheus) for the scraper, and nothing for people: no login, no templates."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_GET
from prometheus_client import CONTENT_TYPE_LATEST

from apps.observability.collectors import PipelineCollector
from apps.observability.exposition import metrics_text
from apps.observability.metrics_auth import metrics_authorized


@require_GET
def metrics(request: HttpRequest) -> HttpResponse:
    """With ``DOCINTEL_METRICS_TOKEN`` set (production requires it), only ``Authorization: Bearer
    <token>`` gets an answer (404 otherwise, as for a page that does not exist)."""
    if not metrics_authorized(request.headers.get("Authorization")):
        return HttpResponse(status=404)
    return HttpResponse(metrics_text(PipelineCollector()), content_type=CONTENT_TYPE_LATEST)
