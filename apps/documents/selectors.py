"""Reads on documents, always scoped to what the caller may see."""

from __future__ import annotations

import unicodedata
import uuid
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Q, QuerySet

from apps.audit.models import AuditEvent
from apps.doctypes.selectors import document_reading, version_schema
from apps.documents import blobs
from apps.documents.models import Document, DocumentStatus, Extraction, Field, Page
from apps.extraction.results import FieldView, document_result, resubmission_of
from apps.tenants.models import Tenant
from engines.spec import PERSON_NAME_FIELDS
from media.authenticity import zones_signal


def documents_visible_to(*, user: User | AnonymousUser) -> QuerySet[Document]:
    if not user.is_authenticated:
        return Document.objects.none()
    return Document.objects.filter(tenant__memberships__user=user).select_related("tenant")


def document_get_for_user(*, user: User | AnonymousUser, document_id: str) -> Document | None:
    """None both for a missing id and for another tenant's document: callers answer 404 to both."""
    try:
        uuid.UUID(str(document_id))
    except ValueError:
        return None
    return documents_visible_to(user=user).filter(pk=document_id).first()


def documents_filtered(
    *, user: User | AnonymousUser, statuses: list[str] | None = None, document_type: str = "", name: str = ""
) -> QuerySet[Document]:
    """The caller's documents, newest first, narrowed by status, type and a part of the file name."""
    documents = documents_visible_to(user=user)
    if statuses:
        documents = documents.filter(status__in=statuses)
    if document_type:
        documents = documents.filter(document_type=document_type)
    if name:
        documents = documents.filter(original_name__icontains=name)
    return documents.order_by("-created_at", "-pk")


def documents_get_many_for_user(*, user: User | AnonymousUser, document_ids: list[str]) -> list[Document]:
    """The caller's documents among ``document_ids``; ids that are malformed or not theirs are left out."""
    valid = []
    for document_id in document_ids:
        try:
            valid.append(uuid.UUID(str(document_id)))
        except ValueError:
            continue
    return list(documents_visible_to(user=user).filter(pk__in=valid))


def document_page_image(*, document: Document, number: int) -> bytes | None:
    """The decrypted page image (JPEG; PNG for pages prepared before 2026-12) of a document the
    caller was already authorised for (``page_image_type`` names its format); None
    when the page does not exist (not prepared yet, or past the last page)."""
    page = Page.objects.filter(document=document, number=number).first()
    if page is None:
        return None
    try:
        return blobs.blob_read(document=document, name=page.blob_name)
    except blobs.BlobMissingError:
        return None


def document_field_get(*, document: Document, name: str) -> Field | None:
    """A field of the document's latest extraction, by name."""
    extraction = document_latest_extraction(document=document)
    if extraction is None:
        return None
    return extraction.fields.filter(name=name).first()


def document_audit_history(*, document: Document) -> QuerySet[AuditEvent]:
    """Everything the audit trail recorded about the document: its own events (upload, every
    status change) and those of its review tasks (claims, corrections, decisions), oldest first."""
    from apps.review.models import ReviewTask  # review depends on documents, not the other way round

    task_ids = [str(pk) for pk in ReviewTask.objects.filter(document=document).values_list("pk", flat=True)]
    return (
        AuditEvent.objects.filter(
            Q(object_type="document", object_id=str(document.pk))
            | Q(object_type="review_task", object_id__in=task_ids)
        )
        .select_related("actor")
        .order_by("id")
    )


def document_latest_extraction(*, document: Document) -> Extraction | None:
    return document.extractions.order_by("-created_at").first()


def document_checks(
    *, page_checks: list[dict[str, Any]], reading_checks: list[dict[str, Any]], fields: Iterable[Any]
) -> list[dict[str, Any]]:
    """Every check of a document as shown and returned: the page images' (capture quality,
    authenticity signals), the reading's, and the reading's zone cross-checks (MRZ, barcode and
    printed page disagreeing) once more as an advisory authenticity signal. ``fields``: the
    reading's fields (with ``name``, ``bbox``, ``page``), to box the fields in disagreement."""
    zones = zones_signal(reading_checks, {f.name: {"bbox": f.bbox, "page": f.page} for f in fields})
    return [*page_checks, *reading_checks, *([zones] if zones is not None else [])]


