"""A case's uploaded PDF that holds several documents becomes one document per range of its
pages, each uploaded through the ordinary upload service; the cut is recorded as a
:class:`~apps.cases.models.CasePacket` once the case exists.

Two steps, so the expensive one holds no lock: :func:`upload_prepare` reads, checks (the PDF
sandbox) and cuts a file — a packet's pages rendered and OCR'd, its parts cut out and checked —
before any transaction; :func:`upload_store` then only writes, in the caller's short transaction,
whose first audited write takes the audit chain's global lock (``apps.audit.services``) until it
commits. Every tenant's audited writes wait on that lock, so it must never wait on OCR.

The same packet again (same SHA-256, same tenant) is the documents it was cut into before, as the
same bytes are the same document for ``/documents``: re-runs cost nothing, and another applicant
sending the same packet meets the duplicate-file check.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any

from django.conf import settings

from apps.audit.services import audit_record
from apps.cases.models import Case, CasePacket
from apps.cases.packets.reading import PDF, packet_pages, page_guesses, worth_examining
from apps.cases.packets.split import PageGuess, PageRange, range_type, split_ranges
from apps.documents.models import Document
from apps.documents.services import document_upload, upload_validate
from apps.tenants.models import Tenant
from engines.types import EngineError
from media.pdf_split import regroup_sandboxed

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class PacketCut:
    """How one uploaded packet was cut, before its case exists to record it."""

    sha256: str
    original_name: str
    page_count: int
    pages: list[dict[str, Any]]
    parts: list[dict[str, Any]]


@dataclass
class StoredUpload:
    documents: list[Document]
    cut: PacketCut | None = None


@dataclass(frozen=True)
class PreparedPart:
    """One range of a packet's pages, cut out and checked as an upload of its own."""

    content: bytes
    mime_type: str
    page_range: PageRange
    document_type: str


@dataclass(frozen=True)
class PreparedUpload:
    """A submitted file read and checked before the transaction that stores it: its MIME type as
    the upload checks answered it, and for a packet its parts (none: it is stored whole)."""

    original_name: str
    content: bytes
    mime_type: str
    sha256: str
    parts: tuple[PreparedPart, ...] = ()
    pages: tuple[PageGuess, ...] = ()


def part_name(original_name: str, page_range: PageRange) -> str:
    first, last = page_range
    pages = f"page {first}" if first == last else f"pages {first}-{last}"
    return f"{PurePath(original_name or 'packet.pdf').stem} ({pages}).pdf"


def pages_json(guesses: Sequence[PageGuess]) -> list[dict[str, Any]]:
    return [
        {
            "page": g.page,
            "document_type": g.document_type,
            "confidence": round(g.confidence, 3),
            "cue": list(g.cue) if g.cue else None,
        }
        for g in guesses
    ]


def parts_prepare(
    *, contents: Sequence[bytes], ranges: Sequence[PageRange], types: Sequence[str]
) -> tuple[PreparedPart, ...]:
    """The cut-out PDFs checked as uploads (``UploadRejectedError`` for one that cannot be a
    document); call it outside any transaction: each check opens the PDF in the sandbox."""
    return tuple(
        PreparedPart(content, upload_validate(content), page_range, document_type)
        for content, page_range, document_type in zip(contents, ranges, types, strict=True)
    )


def parts_upload(
    *, tenant: Tenant, original_name: str, parts: Sequence[PreparedPart]
) -> tuple[list[Document], list[dict[str, Any]]]:
    """Each prepared part stored as a document (writes only); the parts' records."""
    documents, records = [], []
    for part in parts:
        document = document_upload(
            tenant=tenant,
            content=part.content,
            original_name=part_name(original_name, part.page_range),
            uploaded_by=None,
            checked_mime_type=part.mime_type,
        ).document
        documents.append(document)
        records.append(
            {
                "first": part.page_range[0],
                "last": part.page_range[1],
                "document_type": part.document_type,
                "document_id": str(document.pk),
            }
        )
    return documents, records


