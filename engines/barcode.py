"""Find and decode barcodes (PDF417 first: the AAMVA code on driver licences) on a page image.

zxing-cpp reads a clean scan at once; photos need help. When the plain read finds nothing, the
page is tried again, cheapest and most often useful first, in ways that each fixed a class of
failures on synthetic photos and scans:

- the barcode's region located (the page's largest patch of dense edges), rectified out of its
  perspective and enlarged, then sharpened, re-located inside itself (when it swallowed nearby
  print) and turned a few degrees: this is what reads phone photos;
- the whole page enlarged (small codes: modules under two pixels), sharpened (defocus, JPEG),
  thresholded against its local mean (glare, shadows), and turned by up to 16 degrees (skewed
  codes whose rows zxing-cpp's PDF417 detector cannot follow).

Boxes come back as fractions of the original page, whatever attempt found them. Strong motion
blur (several modules long) defeats every attempt. Payloads are decoded from the symbol's raw
bytes as Latin-1, so control characters (AAMVA's separators) survive exactly; nothing here logs
them.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import cv2
import numpy as np
import zxingcpp

from engines.layout import clip_fraction as _clip
from engines.types import BBox

_UPSCALE_BELOW = 2000  # pixels on the longest side: smaller pages are also tried enlarged
_DOWNSCALE_ABOVE = 3200  # larger ones are read reduced first (the detector slows, not improves)
_ROTATIONS = (-4.0, 4.0, -8.0, 8.0, -12.0, 12.0, -16.0, 16.0)
_REGION_ROTATIONS = (-4.0, 4.0)  # what perspective leaves of a skew inside a rectified region
_TIME_BUDGET_S = 4.0  # retries stop after this long: a page without a code must not cost more
_LOCATE_PIXELS = 1200  # the barcode locator works on the page reduced to this longest side
_MAX_REGIONS = 3
_REGION_MARGIN = 1.14  # a located region is grown by this factor before it is cut out
_CROP_WIDTH = 1400  # rectified crops are enlarged to at least this width (modules of ~5 px)


@dataclass(frozen=True)
class Barcode:
    """One decoded symbol. ``attempt`` names the preprocessing that found it (for logs)."""

    text: str
    format: str  # zxing-cpp's name: "PDF417", "QRCode", "DataMatrix", ...
    bbox: BBox  # page fractions [x0, y0, x1, y1]
    attempt: str


@dataclass(frozen=True)
class _View:
    """A preprocessed copy of the page and the homography from page pixels to its pixels."""

    name: str
    image: np.ndarray  # grayscale uint8
    to_view: np.ndarray  # 3x3


def read_barcodes(
    image: np.ndarray, *, formats: str = "PDF417", time_budget_s: float = _TIME_BUDGET_S
) -> list[Barcode]:
    """Every symbol of ``formats`` (zxing-cpp names, comma-separated, e.g. "PDF417,QRCode") that
    the first successful attempt decodes on a BGR or grayscale page; [] when none does."""
    if image.size == 0:
        return []
    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    wanted = zxingcpp.barcode_formats_from_str(formats)
    height, width = gray.shape[:2]
    started = time.perf_counter()
    for view in _views(gray):
        binarizers = [zxingcpp.Binarizer.LocalAverage]
        if view.name in ("plain", "reduced") or re.fullmatch(r"region\d", view.name):
            binarizers.append(zxingcpp.Binarizer.GlobalHistogram)  # pays off on unprocessed pixels only
        for binarizer in binarizers:
            found = [
                s for s in zxingcpp.read_barcodes(view.image, formats=wanted, binarizer=binarizer) if s.valid
            ]
            if found:
                name = view.name if binarizer == zxingcpp.Binarizer.LocalAverage else f"{view.name}+histogram"
                return [_result(symbol, view, name, width, height) for symbol in found]
        if time.perf_counter() - started > time_budget_s:
            break
    return []


def _views(gray: np.ndarray) -> Iterator[_View]:
    """The page as is, then the retries, cheapest and most often useful first."""
    height, width = gray.shape[:2]
    longest = max(height, width)
    base = _View("plain", gray, np.eye(3))
    if longest > _DOWNSCALE_ABOVE:
        base = _scaled(gray, _DOWNSCALE_ABOVE / longest, "reduced", cv2.INTER_AREA)
    yield base
    page = _View("plain", gray, np.eye(3))
    for index, quad in enumerate(_locate(gray)):
        region = _rectified(page, quad, f"region{index}")
        yield region
        yield _derived(region, "sharpened", _sharpen_strong)
        # The region may have swallowed printing next to the code: locate again inside it.
        for inner in _locate(region.image)[:1]:
            yield _rectified(region, inner, f"region{index}+refined")
        for angle in _REGION_ROTATIONS:
            yield _rotated(region, angle)
    enlarged = None
    if longest < _UPSCALE_BELOW:
        enlarged = _scaled(gray, 2.0, "enlarged", cv2.INTER_CUBIC)
        yield enlarged
    source = enlarged if enlarged is not None else base
    sharpened = _derived(source, "sharpened", _sharpen)
    yield sharpened
    yield _derived(source, "thresholded", _adaptive_threshold)
    for angle in _ROTATIONS:
        yield _rotated(sharpened, angle)


def _locate(gray: np.ndarray) -> list[np.ndarray]:
    """Quadrilaterals (page pixels, clockwise from top-left) of the largest dense-edge regions:
    a 2D barcode is the page's biggest patch of strong gradients. Perspective is kept (the quad
    is the region's hull simplified to four corners), so the crop can be rectified."""
    height, width = gray.shape[:2]
    scale = min(1.0, _LOCATE_PIXELS / max(height, width))
    small = (
        gray
        if scale == 1.0
        else cv2.resize(gray, (round(width * scale), round(height * scale)), interpolation=cv2.INTER_AREA)
    )
    gx = cv2.Scharr(small, cv2.CV_32F, 1, 0)
    gy = cv2.Scharr(small, cv2.CV_32F, 0, 1)
    k = max(3, round(max(small.shape[:2]) / 150))
    energy = cv2.blur(cv2.magnitude(gx, gy), (k, k))
    energy = _stretch(energy)
    _, mask = cv2.threshold(energy, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    mask = cv2.morphologyEx(
        mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_RECT, (2 * k + 1, 2 * k + 1))
    )
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_RECT, (3 * k, 3 * k)))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    quads = []
    for contour in sorted(contours, key=cv2.contourArea, reverse=True)[:_MAX_REGIONS]:
        area = cv2.contourArea(contour)
        if area < 0.01 * small.size:
            break
        (_, _), (w, h), _ = cv2.minAreaRect(contour)
        if area / max(w * h, 1.0) < 0.6:  # ragged: text or a photo, not a barcode
            continue
        quads.append(_order(_four_corners(contour)) / scale)
    return quads


