"""The text of a page as every reader after OCR sees it: lines with boxes, from OCR or a PDF text layer.

Classification and the key-value readers (receipts, invoices, proof of address, bank statements,
the front of driver licences) work on this one model, so they do not care whether a line came
from RapidOCR on a photo or from the text layer of a digital PDF. Boxes are fractions of the page
(ARCHITECTURE §3.1 ``bbox``), so they survive any rescaling of the page image.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from engines.types import BBox

_SPACES = re.compile(r"\s+")


@dataclass(frozen=True)
class Line:
    """One line of text on a page. ``score`` is the recogniser's confidence (1.0 for a text layer)."""

    text: str
    score: float
    bbox: BBox  # [x0, y0, x1, y1] as fractions of the page
    page: int  # 1-based

    @property
    def x0(self) -> float:
        return self.bbox[0]

    @property
    def y0(self) -> float:
        return self.bbox[1]

    @property
    def x1(self) -> float:
        return self.bbox[2]

    @property
    def y1(self) -> float:
        return self.bbox[3]

    @property
    def height(self) -> float:
        return self.bbox[3] - self.bbox[1]

    @property
    def y_center(self) -> float:
        return (self.bbox[1] + self.bbox[3]) / 2

    def span_bbox(self, start: int, end: int) -> BBox:
        """The box of characters ``text[start:end]``, assuming evenly wide characters: good
        enough to point a reviewer at a value that shares its line with a label."""
        n = max(len(self.text), 1)
        width = self.bbox[2] - self.bbox[0]
        x0 = self.bbox[0] + width * start / n
        x1 = self.bbox[0] + width * end / n
        return (round(x0, 4), self.bbox[1], round(x1, 4), self.bbox[3])


@dataclass(frozen=True)
class PageText:
    """All lines of one page, top to bottom, and where they came from (``ocr`` or ``text_layer``)."""

    page: int
    lines: tuple[Line, ...]
    source: str  # "ocr" | "text_layer"

    @property
    def text(self) -> str:
        return "\n".join(line.text for line in self.lines)


def normalise_space(text: str) -> str:
    return _SPACES.sub(" ", text).strip()


def page_from_ocr(
    lines: Iterable[tuple[str, float, np.ndarray]], *, width: int, height: int, page: int
) -> PageText:
    """Build a page from OCR lines given as (text, score, quad in page pixels)."""
    out = []
    for text, score, quad in lines:
        text = normalise_space(text)
        if not text:
            continue
        xs, ys = quad[:, 0], quad[:, 1]
        bbox = (
            clip_fraction(float(xs.min()) / width),
            clip_fraction(float(ys.min()) / height),
            clip_fraction(float(xs.max()) / width),
            clip_fraction(float(ys.max()) / height),
        )
        out.append(Line(text=text, score=float(score), bbox=bbox, page=page))
    return PageText(page=page, lines=tuple(sort_reading_order(out)), source="ocr")


def page_from_text_layer(payload: str | bytes, *, page: int) -> PageText:
    """Build a page from the JSON text-layer payload that travels to Triton beside the page image:
    ``{"lines": [{"text": "...", "bbox": [x0, y0, x1, y1]}, ...]}`` with fractional boxes."""
    data = json.loads(payload)
    out = []
    for item in data.get("lines", []):
        text = normalise_space(str(item.get("text", "")))
        bbox = item.get("bbox")
        if not text or not bbox or len(bbox) != 4:
            continue
        x0, y0, x1, y1 = (clip_fraction(float(v)) for v in bbox)
        out.append(Line(text=text, score=1.0, bbox=(x0, y0, x1, y1), page=page))
    return PageText(page=page, lines=tuple(sort_reading_order(out)), source="text_layer")


def text_layer_payload(lines: Sequence[Line]) -> str:
    """The inverse of :func:`page_from_text_layer`."""
    return json.dumps({"lines": [{"text": line.text, "bbox": list(line.bbox)} for line in lines]})


def sort_reading_order(lines: Sequence[Line]) -> list[Line]:
    """Top to bottom; lines whose vertical centres are within half a line height form one row,
    read left to right."""
    ordered = sorted(lines, key=lambda line: (line.y_center, line.x0))
    return [line for row in _group_rows(ordered) for line in sorted(row, key=lambda item: item.x0)]


def rows(page: PageText) -> list[list[Line]]:
    """The page's lines (already in reading order) grouped into visual rows."""
    return _group_rows(page.lines)


def _group_rows(lines: Sequence[Line]) -> list[list[Line]]:
    """Consecutive lines whose vertical centre lies within half a line height of the row's mean."""
    out: list[list[Line]] = []
    for line in lines:
        if out:
            last = out[-1]
            ref = sum(item.y_center for item in last) / len(last)
            tolerance = 0.5 * max(line.height, min(item.height for item in last))
            if abs(line.y_center - ref) <= tolerance:
                last.append(line)
                continue
        out.append([line])
    return out


def clip_fraction(value: float) -> float:
    """A page fraction (a box's edge over the page's side): within 0..1, to 4 decimals."""
    return round(min(1.0, max(0.0, float(value))), 4)
