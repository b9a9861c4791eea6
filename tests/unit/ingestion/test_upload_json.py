"""The upload page's JSON endpoints: one file per request, zips per member, batched status polls."""

import io
import zipfile

import pytest
from django.test import Client
from django.urls import reverse
from PIL import Image

from apps.documents.models import Document
from apps.documents.services import document_upload

pytestmark = pytest.mark.django_db


def _png(color: str = "gray") -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (40, 30), color).save(buffer, format="PNG")
    return buffer.getvalue()


def _file(content: bytes, name: str):
    handle = io.BytesIO(content)
    handle.name = name
    return handle


def _zip(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, content in members.items():
            archive.writestr(name, content)
    return buffer.getvalue()


def _post(client, content: bytes, name: str, **extra):
    return client.post(reverse("ingestion:upload_json"), {"file": _file(content, name), **extra})


def test_an_uploaded_file_answers_202_with_its_queued_document(operator_client, tenant):
    response = _post(operator_client, _png(), "scan.png")
    body = response.json()
    document = Document.objects.get()
    assert response.status_code == 202 and body["error"] is None and body["refused"] == []
    assert body["documents"] == [
        {
            "id": str(document.pk),
            "file": "scan.png",
            "status": "queued",
            "status_label": "Queued",
            "in_flight": True,
            "document_type": None,
            "document_type_label": "",
            "decision": None,
            "error": None,
            "url": reverse("ingestion:document_detail", args=[document.pk]),
            "duplicate": False,
            "reprocessed": False,
            "existing_file": "scan.png",
            "uploaded_at": document.created_at.isoformat(),
        }
    ]
    assert document.tenant == tenant


def test_an_unsupported_file_answers_415_with_a_readable_reason(operator_client):
    response = _post(operator_client, b"just some notes", "notes.txt")
    assert response.status_code == 415
    error = response.json()["error"]
    assert error["code"] == "unsupported_file_type" and "PDF, or a zip" in error["message"]
    assert Document.objects.count() == 0


def test_a_file_with_more_pages_than_allowed_answers_422(operator_client, settings):
    settings.DOCINTEL_MAX_PAGES = 2
    frames = [Image.new("RGB", (20, 20), c) for c in ("red", "green", "blue")]
    buffer = io.BytesIO()
    frames[0].save(buffer, format="TIFF", save_all=True, append_images=frames[1:])
    response = _post(operator_client, buffer.getvalue(), "three-pages.tif")
    assert response.status_code == 422
    assert response.json()["error"] == {
        "file": "three-pages.tif",
        "code": "too_many_pages",
        "message": "the file has 3 pages; the limit is 2",
    }


def test_uploading_the_same_bytes_again_answers_409_with_the_existing_document(operator_client):
    first = _post(operator_client, _png(), "scan.png").json()["documents"][0]
    response = _post(operator_client, _png(), "scan-again.png")
    again = response.json()["documents"][0]
    assert response.status_code == 409
    assert again["id"] == first["id"] and again["duplicate"] is True and again["existing_file"] == "scan.png"
    assert Document.objects.count() == 1


def test_each_member_of_a_zip_becomes_a_document_and_bad_members_are_named(operator_client):
    archive = _zip({"a.png": _png("red"), "b.png": _png("blue"), "notes.txt": b"text", "inner.zip": _zip({})})
    response = _post(operator_client, archive, "batch.zip")
    body = response.json()
    assert response.status_code == 202
    assert sorted(d["file"] for d in body["documents"]) == ["batch.zip/a.png", "batch.zip/b.png"]
    assert {r["file"]: r["code"] for r in body["refused"]} == {
        "batch.zip/notes.txt": "unsupported_file_type",
        "batch.zip/inner.zip": "nested_archive",
    }
    assert sorted(Document.objects.values_list("original_name", flat=True)) == [
        "batch.zip/a.png",
        "batch.zip/b.png",
    ]


def test_a_zip_bomb_is_refused_whole(operator_client, settings):
    settings.DOCINTEL_ZIP_MAX_EXPANDED_BYTES = 1_000_000
    response = _post(operator_client, _zip({"bomb.png": b"\0" * 2_000_000}), "bomb.zip")
    assert response.status_code == 413 and response.json()["error"]["code"] == "archive_too_large"
    assert Document.objects.count() == 0


def test_upload_json_needs_a_login(client):
    response = _post(client, _png(), "scan.png")
    assert response.status_code == 401 and Document.objects.count() == 0


def test_upload_json_needs_the_csrf_token(operator):
    client = Client(enforce_csrf_checks=True)
    client.force_login(operator)
    assert _post(client, _png(), "scan.png").status_code == 403
    assert Document.objects.count() == 0


def test_status_json_answers_only_for_the_callers_documents(operator_client, tenant, other_tenant):
    mine = document_upload(
        tenant=tenant, content=_png("red"), original_name="m.png", uploaded_by=None
    ).document
    theirs = document_upload(
        tenant=other_tenant, content=_png("blue"), original_name="t.png", uploaded_by=None
    ).document
    ids = f"{mine.pk},{theirs.pk},not-a-uuid"
    body = operator_client.get(reverse("ingestion:documents_status_json"), {"ids": ids}).json()
    assert [(d["id"], d["status"], d["in_flight"]) for d in body["documents"]] == [
        (str(mine.pk), "queued", True)
    ]


def test_status_json_needs_a_login(client):
    assert client.get(reverse("ingestion:documents_status_json"), {"ids": ""}).status_code == 401


def test_the_form_without_javascript_takes_many_files_and_lists_what_became_of_each(operator_client):
    response = operator_client.post(
        reverse("ingestion:upload"),
        {"file": [_file(_png("red"), "a.png"), _file(b"text", "notes.txt")]},
    )
    assert response.status_code == 200
    assert Document.objects.get().original_name == "a.png"
    assert b"notes.txt: unsupported file type" in response.content
