"""Reads on batches, scoped to a tenant: counts by status, the documents, and their results."""

from __future__ import annotations

import uuid
from collections import Counter

from django.db.models import QuerySet

from apps.batches.models import Batch, BatchDocument
from apps.tenants.models import Tenant


def batches_of_tenant(*, tenant: Tenant) -> QuerySet[Batch]:
    return Batch.objects.filter(tenant=tenant)


def batch_get(*, tenant: Tenant, batch_id: str) -> Batch | None:
    """None for a malformed id, a missing batch and another tenant's: callers answer 404 to all."""
    try:
        uuid.UUID(str(batch_id))
    except ValueError:
        return None
    return batches_of_tenant(tenant=tenant).filter(pk=batch_id).first()


def batch_items(*, batch: Batch) -> QuerySet[BatchDocument]:
    return batch.items.select_related("document").order_by("position")


def batch_status_counts(*, batch: Batch) -> dict[str, int]:
    """How many of the batch's documents are in each status (a document listed twice counts once)."""
    rows = batch.items.values_list("document_id", "document__status").distinct()
    return dict(Counter(status for _, status in rows))
