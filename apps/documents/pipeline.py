"""What the worker does with a document, one idempotent step at a time.

    prepare   QUEUED → PROCESSING    split the original into page images, stored encrypted, and
              → RESUBMISSION_        measure each photographed page's capture quality: one too
                REQUESTED            poor to read goes back to the applicant at once, never to
                                     the model
    infer     PROCESSING → EXTRACTED one engine call for all pages; the raw result is kept, and
              → AUTO_APPROVED |      in the same transaction the result is validated (business
                NEEDS_REVIEW         checks, calibrated confidences) and decided, into a review
                                     queue (apps.review) when needed: two audited transitions
    validate  (EXTRACTED)            the same checks, and decide the same decision, for a document
    decide    EXTRACTED → ...        found in EXTRACTED (stored by an older worker, or reconciled)
    advisory  (decided)              after the decision, on a queue of its own: the advisory
                                     authenticity signals of a photographed document whose type
                                     the tenant's policy names (apps.documents.advisory); they
                                     never change the decision

Each step re-reads the document, does nothing unless the document is in the state the step
expects, and commits its writes together with the state change under a row lock, so a message
delivered twice, or a worker killed half-way, can only repeat work, never corrupt or lose it.
The reconciler re-enqueues whatever sits too long in a state that still owes work.

A step that finds something it needs unavailable (Triton, the model engine, the database, the
master key) neither fails the document nor spends its attempt: it waits the outage out
(apps.documents.unavailability), and the worker sends the step again later.
"""

from __future__ import annotations

import datetime as dt
import functools
import json
import logging
import time
import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from django.conf import settings
from django.db import connection, models, transaction
from django.utils import timezone

from apps.audit.services import audit_batch
from apps.doctypes.models import AuthenticityPolicy, DocumentTypeVersion
from apps.doctypes.selectors import (
    authenticity_policy_get,
    authenticity_policy_of,
    authenticity_types_of,
    document_custom_schema,
    document_type_candidates,
    version_candidate,
    version_schema,
)
from apps.doctypes.services import document_type_pin, document_types_pin_classified
from apps.documents import blobs, error_codes
from apps.documents.crypto import DecryptionError, KeyNotLoadedError
from apps.documents.models import AdvisoryState, Document, DocumentStatus, Extraction, Field, Page
from apps.documents.services import document_fail
from apps.documents.state import IN_FLIGHT, document_lock, document_transition
from apps.documents.steps import PipelineStep, steps_request
from apps.documents.unavailability import (
    ENGINE_DEPENDENCIES,
    Dependency,
    database_needed,
    dependency_of,
    document_wait,
)
from apps.extraction import calibration as calibration_maps
from apps.extraction.decision import CalibratedField, Decision, decide
from apps.extraction.readers import DocumentReader
from apps.extraction.services import Assessment, result_assess
from apps.observability import metrics
from apps.review.services.routing import RoutingBatch, review_task_route
from apps.webhooks.models import DocumentCallback, WebhookEvent
from apps.webhooks.services import document_callbacks_of, webhook_document_event
from engines.custom_types import CustomSchema, candidates_to_json, parse_schema
from engines.types import EngineError, EngineResult, FieldResult
from media.capture_quality import CaptureAssessment, CaptureThresholds, assess_images, captured_pages
from media.pdf_render import PreparedPage
from media.preprocessing import PageLimits, prepare_pages
from media.triton_client import TritonUnavailableError

logger = logging.getLogger(__name__)
S = DocumentStatus


@dataclass(frozen=True)
class StepOutcome:
    """What a step did: whether it ran, and the step the document owes next (its caller, in
    ``workers``, decides how that one runs: a message, or at once in the same task).

    ``waiting``: the step could not run for an outage of that dependency and is owed again after
    a backoff (the document has waited ``waited_s`` so far; its attempt was given back)."""

    ran: bool
    next_step: PipelineStep | None = None
    waiting: Dependency | None = None
    waited_s: float = 0.0


SKIPPED = StepOutcome(ran=False)


def _elapsed_ms(started: float) -> int:
    return int((time.perf_counter() - started) * 1000)


def _start_attempts_sql(count: int) -> str:
    quote = connection.ops.quote_name
    columns = ", ".join(quote(str(f.column)) for f in Document._meta.concrete_fields)
    return (
        f"UPDATE {quote(Document._meta.db_table)} SET attempt_count = attempt_count + 1, updated_at = %s "
        f"WHERE status = %s AND attempt_count < %s AND id IN ({', '.join(['%s'] * count)}) "
        f"RETURNING {columns}"
    )


