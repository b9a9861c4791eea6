"""Encrypted blob storage on top of Django's storage API (local disk, or S3 & co. in production).

Callers hand over plaintext bytes and get plaintext back; only ciphertext reaches the storage.
"""

from __future__ import annotations

from django.conf import settings
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage

from apps.documents import crypto
from apps.documents.models import Document


class BlobMissingError(Exception):
    pass


def master_key() -> bytes:
    """The key new data keys are wrapped under."""
    return crypto.load_master_key(
        configured=settings.DOCINTEL_MASTER_KEY, dev_key_file=settings.DOCINTEL_MASTER_KEY_FILE
    )


def master_keys() -> list[bytes]:
    """The current master key, then the retired ones (``DOCINTEL_OLD_MASTER_KEYS``) that data keys
    may still be wrapped under until ``manage.py rotate_keys`` has re-wrapped them."""
    return [master_key(), *(crypto.parse_master_key(k) for k in settings.DOCINTEL_OLD_MASTER_KEYS)]


def new_wrapped_key(*, document_id: str) -> bytes:
    return crypto.wrap_key(master_key(), crypto.new_data_key(), document_id=document_id)


def _data_key(document: Document) -> bytes:
    data_key, _ = crypto.unwrap_key_any(
        master_keys(), bytes(document.wrapped_key), document_id=str(document.pk)
    )
    return data_key


def _aad(document: Document, name: str) -> bytes:
    return f"{document.pk}:{name}".encode()


def blob_write(*, document: Document, name: str, plaintext: bytes) -> str:
    """Store ``plaintext`` encrypted under ``name`` (overwriting: re-runs of a step are idempotent)."""
    ciphertext = crypto.encrypt(_data_key(document), plaintext, associated_data=_aad(document, name))
    if default_storage.exists(name):
        default_storage.delete(name)
    stored = default_storage.save(name, ContentFile(ciphertext))
    return stored


def blob_read(*, document: Document, name: str) -> bytes:
    """The plaintext of the document's blob. ``BlobMissingError`` when it is not stored;
    ``crypto.KeyNotLoadedError`` when its data key is wrapped under a master key this process does
    not hold (yet: an outage the document waits out); ``crypto.DecryptionError`` when it does not
    open under the keys it names."""
    if not default_storage.exists(name):
        raise BlobMissingError(f"blob for document {document.pk} is missing")
    with default_storage.open(name, "rb") as handle:
        ciphertext = handle.read()
    return crypto.decrypt(_data_key(document), ciphertext, associated_data=_aad(document, name))


def blob_delete(*, name: str) -> None:
    if default_storage.exists(name):
        default_storage.delete(name)


def document_blob_names(document_id: str) -> list[str]:
    """Every blob stored under the document's folder, whatever its rows say: erasure deletes them
    all, including one a step's attempt wrote and never recorded (two attempts racing on one name,
    where the storage saved the second under a name of its own)."""
    folder = f"documents/{document_id}"
    try:
        _, files = default_storage.listdir(folder)
    except FileNotFoundError:
        return []
    return [f"{folder}/{name}" for name in files]


def original_blob_name(document_id: str) -> str:
    return f"documents/{document_id}/original.bin"


def page_blob_name(document_id: str, number: int) -> str:
    return f"documents/{document_id}/page-{number:04d}.bin"


def text_layer_blob_name(document_id: str, number: int) -> str:
    return f"documents/{document_id}/page-{number:04d}.text.bin"
