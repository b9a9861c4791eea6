"""PDF pages to page images and text layers with PDFium, one page at a time.

Runs inside the sandbox child (media.pdf_sandbox) in production: it imports nothing of Django
and keeps no page after yielding it. A digital page's text layer is kept as lines with boxes
(the engine reads it instead of running OCR: exact text, no recognition errors, a fraction of the
time).
"""

from __future__ import annotations

import ctypes
import functools
import io
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import pypdfium2 as pdfium
from PIL import Image

from engines.layout import Line, text_layer_payload
from engines.types import EngineError
from media.page_scaling import scale_to


@dataclass(frozen=True)
class PreparedPage:
    number: int  # 1-based
    image: bytes  # encoded by encode_page (JPEG)
    width: int
    height: int
    text_layer: str = ""  # engines.layout text-layer JSON, "" for a page without one
    # the page is a raster image over (nearly) all of it and nothing else drawn: a scan or a photo
    # placed in a PDF (an uploaded image's pages are not PDF pages and leave it False)
    image_only: bool = False


@dataclass(frozen=True)
class RenderOptions:
    max_pages: int
    max_side: int  # pages are rendered so that their longest side is this many pixels


# Names how pages are made (resampling, encoding) where results depend on it: the evaluation's
# engine-output cache, which must not serve results read from pages made another way.
PAGE_ENCODING = "cv2resize-jpeg95-444-fitting-jpeg-kept"


def encode_page(image: Image.Image) -> bytes:
    """JPEG at quality 95 without chroma subsampling: a 1,600 x 1,200 page encodes in 8 ms and
    760 KB, where PNG (zlib level 1) took 106 ms and 2 MB (bench/preprocess.py), and the text
    edges OCR reads keep their colour resolution. Every engine decodes the same bytes, in-process
    or behind Triton (the doc_pipeline contract takes PNG or JPEG)."""
    buffer = io.BytesIO()
    image.save(buffer, format="JPEG", quality=95, subsampling=0)
    return buffer.getvalue()


def render_pages(data: bytes, options: RenderOptions) -> Iterator[PreparedPage]:
    """Yield every page of the PDF ``data``; raise EngineError with an operator code for a file
    that cannot be read (corrupt, encrypted, too many pages)."""
    try:
        pdf = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        # PDFium's "last error" can be stale from a previous document: the trailer says it is encrypted
        if b"/Encrypt" in data:
            raise EngineError("encrypted_pdf", "the PDF is password-protected") from exc
        raise EngineError("corrupt_pdf", "the PDF could not be opened (corrupt or truncated)") from exc
    try:
        if not pdfium.raw.FPDF_DocumentHasValidCrossReferenceTable(pdf.raw):
            # PDFium rebuilt the table by scanning the file: damaged, or edited by hand
            raise EngineError(
                "corrupt_pdf", "the PDF's cross-reference table is broken; export the PDF again"
            )
        if len(pdf) == 0:
            raise EngineError("corrupt_pdf", "the PDF has no pages")
        if len(pdf) > options.max_pages:
            raise EngineError(
                "too_many_pages", f"the PDF has {len(pdf)} pages; the limit is {options.max_pages}"
            )
        dictionaries = _ImageDictionaries(data)
        for index in range(len(pdf)):
            try:
                page = pdf[index]
            except pdfium.PdfiumError as exc:  # a page that cannot be loaded (a page tree too deep)
                raise EngineError("corrupt_pdf", "a page of the PDF could not be read") from exc
            try:
                width_pt, height_pt = page.get_size()
                # Render so the longest side is max_side pixels: enough for OCR of MRZ-sized text.
                scale = options.max_side / max(width_pt, height_pt, 1.0)
                target = (math.ceil(width_pt * scale), math.ceil(height_pt * scale))  # as PDFium's render
                image = _scanned_page(page, target, functools.partial(dictionaries.plain_image, index)) or (
                    page.render(scale=scale).to_pil()
                )
                text = _text_layer(page, width_pt, height_pt)
                image_only = _image_only(page, width_pt * height_pt)
            except pdfium.PdfiumError as exc:
                raise EngineError(
                    "corrupt_pdf", f"page {index + 1} of the PDF could not be rendered"
                ) from exc
            finally:
                page.close()
            yield PreparedPage(
                index + 1, encode_page(image.convert("RGB")), image.width, image.height, text, image_only
            )
    finally:
        pdf.close()


