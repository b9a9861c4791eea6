"""A reviewer's correction of a packet's split: the packet's pages cut at other ranges.

The packet's pages are its current documents joined in order; the ranges that did not change keep
their document (already read), each new range becomes a new document through the upload service,
and the documents of the ranges that went are taken out of the case (they stay the tenant's
documents, like any upload). The case is opened again and evaluated when its new documents are
read; the correction is audited with the operator, the old and the new ranges.

The new ranges are cut and checked (in the PDF sandbox) before the transaction, as uploads are
(``apps.cases.packets.uploads``): the transaction only writes, so the audit chain's lock it takes
never waits on the sandbox.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from apps.audit.services import audit_batch, audit_record
from apps.cases.models import Case, CaseDocument, CasePacket
from apps.cases.packets.split import PageGuess, PageRange, range_type
from apps.cases.packets.uploads import PreparedPart, parts_prepare, parts_summary, parts_upload
from apps.cases.services import CLOSED, CaseClosedError, case_documents_add
from apps.documents import blobs
from apps.documents.models import Document
from apps.documents.services import documents_prepared_together
from engines.types import EngineError
from media.pdf_split import ranges_cover, regroup_sandboxed


class PacketChangedError(Exception):
    """A document of the packet is gone (erased), so its pages cannot be cut again; or the packet
    was corrected by someone else while this correction was being cut."""


@dataclass(frozen=True)
class _Recut:
    """The packet's parts as they were read, and its new ranges cut out and checked."""

    parts_before: list[dict[str, Any]]
    new_parts: tuple[PreparedPart, ...]


def _guesses(packet: CasePacket) -> list[PageGuess]:
    return [
        PageGuess(
            page=int(p["page"]), document_type=str(p["document_type"]), confidence=float(p["confidence"])
        )
        for p in packet.pages
    ]


def _documents_of(packet: CasePacket, tenant_id: Any) -> dict[str, Document]:
    """The packet's documents by id; ``PacketChangedError`` when one is gone."""
    ids = [str(p["document_id"]) for p in packet.parts]
    found = {str(d.pk): d for d in Document.objects.filter(tenant_id=tenant_id, pk__in=ids)}
    if len(found) != len(set(ids)):
        raise PacketChangedError("a document of this packet no longer exists")
    return found


def _recut(packet: CasePacket, ranges: list[PageRange]) -> _Recut:
    """The new ranges cut from the packet's documents and checked as uploads — the sandbox's
    work, outside any transaction."""
    old = {(int(p["first"]), int(p["last"])) for p in packet.parts}
    new_ranges = [r for r in ranges if r not in old]
    case = Case.objects.only("tenant_id").get(pk=packet.case_id)
    found = _documents_of(packet, case.tenant_id)
    ids = [str(p["document_id"]) for p in packet.parts]
    try:
        contents = regroup_sandboxed(
            [blobs.blob_read(document=found[i], name=found[i].blob_name) for i in ids], new_ranges
        )
    except EngineError as exc:  # its documents no longer make up its pages
        raise PacketChangedError(f"the packet's documents could not be cut again ({exc})") from exc
    guesses = _guesses(packet)
    types = [range_type(guesses, r) for r in new_ranges]
    return _Recut(list(packet.parts), parts_prepare(contents=contents, ranges=new_ranges, types=types))


def case_packet_resplit(*, packet: CasePacket, ranges: list[PageRange], user: User | None) -> CasePacket:
    """Cut ``packet`` at ``ranges`` (covering its pages in order); ``CaseClosedError`` for an
    approved or rejected case, ``ValueError`` for ranges that do not cover the pages,
    ``PacketChangedError`` for a packet whose documents are gone or that changed meanwhile."""
    if not ranges_cover(ranges, packet.page_count):
        raise ValueError(f"the ranges must cover pages 1 to {packet.page_count} in order, each once")
    if [(int(p["first"]), int(p["last"])) for p in packet.parts] == list(ranges):
        return packet
    recut = _recut(packet, ranges)
    with documents_prepared_together(), transaction.atomic(), audit_batch():
        case = Case.objects.select_for_update(of=("self",)).select_related("tenant").get(pk=packet.case_id)
        if case.status in CLOSED:
            raise CaseClosedError(f"case {case.pk} is {case.status}")
        packet = CasePacket.objects.select_for_update().get(pk=packet.pk)
        if packet.parts != recut.parts_before:
            raise PacketChangedError("the packet was corrected meanwhile; look at it again")
        old = {(int(p["first"]), int(p["last"])): p for p in packet.parts}
        ids = [str(p["document_id"]) for p in packet.parts]
        found = _documents_of(packet, case.tenant_id)
        _, added_parts = parts_upload(
            tenant=case.tenant, original_name=packet.original_name, parts=recut.new_parts
        )
        made = {(int(p["first"]), int(p["last"])): p for p in added_parts}
        parts = [old.get(r) or made[r] for r in ranges]
        kept = {str(p["document_id"]) for p in parts}
        removed = [i for i in ids if i not in kept]
        CaseDocument.objects.filter(case=case, document_id__in=removed).delete()
        previous = parts_summary(packet.parts)
        packet.parts, packet.corrected_by, packet.corrected_at = parts, user, timezone.now()
        packet.save(update_fields=["parts", "corrected_by", "corrected_at"])
        audit_record(
            tenant=case.tenant, actor=user, action="case.packet_corrected", object_type="case",
            object_id=str(case.pk),
            data={"packet": str(packet.pk), "before": previous, "after": parts_summary(parts),
                  "documents_removed": removed},
        )  # fmt: skip
        new_documents = [found.get(str(p["document_id"])) for p in parts]
        added = [
            d or Document.objects.get(pk=p["document_id"]) for d, p in zip(new_documents, parts, strict=True)
        ]
        case_documents_add(case=case, documents=added)
    return packet
