"""Turning an uploaded file into page images the engines read (ARCHITECTURE §1, "prepare").

PDF pages are rendered with PDFium (text layers kept for later use); images are decoded, turned
upright from their EXIF orientation, limited in size, and re-encoded as PNG so that every engine
sees the same pixels whether it runs in-process or behind Triton.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from PIL import Image, ImageOps, UnidentifiedImageError

from engines.types import EngineError


@dataclass(frozen=True)
class PreparedPage:
    number: int  # 1-based
    image_png: bytes
    width: int
    height: int
    text_layer: str = ""


@dataclass(frozen=True)
class PageLimits:
    max_pages: int = 200
    max_image_pixels: int = 89_000_000
    max_side: int = 2400


def _encode_png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", optimize=False, compress_level=3)
    return buffer.getvalue()


def _fit(image: Image.Image, max_side: int) -> Image.Image:
    image = image.convert("RGB") if image.mode not in ("RGB", "L") else image
    longest = max(image.size)
    if longest <= max_side:
        return image
    scale = max_side / longest
    return image.resize(
        (max(1, round(image.width * scale)), max(1, round(image.height * scale))), Image.Resampling.LANCZOS
    )


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
                upright = _fit(ImageOps.exif_transpose(image), limits.max_side)
                upright.load()
                pages.append(PreparedPage(index + 1, _encode_png(upright), upright.width, upright.height))
            return pages
    except Image.DecompressionBombError as exc:
        raise EngineError("image_too_large", "the image has more pixels than the limit allows") from exc
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError) as exc:
        raise EngineError(
            "unreadable_image", "the image could not be decoded (corrupt or truncated)"
        ) from exc


def _pdf_pages(data: bytes, limits: PageLimits) -> list[PreparedPage]:
    import pypdfium2 as pdfium

    try:
        pdf = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        if "password" in str(exc).lower():
            raise EngineError("encrypted_pdf", "the PDF is password-protected") from exc
        raise EngineError("corrupt_pdf", "the PDF could not be opened (corrupt or truncated)") from exc
    try:
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
            text = page.get_textpage().get_text_range()
            pages.append(
                PreparedPage(index + 1, _encode_png(image.convert("RGB")), image.width, image.height, text)
            )
        return pages
    finally:
        pdf.close()


def prepare_pages(data: bytes, mime_type: str, limits: PageLimits | None = None) -> list[PreparedPage]:
    """Split and normalise a file into page images; raises EngineError with an operator code."""
    limits = limits or PageLimits()
    if not data:
        raise EngineError("empty_file", "the file is empty")
    if mime_type == "application/pdf":
        return _pdf_pages(data, limits)
    return _image_pages(data, limits)