def _known_packet(tenant: Tenant, sha256: str) -> PacketCut | None:
    """The tenant's earlier cut of the same packet, when its documents all still exist."""
    earlier = CasePacket.objects.filter(case__tenant=tenant, sha256=sha256).order_by("-created_at").first()
    if earlier is None:
        return None
    ids = [str(p["document_id"]) for p in earlier.parts]
    if Document.objects.filter(tenant=tenant, pk__in=ids).count() != len(set(ids)):
        return None
    return PacketCut(sha256, earlier.original_name, earlier.page_count, earlier.pages, earlier.parts)


def upload_prepare(*, tenant: Tenant, content: bytes, original_name: str) -> PreparedUpload:
    """``content`` checked (``UploadRejectedError`` saying why it cannot be stored) and, when it
    is a packet the tenant has not sent before, cut into its parts. Slow — the sandbox, rendering
    and OCR of every page — so it runs before the transaction that stores it."""
    mime_type = upload_validate(content)
    sha256 = hashlib.sha256(content).hexdigest()
    whole = PreparedUpload(original_name, content, mime_type, sha256)
    if mime_type != PDF or _known_packet(tenant, sha256) is not None:
        return whole
    if not worth_examining(content, mime_type):
        return whole
    try:
        guesses = page_guesses(packet_pages(content, max_pages=int(settings.DOCINTEL_MAX_PAGES)))
        ranges = split_ranges(guesses)
        if len(ranges) < 2:
            return whole
        contents = regroup_sandboxed([content], ranges)
    except EngineError as exc:  # the pipeline reads it whole and says why it cannot
        logger.info("packet not examined (%s): uploaded whole", exc.code)
        return whole
    types = [range_type(guesses, r) for r in ranges]
    parts = parts_prepare(contents=contents, ranges=ranges, types=types)
    return PreparedUpload(original_name, content, mime_type, sha256, parts, tuple(guesses))


def upload_store(*, tenant: Tenant, prepared: PreparedUpload) -> StoredUpload:
    """The prepared file as its documents: one, or one per part of a packet (with the cut).
    Writes only — rows, encrypted blobs, audit events — for the caller's transaction."""
    known = _known_packet(tenant, prepared.sha256) if prepared.mime_type == PDF else None
    if known is not None:
        ids = [str(p["document_id"]) for p in known.parts]
        found = {str(d.pk): d for d in Document.objects.filter(pk__in=ids)}
        return StoredUpload([found[i] for i in ids], known)
    if prepared.parts:
        documents, records = parts_upload(
            tenant=tenant, original_name=prepared.original_name, parts=prepared.parts
        )
        cut = PacketCut(
            prepared.sha256,
            prepared.original_name[:255],
            len(prepared.pages),
            pages_json(prepared.pages),
            records,
        )
        return StoredUpload(documents, cut)
    whole = document_upload(
        tenant=tenant,
        content=prepared.content,
        original_name=prepared.original_name,
        uploaded_by=None,
        checked_mime_type=prepared.mime_type,
    )
    return StoredUpload([whole.document])


def packet_record(*, case: Case, cut: PacketCut) -> CasePacket:
    """The cut recorded on the case, and audited (page ranges and guessed types, no content)."""
    packet = CasePacket.objects.create(
        case=case,
        sha256=cut.sha256,
        original_name=cut.original_name,
        page_count=cut.page_count,
        pages=cut.pages,
        parts=cut.parts,
    )
    audit_record(
        tenant=case.tenant, actor=None, action="case.packet_split", object_type="case", object_id=str(case.pk),
        data={"packet": str(packet.pk), "pages": packet.page_count, "parts": parts_summary(packet.parts)},
    )  # fmt: skip
    return packet


def parts_summary(parts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """What the audit trail keeps of a cut: ranges, guessed types and documents' ids."""
    return [{k: p[k] for k in ("first", "last", "document_type", "document_id")} for p in parts]
