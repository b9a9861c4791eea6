"""Documents that reached the decide step, with real rows (no mocks), for review tests."""

from __future__ import annotations

from django.utils import timezone

from apps.documents.models import Document, DocumentStatus, Extraction, Field
from apps.documents.pipeline import document_decide
from apps.documents.state import document_transition
from apps.tenants.models import Tenant
from tests.unit.documents.factories import make_document

# The ICAO 9303 specimen's values: synthetic, nobody's personal data.
PASSPORT = {
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
    values = PASSPORT if values is None else values
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
