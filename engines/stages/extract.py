"""Extract: the fields of the document's type, read by that type's reader; a licence's PDF417
barcode is decisive whatever the words say."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import replace

import numpy as np

from engines.classify import Classification
from engines.layout import PageText
from engines.stages.base import DocumentState
from engines.types import EngineContext, Extracted

Reader = Callable[[list[PageText], list[np.ndarray]], Extracted | None]

_BARCODE_TYPE_CONFIDENCE = 0.99

# The key-value readers of the business documents, by type: (module, function of the pages' text).
BUSINESS_READERS = {
    "receipt": ("engines.business.receipt", "read_receipt"),
    "invoice": ("engines.business.invoice", "read_invoice"),
    "proof_of_address": ("engines.business.address", "read_proof_of_address"),
    "bank_statement": ("engines.business.statement", "read_bank_statement"),
}


class Extract:
    """The type's reader, where the type has one. A licence's barcode makes the type sure; where
    the words said little of what the document is, a barcode is looked for all the same (a
    licence photographed badly), and one found makes it a licence."""

    name = "extract"
    timing = "extract"

    def applies(self, state: DocumentState, ctx: EngineContext) -> bool:
        return state.identity is None and state.classification is not None

    def run(self, state: DocumentState, ctx: EngineContext) -> DocumentState:
        classification = state.classification
        if classification is None:
            return state
        document_type, type_confidence = state.document_type, state.document_type_confidence
        texts, images = list(state.texts), list(state.images)
        extracted: Extracted | None = None
        reader = reader_for(document_type)
        if reader is not None:
            extracted = reader(texts, images)
            if document_type == "driver_license" and _has_barcode(extracted):
                type_confidence = max(type_confidence, _BARCODE_TYPE_CONFIDENCE)
        if (
            extracted is None
            and document_type != "driver_license"
            and _barcode_worth_a_look(classification, len(images))
        ):
            dl_reader = reader_for("driver_license")
            extracted = dl_reader(texts, images) if dl_reader is not None else None
            if _has_barcode(extracted):
                document_type, type_confidence = "driver_license", _BARCODE_TYPE_CONFIDENCE
            else:
                extracted = None
        return replace(
            state,
            document_type=document_type,
            document_type_confidence=type_confidence,
            extracted=extracted,
            checks=(*state.checks, *(extracted.checks if extracted else ())),
        )


def reader_for(document_type: str) -> Reader | None:
    """The reader of a type, imported on first use (each pulls in its own dependencies)."""
    if document_type == "driver_license":
        from engines.licence.reader import read_driver_license

        return read_driver_license
    if document_type in BUSINESS_READERS:
        module_name, function_name = BUSINESS_READERS[document_type]
        function = getattr(importlib.import_module(module_name), function_name)
        return lambda texts, _images: function(texts)
    return None


def _has_barcode(extracted: Extracted | None) -> bool:
    """An AAMVA barcode was decoded: the document is a licence whatever its words say."""
    return extracted is not None and any(f.source == "barcode" for f in extracted.fields.values())


def _barcode_worth_a_look(classification: Classification, pages: int) -> bool:
    """A licence whose words were unreadable still has its barcode; look for one (a few hundred
    milliseconds on a photo) only where the words did not already say what the document is."""
    return pages <= 2 and (classification.document_type == "other" or classification.confidence < 0.6)
