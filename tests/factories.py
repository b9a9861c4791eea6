"""The app's objects as tests need them, made through the models and services (no mocks).

People and clients:
    member             a user with a role in a tenant
    session_client     an API client logged in as a user (the web session, as the operators' pages use)
    member_client      both at once: a new member's logged-in client
    api_key_client     an API client sending a new key of the tenant's (``scopes`` default to the key's)

Documents, by how far they went:
    make_document      a stored upload, nothing read (RECEIVED)
    make_read_document a read passport with a page image, an extraction and three fields (``status``)
    extracted_document a passport in EXTRACTED with a validated extraction: what ``decide`` receives
    decided_document   the same after the real ``decide`` step (and so the review routing)
    decided_upload     a sample file uploaded, prepared and read by ``TypedReader`` and decided
    read_document      a document of any type in ``status`` whose extraction holds the given fields

Webhooks:
    webhook_delivery   a ``document.decided`` delivery to ``url`` for a new document

Values: ``SPECIMEN_PASSPORT`` (the ICAO 9303 specimen) for review tests; ``APPLICANT_PASSPORT`` and
``proof_of_address`` (the same person's) for case tests.
"""

from __future__ import annotations

import hashlib
import io
import uuid
from typing import Any

from django.contrib.auth import get_user_model
from django.utils import timezone
from PIL import Image
from rest_framework.test import APIClient

from apps.documents import blobs
from apps.documents.models import Document, DocumentStatus, Extraction, Field, Page
from apps.documents.pipeline import document_decide, document_infer, document_prepare
from apps.documents.services import document_upload
from apps.documents.state import document_transition
from apps.tenants.models import Tenant
from apps.tenants.services import api_key_create, membership_grant
from apps.webhooks.models import WebhookDelivery
from apps.webhooks.services import document_callback_set, webhook_document_event
from tests.conftest import SAMPLES
from tests.support.readers import TypedReader

PASSWORD = "correct horse battery"

# The ICAO 9303 specimen's values: synthetic, nobody's personal data.
SPECIMEN_PASSPORT = {
    "document_number": "L898902C3",
    "surname": "ERIKSSON",
    "given_names": "ANNA MARIA",
    "nationality": "UTO",
    "date_of_birth": "1974-08-12",
    "sex": "F",
    "date_of_expiry": "2031-04-15",
    "issuing_country": "UTO",
}
RAW_CONFIDENCE = 0.91
CONFIDENT = 0.99
MRZ_EVIDENCE = ["mrz_check_digits"]

# An applicant's passport, whose name and address her proof of address repeats.
APPLICANT_PASSPORT = {
    "surname": "MUELLER",
    "given_names": "ANNA MARIA",
    "date_of_birth": "1990-04-01",
    "date_of_expiry": "2035-01-01",
    "document_number": "C01X00T47",
    "issuing_country": "D",
}


# --- people and clients -------------------------------------------------------------------------


def member(tenant: Tenant, *, username: str, role: str, password: str = PASSWORD) -> Any:
    """A new user holding ``role`` in ``tenant``."""
    user = get_user_model().objects.create_user(username=username, password=password)
    membership_grant(tenant=tenant, user=user, role=role)
    return user


def session_client(user: Any) -> APIClient:
    """An API client logged in as ``user`` (a session, not a key)."""
    client = APIClient()
    client.force_login(user)
    return client


def member_client(tenant: Tenant, *, username: str, role: str) -> APIClient:
    """A logged-in client of a new member of ``tenant`` with ``role``."""
    return session_client(member(tenant, username=username, role=role))


def api_key_client(tenant: Tenant, *, name: str = "tests", scopes: list[str] | None = None) -> APIClient:
    """An API client sending a new key of ``tenant``'s; ``scopes`` None gives a key's default scopes."""
    client = APIClient()
    raw = api_key_create(tenant=tenant, name=name, scopes=scopes).raw_key
    client.credentials(HTTP_AUTHORIZATION=f"Api-Key {raw}")
    return client


# --- documents ----------------------------------------------------------------------------------


def make_document(tenant: Tenant, content: bytes | None = None) -> Document:
    """A stored upload of ``content`` (random bytes by default, so never a duplicate), nothing read."""
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


def page_png(width: int = 400, height: int = 300) -> bytes:
    """A white page with a red block where ``make_read_document``'s surname box is."""
    image = Image.new("RGB", (width, height), "white")
    image.paste((200, 30, 30), (100, 150, 300, 225))  # a red block where the "surname" box is
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


