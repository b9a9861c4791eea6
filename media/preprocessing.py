"""Turning an uploaded file into page images the engines read (ARCHITECTURE §1, "prepare").

PDF pages are rendered with PDFium in a sandboxed child (media.pdf_render, media.pdf_sandbox),
a digital page's text layer kept as lines with boxes; images are decoded at reduced scale where
the page needs fewer pixels, turned upright from their EXIF orientation, limited in size, and
re-encoded (media.pdf_render.encode_page) so that every engine sees the same bytes in-process or
behind Triton; an upright JPEG that fits is kept as uploaded.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from PIL import Image, ImageOps

from engines.types import EngineError
from media.page_scaling import fit, fitted_size
from media.pdf_guard import PDFIUM_LOCK, pdf_nesting_check, pdf_streams_check
from media.pdf_render import PreparedPage, RenderOptions, encode_page, render_pages
from media.pdf_sandbox import SandboxLimits, render_pages_sandboxed

_EXIF_ORIENTATION = 0x0112


@dataclass(frozen=True)
class PageLimits:
    max_pages: int = 200
    max_image_pixels: int = 89_000_000
    max_side: int = 2400
    # PDFium inflates content streams whole: bounds against decompression bombs (media.pdf_guard)
    max_pdf_stream_bytes: int = 128 * 1024 * 1024
    max_pdf_decoded_bytes: int = 1024 * 1024 * 1024
    # PDFs are opened and rendered in a child process with this much address space and CPU time
    # (media.pdf_sandbox); False renders in this process (benchmarks that time the rendering)
    pdf_sandbox: bool = True
    pdf_sandbox_memory_bytes: int = 1024 * 1024 * 1024
    pdf_sandbox_cpu_seconds: int = 120


def _page_as_uploaded(image: Image.Image, frames: int, limits: PageLimits) -> bool:
    """An upright RGB or grey JPEG within the size limit is already the page the engines read:
    re-encoding it would cost more CPU than decoding it and lose a generation of quality."""
    return (
        image.format == "JPEG"
        and frames == 1
        and image.mode in ("RGB", "L")
        and max(image.size) <= limits.max_side
        and image.getexif().get(_EXIF_ORIENTATION, 1) == 1
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
                if _page_as_uploaded(image, frames, limits):
                    image.load()  # decodes it whole: a truncated or corrupt file fails here
                    return [PreparedPage(1, data, image.width, image.height)]
                if image.format == "JPEG":
                    # Decode at 1/2, 1/4 or 1/8 scale when that still covers max_side: the DCT
                    # skips the detail the page image would lose anyway (a 12-megapixel photo
                    # for a 1,600-pixel model input decodes a quarter of its pixels).
                    image.draft("RGB", fitted_size(image.size, limits.max_side))
                upright = fit(ImageOps.exif_transpose(image), limits.max_side)
                upright.load()
                pages.append(PreparedPage(index + 1, encode_page(upright), upright.width, upright.height))
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
    pdf_nesting_check(data)
    pdf_streams_check(
        data, max_stream_bytes=limits.max_pdf_stream_bytes, max_decoded_bytes=limits.max_pdf_decoded_bytes
    )
    options = RenderOptions(max_pages=limits.max_pages, max_side=limits.max_side)
    if not limits.pdf_sandbox:
        with PDFIUM_LOCK:
            return list(render_pages(data, options))
    sandbox = SandboxLimits(
        memory_bytes=limits.pdf_sandbox_memory_bytes, cpu_seconds=limits.pdf_sandbox_cpu_seconds
    )
    return list(render_pages_sandboxed(data, options, sandbox))


def prepare_pages(data: bytes, mime_type: str, limits: PageLimits | None = None) -> list[PreparedPage]:
    """Split and normalise a file into page images; raises EngineError with an operator code."""
    limits = limits or PageLimits()
    if not data:
        raise EngineError("empty_file", "the file is empty")
    if mime_type == "application/pdf":
        return _pdf_pages(data, limits)
    return _image_pages(data, limits)
