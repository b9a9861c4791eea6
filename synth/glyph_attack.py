"""A generated one-glyph forgery: one character of a date or document number replaced by the
same position's character cut from another generated document's same field.

The donor is a different document photographed at another scale, tilt and exposure, so its
glyph differs slightly in size, weight, position and darkness, as a digit pasted in by hand
does. The target glyph is erased (inpainted from the paper around it), the donor's glyph region
is laid over it with a multiply blend (its ink darkens the target's own paper; no rectangle of
the donor's background shows), centred on the erased glyph, and the page is saved as a JPEG at
quality 90 like the clean pages (``synth.capture.attack_pages``). The fields' boxes come from
reading both pages with the engine (``engines.pipeline.read_document``, 2-5 s a page).
Used by bench/field_glyphs.py against ``media.field_glyphs``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

# Fields a forger changes, in the order they are tried.
TARGET_FIELDS: tuple[str, ...] = ("date_of_birth", "date_of_expiry", "document_number")
PageFields = list[tuple[str, str, tuple[float, float, float, float]]]


@dataclass(frozen=True)
class GlyphAttack:
    image: np.ndarray  # BGR, decoded from the JPEG saved at quality 90
    field: str
    bbox: tuple[float, float, float, float]  # the field's box, shares of the page
    glyph: int  # which glyph of the field (left to right) was replaced
    size_ratio: float  # the pasted glyph's height over the replaced one's (1.0: same size)


def encode(bgr: np.ndarray, quality: int = 90) -> bytes:
    ok, data = cv2.imencode(".jpg", bgr, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return data.tobytes()


def saved(bgr: np.ndarray, quality: int = 90) -> np.ndarray:
    """``bgr`` as decoded after a JPEG save at ``quality``."""
    return cv2.imdecode(np.frombuffer(encode(bgr, quality), np.uint8), cv2.IMREAD_COLOR)


def read_fields(bgr: np.ndarray) -> PageFields:
    """(name, value, bbox) of each field the engine reads on a one-page document, with a box."""
    from engines.pipeline import read_document

    result = read_document([encode(bgr)])
    return [
        (name, str(f.value), tuple(f.bbox))  # type: ignore[misc]
        for name, f in result.fields.items()
        if f.value is not None and f.bbox is not None and f.page == 1
    ]


def field_glyph_boxes(
    gray: np.ndarray, bbox: Sequence[float]
) -> tuple[list[tuple[int, int, int, int]], np.ndarray]:
    """The glyphs (x, y, w, h in page pixels, left to right) found in the field's box, and the
    page's ink mask of them (Otsu inside the box, as media.field_glyphs finds them)."""
    height, width = gray.shape
    x0, y0 = round(bbox[0] * width), round(bbox[1] * height)
    x1, y1 = round(bbox[2] * width), round(bbox[3] * height)
    margin = max(2, round((y1 - y0) * 0.15))
    x0, y0, x1, y1 = (
        max(0, x0 - margin),
        max(0, y0 - margin),
        min(width, x1 + margin),
        min(height, y1 + margin),
    )
    crop = gray[y0:y1, x0:x1]
    _, ink = cv2.threshold(crop, 0, 1, cv2.THRESH_BINARY_INV | cv2.THRESH_OTSU)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(ink.astype(np.uint8), connectivity=8)
    boxes = []
    mask = np.zeros_like(gray, np.uint8)
    for label in range(1, count):
        left, top, w, h, area = (int(v) for v in stats[label])
        if area < 6 or left == 0 or left + w >= crop.shape[1] or h < 0.3 * (y1 - y0):
            continue
        boxes.append((x0 + left, y0 + top, w, h))
        mask[y0:y1, x0:x1][labels == label] = 1
    if boxes:
        tall = float(np.median([b[3] for b in boxes]))
        boxes = [b for b in boxes if b[3] >= 0.7 * tall]
    return sorted(boxes), mask


