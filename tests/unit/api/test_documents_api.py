"""The documents endpoints on the real database, without a worker: what is accepted, refused,
listed and shown, and to whom (ARCHITECTURE §3.4)."""

from __future__ import annotations

import pytest

from apps.documents.models import Document
from tests.factories import make_read_document
from tests.support.uploads import png_bytes, upload

pytestmark = pytest.mark.django_db


def _post(api, content: bytes, name: str = "scan.png", **extra):
    headers = extra.pop("headers", {})
    return api.post(
        "/api/v1/documents", {"file": upload(content, name), **extra}, format="multipart", headers=headers
    )


def test_upload_answers_202_with_id_status_and_url(api):
    response = _post(api, png_bytes(1), document_type="receipt")
    assert response.status_code == 202, response.content
    body = response.json()
    assert set(body) >= {"id", "status", "url"} and body["status"] == "queued" and body["duplicate"] is False
    assert body["url"].endswith(f"/api/v1/documents/{body['id']}")
    assert Document.objects.get(pk=body["id"]).document_type_hint == "receipt"


def test_the_same_bytes_again_answer_200_with_the_existing_document(api):
    first = _post(api, png_bytes(2)).json()
    again = _post(api, png_bytes(2), "renamed.png")
    assert (
        again.status_code == 200 and again.json()["id"] == first["id"] and again.json()["duplicate"] is True
    )


def test_the_same_idempotency_key_and_body_return_the_same_document(api):
    key = {"Idempotency-Key": "order-4711"}
    first = _post(api, png_bytes(3), headers=key)
    second = _post(api, png_bytes(3), headers=key)
    assert first.status_code == second.status_code == 202
    assert second.json()["id"] == first.json()["id"] and second["Idempotent-Replayed"] == "true"
    assert Document.objects.count() == 1


def test_the_same_idempotency_key_with_another_body_is_refused_with_a_message(api):
    key = {"Idempotency-Key": "order-4712"}
    assert _post(api, png_bytes(4), headers=key).status_code == 202
    reused = _post(api, png_bytes(5), headers=key)
    assert reused.status_code == 422
    assert (
        reused.json()["code"] == "idempotency_key_reused" and "different request" in reused.json()["message"]
    )
    assert Document.objects.count() == 1


def test_idempotency_keys_are_per_tenant(api, other_api):
    key = {"Idempotency-Key": "shared-name"}
    assert _post(api, png_bytes(6), headers=key).status_code == 202
    assert _post(other_api, png_bytes(7), headers=key).status_code == 202


def test_a_refused_upload_frees_its_idempotency_key(api):
    key = {"Idempotency-Key": "retry-me"}
    refused = _post(api, b"not a document at all", "notes.txt", headers=key)
    assert refused.status_code == 415 and refused.json()["code"] == "unsupported_file_type"
    assert _post(api, png_bytes(8), headers=key).status_code == 202


@pytest.mark.parametrize(
    ("setting", "value", "status", "code"),
    [
        ("DOCINTEL_MAX_UPLOAD_BYTES", 100, 413, "file_too_large"),
        ("DOCINTEL_MAX_PAGES", 0, 422, "too_many_pages"),
    ],
)
def test_size_and_page_limits_answer_before_anything_is_queued(api, settings, setting, value, status, code):
    setattr(settings, setting, value)
    response = _post(api, png_bytes(9, size=(300, 300)))
    assert response.status_code == status and response.json()["code"] in {code, "request_too_large"}
    assert Document.objects.count() == 0


def test_a_body_larger_than_the_limit_is_refused_from_its_content_length(api, settings):
    settings.DOCINTEL_MAX_UPLOAD_BYTES = 10
    response = _post(api, b"\x89PNG\r\n\x1a\n" + b"0" * 3_000_000)
    assert response.status_code == 413 and response.json()["code"] == "request_too_large"


def test_an_invalid_request_is_json_with_a_code_message_and_field_errors(api):
    response = api.post("/api/v1/documents", {"document_type": "spaceship"}, format="multipart")
    body = response.json()
    assert response.status_code == 400 and body["code"] == "invalid_request"
    assert set(body["errors"]) == {"file", "document_type"} and "file" in body["message"]