def _four_corners(contour: np.ndarray) -> np.ndarray:
    hull = cv2.convexHull(contour.astype(np.float32))
    perimeter = cv2.arcLength(hull, True)
    for epsilon in (0.02, 0.04, 0.06, 0.1):
        approx = cv2.approxPolyDP(hull, epsilon * perimeter, True)
        if len(approx) == 4:
            return approx.reshape(4, 2).astype(np.float32)
    return cv2.boxPoints(cv2.minAreaRect(contour.astype(np.float32))).astype(np.float32)


def _order(quad: np.ndarray) -> np.ndarray:
    """Top-left, top-right, bottom-right, bottom-left."""
    sums = quad.sum(axis=1)
    diffs = np.diff(quad, axis=1).ravel()
    return np.array(
        [quad[np.argmin(sums)], quad[np.argmin(diffs)], quad[np.argmax(sums)], quad[np.argmax(diffs)]],
        dtype=np.float32,
    )


def _rectified(source: _View, quad: np.ndarray, name: str) -> _View:
    """The region of ``source`` inside ``quad``, grown by a margin, warped to an upright
    rectangle and enlarged."""
    centre = quad.mean(axis=0)
    grown = centre + (quad - centre) * _REGION_MARGIN
    width = float(max(np.linalg.norm(grown[1] - grown[0]), np.linalg.norm(grown[2] - grown[3])))
    height = float(max(np.linalg.norm(grown[3] - grown[0]), np.linalg.norm(grown[2] - grown[1])))
    factor = max(1.0, _CROP_WIDTH / max(width, height, 1.0))
    out_w, out_h = max(8, round(width * factor)), max(8, round(height * factor))
    target = np.array([[0, 0], [out_w, 0], [out_w, out_h], [0, out_h]], dtype=np.float32)
    matrix = cv2.getPerspectiveTransform(grown.astype(np.float32), target)
    warped = cv2.warpPerspective(
        source.image, matrix, (out_w, out_h), flags=cv2.INTER_CUBIC, borderValue=(255,)
    )
    return _View(name, warped, matrix @ source.to_view)


