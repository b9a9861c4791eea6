"""The CPU reference engine's entry point: pages in, a classified document with typed fields out.

Everyone else (the CPU Triton models, ``manage.py extract --engine local``, apps/extraction)
calls :func:`read_document`. It runs :data:`STAGES` in order, each one step of the reading with
one interface (engines/stages): the stages' order is the order of the evidence's strength and
cost, and a stage with nothing to do for a document is skipped. What each step does, and the
rules it keeps, is in the stage's own module.

Field values are personal data: nothing here logs them, and check details name fields, never
their values.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engines.stages.assemble import Assemble
from engines.stages.base import DocumentState, Stage, run_stages
from engines.stages.decode import Decode
from engines.stages.document_type import Classify, SettleType
from engines.stages.evidence import Evidence
from engines.stages.extract import Extract
from engines.stages.identity import IdentityZones
from engines.stages.page_texts import PageTexts
from engines.stages.refine import Refine
from engines.stages.second_look import (
    ClassifyEnlarged,
    Deblur,
    DeblurredLook,
    EnlargedPageTexts,
    FindMotionBlur,
)
from engines.types import EngineContext, EngineError, EngineResult

# One reading of the decoded pages, from their text to a result.
READING: tuple[Stage, ...] = (
    PageTexts(),  # the text of every page: its PDF text layer, else OCR upright and straight
    IdentityZones(),  # a passport's or ID card's MRZ: decisive when found, the reading skips to Assemble
    Classify(),  # the document type from the text
    EnlargedPageTexts(),  # nothing classified in a photo: its print read again, enlarged ...
    ClassifyEnlarged(),  # ... and that reading kept where it names a type surely
    SettleType(),  # the caller's hint, unless the text contradicts it
    Extract(),  # the type's reader; a licence's barcode decides the type whatever the words say
    Refine(),  # names and addresses read again by a second OCR; accents, spellings, cities mended
    Assemble(),  # the result, with the fields' boxes on the pages as stored
    Evidence(),  # what supports each field besides its score: zones, checks, text layer, labels
)

STAGES: tuple[Stage, ...] = (
    Decode(),  # the pages' pixels, and a digital PDF's text layer
    FindMotionBlur(),  # the photos a shaking hand smeared
    *READING,
    # a smeared photo read again with the smear undone, and the reading that reads better kept
    DeblurredLook((Deblur(), *READING)),
)


def read_document(
    pages: Sequence[bytes],
    *,
    document_type_hint: str | None = None,
    text_layer: Sequence[str] | None = None,
    context: EngineContext | None = None,
    schema: dict[str, Any] | None = None,
) -> EngineResult:
    """Read a document given as encoded PNG/JPEG pages (page 1 first).

    ``text_layer`` holds, per page, the JSON text-layer payload of a digital PDF page
    (:func:`engines.layout.text_layer_payload`) or "" for none. ``context``: the reading's date and
    settings (:meth:`EngineContext.from_environment` when not given). Raises
    EngineError("unreadable_image" | "image_too_large") for a page that cannot be decoded.
    ``schema``: a tenant's own type (``document_type_hint`` names it; engines.custom_types), read
    by the generic label reader instead of the stages above.
    """
    if schema is not None:
        return read_custom_document(
            pages,
            document_type=document_type_hint or "",
            schema=schema,
            text_layer=text_layer,
            context=context,
        )
    request = DocumentState(
        pages=tuple(pages),
        document_type_hint=document_type_hint,
        text_layer=tuple(text_layer) if text_layer is not None else None,
    )
    ctx = context if context is not None else EngineContext.from_environment()
    return run_stages(STAGES, request, ctx).finished()


def read_custom_document(
    pages: Sequence[bytes],
    *,
    document_type: str,
    schema: dict[str, Any],
    text_layer: Sequence[str] | None = None,
    context: EngineContext | None = None,
) -> EngineResult:
    """A tenant's own type: the pages' text, then each field of its schema found by its label.
    EngineError("invalid_request") for a schema outside the subset (engines.custom_types)."""
    from engines.custom_types import SchemaInvalid, check_type_name, parse_schema
    from engines.stages.custom import ReadCustom

    if check_type_name(document_type):
        raise EngineError("invalid_request", "a tenant's schema needs its type's name as document_type_hint")
    try:
        custom = parse_schema(schema)
    except SchemaInvalid as error:
        raise EngineError("invalid_request", f"schema_json: {error}") from None
    request = DocumentState(
        pages=tuple(pages), text_layer=tuple(text_layer) if text_layer is not None else None
    )
    ctx = context if context is not None else EngineContext.from_environment()
    stages: tuple[Stage, ...] = (
        Decode(),
        PageTexts(),
        ReadCustom(document_type, custom),
        Assemble(),
        Evidence(),
    )
    return run_stages(stages, request, ctx).finished()