def test_a_callback_url_must_be_http(api):
    response = _post(api, png_bytes(10), callback_url="ftp://example.org/x")
    assert response.status_code == 400 and "callback_url" in response.json()["errors"]


def test_result_is_the_architecture_3_1_shape(api, tenant):
    document = make_read_document(tenant)
    body = api.get(f"/api/v1/documents/{document.pk}").json()
    assert list(body) == [
        "id", "file", "sha256", "status", "document_type", "document_type_confidence", "pages", "fields",
        "checks", "decision", "engine", "timings_ms", "error", "resubmission",
    ]  # fmt: skip
    assert body["fields"]["surname"] == {
        "value": "ERIKSSON", "confidence": 0.97, "page": 1, "bbox": [0.25, 0.5, 0.75, 0.75], "source": "mrz",
        "valid": True, "evidence": ["mrz_check_digits"],
    }  # fmt: skip
    # a field without evidence says so with an empty list, never by leaving the key out
    assert body["fields"]["date_of_birth"]["evidence"] == body["fields"]["personal_number"]["evidence"] == []


def test_list_filters_by_status_type_and_date_with_a_cursor(api, tenant):
    read = [make_read_document(tenant, name=f"p{i}.png") for i in range(3)]
    for i in range(2):
        _post(api, png_bytes(20 + i))
    everything = api.get("/api/v1/documents", {"page_size": 2}).json()
    assert len(everything["results"]) == 2 and everything["next"]
    rest = api.get(everything["next"]).json()
    assert len(rest["results"]) == 2 and len({d["id"] for d in everything["results"] + rest["results"]}) == 4
    reviewed = api.get("/api/v1/documents", {"status": "needs_review", "document_type": "passport"}).json()
    assert {d["id"] for d in reviewed["results"]} == {str(d.pk) for d in read}
    assert len(api.get("/api/v1/documents", {"status": "", "document_type": ""}).json()["results"]) == 5
    future = api.get("/api/v1/documents", {"created_after": "2999-01-01T00:00:00Z"}).json()
    assert future["results"] == []
    bad = api.get("/api/v1/documents", {"status": "lost"})
    assert bad.status_code == 400 and bad.json()["code"] == "invalid_request"
    assert api.get("/api/v1/documents", {"cursor": "garbage"}).json()["code"] == "invalid_cursor"


def test_pages_and_the_original_are_downloadable_by_the_owner_only(api, other_api, tenant):
    document = make_read_document(tenant)
    page = api.get(f"/api/v1/documents/{document.pk}/pages/1")
    assert (  # a page stored before pages became JPEG keeps its format
        page.status_code == 200
        and page["Content-Type"] == "image/png"
        and page.content.startswith(b"\x89PNG")
        and page["Content-Disposition"] == 'attachment; filename="page-1.png"'
    )
    assert "no-store" in page["Cache-Control"]
    assert api.get(f"/api/v1/documents/{document.pk}/pages/2").status_code == 404
    uploaded = _post(api, png_bytes(30), "mine.png").json()
    original = api.get(f"/api/v1/documents/{uploaded['id']}/original")
    assert original.status_code == 200 and original.content == png_bytes(30)
    assert 'filename="mine.png"' in original["Content-Disposition"]
    for path in (f"{document.pk}", f"{document.pk}/pages/1", f"{uploaded['id']}/original"):
        other = other_api.get(f"/api/v1/documents/{path}")
        assert other.status_code == 404 and other.json()["code"] == "not_found", path
    assert other_api.get("/api/v1/documents").json()["results"] == []


def test_a_jpeg_page_is_served_as_jpeg(api, tenant):
    from apps.documents import blobs
    from apps.documents.models import Page
    from media.preprocessing import prepare_pages

    document = make_read_document(tenant)
    (prepared,) = prepare_pages(png_bytes(40), "image/png")
    page = Page.objects.get(document=document, number=1)
    blobs.blob_write(document=document, name=page.blob_name, plaintext=prepared.image)
    response = api.get(f"/api/v1/documents/{document.pk}/pages/1")
    assert response.status_code == 200 and response["Content-Type"] == "image/jpeg"
    assert response.content == prepared.image
    assert response["Content-Disposition"] == 'attachment; filename="page-1.jpg"'
