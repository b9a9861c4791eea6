"""The review pages through Django's test client: who may reach what, tenant isolation, and every
operator action from the page to the service and back (messages, JSON, redirects)."""

import datetime as dt

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from apps.audit.models import AuditEvent
from apps.documents.models import DocumentStatus, Field
from apps.review.models import ReviewQueue, ReviewTask, TaskStatus
from apps.review.services import QueueSettings, review_queue_create, review_queue_update
from tests.support.review_documents import FULL_GIVEN_NAMES, document_for_review

pytestmark = pytest.mark.django_db


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def task(tenant):
    return ReviewTask.objects.get(document=document_for_review(tenant))


@pytest.fixture
def op(operator):
    return _client(operator)


def _claim(client, **data) -> ReviewTask:
    response = client.post(reverse("review:task_next"), data)
    assert response.status_code == 302, response.content
    task_id = response["Location"].rstrip("/").split("/")[-1]
    return ReviewTask.objects.get(pk=task_id)


def _messages(response) -> list[str]:
    return [str(m) for m in response.context["messages"]]


def _urls(task):
    return {
        "detail": reverse("review:task_detail", args=[task.pk]),
        "approve": reverse("review:task_approve", args=[task.pk]),
        "reject": reverse("review:task_reject", args=[task.pk]),
        "escalate": reverse("review:task_escalate", args=[task.pk]),
        "release": reverse("review:task_release", args=[task.pk]),
        "confirm": reverse("review:field_confirm", args=[task.pk, "surname"]),
        "correct": reverse("review:field_correct", args=[task.pk, "given_names"]),
    }


# --- Access -------------------------------------------------------------------------------------


def test_review_pages_need_a_login(client, task):
    for url in (reverse("review:queue_list"), _urls(task)["detail"], reverse("review:dashboard")):
        response = client.get(url)
        assert response.status_code == 302 and reverse("login") in response["Location"]


def test_uploaders_cannot_reach_review_pages(uploader, task):
    client = _client(uploader)
    assert client.get(reverse("review:queue_list")).status_code == 403
    assert client.get(_urls(task)["detail"]).status_code == 403
    assert client.post(reverse("review:task_next")).status_code == 403
    assert client.post(_urls(task)["approve"]).status_code == 403
    assert not ReviewTask.objects.filter(lease_holder__isnull=False).exists()


def test_operators_cannot_reach_supervisor_pages(op, tenant, task):
    queue = ReviewQueue.objects.get(tenant=tenant)
    for url in (
        reverse("review:dashboard"),
        reverse("review:queue_manage"),
        reverse("review:queue_create"),
        reverse("review:queue_edit", args=[queue.pk]),
    ):
        assert op.get(url).status_code == 403, url
    assert op.post(reverse("review:queue_create"), {"name": "Sneaky"}).status_code == 403
    assert not ReviewQueue.objects.filter(name="Sneaky").exists()


def test_another_tenants_operator_gets_404_for_tasks_and_queues(other_operator, other_tenant, task, tenant):
    client = _client(other_operator)
    urls = _urls(task)
    assert client.get(urls["detail"]).status_code == 404
    for name in ("approve", "reject", "escalate", "release", "confirm", "correct"):
        assert client.post(urls[name], {"reason": "illegible", "note": "x", "value": "x"}).status_code == 404
    queue = ReviewQueue.objects.get(tenant=tenant)
    assert client.post(reverse("review:task_next"), {"queue": str(queue.pk)}).status_code == 404
    task.refresh_from_db()
    assert task.lease_holder is None and task.status == TaskStatus.OPEN
    # The other tenant's own review page shows none of it.
    page = client.get(reverse("review:queue_list"))
    assert page.status_code == 200 and b"passport-0001.jpg" not in page.content


def test_a_malformed_task_id_is_404_not_500(op):
    assert op.get(reverse("review:task_detail", args=["not-a-uuid"])).status_code == 404


