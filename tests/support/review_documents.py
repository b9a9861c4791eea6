"""Documents waiting for review, made from real rows instead of an engine run, for the review UI's
tests (Django client and browser alike).

The page is a real stored page image (a sample passport, encrypted like any other), and the
fields are what the CPU engine reads from it (values, calibrated confidences and boxes as
``manage.py extract samples/00000-passport.jpg`` printed them). The real ``decide`` step then
routes the document, so the task, queue and reasons are the ones production would create.

The sample's machine-readable zone truncates the given names; the printed page carries the
whole name ``FATIMA PRIYA ZEYNEP LAN XIAOLING``. That is the correction a reviewer makes.
"""

from __future__ import annotations

import hashlib
import io
import uuid

from django.utils import timezone
from PIL import Image

from apps.documents import blobs
from apps.documents.models import Document, DocumentStatus, Extraction, Field, Page
from apps.documents.pipeline import document_decide
from apps.documents.state import document_transition
from apps.tenants.models import Tenant
from tests.conftest import SAMPLES

PASSPORT_IMAGE = SAMPLES / "00000-passport.jpg"
FULL_GIVEN_NAMES = "FATIMA PRIYA ZEYNEP LAN XIAOLING"

# name: (value, calibrated confidence, bbox, valid) as the engine read the sample passport (the
# surname's confidence set just under the 0.90 auto-approve threshold, so two fields are flagged).
PASSPORT_FIELDS: dict[str, tuple[str, float, list[float], bool | None]] = {
    "document_number": ("N9171K", 0.998, [0.1714, 0.8009, 0.2756, 0.8275], True),
    "surname": ("VAN HANSEN RAMIREZ", 0.8921, [0.2575, 0.7639, 0.5694, 0.7905], True),
    "given_names": ("FATIMA PRIYA ZEYNEP", 0.8797, [0.6041, 0.7639, 0.9333, 0.7905], True),
    "nationality": ("PHL", 0.999, [0.345, 0.8009, 0.3971, 0.8275], None),
    "date_of_birth": ("1959-07-05", 0.999, [0.3971, 0.8009, 0.5014, 0.8275], True),
    "sex": ("F", 0.999, [0.5187, 0.8009, 0.5361, 0.8275], True),
    "date_of_expiry": ("2059-04-10", 0.999, [0.5361, 0.8009, 0.6403, 0.8275], True),
    "issuing_country": ("PHL", 0.9909, [0.2055, 0.7639, 0.2575, 0.7905], None),
}
# What supports each value besides its score, as the engine attached it to the sample passport:
# the zone's check digits verify every field, and the printed page agrees on names, number, dates.
PASSPORT_EVIDENCE: dict[str, list[str]] = {
    name: ["mrz_check_digits", "two_readings"]
    if name in {"document_number", "surname", "given_names", "date_of_birth", "date_of_expiry"}
    else ["mrz_check_digits"]
    for name in PASSPORT_FIELDS
}
PASSPORT_CHECKS = [
    {"name": "mrz_found", "passed": True, "detail": "TD3 on page 1"},
    {"name": "mrz_check_digits", "passed": True, "detail": ""},
    {"name": "mrz_matches_visual_zone", "passed": True, "detail": ""},
    {"name": "required_fields_present", "passed": True, "detail": ""},
    {"name": "document_not_expired", "passed": True, "detail": ""},
    {"name": "fields_valid", "passed": True, "detail": ""},
]
_page_png: bytes | None = None


def passport_page_png() -> bytes:
    """The sample passport as the prepare step stores pages: PNG."""
    global _page_png
    if _page_png is None:
        buffer = io.BytesIO()
        with Image.open(PASSPORT_IMAGE) as image:
            image.convert("RGB").save(buffer, format="PNG")
        _page_png = buffer.getvalue()
    return _page_png


def document_for_review(
    tenant: Tenant,
    *,
    name: str = "passport-0001.jpg",
    document_type: str = "passport",
    fields: dict[str, tuple[str, float, list[float], bool | None]] | None = None,
    checks: list[dict[str, object]] | None = None,
    evidence: dict[str, list[str]] | None = None,
) -> Document:
    """A document with one stored page and an extraction, decided by the real ``decide`` step:
    with the sample passport's fields it needs review (two names below the threshold).
    ``evidence``: per field, instead of the sample passport's (a field it does not name has none)."""
    document_id = uuid.uuid4()
    document = Document.objects.create(
        id=document_id,
        tenant=tenant,
        sha256=hashlib.sha256(document_id.bytes).hexdigest(),
        original_name=name,
        mime_type="image/jpeg",
        size_bytes=PASSPORT_IMAGE.stat().st_size,
        blob_name=blobs.original_blob_name(str(document_id)),
        wrapped_key=blobs.new_wrapped_key(document_id=str(document_id)),
    )
    for target in (DocumentStatus.QUEUED, DocumentStatus.PROCESSING):
        document = document_transition(document=document, target=target)
    png = passport_page_png()
    with Image.open(io.BytesIO(png)) as image:
        width, height = image.size
    page_name = blobs.page_blob_name(str(document_id), 1)
    blobs.blob_write(document=document, name=page_name, plaintext=png)
    Page.objects.create(document=document, number=1, blob_name=page_name, width=width, height=height)
    document = document_transition(document=document, target=DocumentStatus.EXTRACTED)
    document.document_type = document_type
    document.document_type_confidence = 0.99
    document.save(update_fields=["document_type", "document_type_confidence"])
    extraction = Extraction.objects.create(
        document=document,
        engine_name="cpu-reference",
        engine_version="test",
        raw_result={},
        checks=PASSPORT_CHECKS if checks is None else checks,
        calibration_version="test-calibration",
        validated_at=timezone.now(),
    )
    for field_name, (value, confidence, bbox, valid) in (fields or PASSPORT_FIELDS).items():
        Field.objects.create(
            extraction=extraction,
            name=field_name,
            value=value,
            raw_confidence=confidence,
            confidence=confidence,
            page=1,
            bbox=bbox,
            source="mrz",
            valid=valid,
            evidence=(PASSPORT_EVIDENCE if evidence is None else evidence).get(field_name, []),
        )
    document_decide(document_id=str(document.pk))
    document.refresh_from_db()
    return document
