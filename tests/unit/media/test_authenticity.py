"""Advisory authenticity signals on generated attacks against clean captures, seed fixed.

The attacks (synth.capture.attack_pages): the capture shown on a simulated screen and
re-photographed (pixel grid, moiré), printed with a halftone screen and re-scanned, a
rectangle pasted in from another document's JPEG, and a few of the page's own characters copied
over another field's. Each signal's ROC AUC against the clean
captures is held above a floor, a regression guard: the figures themselves, on a larger set, are
bench/authenticity.py's (docs/capture-quality.md).
"""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np
import pytest

from bench.roc import auc
from media.authenticity import (
    THRESHOLDS,
    copied_score,
    edited_score,
    print_score,
    screen_score,
    signals_of_images,
    zones_signal,
)
from synth.capture import attack_pages

COUNT = 8
# The pasted boxes of the edited and copied pages of attack_set(), filled when it is made.
PASTED: dict[str, list[tuple[int, int, int, int]]] = {}


@cache
def attack_set() -> dict[str, list[np.ndarray]]:
    """BGR pages: clean captures and each attack made from them (seed 31, donors from seed 32)."""
    return attack_pages(31, COUNT, PASTED)


@cache
def edited_scores(kind: str) -> list[tuple[float, tuple[float, float, float, float] | None]]:
    """The edited signal of every page of ``kind`` (about a second a page: computed once)."""
    return [edited_score(page) for page in attack_set()[kind]]


@cache
def copied_scores(kind: str) -> list[tuple[float, tuple[float, float, float, float] | None]]:
    return [copied_score(page) for page in attack_set()[kind]]


SCORES = {
    "screen": screen_score,
    "print": print_score,
}
# Floors under the AUC measured on these pages (docs/capture-quality.md): a regression guard.
AUC_FLOORS = {"screen": 0.75, "print": 0.95, "edited": 0.9, "copied": 0.95}


def _scores(signal: str, kind: str) -> list[float]:
    if signal == "edited":
        return [score for score, _ in edited_scores(kind)]
    if signal == "copied":
        return [score for score, _ in copied_scores(kind)]
    return [SCORES[signal](page) for page in attack_set()[kind]]


@pytest.mark.parametrize("signal", sorted(AUC_FLOORS))
def test_signal_separates_its_attack_from_clean_captures(signal):
    assert auc(_scores(signal, signal), _scores(signal, "clean")) >= AUC_FLOORS[signal]


def test_a_halftone_print_is_flagged_and_a_clean_capture_is_not():
    pages = attack_set()
    assert sum(print_score(p) >= THRESHOLDS["print"] for p in pages["print"]) >= COUNT - 1
    assert sum(print_score(p) >= THRESHOLDS["print"] for p in pages["clean"]) <= 1


def test_a_pasted_region_is_flagged_with_its_box_and_a_clean_capture_is_not():
    """GIVEN photos saved once, and the same with a rectangle from another JPEG pasted in off the
    page's grid WHEN scored THEN most pastes are flagged with a box, no clean photo is."""
    clean, pasted = edited_scores("clean"), edited_scores("edited")
    assert all(score < THRESHOLDS["edited"] for score, _ in clean)
    flagged = [box for score, box in pasted if score >= THRESHOLDS["edited"]]
    assert len(flagged) >= COUNT - 2
    assert all(box is not None and 0 <= box[0] < box[2] <= 1 and 0 <= box[1] < box[3] <= 1 for box in flagged)


def test_a_page_without_a_second_jpeg_grid_scores_nothing():
    flat = np.full((256, 256, 3), 200, np.uint8)
    assert edited_score(flat) == (0.0, None)


def test_copied_characters_are_flagged_over_the_pasted_box_and_no_clean_capture_is():
    """GIVEN photos, and the same with a few characters copied over another field's WHEN scored
    THEN every copy is flagged with a region on the pasted box, no clean photo is flagged."""
    attack_set()
    assert all(score < THRESHOLDS["copied"] for score, _ in copied_scores("clean"))
    for (score, region), page, pasted in zip(
        copied_scores("copied"), attack_set()["copied"], PASTED["copied"], strict=True
    ):
        assert score >= THRESHOLDS["copied"] and region is not None
        assert _overlaps(region, page.shape, pasted)


