"""Review in a real browser: queues, leased claims, the keyboard-driven review screen, maker-checker,
escalation to a supervisor, tenant isolation and the supervisors' dashboard.

GIVEN the live server and Chromium, and passports waiting for review (real rows, a real stored
page image, routed by the real ``decide`` step: see ``tests/support/review_documents.py``; no engine run,
so no Celery worker or Triton is needed), WHEN operators and supervisors use the review pages
with the keyboard as they would, THEN the database ends where the product says it does.

The first test measures a typical passport review (claim, check the flagged fields, correct the
given names the MRZ truncated, approve): keystrokes and seconds, printed and saved to
``var/e2e-screenshots/review-timing.json``.
"""

from __future__ import annotations

import json
import time

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import PASSWORD, SCREENSHOTS, log_in, screenshot
from tests.support.review_documents import FULL_GIVEN_NAMES, PASSPORT_FIELDS, document_for_review

pytestmark = pytest.mark.e2e

ENGINE_GIVEN_NAMES = PASSPORT_FIELDS["given_names"][0]
CROPS_LOADED = """() => {
  const pages = Array.from(document.querySelectorAll(".page-canvas img"));
  const crops = document.querySelectorAll(".rv-crop[data-crop]");
  return pages.length > 0 && pages.every((i) => i.complete && i.naturalWidth > 0)
    && document.querySelectorAll(".rv-crop.is-drawn").length === crops.length;
}"""


@pytest.fixture
def acme(transactional_db):  # type: ignore[no-untyped-def]
    from apps.tenants.services import tenant_create

    return tenant_create(name="Acme Bank")


@pytest.fixture
def people(acme, django_user_model):  # type: ignore[no-untyped-def]
    """Olivia and Oscar operate, Sofia supervises, Ulrich uploads; Otto operates for another bank."""
    from apps.tenants.services import membership_grant, tenant_create

    users = {}
    for username, role in (
        ("olivia", "operator"),
        ("oscar", "operator"),
        ("sofia", "supervisor"),
        ("ulrich", "uploader"),
    ):
        users[username] = django_user_model.objects.create_user(username=username, password=PASSWORD)
        membership_grant(tenant=acme, user=users[username], role=role)
    other = tenant_create(name="Other Bank")
    users["otto"] = django_user_model.objects.create_user(username="otto", password=PASSWORD)
    membership_grant(tenant=other, user=users["otto"], role="operator")
    return users


def _as(new_page, username: str):  # type: ignore[no-untyped-def]
    page = new_page()
    log_in(page, username)
    return page


class Keys:
    """Presses keys on a page and counts them, the way an operator's keystrokes would be counted."""

    def __init__(self, page) -> None:  # type: ignore[no-untyped-def]
        self.page = page
        self.count = 0

    def press(self, key: str) -> None:
        self.page.keyboard.press(key)
        self.count += 1

    def type(self, text: str) -> None:
        self.page.keyboard.type(text)
        self.count += len(text)


def _timed_screenshot(page, name: str) -> float:  # type: ignore[no-untyped-def]
    started = time.perf_counter()
    screenshot(page, name)
    return time.perf_counter() - started


def _claim_with_n(page, keys: Keys | None = None):  # type: ignore[no-untyped-def]
    page.goto("/review/")
    (keys or Keys(page)).press("n")
    page.wait_for_url("**/review/tasks/**")
    page.wait_for_function(CROPS_LOADED)


def _row(page, name: str):  # type: ignore[no-untyped-def]
    return page.locator(f"#field-{name}")


def _task_of(document):  # type: ignore[no-untyped-def]
    from apps.review.models import ReviewTask

    return ReviewTask.objects.get(document=document)


