"""Reads of cases, always scoped to one tenant: another tenant's case is not found, and another
tenant's documents are never looked at (not even as duplicates)."""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from django.db.models import Q, QuerySet
from django.urls import reverse

from apps.cases.checks.types import DocumentFacts, DuplicateHit, Policy
from apps.cases.fingerprints import blocked
from apps.cases.models import (
    BlockedDocumentNumber,
    Case,
    CaseDocument,
    CasePacket,
    CasePolicy,
    CaseReviewTask,
    CaseTaskStatus,
)
from apps.documents.models import AdvisoryState, Document
from apps.documents.selectors import document_latest_extraction, document_result_get
from apps.documents.state import IN_FLIGHT
from apps.tenants.models import Tenant


def cases_of_tenant(*, tenant: Tenant) -> QuerySet[Case]:
    return Case.objects.filter(tenant=tenant)


def case_get_for_tenant(*, tenant: Tenant, case_id: uuid.UUID | str) -> Case | None:
    """None for a malformed id, a missing one and another tenant's: callers answer 404 to all."""
    try:
        uuid.UUID(str(case_id))
    except ValueError:
        return None
    return cases_of_tenant(tenant=tenant).filter(pk=case_id).first()


def case_policy_get(*, tenant: Tenant) -> Policy:
    """The tenant's policy, or the defaults of ``knowledge/rules.toml`` when it has none."""
    row = CasePolicy.objects.filter(tenant=tenant).first()
    if row is None:
        return Policy()
    return Policy(
        required_document_types=tuple(tuple(group) for group in row.required_document_types),
        recency_days=row.recency_days,
        minimum_age=row.minimum_age,
        accept_expired=row.accept_expired,
        name_match_threshold=row.name_match_threshold,
        maker_checker=row.maker_checker,
    )


def case_links(*, case: Case) -> list[CaseDocument]:
    return list(CaseDocument.objects.filter(case=case).select_related("document").order_by("position"))


def case_documents_in_flight(*, case: Case) -> bool:
    """Whether any document of the case is still being read (the case waits for it)."""
    return CaseDocument.objects.filter(case=case, document__status__in=IN_FLIGHT).exists()


def case_advisory_pending(*, case: Case) -> int:
    """How many of the case's documents still wait for their advisory authenticity signals
    (computed after each document's decision, apps.documents.advisory; they never change it)."""
    return CaseDocument.objects.filter(case=case, document__advisory_state=AdvisoryState.PENDING).count()


def cases_of_documents(*, document_ids: Sequence[uuid.UUID | str]) -> list[uuid.UUID]:
    """The ids of the cases holding any of these documents (any tenant's: they are the documents' own)."""
    if not document_ids:
        return []
    links = CaseDocument.objects.filter(document_id__in=list(document_ids)).order_by("case_id")
    return list(links.values_list("case_id", flat=True).distinct())


def document_label(document: Document, position: int) -> str:
    """How checks name a document: its type and place in the case, never its content."""
    return f"{document.document_type or 'unclassified document'} (document {position})"


def case_document_facts(*, case: Case) -> list[tuple[CaseDocument, DocumentFacts]]:
    """Each document of the case with the fields of its latest extraction (as corrected in review)."""
    found = []
    for link in case_links(case=case):
        document = link.document
        extraction = document_latest_extraction(document=document)
        rows = list(extraction.fields.all()) if extraction is not None else []
        found.append(
            (
                link,
                DocumentFacts(
                    label=document_label(document, link.position),
                    document_type=document.document_type,
                    status=document.status,
                    fields={f.name: f.value for f in rows if f.value},
                    sources={f.name: f.source for f in rows if f.value},
                    document_id=str(document.pk),
                    sha256=document.sha256,
                ),
            )
        )
    return found


def _other_applicants(case: Case) -> QuerySet[CaseDocument]:
    """Links of the tenant's other applicants' cases: not this case, nor one with its reference."""
    others = CaseDocument.objects.filter(case__tenant_id=case.tenant_id).exclude(case_id=case.pk)
    if case.external_reference:
        others = others.exclude(case__external_reference=case.external_reference)
    return others