def _overlaps(
    region: tuple[float, float, float, float], shape: tuple[int, ...], box: tuple[int, int, int, int]
) -> bool:
    h, w = shape[:2]
    x0, y0, x1, y1 = region[0] * w, region[1] * h, region[2] * w, region[3] * h
    return min(x1, box[2]) > max(x0, box[0]) and min(y1, box[3]) > max(y0, box[1])


# Lines of one font with the same words, digits and fillers printed again and again.
_REPEATED_LINES = (
    "DATE OF BIRTH 01/03/1990",
    "DATE OF ISSUE 01/03/2026",
    "DATE OF EXPIRY 01/03/2031",
    "PLACE OF BIRTH LONDON",
    "P<GBRSMITH<<ANNA<MARIA<<<<<<<<<<<<<<<<<",
    "1234567897GBR9001014F3103016<<<<<<<<<<<<<<02",
)


_FONT, _SCALE, _LEFT, _TOP, _LINE = cv2.FONT_HERSHEY_SIMPLEX, 1.05, 40, 70, 95


def _printed_page(seed: int) -> np.ndarray:
    """A page of repeated printed text photographed: slightly soft, sensor noise, saved as a JPEG
    at quality 85 (BGR)."""
    rng = np.random.default_rng(seed)
    page = np.full((620, 1100), 228, np.float32)
    page += np.linspace(-12, 12, 1100, dtype=np.float32)[None, :]  # uneven light
    for row, line in enumerate(_REPEATED_LINES):
        cv2.putText(page, line, (_LEFT, _TOP + _LINE * row), _FONT, _SCALE, 40, 2, cv2.LINE_AA)
    page = cv2.GaussianBlur(page, (0, 0), 0.7) + rng.normal(0, 2.5, page.shape).astype(np.float32)
    bgr = cv2.cvtColor(np.clip(page, 0, 255).astype(np.uint8), cv2.COLOR_GRAY2BGR)
    return _jpeg(bgr, 85)


def _year_box(row: int) -> tuple[int, int, int, int]:
    """The box (x0, y0, x1, y1) of the last four characters of line ``row``, 3 pixels around."""
    line = _REPEATED_LINES[row]
    (before, _), _ = cv2.getTextSize(line[:-4], _FONT, _SCALE, 2)
    (whole, height), _ = cv2.getTextSize(line, _FONT, _SCALE, 2)
    baseline = _TOP + _LINE * row
    return _LEFT + before - 3, baseline - height - 3, _LEFT + whole + 3, baseline + 4


