"""Writes of cases: creating one with its documents (uploaded or by id), adding documents, and
evaluating it (checks, policy, decision, audit, webhook) whenever its documents are all read.

A document reaching a decision calls :func:`cases_reevaluate_for_documents` (from
``apps.documents.state``, once its transaction commits): that is how a case follows its documents
without polling. Everything here is idempotent: evaluating a case twice on the same facts
changes nothing and sends nothing the second time.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from apps.audit.services import audit_batch, audit_record
from apps.cases import fingerprints
from apps.cases.checks import checks_run
from apps.cases.checks.types import CaseFacts
from apps.cases.models import (
    Case,
    CaseDocument,
    CaseReviewTask,
    CaseStatus,
    CaseTaskOutcome,
    CaseTaskStatus,
)
from apps.cases.packets.uploads import (
    PreparedUpload,
    StoredUpload,
    packet_record,
    upload_prepare,
    upload_store,
)
from apps.cases.policy import CaseDecision, case_decision
from apps.cases.selectors import (
    case_blocklisted,
    case_document_facts,
    case_documents_in_flight,
    case_duplicates_find,
    case_policy_get,
    case_result_get,
    cases_of_documents,
)
from apps.documents.models import Document
from apps.documents.services import documents_prepared_together
from apps.documents.state import IN_FLIGHT
from apps.tenants.models import Tenant
from apps.webhooks.services import webhook_case_event

logger = logging.getLogger(__name__)

# The decision's outcome → the case's status.
STATUS_OF = {
    "approved": CaseStatus.APPROVED,
    "rejected": CaseStatus.REJECTED,
    "resubmission_requested": CaseStatus.RESUBMISSION_REQUESTED,
    "needs_review": CaseStatus.IN_REVIEW,
}
# The rule named when an operator decided a case in review.
OPERATOR_RULE = "operator"
# Final: nothing changes an approved or rejected case (a new one is opened instead).
CLOSED = frozenset({CaseStatus.APPROVED, CaseStatus.REJECTED})
DECLARED_FIELDS = (
    "full_name",
    "date_of_birth",
    "address_street",
    "address_street_2",
    "address_city",
    "address_region",
    "address_postal_code",
)


class CaseClosedError(Exception):
    """Documents were added to an approved or rejected case."""


@dataclass(frozen=True)
class SubmittedFile:
    name: str
    content: bytes


def _documents_link(case: Case, documents: Sequence[Document]) -> list[Document]:
    """Link the documents the case does not have yet, after its last; returns those added.

    The documents' rows are locked (in the pipeline's order) until the case commits: a document
    decided meanwhile either is seen decided here, or finds the committed link when its own hook
    runs, so no decision slips between the two and leaves the case waiting."""
    if any(d.tenant_id != case.tenant_id for d in documents):
        raise ValueError("a case holds only its own tenant's documents")
    list(Document.objects.select_for_update().filter(pk__in=[d.pk for d in documents]).order_by("pk"))
    have = set(CaseDocument.objects.filter(case=case).values_list("document_id", flat=True))
    last = CaseDocument.objects.filter(case=case).aggregate(last=Max("position"))["last"] or 0
    added: list[Document] = []
    for document in documents:
        if document.pk in have:
            continue
        have.add(document.pk)
        added.append(document)
        CaseDocument.objects.create(case=case, document=document, position=last + len(added))
    return added


def _uploads_prepare(tenant: Tenant, files: Sequence[SubmittedFile]) -> list[PreparedUpload]:
    """Each file checked and, for a packet, cut (``apps.cases.packets``): the slow part — PDF
    sandbox, rendering, OCR — done before the transaction, so no lock waits on it.
    ``UploadRejectedError`` for a file that cannot be a document, before anything is stored."""
    return [upload_prepare(tenant=tenant, content=f.content, original_name=f.name) for f in files]


def _uploads_store(tenant: Tenant, prepared: Sequence[PreparedUpload]) -> list[StoredUpload]:
    """Each prepared file as its documents (the same bytes again: the existing one): writes only."""
    return [upload_store(tenant=tenant, prepared=p) for p in prepared]


def _packets_record(case: Case, stored: Sequence[StoredUpload]) -> list[Document]:
    """Record the packets cut for ``case``; every stored document, in the order of the files."""
    for upload in stored:
        if upload.cut is not None:
            packet_record(case=case, cut=upload.cut)
    return [document for upload in stored for document in upload.documents]


def case_create(
    *,
    tenant: Tenant,
    external_reference: str = "",
    declared: Mapping[str, str] | None = None,
    documents: Sequence[Document] = (),
    files: Sequence[SubmittedFile] = (),
    callback_url: str = "",
    case_date: dt.date | None = None,
) -> Case:
    """A new case for one applicant, with existing documents and uploaded files; evaluated at once
    when all of them are already read. The files are checked and cut first, then one short
    transaction writes everything, its audit events appended together at its end (the chain's
    lock held from there to the commit only)."""
    kept = {k: str(v) for k, v in (declared or {}).items() if k in DECLARED_FIELDS and v}
    prepared = _uploads_prepare(tenant, files)
    with documents_prepared_together(), transaction.atomic(), audit_batch():
        uploaded = _uploads_store(tenant, prepared)
        case = Case.objects.create(
            tenant=tenant,
            external_reference=external_reference,
            declared=kept,
            callback_url=callback_url,
            case_date=case_date or timezone.localdate(),
        )
        added = _documents_link(case, [*documents, *_packets_record(case, uploaded)])
        audit_record(
            tenant=tenant, actor=None, action="case.created", object_type="case", object_id=str(case.pk),
            data={"documents": [str(d.pk) for d in added], "declared_fields": sorted(kept)},
        )  # fmt: skip
        _evaluate_locked(case)
    return case


def case_documents_add(
    *, case: Case, documents: Sequence[Document] = (), files: Sequence[SubmittedFile] = ()
) -> Case:
    """More documents for an open case (or one waiting for review or resubmission, which opens
    again); ``CaseClosedError`` for an approved or rejected one. As :func:`case_create`: files
    checked and cut first, then one short transaction of writes."""
    if case.status in CLOSED:  # before the files' slow checks; asked again under the case's lock
        raise CaseClosedError(f"case {case.pk} is {case.status}")
    prepared = _uploads_prepare(case.tenant, files)
    with documents_prepared_together(), transaction.atomic(), audit_batch():
        locked = Case.objects.select_for_update(of=("self",)).select_related("tenant").get(pk=case.pk)
        if locked.status in CLOSED:
            raise CaseClosedError(f"case {locked.pk} is {locked.status}")
        uploaded = _uploads_store(locked.tenant, prepared)
        added = _documents_link(locked, [*documents, *_packets_record(locked, uploaded)])
        if added:
            audit_record(
                tenant=locked.tenant, actor=None, action="case.documents_added", object_type="case",
                object_id=str(locked.pk), data={"documents": [str(d.pk) for d in added]},
            )  # fmt: skip
            _status_set(locked, CaseStatus.OPEN)
            locked.decision = locked.decision_rule = ""
            locked.reasons = []
            locked.save(update_fields=["decision", "decision_rule", "reasons", "updated_at"])
        _evaluate_locked(locked)
    return locked


def case_evaluate(*, case_id: uuid.UUID | str) -> Case | None:
    """Evaluate a case now, if its documents are all read (else it keeps waiting)."""
    with transaction.atomic():
        locked = (
            Case.objects.select_for_update(of=("self",)).select_related("tenant").filter(pk=case_id).first()
        )
        if locked is not None:
            _evaluate_locked(locked)
    return locked


def cases_reevaluate_for_documents(*, document_ids: Sequence[uuid.UUID | str]) -> list[uuid.UUID]:
    """The hook of documents reaching a decision (``apps.documents.state``, after the commit):
    evaluate every case that holds any of them. Returns the cases' ids."""
    case_ids = cases_of_documents(document_ids=document_ids)
    for case_id in case_ids:
        case_evaluate(case_id=case_id)
    return case_ids


