"""Webhook delivery on /metrics, read from PostgreSQL when scraped (``apps.observability.collectors``):
how many events are undelivered and how old the oldest is, still retrying or dead-lettered.

Alert on ``docintel_webhook_oldest_undelivered_seconds{state="retrying"}`` growing past a few
backoff caps (a receiver is down), and on any ``state="dead_letter"`` (a tenant has events to
redrive)."""

from __future__ import annotations

from collections.abc import Iterator

from prometheus_client.core import GaugeMetricFamily

from apps.webhooks.selectors import webhook_undelivered


def undelivered_metrics() -> Iterator[GaugeMetricFamily]:
    undelivered = webhook_undelivered()
    oldest = GaugeMetricFamily(
        "docintel_webhook_oldest_undelivered_seconds",
        "Age of the oldest webhook event not delivered yet: still retried in its window (retrying), "
        "or past it and waiting for its tenant's redrive (dead_letter); 0 when there is none.",
        labels=["state"],
    )
    count = GaugeMetricFamily(
        "docintel_webhook_undelivered", "Webhook events not delivered yet, by state.", labels=["state"]
    )
    for state, figures in undelivered.items():
        oldest.add_metric([state], figures.oldest_age_s)
        count.add_metric([state], figures.count)
    yield oldest
    yield count
