"""A tenant's own document type reviewed in a real browser.

GIVEN a payslip type the tenant defined, and a payslip read by the real CPU engine's generic label
reader in-process (no Triton or Celery needed) and routed to review by the real steps, WHEN an
operator claims it with the keyboard, THEN the review screen lists the schema's fields with their
titles in schema order, the first field is active, and confirming one and approving the document
moves it to approved; the document page then shows the same titles.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import PASSWORD, log_in, screenshot
from tests.support.payslip import PAYSLIP_SCHEMA, PAYSLIP_TRUTH, payslip_pdf

pytestmark = pytest.mark.e2e


@pytest.fixture
def payslip_in_review(transactional_db, django_user_model, monkeypatch):  # type: ignore[no-untyped-def]
    from apps.doctypes.services import document_type_define
    from apps.documents import services as document_services
    from apps.documents.models import Document
    from apps.documents.pipeline import document_infer, document_prepare
    from apps.extraction.readers import LocalReader
    from apps.tenants.services import membership_grant, tenant_create

    monkeypatch.setattr(document_services, "steps_request", lambda *args, **kwargs: None)  # run here
    tenant = tenant_create(name="Acme Bank")
    user = django_user_model.objects.create_user(username="olivia", password=PASSWORD)
    membership_grant(tenant=tenant, user=user, role="operator")
    document_type_define(
        tenant=tenant, name="payslip", description="A monthly payslip", schema=PAYSLIP_SCHEMA
    )
    document = document_services.document_upload(
        tenant=tenant, content=payslip_pdf(), original_name="payslip.pdf", uploaded_by=None,
        document_type_hint="payslip",
    ).document  # fmt: skip
    document_prepare(document_id=str(document.pk))
    document_infer(document_id=str(document.pk), reader=LocalReader())
    return Document.objects.get(pk=document.pk)


def test_operator_reviews_a_payslip_with_its_titles_and_approves_it(new_page, payslip_in_review):
    from apps.documents.models import Document, DocumentStatus

    assert payslip_in_review.status == DocumentStatus.NEEDS_REVIEW
    page = new_page()
    log_in(page, "olivia")
    page.goto("/review/")
    page.keyboard.press("n")
    page.wait_for_url("**/review/tasks/**")
    rows = page.locator(".rv-row")
    expect(rows).to_have_count(len(PAYSLIP_SCHEMA["properties"]))
    names = [rows.nth(i).get_attribute("data-name") for i in range(rows.count())]
    assert names == list(PAYSLIP_SCHEMA["properties"])  # schema order
    expect(page.locator("#field-net_pay")).to_contain_text("Net pay")
    expect(page.locator("#field-net_pay input.rv-input")).to_have_value(PAYSLIP_TRUTH["net_pay"])
    expect(page.locator("#field-employee_id")).to_contain_text("Employee ID")
    screenshot(page, "custom-type-01-review")
    expect(page.locator(".rv-row.is-active")).to_have_attribute("data-name", "employee_name")
    page.keyboard.press("Enter")  # confirm the employee's name
    expect(page.locator("#field-employee_name .rv-pill")).to_have_text("✓ Confirmed")
    page.keyboard.press("a")
    expect(page.locator("#approve-dialog")).to_be_visible()
    page.keyboard.press("Enter")
    page.wait_for_url("**/review/")
    assert Document.objects.get(pk=payslip_in_review.pk).status == DocumentStatus.APPROVED
    page.goto(f"/documents/{payslip_in_review.pk}/")
    expect(page.locator("body")).to_contain_text("Pay frequency")
    screenshot(page, "custom-type-02-document")
