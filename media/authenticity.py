"""Advisory authenticity signals of a page image: a photo of a screen, a print or photocopy, an
edited region, a patch copied within the page. Each is a named check with a score and a
sentence for the reviewer; none ever declines a document (a genuine card photographed on a
glossy table can look printed, a re-saved scan can look edited): they point a reviewer at what
to look at.

``screen``  a screen's sub-pixel grid photographed by a camera leaves sharp periodic peaks in the
            colour (chroma) spectrum at short periods (2-8 pixels), where a paper document's
            spectrum is smooth. Score: the strongest such peak over the spectrum's median, in
            decibels (10 log10).
``print``   a laser or offset print is made of a halftone screen of dots: sharp periodic peaks in
            the grey spectrum at short periods, in a page with little colour left. Score: the
            strongest grey peak in decibels, less a penalty for colour (a colourful page is
            unlikely to be a black-and-white print).
``edited``  a region pasted from another JPEG keeps that JPEG's 8 x 8 block grid, usually off the
            page's own grid: re-compressing the page on the grid at each of the 64 offsets, such a
            region changes far less at its own offset than elsewhere (a "JPEG ghost"). Score: the
            number of 32-pixel cells in the largest block ghosted at an offset other than the
            page's own, with its box.
``copied``  a patch of the page pasted elsewhere on it (a digit or a few characters copied over
            another field's) is identical to its source, sensor noise and all, where two prints of
            one glyph never are: overlapping 8 x 8 blocks with the same fine descriptor, at one
            shift, side by side, and not a pattern that repeats anyway (:mod:`media.copy_move`).
            Score: the block pairs of the largest such patch, with the pasted copy's box.
``zones``   the printed page, the MRZ and the barcode state the same facts: the engine's
            cross-checks (``mrz_matches_visual_zone``, ``barcode_vs_front``) failing are
            evidence too (:func:`zones_signal`, after the reading). Score: the fields in
            disagreement.

What they cannot catch, honestly: a screen photographed from far enough away that the camera
cannot resolve its pixels; a print on a high-resolution inkjet (no regular screen); an edit
made on the uncompressed original before a single JPEG save, a page resized or re-compressed
hard afterwards (both erase the second grid), a field pasted from a JPEG saved at a high quality
(above about 80: its ghost is faint) or within a pixel of the page's own grid; a field retyped
in the same font; a forger who knows these measures. The copied signal misses a copy of less
than a character (one character is flagged in four of five), a copy re-saved at a low quality
(at JPEG quality 75, two in three are flagged), a copy resized, rotated or retouched before it
was pasted, a copy of a repeating glyph (MRZ fillers ``<<<``, left out as a pattern), and a page
resized after the edit (a photo larger than DOCINTEL_PAGE_MAX_SIDE is fitted before it is scored:
the two copies no longer match pixel for pixel); it cannot tell a copy from a repeat on a page
drawn by a computer (not scored) nor, at times, on a scan with little noise (a receipt listing
one item twice), and copies from another capture of the same document are the edited signal's.
The zones signal only catches an edit to one zone (a name changed on the page but not in the
MRZ) and fires on an OCR misreading too.
Measured on generated attacks (``synth.capture.attack_pages``) by bench/authenticity.py, held by
tests/unit/media/test_authenticity.py (AUC and false-positive rates in docs/capture-quality.md).
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import cv2
import numpy as np
from PIL import Image

from media.copy_move import copied_score
from media.page_analysis import PageAnalysis

# Score at or above which a signal is flagged (shown as "not passed" to the reviewer).
# Chosen on the generated attack set (bench/authenticity.py, seed 31, docs/capture-quality.md)
# above every clean capture's and bundled sample's score, so that a clean capture is rarely
# flagged (on the same pages: an optimistic false-positive rate). copied: 50 block pairs, about
# twice the highest clean photo's or bundled sample's score (14 and 27) and half the smallest
# copied page's in the attack set (101): a few characters copied score 100-1,000, one character
# 30-350 (most above 50), while no clean phone photo of 145 generated ones reached 50.
THRESHOLDS: dict[str, float] = {"screen": 21.5, "print": 22.0, "edited": 7.0, "copied": 50.0}
EXPLANATIONS: dict[str, str] = {
    "screen": "periodic colour pattern of a screen's pixel grid (moiré): possibly a photo of a screen",
    "print": "regular halftone dots and little colour: possibly a print-out or photocopy",
    "edited": "a region with a JPEG grid of its own: possibly pasted in from another image",
    "copied": "a patch found twice on the page, pixel for pixel: possibly copied over another field",
}
SIGNALS: tuple[str, ...] = ("screen", "print", "edited", "copied")


@dataclass(frozen=True)
class Signal:
    name: str  # one of SIGNALS
    score: float
    threshold: float
    page: int
    region: tuple[float, float, float, float] | None = None  # shares of the page's width, height

    @property
    def flagged(self) -> bool:
        return self.score >= self.threshold

    def to_dict(self) -> dict[str, Any]:
        said = EXPLANATIONS[self.name] if self.flagged else "nothing unusual found"
        return {
            "name": f"authenticity_{self.name}",
            "passed": not self.flagged,
            "detail": f"{said} (score {self.score:.2f}, flagged from {self.threshold:g}, page {self.page})",
            "kind": "authenticity",
            "advisory": True,
            "score": round(self.score, 4),
            "threshold": self.threshold,
            "page": self.page,
            "region": None if self.region is None else [round(v, 4) for v in self.region],
        }


@lru_cache(maxsize=16)
def _spectral_band(n: int, block: int) -> tuple[np.ndarray, np.ndarray]:
    """The Hann window of an ``n``-pixel square crop, and the flat indices into its (unshifted)
    DFT of the band :func:`_peak_db` reads: periods of 2.2 to 8 pixels, JPEG's block harmonics
    left out, and of each pair of conjugate frequencies (equal magnitudes) one: the band's
    largest value and its median are the whole band's, over half the values."""
    window = np.outer(np.hanning(n), np.hanning(n)).astype(np.float32)
    k = np.arange(n)
    f = (k + n // 2) % n - n // 2  # the frequency at each unshifted index
    fy, fx = f[:, None], f[None, :]
    radius = np.hypot(fx, fy)
    band = (radius >= n / 8) & (radius <= n / 2.2)
    harmonic = n / block
    near_grid = (np.abs(fx / harmonic - np.round(fx / harmonic)) * harmonic <= 2) & (
        np.abs(fy / harmonic - np.round(fy / harmonic)) * harmonic <= 2
    )
    half = (fx > 0) | ((fx == 0) & (fy > 0))
    return window, np.flatnonzero(band & ~near_grid & half)


def _peak_db(channel: np.ndarray, block: int = 8) -> float:
    """The strongest short-period peak of ``channel``'s spectrum over the band's median, in dB
    (JPEG's own block harmonics left out: ``block`` pixels, 16 for colour, which JPEG usually
    keeps at half resolution)."""
    n = channel.shape[0]
    if n < 64:
        return 0.0
    data = channel.astype(np.float32)
    data -= cv2.blur(data, (9, 9))  # high-pass: the page's layout and lighting are not periodic
    window, band = _spectral_band(n, block)
    spectrum = cv2.dft(data * window, flags=cv2.DFT_COMPLEX_OUTPUT).reshape(-1, 2)[band]
    values = np.hypot(spectrum[:, 0], spectrum[:, 1])
    if values.size == 0 or float(values.max()) <= 0:
        return 0.0
    return float(10 * np.log10(values.max() / max(float(np.median(values)), 1e-6)))


def screen_score(bgr: np.ndarray, analysis: PageAnalysis | None = None) -> float:
    crop = PageAnalysis.of(bgr, analysis).centre_crop
    # red against blue: a sub-pixel grid alternates them
    chroma = cv2.subtract(crop[..., 2], crop[..., 0], dtype=cv2.CV_32F)
    return _peak_db(chroma, block=16)


def print_score(bgr: np.ndarray, analysis: PageAnalysis | None = None) -> float:
    crop = PageAnalysis.of(bgr, analysis).centre_crop
    gray = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
    saturation = float(cv2.mean(cv2.cvtColor(crop, cv2.COLOR_BGR2HSV))[1]) / 255.0
    # a colourful page is unlikely a black-and-white print: up to 10 dB off for full colour
    return _peak_db(gray) - 10.0 * min(1.0, saturation / 0.25)


# JPEG ghosts (Farid 2009): the page is re-compressed at this quality with its 8 x 8 grid put at
# each of the 64 offsets; a region once saved as a JPEG on the grid at one offset changes much less
# when re-compressed on that same grid than on the others.
_GHOST_QUALITY = 65
_GHOST_CELL = 32
# A cell is a ghost at an offset where its re-compression error is below this share of its
# median error over the 64 offsets.
_GHOST_RATIO = 0.6


def edited_score(
    bgr: np.ndarray, analysis: PageAnalysis | None = None
) -> tuple[float, tuple[float, float, float, float] | None]:
    """The largest block of 32-pixel cells that keeps a JPEG grid of its own, and its box.

    Per cell and grid offset, the error of re-compressing the page at quality 65 with its 8 x 8
    grid at that offset, over the cell's median error across all 64 offsets: a region once
    compressed on the grid at that offset (a field pasted from another JPEG, off the page's own
    grid) is a "ghost", far below 1 there. The page's own grid and the offsets within a pixel of
    it are left out: a page cropped by a pixel or two after its last save shows them everywhere.
    Score: the ghost cells of the largest connected block, at the offset where it is largest
    (0 for a page with one grid, or none). The page's own grid is the offset where its cells'
    median error ratio is lowest.

    Costs 64 JPEG round trips of the page's grey image, the most costly of the page's checks
    (bench/page_costs.py, docs/capture-quality.md): no reduction can spare them, the ghost being
    the page's own pixels on their 8 x 8 grid, and no cheaper sign of a second grid (the grey
    steps along each phase's block edges) found the pasted cells the ghost finds."""
    gray = PageAnalysis.of(bgr, analysis).gray
    height, width = gray.shape
    rows, cols = gray.shape[0] // _GHOST_CELL, gray.shape[1] // _GHOST_CELL
    if rows < 2 or cols < 2:
        return 0.0, None
    h, w = rows * _GHOST_CELL, cols * _GHOST_CELL
    gray = np.ascontiguousarray(gray[:h, :w])
    errors = _ghost_errors(gray)
    ratio = (errors + 1.0) / (np.median(errors, axis=0) + 1.0)
    page_y, page_x = divmod(int(np.argmin(np.median(ratio, axis=(1, 2)))), 8)
    best, best_cells = 0, None
    for offset in range(64):
        dy, dx = divmod(offset, 8)
        if min((dy - page_y) % 8, (page_y - dy) % 8) <= 1 and min((dx - page_x) % 8, (page_x - dx) % 8) <= 1:
            continue
        ghost = (ratio[offset] < _GHOST_RATIO).astype(np.uint8)
        if int(ghost.sum()) <= best:
            continue
        # cells a cell apart belong to one block (a field's text leaves flat cells between)
        joined = cv2.dilate(ghost, np.ones((3, 3), np.uint8))
        count, labels = cv2.connectedComponents(joined, connectivity=8)
        for label in range(1, count):
            cells = (labels == label) & (ghost > 0)
            size = int(cells.sum())
            if size > best:
                best, best_cells = size, cells
    if best_cells is None:
        return 0.0, None
    ys, xs = np.nonzero(best_cells)
    box = (
        float(xs.min() * _GHOST_CELL) / width,
        float(ys.min() * _GHOST_CELL) / height,
        float((xs.max() + 1) * _GHOST_CELL) / width,
        float((ys.max() + 1) * _GHOST_CELL) / height,
    )
    return float(best), box


def _ghost_errors(gray: np.ndarray) -> np.ndarray:
    """(64, rows, cols): each cell's mean squared error when the page is re-compressed with its
    grid at each offset (rows and columns before the offset: no error)."""
    h, w = gray.shape
    rows, cols = h // _GHOST_CELL, w // _GHOST_CELL
    errors = np.empty((64, rows, cols), np.float32)
    for offset in range(64):
        dy, dx = divmod(offset, 8)
        shifted = np.ascontiguousarray(gray[dy:, dx:])
        ok, data = cv2.imencode(".jpg", shifted, [cv2.IMWRITE_JPEG_QUALITY, _GHOST_QUALITY])
        assert ok
        again = cv2.imdecode(data, cv2.IMREAD_GRAYSCALE)
        difference = cv2.absdiff(shifted, again)
        squared = cv2.multiply(difference, difference, dtype=cv2.CV_32F)
        squared = cv2.copyMakeBorder(squared, dy, 0, dx, 0, cv2.BORDER_CONSTANT, value=(0.0,))
        # each cell's mean (an area resize by a whole factor averages each cell exactly)
        errors[offset] = cv2.resize(squared, (cols, rows), interpolation=cv2.INTER_AREA)
    return errors


def signals_of_page(
    bgr: np.ndarray,
    page: int = 1,
    full_size: np.ndarray | None = None,
    analysis: PageAnalysis | None = None,
) -> list[Signal]:
    """The page signals of one page image. ``full_size``: the same page as uploaded, before it
    was fitted within the page size limit; the copy-move signal looks there, since resampling
    makes the two copies of a pasted patch differ (a copy on a 4000-pixel phone photo fitted to
    2400 pixels is all but gone). ``analysis``: the page's :class:`PageAnalysis` when the caller
    holds one (the capture gate's: the grey page is converted once)."""
    shared = PageAnalysis.of(bgr, analysis)
    edited, box = edited_score(bgr, shared)
    if full_size is not None:
        copied, copied_box = copied_score(full_size)
    else:
        copied, copied_box = copied_score(bgr, shared)
    return [
        Signal("screen", screen_score(bgr, shared), THRESHOLDS["screen"], page),
        Signal("print", print_score(bgr, shared), THRESHOLDS["print"], page),
        Signal("edited", edited, THRESHOLDS["edited"], page, box),
        Signal("copied", copied, THRESHOLDS["copied"], page, copied_box),
    ]


def signals_of_images(
    images: Sequence[bytes],
    numbers: Sequence[int] | None = None,
    full_size: Mapping[int, bytes] | None = None,
    analyses: Sequence[PageAnalysis | None] | None = None,
) -> list[Signal]:
    """One signal of each kind for the document: each kind's highest-scoring page. Pages that
    do not decode are left out. ``full_size``: by page number, the upload's own image of a page
    that was made smaller to be stored (see :func:`signals_of_page`). ``analyses``: the pages
    already decoded (``media.capture_quality.analyses_of``, shared with the capture gate), in
    the order of ``images``; a page without one is decoded here."""
    numbers = list(numbers) if numbers is not None else list(range(1, len(images) + 1))
    decoded = list(analyses) if analyses is not None else [None] * len(images)
    best: dict[str, Signal] = {}
    for data, number, analysis in zip(images, numbers, decoded, strict=True):
        if analysis is None:
            image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
            if image is None:
                continue
            analysis = PageAnalysis(image)
        image = analysis.bgr
        larger = _larger(image, (full_size or {}).get(number))
        for signal in signals_of_page(image, number, larger, analysis):
            if signal.name not in best or signal.score > best[signal.name].score:
                best[signal.name] = signal
    return [best[name] for name in SIGNALS if name in best]


def _larger(page: np.ndarray, original: bytes | None) -> np.ndarray | None:
    """The upload's image of the page when it decodes to the page's shape at a larger size. Its
    header is read first: a photo stored at its own size is not decoded a second time."""
    if original is None:
        return None
    try:
        with Image.open(io.BytesIO(original)) as header:
            width, height = header.size
    except (OSError, ValueError, Image.DecompressionBombError):
        return None
    if max(width, height) <= max(page.shape[:2]):
        return None
    image = cv2.imdecode(np.frombuffer(original, np.uint8), cv2.IMREAD_COLOR)
    if image is None or image.shape[0] * image.shape[1] <= page.shape[0] * page.shape[1]:
        return None
    same_shape = abs(image.shape[1] / image.shape[0] - page.shape[1] / page.shape[0]) < 0.02
    return image if same_shape else None


# --------------------------------------------------------------------------------------------
# The document's own zones disagreeing

# The engine's cross-checks between two zones that state the same facts, and what they compare.
ZONE_CHECKS: dict[str, str] = {
    "mrz_matches_visual_zone": "the MRZ and the printed page",
    "barcode_vs_front": "the barcode and the printed front",
}
# Fields in disagreement from which the zones signal is flagged: one field alone is often the
# print misread (the engine's cross-check fails on a clean generated photo in one of two).
ZONES_THRESHOLD = 2.0


def zones_signal(
    checks: Sequence[Mapping[str, Any]], fields: Mapping[str, Mapping[str, Any]] | None = None
) -> dict[str, Any] | None:
    """The engine's zone cross-checks (``ZONE_CHECKS``) as an advisory authenticity check,
    ``authenticity_zones``: score, the number of fields the zones state differently; region, the
    box around those of ``fields`` (name -> {"bbox", "page"}) on the first page one is on. None
    when the document has no such cross-check (no MRZ, no barcode)."""
    found = [c for c in checks if c.get("name") in ZONE_CHECKS]
    if not found:
        return None
    names: list[str] = []
    said: list[str] = []
    for check in found:
        if check.get("passed"):
            continue
        named = _named_fields(str(check.get("detail") or ""))
        names.extend(n for n in named if n not in names)
        said.append(f"{ZONE_CHECKS[check['name']]} disagree" + (f" on {', '.join(named)}" if named else ""))
    score = float(len(names) or len(said))
    flagged = score >= ZONES_THRESHOLD
    detail = "; ".join(said) if flagged else "the document's zones agree"
    region, page = _fields_box(names, fields or {})
    return {
        "name": "authenticity_zones",
        "passed": not flagged,
        "detail": f"{detail} (score {score:g}, flagged from {ZONES_THRESHOLD:g})",
        "kind": "authenticity",
        "advisory": True,
        "score": score,
        "threshold": ZONES_THRESHOLD,
        "page": page,
        "region": region,
    }


def _named_fields(detail: str) -> list[str]:
    """The field names a cross-check's detail lists ("not found in print: surname, sex; ...")."""
    names: list[str] = []
    for part in detail.split(";"):
        if ":" not in part:
            continue
        for name in part.split(":", 1)[1].split(","):
            name = name.strip()
            if name and name.replace("_", "").isalnum() and name not in names:
                names.append(name)
    return names


def _fields_box(
    names: Sequence[str], fields: Mapping[str, Mapping[str, Any]]
) -> tuple[list[float] | None, int | None]:
    placed = [fields[n] for n in names if n in fields and fields[n].get("bbox")]
    if not placed:
        return None, None
    page = int(placed[0].get("page") or 1)
    boxes = [f["bbox"] for f in placed if int(f.get("page") or 1) == page]
    box = [
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    ]
    return [round(float(v), 4) for v in box], page
