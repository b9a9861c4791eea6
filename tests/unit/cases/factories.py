"""Real rows for the case tests: documents already read, with their extraction and fields, made
through the models (the pipeline itself is exercised by tests/integration/test_cases_api.py)."""

from __future__ import annotations

import hashlib
import uuid

from apps.documents import blobs
from apps.documents.models import Document, Extraction, Field
from apps.tenants.models import Tenant


def read_document(
    tenant: Tenant,
    document_type: str,
    *,
    status: str = "auto_approved",
    source: str = "mrz",
    **fields: str,
) -> Document:
    """A document of ``tenant`` in ``status`` whose latest extraction holds ``fields``."""
    document_id = uuid.uuid4()
    content = document_id.bytes
    document = Document.objects.create(
        id=document_id,
        tenant=tenant,
        sha256=hashlib.sha256(content).hexdigest(),
        original_name=f"{document_type}.jpg",
        mime_type="image/jpeg",
        size_bytes=len(content),
        blob_name=blobs.original_blob_name(str(document_id)),
        wrapped_key=blobs.new_wrapped_key(document_id=str(document_id)),
        status=status,
        document_type=document_type,
        decision=status if status in {"auto_approved", "needs_review"} else "",
    )
    extraction = Extraction.objects.create(
        document=document, engine_name="test", engine_version="1", raw_result={}, checks=[]
    )
    Field.objects.bulk_create(
        Field(
            extraction=extraction, name=name, value=value, raw_confidence=0.99, confidence=0.99, source=source
        )
        for name, value in fields.items()
    )
    return document


PASSPORT = {
    "surname": "MUELLER",
    "given_names": "ANNA MARIA",
    "date_of_birth": "1990-04-01",
    "date_of_expiry": "2035-01-01",
    "document_number": "C01X00T47",
    "issuing_country": "D",
}


def proof_of_address(document_date: str, **overrides: str) -> dict[str, str]:
    return {
        "full_name": "ANNA MÜLLER",
        "address_street": "HAUPTSTRASSE 12",
        "address_postal_code": "80331",
        "document_date": document_date,
    } | overrides
