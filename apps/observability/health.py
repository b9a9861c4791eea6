"""Liveness and readiness, for Kubernetes probes and load balancers (deploy/).

* live: the process answers (no dependency checked: a database outage must not make Kubernetes
  restart every web pod, which would not help);
* ready: PostgreSQL answers a query and the broker a ping, so traffic goes only to a process that
  can take an upload.
"""

from __future__ import annotations

import logging

logger = logging.getLogger(__name__)


def readiness_problems() -> list[str]:
    """What keeps this process from serving: [] when ready."""
    problems: list[str] = []
    from django.db import connection

    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except Exception:
        problems.append("database")
    from config.celery import app

    try:
        with app.connection_for_write() as broker:
            broker.ensure_connection(max_retries=1, timeout=2)
    except Exception:
        problems.append("broker")
    if problems:
        logger.warning("not ready: %s", ", ".join(problems))
    return problems
