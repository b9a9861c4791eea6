"""Celery tasks of webhooks: thin adapters over ``apps.webhooks.services``.

``deliver`` runs on its own queue (``DOCINTEL_WEBHOOK_QUEUE``), so a slow receiver never holds up
documents; retries are scheduled by the service (backoff with jitter), not by Celery, because the
schedule lives in the delivery's row where the sweep can find it.
"""

from __future__ import annotations

from celery import shared_task

from apps.webhooks.services import webhook_deliver, webhook_deliveries_sweep


@shared_task(name="apps.webhooks.tasks.deliver")
def deliver(delivery_id: str) -> str:
    return webhook_deliver(delivery_id=delivery_id)


@shared_task(name="apps.webhooks.tasks.sweep")
def sweep() -> int:
    return len(webhook_deliveries_sweep())
