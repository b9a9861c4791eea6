"""The one-glyph signal (media.field_glyphs) on fields drawn with PIL, and a small fixed-seed
regression on generated one-glyph forgeries (synth.glyph_attack) against the clean photos.

The drawn page holds a date in one font; the same date with one digit drawn 25 % larger, bolder
or lifted off the line must be flagged with that field's box; a mixed-case name is not judged.
The figures on a larger set are bench/field_glyphs.py's (docs/field-glyphs.md).
"""

from __future__ import annotations

from functools import cache

import numpy as np
import pytest

from bench.roc import auc
from media.field_glyphs import GLYPHS_THRESHOLD, field_glyph_signal, judged
from tests.support.glyph_pages import DATE_BOX, NAME_BOX, SIZE, glyph_page, jpeg_bytes

FIELDS = [("date_of_birth", "1985-03-29", DATE_BOX), ("given_names", "Katarzyna Smith", NAME_BOX)]


def test_judged_values() -> None:
    assert judged("1985-03-29") and judged("KL881664") and judged("1 234.50") and judged("08 JUN 2002")
    assert not judged("Katarzyna Smith") and not judged("VAN GROSSE") and not judged("") and not judged(None)


def test_a_date_in_one_font_passes() -> None:
    check = field_glyph_signal(glyph_page(), FIELDS, 1)
    assert check is not None
    assert check["passed"], check
    assert check["score"] < GLYPHS_THRESHOLD
    assert check["name"] == "authenticity_glyphs" and check["kind"] == "authenticity" and check["advisory"]
    assert check["page"] == 1 and check["threshold"] == GLYPHS_THRESHOLD


@pytest.mark.parametrize(
    "odd",
    [{"scale": 1.25}, {"bold": 2}, {"lift": 0.15 * SIZE}],
    ids=["larger", "bolder", "lifted"],
)
def test_one_odd_digit_is_flagged_with_its_field(odd: dict[str, float]) -> None:
    check = field_glyph_signal(glyph_page(odd), FIELDS, 2)
    assert check is not None
    assert not check["passed"], check
    assert check["score"] >= GLYPHS_THRESHOLD
    assert check["region"] == [round(v, 4) for v in DATE_BOX]
    assert "date_of_birth" in check["detail"] and "1985" not in check["detail"]  # the field, never its value
    assert check["page"] == 2


def test_a_mixed_case_name_is_not_judged() -> None:
    page = glyph_page(name_odd=True)
    assert field_glyph_signal(page, [FIELDS[1]], 1) is None
    check = field_glyph_signal(page, FIELDS, 1)  # the odd name glyph does not count
    assert check is not None and check["passed"], check


def test_no_field_or_box_gives_none() -> None:
    assert field_glyph_signal(glyph_page(), [], 1) is None
    tiny = (0.1, 0.1, 0.1005, 0.1005)
    assert field_glyph_signal(glyph_page(), [("document_number", "123456", tiny)], 1) is None


# --------------------------------------------------------------------------------------------
# Fixed-seed regression on generated one-glyph forgeries (the engine reads each page: ~2 s)

COUNT = 5
SEED = 41


@cache
def _scores() -> tuple[list[float], list[float]]:
    from synth.glyph_attack import glyph_attack, photo_bgr, read_fields

    clean_scores: list[float] = []
    attack_scores: list[float] = []
    for index in range(COUNT):
        clean, donor = photo_bgr(SEED, index), photo_bgr(SEED + 1, index)
        clean_fields = read_fields(clean)
        attack = glyph_attack(
            clean, donor, np.random.default_rng(2000 + index), clean_fields, read_fields(donor)
        )
        assert attack is not None
        # the attacked field's own box on both pages (the page's other fields left out: fewer reads)
        only = [(name, value, box) for name, value, box in clean_fields if name == attack.field]
        for page, out in ((clean, clean_scores), (attack.image, attack_scores)):
            check = field_glyph_signal(page, only, 1)
            out.append(float(check["score"]) if check else 0.0)
    return clean_scores, attack_scores


@pytest.mark.slow
def test_generated_glyph_forgeries_score_above_the_clean_photos() -> None:
    clean, attacks = _scores()
    assert auc(attacks, clean) >= 0.7, (clean, attacks)
    assert max(clean) < GLYPHS_THRESHOLD, clean


def test_the_documents_check_judges_photographed_pages_with_the_readings_boxes() -> None:
    """media.reading_signals.glyph_check, what the inference step stores beside the page checks:
    the read fields' boxes on the stored page image; a digital page (text layer) is not judged."""
    from engines.types import FieldResult
    from media.reading_signals import glyph_check

    fields = {
        name: FieldResult(value=value, confidence=0.9, page=1, bbox=box, source="ocr")
        for name, value, box in FIELDS
    }
    forged = [jpeg_bytes(glyph_page({"scale": 1.25}))]
    check = glyph_check(forged, None, fields, max_pages=2)
    assert check is not None and not check["passed"] and check["name"] == "authenticity_glyphs"
    assert check["region"] is not None and "1985" not in check["detail"]
    clean = glyph_check([jpeg_bytes(glyph_page())], None, fields, max_pages=2)
    assert clean is not None and clean["passed"]
    assert glyph_check(forged, ['{"words": []}'], fields, max_pages=2) is None  # a digital page
    assert glyph_check(forged, None, fields, max_pages=0) is None