def test_operator_reviews_a_passport_with_the_keyboard_and_approves_it(new_page, acme, people):
    from apps.documents.models import Document, DocumentStatus, Field

    truncated = document_for_review(acme, name="passport-truncated-name.jpg")
    page = _as(new_page, "olivia")
    page.goto("/review/")
    expect(page.locator("#queues")).to_contain_text("Default")
    screenshot(page, "review-01-queue")

    # Claim → the flagged surname is active → confirm it → correct the given names → approve.
    keys = Keys(page)
    started = time.perf_counter()
    paused = 0.0  # screenshots are not part of the review
    keys.press("n")
    page.wait_for_url("**/review/tasks/**")
    page.wait_for_function(CROPS_LOADED)
    expect(_row(page, "surname")).to_contain_text("Low confidence")
    expect(page.locator(".rv-row.is-active")).to_have_attribute("data-name", "surname")
    paused += _timed_screenshot(page, "review-02-task")
    keys.press("Enter")
    expect(_row(page, "surname").locator(".rv-pill")).to_have_text("✓ Confirmed")
    expect(page.locator(".rv-row.is-active")).to_have_attribute("data-name", "given_names")
    keys.press("e")
    keys.type(FULL_GIVEN_NAMES.removeprefix(ENGINE_GIVEN_NAMES))
    paused += _timed_screenshot(page, "review-03-correcting")
    keys.press("Enter")
    expect(_row(page, "given_names").locator(".rv-pill")).to_have_text("✎ Corrected")
    expect(_row(page, "given_names")).to_contain_text(f"engine read {ENGINE_GIVEN_NAMES}")
    keys.press("a")
    expect(page.locator("#approve-dialog")).to_be_visible()
    paused += _timed_screenshot(page, "review-04-approve")
    keys.press("Enter")
    page.wait_for_url("**/review/")
    expect(page.locator("#flash")).to_contain_text("Approved passport-truncated-name.jpg")
    seconds = time.perf_counter() - started - paused
    correction_keystrokes = keys.count
    screenshot(page, "review-05-approved")

    truncated = Document.objects.get(pk=truncated.pk)
    assert truncated.status == DocumentStatus.APPROVED
    assert Field.objects.get(extraction__document=truncated, name="given_names").value == FULL_GIVEN_NAMES

    # A passport whose flagged fields are right as read: claim, confirm both, approve.
    clean = document_for_review(acme, name="passport-clean.jpg")
    keys = Keys(page)
    started = time.perf_counter()
    keys.press("n")
    page.wait_for_url("**/review/tasks/**")
    page.wait_for_function(CROPS_LOADED)
    keys.press("Enter")
    keys.press("Enter")
    expect(_row(page, "given_names").locator(".rv-pill")).to_have_text("✓ Confirmed")
    keys.press("a")
    keys.press("Enter")
    page.wait_for_url("**/review/")
    expect(page.locator("#flash")).to_contain_text("Approved passport-clean.jpg")
    clean_seconds = time.perf_counter() - started
    assert Document.objects.get(pk=clean.pk).status == DocumentStatus.APPROVED

    timing = {
        "passport_with_a_correction": {
            "keystrokes": correction_keystrokes,
            "of_which_typed_text": len(FULL_GIVEN_NAMES) - len(ENGINE_GIVEN_NAMES),
            "seconds": round(seconds, 2),
            "steps": "n, Enter (surname right), e, type ' LAN XIAOLING', Enter (given names), a, Enter",
        },
        "passport_confirmed_as_read": {
            "keystrokes": keys.count,
            "seconds": round(clean_seconds, 2),
            "steps": "n, Enter, Enter (both flagged names right), a, Enter",
        },
        "note": "seconds of the system (page loads, crops, saves) with an instant typist; add the "
        "operator's reading time",
    }
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    (SCREENSHOTS / "review-timing.json").write_text(json.dumps(timing, indent=2) + "\n")
    print("passport review:", json.dumps(timing))
    assert correction_keystrokes == 6 + len(" LAN XIAOLING") and keys.count == 5


def test_a_second_operator_cannot_claim_the_same_task_until_the_lease_expires(new_page, acme, people):
    import datetime as dt

    from django.utils import timezone

    from apps.review.models import ReviewTask

    document = document_for_review(acme)
    olivia = _as(new_page, "olivia")
    _claim_with_n(olivia)
    task_url = olivia.url
    oscar = _as(new_page, "oscar")
    oscar.goto("/review/")
    oscar.keyboard.press("n")
    expect(oscar.locator("#flash")).to_contain_text("No task for you right now")
    expect(oscar.locator("#tasks")).to_contain_text("olivia")
    screenshot(oscar, "review-06-second-operator-queue-empty")
    oscar.goto(task_url)
    expect(oscar.locator("#readonly-note")).to_contain_text("olivia is working on this task")
    expect(oscar.locator("#approve-button")).to_have_count(0)
    assert _task_of(document).lease_holder == people["olivia"]

    # Olivia walks away; once her lease runs out, Oscar's Next task takes it.
    ReviewTask.objects.filter(document=document).update(
        lease_expires_at=timezone.now() - dt.timedelta(seconds=1)
    )
    _claim_with_n(oscar)
    assert oscar.url == task_url
    assert _task_of(document).lease_holder == people["oscar"]
    # Olivia's page refuses her next action with a message saying who has it now.
    olivia.keyboard.press("Enter")
    expect(olivia.locator("#live-alert")).to_contain_text("oscar is working on this task now")
    expect(olivia.locator("#approve-button")).to_be_hidden()
    expect(olivia.locator("#lease-left")).to_have_text("lost")
    screenshot(olivia, "review-07-lease-lost")


