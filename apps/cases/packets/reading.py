"""Reading a packet's pages the way the pipeline first reads a document: each page's text layer
where it is usable, else OCR of its image; then the page classified on its own text.

This runs when the packet is uploaded, before its documents exist, so it stays cheap: no MRZ,
deblurring or second look (the pipeline does those on each document once it is cut). PDFs are
rendered in the sandbox child (``media.preprocessing``).
"""

from __future__ import annotations

from apps.cases.packets.split import PageGuess, knowledge, page_cue, page_heading
from engines.layout import PageText
from media.preprocessing import PageLimits, prepare_pages

PDF = "application/pdf"


def page_count(content: bytes) -> int:
    """The PDF's number of pages as the upload check counted it (0 when it is not a PDF)."""
    from apps.documents.filetypes import file_facts

    return file_facts(content, PDF).pages or 0


def packet_pages(content: bytes, *, max_pages: int) -> list[PageText]:
    """Each page of the PDF ``content`` as text."""
    from engines.images import decode_image
    from engines.page_text import ocr_page_text
    from engines.stages.decode import usable_text_layer

    texts = []
    for number, page in enumerate(prepare_pages(content, PDF, PageLimits(max_pages=max_pages)), start=1):
        layer = usable_text_layer(page.text_layer, number)
        if layer is None:
            layer, _ = ocr_page_text(decode_image(page.image), page=number)
        texts.append(layer)
    return texts


def page_guesses(pages: list[PageText]) -> list[PageGuess]:
    """Each page's type as :func:`engines.classify.classify_text` guesses it from that page alone,
    with its page-number cue and heading."""
    from engines.classify import classify_text

    guesses = []
    for page in pages:
        found = classify_text([page])
        guesses.append(
            PageGuess(
                page=page.page,
                document_type=found.document_type,
                confidence=float(found.confidence),
                cue=page_cue(page),
                heading=page_heading(page),
            )
        )
    return guesses


def worth_examining(content: bytes, mime_type: str) -> bool:
    return mime_type == PDF and page_count(content) >= knowledge().min_pages
