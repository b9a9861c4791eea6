"""A document as the pipeline leaves it (page image, extraction, fields, checks), without running it."""

from __future__ import annotations

import io

from PIL import Image

from apps.documents import blobs
from apps.documents.models import Document, Extraction, Field, Page
from apps.tenants.models import Tenant
from tests.unit.documents.factories import make_document


def page_png(width: int = 400, height: int = 300) -> bytes:
    image = Image.new("RGB", (width, height), "white")
    image.paste((200, 30, 30), (100, 150, 300, 225))  # a red block where the "surname" box is
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


def make_read_document(
    tenant: Tenant, *, status: str = "needs_review", name: str = "passport.png"
) -> Document:
    document = make_document(tenant)
    Document.objects.filter(pk=document.pk).update(
        status=status, document_type="passport", document_type_confidence=0.99, original_name=name
    )
    document.refresh_from_db()
    blob = blobs.page_blob_name(str(document.pk), 1)
    blobs.blob_write(document=document, name=blob, plaintext=page_png())
    Page.objects.create(document=document, number=1, blob_name=blob, width=400, height=300)
    extraction = Extraction.objects.create(
        document=document,
        engine_name="cpu-reference",
        engine_version="test",
        raw_result={},
        checks=[
            {"name": "mrz_check_digits", "passed": True, "detail": ""},
            {"name": "mrz_matches_visual_zone", "passed": False, "detail": "not found in print: surname"},
        ],
    )
    Field.objects.create(
        extraction=extraction, name="surname", value="ERIKSSON", raw_confidence=0.9, confidence=0.97,
        page=1, bbox=[0.25, 0.5, 0.75, 0.75], source="mrz", valid=True, evidence=["mrz_check_digits"],
    )  # fmt: skip
    Field.objects.create(
        extraction=extraction, name="date_of_birth", value="1974-08-12", raw_confidence=0.5, confidence=0.41,
        page=1, bbox=[0.1, 0.1, 0.2, 0.15], source="ocr", valid=False,
    )  # fmt: skip
    Field.objects.create(
        extraction=extraction, name="personal_number", value=None, raw_confidence=0.5, confidence=None,
        page=1, bbox=None, source="mrz", valid=None,
    )  # fmt: skip
    return document
