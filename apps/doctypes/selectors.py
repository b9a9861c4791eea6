"""Reads of tenants' document types, every one scoped to a tenant (another tenant's type is not found)."""

from __future__ import annotations

import tomllib
from collections import defaultdict
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any

from django.db.models import Exists, OuterRef, QuerySet

from apps.doctypes.models import AuthenticityPolicy, DocumentType, DocumentTypeReading, DocumentTypeVersion
from apps.documents.models import Document
from apps.tenants.models import Tenant
from engines.custom_types import MAX_CANDIDATES, CustomSchema, TypeCandidate, parse_schema
from engines.spec import DOCUMENT_TYPES


def document_types_of_tenant(*, tenant: Tenant) -> QuerySet[DocumentType]:
    return DocumentType.objects.filter(tenant=tenant).prefetch_related("versions")


def document_type_names(*, tenant: Tenant) -> list[str]:
    """The names of the tenant's types that have a version (that an upload may name), in order."""
    return list(
        DocumentType.objects.filter(tenant=tenant, versions__isnull=False)
        .distinct()
        .order_by("name")
        .values_list("name", flat=True)
    )


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


def document_type_candidates(*, tenant_ids: Iterable[Any]) -> dict[Any, tuple[DocumentTypeVersion, ...]]:
    """The latest version of each of these tenants' types, by tenant (in the types' name order, at
    most MAX_CANDIDATES each): the types a classifier may choose for their documents. One query."""
    newer = DocumentTypeVersion.objects.filter(
        document_type=OuterRef("document_type"), version__gt=OuterRef("version")
    )
    latest = (
        DocumentTypeVersion.objects.filter(document_type__tenant_id__in=list(tenant_ids))
        .exclude(Exists(newer))
        .select_related("document_type")
        .order_by("document_type__tenant_id", "document_type__name")
    )
    by_tenant: dict[Any, list[DocumentTypeVersion]] = defaultdict(list)
    for version in latest:
        by_tenant[version.document_type.tenant_id].append(version)
    return {tenant_id: tuple(versions[:MAX_CANDIDATES]) for tenant_id, versions in by_tenant.items()}


def version_candidate(*, version: DocumentTypeVersion) -> TypeCandidate:
    """A version as the classifier is offered it: its type's name and description, its schema."""
    return TypeCandidate(
        name=version.document_type.name,
        description=version.document_type.description,
        version=version.version,
        schema=version.schema,
    )


def document_reading(*, document: Document) -> DocumentTypeVersion | None:
    """The version of its tenant's type the document was read with (None: a §3.2 type): the type
    its upload named, or the one a classifier chose from the tenant's types."""
    if not any(t and t not in DOCUMENT_TYPES for t in (document.document_type_hint, document.document_type)):
        return None  # neither named nor classified as a tenant's type: no query
    reading = (
        DocumentTypeReading.objects.select_related("version__document_type").filter(document=document).first()
    )
    return reading.version if reading is not None else None


def document_custom_schema(*, document: Document) -> CustomSchema | None:
    version = document_reading(document=document)
    return version_schema(version=version) if version is not None else None


# --- the authenticity policy --------------------------------------------------------------------

AUTHENTICITY_KNOWLEDGE = Path(__file__).with_name("knowledge") / "authenticity.toml"


@cache
def authenticity_default_types() -> tuple[str, ...]:
    """The document types of a tenant without an authenticity policy, in the catalogue's order:
    those of ``knowledge/authenticity.toml``'s families, and its types besides."""
    from engines.spec import CATALOGUE

    default = tomllib.loads(AUTHENTICITY_KNOWLEDGE.read_text(encoding="utf-8"))["default"]
    families, named = set(default.get("families", ())), set(default.get("document_types", ()))
    unknown = sorted(named - set(DOCUMENT_TYPES)) + sorted(
        families - {s.family for s in CATALOGUE.types.values()}
    )
    if unknown:
        raise ValueError(f"{AUTHENTICITY_KNOWLEDGE.name}: unknown types or families: {', '.join(unknown)}")
    return tuple(name for name, spec in CATALOGUE.types.items() if spec.family in families or name in named)


def authenticity_types_of(*, policy: AuthenticityPolicy | None) -> frozenset[str]:
    """The types a tenant's policy turns the signals on for (``None``: it has none, the default)."""
    return frozenset(policy.document_types if policy is not None else authenticity_default_types())


def authenticity_policy_get(*, tenant: Tenant) -> AuthenticityPolicy | None:
    return AuthenticityPolicy.objects.filter(tenant=tenant).first()


def authenticity_policy_of(*, tenant: Tenant) -> AuthenticityPolicy | None:
    """The tenant's policy as its row holds it (``select_related("tenant__authenticity_policy")``
    read it with the document: no query then), None when it has none."""
    return getattr(tenant, "authenticity_policy", None)
