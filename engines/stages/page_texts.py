"""PageTexts: the text of every page, its PDF text layer where it has a usable one, else OCR of
the page turned upright and straightened (engines.page_text)."""

from __future__ import annotations

from dataclasses import replace

from engines.page_text import ocr_page_text
from engines.stages.base import DocumentState
from engines.types import EngineContext


class PageTexts:
    name = "page_texts"
    timing = "ocr"

    def applies(self, state: DocumentState, ctx: EngineContext) -> bool:
        return True

    def run(self, state: DocumentState, ctx: EngineContext) -> DocumentState:
        read = [
            (layer, None) if layer is not None else ocr_page_text(image, page=n)
            for n, (image, layer) in enumerate(zip(state.images, state.layers, strict=True), start=1)
        ]
        return replace(
            state,
            texts=tuple(text for text, _ in read),
            frames={text.page: frame for text, frame in read if frame is not None},
        )
