"""Operators deciding cases in review: approve, reject or ask the applicant for other documents.

A case reaches review when a check sends it there (``apps.cases.services`` queues a
:class:`~apps.cases.models.CaseReviewTask`); the case queue is the tenant's waiting tasks, oldest
first. Maker-checker applies per the tenant's case policy (``CasePolicy.maker_checker``) as it
does to document review: an approval is first a maker's, and a second, different operator's
approval decides. A rejection or a resubmission request decides at once (refusing is never
less safe). Every decision is audited with the operator; notes stay on the task, never in logs.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from apps.audit.services import audit_record
from apps.cases.models import Case, CaseReviewTask, CaseStatus, CaseTaskOutcome, CaseTaskStatus
from apps.cases.selectors import case_policy_get
from apps.cases.services import case_operator_decide
from apps.review.errors import ReviewPermissionError
from apps.review.permissions import REVIEWER_ROLES, require_role

DECISIONS = (CaseTaskOutcome.APPROVED, CaseTaskOutcome.REJECTED, CaseTaskOutcome.RESUBMISSION_REQUESTED)


class CaseReviewError(Exception):
    """A decision that cannot be taken now; ``code`` is stable (the views map it to a status)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class CaseReviewResult:
    task: CaseReviewTask
    final: bool  # False: a maker's approval, waiting for a checker


def case_review_decide(
    *, task: CaseReviewTask, user: User, decision: str, note: str = ""
) -> CaseReviewResult:
    """Take ``decision`` (approved, rejected, resubmission_requested) on the task's case."""
    if decision not in DECISIONS:
        raise CaseReviewError("invalid_input", f"decision must be one of {', '.join(DECISIONS)}")
    try:
        require_role(user=user, tenant=task.tenant, roles=REVIEWER_ROLES)
    except ReviewPermissionError as exc:
        raise CaseReviewError("permission_denied", str(exc)) from exc
    with transaction.atomic():
        case = Case.objects.select_for_update(of=("self",)).select_related("tenant").get(pk=task.case_id)
        locked = CaseReviewTask.objects.select_for_update().get(pk=task.pk)
        if locked.status == CaseTaskStatus.DONE or case.status != CaseStatus.IN_REVIEW:
            raise CaseReviewError("invalid_task_state", "this case is no longer waiting for review")
        if locked.note != note and note:
            locked.note = note
        maker_checker = case_policy_get(tenant=case.tenant).maker_checker
        if decision == CaseTaskOutcome.APPROVED and maker_checker:
            if locked.status == CaseTaskStatus.OPEN:
                return CaseReviewResult(_maker_approves(locked, case, user), final=False)
            if locked.maker_id == user.pk:
                raise CaseReviewError(
                    "checker_must_differ", "a second, different operator must check this case"
                )
        locked.status, locked.outcome = CaseTaskStatus.DONE, decision
        locked.completed_by, locked.completed_at = user, timezone.now()
        locked.save(update_fields=["status", "outcome", "completed_by", "completed_at", "note", "updated_at"])
        audit_record(
            tenant=case.tenant, actor=user, action="case.review_decided", object_type="case",
            object_id=str(case.pk),
            data={"task": str(locked.pk), "decision": decision, "maker": locked.maker_id,
                  "note": bool(locked.note)},
        )  # fmt: skip
        case_operator_decide(case=case, outcome=decision, actor=user, task_id=str(locked.pk))
    return CaseReviewResult(locked, final=True)


def _maker_approves(task: CaseReviewTask, case: Case, user: User) -> CaseReviewTask:
    task.status, task.maker, task.maker_approved_at = CaseTaskStatus.AWAITING_CHECK, user, timezone.now()
    task.save(update_fields=["status", "maker", "maker_approved_at", "note", "updated_at"])
    audit_record(
        tenant=case.tenant, actor=user, action="case.review_maker_approved", object_type="case",
        object_id=str(case.pk), data={"task": str(task.pk)},
    )  # fmt: skip
    return task