# A page is a scan when its images cover at least this share of it together (a scanner's image may stop
# short of the page by a margin) and it draws no text; forms are looked into this deep, and a
# page with more objects than this is a drawn page (a scanner places one image, or a few strips).
_IMAGE_PAGE_COVER = 0.85
_IMAGE_PAGE_DEPTH = 2
_IMAGE_PAGE_MAX_OBJECTS = 64


def _image_only(page: Any, page_area_pt: float) -> bool:
    """Whether the page is a raster image over nearly all of it (a scan, a photo placed in a
    PDF) and draws no text: the capture gate measures such pages and leaves drawn ones alone.
    Read from the page's objects' types and bounds only (no rendering, well under a millisecond
    for a scan), so a digital page is recognised without looking at its pixels."""
    raw = pdfium.raw
    covered = 0.0
    stack: list[tuple[Any, int]] = [(page.raw, 0)]  # (page or form object, depth)
    seen = 0
    while stack:
        parent, depth = stack.pop()
        is_page = depth == 0
        count = raw.FPDFPage_CountObjects(parent) if is_page else raw.FPDFFormObj_CountObjects(parent)
        seen += count
        if seen > _IMAGE_PAGE_MAX_OBJECTS:
            return False
        for index in range(count):
            obj = (
                raw.FPDFPage_GetObject(parent, index) if is_page else raw.FPDFFormObj_GetObject(parent, index)
            )
            kind = raw.FPDFPageObj_GetType(obj)
            if kind == raw.FPDF_PAGEOBJ_TEXT:
                return False
            if kind == raw.FPDF_PAGEOBJ_FORM and depth < _IMAGE_PAGE_DEPTH:
                stack.append((obj, depth + 1))
            elif kind == raw.FPDF_PAGEOBJ_IMAGE:
                left, bottom, right, top = (ctypes.c_float() for _ in range(4))
                if raw.FPDFPageObj_GetBounds(
                    obj, ctypes.byref(left), ctypes.byref(bottom), ctypes.byref(right), ctypes.byref(top)
                ):
                    covered += (right.value - left.value) * (top.value - bottom.value)
    return covered >= _IMAGE_PAGE_COVER * page_area_pt


def _scanned_page(page: Any, target: tuple[int, int], plain_image: Callable[[], bool]) -> Image.Image | None:
    """A scanner's page (one JPEG drawn upright over the whole page and nothing else) decoded
    by Pillow at reduced scale, or None: PDFium renders every other page.

    PDFium decodes an embedded JPEG at full size whatever the output size (rendering a 300 dpi
    A4 scan at 1/16 costs as much as at 1/2); libjpeg's DCT scaling skips the detail a
    1,600-pixel page loses anyway and decodes a quarter of the pixels (bench/preprocess.py).
    Taken only when that scaling applies, and only when the image's dictionary holds nothing
    that changes how it looks (a decode array, a mask, a colour space other than RGB or grey):
    otherwise the two would not draw the same page."""
    if page.get_rotation() or pdfium.raw.FPDFPage_CountObjects(page.raw) != 1:
        return None
    (image_object,) = page.get_objects(max_depth=1)
    if not isinstance(image_object, pdfium.PdfImage) or image_object.get_filters() != ["DCTDecode"]:
        return None
    width, height = image_object.get_px_size()
    if width < 2 * target[0] or height < 2 * target[1]:
        return None  # no reduced-scale decoding: PDFium is as fast
    a, b, c, d, _, _ = image_object.get_matrix().get()
    left, bottom, right, top = image_object.get_bounds()
    box_left, box_bottom, box_right, box_top = page.get_bbox()
    covers_page = (
        max(abs(left - box_left), abs(bottom - box_bottom), abs(right - box_right), abs(top - box_top)) <= 1.0
    )
    if b or c or a <= 0 or d <= 0 or not covers_page or not plain_image():
        return None
    try:
        image = Image.open(io.BytesIO(bytes(image_object.get_data(decode_simple=False))))
        if image.format != "JPEG" or image.mode not in ("RGB", "L") or image.size != (width, height):
            return None
        image.draft(image.mode, target)
        image.load()
    except Exception:
        return None
    return scale_to(image, target)


