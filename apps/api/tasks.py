"""Celery tasks of the API: housekeeping only."""

from __future__ import annotations

from celery import shared_task

from apps.api.idempotency import idempotency_keys_purge


@shared_task(name="apps.api.tasks.purge_idempotency_keys")
def purge_idempotency_keys() -> int:
    return idempotency_keys_purge()
