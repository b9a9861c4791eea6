"""Is a page image good enough to read, or should the applicant take the photo again?

Measured per page, cheaply (OpenCV on a working copy of at most ``WORK_SIDE`` pixels a side,
shared with the authenticity signals through :class:`media.page_analysis.PageAnalysis`; what
each page costs is bench/page_costs.py's, docs/capture-quality.md), before any inference: a page that fails is not worth a model call, and
the applicant is better served by a new photo now than by an operator squinting later.

Each measure is one number, compared with a threshold (:class:`CaptureThresholds`, per
document type in the settings, ``DOCINTEL_CAPTURE_THRESHOLDS``):

``blur_px``         the width of the letters' sharpest edges, in page pixels: a sharp print edge
                    is about 2 px wide, a Gaussian blur of sigma s widens it to about 2.5 s. Taken
                    per 32-pixel tile holding letters' strokes (contrast over the tile / steepest
                    gradient in it), the sharper quarter's bound; every tile with ink against
                    paper stands in when too few hold letters (a page blurred past finding them).
``motion_blur_px``  the length of a shaken phone's smear, as the engine's own deblurring step
                    estimates it (``engines.deblur.motion_blur_of``; 0 when not smeared). The
                    engine undoes short smears itself, so only long ones fail. The estimate only
                    reaches 30 px (``engines.deblur.MAX_LENGTH``): a longer smear reads shorter.
``edge_isotropy``   the letters' edges across their weakest direction against across the
                    strongest (the smaller over the larger eigenvalue of the gradients' second
                    moments over the letters' strokes: rules, table borders, coloured bands and
                    blank paper have edges in one direction or none, and are left out): 0.4-1 for
                    a sharp page, falling as a smear of any length wipes out the edges along it
                    (0.02-0.12 at a 20-32 pixel smear).
``glare``           the share of the text's area under clipped highlights (near-white, well above
                    the page's own background, in blobs larger than a letter).
``cropped``         the largest share of one side of the frame along which letters are cut by it
                    (touching the frame's edge where that edge runs over the paper): a document
                    cut off by the frame leaves cut letters at the border; a card on a table, a
                    page with margins, a scan cropped to the paper leave none.
``text_height_px``  the median height of the letters, in page pixels: too few pixels a letter and
                    no reader can tell them apart (``low_resolution``).
``brightness``      the median grey of the page (0-255), and
``contrast``        the spread between ink and paper (grey 95th - 5th percentile over the text):
                    either too low is ``too_dark``.

A measure that cannot be taken (a page without text-like marks) is None and fails nothing: the
gate only sends back what it can show is bad. A blank page (``blank``) fails nothing at all, and
the pages of a digital PDF are not judged (:func:`captured_pages`). Django-free: used by the prepare step
(``apps.documents.pipeline``), ``manage.py extract`` and ``bench/capture_quality.py``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any, Protocol, TypeVar

import cv2
import numpy as np

from engines.deblur import motion_blur_of
from media.page_analysis import WORK_SIDE as WORK_SIDE
from media.page_analysis import PageAnalysis, histogram, percentiles

# Machine-readable reasons for a new photo, in the order they are reported.
REASONS: tuple[str, ...] = ("blurred", "glare", "cropped", "low_resolution", "too_dark")

# One sentence per reason, for the applicant (shown by the integrator's front end as they are).
APPLICANT_SENTENCES: dict[str, str] = {
    "blurred": "The photo is blurred: hold the phone still and let it focus on the document.",
    "glare": "Light reflects off the document and hides part of it: move away from direct light or tilt the document.",
    "cropped": "Part of the document is outside the photo: make sure all four corners are in the frame.",
    "low_resolution": "The document is too small in the photo: move closer so that it fills most of the frame.",
    "too_dark": "The photo is too dark or too faint to read: take it in better light.",
}

# The working copy's longest side (WORK_SIDE, media.page_analysis): the measures below are taken
# on it (and scaled back to page pixels), so a page costs the same whatever its size.
_TILE = 32
# A tile holds text when ink and paper differ by at least this much (grey levels).
_TILE_MIN_CONTRAST = 60.0
# Text-like marks: this much darker than their surroundings (adaptive threshold's C).
_INK_DELTA = 18
# A highlight is clipped at least this bright; paper whose median is this bright is white paper
# at full exposure, where no highlight can be told from a blank margin.
_CLIPPED = 250
_WHITE_PAPER = 238
# A frame whose brightest quarter is clipped is white paper as well (whatever tint its text's
# panels carry): at this percentile of the frame's grey.
_PAPER_PERCENTILE = 75
# The gradient energy (mean squared Sobel response over the strokes) below which the strokes are
# too flat to tell a smear, and the fewest stroke pixels that tell one.
_ISOTROPY_MIN_ENERGY = 25.0
_ISOTROPY_MIN_PIXELS = 400
# Fewer stroke pixels than this and the letters are gone (melted by a heavy blur or smear): the
# page's other marks, less its long rules, are read instead.
_MIN_STROKE_PIXELS = 2000
# A letter is cut by the frame when its marks reach this close to the frame's edge (working
# pixels): touching it, not merely near it (a scan cropped to the paper leaves its text close to
# the edge, whole).
_FRAME_TOUCH = 1
# The frame's edge runs over the paper where it is at least this share of the paper's grey (the
# page's 90th percentile); darker, it shows what lies beyond the paper (a scanner's lid, a table).
_EDGE_ON_PAPER = 0.6
# Blank paper: at least this bright (median grey), and no letters once smoothed by this sigma
# (working pixels) and stretched by at most 255 / this spread (grey levels).
_BLANK_MIN_BRIGHTNESS = 100.0
_BLANK_SMOOTH = 2.0
_BLANK_MIN_SPREAD = 16.0
# ... and no marks on it either: the smoothed page's grey spread (0.5th to 99.5th percentile)
# at most this (paper grain and a scanner's noise stay well under it, any print goes over).
_BLANK_MAX_SPREAD = 40.0
# The letters' strokes: the letter marks grown by this many working pixels, to take in both sides
# of each stroke's edges (where blur and smear show) and nothing of the rules and bands around.
_STROKE_MARGIN = 2
# Tiles with at least this many stroke pixels are tiles of text (for blur_px).
_TILE_MIN_STROKE = 24
# The text region's closing (a few letters wide) is taken on the letters' mask reduced until its
# kernel is about this many pixels (media.capture_quality._text_region).
_REGION_KERNEL = 9


@dataclass(frozen=True)
class CaptureMeasures:
    """One page's measures (see the module's docstring); ``regions`` are boxes (x0, y0, x1, y1,
    as shares of the page's width and height) of what a failing measure concerns."""

    width: int
    height: int
    blur_px: float | None
    motion_blur_px: float
    edge_isotropy: float | None
    glare: float
    cropped: float
    text_height_px: float | None
    brightness: float
    contrast: float | None
    regions: dict[str, tuple[float, float, float, float]] = field(default_factory=dict)
    # no text on the page, not even faint: a blank page (the back of a form, a scanner's empty
    # last sheet) fails nothing, whatever its other measures
    blank: bool = False

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["regions"] = {k: list(v) for k, v in self.regions.items()}
        return out


@dataclass(frozen=True)
class CaptureThresholds:
    """Where each measure fails a page; None turns a measure's check off."""

    # Fitted (issue 47) with bench/capture_gate.py on the measures of these pages: clean pages of
    # every family but the held-out one (synth/ mixed profiles seed 9090; the real SROIE receipt
    # scans, ID specimens, e-invoice and invoice2data PDF pages rendered and judged as scans) sent
    # back at most 1 % each, and degraded ones (bench/capture_quality.py's defects at and past
    # where the engine's accuracy falls off) caught: each threshold just past the worst clean
    # page, where that still catches what the previous thresholds caught. htmldocs/ (the
    # independent family) was only measured. The previous set, from the engine's accuracy curves
    # (bench/capture_quality.py, docs/capture-quality.md), was 3.4, 27.8, 0.105, 0.05, 0.2, 5.8,
    # 16.1, 13.2; brightness and contrast stand as they were.
    max_blur_px: float | None = 3.6
    max_motion_blur_px: float | None = 29.0
    min_edge_isotropy: float | None = 0.15
    max_glare: float | None = 0.21
    max_cropped: float | None = 0.12
    min_text_height_px: float | None = 7.0
    min_brightness: float | None = 16.1
    min_contrast: float | None = 13.2

    @classmethod
    def from_settings(
        cls, table: Mapping[str, Mapping[str, float | None]], document_type: str | None
    ) -> CaptureThresholds:
        """The thresholds of ``document_type`` from a settings table: its ``"default"`` entry
        (over this class's defaults), then the type's own entry over that. Unknown keys raise."""
        known = {f.name for f in fields(cls)}
        thresholds = cls()
        for key in ("default", document_type or ""):
            entry = table.get(key) or {}
            unknown = set(entry) - known
            if unknown:
                raise ValueError(f"DOCINTEL_CAPTURE_THRESHOLDS[{key!r}]: unknown {sorted(unknown)}")
            thresholds = replace(thresholds, **entry)
        return thresholds


@dataclass(frozen=True)
class CaptureCheck:
    """One reason's check over a document's pages: the worst page's score against the threshold."""

    name: str  # capture_<reason>
    reason: str
    passed: bool
    score: float | None
    threshold: float | None
    page: int | None  # the worst page (1-based), None when no page could be measured
    detail: str
    region: tuple[float, float, float, float] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "passed": self.passed,
            "detail": self.detail,
            "kind": "capture",
            "reason": self.reason,
            "score": None if self.score is None else round(self.score, 4),
            "threshold": self.threshold,
            "page": self.page,
            "region": None if self.region is None else [round(v, 4) for v in self.region],
        }


