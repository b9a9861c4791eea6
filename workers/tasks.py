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

import functools
import logging
import time
from collections.abc import Callable

from celery import Task, shared_task
from django.conf import settings

from apps.cases.services import cases_reconcile
from apps.documents import error_codes
from apps.documents.models import Document, DocumentStatus
from apps.documents.pipeline import (
    StepOutcome,
    document_decide,
    document_infer,
    document_prepare,
    document_validate,
    documents_prepare,
    documents_reconcile,
)
from apps.documents.services import document_fail
from apps.documents.steps import PipelineStep
from apps.extraction.readers import reader_for
from apps.observability import metrics
from media.triton_client import TritonUnavailableError
from workers.broker_epoch import broker_messages_lost
from workers.retry import RetryPolicy
from workers.steps import (
    DECIDE_TASK,
    INFER_BATCH_TASK,
    INFER_TASK,
    PREPARE_BATCH_TASK,
    PREPARE_TASK,
    VALIDATE_TASK,
    step_send,
    steps_send,
)

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
    if outcome.next_step == PipelineStep.DECIDE:
        return _run_step("decide", document_id, lambda: document_decide(document_id=document_id))
    if outcome.next_step:
        step_send(outcome.next_step, document_id)
    return "done" if outcome.ran else "skipped"


@shared_task(name=PREPARE_TASK)
def prepare(document_id: str) -> str:
    return _run_step("prepare", document_id, lambda: document_prepare(document_id=document_id))


@shared_task(name=PREPARE_BATCH_TASK)
def prepare_batch(document_ids: list[str]) -> str:
    """Prepare the documents of one upload batch together (apps.documents.pipeline.documents_prepare):
    one Celery message and one transaction for many small files.

    A document with an attempt behind it may be the one that crashed the worker last time (the
    message came back because the worker died): each such document gets a message of its own, so
    a poison file can only spend its own attempts, never its batch-mates'. Anything else that goes
    wrong in the batch is retried one document at a time, as separate steps."""
    retried = {
        str(pk)
        for pk in Document.objects.filter(pk__in=document_ids, attempt_count__gt=0).values_list(
            "pk", flat=True
        )
    }
    for document_id in retried:
        step_send(PipelineStep.PREPARE, document_id)
    together = [d for d in document_ids if d not in retried]
    started = time.perf_counter()
    try:
        outcomes = documents_prepare(document_ids=together)
    except Exception as exc:
        logger.warning("a prepare batch of %d failed (%s); one by one", len(together), type(exc).__name__)
        # a part stored before the failure is past prepare: its infer messages were not sent yet
        stored = Document.objects.filter(pk__in=together, status=DocumentStatus.PROCESSING)
        for stored_id in stored.values_list("pk", flat=True):
            step_send(PipelineStep.INFER, str(stored_id))
        for document_id in together:
            _run_step("prepare", document_id, functools.partial(document_prepare, document_id=document_id))
        return "one by one"
    elapsed = (time.perf_counter() - started) / max(1, len(together))
    for outcome in outcomes:
        if outcome.ran:
            metrics.stage_observe("prepare", elapsed)
    # the documents prepared together go on together: one inference message for them all
    steps_send(
        PipelineStep.INFER,
        [d for d, o in zip(together, outcomes, strict=True) if o.next_step == PipelineStep.INFER],
    )
    return f"{sum(o.ran for o in outcomes)} of {len(document_ids)} prepared"


@shared_task(name=INFER_BATCH_TASK)
def infer_batch(document_ids: list[str]) -> str:
    """The documents of a prepare batch. ``manage.py dispatch_inference`` takes these messages
    apart itself and keeps every document in flight; a Celery worker on the inference queue (the
    development setup, one blocking call at a time) splits one into an ``infer`` message per
    document instead, so the pool's processes share them as before."""
    for document_id in document_ids:
        step_send(PipelineStep.INFER, document_id)
    return f"{len(document_ids)} sent on"


def _infer_retry_policy() -> RetryPolicy:
    return RetryPolicy(
        max_retries=settings.DOCINTEL_TRITON_RETRIES,
        base_s=settings.DOCINTEL_TRITON_RETRY_BASE_S,
        max_s=settings.DOCINTEL_TRITON_RETRY_MAX_S,
    )


@shared_task(name=INFER_TASK, bind=True, max_retries=None)
def infer(self: Task, document_id: str) -> str:
    """One blocking engine call: fine for a development worker; at scale the inference queue
    belongs to ``manage.py dispatch_inference``, which keeps many calls in flight.

    An unavailable Triton (or a model engine behind it that is down) is retried on the dispatcher's
    policy — waits of at least half of ``base x 2ⁿ`` — so the document waits out an outage of
    minutes, even when the circuit breaker answers every call at once; past the last retry it is
    left in ``processing`` for the reconciler, never failed."""
    reader = reader_for(settings.DOCINTEL_ENGINE)
    try:
        with metrics.triton_call():
            return _run_step(
                "infer", document_id, lambda: document_infer(document_id=document_id, reader=reader)
            )
    except TritonUnavailableError as exc:
        metrics.TRITON_ERRORS.labels("unavailable").inc()
        policy = _infer_retry_policy()
        if self.request.retries >= policy.max_retries:
            logger.error("Triton unavailable after %d retries; document %s left to the reconciler",
                         policy.max_retries, document_id)  # fmt: skip
            return "left to the reconciler"
        raise self.retry(exc=exc, countdown=policy.delay(self.request.retries)) from None


@shared_task(name=VALIDATE_TASK)
def validate(document_id: str) -> str:
    return _run_step("validate", document_id, lambda: document_validate(document_id=document_id))


@shared_task(name=DECIDE_TASK)
def decide(document_id: str) -> str:
    return _run_step("decide", document_id, lambda: document_decide(document_id=document_id))


@shared_task(name="workers.tasks.reconcile")
def reconcile() -> int:
    documents = documents_reconcile(messages_lost=broker_messages_lost())
    return len(documents) + len(cases_reconcile())
