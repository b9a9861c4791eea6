"""From composed pages to a file: an image, a digital PDF, or a PDF of page images.

Uploads of business documents come in every form: phone photos of receipts, scanned invoices,
statements downloaded as PDFs, statements scanned back into PDFs. Each type draws its form
with its own weights (``RENDITIONS``); a profile given on the command line narrows the draw to
the forms that match it ("clean": digital PDFs and pristine images; "scan": scanned images and
scanned PDFs; "photo": phone photos). A multi-page document is never a lone image: its pages
become a PDF.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from synth import degrade
from synth.business import pdf
from synth.business.common import pick_weighted
from synth.business.layout import Page
from synth.business.raster import rasterize

# (format, profile) -> weight, per document type.
# format: "image" (JPEG/PNG), "pdf-digital" (text layer), "pdf-image" (page images, no text).
RENDITIONS: dict[str, tuple[tuple[tuple[str, str], float], ...]] = {
    "receipt": (
        (("image", "photo"), 0.5),
        (("image", "scan"), 0.14),
        (("image", "clean"), 0.1),
        (("pdf-digital", "clean"), 0.18),
        (("pdf-image", "scan"), 0.08),
    ),
    "invoice": (
        (("pdf-digital", "clean"), 0.4),
        (("image", "scan"), 0.14),
        (("pdf-image", "scan"), 0.16),
        (("image", "photo"), 0.14),
        (("image", "clean"), 0.1),
        (("pdf-image", "photo"), 0.06),
    ),
    "proof_of_address": (
        (("pdf-digital", "clean"), 0.28),
        (("image", "scan"), 0.2),
        (("pdf-image", "scan"), 0.15),
        (("image", "photo"), 0.27),
        (("image", "clean"), 0.1),
    ),
    "bank_statement": (
        (("pdf-digital", "clean"), 0.55),
        (("pdf-image", "scan"), 0.25),
        (("image", "scan"), 0.06),
        (("image", "photo"), 0.06),
        (("image", "clean"), 0.08),
    ),
    "other": (
        (("pdf-digital", "clean"), 0.3),
        (("image", "scan"), 0.22),
        (("image", "photo"), 0.25),
        (("image", "clean"), 0.13),
        (("pdf-image", "scan"), 0.1),
    ),
}


@dataclass
class Composition:
    """A composed document: its pages, its truth, and how it was made."""

    document_type: str
    pages: list[Page]
    fields: dict[str, str]
    printed: dict[str, str]  # field -> the exact string printed for it (for checks and debugging)
    layout: str
    meta: dict[str, Any] = field(default_factory=dict)
    px_per_mm: tuple[float, float] = (7.0, 8.5)  # raster resolution range


@dataclass(frozen=True)
class Rendered:
    data: bytes
    extension: str  # "jpg", "png" or "pdf"
    format: str  # "image", "pdf-digital" or "pdf-image"
    profile: str  # "clean", "scan" or "photo"
    meta: dict[str, Any]


def choose_rendition(rng: np.random.Generator, document_type: str, profile: str) -> tuple[str, str]:
    """(format, profile) for a document of ``document_type`` under the requested ``profile``."""
    options = RENDITIONS[document_type]
    if profile != "mixed":
        options = tuple(o for o in options if o[0][1] == profile) or ((("image", profile), 1.0),)
    return pick_weighted(rng, options)


def _encode(image: np.ndarray, extension: str, quality: int | None) -> bytes:
    from synth.documents import encode  # late: synth.documents imports this package

    return encode(image, extension, quality)


def render(
    composition: Composition, rng: np.random.Generator, fmt: str, profile: str, severity: float
) -> Rendered:
    """Write ``composition`` as ``fmt`` with ``profile``'s degradations."""
    pages = composition.pages
    if fmt == "pdf-digital":
        data = pdf.digital_pdf(pages)
        return Rendered(data, "pdf", fmt, "clean", {"pages": len(pages)})
    if fmt == "image" and len(pages) > 1:
        fmt = "pdf-image"
    px_per_mm = float(rng.uniform(*composition.px_per_mm))
    if fmt == "image":
        rendered = rasterize(pages[0], px_per_mm, rng, composition.layout)
        degraded = degrade.degrade(rendered, rng, profile, severity)
        data = _encode(degraded.image, degraded.extension, degraded.jpeg_quality)
        meta = {
            "pages": 1,
            "px_per_mm": round(px_per_mm, 2),
            "degradations": list(degraded.steps),
            "width": int(degraded.image.shape[1]),
            "height": int(degraded.image.shape[0]),
        }
        return Rendered(data, degraded.extension, fmt, profile, meta)
    images: list[tuple[bytes, int, int]] = []
    steps: list[list[str]] = []
    for page in pages:
        rendered = rasterize(page, px_per_mm, rng, composition.layout)
        degraded = degrade.degrade(rendered, rng, profile, severity)
        quality = degraded.jpeg_quality or int(rng.integers(80, 93))
        height, width = degraded.image.shape[:2]
        images.append((_encode(degraded.image, "jpg", quality), width, height))
        steps.append(list(degraded.steps))
    # Photos are smaller than the page at px_per_mm; size their PDF pages like an A4-ish sheet.
    scale = px_per_mm if profile != "photo" else max(images[0][1], images[0][2]) / 297.0
    data = pdf.image_pdf(images, scale)
    return Rendered(
        data,
        "pdf",
        "pdf-image",
        profile,
        {"pages": len(pages), "px_per_mm": round(px_per_mm, 2), "degradations": steps},
    )