def _start_attempts(document_ids: Sequence[str], expected: str) -> dict[str, Document]:
    """Count an attempt on each document still in ``expected`` state, by id; a document that moved
    on is left out, and one out of attempts is failed, not counted (its count stays at the
    limit), and left out.

    One statement for them all, ``UPDATE … RETURNING`` the rows: the count and the read cannot
    come apart."""
    keys: list[uuid.UUID] = []
    for document_id in document_ids:
        try:
            keys.append(uuid.UUID(str(document_id)))
        except ValueError:
            continue  # no document has that id
    if not keys:
        return {}
    # the values as the backend stores them (SQLite keeps UUIDs as 32 hex digits, PostgreSQL as uuid)
    id_field = Document._meta.get_field("id")
    params = [
        Document._meta.get_field("updated_at").get_db_prep_value(timezone.now(), connection),
        expected,
        settings.DOCINTEL_MAX_ATTEMPTS,
        *(id_field.get_db_prep_value(key, connection) for key in keys),
    ]
    started = {
        str(document.pk): document
        for document in Document.objects.raw(_start_attempts_sql(len(keys)), params)
    }
    refused = [key for key in keys if str(key) not in started]
    if refused:
        out_of_attempts = Document.objects.filter(
            pk__in=refused, status=expected, attempt_count__gte=settings.DOCINTEL_MAX_ATTEMPTS
        )
        for document in out_of_attempts:
            document_fail(
                document=document,
                code=error_codes.MAX_ATTEMPTS_EXCEEDED,
                message=f"gave up after {settings.DOCINTEL_MAX_ATTEMPTS} attempts",
            )
    return started


def _waiting(document: Document, dependency: Dependency, expected: str) -> StepOutcome:
    """The document waits on ``dependency`` (its attempt given back), or has failed for waiting
    too long: the step's outcome either way."""
    waited = document_wait(document=document, dependency=dependency, expected=expected)
    if waited is None:
        return StepOutcome(ran=True)  # failed (unavailable_timeout), or moved on meanwhile
    logger.warning("document %s waits: %s unavailable (for %.0f s)", document.pk, dependency, waited)
    return StepOutcome(ran=False, waiting=dependency, waited_s=waited)


def _start_attempt(document_id: str, expected: str) -> Document | None:
    """Count an attempt on a document in ``expected`` state; None if it moved on or ran out of attempts."""
    return next(iter(_start_attempts([document_id], expected).values()), None)


def page_limits() -> PageLimits:
    """The operating limits (ARCHITECTURE §4) the prepare step holds every file to."""
    return PageLimits(
        max_pages=settings.DOCINTEL_MAX_PAGES,
        max_image_pixels=settings.DOCINTEL_MAX_IMAGE_PIXELS,
        max_side=settings.DOCINTEL_PAGE_MAX_SIDE,
        max_pdf_stream_bytes=settings.DOCINTEL_PDF_MAX_STREAM_BYTES,
        max_pdf_decoded_bytes=settings.DOCINTEL_PDF_MAX_DECODED_BYTES,
        pdf_sandbox_memory_bytes=settings.DOCINTEL_PDF_SANDBOX_MEMORY_MB * 1024 * 1024,
        pdf_sandbox_cpu_seconds=settings.DOCINTEL_PDF_SANDBOX_CPU_S,
    )


def document_prepare(*, document_id: str) -> StepOutcome:
    """QUEUED → PROCESSING: the original split into page images, stored encrypted."""
    return documents_prepare(document_ids=[document_id])[0]


# Prepared pages held in memory before a batch's transaction stores them (one large document
# is stored alone, however large: it is read whole already).
PREPARE_BATCH_BYTES = 32 * 1024 * 1024


def documents_prepare(*, document_ids: Sequence[str]) -> list[StepOutcome]:
    """:func:`document_prepare` for many documents, in their order: one statement counts every
    attempt, each file is split on its own, and the pages of up to ``PREPARE_BATCH_BYTES`` of them
    are stored in one transaction (one lock query, one INSERT of pages, one UPDATE a document, one
    audit append), so a batch of small files costs little more in the database than one."""
    outcomes: list[StepOutcome] = [SKIPPED] * len(document_ids)
    with database_needed():
        documents = _start_attempts(document_ids, S.QUEUED)
    ready: list[_Prepared] = []
    held = 0
    with database_needed(counted=documents):
        for index, document_id in enumerate(document_ids):
            document = documents.get(str(document_id))
            if document is None:
                continue
            started = time.perf_counter()
            split = _split(document)
            if isinstance(split, StepOutcome):
                outcomes[index] = split  # failed with its code, or waiting for its key
                continue
            _, pages = split
            capture = _capture_assess(document, pages)
            ready.append((index, document, pages, _elapsed_ms(started), capture))
            held += sum(len(page.image) + len(page.text_layer) for page in pages)
            if held >= PREPARE_BATCH_BYTES:
                _pages_store(ready, outcomes)
                ready, held = [], 0
        if ready:
            _pages_store(ready, outcomes)
    return outcomes


# a document on its way to storage: its index in the batch, the row, its pages, the prepare
# step's milliseconds, and its pages' capture assessment (None: nothing was gated)
_Prepared = tuple[int, Document, list[PreparedPage], int, "PageChecks | None"]


@dataclass(frozen=True)
class PageChecks:
    """What the prepare step found in the page images: the capture assessment (whose failure
    sends the document back) and the checks stored with the document."""

    capture: CaptureAssessment | None
    checks: list[dict[str, Any]]


