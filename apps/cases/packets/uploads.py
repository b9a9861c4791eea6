"""A case's uploaded PDF that holds several documents becomes one document per range of its
pages, each uploaded through the ordinary upload service; the cut is recorded as a
:class:`~apps.cases.models.CasePacket` once the case exists.

The same packet again (same SHA-256, same tenant) is the documents it was cut into before, as the
same bytes are the same document for ``/documents``: re-runs cost nothing, and another applicant
sending the same packet meets the duplicate-file check.
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any

from django.conf import settings

from apps.audit.services import audit_record
from apps.cases.models import Case, CasePacket
from apps.cases.packets.reading import packet_pages, page_guesses, worth_examining
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


def part_name(original_name: str, page_range: PageRange) -> str:
    first, last = page_range
    pages = f"page {first}" if first == last else f"pages {first}-{last}"
    return f"{PurePath(original_name or 'packet.pdf').stem} ({pages}).pdf"


def pages_json(guesses: list[PageGuess]) -> list[dict[str, Any]]:
    return [
        {
            "page": g.page,
            "document_type": g.document_type,
            "confidence": round(g.confidence, 3),
            "cue": list(g.cue) if g.cue else None,
        }
        for g in guesses
    ]


def parts_upload(
    *, tenant: Tenant, original_name: str, contents: list[bytes], ranges: list[PageRange], types: list[str]
) -> tuple[list[Document], list[dict[str, Any]]]:
    """Each cut-out PDF uploaded as a document; the parts' records."""
    documents, parts = [], []
    for content, page_range, document_type in zip(contents, ranges, types, strict=True):
        document = document_upload(
            tenant=tenant,
            content=content,
            original_name=part_name(original_name, page_range),
            uploaded_by=None,
        ).document
        documents.append(document)
        parts.append(
            {
                "first": page_range[0],
                "last": page_range[1],
                "document_type": document_type,
                "document_id": str(document.pk),
            }
        )
    return documents, parts


def _known_packet(tenant: Tenant, sha256: str) -> PacketCut | None:
    """The tenant's earlier cut of the same packet, when its documents all still exist."""
    earlier = CasePacket.objects.filter(case__tenant=tenant, sha256=sha256).order_by("-created_at").first()
    if earlier is None:
        return None
    ids = [str(p["document_id"]) for p in earlier.parts]
    if Document.objects.filter(tenant=tenant, pk__in=ids).count() != len(set(ids)):
        return None
    return PacketCut(sha256, earlier.original_name, earlier.page_count, earlier.pages, earlier.parts)


def upload_store(*, tenant: Tenant, content: bytes, original_name: str) -> StoredUpload:
    """``content`` as its documents: one, or one per document of a packet (with the cut)."""
    mime_type = upload_validate(content)
    sha256 = hashlib.sha256(content).hexdigest()
    known = _known_packet(tenant, sha256) if mime_type == "application/pdf" else None
    if known is not None:
        ids = [str(p["document_id"]) for p in known.parts]
        found = {str(d.pk): d for d in Document.objects.filter(pk__in=ids)}
        return StoredUpload([found[i] for i in ids], known)
    cut = _cut(tenant, content, original_name, sha256) if worth_examining(content, mime_type) else None
    if cut is not None:
        return cut
    whole = document_upload(tenant=tenant, content=content, original_name=original_name, uploaded_by=None)
    return StoredUpload([whole.document])


def _cut(tenant: Tenant, content: bytes, original_name: str, sha256: str) -> StoredUpload | None:
    """The packet's documents, or None when it is one document (or cannot be read here: the
    pipeline then reads it whole and says why it cannot)."""
    try:
        pages = packet_pages(content, max_pages=int(settings.DOCINTEL_MAX_PAGES))
        guesses = page_guesses(pages)
        ranges = split_ranges(guesses)
        if len(ranges) < 2:
            return None
        contents = regroup_sandboxed([content], ranges)
    except EngineError as exc:
        logger.info("packet not examined (%s): uploaded whole", exc.code)
        return None
    types = [range_type(guesses, r) for r in ranges]
    documents, parts = parts_upload(
        tenant=tenant, original_name=original_name, contents=contents, ranges=ranges, types=types
    )
    cut = PacketCut(sha256, original_name[:255], len(guesses), pages_json(guesses), parts)
    return StoredUpload(documents, cut)


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
