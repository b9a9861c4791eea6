"""The minimal web page: login, upload, see the document; tenants never see each other's."""

import io

import pytest
from django.urls import reverse
from PIL import Image

from apps.documents.models import Document
from apps.documents.services import document_upload

pytestmark = pytest.mark.django_db


def _png() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (40, 30), "gray").save(buffer, format="PNG")
    return buffer.getvalue()


def _file(content: bytes, name: str):
    handle = io.BytesIO(content)
    handle.name = name
    return handle


def test_pages_require_login(client):
    response = client.get(reverse("ingestion:document_list"))
    assert response.status_code == 302 and reverse("login") in response["Location"]


def test_login_page_logs_an_operator_in(client, operator):
    response = client.post(reverse("login"), {"username": "olivia", "password": "correct horse battery"})
    assert response.status_code == 302
    assert client.get(reverse("ingestion:document_list")).status_code == 200


def test_upload_creates_a_queued_document_and_shows_it(operator_client, tenant):
    response = operator_client.post(reverse("ingestion:upload"), {"file": _file(_png(), "scan.png")})
    document = Document.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("ingestion:document_detail", args=[document.pk])
    assert document.tenant == tenant and document.status == "queued"
    page = operator_client.get(response["Location"])
    assert page.status_code == 200 and b"scan.png" in page.content


def test_uploading_a_text_file_is_refused_with_a_message(operator_client):
    response = operator_client.post(reverse("ingestion:upload"), {"file": _file(b"just text", "notes.txt")})
    assert response.status_code == 415
    assert b"unsupported file type" in response.content
    assert Document.objects.count() == 0


def test_another_tenants_document_is_not_found(operator_client, other_tenant):
    theirs = document_upload(
        tenant=other_tenant, content=_png(), original_name="x.png", uploaded_by=None
    ).document
    assert operator_client.get(reverse("ingestion:document_detail", args=[theirs.pk])).status_code == 404
    assert operator_client.get(reverse("ingestion:document_result_json", args=[theirs.pk])).status_code == 404


def test_result_json_follows_the_document_result_contract(operator_client, tenant):
    mine = document_upload(tenant=tenant, content=_png(), original_name="x.png", uploaded_by=None).document
    body = operator_client.get(reverse("ingestion:document_result_json", args=[mine.pk])).json()
    assert set(body) == {
        "id", "file", "sha256", "status", "document_type", "document_type_confidence", "pages",
        "fields", "checks", "decision", "engine", "timings_ms", "error", "resubmission",
    }  # fmt: skip
    assert body["status"] == "queued" and body["id"] == str(mine.pk)


def test_malformed_document_id_is_not_found(operator_client):
    assert operator_client.get("/documents/not-a-uuid/").status_code == 404


def test_upload_larger_than_the_limit_is_refused_before_it_is_read(operator_client, settings):
    settings.DOCINTEL_MAX_UPLOAD_BYTES = 1000
    settings.FILE_UPLOAD_MAX_MEMORY_SIZE = 2000
    response = operator_client.post(
        reverse("ingestion:upload"), {"file": _file(b"\x89PNG" + b"0" * 5000, "big.png")}
    )
    assert response.status_code == 413
    assert b"larger than" in response.content
    assert Document.objects.count() == 0
