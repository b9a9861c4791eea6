"""Values read when /metrics is scraped, not recorded as they happen: queue depths (from the
broker) and documents by status, the straight-through rate and the webhook events not delivered
yet (from PostgreSQL, the source of truth). One web process answers for the whole system; every
web replica reports the same values."""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Iterator

from django.conf import settings
from django.db.models import Count, Min
from django.utils import timezone
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

logger = logging.getLogger(__name__)

STRAIGHT_THROUGH_WINDOW = dt.timedelta(hours=1)


def pipeline_queues() -> dict[str, str]:
    """Each stage's Celery queue (ARCHITECTURE §5: each scales on its own workers)."""
    return {
        "prepare": settings.CELERY_TASK_DEFAULT_QUEUE,
        "infer": settings.DOCINTEL_INFER_QUEUE,
        "webhooks": settings.DOCINTEL_WEBHOOK_QUEUE,
        "advisory": settings.DOCINTEL_ADVISORY_QUEUE,
    }


def queue_depths() -> dict[str, int]:
    """Messages waiting per stage queue (Redis: the list's length). Empty when the broker is down."""
    from config.celery import app

    depths: dict[str, int] = {}
    try:
        with app.connection_for_read() as connection:
            channel = connection.default_channel
            for stage, queue in pipeline_queues().items():
                depths[stage] = int(channel.client.llen(queue)) if hasattr(channel, "client") else 0
    except Exception:
        logger.warning("metrics: the broker did not answer for queue depths")
        return {}
    return depths


class PipelineCollector(Collector):
    def collect(self) -> Iterator[GaugeMetricFamily]:
        depth = GaugeMetricFamily(
            "docintel_queue_depth", "Messages waiting in each stage's queue.", labels=["stage", "queue"]
        )
        queues = pipeline_queues()
        for stage, count in queue_depths().items():
            depth.add_metric([stage, queues[stage]], count)
        yield depth

        from apps.documents.models import Document, DocumentStatus

        by_status = GaugeMetricFamily("docintel_documents", "Documents by status.", labels=["status"])
        counts = dict(Document.objects.values_list("status").annotate(n=Count("id")).order_by())
        for status in DocumentStatus.values:
            by_status.add_metric([status], counts.get(status, 0))
        yield by_status

        since = timezone.now() - STRAIGHT_THROUGH_WINDOW
        decided = dict(
            Document.objects.filter(decision__in=["auto_approved", "needs_review"], created_at__gte=since)
            .values_list("decision")
            .annotate(n=Count("id"))
            .order_by()
        )
        total = sum(decided.values())
        rate = GaugeMetricFamily(
            "docintel_straight_through_ratio",
            "Share of the documents uploaded in the last hour and decided that were auto-approved.",
        )
        rate.add_metric([], decided.get("auto_approved", 0) / total if total else 0.0)
        yield rate

        # documents waiting out an outage (apps.documents.unavailability): how many, and since when
        waiting = GaugeMetricFamily(
            "docintel_documents_waiting_on_outage",
            "Documents waiting for something unavailable (Triton, the model engine, a master key).",
            labels=["on"],
        )
        oldest_wait = GaugeMetricFamily(
            "docintel_oldest_outage_wait_seconds",
            "How long the longest-waiting document has waited on an outage; 0 when none waits.",
            labels=["on"],
        )
        now = timezone.now()
        for reason, count, since in (
            Document.objects.filter(unavailable_since__isnull=False)
            .values_list("unavailable_reason")
            .annotate(n=Count("id"), since=Min("unavailable_since"))
            .order_by()
        ):
            waiting.add_metric([reason], count)
            oldest_wait.add_metric([reason], max(0.0, (now - since).total_seconds()))
        yield waiting
        yield oldest_wait

        from apps.webhooks.metrics import undelivered_metrics

        yield from undelivered_metrics()
