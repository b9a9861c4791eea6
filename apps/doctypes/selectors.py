"""Reads of tenants' document types, every one scoped to a tenant (another tenant's type is not found)."""

from __future__ import annotations

from django.db.models import QuerySet

from apps.doctypes.models import DocumentType, DocumentTypeReading, DocumentTypeVersion
from apps.documents.models import Document
from apps.tenants.models import Tenant
from engines.custom_types import CustomSchema, parse_schema
from engines.spec import DOCUMENT_TYPES


def document_types_of_tenant(*, tenant: Tenant) -> QuerySet[DocumentType]:
    return DocumentType.objects.filter(tenant=tenant).prefetch_related("versions")


def document_type_get(*, tenant: Tenant, name: str) -> DocumentType | None:
    return DocumentType.objects.filter(tenant=tenant, name=name).first()


def document_type_exists(*, tenant: Tenant, name: str) -> bool:
    """Is ``name`` one of the tenant's own types (never a §3.2 one)?"""
    return (
        bool(name)
        and name not in DOCUMENT_TYPES
        and DocumentType.objects.filter(tenant=tenant, name=name).exists()
    )


def document_type_latest(*, document_type: DocumentType) -> DocumentTypeVersion | None:
    return document_type.versions.order_by("-version").first()


def document_type_version_get(*, document_type: DocumentType, version: int) -> DocumentTypeVersion | None:
    return document_type.versions.filter(version=version).first()


def version_schema(*, version: DocumentTypeVersion) -> CustomSchema:
    """The fields of a stored version (stored checked: they parse)."""
    return parse_schema(version.schema)


def document_reading(*, document: Document) -> DocumentTypeVersion | None:
    """The version of its tenant's type the document was read with (None: a §3.2 type)."""
    if not document.document_type_hint or document.document_type_hint in DOCUMENT_TYPES:
        return None  # only an upload naming a tenant's type is read as one: no query for the rest
    reading = (
        DocumentTypeReading.objects.select_related("version__document_type").filter(document=document).first()
    )
    return reading.version if reading is not None else None


def document_custom_schema(*, document: Document) -> CustomSchema | None:
    version = document_reading(document=document)
    return version_schema(version=version) if version is not None else None
