"""Writes on tenants' document types: defining one (a new version when its schema changed), and
pinning the version a document is read with."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction

from apps.audit.services import audit_record
from apps.doctypes.errors import AuthenticityPolicyInvalidError, DocumentTypeInvalidError
from apps.doctypes.models import AuthenticityPolicy, DocumentType, DocumentTypeReading, DocumentTypeVersion
from apps.doctypes.selectors import authenticity_default_types, document_type_latest
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
    the schema subset (engines.custom_types), and patterns both the linear-time matcher (RE2) and
    the model engine's grammar compiler (xgrammar) follow."""
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


def authenticity_policy_check(*, tenant: Tenant, document_types: Any) -> list[str]:
    """The policy's types, without repeats, in a stable order (the catalogue's, then the tenant's
    own by name), or ``AuthenticityPolicyInvalidError`` saying which names are unknown."""
    if not isinstance(document_types, list) or not all(isinstance(t, str) for t in document_types):
        raise AuthenticityPolicyInvalidError('document_types: a list of document type names: ["passport"]')
    wanted = set(document_types)
    own = set(
        DocumentType.objects.filter(tenant=tenant, name__in=wanted - set(DOCUMENT_TYPES)).values_list(
            "name", flat=True
        )
    )
    unknown = sorted(wanted - set(DOCUMENT_TYPES) - own)
    if unknown:
        raise AuthenticityPolicyInvalidError(
            f"unknown document types: {', '.join(unknown)} (neither built-in nor the tenant's own)"
        )
    return [t for t in DOCUMENT_TYPES if t in wanted] + sorted(own)


def authenticity_policy_set(
    *, tenant: Tenant, document_types: Any, actor: User | None = None
) -> AuthenticityPolicy:
    """The tenant's authenticity policy set to ``document_types`` (checked first, see
    :func:`authenticity_policy_check`), audited with what it was before. Applies to documents
    decided from then on."""
    types = authenticity_policy_check(tenant=tenant, document_types=document_types)
    with transaction.atomic():
        policy, created = AuthenticityPolicy.objects.select_for_update().get_or_create(
            tenant=tenant, defaults={"document_types": types}
        )
        before = list(authenticity_default_types()) if created else list(policy.document_types)
        if not created:
            if policy.document_types == types:
                return policy
            policy.document_types = types
            policy.save(update_fields=["document_types", "updated_at"])
        audit_record(
            tenant=tenant,
            actor=actor,
            action="authenticity_policy.changed",
            object_type="authenticity_policy",
            object_id=str(tenant.pk),
            data={"from": before, "to": types},
        )
    return policy
