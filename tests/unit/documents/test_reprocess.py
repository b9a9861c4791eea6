"""A failed document tried again: the service, the API, the document page, the command and an
identical re-upload, on the real database (the worker's part: tests/integration/test_reprocess.py).

GIVEN a document an outage failed after its pages were read (as ``document_fail`` leaves it)
WHEN an operator, the command or the same bytes ask for it again THEN it is queued from the start,
cleared of the failed run and audited; anyone else is refused, and another tenant sees nothing."""

from __future__ import annotations

import datetime as dt
import io

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from apps.audit.models import AuditEvent
from apps.documents import error_codes
from apps.documents.models import Document, Extraction, Page
from apps.documents.models import DocumentStatus as S
from apps.documents.reprocess import NotReprocessableError, ReprocessVia, document_reprocess
from apps.documents.services import document_fail, document_upload
from tests.conftest import SAMPLES
from tests.factories import make_read_document, member, session_client

pytestmark = pytest.mark.django_db
PASSPORT = SAMPLES / "00000-passport.jpg"


def _failed(tenant, code: str = error_codes.MAX_ATTEMPTS_EXCEEDED) -> Document:
    """A document failed by an outage after its pages and a reading were stored."""
    document = make_read_document(tenant, status=S.EXTRACTED)
    return document_fail(document=document, code=code, message="the model engine was unavailable")


def _actions(document: Document) -> list[tuple[str, dict]]:
    events = AuditEvent.objects.filter(object_type="document", object_id=str(document.pk)).order_by("id")
    return [(e.action, e.data) for e in events]


def test_a_failed_document_is_queued_again_cleared_of_its_failed_run_and_audited(tenant, operator):
    document = _failed(tenant)
    again = document_reprocess(document=document, actor=operator, via=ReprocessVia.WEB)
    again.refresh_from_db()
    assert (again.status, again.error_code, again.error_message) == (S.QUEUED, "", "")
    assert (again.attempt_count, again.reprocess_count, again.document_type, again.decision) == (0, 1, "", "")
    assert not Page.objects.filter(document=again).exists()
    assert not Extraction.objects.filter(document=again).exists()
    assert _actions(again)[-3:] == [
        ("document.reprocessed", {"via": "web", "error_code": "max_attempts_exceeded", "attempt_count": 0}),
        ("document.status_changed", {"from": "failed", "to": "received"}),
        ("document.status_changed", {"from": "received", "to": "queued"}),
    ]
    reprocessed = AuditEvent.objects.get(object_id=str(again.pk), action="document.reprocessed")
    assert reprocessed.actor == operator


@pytest.mark.parametrize("status", [S.QUEUED, S.NEEDS_REVIEW, S.AUTO_APPROVED])
def test_only_a_failed_document_is_reprocessed(tenant, status):
    document = make_read_document(tenant, status=status)
    with pytest.raises(NotReprocessableError):
        document_reprocess(document=document, actor=None, via=ReprocessVia.API)
    document.refresh_from_db()
    assert document.status == status and document.reprocess_count == 0


def test_uploading_the_bytes_of_a_failed_document_again_reprocesses_it(tenant):
    """It answered the failed document as it was: the bytes could never be tried again."""
    content = PASSPORT.read_bytes()
    first = document_upload(tenant=tenant, content=content, original_name="p.jpg", uploaded_by=None).document
    document_fail(document=first, code=error_codes.INFERENCE_FAILED, message="Triton was unavailable")
    again = document_upload(tenant=tenant, content=content, original_name="again.jpg", uploaded_by=None)
    assert (again.document.pk, again.created, again.reprocessed) == (first.pk, False, True)
    assert again.document.status == S.QUEUED and Document.objects.get(pk=first.pk).status == S.QUEUED
    assert _actions(first)[-3][1]["via"] == "reupload"
    # a document that did not fail is still only answered
    third = document_upload(tenant=tenant, content=content, original_name="third.jpg", uploaded_by=None)
    assert (third.reprocessed, third.document.status, third.document.reprocess_count) == (False, S.QUEUED, 1)


