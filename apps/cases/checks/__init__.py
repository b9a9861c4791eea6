"""The case's checks, in the order a reviewer reads them: each a pure function of the case's facts
and the tenant's policy, returning one named :class:`CheckResult`. Adding a check is one function
and one line here (and, when it should decide cases, one rule in ``knowledge/rules.toml``)."""

from __future__ import annotations

from collections.abc import Callable

from apps.cases.checks.addresses import address_matches
from apps.cases.checks.dates import (
    applicant_old_enough,
    date_of_birth_consistent,
    identity_document_valid,
    proof_of_address_recent,
)
from apps.cases.checks.documents import documents_readable, documents_reviewed, required_documents_present
from apps.cases.checks.duplicates import (
    document_number_not_blocklisted,
    no_duplicate_barcode,
    no_duplicate_document_number,
    no_duplicate_file,
)
from apps.cases.checks.names import same_person
from apps.cases.checks.types import CaseFacts, CheckResult, Policy

Check = Callable[[CaseFacts, Policy], CheckResult]

CHECKS: tuple[Check, ...] = (
    required_documents_present,
    documents_readable,
    documents_reviewed,
    same_person,
    date_of_birth_consistent,
    address_matches,
    proof_of_address_recent,
    identity_document_valid,
    applicant_old_enough,
    no_duplicate_document_number,
    no_duplicate_barcode,
    no_duplicate_file,
    document_number_not_blocklisted,
)


def checks_run(facts: CaseFacts, policy: Policy) -> list[CheckResult]:
    return [check(facts, policy) for check in CHECKS]
