"""Cut a PDF's pages into several PDFs, or join PDFs and cut the joined pages again: how a packet
(one upload holding a passport scan, a bill and a statement) becomes one file per document.

PDFium opens uploaded PDFs, so this runs in the sandbox child like rendering does
(:func:`regroup_sandboxed`, ``media.pdf_sandbox``): a hostile PDF costs the child, never the
worker. Pages are copied as they are (``FPDF_ImportPages``): nothing is rendered or recompressed,
so each document keeps its text layer and its image resolution.
"""

from __future__ import annotations

import io
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import pypdfium2 as pdfium

from engines.types import EngineError
from media.pdf_sandbox import SandboxLimits, sandboxed

PageRange = tuple[int, int]  # first and last page, 1-based, inclusive


@dataclass(frozen=True)
class Regroup:
    """Join ``parts`` in order, then cut the joined pages at ``ranges`` (each within them)."""

    parts: tuple[bytes, ...]
    ranges: tuple[PageRange, ...]


def regroup(data: bytes, options: Regroup) -> Iterator[bytes]:
    """Yield one PDF per range of ``options``; the job the sandbox child runs (``data`` unused:
    the parts travel in ``options``)."""
    joined = pdfium.PdfDocument.new()
    try:
        for part in options.parts:
            try:
                source = pdfium.PdfDocument(part)
            except pdfium.PdfiumError as exc:
                raise EngineError("corrupt_pdf", "a part of the packet could not be opened") from exc
            joined.import_pages(source)
            source.close()
        total = len(joined)
        if not all(1 <= first <= last <= total for first, last in options.ranges):
            raise EngineError("invalid_ranges", f"a page range falls outside pages 1 to {total}")
        for first, last in options.ranges:
            piece = pdfium.PdfDocument.new()
            piece.import_pages(joined, pages=list(range(first - 1, last)))
            buffer = io.BytesIO()
            piece.save(buffer)
            piece.close()
            yield buffer.getvalue()
    finally:
        joined.close()


def ranges_cover(ranges: Sequence[PageRange], total: int) -> bool:
    """Whether ``ranges`` cut pages 1..``total`` in order, each page once, none empty."""
    expected = 1
    for first, last in ranges:
        if first != expected or last < first:
            return False
        expected = last + 1
    return bool(ranges) and expected == total + 1


def regroup_sandboxed(
    parts: Sequence[bytes], ranges: Sequence[PageRange], limits: SandboxLimits | None = None
) -> list[bytes]:
    """:func:`regroup` in a limited child process; ``EngineError`` for a file it cannot cut."""
    job = Regroup(parts=tuple(parts), ranges=tuple((int(a), int(b)) for a, b in ranges))
    return list(sandboxed(regroup, b"", job, limits or SandboxLimits()))
