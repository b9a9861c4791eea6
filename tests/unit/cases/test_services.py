"""Cases on the real database: created with read documents, evaluated as their documents are
decided, duplicates across applicants (never across tenants), the blocklist, the tenant's
policy, audit events and the case.decided webhook."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import transaction

from apps.audit.models import AuditEvent
from apps.cases.models import BlockedDocumentNumber, CaseDocument, CasePolicy
from apps.cases.selectors import case_result_get
from apps.cases.services import CaseClosedError, case_create, case_documents_add
from apps.documents.models import DocumentStatus
from apps.documents.state import document_transition
from apps.webhooks.models import WebhookDelivery
from tests.factories import APPLICANT_PASSPORT, proof_of_address, read_document

pytestmark = pytest.mark.django_db
CASE_DATE = dt.date(2026, 6, 15)
RECENT = "2026-06-01"


def failed(case) -> list[str]:
    return [c["name"] for c in case.checks if not c["passed"]]


def applicant(
    tenant, *, reference: str = "", passport: dict[str, str] | None = None, bill_date: str = RECENT, **kwargs
):
    documents = [
        read_document(tenant, "passport", **(passport or APPLICANT_PASSPORT)),
        read_document(tenant, "proof_of_address", source="ocr", **proof_of_address(bill_date)),
    ]
    return case_create(
        tenant=tenant, external_reference=reference, documents=documents, case_date=CASE_DATE, **kwargs
    )


def test_a_consistent_applicant_is_approved_at_once_and_audited(tenant):
    case = applicant(tenant, declared={"full_name": "Anna Maria Müller", "date_of_birth": "1990-04-01"})
    assert (case.status, case.decision, case.decision_rule) == ("approved", "approved", "all_checks_passed")
    assert failed(case) == []
    actions = list(
        AuditEvent.objects.filter(object_type="case", object_id=str(case.pk)).values_list("action", flat=True)
    )
    assert actions == ["case.created", "case.status_changed", "case.decided"]
    decided = AuditEvent.objects.get(object_id=str(case.pk), action="case.decided")
    assert "MUELLER" not in str(decided.data) and "1990" not in str(decided.data)  # no personal data


def test_a_stale_proof_of_address_asks_for_resubmission(tenant):
    case = applicant(tenant, bill_date="2024-05-27")
    assert (case.status, case.decision_rule) == ("resubmission_requested", "proof_of_address_recent")
    assert failed(case) == ["proof_of_address_recent"]


def test_the_case_waits_for_its_documents_and_follows_their_decision(
    tenant, django_capture_on_commit_callbacks
):
    passport = read_document(tenant, "passport", status=DocumentStatus.EXTRACTED, **APPLICANT_PASSPORT)
    bill = read_document(tenant, "proof_of_address", **proof_of_address(RECENT))
    case = case_create(tenant=tenant, documents=[passport, bill], case_date=CASE_DATE)
    assert (case.status, case.decision, case.checks) == ("open", "", [])
    with django_capture_on_commit_callbacks(execute=True):
        document_transition(document=passport, target=DocumentStatus.NEEDS_REVIEW)
    case.refresh_from_db()
    assert (case.status, case.decision_rule) == ("in_review", "documents_reviewed")
    with django_capture_on_commit_callbacks(execute=True):
        document_transition(document=passport, target=DocumentStatus.APPROVED)
    case.refresh_from_db()
    assert case.status == "approved"


def test_documents_decided_together_tell_their_case_once_committed(
    tenant, django_capture_on_commit_callbacks
):
    passport = read_document(tenant, "passport", status=DocumentStatus.EXTRACTED, **APPLICANT_PASSPORT)
    bill = read_document(
        tenant, "proof_of_address", status=DocumentStatus.EXTRACTED, **proof_of_address(RECENT)
    )
    case = case_create(tenant=tenant, documents=[passport, bill], case_date=CASE_DATE)
    with django_capture_on_commit_callbacks(execute=True) as callbacks, transaction.atomic():
        document_transition(document=passport, target=DocumentStatus.AUTO_APPROVED)
        document_transition(document=bill, target=DocumentStatus.AUTO_APPROVED)
        case.refresh_from_db()
        assert case.status == "open"  # nothing before the commit
    assert len([c for c in callbacks if type(c).__name__ == "_CasesToTell"]) == 1  # one hook for both
    case.refresh_from_db()
    assert (case.status, case.decision_rule) == ("approved", "all_checks_passed")


def test_adding_a_document_reopens_and_a_closed_case_takes_none(tenant):
    case = applicant(tenant, bill_date="2024-05-27")
    assert case.status == "resubmission_requested"
    fresh_bill = read_document(tenant, "proof_of_address", **proof_of_address(RECENT))
    case = case_documents_add(case=case, documents=[fresh_bill])
    assert CaseDocument.objects.filter(case=case).count() == 3
    assert (case.status, case.decision_rule) == ("approved", "all_checks_passed")
    assert "proof_of_address (document 2)" in str(case.checks)  # the stale one is still named
    approved = applicant(tenant, passport=APPLICANT_PASSPORT | {"document_number": "C01X00T48"})
    with pytest.raises(CaseClosedError):
        case_documents_add(case=approved, documents=[fresh_bill])


def test_the_same_passport_number_in_another_applicants_case_is_a_duplicate_with_a_link(tenant, other_tenant):
    elsewhere = applicant(other_tenant, reference="x")  # another tenant's: never seen
    first = applicant(tenant, reference="applicant-1")
    assert "no_duplicate_document_number" not in failed(first)
    resubmission = applicant(tenant, reference="applicant-1")  # the same applicant again: no duplicate
    assert "no_duplicate_document_number" not in failed(resubmission)
    second = applicant(tenant, reference="applicant-2")  # another applicant, same passport number
    assert (second.status, second.decision_rule) == ("in_review", "no_duplicate_document_number")
    check = next(
        c for c in case_result_get(case=second)["checks"] if c["name"] == "no_duplicate_document_number"
    )
    assert sorted(check["links"]) == sorted(f"/api/v1/cases/{c.pk}" for c in (first, resubmission))
    assert str(elsewhere.pk) not in str(second.checks)
    assert APPLICANT_PASSPORT["document_number"] not in str(second.checks)


def test_the_earlier_applicants_open_case_links_back_to_the_later_one(
    tenant, django_capture_on_commit_callbacks
):
    passport_only = read_document(tenant, "passport", **APPLICANT_PASSPORT)
    first = case_create(tenant=tenant, external_reference="a", documents=[passport_only], case_date=CASE_DATE)
    assert first.status == "resubmission_requested"  # no proof of address yet: not closed
    with django_capture_on_commit_callbacks(execute=True):
        second = applicant(tenant, reference="b")
    first.refresh_from_db()
    number = next(c for c in first.checks if c["name"] == "no_duplicate_document_number")
    assert not number["passed"] and number["links"] == [str(second.pk)]


def test_the_same_file_in_two_applicants_cases_is_a_duplicate(tenant):
    passport = read_document(tenant, "passport", **APPLICANT_PASSPORT)
    first = case_create(tenant=tenant, external_reference="a", documents=[passport], case_date=CASE_DATE)
    second = case_create(tenant=tenant, external_reference="b", documents=[passport], case_date=CASE_DATE)
    assert "no_duplicate_file" not in failed(first)
    assert {"no_duplicate_file", "no_duplicate_document_number"} <= set(failed(second))


def test_a_blocklisted_number_rejects_the_case(tenant, other_tenant):
    BlockedDocumentNumber.objects.create(tenant=other_tenant, document_number="C01X00T47")
    assert applicant(tenant).status == "approved"  # another tenant's blocklist is not ours
    BlockedDocumentNumber.objects.create(
        tenant=tenant, document_number="c01x-00t47", document_type="passport"
    )
    case = applicant(tenant, reference="later")
    assert (case.status, case.decision_rule) == ("rejected", "document_number_not_blocklisted")


def test_the_tenants_policy_decides(tenant):
    expired = APPLICANT_PASSPORT | {"date_of_expiry": "2026-06-14"}
    assert applicant(tenant, passport=expired).decision_rule == "identity_document_valid"
    CasePolicy.objects.create(tenant=tenant, accept_expired=True, minimum_age=40)
    case = applicant(tenant, passport=expired, reference="again")
    assert (case.status, case.decision_rule) == ("rejected", "applicant_old_enough")
    assert "identity_document_valid" in failed(case)  # still a reason, no longer the rule


def test_a_decided_case_with_a_callback_records_a_case_decided_delivery(tenant):
    case = applicant(tenant, callback_url="https://receiver.example/kyc")
    delivery = WebhookDelivery.objects.get(case=case)
    assert delivery.event == "case.decided" and delivery.document_id is None
    assert '"decision":"approved"' in delivery.body