def test_another_tenants_supervisor_cannot_edit_a_queue(other_tenant, django_user_model, tenant, task):
    from apps.tenants.services import membership_grant

    boss = django_user_model.objects.create_user(username="bea", password="x")
    membership_grant(tenant=other_tenant, user=boss, role="supervisor")
    queue = ReviewQueue.objects.get(tenant=tenant)
    client = _client(boss)
    assert client.get(reverse("review:queue_edit", args=[queue.pk])).status_code == 404
    assert client.post(reverse("review:queue_edit", args=[queue.pk]), {"name": "Mine"}).status_code == 404
    dashboard = client.get(reverse("review:dashboard"))
    assert dashboard.status_code == 200 and dashboard.context["data"].waiting == 0


def test_posts_without_a_csrf_token_are_refused(operator, task):
    client = Client(enforce_csrf_checks=True)
    client.force_login(operator)
    assert client.post(reverse("review:task_next")).status_code == 403
    task.refresh_from_db()
    assert task.lease_holder is None


# --- Queue list and next task ---------------------------------------------------------------------


def test_queue_list_shows_depth_aging_and_the_waiting_task(op, task):
    ReviewTask.objects.filter(pk=task.pk).update(due_at=timezone.now() - dt.timedelta(minutes=5))
    response = op.get(reverse("review:queue_list"))
    assert response.status_code == 200
    summary = response.context["summaries"][0]["summary"]
    assert (summary.depth, summary.sla_breached) == (1, 1)
    assert response.context["totals"]["breached"] == 1
    body = response.content.decode()
    assert "passport-0001.jpg" in body and "overdue by 5 min" in body


def test_queue_list_filters_by_document_type(op, tenant, task):
    document_for_review(tenant, name="invoice.pdf", document_type="invoice", fields={}, checks=[])
    passports = op.get(reverse("review:queue_list"), {"document_type": "passport"})
    assert [r["task"].document.original_name for r in passports.context["rows"]] == ["passport-0001.jpg"]
    everything = op.get(reverse("review:queue_list"))
    assert len(everything.context["rows"]) == 2


def test_next_task_claims_with_a_lease_and_opens_the_review_screen(op, operator, task):
    claimed = _claim(op)
    assert claimed == task and claimed.lease_holder == operator
    assert claimed.lease_expires_at > timezone.now()
    assert AuditEvent.objects.filter(action="review.task_claimed", object_id=str(task.pk)).exists()


def test_a_second_operator_cannot_claim_the_same_task(op, second_operator, task):
    _claim(op)
    other = _client(second_operator)
    response = other.post(reverse("review:task_next"), follow=True)
    assert response.redirect_chain[-1][0] == reverse("review:queue_list")
    assert any("No task for you right now" in m for m in _messages(response))
    task.refresh_from_db()
    assert task.lease_holder.username == "olivia"


def test_an_expired_lease_returns_the_task_to_the_queue(op, second_operator, task):
    _claim(op)
    ReviewTask.objects.filter(pk=task.pk).update(lease_expires_at=timezone.now() - dt.timedelta(seconds=1))
    assert _claim(_client(second_operator)) == task


def test_next_task_of_one_document_type(op, tenant, task):
    document_for_review(tenant, name="invoice.pdf", document_type="invoice", fields={}, checks=[])
    claimed = _claim(op, document_type="invoice")
    assert claimed.document.original_name == "invoice.pdf"


# --- The review screen ----------------------------------------------------------------------------


def test_review_screen_shows_each_field_with_its_crop_and_the_reasons(op, task):
    _claim(op)
    response = op.get(_urls(task)["detail"])
    assert response.status_code == 200 and response.context["can_act"]
    rows = {r.name: r for r in response.context["rows"]}
    assert rows["given_names"].flag == "Low confidence" and rows["surname"].flag == "Low confidence"
    assert rows["document_number"].flag == ""
    assert rows["given_names"].crop_url == reverse("review:field_crop", args=[task.pk, "given_names"])
    assert response.context["active_key"] == rows["surname"].key  # the first flagged field
    body = response.content.decode()
    assert 'id="approve-button"' in body and "Given names: low confidence" in body
    crop = op.get(rows["given_names"].crop_url)
    assert crop.status_code == 200 and crop["Content-Type"] == "image/png"


