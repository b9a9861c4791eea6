"""Uploads as operators make them: one file, or a zip whose members each become a document.

The web page, its JSON endpoint (one request per file, so every file has its own progress bar and
its own answer) and later the REST API's batches share this one entry point. A single document
is still created by ``apps.documents.services.document_upload``: this layer only unpacks zips
and turns every refusal into a per-file reason an operator can read.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.conf import settings
from django.contrib.auth.models import User

from apps.documents import error_codes as document_errors
from apps.documents.models import Document
from apps.documents.services import UploadRejectedError, document_upload
from apps.ingestion.zips import ArchiveMember, ArchiveRejectedError, ZipLimits, archive_members, is_zip
from apps.tenants.models import Tenant


@dataclass(frozen=True)
class UploadedDocument:
    document: Document
    name: str  # as the operator knows it: the file's name, or "archive.zip/member.jpg"
    created: bool  # False: the same bytes were already uploaded to this tenant (that document is it)
    reprocessed: bool = False  # ... and had failed: it is processed again (apps.documents.reprocess)


@dataclass(frozen=True)
class UploadRefusal:
    name: str
    code: str
    message: str


@dataclass(frozen=True)
class FileUploadOutcome:
    """What became of one uploaded file: documents (one, or one per zip member) and refusals.

    ``error`` is set when the file as a whole was refused (a bad type, too large, a corrupt or
    oversized zip); ``refused`` lists the members of a zip that were refused one by one.
    """

    name: str
    documents: list[UploadedDocument] = field(default_factory=list)
    refused: list[UploadRefusal] = field(default_factory=list)
    error: UploadRefusal | None = None

    @property
    def created_any(self) -> bool:
        return any(d.created for d in self.documents)


def zip_limits() -> ZipLimits:
    return ZipLimits(
        max_members=settings.DOCINTEL_ZIP_MAX_MEMBERS,
        max_expanded_bytes=settings.DOCINTEL_ZIP_MAX_EXPANDED_BYTES,
        max_ratio=settings.DOCINTEL_ZIP_MAX_RATIO,
        max_member_bytes=settings.DOCINTEL_MAX_UPLOAD_BYTES,
    )


def file_upload(
    *,
    tenant: Tenant,
    content: bytes,
    original_name: str,
    uploaded_by: User | None,
    document_type_hint: str = "",
    known: dict[str, Document] | None = None,
    deferred: list[Document] | None = None,
) -> FileUploadOutcome:
    """Store one uploaded file as a document, or each member of a zip as a document of its own.
    ``known`` and ``deferred``: for a file that is no zip, as in ``document_upload``."""
    name = original_name or "upload"
    if not is_zip(content[:4]):
        try:
            outcome = document_upload(
                tenant=tenant,
                content=content,
                original_name=name,
                uploaded_by=uploaded_by,
                document_type_hint=document_type_hint,
                known=known,
                deferred=deferred,
            )
        except UploadRejectedError as exc:
            return FileUploadOutcome(name=name, error=_refusal(name, exc))
        return FileUploadOutcome(
            name=name,
            documents=[UploadedDocument(outcome.document, name, outcome.created, outcome.reprocessed)],
        )

    try:
        members = archive_members(content, zip_limits())
    except ArchiveRejectedError as exc:
        return FileUploadOutcome(name=name, error=UploadRefusal(name, exc.code, exc.message))
    result = FileUploadOutcome(name=name)
    for member in members:
        member_name = f"{name}/{member.name}"
        if not isinstance(member, ArchiveMember):
            result.refused.append(UploadRefusal(member_name, member.code, member.message))
            continue
        try:
            outcome = document_upload(
                tenant=tenant,
                content=member.content,
                original_name=member_name,
                uploaded_by=uploaded_by,
                document_type_hint=document_type_hint,
            )
        except UploadRejectedError as exc:
            result.refused.append(_refusal(member_name, exc))
            continue
        result.documents.append(
            UploadedDocument(outcome.document, member_name, outcome.created, outcome.reprocessed)
        )
    return result


def _refusal(name: str, exc: UploadRejectedError) -> UploadRefusal:
    message = exc.message
    if exc.code == document_errors.UNSUPPORTED_FILE_TYPE:
        # This entry point also takes zips, which the single-document service does not know of.
        message = "unsupported file type; upload a JPEG, PNG, TIFF, WebP image, a PDF, or a zip of them"
    return UploadRefusal(name, exc.code, message)
