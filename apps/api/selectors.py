"""The API's reads, every one scoped to the caller's tenant: another tenant's ids are not found."""

from __future__ import annotations

import datetime as dt
import uuid

from django.db.models import QuerySet

from apps.documents.models import Document
from apps.tenants.models import Tenant


def documents_of_tenant(*, tenant: Tenant) -> QuerySet[Document]:
    return Document.objects.filter(tenant=tenant)


def document_get_for_tenant(*, tenant: Tenant, document_id: uuid.UUID | str) -> Document | None:
    try:
        uuid.UUID(str(document_id))
    except ValueError:
        return None
    return documents_of_tenant(tenant=tenant).filter(pk=document_id).first()


def documents_filtered_for_tenant(
    *,
    tenant: Tenant,
    status: str = "",
    document_type: str = "",
    created_after: dt.datetime | None = None,
    created_before: dt.datetime | None = None,
) -> QuerySet[Document]:
    documents = documents_of_tenant(tenant=tenant)
    if status:
        documents = documents.filter(status=status)
    if document_type:
        documents = documents.filter(document_type=document_type)
    if created_after is not None:
        documents = documents.filter(created_at__gte=created_after)
    if created_before is not None:
        documents = documents.filter(created_at__lt=created_before)
    return documents