class _ImageDictionaries:
    """The image dictionaries of a PDF's pages, read with pypdf (PDFium does not expose them),
    the file parsed once and only when a page asks."""

    def __init__(self, data: bytes) -> None:
        self._data = data
        self._reader: Any = None

    def plain_image(self, index: int) -> bool:
        """Page ``index``'s only image XObject draws its pixels as they are: 8-bit DeviceRGB or
        DeviceGray, no /Decode array, no mask."""
        import pypdf

        try:
            if self._reader is None:
                self._reader = pypdf.PdfReader(io.BytesIO(self._data))
            resources = self._reader.pages[index].get("/Resources")
            xobjects = resources.get_object().get("/XObject").get_object()
            if len(xobjects) != 1:
                return False
            (image,) = (xobject.get_object() for xobject in xobjects.values())
            return bool(
                image.get("/Subtype") == "/Image"
                and image.get("/ColorSpace") in ("/DeviceRGB", "/DeviceGray")
                and image.get("/BitsPerComponent") == 8
                and not any(key in image for key in ("/Decode", "/SMask", "/Mask", "/ImageMask"))
            )
        except Exception:
            return False


def _text_layer(page: Any, width_pt: float, height_pt: float) -> str:
    """The page's text runs with their boxes as page fractions, as engines.layout JSON ("" if none).

    PDFium's text "rects" are runs of text set together on one baseline: the unit OCR calls a
    line, split where the typesetter left a gap (between a label and its value, between columns).
    Browsers and other generators that place every glyph on its own (Chromium's "Save as PDF",
    most HTML-to-PDF services) leave one rect per glyph: their runs are rebuilt from the glyphs.
    """
    if width_pt <= 0 or height_pt <= 0:
        return ""
    textpage = page.get_textpage()
    try:
        chars = _CharBoxes(textpage)
        # every rect first: run_in asks PDFium for other rects, which resets its list
        rects = [textpage.get_rect(index) for index in range(textpage.count_rects())]
        if rects and chars.share_of_single_glyphs(rects) >= _SINGLE_GLYPH_SHARE_SET_AS_GLYPHS:
            runs = _glyph_runs(textpage, chars)
        else:
            runs = [chars.run_in(textpage, rect) for rect in rects]
        lines = []
        for text, (left, bottom, right, top) in runs:
            if not text:
                continue
            bbox = (left / width_pt, 1 - top / height_pt, right / width_pt, 1 - bottom / height_pt)
            for part in text.splitlines():
                if part.strip():
                    lines.append(Line(text=part.strip(), score=1.0, bbox=_clip_box(bbox), page=1))
        return text_layer_payload(lines) if lines else ""
    finally:
        textpage.close()


# A page where this share of PDFium's rects hold one glyph or none was set glyph by glyph (measured:
# Chromium's pages 0.47 to 1.0, in part or wholly; pages set in runs by fpdf2 0.22 at most).
_SINGLE_GLYPH_SHARE_SET_AS_GLYPHS = 0.4
# Within one run, in ems of the font: glyphs sit on one baseline, may overlap by kerning and lie
# closer than a word space (about 0.25 em), and words are parted by a space character (written by
# the generator or inserted by PDFium); a label and its value, or two columns, lie further apart.
_BASELINE_EM = 0.25
_KERNING_EM = 0.3
_LETTER_GAP_EM = 0.35
_WORD_GAP_EM = 0.6


