"""Waiting out an outage: what a document does when something it depends on is unavailable.

Four things a step needs can be unavailable without any fault of the document: Triton, the model
engine behind it (vLLM for the Gemma 4 variant), the database, and the master key the document's
data key is wrapped under (a worker that has not loaded a newly rotated key yet). None of them
may end a document, and none may spend its attempts (``DOCINTEL_MAX_ATTEMPTS`` bounds the
document's *own* faults: a file that crashes the model or the worker every time). So:

* the step stops, and the attempt it counted when it began is given back;
* the document notes since when it waits and on what (``unavailable_since``,
  ``unavailable_reason``): the API and the document page show it processing, with the note;
* the worker sends the step again after a capped exponential backoff with jitter
  (``workers.retry.RetryPolicy``), for as long as ``DOCINTEL_UNAVAILABLE_WINDOW_S`` from the
  moment it began waiting (24 h); past that the document fails with ``unavailable_timeout``;
* its next state change clears the note (``apps.documents.state``).

The database is the exception to the note: while it is away nothing can be written, so the
worker retries the step (giving the counted attempt back once it answers again) and no window
applies: nothing fails a document while its database is down.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import logging
from collections.abc import Iterable, Iterator, Sequence
from enum import StrEnum

from django.conf import settings
from django.db import InterfaceError, OperationalError, transaction
from django.db.models import F, Value
from django.db.models.functions import Coalesce, Greatest
from django.utils import timezone

from apps.documents import error_codes
from apps.documents.models import Document
from apps.documents.services import document_fail
from media.triton_client import TritonUnavailableError

logger = logging.getLogger(__name__)

# The errors of a database that went away or refused the statement for reasons of its own (a
# restart, a dropped connection, a deadlock, a failover): the same statement can succeed later.
DATABASE_ERRORS: tuple[type[Exception], ...] = (OperationalError, InterfaceError)


class Dependency(StrEnum):
    """What a document can wait on (``Document.unavailable_reason``)."""

    TRITON = "triton"
    MODEL_ENGINE = "model_engine"  # the OpenAI-compatible engine behind the Gemma 4 doc_pipeline
    DATABASE = "database"
    KEY_NOT_LOADED = "key_not_loaded"  # its data key is wrapped under a master key this process lacks


# what the documents owing inference wait on together while it lasts (the reconciler leaves them be)
ENGINE_DEPENDENCIES = frozenset({Dependency.TRITON, Dependency.MODEL_ENGINE})


class StepUnavailable(Exception):
    """A step stopped because ``dependency`` is unavailable. ``counted``: the documents whose
    attempt the step had counted (committed) before it stopped, to give back once the database
    answers (:func:`attempts_give_back`)."""

    def __init__(self, dependency: Dependency, counted: Iterable[str] = ()) -> None:
        super().__init__(f"{dependency} unavailable")
        self.dependency = dependency
        self.counted = tuple(str(document_id) for document_id in counted)


@contextlib.contextmanager
def database_needed(counted: Iterable[str] = ()) -> Iterator[None]:
    """Turn the database going away inside the block into :class:`StepUnavailable`, naming the
    documents whose attempt was counted before it (so they get it back)."""
    try:
        yield
    except DATABASE_ERRORS as exc:
        raise StepUnavailable(Dependency.DATABASE, counted) from exc


def dependency_of(error: TritonUnavailableError) -> Dependency:
    """Which dependency an unavailable inference call waits on (a call the circuit breaker kept
    back waits on whatever opened it)."""
    return Dependency.MODEL_ENGINE if error.cause == "model_unavailable" else Dependency.TRITON


def waited_s(document: Document, now: dt.datetime | None = None) -> float:
    """Seconds the document has been waiting on an outage (0 when it is not)."""
    if document.unavailable_since is None:
        return 0.0
    return max(0.0, ((now or timezone.now()) - document.unavailable_since).total_seconds())


def attempts_give_back(*, document_ids: Sequence[str], expected: str) -> int:
    """The attempt a step counted on each document still in ``expected`` state, given back: the
    step stopped for an outage, not for anything the document did. Returns the rows changed."""
    if not document_ids:
        return 0
    return Document.objects.filter(pk__in=list(document_ids), status=expected, attempt_count__gt=0).update(
        attempt_count=F("attempt_count") - 1
    )


def documents_wait(
    *,
    document_ids: Sequence[str],
    dependency: Dependency,
    expected: str,
    counted: bool = True,
    now: dt.datetime | None = None,
) -> dict[str, float]:
    """The documents (still in ``expected`` state) wait on ``dependency``: the attempt the step
    counted is given back (``counted``), the wait is noted, and each one waiting longer than
    ``DOCINTEL_UNAVAILABLE_WINDOW_S`` fails with ``unavailable_timeout``.

    Returns the documents still waiting, with the seconds each has waited so far (the worker's
    backoff goes on from there instead of starting over). Two statements for them all, more only
    for the ones that time out."""
    now = now or timezone.now()
    window = dt.timedelta(seconds=settings.DOCINTEL_UNAVAILABLE_WINDOW_S)
    with transaction.atomic():
        waiting = Document.objects.filter(pk__in=list(document_ids), status=expected)
        for document in waiting.filter(unavailable_since__lt=now - window):
            logger.error(
                "document %s waited on %s since %s: failed",
                document.pk,
                dependency,
                document.unavailable_since,
            )
            document_fail(
                document=document,
                code=error_codes.UNAVAILABLE_TIMEOUT,
                message=(
                    f"{dependency.replace('_', ' ')} unavailable for longer than "
                    f"{settings.DOCINTEL_UNAVAILABLE_WINDOW_S} s (DOCINTEL_UNAVAILABLE_WINDOW_S)"
                ),
            )
        changes: dict[str, object] = {
            "unavailable_since": Coalesce(F("unavailable_since"), Value(now)),
            "unavailable_reason": dependency.value,
            "updated_at": now,
        }
        if counted:
            changes["attempt_count"] = Greatest(F("attempt_count") - 1, Value(0))
        waiting.update(**changes)
        since = dict(waiting.values_list("pk", "unavailable_since"))
    return {str(pk): max(0.0, (now - started).total_seconds()) for pk, started in since.items() if started}


def document_wait(*, document: Document, dependency: Dependency, expected: str) -> float | None:
    """:func:`documents_wait` for one document whose attempt was counted: the seconds it has
    waited, or None when it has now failed (it waited too long) or moved on."""
    return documents_wait(document_ids=[str(document.pk)], dependency=dependency, expected=expected).get(
        str(document.pk)
    )
