"""Worker-side bookkeeping for every task: bind the message's request id and document id to the
log context, and record how long the message waited in its queue (``docintel_queue_wait_seconds``).

Signals only for bookkeeping, never business logic (STYLE.md).
"""

from __future__ import annotations

from typing import Any

from celery.signals import task_postrun, task_prerun, worker_ready
from django.db import close_old_connections

from apps.observability import metrics
from apps.observability.context import (
    REQUEST_ID_HEADER,
    SENT_AT_HEADER,
    document_id_var,
    request_id_var,
)

# Pipeline tasks (ids only in their arguments) and the stage each one's queue wait counts for.
PIPELINE_STAGES = {
    "workers.tasks.prepare": "prepare",
    "workers.tasks.infer": "infer",
    "workers.tasks.validate": "validate",
    "workers.tasks.decide": "decide",
    "workers.tasks.advisory": "advisory",
}


def _header(task: Any, name: str) -> Any:
    request = task.request
    value = getattr(request, name, None)
    if value is None and isinstance(getattr(request, "headers", None), dict):
        value = request.headers.get(name)
    return value


@task_prerun.connect
def _task_started(task: Any = None, args: Any = None, **_: Any) -> None:
    if task is None:
        return
    # Django's request cycle does this; a worker reusing its connections must too
    close_old_connections()
    request_id_var.set(str(_header(task, REQUEST_ID_HEADER) or ""))
    stage = PIPELINE_STAGES.get(task.name)
    document_id_var.set(str(args[0]) if stage and args else "")
    if stage:
        sent_at = _header(task, SENT_AT_HEADER)
        metrics.queue_wait_observe(stage, float(sent_at) if sent_at is not None else None)


@task_postrun.connect
def _task_finished(**_: Any) -> None:
    request_id_var.set("")
    document_id_var.set("")


@worker_ready.connect
def _serve_metrics(**_: Any) -> None:
    """A worker with ``DOCINTEL_METRICS_PORT`` serves /metrics and its probes (deploy/)."""
    from django.conf import settings

    if settings.DOCINTEL_METRICS_PORT:
        from apps.observability.exporter import start_exporter
        from apps.observability.health import readiness_problems

        start_exporter(settings.DOCINTEL_METRICS_PORT, live=lambda: True, ready=readiness_problems)
