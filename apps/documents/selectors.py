"""Reads on documents, always scoped to what the caller may see."""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import QuerySet

from apps.documents.models import Document, Extraction
from apps.extraction.results import FieldView, document_result


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


def document_latest_extraction(*, document: Document) -> Extraction | None:
    return document.extractions.order_by("-created_at").first()


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
            )
            for f in extraction.fields.all()
        ]
        checks = list(extraction.checks)
        engine = {"name": extraction.engine_name, "version": extraction.engine_version}
    error = {"code": document.error_code, "message": document.error_message} if document.error_code else None
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
    )