def _capture_assess(document: Document, pages: list[PreparedPage]) -> PageChecks | None:
    """The capture quality of the document's photographed or scanned pages; None for a digital
    PDF (a page with a text layer, or no page that is a scan: there was no capture, so none of its
    pages is judged, a blank one included) or when the gate is turned off. Pure CPU work on the
    page images, before any lock or model call. (The advisory authenticity signals are no part
    of it: they follow the decision, on their own queue, apps.documents.advisory.)"""
    if not settings.DOCINTEL_CAPTURE_GATE:
        return None
    # the first DOCINTEL_CAPTURE_MAX_PAGES of them: what the measures cost stays bounded
    captured = captured_pages(pages, document.mime_type == "application/pdf")[
        : settings.DOCINTEL_CAPTURE_MAX_PAGES
    ]
    if not captured:
        return None
    images, numbers = [page.image for page in captured], [page.number for page in captured]
    thresholds = CaptureThresholds.from_settings(
        settings.DOCINTEL_CAPTURE_THRESHOLDS, document.document_type_hint or None
    )
    try:
        capture = assess_images(images, thresholds, numbers)
    except ValueError:
        logger.warning("document %s: a page image could not be measured", document.pk)
        return None
    return PageChecks(capture=capture, checks=[check.to_dict() for check in capture.checks])


def _split(document: Document) -> tuple[bytes, list[PreparedPage]] | StepOutcome:
    """The document's original and its page images, or the outcome once it is FAILED with the
    reason, or waits for the master key its data key is wrapped under."""
    failed = StepOutcome(ran=True)
    try:
        original = blobs.blob_read(document=document, name=document.blob_name)
    except blobs.BlobMissingError:
        document_fail(
            document=document, code=error_codes.BLOB_MISSING, message="the stored original is missing"
        )
        return failed
    except KeyNotLoadedError:
        return _waiting(document, Dependency.KEY_NOT_LOADED, S.QUEUED)
    except DecryptionError:
        document_fail(
            document=document, code=error_codes.BLOB_MISSING, message="the stored original is unreadable"
        )
        return failed
    try:
        return original, prepare_pages(original, document.mime_type, page_limits())
    except EngineError as exc:
        document_fail(document=document, code=exc.code, message=exc.message)
        return failed


def _pages_store(ready: list[_Prepared], outcomes: list[StepOutcome]) -> None:
    """Store the pages of documents still QUEUED under their row locks, and move them on: to
    PROCESSING, or, for a capture too poor to read, to RESUBMISSION_REQUESTED (decided here, with
    its webhook: no model call follows)."""
    with transaction.atomic(), audit_batch():
        locked = {
            d.pk: d
            for d in Document.objects.select_for_update(of=("self",))
            .select_related("tenant")
            .filter(pk__in=[document.pk for _, document, _, _, _ in ready])
            .order_by("pk")  # one lock order for every batch: two batches cannot deadlock
        }
        rows: list[Page] = []
        moved: list[tuple[int, Document, int, PageChecks | None]] = []
        for index, document, pages, prepare_ms, found in ready:
            row = locked.get(document.pk)
            if row is None or row.status != S.QUEUED:
                continue  # another worker prepared it, or it was failed meanwhile
            # no pages to replace: they commit only together with QUEUED → PROCESSING, which is final
            rows.extend(_page_rows(row, pages))
            moved.append((index, row, prepare_ms, found))
        Page.objects.bulk_create(rows)
        sent_back = [row.pk for _, row, _, found in moved if _sent_back(found)]
        callbacks = document_callbacks_of(sent_back) if sent_back else {}
        for index, row, prepare_ms, found in moved:
            row.timings_ms = {**row.timings_ms, "prepare": prepare_ms}
            row.page_checks = found.checks if found is not None else []
            if found is not None:
                transaction.on_commit(
                    functools.partial(
                        metrics.page_checks_observe, checks=found.checks, sent_back=_sent_back(found)
                    )
                )
            if _sent_back(found):
                row.decision = S.RESUBMISSION_REQUESTED
                document_transition(
                    document=row, target=S.RESUBMISSION_REQUESTED, expected=S.QUEUED, locked=True, write=False
                )
                webhook_document_event(document=row, event=WebhookEvent.DOCUMENT_DECIDED, callbacks=callbacks)
                outcomes[index] = StepOutcome(ran=True)
                continue
            document_transition(
                document=row, target=S.PROCESSING, expected=S.QUEUED, locked=True, write=False
            )
            outcomes[index] = StepOutcome(ran=True, next_step=PipelineStep.INFER)
        _rows_write([row for _, row, _, _ in moved], ["timings_ms", "page_checks", "decision"])


def _sent_back(found: PageChecks | None) -> bool:
    return found is not None and found.capture is not None and not found.capture.passed