def replace_glyph(
    target: np.ndarray,
    target_bbox: Sequence[float],
    donor: np.ndarray,
    donor_bbox: Sequence[float],
    rng: np.random.Generator,
) -> tuple[np.ndarray, int, float] | None:
    """``target`` (BGR) with one glyph of its field replaced by the same position's glyph of
    ``donor``'s field (multiply blend, centred on the erased glyph, a pixel of jitter). Returns
    the edited image (not yet saved), the glyph's index and the pasted glyph's height over the
    replaced one's, or None when either field's glyphs
    are not found (fewer than 4, or a different count)."""
    t_gray = cv2.cvtColor(target, cv2.COLOR_BGR2GRAY)
    d_gray = cv2.cvtColor(donor, cv2.COLOR_BGR2GRAY)
    t_boxes, t_mask = field_glyph_boxes(t_gray, target_bbox)
    d_boxes, _ = field_glyph_boxes(d_gray, donor_bbox)
    if len(t_boxes) < 4 or len(d_boxes) < 4:
        return None
    index = int(rng.integers(1, min(len(t_boxes), len(d_boxes)) - 1))  # not the first or last
    tx, ty, tw, th = t_boxes[index]
    dx, dy, dw, dh = d_boxes[index]
    # erase the target glyph: inpaint its ink (dilated) from the paper around it
    erase = np.zeros_like(t_mask)
    erase[ty : ty + th, tx : tx + tw] = t_mask[ty : ty + th, tx : tx + tw]
    erase = cv2.dilate(erase, np.ones((5, 5), np.uint8))
    edited = cv2.inpaint(target, erase, 3, cv2.INPAINT_TELEA)
    # the donor glyph's region, a little padded, as a darkening factor against its own paper
    pad = max(2, round(0.15 * dh))
    sy0, sx0 = max(0, dy - pad), max(0, dx - pad)
    patch = donor[sy0 : dy + dh + pad, sx0 : dx + dw + pad].astype(np.float32)
    paper = np.percentile(patch.reshape(-1, 3), 90, axis=0) + 1.0
    factor = np.clip(patch / paper, 0.0, 1.0)
    # keep only the glyph's own ink (not a neighbour's edge in the padding): fade outside its box
    inside = np.zeros(patch.shape[:2], np.float32)
    inside[dy - sy0 : dy - sy0 + dh, dx - sx0 : dx - sx0 + dw] = 1.0
    fade = cv2.GaussianBlur(inside, (0, 0), 1.0)[..., None]
    factor = 1.0 - fade * (1.0 - factor)
    # centre on the erased glyph, with a pixel of jitter (a hand-placed paste)
    cx = tx + tw / 2 + float(rng.uniform(-1, 1))
    cy = ty + th / 2 + float(rng.uniform(-1, 1))
    px0 = round(cx - (dx - sx0) - dw / 2)
    py0 = round(cy - (dy - sy0) - dh / 2)
    ph, pw = factor.shape[:2]
    height, width = edited.shape[:2]
    if px0 < 0 or py0 < 0 or px0 + pw > width or py0 + ph > height:
        return None
    region = edited[py0 : py0 + ph, px0 : px0 + pw].astype(np.float32)
    edited[py0 : py0 + ph, px0 : px0 + pw] = np.clip(region * factor, 0, 255).astype(np.uint8)
    return edited, index, dh / th


def glyph_attack(
    clean_bgr: np.ndarray,
    donor_bgr: np.ndarray,
    rng: np.random.Generator,
    clean_fields: PageFields | None = None,
    donor_fields: PageFields | None = None,
) -> GlyphAttack | None:
    """One glyph of a date or document number of ``clean_bgr`` (a clean page as decoded)
    replaced by the same glyph of ``donor_bgr``'s same field, saved as a JPEG at quality 90.
    The fields are read with the engine unless given. None when no target field is found on
    both pages with its glyphs."""
    clean_fields = clean_fields if clean_fields is not None else read_fields(clean_bgr)
    donor_fields = donor_fields if donor_fields is not None else read_fields(donor_bgr)
    ours = {name: bbox for name, _, bbox in clean_fields}
    theirs = {name: bbox for name, _, bbox in donor_fields}
    for name in TARGET_FIELDS:
        if name not in ours or name not in theirs:
            continue
        done = replace_glyph(clean_bgr, ours[name], donor_bgr, theirs[name], rng)
        if done is not None:
            edited, index, ratio = done
            return GlyphAttack(saved(edited), name, ours[name], index, round(float(ratio), 3))
    return None


def photo_bgr(seed: int, index: int) -> np.ndarray:
    """Clean generated phone photo ``index`` of seed ``seed`` (synth.capture's), saved as a JPEG
    at quality 90 and decoded, as an upload is."""
    from synth.capture import _photo_rgb

    return saved(cv2.cvtColor(_photo_rgb(seed, index), cv2.COLOR_RGB2BGR))