def cases_reconcile(*, now: dt.datetime | None = None) -> list[uuid.UUID]:
    """Evaluate the open cases whose documents are all decided but that were left waiting (the
    post-commit hook of their last document was lost: a worker killed between its commit and the
    hook); the periodic reconcile task calls this. Returns the cases evaluated."""
    cutoff = (now or timezone.now()) - dt.timedelta(seconds=settings.DOCINTEL_STUCK_AFTER_S)
    left = (
        Case.objects.filter(status=CaseStatus.OPEN, updated_at__lt=cutoff, case_documents__isnull=False)
        .exclude(case_documents__document__status__in=IN_FLIGHT)
        .values_list("pk", flat=True)
        .distinct()[:500]
    )
    evaluated = list(left)
    for case_id in evaluated:
        case_evaluate(case_id=case_id)
    if evaluated:
        logger.info("reconciler evaluated %d cases left open", len(evaluated))
    return evaluated


def _status_set(case: Case, target: str, actor: User | None = None) -> None:
    """The case's status, audited; the one place it changes. Approved and rejected are final."""
    if case.status == target:
        return
    if case.status in CLOSED:
        raise CaseClosedError(f"case {case.pk}: {case.status} -> {target} is not allowed")
    source, case.status = case.status, target
    case.save(update_fields=["status", "updated_at"])
    audit_record(
        tenant=case.tenant, actor=actor, action="case.status_changed", object_type="case",
        object_id=str(case.pk), data={"from": source, "to": target},
    )  # fmt: skip
    _review_task_sync(case)


def _facts(case: Case) -> CaseFacts:
    """The case's facts, with the duplicate keys of its documents written to their links first."""
    salt = str(case.tenant_id)
    keyed = []
    for link, facts in case_document_facts(case=case):
        number, barcode = (
            fingerprints.number_key(facts, salt=salt),
            fingerprints.barcode_key(facts, salt=salt),
        )
        if (link.number_key, link.barcode_key) != (number, barcode):
            link.number_key, link.barcode_key = number, barcode
            link.save(update_fields=["number_key", "barcode_key"])
        keyed.append((facts, number, barcode))
    documents = tuple(facts for facts, _, _ in keyed)
    return CaseFacts(
        case_date=case.case_date,
        documents=documents,
        declared=dict(case.declared),
        duplicates=case_duplicates_find(case=case, keys=keyed),
        blocklisted=case_blocklisted(case=case, documents=documents),
    )


