"""Batches: many files or one zip; zips inspected before anything is inflated or stored;
counts by status; exports; tenant isolation."""

from __future__ import annotations

import csv
import io
import json
import zipfile

import pytest

from apps.batches.models import Batch
from apps.documents.models import Document
from tests.factories import make_read_document
from tests.support.uploads import png_bytes, upload

pytestmark = pytest.mark.django_db


def _zip(members: dict[str, bytes], compression: int = zipfile.ZIP_DEFLATED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=compression) as archive:
        for name, content in members.items():
            archive.writestr(name, content)
    return buffer.getvalue()


def _post(api, files: list[tuple[str, bytes]], headers=None, **extra):
    data = {"files": [upload(content, name) for name, content in files], **extra}
    return api.post("/api/v1/batches", data, format="multipart", headers=headers or {})


def test_many_files_become_a_batch_and_refusals_are_listed(api):
    response = _post(api, [("a.png", png_bytes(1)), ("b.png", png_bytes(2)), ("notes.txt", b"hello")])
    assert response.status_code == 202, response.content
    body = response.json()
    assert [d["file"] for d in body["documents"]] == ["a.png", "b.png"]
    assert body["refused"] == [
        {"file": "notes.txt", "code": "unsupported_file_type", "message": body["refused"][0]["message"]}
    ]
    detail = api.get(body["url"]).json()
    assert detail["total"] == 2 and detail["counts"] == {"queued": 2} and len(detail["refused"]) == 1


def test_the_same_bytes_twice_or_already_uploaded_are_one_document(api):
    """GIVEN a file uploaded before WHEN a batch holds it again, and another file twice THEN the
    batch lists 3 entries but only one new document is made; the repeats are marked duplicate."""
    first = _post(api, [("old.png", png_bytes(11))]).json()["documents"][0]
    body = _post(
        api, [("again.png", png_bytes(11)), ("n.png", png_bytes(12)), ("n2.png", png_bytes(12))]
    ).json()
    documents = body["documents"]
    assert [(d["file"], d["duplicate"]) for d in documents] == [
        ("again.png", True), ("n.png", False), ("n2.png", True),
    ]  # fmt: skip
    assert documents[0]["id"] == first["id"] and documents[1]["id"] == documents[2]["id"]
    assert Document.objects.count() == 2


def test_one_zip_becomes_a_batch_of_its_members(api):
    archive = _zip({"scans/a.png": png_bytes(3), "b.png": png_bytes(4)})
    body = _post(api, [("folder.zip", archive)]).json()
    assert [d["file"] for d in body["documents"]] == ["folder.zip/scans/a.png", "folder.zip/b.png"]


def test_a_zip_bomb_is_refused_before_anything_is_inflated_or_stored(api):
    bomb = _zip({"a.png": png_bytes(5), "bomb.png": b"\0" * 5_000_000})
    response = _post(api, [("bomb.zip", bomb)])
    assert response.status_code == 413 and response.json()["code"] == "suspicious_compression"
    assert Document.objects.count() == 0 and Batch.objects.count() == 0


def test_a_zip_with_a_path_leaving_the_archive_is_refused(api):
    evil = _zip({"a.png": png_bytes(6), "../../etc/cron.d/x.png": png_bytes(7)})
    response = _post(api, [("evil.zip", evil)])
    assert response.status_code == 422 and response.json()["code"] == "unsafe_member_path"
    assert Document.objects.count() == 0


def test_a_zip_with_too_many_entries_is_refused(api, settings):
    settings.DOCINTEL_ZIP_MAX_MEMBERS = 2
    response = _post(api, [("many.zip", _zip({f"{i}.png": png_bytes(10 + i) for i in range(3)}))])
    assert response.status_code == 413 and response.json()["code"] == "archive_too_many_members"


def test_too_many_files_is_413_before_work_is_queued(api, settings):
    settings.DOCINTEL_BATCH_MAX_FILES = 2
    response = _post(api, [(f"{i}.png", png_bytes(20 + i)) for i in range(3)])
    assert response.status_code == 413 and response.json()["code"] == "too_many_files"
    assert Document.objects.count() == 0


def test_a_zip_beside_other_files_is_refused(api):
    response = _post(api, [("a.png", png_bytes(30)), ("b.zip", _zip({"c.png": png_bytes(31)}))])
    assert response.status_code == 422 and response.json()["code"] == "mixed_batch"


def test_a_batch_none_of_whose_files_can_be_taken_is_refused_with_every_reason(api):
    response = _post(api, [("a.txt", b"text"), ("b.txt", b"more")])
    body = response.json()
    assert response.status_code == 415 and [r["file"] for r in body["refused"]] == ["a.txt", "b.txt"]
    assert Batch.objects.count() == 0