def test_a_batch_holding_a_failed_documents_bytes_twice_reprocesses_it_once(tenant):
    from apps.api.services import SubmittedFile, batch_submit

    content = PASSPORT.read_bytes()
    first = document_upload(tenant=tenant, content=content, original_name="p.jpg", uploaded_by=None).document
    document_fail(document=first, code=error_codes.INFERENCE_FAILED, message="Triton was unavailable")
    submission = batch_submit(
        tenant=tenant, files=[SubmittedFile("a.jpg", content), SubmittedFile("b.jpg", content)]
    )
    assert [i.document.pk for i in submission.items] == [first.pk, first.pk]
    first.refresh_from_db()
    assert (first.status, first.reprocess_count) == (S.QUEUED, 1)


# --- the API -------------------------------------------------------------------------------------


def _reprocess_url(document: Document) -> str:
    return reverse("api:document_reprocess", kwargs={"document_id": document.pk})


def test_an_operator_reprocesses_a_failed_document_through_the_api(tenant, operator):
    document = _failed(tenant)
    response = session_client(operator).post(_reprocess_url(document))
    assert response.status_code == 202, response.content
    body = response.json()
    assert (body["id"], body["status"], body["reprocess_count"]) == (str(document.pk), "queued", 1)
    assert body["url"].endswith(f"/api/v1/documents/{document.pk}")
    again = session_client(operator).post(_reprocess_url(document))
    assert again.status_code == 409 and again.json()["code"] == "not_reprocessable"


def test_an_uploader_may_not_reprocess(tenant, django_user_model):
    document = _failed(tenant)
    uploader = member(tenant, username="uma", role="uploader")
    response = session_client(uploader).post(_reprocess_url(document))
    assert response.status_code == 403 and response.json()["code"] == "insufficient_role"
    document.refresh_from_db()
    assert document.status == S.FAILED


def test_another_tenants_document_is_not_found(tenant, other_tenant, django_user_model):
    document = _failed(tenant)
    stranger = member(other_tenant, username="oscar", role="admin")
    response = session_client(stranger).post(_reprocess_url(document))
    assert response.status_code == 404
    document.refresh_from_db()
    assert document.status == S.FAILED


def test_an_identical_upload_through_the_api_reprocesses_the_failed_document(tenant):
    from apps.tenants.services import api_key_create

    content = PASSPORT.read_bytes()
    first = document_upload(tenant=tenant, content=content, original_name="p.jpg", uploaded_by=None).document
    document_fail(document=first, code=error_codes.INFERENCE_FAILED, message="Triton was unavailable")
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Api-Key {api_key_create(tenant=tenant, name='t').raw_key}")
    handle = io.BytesIO(content)
    handle.name = "again.jpg"
    response = api.post("/api/v1/documents", {"file": handle}, format="multipart")
    assert response.status_code == 200, response.content
    body = response.json()
    assert (body["id"], body["duplicate"], body["status"]) == (str(first.pk), True, "queued")


# --- the document page ---------------------------------------------------------------------------


def test_the_document_page_offers_operators_to_process_a_failed_document_again(
    tenant, operator, operator_client, django_user_model
):
    document = _failed(tenant)
    page = reverse("ingestion:document_detail", args=[document.pk])
    action = reverse("ingestion:document_reprocess", args=[document.pk])
    html = operator_client.get(page).content.decode()
    assert f'action="{action}"' in html and "csrfmiddlewaretoken" in html
    uploader = member(tenant, username="uma", role="uploader")
    operator_client.force_login(uploader)
    assert action not in operator_client.get(page).content.decode()
    assert operator_client.post(action).status_code == 403

    operator_client.force_login(operator)
    response = operator_client.post(action, follow=True)
    assert response.redirect_chain[-1][0] == page
    assert "Sent to be processed again." in response.content.decode()
    document.refresh_from_db()
    assert document.status == S.QUEUED
    event = AuditEvent.objects.get(object_id=str(document.pk), action="document.reprocessed")
    assert (event.actor, event.data["via"]) == (operator, "web")


