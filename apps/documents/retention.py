"""Forgetting documents: after the tenant's retention period, or on a person's request.

Erasing a document deletes its row and everything made from it (pages, extractions and fields,
review tasks with their corrections and notes, webhook deliveries with the results they carried,
batch entries with the file name), then its encrypted blobs. (Idempotency keys name the
document by id only, and expire by themselves.) The row holds the
only copy of the document's wrapped data key, so once it is gone the blobs are unreadable even if
a storage backup still holds them (crypto-shredding); the blobs are deleted after the commit.

The audit trail is append-only and keeps its events about the document: they carry ids, actions,
states and field *names*, never values, so they hold no personal data. The erasure itself is
audited the same way: which document, why, and for a person's request how many documents and by
which kinds of criteria, never the name or date that was searched. What applicants declared on
KYC cases (``Case.declared``) is cleared with them: on a person's request for the cases holding
their documents or declaring their name, and after the retention period for older cases.
"""

from __future__ import annotations

import datetime as dt
import logging
import uuid
from dataclasses import dataclass, field

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from apps.audit.services import audit_record
from apps.batches.models import BatchDocument
from apps.documents import blobs
from apps.documents.models import Document, Page
from apps.documents.selectors import documents_about_person
from apps.documents.state import IN_FLIGHT
from apps.tenants.models import Tenant

logger = logging.getLogger(__name__)

RETENTION = "retention"
REQUEST = "request"


def document_erase(*, document: Document, reason: str, actor: User | None = None) -> None:
    """Delete the document, its derivatives and its blobs; audit that it happened (no PII)."""
    names = [document.blob_name]
    for page in Page.objects.filter(document=document):
        names += [n for n in (page.blob_name, page.text_blob_name) if n]
    with transaction.atomic():
        locked = Document.objects.select_for_update().filter(pk=document.pk).first()
        if locked is None:
            return  # erased meanwhile
        BatchDocument.objects.filter(document=locked).delete()  # holds the file name (PROTECT)
        pages = locked.pages.count()
        locked.delete()
        audit_record(
            tenant=locked.tenant,
            actor=actor,
            action="document.erased",
            object_type="document",
            object_id=str(document.pk),
            data={"reason": reason, "pages": pages},
        )
        transaction.on_commit(lambda: _blobs_delete(names))


def _blobs_delete(names: list[str]) -> None:
    for name in names:
        blobs.blob_delete(name=name)


def retention_days(tenant: Tenant) -> int:
    return settings.DOCINTEL_RETENTION_DAYS if tenant.retention_days is None else tenant.retention_days


def documents_expired(*, now: dt.datetime | None = None) -> list[Document]:
    """Documents uploaded longer ago than their tenant keeps them, and no longer being processed."""
    now = now or timezone.now()
    expired: list[Document] = []
    for tenant in Tenant.objects.all():
        days = retention_days(tenant)
        if days <= 0:
            continue
        cutoff = now - dt.timedelta(days=days)
        expired += list(
            Document.objects.filter(tenant=tenant, created_at__lt=cutoff)
            .exclude(status__in=IN_FLIGHT)
            .select_related("tenant")
            .order_by("created_at")
        )
    return expired


def documents_purge_expired(*, now: dt.datetime | None = None, dry_run: bool = False) -> list[str]:
    """Erase every expired document (``purge_expired``, scheduled); the ids erased (or that would be)."""
    expired = documents_expired(now=now)
    if not dry_run:
        _cases_declared_expire(now or timezone.now())
        for document in expired:
            document_erase(document=document, reason=RETENTION)
        if expired:
            logger.info("retention: erased %d expired documents", len(expired))
    return [str(d.pk) for d in expired]


def _cases_declared_expire(now: dt.datetime) -> None:
    """What applicants declared on KYC cases is kept no longer than their documents."""
    from apps.cases.services import cases_forget_expired  # cases depend on documents

    for tenant in Tenant.objects.all():
        days = retention_days(tenant)
        if days > 0:
            cases_forget_expired(tenant=tenant, cutoff=now - dt.timedelta(days=days))


@dataclass
class PersonErasure:
    request_id: str
    document_ids: list[str] = field(default_factory=list)


def person_erase(
    *,
    tenant: Tenant,
    name: str,
    date_of_birth: str = "",
    document_number: str = "",
    actor: User | None = None,
    dry_run: bool = False,
) -> PersonErasure:
    """Erase every document of ``tenant`` about one person (a data subject's erasure request)."""
    documents = documents_about_person(
        tenant=tenant, name=name, date_of_birth=date_of_birth, document_number=document_number
    )
    erasure = PersonErasure(request_id=str(uuid.uuid4()), document_ids=[str(d.pk) for d in documents])
    if dry_run:
        return erasure
    from apps.cases.selectors import cases_about_person  # cases depend on documents
    from apps.cases.services import cases_declared_forget

    cases = cases_about_person(
        tenant=tenant, name=name, date_of_birth=date_of_birth, document_ids=erasure.document_ids
    )
    for document in documents:
        document_erase(document=document, reason=REQUEST, actor=actor)
    cases_declared_forget(case_ids=cases, reason=REQUEST, actor=actor)
    criteria = [c for c, given in (("name", name), ("date_of_birth", date_of_birth)) if given]
    if document_number:
        criteria.append("document_number")
    audit_record(
        tenant=tenant,
        actor=actor,
        action="person.erased",
        object_type="erasure_request",
        object_id=erasure.request_id,
        data={"documents": erasure.document_ids, "criteria": criteria},
    )
    return erasure
