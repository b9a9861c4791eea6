"""Celery tasks: thin adapters that receive a document id and run one pipeline step.

Reliability comes from the settings (``acks_late``, ``reject_on_worker_lost``, prefetch 1) and
from the steps being idempotent on the document's state; the next step is sent only after the
previous one committed. Cheap steps that follow each other run in one task: infer stores, validates
and decides in one transaction (a Celery hop costs more CPU than deciding does); the validate and
decide tasks remain for a document found in EXTRACTED (the reconciler, older messages). Each step's time goes to
``docintel_stage_seconds``. An unreachable Triton is retried with backoff; anything unexpected
fails the document with ``internal_error`` instead of looping.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from celery import shared_task
from django.conf import settings

from apps.documents import error_codes
from apps.documents.models import Document
from apps.documents.pipeline import (
    DECIDE,
    StepOutcome,
    document_decide,
    document_infer,
    document_prepare,
    document_validate,
    documents_reconcile,
)
from apps.documents.services import document_fail, task_send
from apps.extraction.readers import reader_for
from apps.observability import metrics
from workers.broker_epoch import broker_messages_lost
from workers.triton_client import TritonUnavailableError

logger = logging.getLogger(__name__)


def _run_step(step_name: str, document_id: str, step: Callable[[], StepOutcome]) -> str:
    started = time.perf_counter()
    try:
        outcome = step()
    except TritonUnavailableError:
        raise
    except Document.DoesNotExist:
        logger.warning("%s: document %s does not exist", step_name, document_id)
        return "missing"
    except Exception as exc:
        # Log the type only: exception texts can quote document content.
        logger.exception("%s failed for document %s (%s)", step_name, document_id, type(exc).__name__)
        document = Document.objects.filter(pk=document_id).first()
        if document is not None:
            document_fail(
                document=document,
                code=error_codes.INTERNAL_ERROR,
                message=f"{step_name} failed unexpectedly ({type(exc).__name__})",
            )
        return "failed"
    if outcome.ran:
        metrics.stage_observe(step_name, time.perf_counter() - started)
    if outcome.next_task == DECIDE:
        return _run_step("decide", document_id, lambda: document_decide(document_id=document_id))
    if outcome.next_task:
        task_send(outcome.next_task, document_id)
    return "done" if outcome.ran else "skipped"


@shared_task(name="workers.tasks.prepare")
def prepare(document_id: str) -> str:
    return _run_step("prepare", document_id, lambda: document_prepare(document_id=document_id))


@shared_task(
    name="workers.tasks.infer",
    autoretry_for=(TritonUnavailableError,),
    retry_backoff=2,
    retry_backoff_max=60,
    retry_jitter=True,
    max_retries=8,
)
def infer(document_id: str) -> str:
    """One blocking engine call: fine for a development worker; at scale the inference queue
    belongs to ``manage.py dispatch_inference``, which keeps many calls in flight."""
    reader = reader_for(settings.DOCINTEL_ENGINE)
    try:
        with metrics.triton_call():
            return _run_step(
                "infer", document_id, lambda: document_infer(document_id=document_id, reader=reader)
            )
    except TritonUnavailableError:
        metrics.TRITON_ERRORS.labels("unavailable").inc()
        raise


@shared_task(name="workers.tasks.validate")
def validate(document_id: str) -> str:
    return _run_step("validate", document_id, lambda: document_validate(document_id=document_id))


@shared_task(name="workers.tasks.decide")
def decide(document_id: str) -> str:
    return _run_step("decide", document_id, lambda: document_decide(document_id=document_id))


@shared_task(name="workers.tasks.reconcile")
def reconcile() -> int:
    return len(documents_reconcile(messages_lost=broker_messages_lost()))
