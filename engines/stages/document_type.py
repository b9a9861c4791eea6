"""Classify and SettleType: the document type from the pages' text, then the type the document
is read as, weighed against the caller's hint."""

from __future__ import annotations

from dataclasses import replace

from engines.classify import Classification, classify_text
from engines.stages.base import DocumentState
from engines.types import Check, EngineContext

# The most a receipt of several pages is believed to be one (see SettleType)
_MULTI_PAGE_RECEIPT_CONFIDENCE = 0.5


class Classify:
    """The type the text names (engines.classify), where no MRZ named it."""

    name = "classify"
    timing = "classify"

    def applies(self, state: DocumentState, ctx: EngineContext) -> bool:
        return state.identity is None

    def run(self, state: DocumentState, ctx: EngineContext) -> DocumentState:
        return replace(state, classification=classify_text(list(state.texts)))


class SettleType:
    """The type to read the document as: the caller's hint unless the text contradicts it. A
    till's receipt is one slip: several pages read as one are an invoice or a statement whose
    telling page went unread (a first page too smeared to read, the item table of the second read
    as a till's), so the type is in doubt."""

    name = "settle_type"
    timing = None

    def applies(self, state: DocumentState, ctx: EngineContext) -> bool:
        return state.identity is None and state.classification is not None

    def run(self, state: DocumentState, ctx: EngineContext) -> DocumentState:
        if state.classification is None:
            return state
        document_type, confidence, checks = apply_hint(
            state.classification, state.hint, min_probability=ctx.hint_min_probability
        )
        if document_type == "receipt" and len(state.images) > 1:
            confidence = min(confidence, _MULTI_PAGE_RECEIPT_CONFIDENCE)
        return replace(
            state,
            document_type=document_type,
            document_type_confidence=confidence,
            checks=(*state.checks, *checks),
        )


def apply_hint(
    classification: Classification, hint: str | None, *, min_probability: float
) -> tuple[str, float, list[Check]]:
    """The type to read the document as, its confidence, and the hint check if there was a hint:
    the hint stands unless the text gives it less than ``min_probability``."""
    if hint is None:
        return classification.document_type, classification.confidence, []
    probability = classification.probabilities.get(hint, 0.0)
    if classification.document_type == hint or probability >= min_probability:
        agrees = classification.document_type == hint
        detail = "" if agrees else f"the text suggests {classification.document_type}"
        return (
            hint,
            max(probability, 0.5 if agrees else probability),
            [Check("document_type_hint", agrees, detail)],
        )
    detail = f"the text contradicts the hint; read as {classification.document_type}"
    return (
        classification.document_type,
        classification.confidence,
        [Check("document_type_hint", False, detail)],
    )
