"""Writes on tenants' document types: defining one (a new version when its schema changed), and
pinning the version a document is read with."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction

from apps.audit.services import audit_record
from apps.doctypes.errors import DocumentTypeInvalidError
from apps.doctypes.models import DocumentType, DocumentTypeReading, DocumentTypeVersion
from apps.doctypes.selectors import document_type_latest
from apps.documents.models import Document
from apps.tenants.models import Tenant
from engines.custom_types import (
    MAX_DESCRIPTION,
    CustomSchema,
    SchemaInvalid,
    check_type_name,
    parse_schema,
    pattern_refusals,
)
from engines.spec import DOCUMENT_TYPES


@dataclass(frozen=True)
class Definition:
    version: DocumentTypeVersion
    created: bool  # False: the same schema was already the latest version


def document_type_check(*, name: Any, description: Any, schema: Any) -> CustomSchema:
    """The schema's fields, or ``DocumentTypeInvalidError`` with every problem (nothing saved):
    the schema subset (engines.custom_types), and code patterns the linear-time matcher (RE2) runs."""
    problems: dict[str, list[str]] = {}
    if name_problems := check_type_name(name):
        problems["name"] = name_problems
    if not isinstance(description, str) or len(description) > MAX_DESCRIPTION:
        problems["description"] = [f"description must be text of at most {MAX_DESCRIPTION} characters"]
    try:
        custom = parse_schema(schema)
    except SchemaInvalid as error:
        problems["schema"] = error.problems
    else:
        if refused := pattern_refusals(custom):
            problems["schema"] = refused
    if problems:
        raise DocumentTypeInvalidError(problems)
    return custom


def document_type_define(
    *, tenant: Tenant, name: str, description: str, schema: Any, created_by: User | None = None
) -> Definition:
    """Define the tenant's type ``name``, or give it a new version when its schema changed (the
    description is the type's, changed in place). Checked first: ``DocumentTypeInvalidError``."""
    custom = document_type_check(name=name, description=description, schema=schema)
    stored = custom.to_json()
    with transaction.atomic():
        document_type, _ = DocumentType.objects.select_for_update().get_or_create(
            tenant=tenant, name=name, defaults={"description": description}
        )
        if document_type.description != description:
            document_type.description = description
            document_type.save(update_fields=["description", "updated_at"])
        latest = document_type_latest(document_type=document_type)
        if latest is not None and latest.schema_json == stored:
            return Definition(latest, created=False)
        version = DocumentTypeVersion.objects.create(
            document_type=document_type,
            version=(latest.version + 1) if latest is not None else 1,
            schema_json=stored,
            created_by=created_by,
        )
        audit_record(
            tenant=tenant,
            actor=created_by,
            action="document_type.defined",
            object_type="document_type",
            object_id=f"{name}@{version.version}",
            data={"name": name, "version": version.version, "fields": len(custom.fields)},
        )
    return Definition(version, created=True)


def document_type_pin(*, document: Document) -> DocumentTypeVersion | None:
    """The version of its tenant's type the document is read with: the one it was read with
    before (a retry, a re-read), else the type's latest, pinned now. None for a §3.2 hint."""
    name = document.document_type_hint
    if not name or name in DOCUMENT_TYPES:
        return None
    reading = DocumentTypeReading.objects.select_related("version").filter(document=document).first()
    if reading is not None:
        return reading.version
    document_type = DocumentType.objects.filter(tenant_id=document.tenant_id, name=name).first()
    latest = document_type_latest(document_type=document_type) if document_type is not None else None
    if latest is None:
        return None
    try:
        with transaction.atomic():
            DocumentTypeReading.objects.create(document=document, version=latest)
    except IntegrityError:  # another worker pinned it first: theirs holds
        return DocumentTypeReading.objects.select_related("version").get(document=document).version
    return latest


def document_types_pin_classified(*, readings: Iterable[tuple[Any, DocumentTypeVersion]]) -> None:
    """Pin the version of a tenant's type that a classifier chose for each document (document id,
    version): the version its fields were read with, replacing a pin of an earlier reading."""
    rows = [
        DocumentTypeReading(document_id=document_id, version=version) for document_id, version in readings
    ]
    if rows:
        DocumentTypeReading.objects.bulk_create(
            rows, update_conflicts=True, unique_fields=["document"], update_fields=["version"]
        )