def document_result_get(*, document: Document) -> dict[str, Any]:
    """The ARCHITECTURE §3.1 result of a stored document."""
    extraction = document_latest_extraction(document=document)
    fields: list[FieldView] = []
    checks: list[dict[str, Any]] = []
    engine = None
    timings = dict(document.timings_ms)
    if extraction is not None:
        fields = [
            FieldView(
                name=f.name,
                value=f.value,
                confidence=f.confidence if f.confidence is not None else None,
                page=f.page,
                bbox=f.bbox,
                source=f.source,
                valid=f.valid,
                evidence=list(f.evidence or ()),
            )
            for f in extraction.fields.all()
        ]
        checks = list(extraction.checks)
        engine = {"name": extraction.engine_name, "version": extraction.engine_version}
        # the engine's own timings (a model's token counts and latencies per step) beside the stages'
        timings = {**extraction.timings_ms, **timings}
    # a tenant's own type: its fields in the schema's order, with their titles
    version = document_reading(document=document)
    if version is not None and fields:
        custom = version_schema(version=version)
        rank = {name: i for i, name in enumerate(custom.names)}
        titles = custom.titles
        fields = sorted(
            (replace(f, title=titles.get(f.name)) for f in fields), key=lambda f: rank.get(f.name, len(rank))
        )
    error = {"code": document.error_code, "message": document.error_message} if document.error_code else None
    # the page images' own checks (capture quality, authenticity signals) come first
    checks = document_checks(page_checks=document.page_checks, reading_checks=checks, fields=fields)
    resubmission = None
    if document.decision == DocumentStatus.RESUBMISSION_REQUESTED:
        resubmission = resubmission_of(document.page_checks)
    waiting = None
    if document.unavailable_since is not None:  # still processing, through an outage
        waiting = {"on": document.unavailable_reason, "since": document.unavailable_since.isoformat()}
    return document_result(
        id=str(document.pk),
        file=document.original_name,
        sha256=document.sha256,
        status=document.status,
        document_type=document.document_type or None,
        document_type_confidence=document.document_type_confidence,
        pages=document.pages.count(),
        fields=fields,
        checks=checks,
        decision=document.decision or None,
        engine=engine,
        timings_ms=timings,
        error=error,
        resubmission=resubmission,
        document_type_version=version.version if version is not None else None,
        waiting=waiting,
    )


# Courtesy titles, ignored when the names of a person are compared.
_TITLES = frozenset({"MR", "MRS", "MS", "MISS", "DR", "HERR", "FRAU", "M", "MME"})


def _name_words(value: str) -> frozenset[str]:
    plain = unicodedata.normalize("NFKD", value).encode("ascii", "ignore").decode()
    words = "".join(c if c.isalnum() else " " for c in plain.upper()).split()
    return frozenset(w for w in words if w not in _TITLES)


def documents_about_person(
    *, tenant: Tenant, name: str, date_of_birth: str = "", document_number: str = ""
) -> list[Document]:
    """The tenant's documents whose fields name this person: the same words of the name (in any
    order, titles ignored, accents folded) in one name field, or the surname and given names
    together; narrowed by date of birth and document number where the document has those fields.
    Any field an operator corrected counts with its corrected value (corrections update the field)."""
    wanted = _name_words(name)
    if not wanted:
        return []
    values: dict[Any, dict[str, str]] = defaultdict(dict)
    fields = Field.objects.filter(
        extraction__document__tenant=tenant,
        name__in=(*PERSON_NAME_FIELDS, "date_of_birth", "document_number"),
        value__isnull=False,
    ).values_list("extraction__document_id", "name", "value")
    for document_id, field_name, value in fields.iterator():
        values[document_id][field_name] = value or ""
    matches = []
    for document_id, found in values.items():
        names = [_name_words(found[f]) for f in PERSON_NAME_FIELDS if f in found]
        names.append(_name_words(f"{found.get('given_names', '')} {found.get('surname', '')}"))
        if wanted not in names:
            continue
        if date_of_birth and found.get("date_of_birth", date_of_birth) != date_of_birth:
            continue
        if document_number and found.get("document_number", document_number) != document_number:
            continue
        matches.append(document_id)
    return list(Document.objects.filter(pk__in=matches, tenant=tenant).order_by("created_at"))
