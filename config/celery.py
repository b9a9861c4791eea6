"""The Celery app. Settings come from Django's (``CELERY_*``); tasks live in ``workers.tasks`` (the pipeline),
``apps.webhooks.tasks``, ``apps.api.tasks`` and ``apps.documents.tasks`` (retention)."""

import logging
import os
from typing import Any

from celery import Celery
from celery.signals import beat_init

# Fail closed: production unless told otherwise (development: DJANGO_SETTINGS_MODULE=config.settings.dev).
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.prod")

logger = logging.getLogger(__name__)

app = Celery("docintel")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks(["workers", "apps.webhooks", "apps.api", "apps.documents"])


@beat_init.connect
def reconcile_when_beat_starts(sender: Any = None, **kwargs: Any) -> None:
    """Reconcile once at once, not a period later: it plants the broker epoch that lets a later
    reconciler notice an emptied broker (workers.broker_epoch), and it catches what a restart of
    the whole stack left behind."""
    try:
        app.send_task("workers.tasks.reconcile")
    except Exception:
        logger.warning("first reconcile not sent (broker unreachable); the schedule sends the next")
