"""Recognising what an upload is from its bytes, never from its name or the client's claim."""

from __future__ import annotations

import io
import threading

SUPPORTED_MIME_TYPES = ("image/jpeg", "image/png", "image/tiff", "image/webp", "application/pdf")
_PDFIUM_LOCK = threading.Lock()


def sniff_mime_type(head: bytes) -> str | None:
    """The MIME type of a supported format from its magic bytes, or None when unsupported."""
    if head.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if head.startswith((b"II*\x00", b"MM\x00*")):
        return "image/tiff"
    if head[:4] == b"RIFF" and head[8:12] == b"WEBP":
        return "image/webp"
    if b"%PDF-" in head[:1024]:
        return "application/pdf"
    return None


def count_pages(content: bytes, mime_type: str) -> int | None:
    """How many pages a PDF or multi-frame TIFF has, read cheaply at upload so that an
    over-long file is refused at once with a clear message instead of failing later in the
    pipeline. None when the count cannot be read here: the prepare step then decides (and
    fails a corrupt or encrypted file with its own error code)."""
    if mime_type == "application/pdf":
        import pypdfium2 as pdfium

        with _PDFIUM_LOCK:  # PDFium is not thread-safe; the web server runs requests in threads
            try:
                pdf = pdfium.PdfDocument(content)
            except pdfium.PdfiumError:
                return None
            try:
                return len(pdf)
            finally:
                pdf.close()
    if mime_type == "image/tiff":
        from PIL import Image

        try:
            with Image.open(io.BytesIO(content)) as image:
                return int(getattr(image, "n_frames", 1))
        except (OSError, SyntaxError, ValueError):
            return None
    return 1
