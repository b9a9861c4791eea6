"""Where a photographed document lies on its background.

A phone photo of a receipt on a dark table spends most of its pixels on the table. Whole-page OCR
has a pixel budget (engines.ocr), so a large photo is shrunk before it is read, and the text of
the document shrinks with the table. Cropping to the document first gives its text the budget;
on a smaller photo it spares the text detector (whose cost grows with pixels) the table.

The paper is found as the largest bright region that stands out from a darker background
(Otsu's threshold on a small blurred copy). Only the region's bounding box, with a margin, is
cut: nothing inside the document's outline can be lost, and a page without a distinct
background (a scan, a document on a white desk) comes back whole.
"""

from __future__ import annotations

import cv2
import numpy as np

_WORK_SIDE = 512  # pixels of the longer side of the copy the region is searched on
_MIN_AREA = 0.15  # of the photo: smaller bright regions are a card's glare, not the document
_MAX_AREA = 0.80  # of the photo: larger and there is too little background to be worth a crop
_MARGIN = 0.03  # of each side, kept around the region
_MIN_CONTRAST = 40  # grey levels between the paper and the background around it
_PART_OF_LARGEST = 0.2  # a bright region this big beside the largest is part of the document too

Box = tuple[int, int, int, int]  # x0, y0, x1, y1 in pixels of the photo


def document_box(image: np.ndarray) -> Box | None:
    """The pixels of ``image`` worth reading (the document and a margin), or None for all of it."""
    height, width = image.shape[:2]
    scale = _WORK_SIDE / max(height, width)
    small = cv2.resize(image, (max(1, round(width * scale)), max(1, round(height * scale))))
    grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY) if small.ndim == 3 else small
    grey = cv2.GaussianBlur(grey, (7, 7), 0)
    _, bright = cv2.threshold(grey, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    # close the dark print inside the paper so the page is one region
    bright = cv2.morphologyEx(bright, cv2.MORPH_CLOSE, np.ones((15, 15), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(bright, connectivity=4)
    if count < 2:
        return None
    areas = stats[1:, cv2.CC_STAT_AREA]
    # every large bright region: the two sides of a card photographed together are both kept
    regions = [1 + i for i, a in enumerate(areas) if a >= _PART_OF_LARGEST * areas.max()]
    x, y = min(int(stats[i, 0]) for i in regions), min(int(stats[i, 1]) for i in regions)
    w = max(int(stats[i, 0] + stats[i, 2]) for i in regions) - x
    h = max(int(stats[i, 1] + stats[i, 3]) for i in regions) - y
    area = w * h / float(small.shape[0] * small.shape[1])
    if not _MIN_AREA <= area <= _MAX_AREA or _edges_touched(x, y, w, h, small.shape) > 1:
        return None  # a bright region running off the photo is lit background, not paper
    inside = grey[np.isin(labels, regions)]
    outside = grey[labels == 0]
    if outside.size == 0 or float(np.median(inside)) - float(np.median(outside)) < _MIN_CONTRAST:
        return None
    mx, my = _MARGIN * small.shape[1], _MARGIN * small.shape[0]
    x0, y0 = max(0.0, x - mx) / scale, max(0.0, y - my) / scale
    x1 = min(float(small.shape[1]), x + w + mx) / scale
    y1 = min(float(small.shape[0]), y + h + my) / scale
    return round(x0), round(y0), min(width, round(x1)), min(height, round(y1))


def _edges_touched(x: int, y: int, w: int, h: int, shape: tuple[int, ...]) -> int:
    height, width = shape[:2]
    return sum((x <= 2, y <= 2, x + w >= width - 2, y + h >= height - 2))
