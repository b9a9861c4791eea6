"""Advisory authenticity signals on generated attacks against clean captures, seed fixed.

The attacks (synth.capture.attack_pages): the capture shown on a simulated screen and
re-photographed (pixel grid, moiré), printed with a halftone screen and re-scanned, and a
rectangle pasted in from another document's JPEG. Each signal's ROC AUC against the clean
captures is held above a floor, a regression guard: the figures themselves, on a larger set, are
bench/authenticity.py's (docs/capture-quality.md).
"""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np
import pytest

from media.authenticity import (
    THRESHOLDS,
    edited_score,
    print_score,
    screen_score,
    signals_of_images,
    zones_signal,
)
from synth.capture import attack_pages

COUNT = 8


@cache
def attack_set() -> dict[str, list[np.ndarray]]:
    """BGR pages: clean captures and each attack made from them (seed 31, donors from seed 32)."""
    return attack_pages(31, COUNT)


@cache
def edited_scores(kind: str) -> list[tuple[float, tuple[float, float, float, float] | None]]:
    """The edited signal of every page of ``kind`` (about a second a page: computed once)."""
    return [edited_score(page) for page in attack_set()[kind]]


def auc(positives: list[float], negatives: list[float]) -> float:
    """The probability a random attack scores above a random clean capture (ties count half)."""
    wins = sum((p > n) + 0.5 * (p == n) for p in positives for n in negatives)
    return wins / (len(positives) * len(negatives))


SCORES = {
    "screen": screen_score,
    "print": print_score,
}
# Floors under the AUC measured on these pages (docs/capture-quality.md): a regression guard.
AUC_FLOORS = {"screen": 0.75, "print": 0.95, "edited": 0.9}


def _scores(signal: str, kind: str) -> list[float]:
    if signal == "edited":
        return [score for score, _ in edited_scores(kind)]
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


def test_signals_are_advisory_checks_with_a_score_and_an_explanation():
    _, data = cv2.imencode(".jpg", attack_set()["print"][0])
    signals = [s.to_dict() for s in signals_of_images([data.tobytes()])]
    assert [s["name"] for s in signals] == [
        "authenticity_screen",
        "authenticity_print",
        "authenticity_edited",
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
