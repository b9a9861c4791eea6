"""The Celery app. Settings come from Django's (``CELERY_*``); tasks live in ``workers.tasks`` (the pipeline),
``apps.webhooks.tasks``, ``apps.api.tasks`` and ``apps.documents.tasks`` (retention)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")

app = Celery("docintel")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks(["workers", "apps.webhooks", "apps.api", "apps.documents"])
