"""Forgetting cases: on a person's erasure request, and after the tenant's retention period.

A case is one applicant's application, and everything on it is about that applicant: what they
declared, the integrator's reference, the callback URL, the checks and reasons, the salted hashes
of their document numbers (``CaseDocument``), the packets they uploaded (file name, each page's
cue, the parts), the review tasks with the operators' notes, and the ``case.decided`` webhook
deliveries (with their attempts), whose bodies hold every document's fields. Erasing a case
deletes all of it: the row, and by cascade its links, packets, review tasks and deliveries.

Which documents go with it is the caller's choice (``apps.documents.retention``): on a person's
request, every document of the case, since what an applicant submitted in their own case is theirs,
even a document no name search finds (a bill in a misspelt name, a statement of a joint account),
except one that is also in another applicant's case that stays (that case is someone else's, and
only the link to the erased case goes). After the retention period a case goes once it is older
than the period and none of its documents is kept any longer.

The audit trail keeps ``case.erased`` with the case's id and the reason, never a value. Other
applicants' cases may still name an erased case's id in a duplicate check's links (an id, no
personal data); the link then answers 404.
"""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Sequence

from django.contrib.auth.models import User
from django.db import transaction

from apps.audit.services import audit_record
from apps.cases.models import Case, CaseDocument
from apps.tenants.models import Tenant
from apps.webhooks.models import WebhookDelivery


def cases_erase(*, case_ids: Sequence[uuid.UUID | str], reason: str, actor: User | None = None) -> int:
    """Delete these cases with everything recorded about them (not their documents); each audited
    by id and reason. Returns how many were erased."""
    erased = 0
    for case_id in case_ids:
        with transaction.atomic():
            case = Case.objects.select_for_update().select_related("tenant").filter(pk=case_id).first()
            if case is None:
                continue  # erased meanwhile
            tenant, documents = case.tenant, case.case_documents.count()
            case.delete()  # links, packets, review tasks, case.decided deliveries and their attempts
            audit_record(
                tenant=tenant, actor=actor, action="case.erased", object_type="case", object_id=str(case_id),
                data={"reason": reason, "documents": documents},
            )  # fmt: skip
            erased += 1
    return erased


def case_documents_of(*, case_ids: Sequence[uuid.UUID | str]) -> list[uuid.UUID]:
    """The documents of these cases that no other case holds: what goes with them when a person is
    erased. A document also in a case outside ``case_ids`` stays (another applicant's)."""
    ids = list(case_ids)
    linked = set(CaseDocument.objects.filter(case_id__in=ids).values_list("document_id", flat=True))
    elsewhere = set(
        CaseDocument.objects.filter(document_id__in=linked)
        .exclude(case_id__in=ids)
        .values_list("document_id", flat=True)
    )
    return sorted(linked - elsewhere)


def case_deliveries_forget(*, document_ids: Sequence[uuid.UUID | str]) -> int:
    """Delete the ``case.decided`` deliveries of the cases holding these documents (about to be
    erased): each body holds every document's fields as they were sent. The cases stay."""
    deliveries = WebhookDelivery.objects.filter(case__case_documents__document_id__in=list(document_ids))
    deleted, _ = WebhookDelivery.objects.filter(pk__in=list(deliveries.values_list("pk", flat=True))).delete()
    return deleted


def cases_expired(*, tenant: Tenant, cutoff: dt.datetime) -> list[uuid.UUID]:
    """The tenant's cases opened before ``cutoff`` that no longer hold any document (their
    documents expired and were erased first): a case is kept as long as its newest document."""
    old = Case.objects.filter(tenant=tenant, created_at__lt=cutoff, case_documents__isnull=True)
    return list(old.values_list("pk", flat=True).order_by("created_at"))
