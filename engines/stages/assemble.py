"""Assemble: the result of one reading, from its MRZ or from its type's reader, with the fields'
boxes on the pages as stored."""

from __future__ import annotations

import logging
from dataclasses import replace

from engines.page_text import PageFrame
from engines.stages.base import DocumentState
from engines.stages.identity import identity_result, identity_timings
from engines.types import EngineContext, EngineResult, FieldResult

logger = logging.getLogger(__name__)


class Assemble:
    name = "assemble"
    timing = None

    def applies(self, state: DocumentState, ctx: EngineContext) -> bool:
        return True

    def run(self, state: DocumentState, ctx: EngineContext) -> DocumentState:
        pages = len(state.images)
        if state.identity is not None:
            reading, page_text = state.identity.reading, state.identity.page_text
            result = identity_result(reading, page_text, pages=pages, hint=state.hint, ctx=ctx)
            return replace(state, result=result, timings_ms=identity_timings(state.timings_ms, reading))
        extracted = state.extracted
        logger.info(
            "Classified %d page(s) as %s (%.2f); %d field(s)",
            pages,
            state.document_type,
            state.document_type_confidence,
            len(extracted.fields) if extracted else 0,
        )
        result = EngineResult(
            document_type=state.document_type,
            document_type_confidence=state.document_type_confidence,
            pages=pages,
            fields=on_stored_pages(extracted.fields, state.frames) if extracted else {},
            checks=list(state.checks),
            engine_name=ctx.engine_name,
            engine_version=ctx.engine_version,
        )
        return replace(state, result=result)


def on_stored_pages(fields: dict[str, FieldResult], frames: dict[int, PageFrame]) -> dict[str, FieldResult]:
    """Field boxes found in pages' reading frames (turned upright, straightened), mapped back onto
    the pages as stored, where a reviewer sees them."""
    return {
        name: replace(f, bbox=frames[f.page].to_stored(f.bbox))
        if f.bbox is not None and f.page in frames
        else f
        for name, f in fields.items()
    }