def test_review_screen_shows_each_fields_evidence_beside_its_confidence(op, tenant):
    from engines.evidence import RULES

    evidence = {"document_number": ["mrz_check_digits", "two_readings"]}  # the others have none
    task = ReviewTask.objects.get(document=document_for_review(tenant, evidence=evidence))
    _claim(op)
    response = op.get(_urls(task)["detail"])
    rows = {r.name: r for r in response.context["rows"]}
    assert [t.kind for t in rows["document_number"].evidence] == ["mrz_check_digits", "two_readings"]
    assert rows["nationality"].evidence == () and rows["nationality"].flag == "No independent evidence"
    assert "Nationality: no independent evidence" in [r.text for r in response.context["reasons"]]
    body = response.content.decode()
    means = RULES.kinds["mrz_check_digits"].means.replace("'", "&#x27;")
    assert (
        f'<span class="ev-tag" data-kind="mrz_check_digits" title="{means}">MRZ check digits</span>' in body
    )
    assert body.count('class="ev-none"') == len(rows) - 1 and "no independent evidence" in body
    assert "<style" not in body and "<script>" not in body  # labels styled from app.css (CSP)


def test_a_corrected_value_shows_no_evidence_for_what_the_engine_read(op, task):
    _claim(op)
    op.post(_urls(task)["correct"], {"value": FULL_GIVEN_NAMES})
    page = op.get(_urls(task)["detail"])
    row = next(r for r in page.context["rows"] if r.name == "given_names")
    assert row.review == "corrected" and row.evidence  # stored as read, not shown
    html = page.content.decode()
    item = html[html.index('id="field-given_names"') :]
    item = item[: item.index("</li>")]
    assert "ev-tag" not in item and "ev-none" not in item
    stored = Field.objects.get(extraction__document=task.document, name="given_names")
    assert stored.value == FULL_GIVEN_NAMES and stored.evidence == ["mrz_check_digits", "two_readings"]


def test_review_screen_is_read_only_for_someone_not_holding_the_lease(op, second_operator, task):
    _claim(op)
    response = _client(second_operator).get(_urls(task)["detail"])
    assert response.status_code == 200 and not response.context["can_act"]
    body = response.content.decode()
    assert "olivia</strong> is working on this task" in body and 'id="approve-button"' not in body