def test_the_document_page_reprocess_needs_a_post_with_csrf(tenant, operator):
    from django.test import Client

    document = _failed(tenant)
    client = Client(enforce_csrf_checks=True)
    client.force_login(operator)
    action = reverse("ingestion:document_reprocess", args=[document.pk])
    assert client.get(action).status_code == 405
    assert client.post(action).status_code == 403
    document.refresh_from_db()
    assert document.status == S.FAILED


def test_another_tenants_operator_cannot_reprocess_from_the_page(
    tenant, other_tenant, django_user_model, client
):
    document = _failed(tenant)
    client.force_login(member(other_tenant, username="oscar", role="admin"))
    assert client.post(reverse("ingestion:document_reprocess", args=[document.pk])).status_code == 404


def test_the_upload_page_answers_202_for_a_failed_documents_bytes(tenant, operator, operator_client):
    content = PASSPORT.read_bytes()
    first = document_upload(tenant=tenant, content=content, original_name="p.jpg", uploaded_by=None).document
    document_fail(document=first, code=error_codes.INFERENCE_FAILED, message="Triton was unavailable")
    handle = io.BytesIO(content)
    handle.name = "again.jpg"
    response = operator_client.post(reverse("ingestion:upload_json"), {"file": handle})
    assert response.status_code == 202, response.content
    (document,) = response.json()["documents"]
    assert (document["id"], document["duplicate"], document["reprocessed"]) == (str(first.pk), True, True)
    event = AuditEvent.objects.get(object_id=str(first.pk), action="document.reprocessed")
    assert (event.actor, event.data["via"]) == (operator, "reupload")


# --- manage.py reprocess -------------------------------------------------------------------------


def test_the_command_reprocesses_the_failed_documents_it_is_asked_for(tenant, other_tenant):
    outage = _failed(tenant, error_codes.MAX_ATTEMPTS_EXCEEDED)
    unreadable = _failed(tenant, error_codes.UNREADABLE_IMAGE)
    earlier = _failed(other_tenant, error_codes.MAX_ATTEMPTS_EXCEEDED)
    Document.objects.filter(pk=earlier.pk).update(status_changed_at=timezone.now() - dt.timedelta(days=3))
    out = io.StringIO()
    call_command("reprocess", "--status", "failed", "--error-code", "max_attempts_exceeded", "--since", "1d",
                 "--dry-run", stdout=out)  # fmt: skip
    assert out.getvalue().splitlines() == [str(outage.pk), "would reprocess 1 failed documents"]
    assert Document.objects.get(pk=outage.pk).status == S.FAILED

    out = io.StringIO()
    call_command("reprocess", "--status", "failed", "--error-code", "max_attempts_exceeded", "--since", "1d",
                 stdout=out)  # fmt: skip
    assert out.getvalue().splitlines()[-1] == "reprocessed 1 failed documents"
    statuses = dict(Document.objects.values_list("pk", "status"))
    assert (statuses[outage.pk], statuses[unreadable.pk], statuses[earlier.pk]) == (
        S.QUEUED,
        S.FAILED,
        S.FAILED,
    )
    assert (
        AuditEvent.objects.get(object_id=str(outage.pk), action="document.reprocessed").data["via"]
        == "command"
    )

    call_command("reprocess", "--status", "failed", "--tenant", other_tenant.name, stdout=io.StringIO())
    assert Document.objects.get(pk=earlier.pk).status == S.QUEUED
    assert Document.objects.get(pk=unreadable.pk).status == S.FAILED


@pytest.mark.parametrize("argv", [["--status", "queued"], ["--status", "failed", "--since", "yesterday"]])
def test_the_command_refuses_what_it_cannot_do(argv):
    with pytest.raises((CommandError, SystemExit)):
        call_command("reprocess", *argv, stdout=io.StringIO(), stderr=io.StringIO())