def test_operator_rejects_with_a_reason(new_page, acme, people):
    from apps.documents.models import Document, DocumentStatus

    document = document_for_review(acme, name="passport-expired.jpg")
    page = _as(new_page, "olivia")
    _claim_with_n(page)
    page.keyboard.press("r")
    expect(page.locator("#reject-dialog")).to_be_visible()
    page.keyboard.press("3")
    expect(page.locator('#reject-dialog input[value="expired"]')).to_be_checked()
    screenshot(page, "review-08-reject-reason")
    page.keyboard.press("Enter")
    page.wait_for_url("**/review/")
    expect(page.locator("#flash")).to_contain_text("Rejected passport-expired.jpg: expired")
    task = _task_of(document)
    assert (task.outcome, task.reject_reason) == ("rejected", "expired")
    assert Document.objects.get(pk=document.pk).status == DocumentStatus.REJECTED


def test_escalated_task_goes_to_the_supervisor(new_page, acme, people):
    from apps.documents.models import Document, DocumentStatus

    document = document_for_review(acme, name="passport-odd.jpg")
    olivia = _as(new_page, "olivia")
    _claim_with_n(olivia)
    olivia.keyboard.press("x")
    expect(olivia.locator("#escalate-note")).to_be_focused()
    olivia.keyboard.type("Photo looks pasted over; please check the original.")
    olivia.keyboard.press("Enter")
    olivia.wait_for_url("**/review/")
    expect(olivia.locator("#flash")).to_contain_text("Escalated passport-odd.jpg")
    assert _task_of(document).status == "escalated"

    oscar = _as(new_page, "oscar")
    oscar.goto("/review/")
    oscar.keyboard.press("n")
    expect(oscar.locator("#flash")).to_contain_text("No task for you right now")

    sofia = _as(new_page, "sofia")
    sofia.goto("/review/")
    expect(sofia.locator(".tile-warn")).to_contain_text("1")
    _claim_with_n(sofia)
    expect(sofia.locator("#escalation")).to_contain_text("Photo looks pasted over")
    expect(sofia.locator("#escalation")).to_contain_text("Escalated by olivia")
    screenshot(sofia, "review-09-supervisor-escalated")
    sofia.keyboard.press("a")
    sofia.keyboard.press("Enter")
    sofia.wait_for_url("**/review/")
    assert Document.objects.get(pk=document.pk).status == DocumentStatus.APPROVED
    assert _task_of(document).completed_by == people["sofia"]


def test_maker_checker_needs_a_second_operator(new_page, acme, people):
    from apps.documents.models import Document, DocumentStatus
    from apps.review.models import ReviewQueue
    from apps.review.services import QueueSettings, review_queue_update

    document = document_for_review(acme, name="passport-four-eyes.jpg")
    queue = ReviewQueue.objects.get(tenant=acme)
    review_queue_update(
        queue=queue,
        actor=people["sofia"],
        config=QueueSettings(name=queue.name, sla=queue.sla, maker_checker_document_types=["passport"]),
    )
    olivia = _as(new_page, "olivia")
    _claim_with_n(olivia)
    expect(olivia.locator("#maker-checker")).to_contain_text("your approval is the first of two")
    olivia.keyboard.press("a")
    olivia.keyboard.press("Enter")
    olivia.wait_for_url("**/review/")
    expect(olivia.locator("#flash")).to_contain_text("waits for a second operator")
    assert Document.objects.get(pk=document.pk).status == DocumentStatus.NEEDS_REVIEW
    olivia.keyboard.press("n")
    expect(olivia.locator("#flash")).to_contain_text("No task for you right now")

    oscar = _as(new_page, "oscar")
    _claim_with_n(oscar)
    expect(oscar.locator("#maker-checker")).to_contain_text("Approved by olivia as maker")
    screenshot(oscar, "review-10-checker")
    oscar.keyboard.press("a")
    oscar.keyboard.press("Enter")
    oscar.wait_for_url("**/review/")
    expect(oscar.locator("#flash")).to_contain_text("Approved passport-four-eyes.jpg")
    assert Document.objects.get(pk=document.pk).status == DocumentStatus.APPROVED
    task = _task_of(document)
    assert (task.maker, task.completed_by) == (people["olivia"], people["oscar"])