def _evaluate_locked(case: Case) -> None:
    """Checks, decision and status of the caller's locked case; the webhook when the decision
    changed. A closed case, or one whose documents are still being read, is left as it is."""
    if case.status in CLOSED or case_documents_in_flight(case=case):
        return
    policy = case_policy_get(tenant=case.tenant)
    checks = checks_run(_facts(case), policy)
    decision = case_decision(checks, policy)
    stored = [
        {"name": c.name, "passed": c.passed, "detail": c.detail, "links": list(c.links)}
        | ({"score": c.score} if c.score is not None else {})
        for c in checks
    ]
    changed = (case.decision, case.decision_rule, case.checks) != (decision.outcome, decision.rule, stored)
    _duplicates_tell(before=case.checks, after=stored)
    case.checks, case.evaluated_at = stored, timezone.now()
    case.decision, case.decision_rule, case.reasons = decision.outcome, decision.rule, list(decision.reasons)
    if changed:
        case.decided_at = case.evaluated_at
    case.save(
        update_fields=[
            "checks",
            "evaluated_at",
            "decision",
            "decision_rule",
            "reasons",
            "decided_at",
            "updated_at",
        ]
    )
    _status_set(case, STATUS_OF[decision.outcome])
    _review_task_sync(case)
    if changed:
        _decided(case, decision)


def _review_task_sync(case: Case) -> None:
    """A case in review waits in the case queue (one waiting task); a case that left review by
    itself (new documents, a document decided) takes its waiting task out, as withdrawn."""
    waiting = CaseReviewTask.objects.filter(case=case).exclude(status=CaseTaskStatus.DONE).first()
    if case.status == CaseStatus.IN_REVIEW and waiting is None:
        task = CaseReviewTask.objects.create(tenant=case.tenant, case=case, reasons=list(case.reasons))
        audit_record(
            tenant=case.tenant, actor=None, action="case.review_queued", object_type="case",
            object_id=str(case.pk), data={"task": str(task.pk), "rule": case.decision_rule},
        )  # fmt: skip
    elif case.status == CaseStatus.IN_REVIEW and waiting is not None:
        if waiting.reasons != list(case.reasons):
            waiting.reasons = list(case.reasons)
            waiting.save(update_fields=["reasons", "updated_at"])
    elif waiting is not None:
        waiting.status, waiting.outcome, waiting.completed_at = (
            CaseTaskStatus.DONE, CaseTaskOutcome.WITHDRAWN, timezone.now(),
        )  # fmt: skip
        waiting.save(update_fields=["status", "outcome", "completed_at", "updated_at"])


def case_operator_decide(*, case: Case, outcome: str, actor: User, task_id: str) -> None:
    """An operator's decision on the caller's locked case in review (``apps.cases.review``): the
    case's decision and status, audited with the operator, and ``case.decided`` sent."""
    decision = CaseDecision(outcome=outcome, rule=OPERATOR_RULE, reasons=tuple(case.reasons))
    case.decision, case.decision_rule, case.decided_at = outcome, OPERATOR_RULE, timezone.now()
    case.save(update_fields=["decision", "decision_rule", "decided_at", "updated_at"])
    _status_set(case, STATUS_OF[outcome], actor=actor)
    _decided(case, decision, actor=actor, task_id=task_id)


def _linked(checks: list[dict[str, Any]]) -> set[str]:
    return {link for check in checks for link in check.get("links", ())}


def _duplicates_tell(*, before: list[dict[str, Any]], after: list[dict[str, Any]]) -> None:
    """Cases this evaluation newly found sharing a document with this one are evaluated again once
    it commits, so the earlier applicant's case (when it is not closed) links back to this one.
    Each side tells only what is new to it, so the two evaluations end there."""
    found = sorted(_linked(after) - _linked(before))
    if found:
        transaction.on_commit(lambda: [case_evaluate(case_id=case_id) for case_id in found], robust=True)


def _decided(case: Case, decision: CaseDecision, actor: User | None = None, task_id: str = "") -> None:
    """Audit the new decision (check names only: details may grow, values never belong here) and
    send ``case.decided`` to the case's callback URL once this commits."""
    audit_record(
        tenant=case.tenant, actor=actor, action="case.decided", object_type="case", object_id=str(case.pk),
        data={
            "decision": decision.outcome,
            "rule": decision.rule,
            "failed_checks": [c["name"] for c in case.checks if not c["passed"]],
        } | ({"task": task_id} if task_id else {}),
    )  # fmt: skip
    if case.callback_url:
        body = json.dumps(case_result_get(case=case), ensure_ascii=False, separators=(",", ":"))
        webhook_case_event(case_id=case.pk, tenant_id=case.tenant_id, url=case.callback_url, body=body)
    logger.info("case %s decided: %s by %s", case.pk, decision.outcome, decision.rule)