def _page_rows(document: Document, pages: list[PreparedPage]) -> list[Page]:
    """Each page's image (and text layer) stored encrypted, as the rows that point at them, each
    marked when it is a capture (what the advisory signals judge after the decision)."""
    captured = {p.number for p in captured_pages(pages, document.mime_type == "application/pdf")}
    rows = []
    for page in pages:
        name = blobs.page_blob_name(str(document.pk), page.number)
        blobs.blob_write(document=document, name=name, plaintext=page.image)
        text_name = ""
        if page.text_layer:
            text_name = blobs.text_layer_blob_name(str(document.pk), page.number)
            blobs.blob_write(document=document, name=text_name, plaintext=page.text_layer.encode("utf-8"))
        rows.append(
            Page(
                document=document,
                number=page.number,
                blob_name=name,
                width=page.width,
                height=page.height,
                text_blob_name=text_name,
                captured=page.number in captured,
            )
        )
    return rows


@dataclass(frozen=True)
class InferInput:
    """What one engine call needs, read by :func:`document_infer_begin`."""

    document: Document
    pages: list[bytes]
    text_layer: list[str] | None  # None when no page has a text layer
    document_type_hint: str | None
    started: float  # perf_counter() when the step began
    # a tenant's own type (apps.doctypes): the schema of the version the document is read with,
    # sent to the engine as doc_pipeline's schema_json (§3.5); None for a §3.2 type
    schema_json: str | None = None
    # the tenant's own types a classifier may choose instead (their latest versions), sent as
    # doc_pipeline's document_types_json; () when the upload named its type
    candidates: tuple[DocumentTypeVersion, ...] = ()
    # some page is a photo or a scan (``Page.captured``): the advisory signals may be owed
    captured: bool = False

    @property
    def custom(self) -> CustomSchema | None:
        return parse_schema(json.loads(self.schema_json)) if self.schema_json else None

    @property
    def document_types_json(self) -> str | None:
        if not self.candidates:
            return None
        return candidates_to_json(tuple(version_candidate(version=v) for v in self.candidates))

    def classified_version(self, document_type: str) -> DocumentTypeVersion | None:
        """The tenant's type the engine classified the document into, of those it was offered."""
        return next((v for v in self.candidates if v.document_type.name == document_type), None)

    def custom_for(self, document_type: str) -> CustomSchema | None:
        """The schema the document of ``document_type`` was read with: the one the upload named,
        or that of the tenant's type a classifier chose (None: a §3.2 type)."""
        if self.schema_json:
            return self.custom
        version = self.classified_version(document_type)
        return version_schema(version=version) if version is not None else None


def document_infer_begin(*, document_id: str) -> InferInput | StepOutcome:
    """Count the attempt and read the page images: the engine call's input, or the outcome when
    there is nothing to call (the document moved on, or its pages are missing)."""
    return documents_infer_begin(document_ids=[document_id])[0]


def documents_infer_begin(*, document_ids: Sequence[str]) -> list[InferInput | StepOutcome]:
    """:func:`document_infer_begin` for many documents, in their order: two queries for them all
    (the attempts, the pages) and one for their tenants' own types, then each one's page images."""
    started = time.perf_counter()
    with database_needed():
        documents = _start_attempts(document_ids, S.PROCESSING)
    with database_needed(counted=documents):
        pages_of: dict[str, list[Page]] = {document_id: [] for document_id in documents}
        # the tenants' own types, for a classifier to choose from: one query for the batch
        candidates = document_type_candidates(tenant_ids={d.tenant_id for d in documents.values()})
        if documents:
            for page in Page.objects.filter(document_id__in=[d.pk for d in documents.values()]).order_by(
                "document_id", "number"
            ):
                pages_of[str(page.document_id)].append(page)
        return [
            _infer_input(
                documents[str(document_id)],
                pages_of[str(document_id)],
                started,
                candidates.get(documents[str(document_id)].tenant_id, ()),
            )
            if str(document_id) in documents
            else SKIPPED
            for document_id in document_ids
        ]


def _infer_input(
    document: Document, pages: list[Page], started: float, candidates: tuple[DocumentTypeVersion, ...]
) -> InferInput | StepOutcome:
    try:
        page_images = [blobs.blob_read(document=document, name=p.blob_name) for p in pages]
        text_layer = [
            blobs.blob_read(document=document, name=p.text_blob_name).decode("utf-8")
            if p.text_blob_name
            else ""
            for p in pages
        ]
    except KeyNotLoadedError:
        return _waiting(document, Dependency.KEY_NOT_LOADED, S.PROCESSING)
    except (blobs.BlobMissingError, DecryptionError):
        document_fail(
            document=document, code=error_codes.BLOB_MISSING, message="a stored page image is missing"
        )
        return StepOutcome(ran=True)
    version = document_type_pin(document=document)
    return InferInput(
        document=document,
        pages=page_images,
        text_layer=text_layer if any(text_layer) else None,
        document_type_hint=document.document_type_hint or None,
        started=started,
        schema_json=version_schema(version=version).to_json() if version is not None else None,
        candidates=candidates if version is None else (),
        captured=any(p.captured for p in pages),
    )


