"""Recognising what an upload is from its bytes, never from its name or the client's claim.

Besides the type, the upload reads what its headers tell cheaply, so a file that can only do harm
is refused at once with a clear reason instead of being stored and failing later: the page count,
an image's declared pixel size (a 30,000 x 30,000 PNG is a few kilobytes), a PDF's active content
(JavaScript, launch actions, embedded files), and web markup hidden in an image (an image/HTML
polyglot, which a browser sniffing the bytes could run as a page).
"""

from __future__ import annotations

import io
import re
import warnings
from dataclasses import dataclass

from engines.types import EngineError
from media.pdf_render import pdf_catalogue
from media.pdf_sandbox import SandboxLimits, sandboxed

SUPPORTED_MIME_TYPES = ("image/jpeg", "image/png", "image/tiff", "image/webp", "application/pdf")

# Markup a browser would run or render as a page. Pixel data, EXIF and XMP metadata never hold it.
# (Two searches: one pattern with both alternatives is ten times slower on 50 MB of pixels.)
_MARKUP_TAG = re.compile(
    rb"<\s*(?:script|html|body|head|iframe|svg|object|embed|form|img|meta|!doctype)[\s>/]", re.IGNORECASE
)


def _has_markup(data: bytes) -> bool:
    return _MARKUP_TAG.search(data) is not None or b"javascript:" in data.lower()


# PDF names of active content: scripts, launching programs, files carried inside.
_PDF_ACTIVE = re.compile(rb"/(?:JavaScript|JS|Launch|EmbeddedFiles?|RichMedia)(?![A-Za-z0-9#])")


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


@dataclass(frozen=True)
class FileFacts:
    """What the upload could read from a file of a supported type without decoding it.

    ``pages`` and ``pixels`` are None when they cannot be read here: the prepare step then decides
    (and fails a corrupt or encrypted file with its own error code).
    """

    pages: int | None
    pixels: int | None = None  # the largest declared width x height (images)
    markup: bool = False  # web markup where a browser would find it: an image/HTML polyglot
    active_content: bool = False  # a PDF with JavaScript, launch actions or embedded files


def file_facts(content: bytes, mime_type: str) -> FileFacts:
    if mime_type == "application/pdf":
        return _pdf_facts(content)
    return _image_facts(content, mime_type)


def _image_facts(content: bytes, mime_type: str) -> FileFacts:
    from PIL import Image

    markup = _has_markup(content)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(content)) as image:  # reads the header, not the pixels
                pages = int(getattr(image, "n_frames", 1)) if mime_type == "image/tiff" else 1
                return FileFacts(pages=pages, pixels=image.width * image.height, markup=markup)
    except Image.DecompressionBombError:
        # Pillow refuses outright beyond twice its own limit, far beyond ours
        return FileFacts(pages=1, pixels=2**63 - 1, markup=markup)
    except Exception:  # Pillow's parsers raise anything on malformed headers (KeyError, ...)
        return FileFacts(pages=None, markup=markup)


def _pdf_facts(content: bytes) -> FileFacts:
    from django.conf import settings

    # Bytes before the header are tolerated by readers, but markup there is a page for a browser.
    markup = _has_markup(content[: content.find(b"%PDF-")])
    active = _PDF_ACTIVE.search(content) is not None
    # PDFium opens the file in a limited child process (media.pdf_sandbox), as the worker's
    # rendering does: a hostile cross-reference or object stream ends the child, not the web server.
    limits = SandboxLimits(memory_bytes=settings.DOCINTEL_PDF_SANDBOX_MEMORY_MB * 1024 * 1024, cpu_seconds=10)
    try:
        (catalogue,) = sandboxed(pdf_catalogue, content, None, limits)
    except EngineError:
        return FileFacts(pages=None, markup=markup, active_content=active)  # the prepare step says why
    return FileFacts(
        pages=catalogue.pages,
        markup=markup,
        active_content=active or catalogue.scripts > 0 or catalogue.attachments > 0,
    )
