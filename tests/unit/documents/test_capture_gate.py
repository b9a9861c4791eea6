"""The prepare step's capture-quality gate: a page too poor to read sends the document back to the
applicant (resubmission_requested) before any inference; a readable one goes on to the model."""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest
from django.urls import reverse

from apps.documents.models import Document
from apps.documents.models import DocumentStatus as S
from apps.documents.pipeline import document_prepare
from apps.documents.selectors import document_result_get
from apps.documents.services import document_upload
from apps.documents.steps import PipelineStep
from apps.observability.metrics import CAPTURE_RESUBMISSIONS
from apps.review.dashboard import capture_counts_get

pytestmark = pytest.mark.django_db
SAMPLES = Path(__file__).resolve().parents[3] / "samples"


def _blurred(name: str = "00000-passport.jpg", sigma: float = 6.0) -> bytes:
    image = cv2.imread(str(SAMPLES / name))
    ok, data = cv2.imencode(".jpg", cv2.GaussianBlur(image, (0, 0), sigma), [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    return data.tobytes()


def _upload(tenant, content: bytes, name: str) -> Document:
    return document_upload(tenant=tenant, content=content, original_name=name, uploaded_by=None).document


def test_a_blurred_photo_is_sent_back_with_its_reason_and_owes_no_inference(tenant):
    document = _upload(tenant, _blurred(), "blurred.jpg")
    outcome = document_prepare(document_id=str(document.pk))
    document.refresh_from_db()
    assert outcome.ran and outcome.next_step is None  # no infer step follows
    assert (document.status, document.decision) == (S.RESUBMISSION_REQUESTED, S.RESUBMISSION_REQUESTED)
    assert not document.extractions.exists()
    result = document_result_get(document=document)
    assert result["decision"] == "resubmission_requested"
    assert result["resubmission"]["reasons"] == ["blurred"]
    assert "blurred" in result["resubmission"]["message"]
    failed = [c["name"] for c in result["checks"] if not c["passed"]]
    assert "capture_blurred" in failed


def test_a_sharp_photo_goes_on_to_inference_with_its_measures_stored(tenant):
    document = _upload(tenant, (SAMPLES / "00000-passport.jpg").read_bytes(), "passport.jpg")
    outcome = document_prepare(document_id=str(document.pk))
    document.refresh_from_db()
    assert outcome.next_step == PipelineStep.INFER and document.status == S.PROCESSING
    names = {c["name"] for c in document.page_checks}
    assert {"capture_blurred", "capture_glare"} <= names
    # the advisory authenticity signals follow the decision (apps.documents.advisory), not prepare
    assert not [c for c in document.page_checks if c["kind"] == "authenticity"]
    assert [p.captured for p in document.pages.all()] == [True]
    assert all(c["passed"] for c in document.page_checks if c["kind"] == "capture")
    assert document_result_get(document=document)["resubmission"] is None


def test_a_digital_pdf_is_never_gated(tenant):
    document = _upload(tenant, (SAMPLES / "00006-invoice.pdf").read_bytes(), "invoice.pdf")
    document_prepare(document_id=str(document.pk))
    document.refresh_from_db()
    assert document.status == S.PROCESSING and document.page_checks == []
    assert not any(p.captured for p in document.pages.all())  # never judged by the signals either


def test_the_gate_can_be_turned_off(tenant, settings):
    settings.DOCINTEL_CAPTURE_GATE = False
    document = _upload(tenant, _blurred(), "blurred.jpg")
    document_prepare(document_id=str(document.pk))
    document.refresh_from_db()
    assert document.status == S.PROCESSING


def test_only_the_first_pages_are_measured(tenant, settings):
    """GIVEN DOCINTEL_CAPTURE_MAX_PAGES = 0 WHEN a blurred photo is prepared THEN no page is
    measured: the limit bounds what the gate costs."""
    settings.DOCINTEL_CAPTURE_MAX_PAGES = 0
    document = _upload(tenant, _blurred(), "blurred.jpg")
    document_prepare(document_id=str(document.pk))
    document.refresh_from_db()
    assert document.status == S.PROCESSING and document.page_checks == []


def test_a_resubmission_is_counted_by_reason_on_metrics_and_the_dashboard(
    tenant, django_capture_on_commit_callbacks
):
    before = CAPTURE_RESUBMISSIONS.labels("blurred")._value.get()
    with django_capture_on_commit_callbacks(execute=True):
        document_prepare(document_id=str(_upload(tenant, _blurred(), "blurred.jpg").pk))
    assert CAPTURE_RESUBMISSIONS.labels("blurred")._value.get() == before + 1
    counts = capture_counts_get(tenant=tenant)
    assert (counts.measured, counts.resubmissions) == (1, 1)
    assert counts.by_reason == [("blurred", 1)]


def test_the_document_page_outlines_the_region_a_failed_check_concerns(tenant, operator_client):
    """GIVEN a document sent back with a failed check that has a region WHEN its page is opened
    THEN the region is drawn over the page image."""
    document = _upload(tenant, _blurred(), "blurred.jpg")
    document_prepare(document_id=str(document.pk))
    document.refresh_from_db()
    document.page_checks = [
        {**c, "region": [0.1, 0.2, 0.5, 0.6]} if c["name"] == "capture_blurred" else c
        for c in document.page_checks
    ]
    document.save(update_fields=["page_checks"])
    page = operator_client.get(reverse("ingestion:document_detail", args=[document.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    assert 'class="region-box"' in html and 'data-check="capture_blurred"' in html
    assert "left:10.00%;top:20.00%;width:40.00%;height:40.00%" in html


def test_a_digital_pdf_with_a_blank_last_page_is_never_gated(tenant):
    """GIVEN a three-page digital invoice whose last page is blank (no text layer there) WHEN
    prepared THEN no page of it is judged: it is a digital PDF, not a capture."""
    from tests.support.capture_pages import digital_invoice_with_blank_last_page

    document = _upload(tenant, digital_invoice_with_blank_last_page(), "invoice.pdf")
    document_prepare(document_id=str(document.pk))
    document.refresh_from_db()
    assert document.status == S.PROCESSING and document.page_checks == []


def test_a_scanned_bill_in_a_pdf_is_gated_and_passes(tenant):
    """GIVEN a utility bill (coloured band, ruled table) scanned into an image-only PDF, with a
    blank scanned back page WHEN prepared THEN its pages are measured and none sends it back."""
    import numpy as np

    from tests.support.capture_pages import as_scan, image_pdf, utility_bill

    back = np.full((1754, 1240, 3), 247, np.uint8)
    document = _upload(tenant, image_pdf([as_scan(utility_bill()), back]), "bill.pdf")
    document_prepare(document_id=str(document.pk))
    document.refresh_from_db()
    capture = [c for c in document.page_checks if c["kind"] == "capture"]
    assert document.status == S.PROCESSING and capture
    assert all(c["passed"] for c in capture), [c["detail"] for c in capture if not c["passed"]]