def document_infer_finish(
    *, begun: InferInput, result: EngineResult | EngineError, today: dt.date | None = None
) -> StepOutcome:
    """Store the engine's answer and decide: PROCESSING → EXTRACTED → AUTO_APPROVED | NEEDS_REVIEW
    in one transaction, or FAILED with the engine's own error code. A document that moved on
    meanwhile is left alone.

    What ``validate`` and ``decide`` would do next is done here from the result in hand, in the
    same transaction: no second message, no reading back what was just written. Both state
    changes are audited as before."""
    return documents_infer_finish(finished=[(begun, result)], today=today)[0]


def documents_infer_finish(
    *,
    finished: Sequence[tuple[InferInput, EngineResult | EngineError]],
    today: dt.date | None = None,
) -> list[StepOutcome]:
    """:func:`document_infer_finish` for many documents, in their order, in one transaction.

    The dispatcher gets a model's whole batch back at once; storing it together takes one lock
    query, one INSERT per table and one audit append for the batch instead of for each document,
    and one UPDATE per document (the two transitions write the row once). A database gone away
    raises :class:`~apps.documents.unavailability.StepUnavailable` (the caller stores the batch
    again once it answers); another database error rolls the whole batch back, and the caller
    then stores each document on its own (the dispatcher's ``_batch_or_each``), so one bad row
    cannot keep the others from their decision."""
    # the attempts were counted when they began: a database gone meanwhile gives them back
    with database_needed(counted=[str(begun.document.pk) for begun, _ in finished]):
        return _infer_finish(finished, today)


def _infer_finish(
    finished: Sequence[tuple[InferInput, EngineResult | EngineError]], today: dt.date | None
) -> list[StepOutcome]:
    outcomes: list[StepOutcome] = [SKIPPED] * len(finished)
    assessed: list[_Assessed] = []
    for index, (begun, result) in enumerate(finished):
        if isinstance(result, EngineError):
            document_fail(document=begun.document, code=result.code, message=result.message)
            outcomes[index] = StepOutcome(ran=True)
            continue
        infer_ms = _elapsed_ms(begun.started)
        metrics.model_usage_observe(result.timings_ms)
        started = time.perf_counter()
        # pure: no database, no lock held
        assessment = result_assess(
            result=result,
            today=today,
            custom=begun.custom_for(result.document_type),
            tenant_id=begun.document.tenant_id,
        )
        timings = {"infer": infer_ms, "validate": _elapsed_ms(started)}
        assessed.append((index, begun, result, assessment, timings))
        metrics.stage_observe("validate", time.perf_counter() - started)
    if not assessed:
        return outcomes
    for index in _store_and_decide(assessed):
        outcomes[index] = StepOutcome(ran=True)
    return outcomes


# a result on its way to storage: its index in the batch, the input, the result, its assessment, timings
_Assessed = tuple[int, InferInput, EngineResult, Assessment, dict[str, int]]


def _store_and_decide(assessed: list[_Assessed]) -> list[int]:
    """The transaction of :func:`documents_infer_finish`; the indexes of the documents it stored.
    A decided document whose advisory signals are owed is marked pending, and their step
    requested once this commits (:func:`_advisory_owed`)."""
    started = time.perf_counter()
    # the audit events (two transitions and a review task a document) are appended together at
    # the end: the chain's lock, which every writer waits for, is held only from there to the commit
    with transaction.atomic(), audit_batch():
        ids = [begun.document.pk for _, begun, _, _, _ in assessed]
        locked = {
            d.pk: d
            for d in Document.objects.select_for_update(of=("self",))
            .select_related("tenant", "tenant__authenticity_policy")  # the policy: no query of its own
            .filter(pk__in=ids)
            .order_by("pk")  # one lock order for every batch: two batches cannot deadlock
        }
        ready = [
            (index, locked[begun.document.pk], result, assessment, timings)
            for index, begun, result, assessment, timings in assessed
            if begun.document.pk in locked and locked[begun.document.pk].status == S.PROCESSING
        ]
        if not ready:
            return []
        # a tenant's type a classifier chose: the version its fields were read with, pinned
        stored = {document.pk for _, document, _, _, _ in ready}
        document_types_pin_classified(
            readings=[
                (begun.document.pk, version)
                for _, begun, result, _, _ in assessed
                if begun.document.pk in stored
                and (version := begun.classified_version(result.document_type)) is not None
            ]
        )
        now = timezone.now()
        extractions = Extraction.objects.bulk_create(
            Extraction(
                document=document,
                engine_name=result.engine_name,
                engine_version=result.engine_version,
                raw_result=result.to_dict(),
                checks=_checks_json(assessment),
                timings_ms=result.timings_ms,
                calibration_version=assessment.calibration_version,
                validated_at=now,
            )
            for _, document, result, assessment, _ in ready
        )
        Field.objects.bulk_create(
            _field_row(extraction, name, f, assessment)
            for extraction, (_, _, result, assessment, _) in zip(extractions, ready, strict=True)
            for name, f in result.fields.items()
        )
        routing = RoutingBatch([document.pk for _, document, _, _, _ in ready])
        callbacks = document_callbacks_of([document.pk for _, document, _, _, _ in ready])
        captured = {begun.document.pk for _, begun, _, _, _ in assessed if begun.captured}
        advisory: list[str] = []
        for _, document, result, assessment, timings in ready:
            document.document_type = result.document_type
            # the engine's raw type confidence stays in raw_result; the document carries the calibrated one
            document.document_type_confidence = assessment.result.document_type_confidence
            document.timings_ms = {**document.timings_ms, **timings}
            document_transition(
                document=document, target=S.EXTRACTED, expected=S.PROCESSING, locked=True, write=False
            )
            _decision_store(
                document=document,
                decision=assessment.decision,
                routing=routing,
                callbacks=callbacks,
                write=False,
            )
            if _advisory_owed(
                document, authenticity_policy_of(tenant=document.tenant), document.pk in captured
            ):
                document.advisory_state = AdvisoryState.PENDING
                advisory.append(str(document.pk))
        _rows_write(
            [document for _, document, _, _, _ in ready],
            ["decision", "document_type", "document_type_confidence", "timings_ms", "advisory_state"],
        )
        routing.insert()
        if advisory:
            transaction.on_commit(functools.partial(steps_request, PipelineStep.ADVISORY, advisory))
    decide_s = (time.perf_counter() - started) / len(ready)
    for _ in ready:  # the stages still count apart in docintel_stage_seconds, though no separate tasks
        metrics.stage_observe("decide", decide_s)
    return [index for index, *_ in ready]


