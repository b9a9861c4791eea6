"""The capture gate on pages it used to send back wrongly (issue 47, item 4): ruled lines and a
coloured band read as a smear, a scan cropped to its paper read as cropped, a blank page read as
too dark, and the pages of a digital PDF judged as photos."""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import pytest
from PIL import Image

from media.capture_quality import CaptureThresholds, assess, captured_pages, measure_page
from media.preprocessing import PageLimits, prepare_pages
from synth.capture import capture_defect
from tests.support.capture_pages import (
    as_photo,
    as_scan,
    digital_invoice_with_blank_last_page,
    encode_jpeg,
    image_pdf,
    receipt_cropped_to_paper,
    utility_bill,
)


def _jpeg_round_trip(bgr: np.ndarray) -> np.ndarray:
    return cv2.imdecode(np.frombuffer(encode_jpeg(bgr), np.uint8), cv2.IMREAD_COLOR)


@pytest.mark.parametrize("capture", [as_scan, as_photo])
def test_ruled_lines_and_a_coloured_band_do_not_read_as_a_smear(capture):
    """GIVEN a bill whose middle is a ruled table on white paper, under a coloured heading band
    WHEN measured as a scan or a steady photo THEN its letters read sharp and unsmeared, and the
    page passes."""
    measures = measure_page(_jpeg_round_trip(capture(utility_bill())))
    thresholds = CaptureThresholds()
    assert measures.edge_isotropy is not None and measures.edge_isotropy > 3 * thresholds.min_edge_isotropy
    assert measures.blur_px is not None and measures.blur_px < thresholds.max_blur_px / 2
    assert assess([measures], thresholds).passed


def test_the_same_bill_smeared_or_blurred_is_still_sent_back():
    """The letters' strokes still tell a smear and a blur: the fix does not open the gate."""
    page = cv2.cvtColor(as_scan(utility_bill()), cv2.COLOR_BGR2RGB)
    rng = np.random.default_rng(0)
    for defect, level in (("motion_blur", 32.0), ("blur", 6.0)):
        degraded = cv2.cvtColor(capture_defect(page, defect, level, rng), cv2.COLOR_RGB2BGR)
        assert "blurred" in assess([measure_page(_jpeg_round_trip(degraded))], CaptureThresholds()).reasons


def test_a_scan_cropped_to_its_paper_is_not_cropped():
    """GIVEN a receipt scan cropped to the paper, its text a few pixels from the edge WHEN
    measured THEN no letter is cut, so nothing is cropped."""
    measures = measure_page(_jpeg_round_trip(receipt_cropped_to_paper()))
    assert measures.cropped == 0.0
    assert assess([measures], CaptureThresholds()).passed


def test_text_cut_by_the_frame_is_cropped():
    """GIVEN the same receipt with the frame cutting through its lines of text WHEN measured
    THEN the letters the frame clips are counted along that side, and the page is sent back."""
    receipt = receipt_cropped_to_paper()
    cut = receipt[:, : round(receipt.shape[1] * 0.4)].copy()  # the frame through most of its lines
    measures = measure_page(_jpeg_round_trip(cut))
    assert measures.cropped > CaptureThresholds().max_cropped
    assert measures.regions["cropped"][0] > 0.9  # the right side
    assert "cropped" in assess([measures], CaptureThresholds()).reasons


@pytest.mark.parametrize("noise", [0.0, 0.7, 1.5])
def test_a_blank_page_is_not_measurable_and_fails_nothing(noise):
    """GIVEN a blank sheet (rendered white, or scanned with paper grain and sensor noise) WHEN
    measured THEN it is blank, and every check passes as not measurable."""
    rng = np.random.default_rng(1)
    height, width = 1754, 1240
    shade = 238 + 8 * np.linspace(0, 1, width)[None, :] if noise else np.full((1, width), 255.0)
    sheet = np.repeat(shade, height, axis=0) + rng.normal(0, noise, (height, width))
    page = cv2.cvtColor(np.clip(sheet, 0, 255).astype(np.uint8), cv2.COLOR_GRAY2BGR)
    measures = measure_page(_jpeg_round_trip(page))
    assert measures.blank and measures.contrast is None
    result = assess([measures], CaptureThresholds())
    assert result.passed and {c.detail for c in result.checks} == {"not measurable on these pages"}


def test_a_blank_page_beside_a_bad_one_does_not_hide_it():
    blank = measure_page(np.full((800, 600, 3), 255, np.uint8))
    dark = measure_page(cv2.convertScaleAbs(as_scan(utility_bill()), alpha=0.03))
    assert not dark.blank
    result = assess([blank, dark], CaptureThresholds())
    assert result.reasons == ("too_dark",) and {c.page for c in result.checks if not c.passed} == {2}


def test_a_black_frame_is_too_dark_not_blank():
    measures = measure_page(np.full((800, 600, 3), 3, np.uint8))
    assert not measures.blank and "too_dark" in assess([measures], CaptureThresholds()).reasons


@dataclass(frozen=True)
class _Page:
    text_layer: str = ""
    image_only: bool = False


def test_only_the_scanned_pages_of_a_scanned_pdf_are_gated_and_none_of_a_digital_one():
    scan, drawn, text = _Page(image_only=True), _Page(), _Page(text_layer="{}")
    assert captured_pages([scan, drawn, scan], is_pdf=True) == [scan, scan]
    assert captured_pages([text, drawn], is_pdf=True) == []  # text: digital, blank page too
    assert captured_pages([text, scan], is_pdf=True) == []  # a text layer anywhere: digital
    assert captured_pages([drawn, drawn], is_pdf=True) == []  # vector drawing only: digital
    assert captured_pages([drawn], is_pdf=False) == [drawn]  # an uploaded image is a capture


def test_pdf_pages_say_whether_they_are_scans():
    """GIVEN a digital PDF with a blank last page, and an image-only PDF of scans WHEN split as
    the prepare step splits them THEN no page of the first is gated, every page of the second
    is, and the scanned bill passes."""
    limits = PageLimits(pdf_sandbox=False)
    digital = prepare_pages(digital_invoice_with_blank_last_page(), "application/pdf", limits)
    assert len(digital) == 3 and not any(p.image_only for p in digital) and not digital[2].text_layer
    assert captured_pages(digital, is_pdf=True) == []
    scanned = prepare_pages(image_pdf([as_scan(utility_bill())] * 2), "application/pdf", limits)
    assert [p.image_only for p in scanned] == [True, True] and not any(p.text_layer for p in scanned)
    gated = captured_pages(scanned, is_pdf=True)
    assert len(gated) == 2
    pages = [measure_page(cv2.imdecode(np.frombuffer(p.image, np.uint8), cv2.IMREAD_COLOR)) for p in gated]
    assert assess(pages, CaptureThresholds()).passed


def test_a_photo_placed_on_a_pdf_page_with_margins_is_a_scan():
    """A PDF made of a photo that covers most, not all, of its page is still a capture."""
    photo = Image.fromarray(cv2.cvtColor(as_photo(utility_bill()), cv2.COLOR_BGR2RGB))
    import io

    from fpdf import FPDF

    buffer = io.BytesIO()
    photo.save(buffer, format="JPEG", quality=90)
    pdf = FPDF(format="A4")
    pdf.add_page()
    pdf.image(io.BytesIO(buffer.getvalue()), x=5, y=5, w=200, h=287)
    pages = prepare_pages(bytes(pdf.output()), "application/pdf", PageLimits(pdf_sandbox=False))
    assert [p.image_only for p in pages] == [True]
