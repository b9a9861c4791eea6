"""Celery tasks: thin adapters that receive a document id and run one pipeline step.

Reliability comes from the settings (``acks_late``, ``reject_on_worker_lost``, prefetch 1) and
from the steps being idempotent on the document's state; the next step is sent only after the
previous one committed. Cheap steps that follow each other run in one task: infer stores, validates
and decides in one transaction (a Celery hop costs more CPU than deciding does); the validate and
decide tasks remain for a document found in EXTRACTED (the reconciler, older messages). Each step's time goes to
``docintel_stage_seconds``.

An outage — Triton or its model engine unavailable, the database gone, a master key this worker
does not hold yet — is waited out (apps.documents.unavailability): the task is sent again after a
capped, jittered backoff, the document's attempt given back (for the database, by the next run:
``given_back``), never failed for it. Anything unexpected fails the document with
``internal_error`` instead of looping.
"""

from __future__ import annotations

import functools
import logging
import time
from collections.abc import Callable, Sequence

from celery import Task, shared_task
from celery.exceptions import Retry
from django.conf import settings

from apps.cases.services import cases_reconcile
from apps.documents import error_codes
from apps.documents.advisory import AdvisoryKeyNotLoaded, document_advisory, documents_advisory_reconcile
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
from apps.documents.unavailability import (
    DATABASE_ERRORS,
    ENGINE_DEPENDENCIES,
    Dependency,
    StepUnavailable,
    attempts_give_back,
    database_needed,
)
from apps.extraction.readers import reader_for
from apps.observability import metrics
from media.triton_client import TritonUnavailableError
from workers.broker_epoch import broker_messages_lost
from workers.retry import RetryPolicy
from workers.steps import (
    ADVISORY_TASK,
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


class Waiting(Exception):
    """The step stopped for an outage (its attempt given back already) and is owed again after a
    backoff that goes on from ``waited_s``."""

    def __init__(self, dependency: Dependency, waited_s: float) -> None:
        super().__init__(f"waiting: {dependency} unavailable")
        self.dependency = dependency
        self.waited_s = waited_s


def _run_step(step_name: str, document_id: str, step: Callable[[], StepOutcome]) -> str:
    """Run ``step``; send the next one or run it here. Raises :class:`Waiting` or
    :class:`StepUnavailable` when an outage stopped it (the caller sends it again later), and
    ``TritonUnavailableError`` for a model failing on the document (retried within its attempts)."""
    started = time.perf_counter()
    try:
        outcome = step()
    except (TritonUnavailableError, StepUnavailable):
        raise
    except DATABASE_ERRORS as exc:  # the database went away in a step that counts no attempt
        raise StepUnavailable(Dependency.DATABASE) from exc
    except Document.DoesNotExist:
        logger.warning("%s: document %s does not exist", step_name, document_id)
        return "missing"
    except Exception as exc:
        # Log the type only: exception texts can quote document content.
        logger.exception("%s failed for document %s (%s)", step_name, document_id, type(exc).__name__)
        with database_needed():
            document = Document.objects.filter(pk=document_id).first()
            if document is not None:
                document_fail(
                    document=document,
                    code=error_codes.INTERNAL_ERROR,
                    message=f"{step_name} failed unexpectedly ({type(exc).__name__})",
                )
        return "failed"
    if outcome.waiting is not None:
        raise Waiting(outcome.waiting, outcome.waited_s)
    if outcome.ran:
        metrics.stage_observe(step_name, time.perf_counter() - started)
    if outcome.next_step == PipelineStep.DECIDE:
        return _run_step("decide", document_id, lambda: document_decide(document_id=document_id))
    if outcome.next_step:
        step_send(outcome.next_step, document_id)
    return "done" if outcome.ran else "skipped"


def _backoff() -> RetryPolicy:
    """The waits of a document whose step met an outage (the dispatcher's policy too)."""
    return RetryPolicy(
        max_retries=settings.DOCINTEL_TRITON_RETRIES,
        base_s=settings.DOCINTEL_TRITON_RETRY_BASE_S,
        max_s=settings.DOCINTEL_TRITON_RETRY_MAX_S,
    )


def _again(task: Task, stopped: Waiting | StepUnavailable, *, args: Sequence[object] | None = None) -> Retry:
    """The task sent again after the backoff, for an outage. A database that went away is retried
    on the task's own run of retries (the next run gives back the attempts counted before it
    went: ``given_back``); any other outage goes on from how long the document has waited."""
    policy = _backoff()
    given_back: list[str] = []
    if isinstance(stopped, StepUnavailable):
        countdown = policy.delay(task.request.retries)
        given_back = list(stopped.counted)
        dependency = stopped.dependency
    else:
        countdown = policy.delay_after(stopped.waited_s)
        dependency = stopped.dependency
    if dependency in ENGINE_DEPENDENCIES:
        metrics.TRITON_ERRORS.labels("unavailable").inc()
    logger.warning("%s unavailable; %s sent again in %.1f s", dependency, task.name, countdown)
    return task.retry(
        args=tuple(args) if args is not None else None,
        kwargs={"given_back": given_back},
        countdown=countdown,
        max_retries=None,
    )


def _task_step(
    task: Task,
    step_name: str,
    document_id: str,
    step: Callable[[], StepOutcome],
    *,
    expected: str = "",
    given_back: Sequence[str] = (),
) -> str:
    """:func:`_run_step` in a task that is sent again when an outage stops it. ``given_back``:
    the attempts the previous run counted before the database went, given back first (documents
    still in ``expected`` state)."""
    try:
        if given_back:
            with database_needed(counted=given_back):
                attempts_give_back(document_ids=given_back, expected=expected)
        return _run_step(step_name, document_id, step)
    except (Waiting, StepUnavailable) as stopped:
        raise _again(task, stopped) from None


@shared_task(name=PREPARE_TASK, bind=True, max_retries=None)
def prepare(self: Task, document_id: str, given_back: Sequence[str] = ()) -> str:
    return _task_step(
        self,
        "prepare",
        document_id,
        lambda: document_prepare(document_id=document_id),
        expected=DocumentStatus.QUEUED,
        given_back=given_back,
    )


@shared_task(name=PREPARE_BATCH_TASK, bind=True, max_retries=None)
def prepare_batch(self: Task, document_ids: list[str], given_back: Sequence[str] = ()) -> str:
    """Prepare the documents of one upload batch together (apps.documents.pipeline.documents_prepare):
    one Celery message and one transaction for many small files.

    A document with an attempt behind it may be the one that crashed the worker last time (the
    message came back because the worker died): each such document gets a message of its own, so
    a poison file can only spend its own attempts, never its batch-mates'. Anything else that goes
    wrong in the batch is retried one document at a time, as separate steps; a database that went
    away, for the batch as a whole, later; a document waiting for its key, on its own, later."""
    try:
        with database_needed(counted=given_back):
            attempts_give_back(document_ids=given_back, expected=DocumentStatus.QUEUED)
            retried = {
                str(pk)
                for pk in Document.objects.filter(pk__in=document_ids, attempt_count__gt=0).values_list(
                    "pk", flat=True
                )
            }
    except StepUnavailable as stopped:
        raise _again(self, stopped) from None
    for document_id in retried:
        step_send(PipelineStep.PREPARE, document_id)
    together = [d for d in document_ids if d not in retried]
    started = time.perf_counter()
    try:
        outcomes = documents_prepare(document_ids=together)
    except StepUnavailable as stopped:
        raise _again(self, stopped, args=[together]) from None
    except Exception as exc:
        logger.warning("a prepare batch of %d failed (%s); one by one", len(together), type(exc).__name__)
        return _prepare_one_by_one(self, together)
    elapsed = (time.perf_counter() - started) / max(1, len(together))
    for outcome in outcomes:
        if outcome.ran:
            metrics.stage_observe("prepare", elapsed)
    policy = _backoff()
    for document_id, outcome in zip(together, outcomes, strict=True):
        if outcome.waiting is not None:  # its key: on its own, later
            step_send(PipelineStep.PREPARE, document_id, countdown_s=policy.delay_after(outcome.waited_s))
    # the documents prepared together go on together: one inference message for them all
    steps_send(
        PipelineStep.INFER,
        [d for d, o in zip(together, outcomes, strict=True) if o.next_step == PipelineStep.INFER],
    )
    return f"{sum(o.ran for o in outcomes)} of {len(document_ids)} prepared"


def _prepare_one_by_one(task: Task, document_ids: list[str]) -> str:
    """After a batch failed: each document prepared on its own, so only the one at fault fails."""
    try:
        with database_needed():
            # a part stored before the failure is past prepare: its infer messages were not sent yet
            stored = Document.objects.filter(pk__in=document_ids, status=DocumentStatus.PROCESSING)
            for stored_id in stored.values_list("pk", flat=True):
                step_send(PipelineStep.INFER, str(stored_id))
        for document_id in document_ids:
            try:
                _run_step(
                    "prepare", document_id, functools.partial(document_prepare, document_id=document_id)
                )
            except Waiting as waiting:
                countdown = _backoff().delay_after(waiting.waited_s)
                step_send(PipelineStep.PREPARE, document_id, countdown_s=countdown)
    except StepUnavailable as stopped:
        raise _again(task, stopped, args=[document_ids]) from None
    return "one by one"


@shared_task(name=INFER_BATCH_TASK)
def infer_batch(document_ids: list[str]) -> str:
    """The documents of a prepare batch. ``manage.py dispatch_inference`` takes these messages
    apart itself and keeps every document in flight; a Celery worker on the inference queue (the
    development setup, one blocking call at a time) splits one into an ``infer`` message per
    document instead, so the pool's processes share them as before."""
    for document_id in document_ids:
        step_send(PipelineStep.INFER, document_id)
    return f"{len(document_ids)} sent on"


@shared_task(name=INFER_TASK, bind=True, max_retries=None)
def infer(self: Task, document_id: str, given_back: Sequence[str] = ()) -> str:
    """One blocking engine call: fine for a development worker; at scale the inference queue
    belongs to ``manage.py dispatch_inference``, which keeps many calls in flight.

    An outage of Triton or of the model engine behind it is waited out on the dispatcher's
    policy, for as long as ``DOCINTEL_UNAVAILABLE_WINDOW_S`` (the document's attempt given back
    each time). The model failing on this very document (an error that is no verdict) is retried
    too, ``DOCINTEL_TRITON_RETRIES`` times, each run spending an attempt; past the last it is left
    in ``processing`` for the reconciler, never failed here."""
    reader = reader_for(settings.DOCINTEL_ENGINE)
    try:
        with metrics.triton_call():
            return _task_step(
                self,
                "infer",
                document_id,
                lambda: document_infer(document_id=document_id, reader=reader),
                expected=DocumentStatus.PROCESSING,
                given_back=given_back,
            )
    except TritonUnavailableError as exc:
        metrics.TRITON_ERRORS.labels("unavailable").inc()
        policy = _backoff()
        if self.request.retries >= policy.max_retries:
            logger.error("the model failed document %s %d times; left to the reconciler",
                         document_id, policy.max_retries)  # fmt: skip
            return "left to the reconciler"
        raise self.retry(exc=exc, countdown=policy.delay(self.request.retries), kwargs={}) from None


@shared_task(name=VALIDATE_TASK, bind=True, max_retries=None)
def validate(self: Task, document_id: str, given_back: Sequence[str] = ()) -> str:
    return _task_step(self, "validate", document_id, lambda: document_validate(document_id=document_id))


@shared_task(name=DECIDE_TASK, bind=True, max_retries=None)
def decide(self: Task, document_id: str, given_back: Sequence[str] = ()) -> str:
    return _task_step(self, "decide", document_id, lambda: document_decide(document_id=document_id))


# what the advisory task waits out: a database gone away, a master key not loaded yet
_ADVISORY_RETRIED: tuple[type[Exception], ...] = (*DATABASE_ERRORS, AdvisoryKeyNotLoaded)


@shared_task(name=ADVISORY_TASK, bind=True, max_retries=None)
def advisory(self: Task, document_id: str) -> str:
    """The advisory authenticity signals of a decided document (apps.documents.advisory), on
    ``DOCINTEL_ADVISORY_QUEUE``: off the decision's path. A database gone away or a master key not
    loaded yet is retried after a backoff; anything unexpected is logged and leaves the document
    pending for the reconciler (the signals never fail a document)."""
    started = time.perf_counter()
    try:
        done = document_advisory(document_id=document_id)
    except _ADVISORY_RETRIED as exc:
        countdown = _backoff().delay(self.request.retries)
        logger.warning(
            "advisory for document %s: %s; again in %.1f s", document_id, type(exc).__name__, countdown
        )
        raise self.retry(countdown=countdown, max_retries=None) from None
    except Exception as exc:
        logger.exception("advisory failed for document %s (%s)", document_id, type(exc).__name__)
        return "failed"
    if done == "done":
        metrics.stage_observe("advisory", time.perf_counter() - started)
    return done


@shared_task(name="workers.tasks.reconcile")
def reconcile() -> int:
    documents = documents_reconcile(messages_lost=broker_messages_lost())
    return len(documents) + len(cases_reconcile()) + len(documents_advisory_reconcile())
