"""Decode: the request checked, the pages' pixels, and the text layer of a digital PDF's pages."""

from __future__ import annotations

from dataclasses import replace

from engines.classify import DOCUMENT_TYPES
from engines.images import decode_image
from engines.layout import PageText, page_from_text_layer
from engines.stages.base import DocumentState
from engines.types import EngineContext, EngineError

# A text layer with fewer characters than this is a scan with a stray caption, not a digital page
# (the context's default; see EngineContext.min_text_layer_chars).
MIN_TEXT_LAYER_CHARS = EngineContext.min_text_layer_chars


class Decode:
    """Raises EngineError("unreadable_image" | "image_too_large") for a page that cannot be
    decoded, and for a document without pages; EngineError("invalid_request") for a text layer
    that is not one entry per page. A hint that names no known type is no hint."""

    name = "decode"
    timing = "decode"

    def applies(self, state: DocumentState, ctx: EngineContext) -> bool:
        return True

    def run(self, state: DocumentState, ctx: EngineContext) -> DocumentState:
        pages, text_layer = state.pages, state.text_layer
        if not pages:
            raise EngineError("unreadable_image", "The document has no pages.")
        if text_layer is not None and len(text_layer) != len(pages):
            raise EngineError("invalid_request", "text_layer must have one entry per page.")
        images = tuple(decode_image(page) for page in pages)
        layers = tuple(
            usable_text_layer(text_layer[i] if text_layer else "", i + 1, min_chars=ctx.min_text_layer_chars)
            for i in range(len(pages))
        )
        hint = state.document_type_hint if state.document_type_hint in DOCUMENT_TYPES else None
        return replace(state, images=images, layers=layers, hint=hint)


def usable_text_layer(payload: str, page: int, *, min_chars: int = MIN_TEXT_LAYER_CHARS) -> PageText | None:
    """A page's text layer (:func:`engines.layout.text_layer_payload`), or None where it has none
    worth reading: OCR reads the page instead."""
    if not payload:
        return None
    try:
        text = page_from_text_layer(payload, page=page)
    except ValueError:
        return None  # a malformed layer is no reason to fail the page: OCR reads it
    return text if sum(len(line.text) for line in text.lines) >= min_chars else None
