"""Case review in a real browser: the case queue, the case screen with the applicant's documents
side by side and the compared fields marked, the keyboard, and maker-checker per the policy.

GIVEN the live server and Chromium, and an applicant whose declared date of birth is a day off
their passport's (real rows made through the models, the case evaluated by the real services;
no engine run), WHEN two operators take the case with the keyboard, THEN the first approval is a
maker's, the second operator's decides, and the database and the audit trail say so.
"""

from __future__ import annotations

import datetime as dt

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import PASSWORD, log_in, screenshot

pytestmark = pytest.mark.e2e


@pytest.fixture
def acme(transactional_db):  # type: ignore[no-untyped-def]
    from apps.cases.models import CasePolicy
    from apps.tenants.services import tenant_create

    tenant = tenant_create(name="Acme Bank")
    CasePolicy.objects.create(tenant=tenant, maker_checker=True)
    return tenant


@pytest.fixture
def operators(acme, django_user_model):  # type: ignore[no-untyped-def]
    from apps.tenants.services import membership_grant

    users = {}
    for username in ("olivia", "oscar"):
        users[username] = django_user_model.objects.create_user(username=username, password=PASSWORD)
        membership_grant(tenant=acme, user=users[username], role="operator")
    return users


@pytest.fixture
def case_in_review(acme):  # type: ignore[no-untyped-def]
    from apps.cases.services import case_create
    from tests.factories import APPLICANT_PASSPORT, proof_of_address, read_document

    passport = read_document(acme, "passport", **APPLICANT_PASSPORT)
    bill = read_document(acme, "proof_of_address", source="ocr", **proof_of_address("2026-06-01"))
    case = case_create(
        tenant=acme, external_reference="applicant-7", documents=[passport, bill],
        case_date=dt.date(2026, 6, 15), declared={"date_of_birth": "1990-04-02"},
    )  # fmt: skip
    assert case.status == "in_review"
    return case


def test_two_operators_decide_a_case_with_the_keyboard_under_maker_checker(
    new_page, acme, operators, case_in_review
):
    from apps.audit.models import AuditEvent
    from apps.cases.models import CaseReviewTask

    case = case_in_review
    page = new_page()
    log_in(page, "olivia")
    page.goto("/cases/")
    expect(page.locator("#case-queue")).to_contain_text("applicant-7")
    page.keyboard.press("n")
    page.wait_for_url(f"**/cases/{case.pk}/")
    # the first failed check is active and its field is marked on the passport and the declared data
    expect(page.locator(".case-check.is-active")).to_have_attribute("data-check", "date_of_birth_consistent")
    expect(page.locator('.case-field.is-flagged[data-field="date_of_birth"]')).to_have_count(2)
    expect(page.locator(".case-column")).to_have_count(3)  # declared, passport, bill
    page.keyboard.press("j")
    expect(page.locator(".case-check.is-active")).not_to_have_attribute(
        "data-check", "date_of_birth_consistent"
    )
    page.keyboard.press("k")
    expect(page.locator('.case-field.is-compared[data-field="date_of_birth"]')).to_have_count(3)
    screenshot(page, "case-review-01-screen")
    page.keyboard.press("a")
    expect(page.locator("#decide-approved")).to_be_visible()
    page.keyboard.press("Enter")
    page.wait_for_url("**/cases/")
    task = CaseReviewTask.objects.get(case=case)
    assert (task.status, task.maker.username) == ("awaiting_check", "olivia")

    # the maker sees the case read-only; a second operator decides it
    page.goto(f"/cases/{case.pk}/")
    expect(page.locator("#maker-checker")).to_contain_text("You approved this case as maker")
    expect(page.locator("#actions")).to_have_count(0)

    checker = new_page()
    log_in(checker, "oscar")
    checker.goto(f"/cases/{case.pk}/")
    expect(checker.locator("#maker-checker")).to_contain_text("Approved by olivia as maker")
    checker.keyboard.press("a")
    checker.keyboard.press("Enter")
    checker.wait_for_url("**/cases/")
    case.refresh_from_db()
    assert (case.status, case.decision_rule) == ("approved", "operator")
    decided = AuditEvent.objects.get(object_id=str(case.pk), action="case.review_decided")
    assert decided.actor.username == "oscar" and decided.data["decision"] == "approved"
    checker.goto(f"/cases/{case.pk}/")
    expect(checker.locator("#case-status")).to_have_text("Approved")
    screenshot(checker, "case-review-02-approved")
