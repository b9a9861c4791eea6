"""Turning an uploaded file into page images the engines read (ARCHITECTURE §1, "prepare").

PDF pages are rendered with PDFium, and a digital page's text layer is kept as lines with boxes
(the engine reads it instead of running OCR: exact text, no recognition errors, a fraction of the
time); images are decoded, turned upright from their EXIF orientation, limited in size, and
re-encoded as PNG so that every engine sees the same pixels in-process or behind Triton.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageOps

from engines.layout import Line, text_layer_payload
from engines.types import EngineError
from workers.pdf_guard import PDFIUM_LOCK, pdf_nesting_check, pdf_streams_check


@dataclass(frozen=True)
class PreparedPage:
    number: int  # 1-based
    image_png: bytes
    width: int
    height: int
    text_layer: str = ""  # engines.layout text-layer JSON, "" for a page without one


@dataclass(frozen=True)
class PageLimits:
    max_pages: int = 200
    max_image_pixels: int = 89_000_000
    max_side: int = 2400
    # PDFium inflates content streams whole: bounds against decompression bombs (workers.pdf_guard)
    max_pdf_stream_bytes: int = 128 * 1024 * 1024
    max_pdf_decoded_bytes: int = 1024 * 1024 * 1024


def _encode_png(image: Image.Image) -> bytes:
    """Lossless, so every engine sees the same pixels; the fastest zlib level (1) because the bytes
    only travel to the engine and the encrypted store, and level 3 took twice the time of the decode."""
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=False, compress_level=1)
    return buffer.getvalue()


def _fit(image: Image.Image, max_side: int) -> Image.Image:
    image = image.convert("RGB") if image.mode not in ("RGB", "L") else image
    longest = max(image.size)
    if longest <= max_side:
        return image
    # reducing_gap: a large reduction first averages whole pixel blocks (cheap, and a filter of its
    # own), then Lanczos finishes the last factor of 3 or less.
    return image.resize(_fitted_size(image.size, max_side), Image.Resampling.LANCZOS, reducing_gap=3.0)


def _fitted_size(size: tuple[int, int], max_side: int) -> tuple[int, int]:
    scale = min(1.0, max_side / max(size))
    return max(1, round(size[0] * scale)), max(1, round(size[1] * scale))


def _image_pages(data: bytes, limits: PageLimits) -> list[PreparedPage]:
    Image.MAX_IMAGE_PIXELS = limits.max_image_pixels
    try:
        with Image.open(io.BytesIO(data)) as image:
            frames = getattr(image, "n_frames", 1)
            if frames > limits.max_pages:
                raise EngineError(
                    "too_many_pages", f"the file has {frames} pages; the limit is {limits.max_pages}"
                )
            pages = []
            for index in range(frames):
                image.seek(index)
                if image.width * image.height > limits.max_image_pixels:
                    raise EngineError("image_too_large", "the image has more pixels than the limit allows")
                if image.format == "JPEG":
                    # Decode at 1/2, 1/4 or 1/8 scale when that still covers max_side: the DCT
                    # skips the detail the page image would lose anyway (a 12-megapixel photo
                    # for a 1,600-pixel model input decodes a quarter of its pixels).
                    image.draft("RGB", _fitted_size(image.size, limits.max_side))
                upright = _fit(ImageOps.exif_transpose(image), limits.max_side)
                upright.load()
                pages.append(PreparedPage(index + 1, _encode_png(upright), upright.width, upright.height))
            return pages
    except Image.DecompressionBombError as exc:
        raise EngineError("image_too_large", "the image has more pixels than the limit allows") from exc
    except EngineError:
        raise
    except (
        Exception
    ) as exc:  # Pillow's decoders raise anything on malformed files (KeyError, struct.error, ...)
        raise EngineError(
            "unreadable_image", "the image could not be decoded (corrupt or truncated)"
        ) from exc


def _pdf_pages(data: bytes, limits: PageLimits) -> list[PreparedPage]:
    import pypdfium2 as pdfium

    pdf_nesting_check(data)
    pdf_streams_check(
        data, max_stream_bytes=limits.max_pdf_stream_bytes, max_decoded_bytes=limits.max_pdf_decoded_bytes
    )
    with PDFIUM_LOCK:
        try:
            return _render_pdf(pdfium, data, limits)
        except pdfium.PdfiumError as exc:  # a page that cannot be loaded (e.g. a page tree too deep)
            raise EngineError("corrupt_pdf", "a page of the PDF could not be read") from exc


def _render_pdf(pdfium: Any, data: bytes, limits: PageLimits) -> list[PreparedPage]:
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
        if len(pdf) > limits.max_pages:
            raise EngineError(
                "too_many_pages", f"the PDF has {len(pdf)} pages; the limit is {limits.max_pages}"
            )
        pages = []
        for index in range(len(pdf)):
            page = pdf[index]
            width_pt, height_pt = page.get_size()
            # Render so the longest side is max_side pixels: enough for OCR of MRZ-sized text.
            scale = limits.max_side / max(width_pt, height_pt, 1.0)
            image = page.render(scale=scale).to_pil()
            text = _text_layer(page, width_pt, height_pt)
            pages.append(
                PreparedPage(index + 1, _encode_png(image.convert("RGB")), image.width, image.height, text)
            )
        return pages
    finally:
        pdf.close()


def _text_layer(page: Any, width_pt: float, height_pt: float) -> str:
    """The page's text runs with their boxes as page fractions, as engines.layout JSON ("" if none).

    PDFium's text "rects" are runs of text set together on one baseline: the unit OCR calls a
    line, split where the typesetter left a gap (between a label and its value, between columns).
    """
    textpage = page.get_textpage()
    try:
        lines = []
        for index in range(textpage.count_rects()):
            left, bottom, right, top = textpage.get_rect(index)
            text = textpage.get_text_bounded(left, bottom, right, top).strip()
            if not text or width_pt <= 0 or height_pt <= 0:
                continue
            bbox = (left / width_pt, 1 - top / height_pt, right / width_pt, 1 - bottom / height_pt)
            for part in text.splitlines():
                if part.strip():
                    lines.append(Line(text=part.strip(), score=1.0, bbox=_clip_box(bbox), page=1))
        return text_layer_payload(lines) if lines else ""
    finally:
        textpage.close()


def _clip_box(bbox: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    x0, y0, x1, y1 = (round(min(1.0, max(0.0, v)), 4) for v in bbox)
    return x0, y0, x1, y1


def prepare_pages(data: bytes, mime_type: str, limits: PageLimits | None = None) -> list[PreparedPage]:
    """Split and normalise a file into page images; raises EngineError with an operator code."""
    limits = limits or PageLimits()
    if not data:
        raise EngineError("empty_file", "the file is empty")
    if mime_type == "application/pdf":
        return _pdf_pages(data, limits)
    return _image_pages(data, limits)
