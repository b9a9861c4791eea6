"""A packet PDF built from synthetic documents, as an applicant's scanner would make one: a
passport photographed onto a page, then a utility bill, then a two-page bank statement."""

from __future__ import annotations

import io

import pypdfium2 as pdfium
from PIL import Image

from synth.documents import SyntheticDocument, document_rng, generate_document

SEED = 4242


def first_of(kind: str, *, extension: str, pages: int = 1, seed: int = SEED) -> SyntheticDocument:
    """The first clean synthetic ``kind`` of the seed that comes as ``extension`` with ``pages``."""
    for index in range(200):
        document = generate_document(document_rng(seed, index), kind=kind, profile="clean")
        if document.extension != extension:
            continue
        if extension == "pdf" and len(pdfium.PdfDocument(document.image)) != pages:
            continue
        return document
    raise LookupError(f"no {pages}-page {kind} as {extension} in seed {seed}")


def image_page(image: bytes) -> bytes:
    """An image as a one-page PDF (how a scanner app files a photo)."""
    buffer = io.BytesIO()
    Image.open(io.BytesIO(image)).convert("RGB").save(buffer, "PDF", resolution=200)
    return buffer.getvalue()


def joined(parts: list[bytes]) -> bytes:
    out = pdfium.PdfDocument.new()
    for part in parts:
        out.import_pages(pdfium.PdfDocument(part))
    buffer = io.BytesIO()
    out.save(buffer)
    return buffer.getvalue()


def packet_pdf(seed: int = SEED) -> bytes:
    """Passport (page 1), utility bill (page 2), bank statement (pages 3-4)."""
    passport = first_of("passport", extension="png", seed=seed)
    bill = first_of("proof_of_address", extension="pdf", seed=seed)
    statement = first_of("bank_statement", extension="pdf", pages=2, seed=seed)
    return joined([image_page(passport.image), bill.image, statement.image])


def pdf_pages(content: bytes) -> int:
    return len(pdfium.PdfDocument(content))
