"""Full-page OCR of a page that may lie sideways or upside down, as a :class:`PageText`.

Phone photos and careless scans arrive turned by 90, 180 or 270 degrees. The recogniser reads a
line turned by 180 degrees (its orientation classifier flips it), but the reading order of the
page, which the key-value readers rely on ("the value right of its label"), would be backwards,
and a page turned by 90 degrees reads as noise. So the page is read as it comes first, and turned
only when its lines say so: most lines taller than wide (sideways), or most long lines classified
upside down. Boxes stay in the upright page's axes, which the readers' geometry needs; the
pipeline maps the boxes of the fields it returns back onto the page as stored
(:func:`engines.images.unrotate_bbox`), so a reviewer's crop is right.
"""

from __future__ import annotations

import numpy as np

from engines.images import rotate
from engines.layout import PageText, page_from_ocr
from engines.mrz.geometry import LineGeom, crop_line
from engines.ocr import Ocr, TextLine, get_ocr

_SAMPLE = 8  # long lines sampled to judge orientation
_MIN_CHARS = 4  # lines shorter than this say little about orientation


def ocr_page_text(image: np.ndarray, *, page: int, ocr: Ocr | None = None) -> tuple[PageText, int]:
    """OCR ``image`` upright: its lines (boxes on the upright page) and the clockwise turn in
    degrees that made it upright (0, 90, 180 or 270)."""
    ocr = ocr or get_ocr()
    lines = ocr.read_page(image)
    degrees = _turn_needed(image, lines, ocr)
    if degrees:
        turned = rotate(image, degrees)
        return _page(ocr.read_page(turned), turned, page), degrees
    return _page(lines, image, page), 0


def _page(lines: list[TextLine], image: np.ndarray, page: int) -> PageText:
    height, width = image.shape[:2]
    return page_from_ocr(((x.text, x.score, x.quad) for x in lines), width=width, height=height, page=page)


def _turn_needed(image: np.ndarray, lines: list[TextLine], ocr: Ocr) -> int:
    """Degrees clockwise that make the page upright (0 when it already is)."""
    meaningful = [x for x in lines if len(x.text.strip()) >= _MIN_CHARS]
    if not meaningful:
        return 0
    vertical = sum(1 for x in meaningful if _is_vertical(x.quad))
    if vertical > len(meaningful) / 2:
        return _sideways_turn(image, ocr)
    longest = sorted(meaningful, key=lambda x: -(x.box[2] - x.box[0]))[:_SAMPLE]
    votes = ocr.upside_down([crop_line(image, LineGeom.from_quad(x.quad)) for x in longest])
    return 180 if sum(v > 0.5 for v in votes) > len(votes) / 2 else 0


def _sideways_turn(image: np.ndarray, ocr: Ocr) -> int:
    """90 or 270: whichever turn the recogniser reads with more confidence."""
    scores = {}
    for degrees in (90, 270):
        turned = rotate(image, degrees)
        quads = ocr.detect(turned)
        longest = sorted(quads, key=lambda q: -float(q[:, 0].max() - q[:, 0].min()))[:_SAMPLE]
        crops = [crop_line(turned, LineGeom.from_quad(q)) for q in longest]
        scores[degrees] = float(np.mean([r.score for r in ocr.recognize(crops)])) if crops else 0.0
    return max(scores, key=lambda d: scores[d])


def _is_vertical(quad: np.ndarray) -> bool:
    xs, ys = quad[:, 0], quad[:, 1]
    return float(ys.max() - ys.min()) > 1.5 * float(xs.max() - xs.min())