def case_duplicates_find(
    *, case: Case, keys: Sequence[tuple[DocumentFacts, str, str]]
) -> tuple[DuplicateHit, ...]:
    """Documents of this case also in another applicant's case of the same tenant: the same file,
    the same identity document number (``keys``: each document with its number and barcode keys,
    ``apps.cases.fingerprints``), or the same barcode."""
    by_document = {facts.document_id: facts for facts, _, _ in keys}
    by_number = {number: facts for facts, number, _ in keys if number}
    by_barcode = {barcode: facts for facts, _, barcode in keys if barcode}
    matches = _other_applicants(case).filter(
        Q(document_id__in=list(by_document))
        | Q(number_key__in=list(by_number))
        | Q(barcode_key__in=list(by_barcode))
    )
    hits = set()
    for document_id, number, barcode, other_case in matches.values_list(
        "document_id", "number_key", "barcode_key", "case_id"
    ):
        if str(document_id) in by_document:
            hits.add(DuplicateHit("file", by_document[str(document_id)].label, str(other_case)))
        if number in by_number:
            hits.add(DuplicateHit("document_number", by_number[number].label, str(other_case)))
        if barcode in by_barcode:
            hits.add(DuplicateHit("barcode", by_barcode[barcode].label, str(other_case)))
    return tuple(sorted(hits, key=lambda h: (h.kind, h.label, h.case_id)))


def case_blocklisted(*, case: Case, documents: Sequence[DocumentFacts]) -> tuple[str, ...]:
    """Labels of the documents whose number is on the tenant's blocklist."""
    numbered = [d for d in documents if d.fields.get("document_number")]
    if not numbered:
        return ()
    entries = BlockedDocumentNumber.objects.filter(tenant_id=case.tenant_id).values_list(
        "document_number", "document_type", "issuing_country"
    )
    return tuple(
        d.label
        for d in numbered
        if any(blocked(d, number=n, document_type=t, issuer=c) for n, t, c in entries)
    )


def case_url(case_id: uuid.UUID | str) -> str:
    return reverse("api:case", kwargs={"case_id": case_id})


def _check_view(check: Mapping[str, Any]) -> dict[str, Any]:
    view = {"name": check["name"], "passed": check["passed"], "detail": check["detail"]}
    view["links"] = [case_url(case_id) for case_id in check.get("links", [])]
    if check.get("score") is not None:
        view["score"] = check["score"]
    return view


def case_result_get(*, case: Case) -> dict[str, Any]:
    """The case as the API and its webhook show it: its status and decision, each check, and each
    document's §3.1 result. URLs are paths; the API makes them absolute."""
    return {
        "id": str(case.pk),
        "url": case_url(case.pk),
        "external_reference": case.external_reference,
        "status": case.status,
        "decision": case.decision or None,
        "decision_rule": case.decision_rule or None,
        "reasons": list(case.reasons),
        "case_date": case.case_date.isoformat(),
        "checks": [_check_view(c) for c in case.checks],
        "documents": [document_result_get(document=link.document) for link in case_links(case=case)],
        "advisory_pending": case_advisory_pending(case=case),
        "created_at": case.created_at.isoformat(),
    }


def case_review_tasks_waiting(*, tenant: Tenant) -> QuerySet[CaseReviewTask]:
    """The case queue: the tenant's cases waiting for a person, oldest first."""
    return (
        CaseReviewTask.objects.filter(tenant=tenant)
        .exclude(status=CaseTaskStatus.DONE)
        .select_related("case", "maker")
        .order_by("created_at")
    )


def case_review_task_of(*, case: Case) -> CaseReviewTask | None:
    """The case's waiting task, else its latest one (None when it never went to review)."""
    tasks = CaseReviewTask.objects.filter(case=case).select_related("maker", "completed_by")
    return tasks.exclude(status=CaseTaskStatus.DONE).first() or tasks.order_by("-created_at").first()


def case_review_next(
    *, tenant: Tenant, user_id: int, after: uuid.UUID | None = None
) -> CaseReviewTask | None:
    """The oldest waiting task the user may decide: not one they approved as its maker."""
    waiting = case_review_tasks_waiting(tenant=tenant).exclude(maker_id=user_id)
    if after is not None:
        waiting = waiting.exclude(case_id=after)
    return waiting.first()


def case_packets(*, case: Case) -> list[CasePacket]:
    return list(CasePacket.objects.filter(case=case).order_by("created_at"))


def cases_about_person(
    *, tenant: Tenant, name: str, date_of_birth: str = "", document_ids: Sequence[str] = ()
) -> list[uuid.UUID]:
    """The tenant's cases holding any of ``document_ids``, or whose declared name (and date of
    birth, when given) is the person's: what a person's erasure clears."""
    holding = set(
        CaseDocument.objects.filter(case__tenant=tenant, document_id__in=list(document_ids)).values_list(
            "case_id", flat=True
        )
    )
    wanted = " ".join(name.casefold().split())
    for case_id, declared in (
        cases_of_tenant(tenant=tenant).exclude(declared={}).values_list("pk", "declared")
    ):
        same_name = bool(wanted) and " ".join(str(declared.get("full_name", "")).casefold().split()) == wanted
        if same_name and (not date_of_birth or declared.get("date_of_birth") == date_of_birth):
            holding.add(case_id)
    return sorted(holding)
