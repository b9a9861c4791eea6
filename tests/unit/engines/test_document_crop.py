"""Finding the document on the background of a photo, and mapping boxes back through the crop."""

from __future__ import annotations

import numpy as np

from engines.document_crop import document_box
from engines.page_text import PageFrame


def _photo(*papers: tuple[int, int, int, int], background: int = 70) -> np.ndarray:
    image = np.full((1600, 1200, 3), background, np.uint8)
    for x0, y0, x1, y1 in papers:
        image[y0:y1, x0:x1] = 235
        for row in range(y0 + 40, y1 - 40, 30):  # lines of dark print on the paper
            image[row : row + 8, x0 + 30 : x1 - 30] = 20
    return image


def test_a_sheet_on_a_dark_table_is_cropped_with_a_margin() -> None:
    x0, y0, x1, y1 = document_box(_photo((300, 250, 900, 1300)))  # type: ignore[misc]
    assert 250 <= x0 <= 300 and 190 <= y0 <= 250 and 900 <= x1 <= 950 and 1300 <= y1 <= 1360


def test_both_sides_of_a_card_photographed_together_are_kept() -> None:
    box = document_box(_photo((150, 200, 1050, 700), (150, 900, 1050, 1400)))
    assert box is not None
    assert box[1] <= 200 and box[3] >= 1400


def test_no_crop_without_a_distinct_background() -> None:
    assert document_box(_photo((0, 0, 1200, 1600))) is None  # a scan: paper to the edges
    assert document_box(_photo((300, 250, 900, 1300), background=225)) is None  # white desk
    assert document_box(_photo((0, 0, 700, 1600))) is None  # lit background running off the photo


def test_boxes_found_in_the_crop_map_back_onto_the_whole_photo() -> None:
    frame = PageFrame(turn=0, skew=0.0, width=600, height=1000, crop=(0.25, 0.2, 0.75, 0.8))
    assert frame.to_stored((0.0, 0.0, 1.0, 0.5)) == (0.25, 0.2, 0.75, 0.5)
