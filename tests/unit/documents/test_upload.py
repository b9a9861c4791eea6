import io

import pytest
from django.core.files.storage import default_storage
from PIL import Image

from apps.documents import blobs
from apps.documents.models import Document, DocumentStatus
from apps.documents.services import UploadRejectedError, document_upload

pytestmark = pytest.mark.django_db


def _png(color: str = "white") -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (64, 48), color).save(buffer, format="PNG")
    return buffer.getvalue()


def test_upload_stores_the_original_encrypted_and_queues_the_document(tenant):
    content = _png()
    outcome = document_upload(tenant=tenant, content=content, original_name="scan.png", uploaded_by=None)
    document = outcome.document
    assert outcome.created and document.status == DocumentStatus.QUEUED
    assert document.mime_type == "image/png" and document.size_bytes == len(content)
    with default_storage.open(document.blob_name, "rb") as handle:
        stored = handle.read()
    assert content not in stored and b"PNG" not in stored
    assert blobs.blob_read(document=document, name=document.blob_name) == content


def test_duplicate_upload_returns_existing_document(tenant):
    first = document_upload(tenant=tenant, content=_png(), original_name="a.png", uploaded_by=None)
    second = document_upload(tenant=tenant, content=_png(), original_name="b.png", uploaded_by=None)
    assert not second.created and second.document.pk == first.document.pk
    assert Document.objects.count() == 1


def test_same_bytes_for_another_tenant_is_another_document(tenant, other_tenant):
    first = document_upload(tenant=tenant, content=_png(), original_name="a.png", uploaded_by=None)
    second = document_upload(tenant=other_tenant, content=_png(), original_name="a.png", uploaded_by=None)
    assert second.created and second.document.pk != first.document.pk


@pytest.mark.parametrize(
    ("content", "code"),
    [
        (b"", "empty_file"),
        (b"MZ\x90\x00 an executable", "unsupported_file_type"),
        (b"hello, world", "unsupported_file_type"),
    ],
)
def test_unacceptable_uploads_are_rejected_with_a_code_and_store_nothing(tenant, content, code):
    with pytest.raises(UploadRejectedError) as caught:
        document_upload(tenant=tenant, content=content, original_name="x", uploaded_by=None)
    assert caught.value.code == code
    assert Document.objects.count() == 0


def test_oversized_upload_is_rejected(tenant, settings):
    settings.DOCINTEL_MAX_UPLOAD_BYTES = 100
    with pytest.raises(UploadRejectedError) as caught:
        document_upload(tenant=tenant, content=_png(), original_name="x.png", uploaded_by=None)
    assert caught.value.code == "file_too_large"