@dataclass(frozen=True)
class CaptureAssessment:
    pages: tuple[CaptureMeasures, ...]
    checks: tuple[CaptureCheck, ...]

    @property
    def reasons(self) -> tuple[str, ...]:
        return tuple(c.reason for c in self.checks if not c.passed)

    @property
    def passed(self) -> bool:
        return not self.reasons

    @property
    def message(self) -> str:
        return applicant_message(self.reasons)


class _Page(Protocol):
    @property
    def text_layer(self) -> str: ...
    @property
    def image_only(self) -> bool: ...


_P = TypeVar("_P", bound=_Page)


def captured_pages(pages: Sequence[_P], is_pdf: bool) -> list[_P]:
    """The pages the gate judges: the photographed or scanned ones.

    An uploaded image is a capture, every page of it. A PDF is digital (made by software, not by
    a camera or a scanner) when any page has a text layer, or when no page is a raster image over
    the whole page (``media.pdf_render.PreparedPage.image_only``): none of its pages is judged,
    its blank or drawn pages included, since none was captured and a new photo cannot improve
    it. In a PDF of scans only the scanned pages are judged (a drawn cover sheet is not)."""
    if not is_pdf:
        return list(pages)
    if any(page.text_layer for page in pages) or not any(page.image_only for page in pages):
        return []
    return [page for page in pages if page.image_only]


