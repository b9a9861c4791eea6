"""Forgetting documents and what was made of them: after the tenant's retention period, or on a
person's request.

Erasing a document deletes its row and everything made from it (pages, extractions and fields,
review tasks with their corrections and notes, webhook deliveries with the results they carried,
batch entries with the file name), the ``case.decided`` deliveries of the cases holding it (their
bodies carry its fields), then its encrypted blobs. The row holds the only copy of the document's
wrapped data key, so once it is gone the blobs are unreadable even if a storage backup still holds
them (crypto-shredding); the blobs are deleted after the commit.

A person's erasure request finds the tenant's documents whose fields name the person, and the
cases holding them or declaring the person's name; it erases those cases whole
(``apps.cases.erasure``: declared data, packets, review notes, deliveries) with every document of
theirs that no other applicant's case holds, and the names of refused files of the same
submissions or mentioning the person (``apps.batches.erasure``). Retention erases documents older
than the tenant's period, then the cases and batches older than it that hold no document any more,
and the refused file names of old batches.

Kept, deliberately: the audit trail, append-only, whose events carry ids, actions, states, field
*names* and file hashes, never values (the erasure itself is audited the same way: which
documents and cases, why, and for a person's request by which kinds of criteria, never the name
or date searched); idempotency keys, which name a resource by id and expire by themselves; and
the tenant's blocklist of document numbers, the tenant's own fraud record, which an operator
edits.
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
from apps.batches.erasure import batch_refusals_forget_person, batches_expire
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
    from apps.cases.erasure import case_deliveries_forget  # cases depend on documents

    names = [document.blob_name]
    for page in Page.objects.filter(document=document):
        names += [n for n in (page.blob_name, page.text_blob_name) if n]
    with transaction.atomic():
        locked = Document.objects.select_for_update().filter(pk=document.pk).first()
        if locked is None:
            return  # erased meanwhile
        BatchDocument.objects.filter(document=locked).delete()  # holds the file name (PROTECT)
        case_deliveries_forget(document_ids=[locked.pk])
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
        transaction.on_commit(lambda: _blobs_delete(str(document.pk), names))


def _blobs_delete(document_id: str, names: list[str]) -> None:
    """The blobs the rows named, then any other the document's folder still holds."""
    for name in names:
        blobs.blob_delete(name=name)
    for name in blobs.document_blob_names(document_id):
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
    now = now or timezone.now()
    expired = documents_expired(now=now)
    if not dry_run:
        for document in expired:
            document_erase(document=document, reason=RETENTION)
        if expired:
            logger.info("retention: erased %d expired documents", len(expired))
        _cases_and_batches_expire(now)
    return [str(d.pk) for d in expired]


def _cases_and_batches_expire(now: dt.datetime) -> None:
    """Cases and batches are kept no longer than their documents: once a tenant's old ones hold
    none, they go; old batches' refused file names go at once."""
    from apps.cases.erasure import cases_erase, cases_expired  # cases depend on documents

    cases = batches = 0
    for tenant in Tenant.objects.all():
        days = retention_days(tenant)
        if days > 0:
            cutoff = now - dt.timedelta(days=days)
            cases += cases_erase(case_ids=cases_expired(tenant=tenant, cutoff=cutoff), reason=RETENTION)
            batches += batches_expire(tenant=tenant, cutoff=cutoff)
    if cases or batches:
        logger.info("retention: erased %d expired cases and %d emptied batches", cases, batches)


@dataclass
class PersonErasure:
    request_id: str
    document_ids: list[str] = field(default_factory=list)
    case_ids: list[str] = field(default_factory=list)


def person_erase(
    *,
    tenant: Tenant,
    name: str,
    date_of_birth: str = "",
    document_number: str = "",
    actor: User | None = None,
    dry_run: bool = False,
) -> PersonErasure:
    """Erase everything of ``tenant`` about one person (a data subject's erasure request): the
    documents naming them, their cases with every document of those no other case holds, and the
    refused file names of those submissions or mentioning them."""
    from apps.cases.erasure import case_documents_of, cases_erase  # cases depend on documents
    from apps.cases.selectors import cases_about_person

    named = documents_about_person(
        tenant=tenant, name=name, date_of_birth=date_of_birth, document_number=document_number
    )
    cases = cases_about_person(
        tenant=tenant, name=name, date_of_birth=date_of_birth, document_ids=[str(d.pk) for d in named]
    )
    of_cases = Document.objects.filter(tenant=tenant, pk__in=case_documents_of(case_ids=cases))
    documents = sorted({*named, *of_cases}, key=lambda d: (d.created_at, str(d.pk)))
    erasure = PersonErasure(
        request_id=str(uuid.uuid4()),
        document_ids=[str(d.pk) for d in documents],
        case_ids=[str(c) for c in cases],
    )
    if dry_run:
        return erasure
    batch_refusals_forget_person(
        tenant=tenant, document_ids=erasure.document_ids, name=name, document_number=document_number
    )
    cases_erase(case_ids=cases, reason=REQUEST, actor=actor)
    for document in documents:
        document_erase(document=document, reason=REQUEST, actor=actor)
    criteria = [c for c, given in (("name", name), ("date_of_birth", date_of_birth)) if given]
    if document_number:
        criteria.append("document_number")
    audit_record(
        tenant=tenant,
        actor=actor,
        action="person.erased",
        object_type="erasure_request",
        object_id=erasure.request_id,
        data={"documents": erasure.document_ids, "cases": erasure.case_ids, "criteria": criteria},
    )
    return erasure