def _jpeg(bgr: np.ndarray, quality: int) -> np.ndarray:
    ok, data = cv2.imencode(".jpg", bgr, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return cv2.imdecode(data, cv2.IMREAD_COLOR)


def test_repeated_printed_letters_are_not_a_copy_and_a_pasted_copy_of_them_is():
    """GIVEN a photographed page that prints the same words, digits and MRZ fillers many times
    WHEN scored THEN nothing is flagged (each print has its own noise); GIVEN the same page with
    the expiry's year "2031" copied over the issue's "2026" and saved again THEN it is flagged,
    with a region on the pasted rectangle."""
    page = _printed_page(7)
    assert copied_score(page)[0] < THRESHOLDS["copied"]
    forged = page.copy()
    sx0, sy0, sx1, sy1 = _year_box(2)  # "2031", the expiry's year...
    x0, y0, _, _ = _year_box(1)  # ... over "2026", the issue's
    pasted = (x0, y0, x0 + sx1 - sx0, y0 + sy1 - sy0)
    forged[y0 : pasted[3], x0 : pasted[2]] = page[sy0:sy1, sx0:sx1]
    forged = _jpeg(forged, 90)
    score, region = copied_score(forged)
    assert score >= THRESHOLDS["copied"] and region is not None
    assert _overlaps(region, forged.shape, pasted)


def test_a_page_without_a_copy_scores_nothing():
    assert copied_score(np.full((256, 256, 3), 200, np.uint8)) == (0.0, None)
    assert copied_score(np.full((16, 16, 3), 200, np.uint8)) == (0.0, None)


def test_signals_are_advisory_checks_with_a_score_and_an_explanation():
    _, data = cv2.imencode(".jpg", attack_set()["print"][0])
    signals = [s.to_dict() for s in signals_of_images([data.tobytes()])]
    assert [s["name"] for s in signals] == [
        "authenticity_screen",
        "authenticity_print",
        "authenticity_edited",
        "authenticity_copied",
    ]
    assert all(s["advisory"] and s["kind"] == "authenticity" for s in signals)
    printed = signals[1]
    assert not printed["passed"] and "print" in printed["detail"]


def test_zones_disagreeing_are_an_authenticity_signal_with_the_fields_box():
    """GIVEN the engine's MRZ-against-print check failing on two fields WHEN presented THEN an
    advisory authenticity_zones check names them, scores 2 and boxes them."""
    checks = [
        {"name": "mrz_check_digits", "passed": True, "detail": ""},
        {
            "name": "mrz_matches_visual_zone",
            "passed": False,
            "detail": "not found in print: surname; printed with a letter different: given_names",
        },
    ]
    fields = {
        "surname": {"bbox": [0.4, 0.3, 0.6, 0.34], "page": 1},
        "given_names": {"bbox": [0.4, 0.36, 0.7, 0.4], "page": 1},
    }
    signal = zones_signal(checks, fields)
    assert signal is not None and not signal["passed"] and signal["advisory"]
    assert signal["score"] == 2 and "surname, given_names" in signal["detail"]
    assert signal["region"] == [0.4, 0.3, 0.7, 0.4] and signal["page"] == 1


def test_zones_that_agree_pass_and_a_document_without_zones_has_no_signal():
    agreed = zones_signal(
        [{"name": "barcode_vs_front", "passed": True, "detail": "front agrees on 6 field(s)"}]
    )
    assert agreed is not None and agreed["passed"] and agreed["score"] == 0
    assert zones_signal([{"name": "line_items_sum", "passed": False, "detail": ""}]) is None


def test_a_copy_on_a_photo_larger_than_a_stored_page_is_found_on_the_upload_as_it_came():
    """GIVEN a phone photo larger than the stored page limit with a few characters copied over
    another field's WHEN the stored page is the photo fitted within 2400 pixels (resampling makes
    the two copies differ) THEN the copy-move signal, lent the upload as it came, still flags the
    copy with a region on the pasted box, in shares of the stored page."""
    from synth.capture import _photo_rgb, copied_text, copy_rng

    rgb = _photo_rgb(31, 0)
    large = cv2.resize(rgb, None, fx=2.5, fy=2.5, interpolation=cv2.INTER_CUBIC)
    noise = np.random.default_rng(7).normal(0, 3, large.shape)  # the sensor's noise, at full size
    large = np.clip(large + noise, 0, 255).astype(np.uint8)
    forged, pasted = copied_text(large, copy_rng(31, 0))
    ok, upload = cv2.imencode(".jpg", cv2.cvtColor(forged, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok and max(forged.shape[:2]) > 2400
    scale = 2400 / max(forged.shape[:2])
    stored = cv2.resize(
        cv2.imdecode(upload, cv2.IMREAD_COLOR), None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA
    )
    ok, page = cv2.imencode(".jpg", stored, [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert ok
    as_stored = {s.name: s for s in signals_of_images([page.tobytes()])}["copied"]
    as_uploaded = {s.name: s for s in signals_of_images([page.tobytes()], None, {1: upload.tobytes()})}[
        "copied"
    ]
    assert as_uploaded.flagged and as_uploaded.score > as_stored.score
    assert as_uploaded.region is not None and _overlaps(as_uploaded.region, forged.shape, pasted)