def make_read_document(
    tenant: Tenant, *, status: str = "needs_review", name: str = "passport.png"
) -> Document:
    """A document as the pipeline leaves it (page image, extraction, fields, checks), without running
    it: a passport whose surname is confident and evidenced, its birth date doubted, one field empty."""
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


def extracted_document(
    tenant: Tenant,
    *,
    document_type: str = "passport",
    values: dict[str, str | None] | None = None,
    confidences: dict[str, float] | None = None,
    checks: dict[str, bool] | None = None,
    evidence: dict[str, list[str]] | None = None,
) -> Document:
    """A document in EXTRACTED with a validated extraction: what ``decide`` receives. Each field
    is read from the MRZ, whose check digits are its evidence unless ``evidence`` says otherwise."""
    document = make_document(tenant)
    for target in (DocumentStatus.QUEUED, DocumentStatus.PROCESSING, DocumentStatus.EXTRACTED):
        document = document_transition(document=document, target=target)
    document.document_type = document_type
    document.document_type_confidence = CONFIDENT
    document.save(update_fields=["document_type", "document_type_confidence"])
    extraction = Extraction.objects.create(
        document=document,
        engine_name="cpu-reference",
        engine_version="test",
        raw_result={},
        checks=[
            {"name": n, "passed": p, "detail": ""} for n, p in (checks or {"mrz_check_digits": True}).items()
        ],
        calibration_version="test-calibration",
        validated_at=timezone.now(),
    )
    values = SPECIMEN_PASSPORT if values is None else values
    confidences = confidences or {}
    for name, value in values.items():
        Field.objects.create(
            extraction=extraction,
            name=name,
            value=value,
            raw_confidence=RAW_CONFIDENCE,
            confidence=confidences.get(name, CONFIDENT),
            source="mrz",
            valid=True if name in {"document_number", "date_of_birth", "date_of_expiry"} else None,
            evidence=(evidence or {}).get(name, MRZ_EVIDENCE),
        )
    return document


def decided_document(tenant: Tenant, *, review: bool = True, **kwargs: object) -> Document:
    """Run the real ``decide`` step (and so the review routing hook) on an extracted document.

    ``review=True`` leaves the surname below the confidence threshold, so the document needs review.
    """
    if review:
        kwargs.setdefault("confidences", {"surname": 0.5})
    document = extracted_document(tenant, **kwargs)  # type: ignore[arg-type]
    document_decide(document_id=str(document.pk))
    document.refresh_from_db()
    return document


def decided_upload(
    tenant: Tenant, sample: str, document_type: str, salt: int = 0, django_capture: Any = None
) -> Document:
    """samples/``sample`` uploaded, prepared and read as ``document_type`` by ``TypedReader``, then
    decided. ``salt`` makes a JPEG's bytes new (no duplicate); ``django_capture`` (pytest-django's
    ``django_capture_on_commit_callbacks``) runs what the reading schedules on commit."""
    content = (SAMPLES / sample).read_bytes() + (bytes([salt]) if sample.endswith(".jpg") else b"")
    document = document_upload(
        tenant=tenant, content=content, original_name=sample, uploaded_by=None
    ).document
    document_prepare(document_id=str(document.pk))
    if django_capture is not None:
        with django_capture(execute=True):
            document_infer(document_id=str(document.pk), reader=TypedReader(document_type))
    else:
        document_infer(document_id=str(document.pk), reader=TypedReader(document_type))
    document.refresh_from_db()
    assert document.status in {DocumentStatus.AUTO_APPROVED, DocumentStatus.NEEDS_REVIEW}, (
        document.status,
        document.error_code,
    )
    return document


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


def proof_of_address(document_date: str, **overrides: str) -> dict[str, str]:
    """The fields of ``APPLICANT_PASSPORT``'s holder's proof of address, dated ``document_date``."""
    return {
        "full_name": "ANNA MÜLLER",
        "address_street": "HAUPTSTRASSE 12",
        "address_postal_code": "80331",
        "document_date": document_date,
    } | overrides


# --- webhooks -----------------------------------------------------------------------------------


def webhook_delivery(tenant: Tenant, url: str) -> WebhookDelivery:
    """A new document's ``document.decided`` event, queued for its callback at ``url``."""
    document = make_document(tenant)
    document_callback_set(document=document, url=url)
    delivery = webhook_document_event(document=document, event="document.decided")
    assert delivery is not None
    return delivery