_TRANSITION_FIELDS = (
    "status",
    "status_changed_at",
    "error_code",
    "error_message",
    "unavailable_since",
    "unavailable_reason",
    "updated_at",
)


def _rows_write(rows: list[Document], fields: list[str]) -> None:
    """The locked rows a batch moved (``document_transition(write=False)``), written: their state
    change and ``fields``. On PostgreSQL one ``UPDATE … FROM (VALUES …)`` for them all (Django's
    ``bulk_update`` builds CASE expressions that cost more than the UPDATEs they replace); else,
    and for a single row, one UPDATE each."""
    if not rows:
        return
    now = timezone.now()
    columns = [_concrete_field(name) for name in (*_TRANSITION_FIELDS, *fields)]
    for row in rows:
        row.updated_at = now  # auto_now is save()'s; this statement writes what the row holds
    if len(rows) == 1 or connection.vendor != "postgresql":
        for row in rows:
            row.save(update_fields=[c.name for c in columns])
        return
    quote = connection.ops.quote_name
    id_field = Document._meta.pk
    casts = [f"%s::{id_field.db_type(connection)}", *(f"%s::{c.db_type(connection)}" for c in columns)]
    values = ", ".join(f"({', '.join(casts)})" for _ in rows)
    names = ", ".join(quote(str(c.column)) for c in columns)
    assignments = ", ".join(f"{quote(str(c.column))} = v.{quote(str(c.column))}" for c in columns)
    sql = (
        f"UPDATE {quote(Document._meta.db_table)} AS d SET {assignments} "
        f"FROM (VALUES {values}) AS v(id, {names}) WHERE d.{quote(str(id_field.column))} = v.id"
    )
    params = [
        value
        for row in rows
        for value in (
            id_field.get_db_prep_save(row.pk, connection),
            *(c.get_db_prep_save(getattr(row, c.attname), connection) for c in columns),
        )
    ]
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def _concrete_field(name: str) -> models.Field[Any, Any]:
    field = Document._meta.get_field(name)
    assert isinstance(field, models.Field)
    return field


def _field_row(extraction: Extraction, name: str, found: FieldResult, assessment: Assessment) -> Field:
    assessed = assessment.result.fields.get(name)
    return Field(
        extraction=extraction,
        name=name,
        value=found.value,
        raw_confidence=found.confidence,
        confidence=assessment.confidences.get(name),
        page=found.page,
        bbox=list(found.bbox) if found.bbox is not None else None,
        source=found.source,
        valid=assessed.valid if assessed is not None else found.valid,
        # the assessment's, which adds what the app knows (familiar_layout) to the engine's own
        evidence=list(assessment.evidence.get(name, found.evidence)),
    )


def _checks_json(assessment: Assessment) -> list[dict[str, object]]:
    return [{"name": c.name, "passed": c.passed, "detail": c.detail} for c in assessment.result.checks]


