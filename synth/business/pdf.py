"""PDF output: digital PDFs with a real text layer, and image-only ("scanned") PDFs.

Digital PDFs are written with fpdf2 from the same page model the raster writer draws, embedding
(subsets of) the very TTF/OTF files used for measuring, so the text layer holds exactly the
printed strings. Scanned PDFs wrap encoded page images, one per page, with no text at all: a
reader must OCR them. Both are byte-for-byte deterministic: the creation date is fixed and
fpdf2 writes nothing else that depends on the clock.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from datetime import UTC, datetime

from fpdf import FPDF

from synth.business.layout import Ellipse, Line, Page, Polygon, Rect, Text

_CREATED = datetime(2026, 1, 1, tzinfo=UTC)


def _new_pdf() -> FPDF:
    pdf = FPDF(unit="mm")
    pdf.set_creation_date(_CREATED)
    pdf.set_auto_page_break(False)
    pdf.set_margins(0, 0, 0)
    pdf.set_producer("DocIntel synth")
    return pdf


def digital_pdf(pages: Sequence[Page], title: str = "") -> bytes:
    """A PDF whose pages are drawn as vector text and shapes (selectable, extractable text)."""
    pdf = _new_pdf()
    if title:
        pdf.set_title(title)
    families: dict[str, str] = {}
    for page in pages:
        pdf.add_page(format=(page.width, page.height))
        if page.paper != (255, 255, 255):
            pdf.set_fill_color(*page.paper)
            pdf.rect(0, 0, page.width, page.height, style="F")
        for item in page.items:
            if isinstance(item, Text):
                family = families.get(item.path)
                if family is None:
                    family = f"F{len(families)}"
                    pdf.add_font(family, "", item.path)
                    families[item.path] = family
                pdf.set_font(family, size=item.size)
                pdf.set_text_color(*item.color)
                x = item.x
                if item.align != "l":
                    width = pdf.get_string_width(item.text)
                    x -= width if item.align == "r" else width / 2
                pdf.text(x, item.y, item.text)
            elif isinstance(item, Rect):
                style = ("F" if item.fill else "") + ("D" if item.stroke else "")
                if not style:
                    continue
                if item.fill:
                    pdf.set_fill_color(*item.fill)
                if item.stroke:
                    pdf.set_draw_color(*item.stroke)
                    pdf.set_line_width(item.width)
                pdf.rect(item.x0, item.y0, item.x1 - item.x0, item.y1 - item.y0, style=style)
            elif isinstance(item, Line):
                pdf.set_draw_color(*item.color)
                pdf.set_line_width(item.width)
                pdf.line(item.x0, item.y0, item.x1, item.y1)
            elif isinstance(item, Ellipse):
                style = ("F" if item.fill else "") + ("D" if item.stroke else "")
                if item.fill:
                    pdf.set_fill_color(*item.fill)
                if item.stroke:
                    pdf.set_draw_color(*item.stroke)
                    pdf.set_line_width(item.width)
                pdf.ellipse(item.x0, item.y0, item.x1 - item.x0, item.y1 - item.y0, style=style or "D")
            elif isinstance(item, Polygon):
                pdf.set_fill_color(*item.fill)
                pdf.polygon(list(item.points), style="F")
    return bytes(pdf.output())


def image_pdf(images: Sequence[tuple[bytes, int, int]], px_per_mm: float) -> bytes:
    """A PDF of page images (encoded JPEG or PNG bytes, width and height in pixels), no text.

    Each page is as large as its image at ``px_per_mm``, so the PDF's physical size is the
    scanned paper's (plus whatever scanner bed the degradation left around it).
    """
    pdf = _new_pdf()
    for data, width, height in images:
        w_mm, h_mm = width / px_per_mm, height / px_per_mm
        pdf.add_page(format=(w_mm, h_mm))
        pdf.image(io.BytesIO(data), x=0, y=0, w=w_mm, h=h_mm)
    return bytes(pdf.output())