def _glyph_runs(textpage: Any, chars: _CharBoxes) -> list[tuple[str, Box]]:
    """Runs of text rebuilt from glyphs in content-stream order: a glyph continues the run before
    it when it sits on the same baseline, just to the right, within a word space of it; a line
    break or a wider gap starts a new run, as PDFium's rects would for text set in runs."""
    text = textpage.get_text_range(0, textpage.count_chars())
    runs: list[tuple[str, Box]] = []
    words: list[str] = []
    box: list[float] = []
    previous_right = previous_baseline = 0.0
    spaced = False
    x, y = ctypes.c_double(), ctypes.c_double()
    for index, char in enumerate(text[: len(chars.boxed)]):
        if not chars.boxed[index] or char.isspace():
            if char in "\r\n" and words:
                runs.append(("".join(words), (box[0], box[1], box[2], box[3])))
                words, box = [], []
            spaced = spaced or char.isspace()
            continue
        left, bottom, right, top = (float(v) for v in chars.boxes[index])
        size = max(float(chars.sizes[index]), 1.0)
        pdfium.raw.FPDFText_GetCharOrigin(textpage.raw, index, ctypes.byref(x), ctypes.byref(y))
        baseline = y.value
        if words:
            gap = left - previous_right
            widest = (_WORD_GAP_EM if spaced else _LETTER_GAP_EM) * size
            if (
                abs(baseline - previous_baseline) <= _BASELINE_EM * size
                and -_KERNING_EM * size <= gap <= widest
            ):
                words.append(" " + char if spaced else char)
                box = [min(box[0], left), min(box[1], bottom), max(box[2], right), max(box[3], top)]
                previous_right, previous_baseline, spaced = right, baseline, False
                continue
            runs.append(("".join(words), (box[0], box[1], box[2], box[3])))
        words, box = [char], [left, bottom, right, top]
        previous_right, previous_baseline, spaced = right, baseline, False
    if words:
        runs.append(("".join(words), (box[0], box[1], box[2], box[3])))
    return runs


Box = tuple[float, float, float, float]


