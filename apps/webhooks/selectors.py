"""Reads of webhooks: a tenant's dead letters, and how far behind delivery is (for /metrics)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db.models import Count, Min, QuerySet
from django.utils import timezone

from apps.tenants.models import Tenant
from apps.webhooks.models import DeliveryStatus, WebhookDelivery

# What the undelivered are doing: still retried in their window, or dead letters waiting for a redrive.
UNDELIVERED_STATES: dict[str, tuple[str, ...]] = {
    "retrying": (DeliveryStatus.PENDING, DeliveryStatus.SENDING),
    "dead_letter": (DeliveryStatus.FAILED,),
}


def webhook_dead_letters_of(*, tenant: Tenant) -> QuerySet[WebhookDelivery]:
    """The tenant's dead letters, oldest event first (the body is not loaded: it holds personal data)."""
    return (
        WebhookDelivery.objects.filter(tenant=tenant, status=DeliveryStatus.FAILED)
        .defer("body")
        .order_by("created_at")
    )


@dataclass(frozen=True)
class Undelivered:
    count: int
    oldest_age_s: float  # the oldest one's event age; 0 when there are none


def webhook_undelivered(*, now: dt.datetime | None = None) -> dict[str, Undelivered]:
    """Per state of :data:`UNDELIVERED_STATES`, how many events are undelivered and how old the
    oldest is (from its event, whatever the redrives since)."""
    now = now or timezone.now()
    found: dict[str, Undelivered] = {}
    for state, statuses in UNDELIVERED_STATES.items():
        row = WebhookDelivery.objects.filter(status__in=statuses).aggregate(
            n=Count("id"), oldest=Min("created_at")
        )
        oldest = row["oldest"]
        age = max(0.0, (now - oldest).total_seconds()) if oldest is not None else 0.0
        found[state] = Undelivered(count=row["n"], oldest_age_s=age)
    return found
