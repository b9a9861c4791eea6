"""The case decision: the most severe failed rule decides and is named; the policy may waive."""

from __future__ import annotations

from apps.cases.checks import checks_run
from apps.cases.checks.types import CheckResult, Policy
from apps.cases.policy import case_decision
from tests.unit.cases.facts import CASE_DATE, case, doc


def check(name: str, passed: bool) -> CheckResult:
    return CheckResult(name, passed, f"{name} detail")


def test_all_passed_is_approved() -> None:
    decision = case_decision([check("same_person", True)], Policy())
    assert (decision.outcome, decision.rule, decision.reasons) == ("approved", "all_checks_passed", ())


def test_the_most_severe_failed_rule_decides_and_every_failure_is_a_reason() -> None:
    checks = [
        check("same_person", False),
        check("proof_of_address_recent", False),
        check("applicant_old_enough", False),
    ]
    decision = case_decision(checks, Policy())
    assert (decision.outcome, decision.rule) == ("rejected", "applicant_old_enough")
    assert len(decision.reasons) == 3 and decision.reasons[0] == "same_person: same_person detail"


def test_a_stale_proof_of_address_asks_for_resubmission_and_a_name_mismatch_for_review() -> None:
    assert (
        case_decision([check("proof_of_address_recent", False)], Policy()).outcome == "resubmission_requested"
    )
    assert case_decision([check("same_person", False)], Policy()).outcome == "needs_review"


def test_accept_expired_waives_the_validity_rule_but_keeps_the_reason() -> None:
    checks = [check("identity_document_valid", False)]
    assert case_decision(checks, Policy()).rule == "identity_document_valid"
    waived = case_decision(checks, Policy(accept_expired=True))
    assert waived.outcome == "approved" and waived.reasons == (
        "identity_document_valid: identity_document_valid detail",
    )


def test_a_consistent_applicant_is_approved_end_to_end_on_facts() -> None:
    facts = case(
        doc("passport", 1, surname="MUELLER", given_names="ANNA MARIA", date_of_birth="1990-04-01",
            date_of_expiry="2030-01-01", document_number="C01X00T47", issuing_country="D"),
        doc("driver_license", 2, surname="MÜLLER", given_names="ANNA", date_of_birth="1990-04-01",
            date_of_expiry="2029-01-01", address_street="12 HAUPTSTRASSE", address_postal_code="80331"),
        doc("proof_of_address", 3, full_name="Anna Müller", address_street="Hauptstr. 12",
            address_postal_code="80331", document_date=CASE_DATE.isoformat()),
    )  # fmt: skip
    checks = checks_run(facts, Policy())
    assert [c.name for c in checks if not c.passed] == []
    assert case_decision(checks, Policy()).outcome == "approved"
