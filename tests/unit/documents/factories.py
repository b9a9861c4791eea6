"""Minimal real rows for unit tests (through the models, no mocks)."""

from __future__ import annotations

import hashlib
import uuid

from apps.documents import blobs
from apps.documents.models import Document
from apps.tenants.models import Tenant


def make_document(tenant: Tenant, content: bytes | None = None) -> Document:
    document_id = uuid.uuid4()
    content = content or uuid.uuid4().bytes
    return Document.objects.create(
        id=document_id,
        tenant=tenant,
        sha256=hashlib.sha256(content).hexdigest(),
        original_name="x.png",
        mime_type="image/png",
        size_bytes=len(content),
        blob_name=blobs.original_blob_name(str(document_id)),
        wrapped_key=blobs.new_wrapped_key(document_id=str(document_id)),
    )
