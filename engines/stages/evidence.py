"""Evidence: what supports each field of the assembled result besides its score.

The reading's own findings (a verified MRZ, a parsed barcode, a text layer, amounts that add up,
a checksum: :func:`engines.evidence.engine_evidence`) and the page's layout: a value that stands
at one of its field's labels — right of it on its row, or under it — was found where documents of
any origin print it, not where one generator happens to. What each kind is worth is data
(engines/spec/evidence.toml); the decision weighs it (apps.extraction.decision).
"""

from __future__ import annotations

from dataclasses import replace

from engines.business.labels import label_hits
from engines.evidence import AT_LABEL, RULES, engine_evidence, with_evidence
from engines.layout import Line, PageText
from engines.page_text import PageFrame
from engines.stages.base import DocumentState
from engines.types import BBox, EngineContext, FieldResult

# A label on the value's row may stand this far to its left (a share of the page's width) ...
_ROW_REACH = 0.45
# ... and one above it no further than the next line down (a block's first line under its caption).
_ABOVE_REACH_LINES = 1.6


class Evidence:
    name = "evidence"
    timing = None

    def applies(self, state: DocumentState, ctx: EngineContext) -> bool:
        return state.result is not None

    def run(self, state: DocumentState, ctx: EngineContext) -> DocumentState:
        result = state.result
        if result is None:
            return state
        fields = engine_evidence(result.fields, result.checks)
        if state.identity is None and state.texts:
            pages = {text.page: _stored_lines(text, state.frames.get(text.page)) for text in state.texts}
            fields = {name: _at_label(name, found, pages) for name, found in fields.items()}
        return replace(state, result=replace(result, fields=fields))


def _stored_lines(text: PageText, frame: PageFrame | None) -> tuple[Line, ...]:
    """The page's lines with their boxes on the page as stored (where the fields' boxes are)."""
    if frame is None:
        return text.lines
    return tuple(replace(line, bbox=frame.to_stored(line.bbox)) for line in text.lines)


def _at_label(name: str, found: FieldResult, pages: dict[int, tuple[Line, ...]]) -> FieldResult:
    keys = RULES.labels.get(name)
    if not keys or found.value is None or found.bbox is None or found.page not in pages:
        return found
    for line in pages[found.page]:
        if not _could_label(line, found.bbox):
            continue
        for hit in label_hits(line):
            if hit.key in keys and _labels(line.span_bbox(hit.start, hit.end), found.bbox, line.height):
                return with_evidence(found, AT_LABEL)
    return found


def _could_label(line: Line, value: BBox) -> bool:
    """Cheap test before matching labels: the line is on the value's row or not far above it."""
    return line.y0 <= value[3] and value[1] - line.y1 <= _ABOVE_REACH_LINES * max(line.height, 1e-3)


def _labels(label: BBox, value: BBox, line_height: float) -> bool:
    """Does a label at ``label`` point at a value at ``value``: on its row and to its left, or
    above it and overlapping it across (or starting where it starts)?"""
    lx0, ly0, lx1, ly1 = label
    vx0, vy0, vx1, vy1 = value
    tolerance = max(line_height, 1e-3)
    same_row = ly0 < vy1 and vy0 < ly1 and abs((ly0 + ly1) / 2 - (vy0 + vy1) / 2) <= 0.6 * tolerance
    if same_row:
        return lx1 <= vx0 + 0.5 * tolerance and vx0 - lx1 <= _ROW_REACH
    above = ly1 <= vy0 + 0.3 * tolerance and vy0 - ly1 <= _ABOVE_REACH_LINES * tolerance
    overlaps = min(lx1, vx1) - max(lx0, vx0) > 0 or abs(lx0 - vx0) <= 2 * tolerance
    return above and overlaps
