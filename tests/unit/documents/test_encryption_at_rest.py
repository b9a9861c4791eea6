"""Originals, page images and text layers are encrypted at rest; master key rotation re-wraps keys.

GIVEN a digital PDF carrying a canary string in plain text (uncompressed, so it sits in the file's
bytes) WHEN it is uploaded and prepared into page images and a text layer THEN no file anywhere in
the blob storage holds the canary, in any common encoding, nor a PDF or PNG signature.
GIVEN documents wrapped under an old master key WHEN ``manage.py rotate_keys`` runs with a new
key configured THEN every data key is re-wrapped, not one blob changes on disk, and the documents
read under the new key alone, and no longer under the old.
"""

from __future__ import annotations

import base64
import hashlib
import os
import secrets
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from fpdf import FPDF

from apps.documents import blobs, crypto
from apps.documents.models import Document, Page
from apps.documents.pipeline import document_prepare
from apps.documents.services import document_upload
from apps.tenants.services import tenant_webhook_secret_rotate

pytestmark = pytest.mark.django_db


def _storage_root(settings) -> Path:
    return Path(settings.STORAGES["default"]["OPTIONS"]["location"])


def _pdf_with(text: str) -> bytes:
    pdf = FPDF()
    pdf.set_compression(False)
    pdf.add_page()
    pdf.set_font("helvetica", size=14)
    pdf.cell(text=f"Passport holder {text}")
    return bytes(pdf.output())


def _key() -> str:
    return base64.b64encode(os.urandom(32)).decode()


def _blob_files(root: Path) -> dict[Path, str]:
    return {p: hashlib.sha256(p.read_bytes()).hexdigest() for p in root.rglob("*") if p.is_file()}


def test_a_canary_planted_in_an_upload_appears_nowhere_in_the_storage(tenant, settings):
    canary = f"CANARY{secrets.token_hex(8).upper()}"
    content = _pdf_with(canary)
    assert canary.encode() in content  # planted where a plaintext copy would show it
    document = document_upload(
        tenant=tenant, content=content, original_name="p.pdf", uploaded_by=None
    ).document
    document_prepare(document_id=str(document.pk))
    page = Page.objects.get(document=document)
    assert page.text_blob_name  # the text layer (holding the canary as text) is stored too
    assert canary in blobs.blob_read(document=document, name=page.text_blob_name).decode()

    needles = [
        canary.encode(),
        canary.encode("utf-16-le"),
        canary.encode("utf-16-be"),
        canary.lower().encode(),
        base64.b64encode(canary.encode())[:12],
        b"%PDF-",
        b"\x89PNG",
    ]
    files = list(_storage_root(settings).rglob("*"))
    scanned = [p for p in files if p.is_file() and str(document.pk) in str(p)]
    assert len(scanned) == 3  # the original, the page image, the text layer
    for path in (p for p in files if p.is_file()):
        data = path.read_bytes()
        # the canary is random: it is looked for everywhere; a 4-byte file signature turns up by
        # chance in megabytes of other tests' ciphertext, so it is looked for in this document's
        # blobs only
        looked_for = needles if path in scanned else needles[:5]
        assert not any(needle in data for needle in looked_for), path


def test_rotate_keys_rewraps_data_keys_without_touching_blobs(tenant, settings):
    old, new = _key(), _key()
    settings.DOCINTEL_MASTER_KEY, settings.DOCINTEL_OLD_MASTER_KEYS = old, []
    tenant_webhook_secret_rotate(tenant=tenant)  # the tenant's webhook secret is sealed under it too
    documents = [
        document_upload(
            tenant=tenant, content=_pdf_with(str(i)), original_name=f"{i}.pdf", uploaded_by=None
        ).document
        for i in range(3)
    ]
    document_prepare(document_id=str(documents[0].pk))
    wrapped_before = {d.pk: bytes(d.wrapped_key) for d in documents}
    root = _storage_root(settings)
    files_before = _blob_files(root)

    settings.DOCINTEL_MASTER_KEY, settings.DOCINTEL_OLD_MASTER_KEYS = new, [old]
    call_command("rotate_keys")

    assert _blob_files(root) == files_before  # not one blob re-encrypted, moved or rewritten
    settings.DOCINTEL_OLD_MASTER_KEYS = []  # the old key is gone
    for document in Document.objects.filter(pk__in=wrapped_before):
        assert bytes(document.wrapped_key) != wrapped_before[document.pk]
        assert blobs.blob_read(document=document, name=document.blob_name).startswith(b"%PDF-")
    settings.DOCINTEL_MASTER_KEY = old
    with pytest.raises(crypto.DecryptionError):
        blobs.blob_read(document=Document.objects.get(pk=documents[0].pk), name=documents[0].blob_name)


def test_rotate_keys_again_rewraps_nothing_and_reports_unreadable_keys(tenant, settings, capsys):
    settings.DOCINTEL_MASTER_KEY, settings.DOCINTEL_OLD_MASTER_KEYS = _key(), []
    tenant_webhook_secret_rotate(tenant=tenant)  # the tenant's webhook secret is sealed under it too
    document_upload(tenant=tenant, content=_pdf_with("x"), original_name="x.pdf", uploaded_by=None)
    call_command("rotate_keys")
    assert "re-wrapped 0 data keys" in capsys.readouterr().out

    settings.DOCINTEL_MASTER_KEY = _key()  # the key the document was wrapped under is lost
    with pytest.raises(CommandError, match="no configured master key unwraps"):
        call_command("rotate_keys")
