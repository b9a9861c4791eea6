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

import math
from dataclasses import dataclass, field

import numpy as np

from engines.document_crop import document_box
from engines.images import rotate, unrotate_bbox
from engines.layout import PageText, page_from_ocr
from engines.layout import clip_fraction as _clip
from engines.mrz.geometry import LineGeom, crop_line
from engines.ocr import Ocr, TextLine, get_ocr
from engines.types import BBox

_SAMPLE = 8  # long lines sampled to judge orientation
_MIN_SKEW = 1.0  # degrees: below this, rows stay rows without straightening
_MIN_SKEW_LINES = 3  # long lines needed to trust a slope
_MIN_CHARS = 4  # lines shorter than this say little about orientation


@dataclass(frozen=True)
class PageFrame:
    """How the reading frame of a page relates to the page as stored: first cropped to the
    document (``crop``, page fractions, when it lay on a background), then turned clockwise by
    ``turn`` degrees (0, 90, 180, 270), then straightened by ``skew`` degrees (a photo held a
    little askew). ``width`` and ``height`` are the turned page's pixels."""

    turn: int
    skew: float
    width: int
    height: int
    crop: BBox | None = None
    # The text lines OCR detected, as quads in the pixels of the page as stored, when the page
    # was not turned: the MRZ reader crops its lines from the page itself, and finding them again
    # would cost a second detection (a quarter of a second a page).
    line_quads: tuple[np.ndarray, ...] | None = field(default=None, compare=False, repr=False)

    def to_stored(self, bbox: BBox) -> BBox:
        """A box in the reading frame (page fractions), as a box on the page as stored."""
        if self.skew:
            bbox = _rotate_box(bbox, self.skew, self.width, self.height)
        if self.turn:
            bbox = unrotate_bbox(bbox, self.turn)
        if self.crop is None:
            return bbox
        cx0, cy0, cx1, cy1 = self.crop
        x0, y0, x1, y1 = bbox
        w, h = cx1 - cx0, cy1 - cy0
        return (
            round(cx0 + x0 * w, 4),
            round(cy0 + y0 * h, 4),
            round(cx0 + x1 * w, 4),
            round(cy0 + y1 * h, 4),
        )


def ocr_page_text(
    image: np.ndarray, *, page: int, ocr: Ocr | None = None, enlarge_to: int | None = None
) -> tuple[PageText, PageFrame]:
    """OCR ``image`` upright and straight: its lines (boxes in the reading frame) and the frame.

    Straightening moves only the lines' geometry, not pixels (the text is already read): rows of
    a receipt photographed 8 degrees askew would otherwise pair a label with the amount of the
    row above or below it. A photo is first cropped to the document lying on its background: a
    large photo's pixel budget then goes to the document's text, and a small one's detection
    (half of OCR's cost, growing with pixels) is not spent on the table around it.

    ``enlarge_to``: read the document enlarged to about this many pixels (a second look at small
    print; see Ocr.read_page)."""
    ocr = ocr or get_ocr()
    crop = document_box(image)
    if crop is not None:
        full_height, full_width = image.shape[:2]
        x0, y0, x1, y1 = crop
        image = image[y0:y1, x0:x1]
    lines = ocr.read_page(image, enlarge_to=enlarge_to)
    degrees = _turn_needed(image, lines, ocr)
    if degrees:
        image = rotate(image, degrees)
        lines = ocr.read_page(image, enlarge_to=enlarge_to)
    height, width = image.shape[:2]
    skew = _skew_degrees(lines)
    centre = np.array([width / 2, height / 2], dtype=np.float32)
    quads = [_rotate_points(x.quad, -skew, centre) if skew else x.quad for x in lines]
    text = page_from_ocr(
        ((x.text, x.score, quad) for x, quad in zip(lines, quads, strict=True)),
        width=width,
        height=height,
        page=page,
    )
    frame_crop = None
    if crop is not None:
        frame_crop = (
            crop[0] / full_width,
            crop[1] / full_height,
            crop[2] / full_width,
            crop[3] / full_height,
        )
    line_quads = None
    if not degrees:
        offset = np.array(crop[:2] if crop is not None else (0, 0), dtype=np.float32)
        line_quads = tuple(x.quad + offset for x in lines)
    frame = PageFrame(
        turn=degrees, skew=skew, width=width, height=height, crop=frame_crop, line_quads=line_quads
    )
    return text, frame


def _skew_degrees(lines: list[TextLine]) -> float:
    """The median slope of the page's long lines, in degrees (0 when under _MIN_SKEW)."""
    angles = []
    for line in lines:
        (x0, y0), (x1, y1) = line.quad[0], line.quad[1]
        if abs(x1 - x0) >= 2 * max(1.0, float(np.linalg.norm(line.quad[3] - line.quad[0]))):
            angles.append(math.degrees(math.atan2(float(y1 - y0), float(x1 - x0))))
    if len(angles) < _MIN_SKEW_LINES:
        return 0.0
    skew = float(np.median(angles))
    return round(skew, 2) if abs(skew) >= _MIN_SKEW else 0.0


def _rotate_points(points: np.ndarray, degrees: float, centre: np.ndarray) -> np.ndarray:
    """Points turned by ``degrees`` (positive: clockwise on the image, y pointing down)."""
    rad = math.radians(degrees)
    matrix = np.array([[math.cos(rad), -math.sin(rad)], [math.sin(rad), math.cos(rad)]], dtype=np.float32)
    out: np.ndarray = (points - centre) @ matrix.T + centre
    return out


def _rotate_box(bbox: BBox, degrees: float, width: int, height: int) -> BBox:
    """The axis-aligned box around ``bbox`` (page fractions) turned by ``degrees`` about the centre."""
    x0, y0, x1, y1 = bbox
    corners = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], dtype=np.float32) * [width, height]
    turned = _rotate_points(corners, degrees, np.array([width / 2, height / 2], dtype=np.float32))
    xs, ys = turned[:, 0] / width, turned[:, 1] / height
    return _clip(float(xs.min())), _clip(float(ys.min())), _clip(float(xs.max())), _clip(float(ys.max()))


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
