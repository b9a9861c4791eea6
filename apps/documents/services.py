"""Writes on documents: upload (with dedup), enqueueing, and failing with an error code."""

from __future__ import annotations

import contextlib
import contextvars
import hashlib
import logging
import uuid
from collections.abc import Iterator
from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction

from apps.audit.services import audit_batch, audit_record
from apps.doctypes.selectors import document_type_exists
from apps.documents import blobs, error_codes
from apps.documents.filetypes import file_facts, sniff_mime_type
from apps.documents.models import Document, DocumentStatus
from apps.documents.state import document_lock, document_transition
from apps.documents.steps import PipelineStep, steps_request
from apps.observability.metrics import stage_timed
from apps.tenants.models import Tenant
from apps.webhooks.models import WebhookEvent
from apps.webhooks.services import webhook_document_event
from engines.spec import DOCUMENT_TYPES

logger = logging.getLogger(__name__)


class UploadRejectedError(Exception):
    """The upload is refused before anything is stored; ``code`` is shown to the client."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class UploadOutcome:
    document: Document
    created: bool  # False when the same bytes were already uploaded to this tenant
    reprocessed: bool = False  # those bytes were a failed document, now tried again


def upload_validate(content: bytes, document_type_hint: str = "") -> str:
    """The sniffed MIME type of an upload that may be stored, or ``UploadRejectedError`` saying why
    not: everything here is read from the bytes and their headers, before anything is stored."""
    if not content:
        raise UploadRejectedError(error_codes.EMPTY_FILE, "the file is empty")
    if len(content) > settings.DOCINTEL_MAX_UPLOAD_BYTES:
        limit_mb = settings.DOCINTEL_MAX_UPLOAD_BYTES // (1024 * 1024)
        raise UploadRejectedError(error_codes.FILE_TOO_LARGE, f"the file is larger than {limit_mb} MB")
    mime_type = sniff_mime_type(content[:2048])
    if mime_type is None:
        raise UploadRejectedError(
            error_codes.UNSUPPORTED_FILE_TYPE,
            "unsupported file type; upload a JPEG, PNG, TIFF, WebP image or a PDF",
        )
    facts = file_facts(content, mime_type)
    if facts.markup:
        raise UploadRejectedError(
            error_codes.POLYGLOT_FILE,
            "the file carries web page markup (<script>, <html>, ...) besides the document; "
            "upload the plain image or PDF",
        )
    if facts.active_content:
        raise UploadRejectedError(
            error_codes.PDF_ACTIVE_CONTENT,
            "the PDF contains JavaScript, launch actions or embedded files; "
            "print it to a plain PDF and upload that",
        )
    if facts.pixels is not None and facts.pixels > settings.DOCINTEL_MAX_IMAGE_PIXELS:
        raise UploadRejectedError(
            error_codes.IMAGE_TOO_LARGE,
            f"the image has more than {settings.DOCINTEL_MAX_IMAGE_PIXELS:,} pixels, the limit",
        )
    if facts.pages is not None and facts.pages > settings.DOCINTEL_MAX_PAGES:
        raise UploadRejectedError(
            error_codes.TOO_MANY_PAGES,
            f"the file has {facts.pages} pages; the limit is {settings.DOCINTEL_MAX_PAGES}",
        )
    if document_type_hint and document_type_hint not in DOCUMENT_TYPES:
        raise UploadRejectedError(
            "unknown_document_type", f"document_type must be one of {', '.join(DOCUMENT_TYPES)}"
        )
    return mime_type


def document_enqueue(*, document: Document, locked: bool = False, write: bool = True) -> Document:
    """RECEIVED → QUEUED, and request the pipeline's first step once the transaction commits (inside
    :func:`documents_prepared_together`: gathered for one message with others).
    ``locked`` and ``write``: as in :func:`document_transition`."""
    document = document_transition(
        document=document,
        target=DocumentStatus.QUEUED,
        expected=DocumentStatus.RECEIVED,
        locked=locked,
        write=write,
    )
    document_id = str(document.pk)
    together = _prepared_together.get()
    if together is not None:
        transaction.on_commit(lambda: together.append(document_id))
    else:
        transaction.on_commit(lambda: steps_request(PipelineStep.PREPARE, [document_id]))
    return document


_prepared_together: contextvars.ContextVar[list[str] | None] = contextvars.ContextVar(
    "prepared_together", default=None
)


@contextlib.contextmanager
def documents_prepared_together() -> Iterator[None]:
    """The documents enqueued inside the block are requested the prepare step together, up to
    ``DOCINTEL_PREPARE_BATCH`` at a time, once they are committed: one Celery message
    and one transaction for many small files, where one each costs more CPU than preparing them.

    Each document joins when its transaction commits (one rolled back sends nothing), and the
    messages leave when the transaction around the block commits (at once, outside one)."""
    gathered: list[str] = []
    token = _prepared_together.set(gathered)
    size = max(1, settings.DOCINTEL_PREPARE_BATCH)

    def send() -> None:
        for start in range(0, len(gathered), size):
            steps_request(PipelineStep.PREPARE, gathered[start : start + size])

    try:
        yield
    finally:
        _prepared_together.reset(token)
    # after the documents' own commit callbacks, which fill ``gathered``
    transaction.on_commit(send)


@stage_timed("upload")
def document_upload(
    *,
    tenant: Tenant,
    content: bytes,
    original_name: str,
    uploaded_by: User | None,
    document_type_hint: str = "",
    known: dict[str, Document] | None = None,
    deferred: list[Document] | None = None,
    checked_mime_type: str = "",
) -> UploadOutcome:
    """Store ``content`` as a new document, queued, or answer the tenant's document with the same
    bytes (a failed one tried again: ``reprocessed``). ``known``: the tenant's documents by SHA-256
    for every file of the caller's batch, looked up together (:func:`documents_by_sha256`); this
    upload adds its own. ``deferred``: the caller's transaction inserts the new document with the
    batch's others (``bulk_create``), and handles the IntegrityError of a concurrent upload of the
    same bytes for the whole batch."""
    # a hint naming one of the tenant's own types (apps.doctypes) is read with that type's schema
    own_type = document_type_hint not in DOCUMENT_TYPES and document_type_exists(
        tenant=tenant, name=document_type_hint
    )
    # ``checked_mime_type``: what upload_validate already answered for these bytes, outside the
    # caller's transaction (a case's files: apps.cases.packets.uploads), so the PDF sandbox is
    # not run again while the transaction holds its locks
    mime_type = checked_mime_type or upload_validate(content, "" if own_type else document_type_hint)
    sha256 = hashlib.sha256(content).hexdigest()
    if known is not None:
        existing = known.get(sha256)
    else:
        existing = Document.objects.filter(tenant=tenant, sha256=sha256).first()
    if existing is not None:
        if existing.status == DocumentStatus.FAILED:
            outcome = _failed_uploaded_again(existing, uploaded_by)
            if known is not None:
                known[sha256] = outcome.document
            return outcome
        return UploadOutcome(existing, created=False)

    document_id = uuid.uuid4()
    blob_name = blobs.original_blob_name(str(document_id))
    document = Document(
        id=document_id,
        tenant=tenant,
        uploaded_by=uploaded_by,
        sha256=sha256,
        original_name=(original_name or "upload")[:255],
        mime_type=mime_type,
        size_bytes=len(content),
        blob_name=blob_name,
        wrapped_key=blobs.new_wrapped_key(document_id=str(document_id)),
        document_type_hint=document_type_hint,
    )
    if deferred is not None:
        if not transaction.get_connection().in_atomic_block:
            raise transaction.TransactionManagementError(
                "a deferred upload belongs in its batch's transaction"
            )
        _document_store(document, content, sha256, uploaded_by)
        deferred.append(document)
        if known is not None:
            known[sha256] = document
        return UploadOutcome(document, created=True)
    try:
        with transaction.atomic(), audit_batch():  # both events appended at the end, together
            _document_store(document, content, sha256, uploaded_by)
            document.save(force_insert=True)
    except IntegrityError:
        # A concurrent upload of the same bytes won the unique (tenant, sha256) race.
        blobs.blob_delete(name=blob_name)
        return UploadOutcome(Document.objects.get(tenant=tenant, sha256=sha256), created=False)
    if known is not None:
        known[sha256] = document
    return UploadOutcome(document, created=True)


def _failed_uploaded_again(document: Document, uploaded_by: User | None) -> UploadOutcome:
    """The same bytes as a failed document: it is tried again (``apps.documents.reprocess``), as
    when an operator asks, the uploader named as who asked."""
    from apps.documents.reprocess import NotReprocessableError, ReprocessVia, document_reprocess

    try:
        again = document_reprocess(document=document, actor=uploaded_by, via=ReprocessVia.REUPLOAD)
    except NotReprocessableError:  # a concurrent request tried it again first
        return UploadOutcome(Document.objects.get(pk=document.pk), created=False)
    return UploadOutcome(again, created=False, reprocessed=True)


def _document_store(document: Document, content: bytes, sha256: str, uploaded_by: User | None) -> None:
    """The original stored encrypted, the upload audited, and the (not yet inserted) row queued:
    received and queued, both audited, written by the one INSERT that follows."""
    blobs.blob_write(document=document, name=document.blob_name, plaintext=content)
    audit_record(
        tenant=document.tenant,
        actor=uploaded_by,
        action="document.uploaded",
        object_type="document",
        object_id=str(document.pk),
        data={"sha256": sha256, "mime_type": document.mime_type, "size_bytes": len(content)},
    )
    document_enqueue(document=document, locked=True, write=False)


def documents_by_sha256(*, tenant: Tenant, contents: list[bytes]) -> dict[str, Document]:
    """The tenant's documents with the same bytes as any of ``contents``, by SHA-256: one query
    for a whole batch instead of one per file."""
    digests = {hashlib.sha256(content).hexdigest() for content in contents}
    return {d.sha256: d for d in Document.objects.filter(tenant=tenant, sha256__in=digests)}


def document_fail(*, document: Document, code: str, message: str) -> Document:
    """Any in-flight state → FAILED with an operator-readable code; a no-op on a decided document."""
    from apps.documents.state import IN_FLIGHT

    with transaction.atomic():
        locked = document_lock(document_id=document.pk)
        if locked is None:
            raise Document.DoesNotExist(f"document {document.pk} does not exist")
        if locked.status not in IN_FLIGHT:
            return locked
        failed = document_transition(
            document=locked,
            target=DocumentStatus.FAILED,
            error_code=code,
            error_message=message,
            expected=locked.status,
            locked=True,
        )
        # a document that can no longer be decided tells its callback_url so (once this commits)
        webhook_document_event(document=failed, event=WebhookEvent.DOCUMENT_FAILED)
    return failed