def test_another_tenants_operator_gets_404_on_the_task(new_page, acme, people):
    document = document_for_review(acme)
    olivia = _as(new_page, "olivia")
    _claim_with_n(olivia)
    task_path = olivia.url.removeprefix(olivia.url.split("/review/")[0])
    otto = _as(new_page, "otto")
    for path in (task_path, task_path + "fields/given_names/crop.png"):
        response = otto.goto(path)
        assert response is not None and response.status == 404, path
    otto.goto(task_path)
    screenshot(otto, "review-11-other-tenant-404")
    otto.goto("/review/")
    expect(otto.locator("#queue-empty")).to_be_visible()
    expect(otto.locator("body")).not_to_contain_text("passport-0001.jpg")
    assert _task_of(document).lease_holder == people["olivia"]


def test_roles_uploaders_cannot_review_and_operators_cannot_supervise(new_page, acme, people):
    document_for_review(acme)
    ulrich = _as(new_page, "ulrich")
    assert ulrich.goto("/review/").status == 403
    expect(ulrich.locator("#forbidden")).to_contain_text("Review needs the operator role")
    expect(ulrich.locator("nav.nav")).not_to_contain_text("Review")
    screenshot(ulrich, "review-15-uploader-403")
    olivia = _as(new_page, "olivia")
    for path in ("/dashboard/", "/review/queues/"):
        assert olivia.goto(path).status == 403, path
    olivia.goto("/review/")
    expect(olivia.locator("nav.nav")).to_contain_text("Review")
    expect(olivia.locator("nav.nav")).not_to_contain_text("Dashboard")


def test_supervisor_manages_queues_and_reads_the_dashboard(new_page, acme, people):
    from apps.review.models import ReviewQueue
    from apps.review.services import (
        review_field_confirm,
        review_field_correct,
        review_task_approve,
        review_task_claim_next,
        review_task_reject,
    )
    from tests.factories import decided_document

    # A little history: three documents decided alone, three reviewed (one corrected, one rejected).
    for _ in range(3):
        decided_document(acme, review=False)
    for outcome in ("approve", "correct", "reject"):
        document_for_review(acme, name=f"passport-{outcome}.jpg")
        task = review_task_claim_next(user=people["oscar"], tenant=acme)
        assert task is not None
        review_field_confirm(task=task, user=people["oscar"], field_name="surname")
        if outcome == "correct":
            review_field_correct(
                task=task, user=people["oscar"], field_name="given_names", value=FULL_GIVEN_NAMES
            )
        else:
            review_field_confirm(task=task, user=people["oscar"], field_name="given_names")
        if outcome == "reject":
            review_task_reject(task=task, user=people["oscar"], reason="illegible")
        else:
            review_task_approve(task=task, user=people["oscar"])
    document_for_review(acme, name="passport-waiting.jpg")

    sofia = _as(new_page, "sofia")
    sofia.goto("/review/queues/")
    sofia.click("#new-queue")
    sofia.fill("#id_name", "Identity documents")
    sofia.check('input[name="document_types"][value="passport"]')
    sofia.check('input[name="document_types"][value="id_card"]')
    sofia.fill("#id_priority", "5")
    sofia.fill("#id_sla_hours", "4")
    sofia.check('input[name="maker_checker_document_types"][value="passport"]')
    screenshot(sofia, "review-12-queue-form")
    sofia.click("#save-queue")
    expect(sofia.locator("#queue-settings")).to_contain_text("Identity documents")
    queue = ReviewQueue.objects.get(tenant=acme, name="Identity documents")
    assert queue.maker_checker_document_types == ["passport"] and queue.priority == 5
    screenshot(sofia, "review-13-queues")

    sofia.goto("/dashboard/")
    expect(sofia.locator("#kpis")).to_contain_text("3 of 7 decided alone")  # the waiting one was decided too
    for chart in ("throughput", "queues", "ages", "fields", "confidence", "latency"):
        expect(sofia.locator(f"#chart-{chart} svg").first).to_be_visible()
    expect(sofia.locator("#chart-fields")).to_contain_text("given names")
    expect(sofia.locator("#operators")).to_contain_text("oscar")
    screenshot(sofia, "review-14-dashboard")
