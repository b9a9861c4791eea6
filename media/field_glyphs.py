"""Advisory authenticity signal: one glyph in a field that does not match its neighbours.

A forger who changes a date, a document number or an amount usually replaces one or two
characters, cut from another document or typed in a font that is almost the same: the new
glyph is a little taller or shorter, sits off the line, is darker or lighter, bolder or thinner,
or is spaced differently from its neighbours. Only fields whose value is digits, upper-case
letters and date or amount punctuation, with at least one digit, are judged (dates, document
numbers, amounts): in a mixed-case field the x-height and cap-height differ by design, and an
upper-case name's box holds word spaces or the MRZ's '<' fillers.

In each such field's box (plus a small margin) the crop is binarised (Otsu), its glyphs are the
connected components (specks and punctuation dropped by size, components cut by the crop's sides
dropped), and per glyph: its height and bottom, sub-pixel from the row profile of its soft ink,
each less the line fitted along the field (a photographed line is tilted, and in perspective
its glyphs grow towards the camera); its ink darkness against the paper around it; its stroke
width (2 x soft-ink area / boundary pixels); and its spacing from its left neighbour (the gap
between boxes and the distance between centres: the smaller deviation of the two). Each
measure's robust deviation is |x - median| / max(1.4826 MAD, a floor relative to the field's
glyph height or the measure's median). Score: the largest deviation of any glyph in any field.

What it cannot catch: a glyph pasted from the same font at the same size and weight (another
copy of the same document type photographed at the same scale), a field retyped whole in one
font, glyphs that merge in a low-resolution or blurred photo (one component for several
characters: left out, or measured as one), a field of fewer than four glyphs. Measured by
bench/field_glyphs.py on synth.glyph_attack (docs/field-glyphs.md).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from typing import Any

import cv2
import numpy as np

from media.page_analysis import PageAnalysis

# Score at or above which the signal is flagged. Chosen on bench/field_glyphs.py --count 48
# (seed 41: 48 clean generated phone photos of MRZ documents, their one-glyph forgeries, and the 7
# bundled samples/*.jpg that read with fields): the highest clean score was 4.62 (a generated
# photo) and 4.68 (the driver-licence sample, a '/' in its dates); 5.5 leaves a margin above
# both. On the same pages, so its false-positive rate (0) is optimistic (docs/field-glyphs.md).
GLYPHS_THRESHOLD = 5.5
EXPLANATION = "a character that differs in size, position, weight or spacing from the rest of the field"

# Values judged: digits, upper-case letters (MRZ and printed codes) and the punctuation of dates,
# numbers and amounts; at least MIN_GLYPHS glyphs found in the box.
_JUDGED = re.compile(r"^[0-9A-Z<\-./,: ]+$")
_HAS_DIGIT = re.compile(r"[0-9]")
MIN_GLYPHS = 4
_MARGIN = 0.15  # of the box's height, on each side
_MIN_HEIGHT_PX = 28  # a crop whose box is lower than this is upscaled first (Otsu needs pixels)
_SMALL = 0.45  # components lower than this share of the field's median height are punctuation
# Floors of each measure's robust scale: a share of the field's median glyph height (height,
# bottom, gap) or of the measure's own median (darkness, stroke).
_FLOORS = {"height": 0.03, "bottom": 0.03, "gap": 0.12, "darkness": 0.10, "stroke": 0.15}


def judged(value: str | None) -> bool:
    """Whether a field with this value is judged: digits, upper-case letters and date or amount
    punctuation, with at least one digit. Upper-case names are left out: their boxes hold word
    spaces, and on the MRZ its '<' fillers (a glyph of another height and baseline)."""
    if not value:
        return False
    value = value.strip()
    return bool(_JUDGED.match(value)) and bool(_HAS_DIGIT.search(value))


def _deviations(values: np.ndarray, floor: float) -> np.ndarray:
    median = float(np.median(values))
    mad = 1.4826 * float(np.median(np.abs(values - median)))
    return np.abs(values - median) / max(mad, floor, 1e-6)


def _detrended(xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """``ys`` less the line fitted through them over ``xs`` (least squares, refitted on the
    inliers of a first fit so that one odd glyph does not tilt it)."""
    slope, offset = np.polyfit(xs, ys, 1)
    residual = ys - (slope * xs + offset)
    keep = np.abs(residual) <= max(1.0, 2.5 * float(np.median(np.abs(residual))))
    if int(keep.sum()) >= 3:
        slope, offset = np.polyfit(xs[keep], ys[keep], 1)
        residual = ys - (slope * xs + offset)
    return residual


def field_score(gray: np.ndarray, box_px: tuple[int, int, int, int]) -> tuple[float, str, int] | None:
    """The largest deviation of one glyph in the field at ``box_px`` (x0, y0, x1, y1 in pixels of
    ``gray``), the measure that gave it and the glyph's index (left to right). None when fewer
    than MIN_GLYPHS glyphs are found."""
    height, width = gray.shape
    x0, y0, x1, y1 = box_px
    margin = max(2, round((y1 - y0) * _MARGIN))
    x0, y0 = max(0, x0 - margin), max(0, y0 - margin)
    x1, y1 = min(width, x1 + margin), min(height, y1 + margin)
    crop = gray[y0:y1, x0:x1]
    if crop.shape[0] < 8 or crop.shape[1] < 8:
        return None
    if crop.shape[0] < _MIN_HEIGHT_PX:
        factor = _MIN_HEIGHT_PX / crop.shape[0]
        crop = cv2.resize(crop, None, fx=factor, fy=factor, interpolation=cv2.INTER_CUBIC)
    _, ink = cv2.threshold(crop, 0, 1, cv2.THRESH_BINARY_INV | cv2.THRESH_OTSU)
    ink = ink.astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    crop_h, crop_w = ink.shape
    components = []  # everything inked, left to right (for the gaps: a hyphen is a neighbour)
    for label in range(1, count):
        left, top, w, h, area = (int(v) for v in stats[label])
        if area < 6:
            continue  # specks
        if left == 0 or left + w >= crop_w or top == 0 or top + h >= crop_h:
            continue  # a neighbour's glyph, or the line above or below, cut by the crop's side
        components.append((left, top, w, h, area, label))
    components.sort(key=lambda c: c[0])
    tall = [c[3] for c in components if c[3] >= 0.25 * crop_h]
    if len(tall) < MIN_GLYPHS:
        return None
    glyphs = [c for c in components if c[3] >= _SMALL * float(np.median(tall))]
    if len(glyphs) < MIN_GLYPHS:
        return None
    median_h = float(np.median([g[3] for g in glyphs]))
    paper = float(np.median(crop[ink == 0])) if np.any(ink == 0) else 255.0
    full = float(np.percentile(crop[ink > 0], 10)) if np.any(ink > 0) else 0.0
    # soft ink, 0 on paper to 1 at the darkest strokes: sub-pixel extents of blurred glyphs
    soft = np.clip((paper - crop.astype(np.float32)) / max(paper - full, 1.0), 0.0, 1.0)
    eroded = cv2.erode(ink, np.ones((3, 3), np.uint8))
    heights, bottoms, centres, darkness, stroke = [], [], [], [], []
    for left, top, w, h, _area, label in glyphs:
        mask = labels[top : top + h, left : left + w] == label
        levels = crop[top : top + h, left : left + w][mask]
        boundary = int(np.count_nonzero(mask & (eroded[top : top + h, left : left + w] == 0)))
        # the rows' darkest soft ink over the glyph's columns, a row above and below its box:
        # its sum is the glyph's height, its centre of mass plus half of it the bottom
        y0w, y1w = max(0, top - 1), min(crop_h, top + h + 1)
        profile = soft[y0w:y1w, left : left + w].max(axis=1)
        extent = float(profile.sum())
        middle = float((profile * np.arange(y0w, y1w)).sum() / max(extent, 1e-6)) + 0.5
        heights.append(extent)
        bottoms.append(middle + extent / 2)
        centres.append(left + w / 2)
        darkness.append(max(0.0, paper - float(np.percentile(levels, 20))))
        stroke.append(2.0 * float(soft[top : top + h, left : left + w][mask].sum()) / max(boundary, 1))
    # the bottoms and heights against lines fitted along the field: a photographed line is
    # tilted, and in perspective its glyphs grow towards the camera
    xs = np.asarray(centres)
    bottom = _detrended(xs, np.asarray(bottoms, np.float64))
    size = _detrended(xs, np.asarray(heights, np.float64))
    measures: dict[str, tuple[np.ndarray, float]] = {
        "height": (size, _FLOORS["height"] * median_h),
        "bottom": (bottom, _FLOORS["bottom"] * median_h),
        "darkness": (np.asarray(darkness), _FLOORS["darkness"] * float(np.median(darkness))),
        "stroke": (np.asarray(stroke), _FLOORS["stroke"] * float(np.median(stroke))),
    }
    best: tuple[float, str, int] = (0.0, "", -1)
    for name, (values, floor) in measures.items():
        deviation = _deviations(values, floor)
        index = int(np.argmax(deviation))
        if float(deviation[index]) > best[0]:
            best = (float(deviation[index]), name, index)
    # spacing between neighbouring glyphs with nothing between them (a word space, over the glyph
    # height, is not a character's spacing): the gap between their boxes (even in a proportional
    # font) and the distance between their centres (even in a monospaced one, the MRZ's); a glyph
    # moved changes both, so the smaller deviation of the two counts
    position = {id(g): i for i, g in enumerate(glyphs)}
    gaps, pitches, owners = [], [], []
    for a, b in itertools.pairwise(components):
        if id(a) in position and id(b) in position:
            gap = b[0] - (a[0] + a[2])
            if gap < median_h:
                gaps.append(float(gap))
                pitches.append(b[0] + b[2] / 2 - a[0] - a[2] / 2)
                owners.append(position[id(b)])
    if len(gaps) >= MIN_GLYPHS - 1:
        deviation = np.minimum(
            _deviations(np.asarray(gaps), _FLOORS["gap"] * median_h),
            _deviations(np.asarray(pitches), _FLOORS["gap"] * median_h),
        )
        index = int(np.argmax(deviation))
        if float(deviation[index]) > best[0]:
            best = (float(deviation[index]), "spacing", owners[index])
    return best


def field_glyph_signal(
    page_bgr: np.ndarray,
    fields: Sequence[tuple[str, str, tuple[float, float, float, float]]],
    page: int,
    analysis: PageAnalysis | None = None,
) -> dict[str, Any] | None:
    """The advisory check ``authenticity_glyphs`` of one page: ``fields`` are (name, value as
    read, bbox as shares of the page [x0, y0, x1, y1]). Score: the largest robust deviation of
    one glyph from the rest of its field, over every judged field; region: that field's box;
    the detail names the field, never its value. None when no field is judged (no digit-or-
    upper-case value with a box, or fewer than MIN_GLYPHS glyphs found in each). ``analysis``:
    the page's :class:`PageAnalysis` when the caller holds one (its grey page is reused). Only
    the fields' boxes are read: a few milliseconds a page (bench/page_costs.py)."""
    gray = PageAnalysis.of(page_bgr, analysis).gray
    height, width = gray.shape
    best: tuple[float, str, str, tuple[float, float, float, float]] | None = None
    for name, value, bbox in fields:
        if not judged(value) or bbox is None:
            continue
        bx0, by0, bx1, by1 = (float(v) for v in bbox)
        box_px = (round(bx0 * width), round(by0 * height), round(bx1 * width), round(by1 * height))
        if box_px[2] - box_px[0] < 4 or box_px[3] - box_px[1] < 4:
            continue
        found = field_score(gray, box_px)
        if found is None:
            continue
        if best is None or found[0] > best[0]:
            best = (found[0], found[1], name, (bx0, by0, bx1, by1))
    if best is None:
        return None
    score, measure, name, region = best
    flagged = score >= GLYPHS_THRESHOLD
    said = f"{EXPLANATION} in {name} ({measure})" if flagged else "the characters of each field match"
    return {
        "name": "authenticity_glyphs",
        "passed": not flagged,
        "detail": f"{said} (score {score:.2f}, flagged from {GLYPHS_THRESHOLD:g}, page {page})",
        "kind": "authenticity",
        "advisory": True,
        "score": round(score, 4),
        "threshold": GLYPHS_THRESHOLD,
        "page": page,
        "region": [round(v, 4) for v in region],
    }