def test_batch_idempotency(api):
    files = [("a.png", png_bytes(40)), ("b.png", png_bytes(41))]
    first = _post(api, files, headers={"Idempotency-Key": "batch-1"}).json()
    again = _post(api, files, headers={"Idempotency-Key": "batch-1"})
    assert again.status_code == 202 and again.json()["id"] == first["id"] and Batch.objects.count() == 1
    other = _post(api, files[:1], headers={"Idempotency-Key": "batch-1"})
    assert other.status_code == 422 and other.json()["code"] == "idempotency_key_reused"


def test_exports_as_json_lines_and_csv(api, tenant):
    from apps.batches.models import BatchDocument
    from apps.batches.services import batch_open

    batch = batch_open(tenant=tenant)
    read = make_read_document(tenant, name="=cmd|' /C calc'!A0.png")
    BatchDocument.objects.create(batch=batch, document=read, position=0, file="p.png")
    jsonl = api.get(f"/api/v1/batches/{batch.pk}/results.jsonl")
    assert jsonl.status_code == 200 and jsonl["Content-Type"] == "application/jsonl"
    lines = b"".join(jsonl.streaming_content).decode().splitlines()
    assert [json.loads(line)["id"] for line in lines] == [str(read.pk)]
    exported = api.get(f"/api/v1/batches/{batch.pk}/results.csv")
    assert exported["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(exported.content.decode())))
    assert rows[0]["surname"] == "ERIKSSON" and rows[0]["surname.confidence"] == "0.97"
    assert rows[0]["file"].startswith("'=")  # never a formula in a spreadsheet


def test_other_tenants_batches_are_404_and_not_listed(api, other_api):
    body = _post(api, [("a.png", png_bytes(50))]).json()
    for path in (body["id"], f"{body['id']}/results.jsonl", f"{body['id']}/results.csv"):
        response = other_api.get(f"/api/v1/batches/{path}")
        assert response.status_code == 404 and response.json()["code"] == "not_found", path
    assert other_api.get("/api/v1/batches").json()["results"] == []
    assert [b["id"] for b in api.get("/api/v1/batches").json()["results"]] == [body["id"]]


def test_a_batch_racing_another_upload_of_the_same_bytes_is_stored_file_by_file(tenant, monkeypatch):
    """GIVEN a file whose bytes another upload stored after the batch looked its duplicates up
    (the lookup is made to miss it, as the race would) WHEN the batch's one INSERT meets the
    unique constraint THEN the batch is rolled back and stored again file by file: that file is
    the existing document, the other a new one with its callback, and no original is left behind
    from the first try."""
    from django.core.files.storage import default_storage

    from apps.api.services import SubmittedFile, batch_submit
    from apps.documents.services import document_upload
    from apps.webhooks.models import DocumentCallback

    earlier = document_upload(tenant=tenant, content=png_bytes(21), original_name="x.png", uploaded_by=None)
    monkeypatch.setattr("apps.api.services.documents_by_sha256", lambda **_: {})

    def originals() -> int:
        folders = default_storage.listdir("documents")[0]
        return sum("original.bin" in default_storage.listdir(f"documents/{f}")[1] for f in folders)

    originals_before = originals()
    submission = batch_submit(
        tenant=tenant,
        files=[SubmittedFile("x.png", png_bytes(21)), SubmittedFile("y.png", png_bytes(22))],
        callback_url="https://example.org/hook",
    )
    documents = [item.document for item in submission.items]
    assert documents[0].pk == earlier.document.pk and [i.duplicate for i in submission.items] == [True, False]
    assert Document.objects.count() == 2
    assert DocumentCallback.objects.filter(document=documents[1], url="https://example.org/hook").exists()
    assert originals() == originals_before + 1


def test_a_batch_holding_the_same_file_twice_with_a_callback_is_one_document_with_one_callback(api):
    """GIVEN a batch that holds the same bytes twice and a callback_url WHEN it is submitted THEN
    it is accepted (it answered 500: the repeat's callback was attached before the new document's
    row was inserted), both entries are the one new document, the second marked duplicate, and
    that document has the one callback."""
    from apps.webhooks.models import DocumentCallback

    response = _post(
        api,
        [("a.png", png_bytes(31)), ("a-again.png", png_bytes(31))],
        callback_url="https://example.org/hook",
    )
    assert response.status_code == 202, response.content
    documents = response.json()["documents"]
    assert [(d["file"], d["duplicate"]) for d in documents] == [("a.png", False), ("a-again.png", True)]
    assert documents[0]["id"] == documents[1]["id"] and Document.objects.count() == 1
    assert list(DocumentCallback.objects.values_list("document_id", "url")) == [
        (Document.objects.get().pk, "https://example.org/hook")
    ]
