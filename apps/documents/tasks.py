"""Celery tasks of documents outside the pipeline: retention (beat, ``purge-expired-documents``)."""

from __future__ import annotations

from celery import shared_task

from apps.documents.retention import documents_purge_expired


@shared_task(name="apps.documents.tasks.purge_expired")
def purge_expired() -> int:
    return len(documents_purge_expired())
