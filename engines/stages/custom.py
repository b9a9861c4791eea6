"""ReadCustom: a tenant's own document type (engines.custom_types), read by the generic
label-proximity reader (engines.business.generic) — the type is the caller's, never classified."""

from __future__ import annotations

from dataclasses import replace

from engines.business.generic import read_generic
from engines.custom_types import CustomSchema
from engines.stages.base import DocumentState
from engines.types import Check, EngineContext


class ReadCustom:
    name = "read_custom"
    timing = "extract"

    def __init__(self, document_type: str, custom: CustomSchema) -> None:
        self.document_type = document_type
        self.custom = custom

    def applies(self, state: DocumentState, ctx: EngineContext) -> bool:
        return True

    def run(self, state: DocumentState, ctx: EngineContext) -> DocumentState:
        extracted = read_generic(list(state.texts), self.custom)
        return replace(
            state,
            document_type=self.document_type,
            document_type_confidence=1.0,  # the tenant named the type; no classifier knows it
            extracted=extracted,
            checks=(*state.checks, Check("document_type_hint", True, ""), *extracted.checks),
        )
