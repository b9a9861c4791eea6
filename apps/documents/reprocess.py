"""A failed document tried again, from the start of the pipeline.

A document fails for a fault of its own (a file no renderer can read) or for one that has since
gone away (an engine that was down, a key not yet loaded, a tenant's type corrected since). Its
bytes are kept, and uploading them again answers the same document (one per content and
tenant), so without this the only way out of FAILED was erasure.

:func:`document_reprocess` moves it FAILED → RECEIVED → QUEUED (``apps.documents.state``, both
audited, after a ``document.reprocessed`` event that names who asked, how, and the error it
had), clears what the failed run left behind (the error, the pages, the extractions, the
classification, the version of a tenant's type it was read with, timings, attempts, the page
checks and advisory signals' state) and
requests the prepare step once the transaction commits, exactly as an upload does: the normal
dispatch path carries it on. The audit trail keeps its history; ``reprocess_count`` counts the
tries. Its callers: the API (``POST /api/v1/documents/{id}/reprocess``), the document's page,
``manage.py reprocess`` and an identical re-upload (``apps.documents.services.document_upload``).
"""

from __future__ import annotations

import datetime as dt
import functools
import uuid
from collections.abc import Sequence
from enum import StrEnum

from django.contrib.auth.models import User
from django.db import transaction

from apps.audit.services import audit_record
from apps.documents import blobs
from apps.documents.models import AdvisoryState, Document, DocumentStatus, Page
from apps.documents.services import document_enqueue, documents_prepared_together
from apps.documents.state import document_lock, document_transition
from apps.tenants.models import Tenant

# Only a failed document is tried again: one in flight is still being tried, and a decided one
# has a decision (and perhaps a review) that a new reading must not silently replace.
REPROCESSABLE = frozenset({DocumentStatus.FAILED})
# What a reprocess clears on the row, written with its transition.
_RESET_FIELDS = (
    "attempt_count",
    "decision",
    "document_type",
    "document_type_confidence",
    "timings_ms",
    "page_checks",
    "advisory_state",
    "advisory_done_at",
    "reprocess_count",
)


class ReprocessVia(StrEnum):
    """Who asked, for the audit trail."""

    API = "api"
    WEB = "web"
    COMMAND = "command"
    REUPLOAD = "reupload"  # the same bytes uploaded again


class NotReprocessableError(Exception):
    """The document is not in a state that is tried again (``REPROCESSABLE``)."""

    code = "not_reprocessable"

    def __init__(self, status: str) -> None:
        super().__init__(f"only a failed document is processed again; this one is {status}")
        self.status = status


def document_reprocess(*, document: Document, actor: User | None, via: ReprocessVia) -> Document:
    """FAILED → RECEIVED → QUEUED, cleared of the failed run, its prepare step requested on
    commit. Raises :class:`NotReprocessableError` when the document is not FAILED (another
    request reprocessed it first, say): the caller's check and this one are made under the
    row's lock."""
    with transaction.atomic():
        row = document_lock(document_id=document.pk)
        if row is None:
            raise Document.DoesNotExist(f"document {document.pk} does not exist")
        if row.status not in REPROCESSABLE:
            raise NotReprocessableError(row.status)
        audit_record(
            tenant=row.tenant,
            actor=actor,
            action="document.reprocessed",
            object_type="document",
            object_id=str(row.pk),
            data={"via": str(via), "error_code": row.error_code, "attempt_count": row.attempt_count},
        )
        _run_forget(row)
        row.error_code = row.error_message = ""
        row.attempt_count = 0
        row.decision = row.document_type = ""
        row.document_type_confidence = None
        row.timings_ms, row.page_checks = {}, []
        row.advisory_state, row.advisory_done_at = AdvisoryState.NONE, None
        row.reprocess_count += 1
        row = document_transition(
            document=row,
            target=DocumentStatus.RECEIVED,
            actor=actor,
            expected=DocumentStatus.FAILED,
            locked=True,
            also_save=_RESET_FIELDS,
        )
        return document_enqueue(document=row, locked=True)


def _run_forget(document: Document) -> None:
    """Delete what the failed run stored: pages (their blobs once this commits, before the
    prepare step is requested, which writes them again), extractions with their fields, and the
    version of a tenant's type it was pinned to (the type may have been corrected since)."""
    from apps.doctypes.models import DocumentTypeReading  # doctypes depend on documents

    pages = list(Page.objects.filter(document=document).values_list("blob_name", "text_blob_name"))
    names = [name for pair in pages for name in pair if name]
    Page.objects.filter(document=document).delete()
    document.extractions.all().delete()
    DocumentTypeReading.objects.filter(document=document).delete()
    if names:
        transaction.on_commit(functools.partial(_blobs_delete, names))


def _blobs_delete(names: list[str]) -> None:
    for name in names:
        blobs.blob_delete(name=name)


def documents_failed(
    *, tenant: Tenant | None = None, error_codes: Sequence[str] = (), since: dt.datetime | None = None
) -> list[uuid.UUID]:
    """The ids of failed documents, oldest failure first: of one tenant (or all), with one of
    ``error_codes`` (or any), failed at or after ``since`` (or ever)."""
    failed = Document.objects.filter(status=DocumentStatus.FAILED)
    if tenant is not None:
        failed = failed.filter(tenant=tenant)
    if error_codes:
        failed = failed.filter(error_code__in=list(error_codes))
    if since is not None:
        failed = failed.filter(status_changed_at__gte=since)
    return list(failed.order_by("status_changed_at", "pk").values_list("pk", flat=True))


# Documents reprocessed between two sends of their prepare steps, each in its own transaction:
# a long list never holds many row locks, or the audit chain's lock, for long.
CHUNK = 200


def documents_reprocess(
    *, document_ids: Sequence[uuid.UUID], actor: User | None, via: ReprocessVia
) -> list[uuid.UUID]:
    """:func:`document_reprocess` for each document, each in a transaction of its own (one that
    moved on meanwhile is skipped); their prepare steps are requested together, ``CHUNK`` at a
    time, as a batch's are. The ids reprocessed."""
    done: list[uuid.UUID] = []
    for start in range(0, len(document_ids), CHUNK):
        with documents_prepared_together():
            chunk = Document.objects.filter(pk__in=document_ids[start : start + CHUNK])
            for document in chunk.order_by("status_changed_at", "pk"):
                try:
                    document_reprocess(document=document, actor=actor, via=via)
                except NotReprocessableError:
                    continue
                done.append(document.pk)
    return done
