"""One capture defect at a chosen strength, and the attacks authenticity signals look for.

``synth.degrade`` draws a realistic mix of defects per document; measuring where one defect
starts to cost accuracy needs each on its own, graded. :func:`capture_defect` applies one of
``DEFECTS`` at ``level`` (its own unit, see ``DEFECT_UNITS``) to an RGB image; the attacks
(:func:`screen_rephoto`, :func:`halftone_rescan`, :func:`pasted_field`) build what a fraudster
uploads from a genuine capture, :func:`copied_text` a forgery made with the page's own glyphs.
Every random choice is drawn from the caller's generator, so a seed reproduces the same pixels.
Used by ``bench/capture_quality.py``, ``bench/authenticity.py`` and the tests of
``media.capture_quality`` and ``media.authenticity``.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from synth import degrade

DEFECTS: tuple[str, ...] = ("blur", "motion_blur", "glare", "crop", "downscale", "dark", "low_contrast")
DEFECT_UNITS: dict[str, str] = {
    "blur": "Gaussian sigma, px",
    "motion_blur": "smear length, px",
    "glare": "highlight strength, 0..1",
    "crop": "share of the frame cut off one side",
    "downscale": "scale factor (1 = as captured)",
    "dark": "exposure factor (1 = as captured)",
    "low_contrast": "contrast factor (1 = as captured)",
}


def capture_defect(image: np.ndarray, defect: str, level: float, rng: np.random.Generator) -> np.ndarray:
    """``image`` (H x W x 3 uint8 RGB) with ``defect`` applied at ``level``."""
    if defect == "blur":
        return cv2.GaussianBlur(image, (0, 0), level) if level >= 0.2 else image
    if defect == "motion_blur":
        return degrade._motion_blur(image, round(level), float(rng.uniform(0, 180)))
    if defect == "glare":
        return _glare_spot(image, rng, level)
    if defect == "crop":
        return _cut_off(image, rng, level)
    if defect == "downscale":
        return degrade._downscale(image, level) if level < 0.999 else image
    if defect == "dark":
        return cv2.convertScaleAbs(image, alpha=level, beta=0)
    if defect == "low_contrast":
        return degrade._low_contrast(image, level)
    raise ValueError(f"unknown defect {defect!r}; expected one of {DEFECTS}")


def _glare_spot(image: np.ndarray, rng: np.random.Generator, strength: float) -> np.ndarray:
    """A clipped specular highlight near the middle of the frame (where the document lies)."""
    if strength <= 0:
        return image
    h, w = image.shape[:2]
    cx, cy = w * rng.uniform(0.35, 0.65), h * rng.uniform(0.35, 0.65)
    sx, sy = w * rng.uniform(0.08, 0.14), h * rng.uniform(0.08, 0.14)
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    # a flat-topped blob: strength above 1 is clipped at the centre, as a phone's sensor clips
    blob = np.clip(strength * 1.6 * np.exp(-(((xs - cx) / sx) ** 2 + ((ys - cy) / sy) ** 2)), 0, 1)
    lifted = image.astype(np.float32) * (1 - blob[..., None]) + 255 * blob[..., None]
    return np.clip(lifted, 0, 255).astype(np.uint8)


def _cut_off(image: np.ndarray, rng: np.random.Generator, share: float) -> np.ndarray:
    """The frame moved over the document: ``share`` of it cut off one side (drawn)."""
    if share <= 0:
        return image
    h, w = image.shape[:2]
    side = int(rng.integers(4))
    if side == 0:
        return image[round(h * share) :].copy()
    if side == 1:
        return image[: h - round(h * share)].copy()
    if side == 2:
        return image[:, round(w * share) :].copy()
    return image[:, : w - round(w * share)].copy()


# --------------------------------------------------------------------------------------------
# Attacks


def screen_rephoto(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The capture shown on a screen and photographed: each screen pixel an RGB stripe triple
    with a dark gap, seen by a camera a little rotated and scaled (moiré), slightly out of focus,
    with sensor noise."""
    h, w = image.shape[:2]
    pitch = 3  # camera pixels a screen pixel covers, before the camera's own resampling
    screen = cv2.resize(image, (w * pitch // 2, h * pitch // 2), interpolation=cv2.INTER_AREA)
    screen = cv2.resize(
        screen, (screen.shape[1] * pitch, screen.shape[0] * pitch), interpolation=cv2.INTER_NEAREST
    )
    sub = np.zeros((pitch, pitch, 3), np.float32)
    for channel in range(3):
        sub[: pitch - 1, channel, channel] = 1.0  # one sub-pixel column per channel, a dark row
    sub = 0.25 + 0.75 * sub
    tile = np.tile(sub, (screen.shape[0] // pitch, screen.shape[1] // pitch, 1))
    grid = screen.astype(np.float32) * tile * 1.6
    angle = float(rng.uniform(-3, 3))
    scale = float(rng.uniform(0.62, 0.72))
    center = (grid.shape[1] / 2, grid.shape[0] / 2)
    matrix = cv2.getRotationMatrix2D(center, angle, scale)
    out_w, out_h = round(grid.shape[1] * scale), round(grid.shape[0] * scale)
    matrix[0, 2] += out_w / 2 - center[0]
    matrix[1, 2] += out_h / 2 - center[1]
    photo = cv2.warpAffine(np.clip(grid, 0, 255), matrix, (out_w, out_h), flags=cv2.INTER_LINEAR)
    photo = cv2.GaussianBlur(photo, (0, 0), float(rng.uniform(0.5, 0.8)))
    photo = photo + rng.normal(0, 3, photo.shape).astype(np.float32)
    return np.clip(photo, 0, 255).astype(np.uint8)


def halftone_rescan(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The capture printed on a black-and-white laser printer (a clustered-dot screen at 45°)
    and scanned back: grey, dotted, slightly blurred, with scanner noise."""
    gray = cv2.cvtColor(image, cv2.COLOR_RGB2GRAY).astype(np.float32) / 255.0
    h, w = gray.shape
    period = float(rng.uniform(4.0, 6.0))
    theta = math.radians(45 + float(rng.uniform(-5, 5)))
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    u = (xs * math.cos(theta) + ys * math.sin(theta)) * 2 * math.pi / period
    v = (-xs * math.sin(theta) + ys * math.cos(theta)) * 2 * math.pi / period
    screen = (np.cos(u) + np.cos(v)) / 4 + 0.5  # 0..1, dots centred on the maxima
    printed = (gray > screen).astype(np.float32)  # paper where light, toner where dark
    scanned = cv2.GaussianBlur(printed * 235 + 12, (0, 0), float(rng.uniform(0.6, 0.9)))
    scanned = scanned + rng.normal(0, 2, scanned.shape).astype(np.float32)
    out = np.clip(scanned, 0, 255).astype(np.uint8)
    return cv2.cvtColor(out, cv2.COLOR_GRAY2RGB)


def pasted_field(
    image: np.ndarray, donor: np.ndarray, rng: np.random.Generator, donor_quality: int = 60
) -> tuple[np.ndarray, tuple[int, int, int, int]]:
    """A rectangle of ``donor`` (another document, JPEG-compressed at ``donor_quality`` first,
    as a downloaded image is) pasted into ``image`` at an offset off JPEG's 8-pixel grid. Returns
    the edited image and the pasted box (x0, y0, x1, y1). Encode the result as JPEG to finish the
    forgery: the pasted rectangle keeps its own compression history."""
    ok, buffer = cv2.imencode(
        ".jpg", cv2.cvtColor(donor, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, donor_quality]
    )
    assert ok
    decoded = cv2.cvtColor(cv2.imdecode(buffer, cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)
    h, w = image.shape[:2]
    box_w, box_h = round(w * float(rng.uniform(0.25, 0.35))), round(h * float(rng.uniform(0.12, 0.18)))
    x0 = int(rng.integers(round(w * 0.2), w - box_w - round(w * 0.1))) // 8 * 8 + int(rng.integers(2, 7))
    y0 = int(rng.integers(round(h * 0.2), h - box_h - round(h * 0.1))) // 8 * 8 + int(rng.integers(2, 7))
    dh, dw = decoded.shape[:2]
    sx = int(rng.integers(0, max(1, dw - box_w))) // 8 * 8
    sy = int(rng.integers(0, max(1, dh - box_h))) // 8 * 8
    patch = decoded[sy : sy + box_h, sx : sx + box_w]
    edited = image.copy()
    edited[y0 : y0 + patch.shape[0], x0 : x0 + patch.shape[1]] = patch
    return edited, (x0, y0, x0 + patch.shape[1], y0 + patch.shape[0])


def copied_text(
    image: np.ndarray, rng: np.random.Generator, pad: int = 3
) -> tuple[np.ndarray, tuple[int, int, int, int]]:
    """A few characters of one printed field copied over another field's characters on the same
    page (the copy-move a fraudster makes to change a date or a number with the document's own
    glyphs): a rectangle as tall as the text (plus ``pad`` pixels) and 1.5-3 text heights wide,
    taken from one line of text and pasted, pixel for pixel, over characters of another line of
    about the same height (found by :func:`_text_lines`; two rectangles of the page's middle when
    there are not two such lines). Returns the edited image and the pasted box (x0, y0, x1, y1). Encode
    the result as JPEG to finish the forgery."""
    h, w = image.shape[:2]
    lines = [box for box in _text_lines(image) if box[3] - box[1] >= 12]
    pairs = [(a, b) for a in lines for b in lines if a != b and 0.7 <= (a[3] - a[1]) / (b[3] - b[1]) <= 1.4]
    for index in rng.permutation(len(pairs)) if pairs else []:
        a, b = pairs[int(index)]
        box_h = max(a[3] - a[1], b[3] - b[1]) + 2 * pad
        text_w = min(round(float(rng.uniform(1.5, 3.0)) * box_h), a[2] - a[0], b[2] - b[0])
        box_w = text_w + 2 * pad
        sx = a[0] - pad + int(rng.integers(0, a[2] - a[0] - text_w + 1))
        sy = (a[1] + a[3]) // 2 - box_h // 2
        dx = b[0] - pad + int(rng.integers(0, b[2] - b[0] - text_w + 1))
        dy = (b[1] + b[3]) // 2 - box_h // 2
        inside = min(sx, sy, dx, dy) >= 0 and max(sx, dx) + box_w <= w and max(sy, dy) + box_h <= h
        if inside and (abs(dx - sx) >= box_w or abs(dy - sy) >= box_h):
            break
    else:  # no two lines of text fit
        box_w, box_h = max(16, w // 10), max(16, h // 25)
        sx, sy = int(rng.integers(w // 5, w // 2 - box_w)), int(rng.integers(h // 5, 4 * h // 5 - box_h))
        dx, dy = int(rng.integers(w // 2, 4 * w // 5 - box_w)), int(rng.integers(h // 5, 4 * h // 5 - box_h))
    edited = image.copy()
    edited[dy : dy + box_h, dx : dx + box_w] = image[sy : sy + box_h, sx : sx + box_w]
    return edited, (dx, dy, dx + box_w, dy + box_h)


def _text_lines(image: np.ndarray) -> list[tuple[int, int, int, int]]:
    """Boxes (x0, y0, x1, y1) of the page's dark words and short lines of text: glyph-sized dark
    blobs joined along their row, at least twice as wide as tall."""
    gray = cv2.cvtColor(image, cv2.COLOR_RGB2GRAY)
    ink = cv2.adaptiveThreshold(gray, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, 31, 25)
    _, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    heights, widths = stats[:, cv2.CC_STAT_HEIGHT], stats[:, cv2.CC_STAT_WIDTH]
    glyph = (heights >= 8) & (heights <= 60) & (widths <= 60) & (stats[:, cv2.CC_STAT_AREA] >= 12)
    glyph[0] = False  # the background
    glyphs = glyph[labels].astype(np.uint8) * 255
    words = cv2.morphologyEx(glyphs, cv2.MORPH_CLOSE, np.ones((3, 15), np.uint8))
    _, labels, stats, _ = cv2.connectedComponentsWithStats(words, connectivity=8)
    return [
        (int(x), int(y), int(x + bw), int(y + bh))
        for x, y, bw, bh, area in stats[1:]
        if 10 <= bh <= 50 and bw >= 2 * bh and area >= 0.3 * bw * bh
    ]


# --------------------------------------------------------------------------------------------
# A generated attack set


ATTACK_KINDS: tuple[str, ...] = ("passport", "id_card", "td2")


def _photo_rgb(seed: int, index: int) -> np.ndarray:
    from synth.documents import document_rng, generate_document

    kind = ATTACK_KINDS[index % len(ATTACK_KINDS)]
    doc = generate_document(document_rng(seed, index), kind=kind, profile="photo", severity=0.4)
    return cv2.cvtColor(cv2.imdecode(np.frombuffer(doc.image, np.uint8), cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)


def _saved(image: np.ndarray, quality: int = 90) -> np.ndarray:
    ok, data = cv2.imencode(
        ".jpg", cv2.cvtColor(image, cv2.COLOR_RGB2BGR), [cv2.IMWRITE_JPEG_QUALITY, quality]
    )
    assert ok
    return cv2.imdecode(data, cv2.IMREAD_COLOR)


def copy_rng(seed: int, index: int) -> np.random.Generator:
    """The copied attack's own random stream for page ``index`` (the other attacks' stream,
    ``1000 + index``, is left as it was: their pages stay the same for a seed)."""
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(index, 1)))


def attack_pages(
    seed: int, count: int, boxes: dict[str, list[tuple[int, int, int, int]]] | None = None
) -> dict[str, list[np.ndarray]]:
    """``count`` clean phone photos of MRZ documents (seed ``seed``) and each attack made from
    each of them, as the BGR pages an upload decodes to (every page saved as a JPEG at quality
    90, as a phone or browser saves it): ``clean``, ``screen``, ``print``, ``edited`` (a
    rectangle pasted from another document, seed ``seed + 1``, saved first at a quality drawn
    from 55-75) and ``copied`` (a few characters of the page copied over another field's,
    :func:`copied_text`, drawn from :func:`copy_rng`). ``boxes``, when given, receives the
    pasted boxes (x0, y0, x1, y1) of the ``edited`` and ``copied`` pages."""
    out: dict[str, list[np.ndarray]] = {"clean": [], "screen": [], "print": [], "edited": [], "copied": []}
    for index in range(count):
        rng = np.random.default_rng(1000 + index)
        image = _photo_rgb(seed, index)
        out["clean"].append(_saved(image))
        out["screen"].append(_saved(screen_rephoto(image, rng)))
        out["print"].append(_saved(halftone_rescan(image, rng)))
        quality = int(rng.integers(55, 76))
        edited, edited_box = pasted_field(image, _photo_rgb(seed + 1, index), rng, quality)
        out["edited"].append(_saved(edited))
        copied, copied_box = copied_text(image, copy_rng(seed, index))
        out["copied"].append(_saved(copied))
        if boxes is not None:
            boxes.setdefault("edited", []).append(edited_box)
            boxes.setdefault("copied", []).append(copied_box)
    return out
