"""Case review: a case whose checks do not pass waits in the case queue; operators approve,
reject or ask for other documents, audited; maker-checker per the tenant's case policy; the
screen shows the documents side by side with the compared fields marked."""

from __future__ import annotations

import datetime as dt

import pytest

from apps.audit.models import AuditEvent
from apps.cases.models import CasePolicy, CaseReviewTask
from apps.cases.review import CaseReviewError, case_review_decide
from apps.cases.services import case_create, case_documents_add
from apps.tenants.services import membership_grant
from tests.factories import APPLICANT_PASSPORT, proof_of_address, read_document

pytestmark = pytest.mark.django_db
CASE_DATE = dt.date(2026, 6, 15)


def mismatched_case(tenant):
    """A passport and a recent bill whose date of birth is a day off: the case goes to review."""
    passport = read_document(tenant, "passport", **APPLICANT_PASSPORT)
    bill = read_document(tenant, "proof_of_address", source="ocr", **proof_of_address("2026-06-01"))
    return case_create(
        tenant=tenant,
        documents=[passport, bill],
        case_date=CASE_DATE,
        declared={"date_of_birth": "1990-04-02"},
    )


@pytest.fixture
def oscar(tenant, django_user_model):
    user = django_user_model.objects.create_user(username="oscar", password="correct horse battery")
    membership_grant(tenant=tenant, user=user, role="operator")
    return user


def test_a_case_in_review_waits_in_the_case_queue_once(tenant):
    case = mismatched_case(tenant)
    assert (case.status, case.decision_rule) == ("in_review", "date_of_birth_consistent")
    task = CaseReviewTask.objects.get(case=case)
    assert (task.status, task.tenant) == ("open", tenant)
    assert any(r.startswith("date_of_birth_consistent") for r in task.reasons)
    assert AuditEvent.objects.filter(object_id=str(case.pk), action="case.review_queued").count() == 1


def test_an_operator_asks_for_other_documents_and_it_is_audited(tenant, operator):
    case = mismatched_case(tenant)
    task = CaseReviewTask.objects.get(case=case)
    result = case_review_decide(
        task=task, user=operator, decision="resubmission_requested", note="a new bill"
    )
    case.refresh_from_db()
    assert result.final and (case.status, case.decision, case.decision_rule) == (
        "resubmission_requested", "resubmission_requested", "operator",
    )  # fmt: skip
    event = AuditEvent.objects.get(object_id=str(case.pk), action="case.review_decided")
    assert (event.actor_id, event.data["decision"]) == (operator.pk, "resubmission_requested")
    assert "a new bill" not in str(event.data)
    decided = AuditEvent.objects.filter(object_id=str(case.pk), action="case.decided").latest("id")
    assert (decided.actor_id, decided.data["rule"]) == (operator.pk, "operator")
    with pytest.raises(CaseReviewError):
        case_review_decide(task=task, user=operator, decision="approved")


def test_maker_checker_needs_a_second_different_operator_to_approve(tenant, operator, oscar):
    CasePolicy.objects.create(tenant=tenant, maker_checker=True)
    case = mismatched_case(tenant)
    task = CaseReviewTask.objects.get(case=case)
    assert not case_review_decide(task=task, user=operator, decision="approved").final
    case.refresh_from_db()
    assert case.status == "in_review"
    with pytest.raises(CaseReviewError) as refused:
        case_review_decide(task=task, user=operator, decision="approved")
    assert refused.value.code == "checker_must_differ"
    assert case_review_decide(task=task, user=oscar, decision="approved").final
    case.refresh_from_db()
    task.refresh_from_db()
    assert (case.status, task.maker, task.completed_by) == ("approved", operator, oscar)


def test_a_rejection_decides_at_once_even_with_maker_checker(tenant, operator):
    CasePolicy.objects.create(tenant=tenant, maker_checker=True)
    case = mismatched_case(tenant)
    case_review_decide(task=CaseReviewTask.objects.get(case=case), user=operator, decision="rejected")
    case.refresh_from_db()
    assert case.status == "rejected"


def test_new_documents_take_the_case_out_of_the_queue(tenant):
    case = mismatched_case(tenant)
    extra = read_document(tenant, "bank_statement", status="queued")
    case_documents_add(case=case, documents=[extra])
    task = CaseReviewTask.objects.get(case=case)
    assert (task.status, task.outcome) == ("done", "withdrawn")


def test_an_uploader_may_not_decide(tenant, django_user_model):
    user = django_user_model.objects.create_user(username="ulrich", password="x")
    membership_grant(tenant=tenant, user=user, role="uploader")
    case = mismatched_case(tenant)
    with pytest.raises(CaseReviewError) as refused:
        case_review_decide(task=CaseReviewTask.objects.get(case=case), user=user, decision="approved")
    assert refused.value.code == "permission_denied"


def test_the_case_screen_marks_the_compared_fields_and_is_the_tenants_only(
    tenant, other_tenant, operator_client, operator
):
    case = mismatched_case(tenant)
    page = operator_client.get(f"/cases/{case.pk}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'id="check-date_of_birth_consistent"' in html and 'data-field="date_of_birth"' in html
    assert "is-flagged" in html and "decide-approved" in html
    assert operator_client.get("/cases/").status_code == 200
    theirs = mismatched_case(other_tenant)
    assert operator_client.get(f"/cases/{theirs.pk}/").status_code == 404
    response = operator_client.post(f"/cases/{case.pk}/decide/", {"decision": "rejected"})
    assert response.status_code == 302
    case.refresh_from_db()
    assert case.status == "rejected"
