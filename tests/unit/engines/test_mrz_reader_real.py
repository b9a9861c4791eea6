"""Reading real specimen passports and ID cards (../shared/realdata/id_specimens).

A handful of images, each chosen for a different difficulty, keeps this fast; the whole folder
is measured by bench/mrz_accuracy.py. Comparison is exact, as the product requirement is.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from engines.mrz.reader import read_mrz
from engines.pipeline import read_document

CASES = {
    "fastmrz_td1.jpg": "TD1 card photo, JPEG",
    "mrzdocs_other_TD2_ICAO_Example.png": "TD2",
    "mrzdocs_passports_Czech_Republic.png": "first line detected only in part",
    "mrzdocs_passports_Japan.png": "narrow font, only readable widened",
    "mrzdocs_passports_Qatar.png": "first line hidden under a stamp; Q read as O",
    "mrzdocs_id_cards_Spain.png": "document number letters read as digits",
}


@pytest.mark.parametrize("name", list(CASES), ids=list(CASES.values()))
def test_real_specimen_fields_are_read_exactly(id_specimens: tuple[Path, dict[str, Any]], name: str) -> None:
    folder, truth = id_specimens
    expected = truth[name]
    result = read_document([(folder / name).read_bytes()])
    assert result.document_type == expected["document_type"]
    got = {field: result.fields[field].value for field in expected["fields"] if field in result.fields}
    assert got == expected["fields"]
    assert next(c for c in result.checks if c.name == "mrz_check_digits").passed


def test_real_specimen_fields_are_confident_and_boxed_inside_the_mrz(
    id_specimens: tuple[Path, dict[str, Any]],
) -> None:
    folder, truth = id_specimens
    reading = read_mrz((folder / "mrzdocs_passports_Canada.png").read_bytes())
    assert reading is not None
    assert reading.parse.lines == tuple(truth["mrzdocs_passports_Canada.png"]["mrz"])
    for name, field in reading.fields.items():
        assert field.confidence > 0.8, name
        assert field.bbox is not None
        x0, y0, x1, y1 = field.bbox
        # the Canadian specimen's MRZ occupies the bottom fifth of the image
        assert y0 > 0.75 and y1 <= 0.95 and x1 - x0 < 0.9, name


def test_the_lines_whole_page_ocr_found_spare_the_mrz_search_its_detection(
    id_specimens: tuple[Path, dict[str, Any]],
) -> None:
    """GIVEN a photographed TD1 card lying on a dark table, which whole-page OCR read cropped to
    the card, keeping the lines it detected (in the pixels of the whole photo)
    THEN the MRZ reader, given those lines, reads the MRZ without detecting lines itself."""
    import cv2

    from engines.images import decode_image
    from engines.ocr import get_ocr
    from engines.page_text import ocr_page_text

    folder, truth = id_specimens
    card = decode_image((folder / "fastmrz_td1.jpg").read_bytes())
    image = cv2.copyMakeBorder(card, 240, 200, 260, 180, cv2.BORDER_CONSTANT, value=(40, 30, 25))
    _, frame = ocr_page_text(image, page=1)
    assert frame.turn == 0 and frame.crop is not None and frame.line_quads
    ocr = get_ocr()
    detections = []
    detect = ocr.detect
    ocr.detect = lambda *args, **kwargs: detections.append(1) or detect(*args, **kwargs)  # type: ignore[method-assign]
    try:
        reading = read_mrz(image, line_quads=frame.line_quads)
    finally:
        del ocr.detect
    assert reading is not None and not detections
    assert reading.parse.lines == tuple(truth["fastmrz_td1.jpg"]["mrz"])
