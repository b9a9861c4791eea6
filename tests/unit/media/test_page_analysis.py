"""The shared page analysis (media.page_analysis) and the reduced measures built on it.

The gate and the signals share one decode and one grey conversion of a page; the histogram's
percentiles stand in for numpy's sort of the page, and the text region's closing is taken on a
reduced mask. Each must give what the full computation gives (the percentiles exactly, the
region to within its edge), or the fitted thresholds no longer mean what they were fitted on.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from media import capture_quality
from media.authenticity import print_score, screen_score, signals_of_images
from media.page_analysis import PageAnalysis, histogram, percentiles
from synth.documents import document_rng, generate_document


def _photo() -> np.ndarray:
    doc = generate_document(document_rng(5, 0), kind="passport", profile="photo", severity=0.3)
    return cv2.imdecode(np.frombuffer(doc.image, np.uint8), cv2.IMREAD_COLOR)


@pytest.mark.parametrize("q", [0.0, 0.5, 5.0, 25.0, 50.0, 75.0, 90.0, 99.5, 100.0])
def test_histogram_percentiles_are_numpys(q):
    rng = np.random.default_rng(3)
    gray = rng.integers(0, 256, (97, 131), dtype=np.uint8)
    mask = rng.random(gray.shape) < 0.3
    assert percentiles(histogram(gray), q)[0] == pytest.approx(np.percentile(gray, q))
    assert percentiles(histogram(gray, mask), q)[0] == pytest.approx(np.percentile(gray[mask], q))


def test_an_analysis_converts_once_and_is_reused_only_for_its_own_page():
    page = _photo()
    analysis = PageAnalysis(page)
    assert analysis.gray is analysis.gray
    assert np.array_equal(analysis.gray, cv2.cvtColor(page, cv2.COLOR_BGR2GRAY))
    assert PageAnalysis.of(page, analysis) is analysis
    assert PageAnalysis.of(page.copy(), analysis) is not analysis
    with pytest.raises(ValueError):
        PageAnalysis(page.astype(np.float32))


def test_measures_and_signals_are_the_same_with_a_shared_analysis():
    page = _photo()
    analysis = PageAnalysis(page)
    assert capture_quality.measure_page(page, analysis) == capture_quality.measure_page(page)
    assert screen_score(page, analysis) == screen_score(page)
    assert print_score(page, analysis) == print_score(page)
    ok, data = cv2.imencode(".jpg", page, [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    shared = capture_quality.analyses_of([data.tobytes()])
    assert signals_of_images([data.tobytes()], analyses=shared) == signals_of_images([data.tobytes()])


def _full_size_region(ink: np.ndarray, text_height: float | None) -> np.ndarray:
    """The text region as it was measured before the reduction (closing at the mask's size)."""
    size = int(max(9, 3 * (text_height or 12))) | 1
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
    closed = cv2.morphologyEx(ink, cv2.MORPH_CLOSE, kernel)
    contours, _ = cv2.findContours(closed, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    blocks = [c for c in contours if cv2.contourArea(c) >= 4 * size * size]
    region = np.zeros_like(closed)
    if blocks:
        cv2.fillConvexPoly(region, cv2.convexHull(np.concatenate(blocks)), (255,))
    return region


@pytest.mark.parametrize("text_height", [None, 14.0, 30.0])
def test_the_reduced_text_region_is_the_full_size_one_to_within_its_edge(text_height):
    gray = cv2.cvtColor(_photo(), cv2.COLOR_BGR2GRAY)
    ink = capture_quality.letters_mask(capture_quality.ink_mask(gray))
    full = _full_size_region(ink, text_height) > 0
    reduced = capture_quality._text_region(ink, text_height) > 0
    assert full.any()
    overlap = float((full & reduced).sum()) / float((full | reduced).sum())
    assert overlap >= 0.95