def applicant_message(reasons: Sequence[str]) -> str:
    """What the applicant is told: why the photo cannot be read, and to take it again."""
    if not reasons:
        return ""
    said = " ".join(APPLICANT_SENTENCES[r] for r in REASONS if r in reasons)
    return f"{said} Please take the photo again."


# --------------------------------------------------------------------------------------------
# Measuring one page


def decode_page(data: bytes) -> np.ndarray:
    """A page's encoded bytes (JPEG, PNG) as a BGR array; ValueError when they do not decode."""
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    if image is None:
        raise ValueError("the page image does not decode")
    return image


def measure_page(image: np.ndarray, analysis: PageAnalysis | None = None) -> CaptureMeasures:
    """The capture measures of a BGR or grey uint8 page. ``analysis``: the page's
    :class:`PageAnalysis` when the caller holds one (its grey page and working copy are reused)."""
    page = PageAnalysis.of(image, analysis)
    gray, work, scale = page.gray, page.work, page.work_scale
    height, width = gray.shape
    marks = ink_mask(work)
    ink, letter_stats = _letters(marks)
    text_height = _text_height_of(letter_stats, ink.shape[0])
    work_counts = page.work_histogram
    brightness = float(percentiles(work_counts, 50)[0])
    if text_height is None and _blank(work, brightness):
        return CaptureMeasures(
            width=width,
            height=height,
            blur_px=None,
            motion_blur_px=0.0,
            edge_isotropy=None,
            glare=0.0,
            cropped=0.0,
            text_height_px=None,
            brightness=brightness,
            contrast=None,
            blank=True,
        )
    strokes = _strokes(ink)
    if int(np.count_nonzero(strokes)) < _MIN_STROKE_PIXELS:
        # no letters left to read (a heavy blur or smear melts them into blobs): the marks that
        # are not long rules stand in for them
        strokes = _strokes(_without_rules(marks))
    gx = cv2.Sobel(work, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(work, cv2.CV_32F, 0, 1, ksize=3)
    blur = _edge_width(work, strokes, (gx, gy))
    if blur is None:
        # too few tiles of letters left to read: the page is blurred past finding its letters,
        # or holds hardly any; every tile with ink against paper in it then tells the edges' width
        # (a rule's or a band's edge reads sharp, so this can only err towards passing)
        blur = _edge_width(work, None, (gx, gy))
    glare, glare_box = _glare(work, ink, text_height, work_counts)
    cropped, cropped_box = _cropped(ink, work, letter_stats, work_counts)
    contrast = _contrast(work, ink)
    motion = motion_blur_of(gray)
    isotropy = _edge_isotropy(work, strokes, (gx, gy))
    regions = {k: v for k, v in (("glare", glare_box), ("cropped", cropped_box)) if v is not None}
    return CaptureMeasures(
        width=width,
        height=height,
        blur_px=None if blur is None else blur / scale,
        motion_blur_px=float(motion.length) if motion is not None else 0.0,
        edge_isotropy=isotropy,
        glare=glare,
        cropped=cropped,
        text_height_px=None if text_height is None else text_height / scale,
        brightness=brightness,
        contrast=contrast,
        regions=regions,
    )


def _blank(work: np.ndarray, brightness: float) -> bool:
    """Whether a page without letters at its own contrast is blank paper: bright, without dark
    marks, and still without letters once its contrast is stretched (smoothed first, the stretch capped, so that
    paper grain and scanner noise do not turn into letters). A washed-out or underexposed photo
    of text shows its letters when stretched, and is measured (and sent back) as too dark."""
    if brightness < _BLANK_MIN_BRIGHTNESS:
        return False  # a dark frame is a photo too dark to show anything, not a blank page
    smooth = cv2.GaussianBlur(work, (0, 0), _BLANK_SMOOTH)
    low, high = percentiles(histogram(smooth), (0.5, 99.5))
    if float(high - low) > _BLANK_MAX_SPREAD:
        return False  # dark marks on it, letters or not (a page blurred past reading is no blank)
    gain = 255.0 / max(float(high - low), _BLANK_MIN_SPREAD)
    stretched = cv2.convertScaleAbs(smooth, alpha=gain, beta=-float(low) * gain)
    return _text_height(letters_mask(ink_mask(stretched))) is None


def ink_mask(gray: np.ndarray) -> np.ndarray:
    """Text-like marks: pixels clearly darker than their neighbourhood (uint8 0/255)."""
    block = max(15, (min(gray.shape) // 40) | 1)
    return cv2.adaptiveThreshold(
        gray, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, block, _INK_DELTA
    )


def letters_mask(ink: np.ndarray) -> np.ndarray:
    """The ink's letter-sized marks only: a table's wood grain, a rule, a portrait's outline or a
    card's edge are ink too, but not text (uint8 0/255)."""
    return _letters(ink)[0]


def _letters(ink: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`letters_mask`, and its marks' connected components' stats (``CC_STAT_*`` columns,
    the background's row left out): the letters' components are the ink's that were kept, so
    the measures that read them need not label the mask again."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    if count <= 1:
        return ink, stats[1:]
    w, h, area = stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT], stats[:, cv2.CC_STAT_AREA]
    keep = (
        (h >= 3)
        & (h <= ink.shape[0] * 0.08)
        & (w <= 6 * h)
        & (h <= 4 * w)
        & (area >= 0.15 * w * h)
        & (area >= 6)
    )
    keep[0] = False
    lookup = np.where(keep, np.uint8(255), np.uint8(0))
    return lookup[labels], stats[keep]


def _tiles(values: np.ndarray) -> np.ndarray:
    h, w = (values.shape[0] // _TILE) * _TILE, (values.shape[1] // _TILE) * _TILE
    return (
        values[:h, :w]
        .reshape(h // _TILE, _TILE, w // _TILE, _TILE)
        .swapaxes(1, 2)
        .reshape(h // _TILE, w // _TILE, _TILE * _TILE)
    )


def _strokes(letters: np.ndarray) -> np.ndarray:
    """The letters' strokes with their edges (the letter marks grown by ``_STROKE_MARGIN``): where
    blur and smear are read. Ruled lines, table borders, coloured bands, pictures and blank paper
    are not letters, so they cannot read as a smear or a blur (uint8 0/255)."""
    size = 2 * _STROKE_MARGIN + 1
    return cv2.dilate(letters, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size)))


def _without_rules(marks: np.ndarray) -> np.ndarray:
    """The ink marks less the long horizontal and vertical rules among them (table borders,
    underlines, a band's edge): what is left of the text when its letters cannot be told apart."""
    length = max(25, min(marks.shape) // 12)
    across = cv2.morphologyEx(marks, cv2.MORPH_OPEN, np.ones((1, length), np.uint8))
    down = cv2.morphologyEx(marks, cv2.MORPH_OPEN, np.ones((length, 1), np.uint8))
    rules = cv2.dilate(cv2.bitwise_or(across, down), np.ones((5, 5), np.uint8))
    return cv2.bitwise_and(marks, cv2.bitwise_not(rules))


def _edge_width(
    gray: np.ndarray, strokes: np.ndarray | None, gradients: tuple[np.ndarray, np.ndarray] | None = None
) -> float | None:
    """Over the tiles holding letters' strokes (every tile when ``strokes`` is None): (ink-paper
    contrast / steepest gradient), a step edge's width; the sharper quarter's bound. Tiles of
    rules, bands, pictures or blank paper alone are left out: the page's blur is its letters'."""
    smooth = cv2.blur(gray, (3, 3))
    gx, gy = gradients if gradients is not None else _sobel(gray)
    # the Sobel kernel's weights sum to 4 each side: a quarter of its response is a grey step's
    gradient = _tiles(cv2.magnitude(gx, gy) * np.float32(0.25))
    levels = _tiles(smooth)
    contrast = levels.max(axis=2).astype(np.float32) - levels.min(axis=2)
    steepest = gradient.max(axis=2)
    text = contrast >= _TILE_MIN_CONTRAST
    if strokes is not None:
        text &= (_tiles(strokes) > 0).sum(axis=2) >= _TILE_MIN_STROKE
    if int(text.sum()) < 8:
        return None
    widths = contrast[text] / np.maximum(steepest[text], 1e-3)
    # the sharper part of the text tiles: a page's own soft parts (a portrait, a shadowed
    # corner) do not make it blurred, a blurred page has no sharp tiles left
    return float(np.percentile(widths, 25))


def _sobel(gray: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return cv2.Sobel(gray, cv2.CV_32F, 1, 0, ksize=3), cv2.Sobel(gray, cv2.CV_32F, 0, 1, ksize=3)


def _edge_isotropy(
    gray: np.ndarray, strokes: np.ndarray, gradients: tuple[np.ndarray, np.ndarray] | None = None
) -> float | None:
    """The smaller over the larger eigenvalue of the gradients' second-moment matrix over the
    letters' strokes (1: edges alike in every direction; near 0: smeared along one). Letters have
    edges in every direction; a page's rules and bands have them in one, so they are left out."""
    on_strokes = strokes > 0
    if int(on_strokes.sum()) < _ISOTROPY_MIN_PIXELS:
        return None
    gx_all, gy_all = gradients if gradients is not None else _sobel(gray)
    gx, gy = gx_all[on_strokes], gy_all[on_strokes]
    xx, yy, xy = float(np.mean(gx * gx)), float(np.mean(gy * gy)), float(np.mean(gx * gy))
    spread = np.hypot((xx - yy) / 2, xy)
    largest, smallest = (xx + yy) / 2 + spread, (xx + yy) / 2 - spread
    if largest < _ISOTROPY_MIN_ENERGY:
        return None  # flat strokes: nothing to tell
    return float(max(0.0, smallest) / largest)


def _text_height(ink: np.ndarray) -> float | None:
    """Median height of letter-sized connected marks, in working pixels."""
    _, _, stats, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    return _text_height_of(stats[1:], ink.shape[0])


def _text_height_of(stats: np.ndarray, height: int) -> float | None:
    """:func:`_text_height` from the marks' components' stats (the background's left out)."""
    if len(stats) == 0:
        return None
    w, h, area = stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT], stats[:, cv2.CC_STAT_AREA]
    limit = height * 0.1
    letters = (h >= 3) & (h <= limit) & (w <= 2.5 * h) & (area >= 0.15 * w * h) & (area >= 6)
    if int(letters.sum()) < 15:
        return None
    # weighted by area: a background pattern's many small fragments do not make the letters small
    heights, areas = h[letters], area[letters].astype(np.float64)
    order = np.argsort(heights)
    cumulative = np.cumsum(areas[order])
    return float(heights[order][np.searchsorted(cumulative, cumulative[-1] / 2)])


def _text_region(ink: np.ndarray, text_height: float | None) -> np.ndarray:
    """Where the document's text lies: the convex hull of the blocks its letters close into
    (lines a few letters apart join; a lone speck on the table does not count).

    The closing's kernel is a few letters wide, and costly at the page's size: it is applied to
    the letters' mask reduced by a whole factor until the kernel is about ``_REGION_KERNEL``
    pixels (a reduced pixel is ink when any of its pixels is), drawn back at the mask's size and
    eroded by half the reduction (what "any of its pixels" added around the marks). The blocks
    agree with a closing at full size to a few pixels along their edges (bench/page_costs.py,
    docs/capture-quality.md), at a small share of the cost."""
    size = int(max(9, 3 * (text_height or 12))) | 1
    factor = max(1, size // _REGION_KERNEL)
    height, width = ink.shape
    if factor == 1:
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
        closed = cv2.morphologyEx(ink, cv2.MORPH_CLOSE, kernel)
    else:
        small = cv2.resize(ink, (-(-width // factor), -(-height // factor)), interpolation=cv2.INTER_AREA)
        small = np.where(small > 0, np.uint8(255), np.uint8(0))
        reduced = max(3, round(size / factor)) | 1
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (reduced, reduced))
        closed = cv2.morphologyEx(small, cv2.MORPH_CLOSE, kernel)
        closed = cv2.resize(closed, (width, height), interpolation=cv2.INTER_NEAREST)
        grown = round(0.5 * (factor - 1))
        if grown > 0:
            closed = cv2.erode(closed, np.ones((2 * grown + 1, 2 * grown + 1), np.uint8))
    contours, _ = cv2.findContours(closed, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    blocks = [c for c in contours if cv2.contourArea(c) >= 4 * size * size]
    region = np.zeros_like(ink)
    if blocks:
        cv2.fillConvexPoly(region, cv2.convexHull(np.concatenate(blocks)), (255,))
    return region


def _glare(
    gray: np.ndarray, ink: np.ndarray, text_height: float | None, counts: np.ndarray | None = None
) -> tuple[float, tuple[float, float, float, float] | None]:
    """Share of the text's region under a clipped highlight with no letter left in it, and the
    highlight's box.

    A highlight is clipped white (the sensor saturated) in a blob larger than two letters, where
    no letter survives. On paper that is itself near white at full exposure (a flat scan of a
    letter) a blank margin is clipped too: there no glare is measured (conservative: such a page
    is never sent back for glare). ``counts``: ``gray``'s histogram, when the caller has it."""
    # a quarter of the frame clipped white is white paper too, its text set on shaded boxes (a
    # printed invoice's tinted panels): its white gaps are paper, not a highlight (checked first:
    # the cheapest way out)
    counts = histogram(gray) if counts is None else counts
    if float(percentiles(counts, _PAPER_PERCENTILE)[0]) >= _CLIPPED:
        return 0.0, None
    region = _text_region(ink, text_height)
    area = cv2.countNonZero(region)
    if area < 0.002 * gray.size:
        return 0.0, None
    paper_mask = cv2.bitwise_and(region, cv2.bitwise_not(ink))
    paper = histogram(gray, paper_mask)
    if not paper.sum() or float(percentiles(paper, 50)[0]) >= _WHITE_PAPER:
        return 0.0, None
    letter = int(max(5, text_height or 5))
    bright = (gray >= _CLIPPED).astype(np.uint8)
    near_ink = cv2.dilate(ink, np.ones(((letter // 2) | 1, (letter // 2) | 1), np.uint8))
    bright[near_ink > 0] = 0
    opened = cv2.morphologyEx(bright, cv2.MORPH_OPEN, np.ones(((2 * letter) | 1, (2 * letter) | 1), np.uint8))
    over_text = (opened > 0) & (region > 0)
    share = float(np.count_nonzero(over_text)) / area
    if share == 0.0:
        return 0.0, None
    return share, _box(over_text)


def _cropped(
    letters: np.ndarray,
    gray: np.ndarray,
    stats: np.ndarray | None = None,
    counts: np.ndarray | None = None,
) -> tuple[float, tuple[float, float, float, float] | None]:
    """The largest share of one side of the frame along which letters are cut by it: letter
    marks that reach the frame's edge (within ``_FRAME_TOUCH`` pixels) where the frame's edge runs
    over the paper, the span they cover along that side. Text near the edge but whole (a scan
    cropped to the paper, a receipt filling the frame) cuts nothing; rules, a table's edge and the
    paper's edge are not letters; where the frame's edge runs over the scanner's lid or a table
    (darker than the paper: the paper's edge is inside the frame there) no text is cut, whatever
    dark teeth of a torn edge look like. ``stats``: the letters' components' stats and
    ``counts``: ``gray``'s histogram, when the caller has them."""
    height, width = letters.shape
    if stats is None:
        _, _, stats, _ = cv2.connectedComponentsWithStats(letters, connectivity=8)
        stats = stats[1:]
    if len(stats) == 0:
        return 0.0, None
    x, y = stats[:, cv2.CC_STAT_LEFT], stats[:, cv2.CC_STAT_TOP]
    w, h = stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT]
    t = _FRAME_TOUCH
    touching_any = (y < t) | (y + h > height - t) | (x < t) | (x + w > width - t)
    if not touching_any.any():
        return 0.0, None
    paper = float(percentiles(histogram(gray) if counts is None else counts, 90)[0])
    depth = max(2, t + 1)
    sides = {
        "top": (y < t, x, w, gray[:depth, :].mean(axis=0), (0.0, 0.0, 1.0, 0.05)),
        "bottom": (y + h > height - t, x, w, gray[-depth:, :].mean(axis=0), (0.0, 0.95, 1.0, 1.0)),
        "left": (x < t, y, h, gray[:, :depth].mean(axis=1), (0.0, 0.0, 0.05, 1.0)),
        "right": (x + w > width - t, y, h, gray[:, -depth:].mean(axis=1), (0.95, 0.0, 1.0, 1.0)),
    }
    best, box = 0.0, None
    for touching, start, extent, edge, side_box in sides.values():
        if not touching.any():
            continue
        # the frame's edge, smoothed over a few letters: paper with letters on it, or beyond the paper
        window = int(max(9, 4 * float(np.median(extent[touching])))) | 1
        along = cv2.blur(edge.astype(np.float32).reshape(1, -1), (window, 1)).ravel()
        covered = np.zeros(edge.size, np.bool_)
        for s0, e in zip(start[touching], extent[touching], strict=True):
            # a few letters a side at most: no per-pixel loop
            if along[s0 + e // 2] >= _EDGE_ON_PAPER * paper:
                covered[s0 : s0 + e] = True
        share = float(covered.mean())
        if share > best:
            best, box = share, side_box
    return best, box


def _contrast(gray: np.ndarray, ink: np.ndarray) -> float | None:
    """Ink against paper: the grey spread over the text's region, from its 95th percentile down
    to its 5th, or lower where letters cover less than a tenth of the region (a few lines of
    large print on a wide page): the low end stays inside the ink. With no text region found
    (a blank frame), the whole page's spread."""
    region = _text_region(ink, None)
    area = cv2.countNonZero(region)
    if area < 0.002 * gray.size:
        region = np.full_like(region, 255)
        area = region.size
    inked = cv2.countNonZero(cv2.bitwise_and(ink, region)) / area
    low, high = percentiles(histogram(gray, region), (min(5.0, max(0.05, 50 * inked)), 95))
    return float(high - low)


def _box(mask: np.ndarray) -> tuple[float, float, float, float]:
    ys, xs = np.nonzero(mask)
    h, w = mask.shape
    return (float(xs.min()) / w, float(ys.min()) / h, float(xs.max() + 1) / w, float(ys.max() + 1) / h)


# --------------------------------------------------------------------------------------------
# Judging a document


# reason -> (measure, threshold attribute, "max" or "min", what is measured, unit)
_RULES: tuple[tuple[str, str, str, str, str], ...] = (
    ("blurred", "blur_px", "max_blur_px", "edge width", "px"),
    ("blurred", "motion_blur_px", "max_motion_blur_px", "motion blur", "px"),
    ("blurred", "edge_isotropy", "min_edge_isotropy", "edge isotropy (smear)", ""),
    ("glare", "glare", "max_glare", "share of the text under glare", ""),
    ("cropped", "cropped", "max_cropped", "share of a frame side the text touches", ""),
    ("low_resolution", "text_height_px", "min_text_height_px", "letter height", "px"),
    ("too_dark", "brightness", "min_brightness", "brightness", ""),
    ("too_dark", "contrast", "min_contrast", "contrast", ""),
)


def _fails(value: float | None, limit: float | None, kind: str) -> bool:
    if value is None or limit is None:
        return False
    return value > limit if kind == "max_" else value < limit


def _badness(value: float, limit: float, kind: str) -> float:
    """How far past (positive) or short of (negative) its threshold a value is, relatively."""
    return (value - limit) / max(abs(limit), 1e-6) * (1 if kind == "max_" else -1)


def assess(
    pages: Sequence[CaptureMeasures],
    thresholds: CaptureThresholds,
    numbers: Sequence[int] | None = None,
) -> CaptureAssessment:
    """One check a reason over all pages: it fails when any page fails any of its measures;
    the score is the measure (of the worst page) furthest past, or nearest to, its threshold.
    ``numbers``: the pages' numbers in the document (1, 2, ... when not given)."""
    numbers = list(numbers) if numbers is not None else list(range(1, len(pages) + 1))
    checks: list[CaptureCheck] = []
    for reason in REASONS:
        worst: tuple[float, CaptureCheck] | None = None
        for _, measure, attribute, label, unit in (r for r in _RULES if r[0] == reason):
            limit = getattr(thresholds, attribute)
            kind = attribute[:4]
            for number, page in zip(numbers, pages, strict=True):
                value = getattr(page, measure)
                if value is None or page.blank:
                    continue
                failed = _fails(value, limit, kind)
                comparison = ("above" if kind == "max_" else "below") if failed else "within"
                shown = f"{value:.3g}{unit}" + ("" if limit is None else f" ({comparison} {limit:g}{unit})")
                check = CaptureCheck(
                    name=f"capture_{reason}",
                    reason=reason,
                    passed=not failed,
                    score=float(value),
                    threshold=limit,
                    page=number,
                    detail=f"{label} {shown}" + (f" on page {number}" if len(pages) > 1 else ""),
                    region=page.regions.get(reason),
                )
                rank = _badness(value, limit, kind) if limit is not None else float("-inf")
                if worst is None or rank > worst[0]:
                    worst = (rank, check)
        if worst is None:
            checks.append(
                CaptureCheck(
                    f"capture_{reason}", reason, True, None, None, None, "not measurable on these pages"
                )
            )
        else:
            checks.append(worst[1])
    return CaptureAssessment(tuple(pages), tuple(checks))


def analyses_of(images: Sequence[bytes]) -> list[PageAnalysis]:
    """Encoded page images decoded once each, to be shared by :func:`assess_images` and
    ``media.authenticity.signals_of_images``; ValueError when one does not decode."""
    return [PageAnalysis(decode_page(data)) for data in images]


def assess_images(
    images: Sequence[bytes],
    thresholds: CaptureThresholds,
    numbers: Sequence[int] | None = None,
    analyses: Sequence[PageAnalysis] | None = None,
) -> CaptureAssessment:
    """:func:`assess` of encoded page images; ValueError when one does not decode.
    ``analyses``: the pages already decoded (:func:`analyses_of`), in the order of ``images``."""
    pages = list(analyses) if analyses is not None else analyses_of(images)
    if len(pages) != len(images):
        raise ValueError("one analysis a page image")
    return assess([measure_page(page.image, page) for page in pages], thresholds, numbers)
