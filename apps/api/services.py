"""What the API's write endpoints do, over the same services as the web page and the CLI.

``document_submit`` stores one file as a document (``apps.documents.services.document_upload``)
and remembers its callback URL; ``batch_submit`` stores many files, or the members of one zip
(``apps.ingestion.services.file_upload``), as a batch. A document and its callback are written in
one transaction, so the pipeline (sent on commit) always sees the callback when it decides.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.conf import settings
from django.db import IntegrityError, transaction

from apps.api.errors import ApiError
from apps.audit.services import audit_batch
from apps.batches.models import Batch, BatchDocument, BatchSource
from apps.batches.services import batch_open, batch_record, batch_refusals_add
from apps.documents import blobs
from apps.documents import error_codes as document_errors
from apps.documents.models import Document
from apps.documents.services import (
    UploadOutcome,
    UploadRejectedError,
    document_upload,
    documents_by_sha256,
    documents_prepared_together,
)
from apps.ingestion import error_codes as ingestion_errors
from apps.ingestion.services import (
    FileUploadOutcome,
    UploadedDocument,
    UploadRefusal,
    file_upload,
    zip_limits,
)
from apps.ingestion.zips import ArchiveRejectedError, archive_members, is_zip
from apps.tenants.models import Tenant
from apps.webhooks.services import document_callback_attach, document_callback_set

# The HTTP status of each refusal code; any other refusal is 422 (understood, refused).
REFUSAL_STATUS = {
    document_errors.FILE_TOO_LARGE: 413,
    ingestion_errors.ARCHIVE_TOO_LARGE: 413,
    ingestion_errors.ARCHIVE_TOO_MANY_MEMBERS: 413,
    ingestion_errors.SUSPICIOUS_COMPRESSION: 413,
    "too_many_files": 413,
    document_errors.UNSUPPORTED_FILE_TYPE: 415,
}


def refusal_status(code: str) -> int:
    return REFUSAL_STATUS.get(code, 422)


def _callbacks(documents: list[UploadedDocument], callback_url: str) -> None:
    """``callback_url`` for each document, once: a batch may hold the same bytes twice (a new
    document, then a duplicate of it). Called once the documents' rows are inserted: attaching
    to an existing document locks its row, which a batch inserts only at its end."""
    seen: set[object] = set()
    for uploaded in documents:
        if uploaded.document.pk in seen:
            continue
        seen.add(uploaded.document.pk)
        if uploaded.created:
            document_callback_set(document=uploaded.document, url=callback_url)
        else:
            document_callback_attach(document=uploaded.document, url=callback_url)


def document_submit(
    *,
    tenant: Tenant,
    content: bytes,
    original_name: str,
    document_type_hint: str = "",
    callback_url: str = "",
) -> UploadOutcome:
    """One document. Raises ``ApiError`` with the upload's refusal (nothing stored, nothing queued)."""
    try:
        with transaction.atomic():
            outcome = document_upload(
                tenant=tenant,
                content=content,
                original_name=original_name,
                uploaded_by=None,
                document_type_hint=document_type_hint,
            )
            if callback_url:
                _callbacks([UploadedDocument(outcome.document, original_name, outcome.created)], callback_url)
    except UploadRejectedError as exc:
        message = exc.message
        if exc.code == document_errors.UNSUPPORTED_FILE_TYPE and is_zip(content[:4]):
            message = "a zip is a batch: send it to /api/v1/batches"
        raise ApiError(refusal_status(exc.code), exc.code, message) from exc
    return outcome


@dataclass(frozen=True)
class SubmittedFile:
    name: str
    content: bytes


@dataclass
class BatchSubmission:
    batch: Batch | None  # None when every file was refused (nothing was stored)
    items: list[BatchDocument] = field(default_factory=list)
    refused: list[UploadRefusal] = field(default_factory=list)


def _inspect(files: list[SubmittedFile]) -> None:
    """Refusals of the request as a whole, before any document is made (ARCHITECTURE §4)."""
    if not files:
        raise ApiError(400, "invalid_request", "send the documents as multipart `files` (many) or one zip")
    if len(files) > settings.DOCINTEL_BATCH_MAX_FILES:
        raise ApiError(
            413,
            "too_many_files",
            f"a batch holds at most {settings.DOCINTEL_BATCH_MAX_FILES} files; got {len(files)}",
        )
    zips = [f for f in files if is_zip(f.content[:4])]
    if zips and len(files) > 1:
        raise ApiError(422, "mixed_batch", "a batch is many files or one zip, not both")
    if zips:
        try:  # the archive's directory, every member's header and path, before anything is inflated
            archive_members(zips[0].content, zip_limits(), strict=True)
        except ArchiveRejectedError as exc:
            raise ApiError(refusal_status(exc.code), exc.code, exc.message) from exc


def batch_submit(
    *, tenant: Tenant, files: list[SubmittedFile], document_type_hint: str = "", callback_url: str = ""
) -> BatchSubmission:
    """Many files, or the members of one zip, as a batch: each file that can be a document
    becomes one (the same bytes again: the existing document), each other is listed as refused
    with its reason. Raises ``ApiError`` when the request as a whole is refused."""
    _inspect(files)
    together = not any(is_zip(f.content[:4]) for f in files)
    with documents_prepared_together():
        inserted: list[Document] = []
        try:
            return _batch_store(
                tenant, files, document_type_hint, callback_url, inserted if together else None
            )
        except IntegrityError:
            if not together:
                raise
            # a concurrent upload of some of the same bytes: rolled back; now each file on its own
            for document in inserted:
                blobs.blob_delete(name=document.blob_name)
            return _batch_store(tenant, files, document_type_hint, callback_url, None)


def _batch_store(
    tenant: Tenant,
    files: list[SubmittedFile],
    document_type_hint: str,
    callback_url: str,
    inserted: list[Document] | None,
) -> BatchSubmission:
    """Every file in one transaction, its audit events appended together at the end: a batch of
    small files costs the database little more than one of them. A file the upload refuses
    stores nothing; a failure of the request itself stores nothing at all. ``inserted`` (files,
    not a zip, whose members are known only once unpacked): one duplicate lookup and one INSERT
    for all the new documents, listed there."""
    submission = BatchSubmission(batch=None)
    uploaded: list[UploadedDocument] = []
    with transaction.atomic(), audit_batch():
        known = (
            None
            if inserted is None
            else documents_by_sha256(tenant=tenant, contents=[f.content for f in files])
        )
        for submitted in files:
            outcome: FileUploadOutcome = file_upload(
                tenant=tenant,
                content=submitted.content,
                original_name=submitted.name,
                uploaded_by=None,
                document_type_hint=document_type_hint,
                known=known,
                deferred=inserted,
            )
            uploaded.extend(outcome.documents)
            if outcome.documents and submission.batch is None:
                submission.batch = batch_open(tenant=tenant, source=BatchSource.API)
                if submission.refused:  # files refused before the batch existed
                    batch_refusals_add(batch=submission.batch, refusals=submission.refused)
            if submission.batch is not None:  # records this file's refusals too
                batch_record(
                    batch=submission.batch, outcome=outcome, position=len(submission.items),
                    deferred=submission.items,
                )  # fmt: skip
            submission.refused.extend(([outcome.error] if outcome.error else []) + outcome.refused)
        if inserted:
            Document.objects.bulk_create(inserted)  # the rows above point at them: FKs check at commit
        BatchDocument.objects.bulk_create(submission.items)
        if callback_url:
            _callbacks(uploaded, callback_url)
    return submission
