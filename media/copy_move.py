"""Copy-move: a patch of the page found again, pixel for pixel, elsewhere on the same page.

A fraudster who changes a date or a number on a photographed document often does it with the
document's own glyphs: a digit, a few characters or a word selected on the page and pasted over
another field, so that the font, size, colour and blur all match and no JPEG grid of another
image comes with it (the ``edited`` signal's cue). But two real prints of one glyph are never
identical in a capture (each has its own sensor noise, its own sub-pixel position, its own JPEG
blocks), where a pasted copy is its source again, noise and all, over the whole patch. This
module looks for that: one shift under which a connected patch of textured blocks matches
near-exactly, and that is not a pattern repeating anyway.

How (block matching, Fridrich et al. 2003, made cheap and strict):

1. The grey page is cut into 8 x 8 blocks at every pixel position; only blocks with texture in
   two directions are kept (``_MIN_RANGE``, ``_MIN_EIGEN``): flat background is identical
   everywhere, and a straight edge or rule is identical to itself moved along its length.
2. A block's descriptor is the means of its four 4 x 4 quadrants, quantised finely (``_STEP``
   grey levels): a copy re-saved as a JPEG mostly keeps it, two prints of one glyph with their
   own noise seldom share it. Blocks with the same descriptor are pairs, each with its shift;
   a descriptor found more than ``_MAX_REPEATS`` times is a pattern (background print, a
   halftone screen) and left out.
3. A copied patch moves as a whole: its pairs share one shift exactly and lie side by side. Per
   shift (the ``_TOP_SHIFTS`` most frequent, ``_MIN_SHIFT`` pixels long at least), the pairs are
   joined into clusters of neighbouring 8-pixel cells.
4. A glyph that repeats (MRZ fillers ``<<<<`` above the same fillers a line below, a dashed rule,
   guilloche) also makes large clusters. The largest clusters are checked, and one is left out
   when its two copies also match at another shift (more than ``_MAX_ECHO`` of its pairs), or
   when its patch correlates with itself shifted by a period and by twice that period (a run of
   one glyph, ``_MAX_PERIODICITY``).
5. A page with no sensor noise at all (``page_noise`` below ``_MIN_NOISE``: drawn by a computer,
   a screenshot) scores 0: there every word drawn twice is an exact copy, nothing can be told.
6. Which copy was pasted: the pasted one keeps the JPEG history of its source's place, an
   earlier 8 x 8 grid at the shift's offset (mod 8) from the page's. Each side is re-compressed
   on the grid at each offset (a "JPEG ghost", as the ``edited`` signal does for the page);
   the side clearly ghosted at its offset is the paste. When neither is (a page never saved as
   a JPEG before the edit, a shift a multiple of 8 both ways), the region is the box around
   both copies.

Score: the block pairs of the largest cluster left (about the textured pixel positions of the
copy: a few characters of 20-pixel text score 100-1,000, one character 30-350). Region: the
pasted copy's box (or both copies'), as shares of the page's width and height. The page is
measured at its own resolution (the pipeline fits pages within DOCINTEL_PAGE_MAX_SIDE first):
resampling would make the two copies differ. Costs some 30-60 ms of CPU for a 1-2.5 megapixel
photo, up to about 200 ms for a 5-megapixel scan (bench/authenticity.py, docs/capture-quality.md).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from media.page_analysis import PageAnalysis

_BLOCK = 8
_HALF = _BLOCK // 2
# A block is textured when its quadrant means span this many grey levels and its structure
# tensor's smaller eigenvalue (cv2.cornerMinEigenVal, 8-pixel window, OpenCV's units) is at
# least this (a straight edge has one strong direction only).
_MIN_RANGE = 12.0
_MIN_EIGEN = 0.002
# Quantisation of the four quadrant means, grey levels.
_STEP = 1.5
# A descriptor found more often than this on the page is a repeating pattern, left out.
_MAX_REPEATS = 4
# Textured blocks kept at most (a clean capture has 50-150 thousand; a halftone print millions).
_MAX_BLOCKS = 300_000
# Shifts shorter than this are left out (neighbouring blocks of one smooth stroke).
_MIN_SHIFT = 16
# The most frequent shifts clustered, those with at least _MIN_PAIRS pairs; of their clusters,
# the _CHECKED largest are checked for a repeating pattern, largest first.
_TOP_SHIFTS = 48
_MIN_PAIRS = 12
_CHECKED = 12
# Pairs at another shift, as a share of the cluster's, from which it is a repeating pattern.
_MAX_ECHO = 0.1
# Correlation of a cluster's patch with itself shifted from which it is a run of one glyph
# (words and numbers copied measured up to 0.62, MRZ fillers repeated 0.76-0.93).
_MAX_PERIODICITY = 0.7
# Sensor noise (grey levels, page_noise) below which a page is taken as drawn by a computer:
# there the same words drawn twice are exact copies too, and nothing can be told.
_MIN_NOISE = 0.1
# JPEG ghost of the pasted side: re-compression quality; a side is called the paste when its
# ghost (log error ratio) is at most _GHOST_MAX and below the other side's by _GHOST_GAP at least.
_GHOST_QUALITY = 85
_GHOST_MAX = -0.15
_GHOST_GAP = 0.2

Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class _Cluster:
    pairs: np.ndarray  # indices into the page's pairs
    shift: tuple[int, int]  # (dy, dx), destination - source
    size: int


@dataclass(frozen=True)
class _Pairs:
    sy: np.ndarray  # source block's top-left corner
    sx: np.ndarray
    dy: np.ndarray  # shift to the matching block: dy > 0, or dy == 0 and dx > 0
    dx: np.ndarray

    @property
    def code(self) -> np.ndarray:
        return self.dy.astype(np.int64) * 65536 + (self.dx.astype(np.int64) + 32768)


def copied_score(bgr: np.ndarray, analysis: PageAnalysis | None = None) -> tuple[float, Box | None]:
    """The pairs of the largest patch found twice on the page at one shift, and the box of the
    pasted copy (shares of the page's width, height); (0, None) when there is none.
    ``analysis``: the page's :class:`PageAnalysis` when the caller holds one (its grey page)."""
    gray = PageAnalysis.of(bgr, analysis).gray
    height, width = gray.shape
    if min(height, width) < 4 * _BLOCK:
        return 0.0, None
    pairs = _block_pairs(gray)
    cluster = _largest_copy(gray, pairs)
    if cluster is None or page_noise(gray) < _MIN_NOISE:
        return 0.0, None
    x0, y0, x1, y1 = _pasted_box(gray, pairs, cluster)
    return float(cluster.size), (x0 / width, y0 / height, x1 / width, y1 / height)


def _block_pairs(gray: np.ndarray) -> _Pairs:
    """Pairs of textured 8 x 8 blocks with the same quantised quadrant means."""
    h, w = gray.shape
    ny, nx = h - _BLOCK + 1, w - _BLOCK + 1
    # means of every 4 x 4 square, indexed by its top-left corner
    means = cv2.blur(gray.astype(np.float32), (_HALF, _HALF), anchor=(0, 0), borderType=cv2.BORDER_REPLICATE)
    quadrants = [
        means[0:ny, 0:nx],
        means[0:ny, _HALF : _HALF + nx],
        means[_HALF : _HALF + ny, 0:nx],
        means[_HALF : _HALF + ny, _HALF : _HALF + nx],
    ]
    # (OpenCV's element-wise max and min: the same values as NumPy's, a few times faster)
    spread = cv2.subtract(
        cv2.max(cv2.max(quadrants[0], quadrants[1]), cv2.max(quadrants[2], quadrants[3])),
        cv2.min(cv2.min(quadrants[0], quadrants[1]), cv2.min(quadrants[2], quadrants[3])),
    )
    eigen = cv2.cornerMinEigenVal(gray, _BLOCK, ksize=3)[_HALF : _HALF + ny, _HALF : _HALF + nx]
    ys, xs = np.nonzero((spread >= _MIN_RANGE) & (eigen >= _MIN_EIGEN))
    key = np.zeros(len(ys), np.uint64)
    for quadrant in quadrants:  # a hash of the four levels (256 / 1.5 < 1009: no two collide)
        key = key * np.uint64(1009) + (quadrant[ys, xs] / _STEP).astype(np.uint64)
    if len(key) > _MAX_BLOCKS:
        # a page textured all over (a halftone print): a share of the descriptors, chosen by
        # their value, so that a block and its copy are kept or left out together
        share = -(-len(key) // _MAX_BLOCKS)
        kept = ((key * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(40)) % np.uint64(share) == 0
        key, ys, xs = key[kept], ys[kept], xs[kept]
    order = np.argsort(key)
    key, ys, xs = key[order], ys[order], xs[order]
    # a descriptor found more than _MAX_REPEATS times is a pattern (a halftone screen, background
    # print, filler characters), no evidence of a paste: its blocks are left out
    starts = np.flatnonzero(np.concatenate([[True], key[1:] != key[:-1]]))
    runs = np.diff(np.append(starts, len(key)))
    common = np.repeat(runs > _MAX_REPEATS, runs)
    first_list, second_list = [], []
    for k in range(1, _MAX_REPEATS):
        same = np.flatnonzero((key[k:] == key[:-k]) & ~common[k:])
        first_list.append(same)
        second_list.append(same + k)
    first, second = np.concatenate(first_list), np.concatenate(second_list)
    dy, dx = ys[second] - ys[first], xs[second] - xs[first]
    # one direction per pair: the source is the upper block (the left one on one row)
    flip = (dy < 0) | ((dy == 0) & (dx < 0))
    sy, sx = np.where(flip, ys[second], ys[first]), np.where(flip, xs[second], xs[first])
    dy, dx = np.abs(dy), np.where(flip, -dx, dx)
    far = dy * dy + dx * dx >= _MIN_SHIFT**2
    return _Pairs(sy[far], sx[far], dy[far], dx[far])


def _largest_copy(gray: np.ndarray, pairs: _Pairs) -> _Cluster | None:
    """The largest cluster of pairs at one shift that is not a repeating pattern."""
    if len(pairs.sy) == 0:
        return None
    code = pairs.code
    _, inverse, counts = np.unique(code, return_inverse=True, return_counts=True)
    cells = (gray.shape[0] // _BLOCK + 2, gray.shape[1] // _BLOCK + 2)
    clusters = []
    for index in np.argsort(-counts)[:_TOP_SHIFTS]:
        if counts[index] < _MIN_PAIRS:
            break
        members = np.flatnonzero(inverse == index)
        clusters.append(_cluster_at(pairs, members, cells))
    clusters.sort(key=lambda c: -c.size)
    for cluster in clusters[:_CHECKED]:
        if (
            _echo(pairs, code, cluster, cells) <= _MAX_ECHO
            and _periodicity(gray, pairs, cluster) < _MAX_PERIODICITY
        ):
            return cluster
    return None


def _cluster_at(pairs: _Pairs, members: np.ndarray, cells: tuple[int, int]) -> _Cluster:
    """The largest group of ``members`` (pairs at one shift) whose source blocks lie in
    neighbouring 8-pixel cells (a cell apart at most: text leaves gaps between strokes)."""
    cy, cx = pairs.sy[members] // _BLOCK, pairs.sx[members] // _BLOCK
    grid = np.zeros(cells, np.uint8)
    grid[cy, cx] = 1
    count, labels = cv2.connectedComponents(cv2.dilate(grid, np.ones((3, 3), np.uint8)), connectivity=8)
    ids = labels[cy, cx]
    largest = int(np.argmax(np.bincount(ids, minlength=count)))
    chosen = members[ids == largest]
    shift = (int(pairs.dy[members[0]]), int(pairs.dx[members[0]]))
    return _Cluster(chosen, shift, len(chosen))


def _echo(pairs: _Pairs, code: np.ndarray, cluster: _Cluster, cells: tuple[int, int]) -> float:
    """The most pairs at any other shift (a pixel off the cluster's excepted) among the cells of
    the cluster's two copies, over the cluster's size: near 0 for a pasted patch, large for a
    pattern that repeats (a period's multiples, the next line's identical fillers)."""
    chosen = cluster.pairs
    grid = np.zeros(cells, np.uint8)
    grid[pairs.sy[chosen] // _BLOCK, pairs.sx[chosen] // _BLOCK] = 1
    grid[(pairs.sy[chosen] + pairs.dy[chosen]) // _BLOCK, (pairs.sx[chosen] + pairs.dx[chosen]) // _BLOCK] = 1
    inside = cv2.dilate(grid, np.ones((3, 3), np.uint8)) > 0
    touching = (
        inside[pairs.sy // _BLOCK, pairs.sx // _BLOCK]
        | inside[(pairs.sy + pairs.dy) // _BLOCK, (pairs.sx + pairs.dx) // _BLOCK]
    )
    dy, dx = cluster.shift
    near = (np.abs(pairs.dy - dy) <= 1) & (np.abs(pairs.dx - dx) <= 1)
    others = code[touching & ~near]
    if len(others) == 0:
        return 0.0
    _, counts = np.unique(others, return_counts=True)
    return float(counts.max()) / cluster.size


def _periodicity(gray: np.ndarray, pairs: _Pairs, cluster: _Cluster) -> float:
    """How much the cluster's source patch (its fine detail) is a run of one repeated glyph: the
    strongest correlation of the patch with itself shifted by some period (a block or longer, in
    any direction: a run of text may be skewed) and by twice that period (within a pixel), the
    weaker of the two. Near 1 for MRZ fillers ``<<<<`` (three glyphs or more), low for a word or a
    number (even one with a digit twice, "2029")."""
    chosen = cluster.pairs
    x0, y0 = int(pairs.sx[chosen].min()), int(pairs.sy[chosen].min())
    x1, y1 = int(pairs.sx[chosen].max()) + _BLOCK, int(pairs.sy[chosen].max()) + _BLOCK
    patch = gray[y0:y1, x0:x1].astype(np.float32)
    patch -= cv2.GaussianBlur(patch, (0, 0), 1.5)  # its strokes, not its blur or shading
    h, w = patch.shape
    correlation = _autocorrelation(patch)  # [dy, dx + w - 1] for dy in [0, h), dx in (-w, w)
    twice = cv2.dilate(correlation, np.ones((3, 3), np.uint8))  # within a pixel
    dy, dx = np.mgrid[0:h, -(w - 1) : w]
    period = (dy * dy + dx * dx >= _BLOCK * _BLOCK) & (h - 2 * dy >= _BLOCK) & (w - 2 * np.abs(dx) >= _BLOCK)
    if not period.any():
        return 0.0
    at_twice = twice[2 * dy[period], 2 * dx[period] + w - 1]
    return float(np.max(np.minimum(correlation[period], at_twice)))


def _autocorrelation(patch: np.ndarray) -> np.ndarray:
    """The normalised correlation of ``patch`` with itself shifted by (dy, dx), over the part that
    overlaps, for dy in [0, h) and dx in (-w, w) (at [dy, dx + w - 1])."""
    h, w = patch.shape
    size = (2 * h, 2 * w)

    def correlate(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        # sum over x of a(x) b(x + shift), every shift at once
        full = np.fft.irfft2(np.conj(np.fft.rfft2(a, size)) * np.fft.rfft2(b, size), size)
        return np.concatenate([full[:h, size[1] - (w - 1) :], full[:h, :w]], axis=1)

    ones = np.ones_like(patch)
    products = correlate(patch, patch)
    first = correlate(patch * patch, ones)  # energy of the patch where the shifted copy overlaps it
    second = correlate(ones, patch * patch)
    return (products / np.sqrt(np.maximum(first * second, 1e-6))).astype(np.float32)


def page_noise(gray: np.ndarray) -> float:
    """The page's sensor noise, grey levels: the median spread of its fine detail (the page less
    a blur of 1 pixel) in the flattest third of its 8 x 8 cells (clipped ones left out). Some
    0.1-2 for a phone photo or a scan once saved as a JPEG; 0 for a page drawn by a computer,
    whose flat areas are exactly flat."""
    h, w = gray.shape[0] // _BLOCK * _BLOCK, gray.shape[1] // _BLOCK * _BLOCK
    levels = gray[:h, :w].astype(np.float32)
    detail = levels - cv2.GaussianBlur(levels, (0, 0), 1.0)

    def cell_means(values: np.ndarray) -> np.ndarray:
        return cv2.resize(values, (w // _BLOCK, h // _BLOCK), interpolation=cv2.INTER_AREA)

    mean = cell_means(levels)
    spread = np.sqrt(np.maximum(cell_means(levels * levels) - mean * mean, 0))
    fine = np.sqrt(np.maximum(cell_means(detail * detail) - cell_means(detail) ** 2, 0))
    unclipped = (mean > 20) & (mean < 235)
    if not unclipped.any():
        return 0.0
    flattest = unclipped & (spread <= np.percentile(spread[unclipped], 33))
    return float(np.median(fine[flattest]))


def _pasted_box(gray: np.ndarray, pairs: _Pairs, cluster: _Cluster) -> tuple[int, int, int, int]:
    """The box (x0, y0, x1, y1, pixels) of the copy that was pasted, told by its JPEG ghost; the
    box around both copies when neither side shows one."""
    chosen = cluster.pairs
    dy, dx = cluster.shift
    x0, y0 = int(pairs.sx[chosen].min()), int(pairs.sy[chosen].min())
    x1, y1 = int(pairs.sx[chosen].max()) + _BLOCK, int(pairs.sy[chosen].max()) + _BLOCK
    source = (x0, y0, x1, y1)
    destination = (x0 + dx, y0 + dy, x1 + dx, y1 + dy)
    # the destination's content was once compressed on a grid offset by the shift; the source's
    # would show one offset by minus the shift, were it the paste
    at_destination = _ghost(gray, destination, (dy % 8, dx % 8))
    at_source = _ghost(gray, source, (-dy % 8, -dx % 8))
    if at_destination <= min(_GHOST_MAX, at_source - _GHOST_GAP):
        return destination
    if at_source <= min(_GHOST_MAX, at_destination - _GHOST_GAP):
        return source
    return (min(x0, x0 + dx), y0, max(x1, x1 + dx), y1 + dy)


def _ghost(gray: np.ndarray, box: tuple[int, int, int, int], offset: tuple[int, int]) -> float:
    """The log of the box's re-compression error on the JPEG grid at ``offset`` (rows, columns,
    mod 8, from the page's corner) over its median across the 64 offsets: below 0 where the box
    was once saved as a JPEG on that grid; about 0 when no grid stands out (0 for the page's own
    offset, which every region shares)."""
    h, w = gray.shape
    x0, y0, x1, y1 = max(box[0], 8), max(box[1], 8), min(box[2], w), min(box[3], h)
    if offset == (0, 0) or x1 - x0 < 8 or y1 - y0 < 8:
        return 0.0
    region = gray[y0:y1, x0:x1].astype(np.float32)
    errors = np.empty((8, 8), np.float64)
    for oy in range(8):
        for ox in range(8):
            # a crop of the box and a few pixels before it, its corner on the grid at (oy, ox)
            top, left = y0 - (y0 - oy) % 8, x0 - (x0 - ox) % 8
            crop = np.ascontiguousarray(gray[top:y1, left:x1])
            ok, data = cv2.imencode(".jpg", crop, [cv2.IMWRITE_JPEG_QUALITY, _GHOST_QUALITY])
            assert ok
            again = cv2.imdecode(data, cv2.IMREAD_GRAYSCALE).astype(np.float32)
            errors[oy, ox] = float(np.mean((again[y0 - top :, x0 - left :] - region) ** 2))
    return float(np.log((errors[offset] + 1e-3) / (np.median(errors) + 1e-3)))