def _decision_store(
    *,
    document: Document,
    decision: Decision,
    routing: RoutingBatch | None = None,
    callbacks: dict[uuid.UUID, DocumentCallback] | None = None,
    write: bool = True,
) -> None:
    """EXTRACTED → the decision, with its review task and its webhook, on the caller's locked row
    (``routing`` and ``callbacks``: what a batch of documents looked up together; ``write=False``:
    the caller writes its batch's rows together, :func:`_rows_write`)."""
    document.decision = decision.outcome
    document_transition(
        document=document,
        target=decision.outcome,
        expected=S.EXTRACTED,
        locked=True,
        also_save=["decision"],
        write=write,
    )
    # in the same transaction: a document is never decided without its review task, nor twice queued
    review_task_route(
        document=document,
        outcome=decision.outcome,
        reasons=decision.reasons,
        document_locked=True,
        batch=routing,
    )
    # the result goes to the document's callback_url once this commits (outbox row, ids in the message)
    webhook_document_event(document=document, event=WebhookEvent.DOCUMENT_DECIDED, callbacks=callbacks)


def document_infer(*, document_id: str, reader: DocumentReader) -> StepOutcome:
    """One engine call for the whole document. An outage (Triton or its model engine unavailable)
    is waited out: the outcome says so and the task sends the step again after a backoff. Another
    retryable failure (the model failing on this document) propagates to the task, which retries
    it within the document's attempts; the engine's own verdicts fail the document.
    (The inference dispatcher runs the same begin and finish around its asynchronous call.)"""
    begun = document_infer_begin(document_id=document_id)
    if isinstance(begun, StepOutcome):
        return begun
    result: EngineResult | EngineError
    try:
        result = reader.read_document(
            begun.pages,
            document_type_hint=begun.document_type_hint,
            text_layer=begun.text_layer,
            # only for a tenant's own type: readers of §3.2 types need not know the argument
            **({"schema_json": begun.schema_json} if begun.schema_json else {}),
            **({"document_types_json": begun.document_types_json} if begun.candidates else {}),
        )
    except EngineError as exc:
        result = exc
    except TritonUnavailableError as exc:
        if not exc.outage:
            raise
        with database_needed(counted=[document_id]):
            return _waiting(begun.document, dependency_of(exc), S.PROCESSING)
    return document_infer_finish(begun=begun, result=result)


def document_validate(*, document_id: str, today: dt.date | None = None) -> StepOutcome:
    started = time.perf_counter()
    with transaction.atomic():
        document = document_lock(document_id=document_id)
        if document is None or document.status != S.EXTRACTED:
            return SKIPPED
        extraction = document.extractions.latest()
        if extraction.validated_at is not None:
            # validated by an earlier run that stopped before deciding (a database gone meanwhile)
            return StepOutcome(ran=False, next_step=PipelineStep.DECIDE)
        assessment = result_assess(
            result=EngineResult.from_dict(extraction.raw_result),
            today=today,
            custom=document_custom_schema(document=document),
            tenant_id=document.tenant_id,
        )
        rows = [row for row in extraction.fields.all() if row.name in assessment.result.fields]
        for row in rows:
            row.valid = assessment.result.fields[row.name].valid
            row.confidence = assessment.confidences[row.name]
            row.evidence = list(assessment.evidence.get(row.name, ()))
        Field.objects.bulk_update(rows, ["valid", "confidence", "evidence"])
        extraction.checks = _checks_json(assessment)
        extraction.calibration_version = assessment.calibration_version
        extraction.validated_at = timezone.now()
        extraction.save(update_fields=["checks", "calibration_version", "validated_at"])
        # the engine's raw type confidence stays in raw_result; the document carries the calibrated one
        document.document_type_confidence = assessment.result.document_type_confidence
        document.timings_ms = {**document.timings_ms, "validate": _elapsed_ms(started)}
        document.save(update_fields=["document_type_confidence", "timings_ms", "updated_at"])
    return StepOutcome(ran=True, next_step=PipelineStep.DECIDE)


def document_decide(*, document_id: str) -> StepOutcome:
    with transaction.atomic(), audit_batch():
        document = document_lock(document_id=document_id)
        if document is None or document.status != S.EXTRACTED:
            return SKIPPED
        extraction = document.extractions.latest()
        if extraction.validated_at is None:
            return StepOutcome(ran=False, next_step=PipelineStep.VALIDATE)
        custom = document_custom_schema(document=document)
        decision = decide(
            document_type=document.document_type,
            document_type_confidence=document.document_type_confidence or 0.0,
            fields=[
                CalibratedField(
                    name=f.name,
                    value=f.value,
                    confidence=f.confidence or 0.0,
                    valid=f.valid,
                    evidence=tuple(f.evidence or ()),
                )
                for f in extraction.fields.all()
            ],
            checks_passed={c["name"]: c["passed"] for c in extraction.checks},
            # the type's threshold, chosen where the calibration was fitted (never below the setting)
            min_confidence=calibration_maps.current().threshold(
                document.document_type, settings.DOCINTEL_AUTO_APPROVE_MIN_CONFIDENCE
            ),
            min_type_confidence=settings.DOCINTEL_AUTO_APPROVE_MIN_TYPE_CONFIDENCE,
            required_fields=custom.required if custom is not None else None,
        )
        _decision_store(document=document, decision=decision)
        captured = Page.objects.filter(document=document, captured=True).exists()
        if _advisory_owed(document, authenticity_policy_get(tenant=document.tenant), captured):
            document.advisory_state = AdvisoryState.PENDING
            document.save(update_fields=["advisory_state", "updated_at"])
            transaction.on_commit(functools.partial(steps_request, PipelineStep.ADVISORY, [str(document.pk)]))
    return StepOutcome(ran=True)