def _scaled(gray: np.ndarray, factor: float, name: str, interpolation: int) -> _View:
    height, width = gray.shape[:2]
    size = (max(1, round(width * factor)), max(1, round(height * factor)))
    matrix = np.diag([size[0] / width, size[1] / height, 1.0])
    return _View(name, cv2.resize(gray, size, interpolation=interpolation), matrix)


def _derived(view: _View, name: str, step: Callable[[np.ndarray], np.ndarray]) -> _View:
    prefix = "" if view.name == "plain" else f"{view.name}+"
    return _View(prefix + name, step(view.image), view.to_view)


def _sharpen(gray: np.ndarray) -> np.ndarray:
    """Unsharp mask with a radius of a couple of modules, then a contrast stretch."""
    blurred = cv2.GaussianBlur(gray, (0, 0), 2.0)
    return _stretch(cv2.addWeighted(gray, 1.8, blurred, -0.8, 0))


def _stretch(image: np.ndarray) -> np.ndarray:
    """Linearly map the image's range onto 0..255 (uint8)."""
    low, high = float(image.min()), float(image.max())
    scale = 255.0 / (high - low) if high > low else 1.0
    return cv2.convertScaleAbs(image, alpha=scale, beta=-low * scale)


def _sharpen_strong(gray: np.ndarray) -> np.ndarray:
    """A stronger, wider unsharp mask for enlarged, blurred crops."""
    blurred = cv2.GaussianBlur(gray, (0, 0), 3.0)
    return cv2.addWeighted(gray, 2.5, blurred, -1.5, 0)


def _adaptive_threshold(gray: np.ndarray) -> np.ndarray:
    """Binarise against the local mean (glare and shadows defeat one global threshold)."""
    smoothed = cv2.GaussianBlur(gray, (3, 3), 0)
    block = max(15, (min(gray.shape[:2]) // 40) | 1)
    return cv2.adaptiveThreshold(smoothed, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY, block, 10)


def _rotated(view: _View, degrees: float) -> _View:
    height, width = view.image.shape[:2]
    matrix = np.vstack([cv2.getRotationMatrix2D((width / 2, height / 2), degrees, 1.0), [0.0, 0.0, 1.0]])
    rotated = cv2.warpAffine(
        view.image, matrix[:2], (width, height), flags=cv2.INTER_LINEAR, borderValue=(255,)
    )
    return _View(f"{view.name}+rotated{degrees:+.0f}", rotated, matrix @ view.to_view)


def _result(symbol: zxingcpp.Barcode, view: _View, attempt: str, width: int, height: int) -> Barcode:
    position = symbol.position
    corners = np.array(
        [
            [position.top_left.x, position.top_left.y],
            [position.top_right.x, position.top_right.y],
            [position.bottom_right.x, position.bottom_right.y],
            [position.bottom_left.x, position.bottom_left.y],
        ],
        dtype=np.float64,
    ).reshape(-1, 1, 2)
    page = cv2.perspectiveTransform(corners, np.linalg.inv(view.to_view)).reshape(-1, 2)
    x0, y0 = page.min(axis=0)
    x1, y1 = page.max(axis=0)
    bbox = (_clip(x0 / width), _clip(y0 / height), _clip(x1 / width), _clip(y1 / height))
    return Barcode(text=symbol.bytes.decode("latin-1"), format=symbol.format.name, bbox=bbox, attempt=attempt)