class _CharBoxes:
    """Every character's box on a page, to tell one run of text from another it overlaps.

    A rect's text read by its bounds takes in every character inside them: where a long name
    overruns the next column ("Wagner & Schneider UG (haftungsbeschränkt)" over an invoice
    number), the two runs' letters interleave ("202Wagner & ...", "202501-396kt)"). The
    characters of one run follow each other in the content stream, left to right, so the
    characters inside a rect fall into stretches, one per run; the rect's text is the stretch
    PDFium makes that very rect of."""

    def __init__(self, textpage: Any) -> None:
        boxes = np.array(
            [textpage.get_charbox(index) for index in range(textpage.count_chars())], dtype=np.float64
        ).reshape(-1, 4)
        # characters PDFium generates (a space, a line break) have no box of their own
        self.boxed = (boxes[:, 2] > boxes[:, 0]) & (boxes[:, 3] > boxes[:, 1])
        self.boxes = boxes
        self.centre_x = (boxes[:, 0] + boxes[:, 2]) / 2
        self.centre_y = (boxes[:, 1] + boxes[:, 3]) / 2
        self.sizes = np.array(
            [pdfium.raw.FPDFText_GetFontSize(textpage.raw, index) for index in range(len(boxes))],
            dtype=np.float64,
        )

    def share_of_single_glyphs(self, rects: list[Box]) -> float:
        """The share of ``rects`` whose bounds hold the centre of one glyph or none."""
        bounds = np.array(rects, dtype=np.float64).reshape(-1, 4)
        cx, cy = self.centre_x[self.boxed], self.centre_y[self.boxed]
        inside = (
            (cx[None, :] >= bounds[:, 0:1])
            & (cx[None, :] <= bounds[:, 2:3])
            & (cy[None, :] >= bounds[:, 1:2])
            & (cy[None, :] <= bounds[:, 3:4])
        )
        return float((inside.sum(axis=1) <= 1).mean())

    def run_in(self, textpage: Any, rect: Box) -> tuple[str, Box]:
        left, bottom, right, top = rect
        bounded = textpage.get_text_bounded(left, bottom, right, top).strip()
        inside = np.flatnonzero(
            self.boxed
            & (self.centre_x >= left)
            & (self.centre_x <= right)
            & (self.centre_y >= bottom)
            & (self.centre_y <= top)
        )
        stretches = self._stretches(inside)
        if len(stretches) < 2:
            return bounded, rect
        # the stretch whose own rect this is: PDFium computes a run's rect from its characters
        distances = [_distance(_rect_of(textpage, stretch), rect) for stretch in stretches]
        best = int(np.argmin(distances))
        if distances[best] > _SAME_RECT_PT:
            return bounded, rect
        own = stretches[best]
        first, last = own[0], own[-1]
        text = textpage.get_text_range(first, last - first + 1).strip()
        boxes = self.boxes[own]
        box = (
            float(boxes[:, 0].min()),
            float(boxes[:, 1].min()),
            float(boxes[:, 2].max()),
            float(boxes[:, 3].max()),
        )
        return text, box

    def _stretches(self, inside: np.ndarray) -> list[list[int]]:
        """``inside`` cut where a character does not continue the run before it: not next in
        the stream (but for generated ones), or set back to its left, where another run starts."""
        stretches: list[list[int]] = []
        for index in inside.tolist():
            if stretches:
                previous = stretches[-1][-1]
                between = self.boxed[previous + 1 : index]
                if not between.any() and self.boxes[index, 0] >= self.boxes[previous, 0]:
                    stretches[-1].append(index)
                    continue
            stretches.append([index])
        return stretches


_SAME_RECT_PT = 1.0  # how far (points, each edge summed) a stretch's own rect may lie from a rect


def _rect_of(textpage: Any, stretch: list[int]) -> Box | None:
    """The first rect PDFium makes of a stretch of characters alone."""
    if not textpage.count_rects(stretch[0], stretch[-1] - stretch[0] + 1):
        return None
    left, bottom, right, top = textpage.get_rect(0)
    return left, bottom, right, top


def _distance(a: Box | None, b: Box) -> float:
    return math.inf if a is None else sum(abs(x - y) for x, y in zip(a, b, strict=True))


def _clip_box(bbox: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    x0, y0, x1, y1 = (round(min(1.0, max(0.0, v)), 4) for v in bbox)
    return x0, y0, x1, y1


@dataclass(frozen=True)
class PdfCatalogue:
    """What the upload checks need to know about a PDF (apps.documents.filetypes)."""

    pages: int | None  # None: PDFium could not open it (the prepare step gives the precise code)
    scripts: int = 0
    attachments: int = 0


def pdf_catalogue(data: bytes, options: Any = None) -> Iterator[PdfCatalogue]:
    """PDFium's page count and its catalogue of document scripts and attachments (names
    compressed inside object streams escape a byte scan; PDFium's catalogue does not)."""
    try:
        pdf = pdfium.PdfDocument(data)
    except pdfium.PdfiumError:
        yield PdfCatalogue(pages=None)
        return
    try:
        yield PdfCatalogue(
            pages=len(pdf),
            scripts=pdfium.raw.FPDFDoc_GetJavaScriptActionCount(pdf.raw),
            attachments=pdfium.raw.FPDFDoc_GetAttachmentCount(pdf.raw),
        )
    finally:
        pdf.close()