def _advisory_owed(document: Document, policy: AuthenticityPolicy | None, captured: bool) -> bool:
    """Whether a document just decided owes the advisory authenticity signals: turned on
    (DOCINTEL_AUTHENTICITY_SIGNALS, the master switch), some page of it photographed or scanned
    (a digital PDF never), and its type, now read, one the tenant's authenticity policy names
    (``policy``: its row, None for the default of apps/doctypes/knowledge/authenticity.toml)."""
    return (
        settings.DOCINTEL_AUTHENTICITY_SIGNALS
        and captured
        and document.decision in _ADVISED
        and document.document_type in authenticity_types_of(policy=policy)
    )


# the decisions that follow a reading: a capture sent back before it was never read
_ADVISED = frozenset({S.AUTO_APPROVED, S.NEEDS_REVIEW, S.REJECTED})


def _step_owed(document: Document) -> PipelineStep | None:
    """The step a document in flight waits for, judged by its state alone."""
    if document.status == S.QUEUED:
        return PipelineStep.PREPARE
    if document.status == S.PROCESSING:
        return PipelineStep.INFER
    if document.status == S.EXTRACTED:
        extraction = document.extractions.order_by("-created_at").first()
        validated = extraction is not None and extraction.validated_at
        return PipelineStep.DECIDE if validated else PipelineStep.VALIDATE
    return None


def _engine_out(*, since: dt.datetime) -> bool:
    """Whether Triton or its model engine is out: a document owing inference noted waiting on one
    of them since ``since`` (each worker's retry notes it again)."""
    return Document.objects.filter(
        status=S.PROCESSING, unavailable_reason__in=ENGINE_DEPENDENCIES, updated_at__gte=since
    ).exists()


def documents_reconcile(
    *, now: dt.datetime | None = None, messages_lost: bool = False
) -> list[tuple[str, PipelineStep | Literal["failed"]]]:
    """Re-enqueue documents untouched for too long in a state that still owes work.

    ``messages_lost`` (the broker was emptied: the reconcile task checks the broker's epoch)
    re-enqueues every such document untouched since ``now``, not only those past the deadline.
    Returns (document id, step requested or ``"failed"``) pairs, for logs and tests. A re-enqueue
    counts as an attempt, so a document whose messages keep disappearing still ends, in FAILED;
    but not for a document waiting out an outage (apps.documents.unavailability), and while the
    engine is out (some document noted waiting on it within the deadline) documents owing
    inference are left alone: their messages are queued behind the outage, not lost, and
    re-sending them would only spend their attempts and pile copies into the queue.
    """
    now = now or timezone.now()
    cutoff = now if messages_lost else now - dt.timedelta(seconds=settings.DOCINTEL_STUCK_AFTER_S)
    actions: list[tuple[str, PipelineStep | Literal["failed"]]] = []
    owing = Document.objects.filter(status__in=IN_FLIGHT, updated_at__lt=cutoff)
    if not messages_lost and _engine_out(since=now - dt.timedelta(seconds=settings.DOCINTEL_STUCK_AFTER_S)):
        owing = owing.exclude(status=S.PROCESSING)
    stuck = owing.values_list("pk", flat=True)
    # a lost broker owes every document in flight at once; the deadline's trickle is capped per run
    stuck_ids = list(stuck if messages_lost else stuck[:500])
    for document_id in stuck_ids:
        with transaction.atomic():
            document = Document.objects.select_for_update(skip_locked=True).filter(pk=document_id).first()
            if document is None or document.status not in IN_FLIGHT or document.updated_at >= cutoff:
                continue
            waiting = document.unavailable_since is not None  # an outage's: not the document's doing
            if document.attempt_count >= settings.DOCINTEL_MAX_ATTEMPTS and not waiting:
                document_fail(
                    document=document,
                    code=error_codes.MAX_ATTEMPTS_EXCEEDED,
                    message=f"gave up after {settings.DOCINTEL_MAX_ATTEMPTS} attempts",
                )
                actions.append((str(document.pk), "failed"))
                continue
            if not waiting:
                document.attempt_count += 1
            document.save(update_fields=["attempt_count", "updated_at"])
            if document.status == S.RECEIVED:
                from apps.documents.services import document_enqueue

                document_enqueue(document=document)
                actions.append((str(document.pk), PipelineStep.PREPARE))
                continue
            step = _step_owed(document)
            if step is not None:
                doc_id = str(document.pk)
                transaction.on_commit(lambda s=step, d=doc_id: steps_request(s, [d]))  # type: ignore[misc]
                actions.append((doc_id, step))
    if actions:
        logger.info("reconciler re-enqueued or failed %d stuck documents", len(actions))
    return actions
