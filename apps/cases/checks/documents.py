"""The checks of the case's documents themselves: the ones the policy requires are there, each
could be read, and none still waits for a person's review."""

from __future__ import annotations

from apps.cases.checks.types import UNUSABLE_STATUSES, CaseFacts, CheckResult, Policy


def required_documents_present(facts: CaseFacts, policy: Policy) -> CheckResult:
    """One usable document of each group of types the policy requires."""
    name = "required_documents_present"
    present = {d.document_type for d in facts.documents if d.status not in UNUSABLE_STATUSES}
    missing = [group for group in policy.required_document_types if not present & set(group)]
    if missing:
        wanted = "; ".join(f"one of {', '.join(group)}" for group in missing)
        return CheckResult(name, False, f"missing: {wanted}")
    return CheckResult(name, True, f"{len(policy.required_document_types)} required documents present")


def documents_readable(facts: CaseFacts, policy: Policy) -> CheckResult:
    name = "documents_readable"
    unusable = [f"{d.label} is {d.status}" for d in facts.documents if d.status in UNUSABLE_STATUSES]
    if unusable:
        return CheckResult(name, False, "; ".join(unusable))
    return CheckResult(name, True, f"{len(facts.documents)} documents read")


def documents_reviewed(facts: CaseFacts, policy: Policy) -> CheckResult:
    name = "documents_reviewed"
    waiting = [d.label for d in facts.documents if d.status == "needs_review"]
    if waiting:
        return CheckResult(name, False, f"waiting for review: {', '.join(waiting)}")
    return CheckResult(name, True, "no document waits for review")
