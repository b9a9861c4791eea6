"""Duplicates across applicants and the tenant's blocklist, judged on what the selectors found
(``apps.cases.selectors.case_duplicates_find``): the same identity document number (of the same
type and issuing country), the same barcode, or the same file in another applicant's case of the
same tenant. A hit links the other case for the reviewer; nothing of another tenant is ever
looked at."""

from __future__ import annotations

from apps.cases.checks.types import CaseFacts, CheckResult, Policy

_WHAT = {
    "document_number": "document_number (same type and issuing country)",
    "barcode": "barcode",
    "file": "file (same SHA-256)",
}


def _duplicates(facts: CaseFacts, kind: str) -> CheckResult:
    name = f"no_duplicate_{kind}"
    hits = [h for h in facts.duplicates if h.kind == kind]
    if not hits:
        return CheckResult(name, True, f"no other applicant's case has the same {_WHAT[kind]}")
    labels = sorted({h.label for h in hits})
    cases = tuple(sorted({h.case_id for h in hits}))
    detail = f"the {_WHAT[kind]} of {', '.join(labels)} is in {len(cases)} other applicant's case(s)"
    return CheckResult(name, False, detail, links=cases)


def no_duplicate_document_number(facts: CaseFacts, policy: Policy) -> CheckResult:
    return _duplicates(facts, "document_number")


def no_duplicate_barcode(facts: CaseFacts, policy: Policy) -> CheckResult:
    return _duplicates(facts, "barcode")


def no_duplicate_file(facts: CaseFacts, policy: Policy) -> CheckResult:
    return _duplicates(facts, "file")


def document_number_not_blocklisted(facts: CaseFacts, policy: Policy) -> CheckResult:
    name = "document_number_not_blocklisted"
    if facts.blocklisted:
        return CheckResult(
            name, False, f"document_number of {', '.join(facts.blocklisted)} is on the blocklist"
        )
    return CheckResult(name, True, "no document_number on the blocklist")