def test_confirming_a_field_answers_json_and_labels_it(op, task):
    _claim(op)
    response = op.post(_urls(task)["confirm"], HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    data = response.json()
    assert data["review"] == "confirmed" and data["confidence"] == 1.0 and data["lease_left_s"] > 0
    assert AuditEvent.objects.filter(action="review.field_confirmed", object_id=str(task.pk)).exists()


def test_correcting_a_field_without_javascript_redirects_back_to_the_field(op, task):
    _claim(op)
    response = op.post(_urls(task)["correct"], {"value": f"  {FULL_GIVEN_NAMES} "})
    assert response.status_code == 302
    assert response["Location"] == _urls(task)["detail"] + "#field-given_names"
    field = Field.objects.get(extraction__document=task.document, name="given_names")
    assert field.value == FULL_GIVEN_NAMES
    page = op.get(_urls(task)["detail"])
    row = next(r for r in page.context["rows"] if r.name == "given_names")
    assert row.review == "corrected" and row.engine_value == "FATIMA PRIYA ZEYNEP"


def test_field_action_without_the_lease_is_409_with_a_clear_message(op, second_operator, task):
    _claim(op)
    ReviewTask.objects.filter(pk=task.pk).update(lease_expires_at=timezone.now() - dt.timedelta(seconds=1))
    _claim(_client(second_operator))
    response = op.post(_urls(task)["confirm"], HTTP_ACCEPT="application/json")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "not_lease_holder"
    assert "oscar is working on this task now" in response.json()["error"]["message"]


def test_an_expired_lease_nobody_took_can_still_be_finished(op, task):
    _claim(op)
    ReviewTask.objects.filter(pk=task.pk).update(lease_expires_at=timezone.now() - dt.timedelta(seconds=1))
    op.post(_urls(task)["approve"])
    task.refresh_from_db()
    assert task.status == TaskStatus.DONE


def test_a_released_task_refuses_the_former_holder(op, supervisor, task):
    _claim(op)
    _client(supervisor).post(_urls(task)["release"])
    response = op.post(_urls(task)["approve"], follow=True)
    assert any("You no longer hold this task" in m for m in _messages(response))
    task.refresh_from_db()
    assert task.status == TaskStatus.OPEN


def test_unknown_field_is_404_json(op, task):
    _claim(op)
    url = reverse("review:field_confirm", args=[task.pk, "shoe_size"])
    response = op.post(url, HTTP_ACCEPT="application/json")
    assert response.status_code == 404 and response.json()["error"]["code"] == "field_not_found"


# --- Decisions ------------------------------------------------------------------------------------


def test_approve_approves_the_document_and_returns_to_the_queue(op, task):
    _claim(op)
    response = op.post(_urls(task)["approve"], follow=True)
    assert response.redirect_chain[-1][0] == reverse("review:queue_list")
    assert any("Approved passport-0001.jpg" in m for m in _messages(response))
    task.refresh_from_db()
    task.document.refresh_from_db()
    assert task.status == TaskStatus.DONE and task.outcome == "approved"
    assert task.document.status == DocumentStatus.APPROVED


def test_reject_needs_a_reason_and_records_it(op, task):
    _claim(op)
    refused = op.post(_urls(task)["reject"], {}, follow=True)
    assert any("Choose a reason" in m for m in _messages(refused))
    other_without_note = op.post(_urls(task)["reject"], {"reason": "other"}, follow=True)
    assert any("needs a note" in m for m in _messages(other_without_note))
    response = op.post(_urls(task)["reject"], {"reason": "expired", "note": ""}, follow=True)
    assert any("Rejected passport-0001.jpg: expired" in m for m in _messages(response))
    task.refresh_from_db()
    assert (task.status, task.outcome, task.reject_reason) == (TaskStatus.DONE, "rejected", "expired")
    assert task.document.__class__.objects.get(pk=task.document_id).status == DocumentStatus.REJECTED


def test_escalated_task_goes_to_a_supervisor(op, supervisor, second_operator, task):
    _claim(op)
    response = op.post(_urls(task)["escalate"], {"note": "Given names differ from the printed page"})
    assert response.status_code == 302
    task.refresh_from_db()
    assert task.status == TaskStatus.ESCALATED and task.lease_holder is None
    # Operators cannot take it; the supervisor's next task is it.
    assert _client(second_operator).post(reverse("review:task_next")).status_code == 302
    task.refresh_from_db()
    assert task.lease_holder is None
    boss = _client(supervisor)
    assert _claim(boss) == task
    page = boss.get(_urls(task)["detail"]).content.decode()
    assert "Given names differ from the printed page" in page and "Escalated by olivia" in page


def test_escalation_needs_a_note(op, task):
    _claim(op)
    response = op.post(_urls(task)["escalate"], {"note": "  "}, follow=True)
    assert any("Say what the supervisor should look at" in m for m in _messages(response))


def test_release_hands_the_task_back(op, second_operator, task):
    _claim(op)
    op.post(_urls(task)["release"])
    assert _claim(_client(second_operator)) == task


def test_maker_checker_needs_a_second_operator(op, operator, second_operator, supervisor, tenant, task):
    queue = ReviewQueue.objects.get(tenant=tenant)
    review_queue_update(
        queue=queue,
        actor=supervisor,
        config=QueueSettings(name=queue.name, sla=queue.sla, maker_checker_document_types=["passport"]),
    )
    _claim(op)
    first = op.post(_urls(task)["approve"], follow=True)
    assert any("waits for a second operator" in m for m in _messages(first))
    task.refresh_from_db()
    assert task.status == TaskStatus.AWAITING_CHECK and task.maker == operator
    assert task.document.__class__.objects.get(pk=task.document_id).status == DocumentStatus.NEEDS_REVIEW
    # The maker cannot take their own approval as checker.
    again = op.post(reverse("review:task_next"), follow=True)
    assert any("No task for you right now" in m for m in _messages(again))
    checker = _client(second_operator)
    assert _claim(checker) == task
    page = checker.get(_urls(task)["detail"])
    assert page.context["check"].state == "needs_checker" and "olivia as maker" in page.content.decode()
    checker.post(_urls(task)["approve"])
    task.refresh_from_db()
    assert task.status == TaskStatus.DONE and task.completed_by == second_operator
    assert task.document.__class__.objects.get(pk=task.document_id).status == DocumentStatus.APPROVED


# --- Supervisors --------------------------------------------------------------------------------


def test_supervisor_creates_and_edits_a_queue(supervisor, tenant):
    client = _client(supervisor)
    form = {
        "name": "Passports",
        "document_types": ["passport", "id_card"],
        "priority": "5",
        "sla_hours": "4",
        "maker_checker_document_types": ["passport"],
        "qa_sample_percent": "10",
    }
    assert client.post(reverse("review:queue_create"), form).status_code == 302
    queue = ReviewQueue.objects.get(tenant=tenant, name="Passports")
    assert queue.document_types == ["id_card", "passport"] and queue.sla == dt.timedelta(hours=4)
    assert queue.maker_checker_document_types == ["passport"] and queue.qa_sample_rate == pytest.approx(0.1)
    edit = client.get(reverse("review:queue_edit", args=[queue.pk]))
    assert edit.status_code == 200 and edit.context["form"].initial["sla_hours"] == 4
    form.update(priority="9", qa_sample_percent="")
    assert client.post(reverse("review:queue_edit", args=[queue.pk]), form).status_code == 302
    queue.refresh_from_db()
    assert queue.priority == 9 and queue.qa_sample_rate is None
    actions = list(AuditEvent.objects.filter(object_id=str(queue.pk)).values_list("action", flat=True))
    assert actions == ["review.queue_created", "review.queue_updated"]
    listing = client.get(reverse("review:queue_manage")).content.decode()
    assert "Passports" in listing and "ID card, Passport" in listing


def test_queue_form_errors_are_shown(supervisor, tenant):
    client = _client(supervisor)
    review_queue_create(tenant=tenant, actor=supervisor, config=QueueSettings(name="Taken"))
    response = client.post(
        reverse("review:queue_create"), {"name": "Taken", "priority": "0", "sla_hours": "1"}
    )
    assert response.status_code == 400 and "already exists" in response.content.decode()
    response = client.post(reverse("review:queue_create"), {"name": "X", "priority": "0", "sla_hours": "0"})
    assert response.status_code == 400 and response.context["form"].errors["sla_hours"]


def test_dashboard_renders_its_charts_with_the_tenants_numbers(supervisor, op, tenant, task):
    _claim(op)
    op.post(_urls(task)["correct"], {"value": FULL_GIVEN_NAMES})
    op.post(_urls(task)["approve"])
    response = _client(supervisor).get(reverse("review:dashboard"), {"days": "7"})
    assert response.status_code == 200
    data = response.context["data"]
    assert (data.decided, data.auto_approved, data.finished_reviews) == (1, 0, 1)
    assert data.days[-1].approved == 1 and data.straight_through_rate == 0.0
    assert data.processing.count == 1 and data.review.count == 1
    body = response.content.decode()
    assert body.count("<svg") >= 6
    for section in (
        "chart-throughput",
        "chart-queues",
        "chart-ages",
        "chart-fields",
        "chart-confidence",
        "chart-latency",
    ):
        assert f'id="{section}"' in body
    assert next(o for o in data.operators if o.username == "olivia").corrections == 1


def test_field_crop_is_a_tight_png_for_reviewers_only(op, uploader, other_operator, task):
    url = reverse("review:field_crop", args=[task.pk, "given_names"])
    crop = op.get(url)
    assert crop.status_code == 200 and crop["Content-Type"] == "image/png"
    assert "no-store" in crop["Cache-Control"]
    from io import BytesIO

    from PIL import Image

    with Image.open(BytesIO(crop.content)) as image:
        width, height = image.size
    # The given names' box is 0.33 x 0.027 of a 1359 x 1118 page: the crop keeps one MRZ line.
    assert 470 <= width <= 500 and 40 <= height <= 60
    assert _client(uploader).get(url).status_code == 403
    assert _client(other_operator).get(url).status_code == 404
    assert op.get(reverse("review:field_crop", args=[task.pk, "shoe_size"])).status_code == 404


def test_a_supervisor_can_release_a_task_an_absent_operator_holds(op, supervisor, second_operator, task):
    _claim(op)
    boss = _client(supervisor)
    assert 'id="supervisor-release"' in boss.get(_urls(task)["detail"]).content.decode()
    assert (
        'id="supervisor-release"' not in _client(second_operator).get(_urls(task)["detail"]).content.decode()
    )
    boss.post(_urls(task)["release"])
    assert _claim(_client(second_operator)) == task
