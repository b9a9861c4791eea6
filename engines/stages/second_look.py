"""The second looks: a photo read a second time where the first reading fell short, and the one
rule that decides which of two readings of the same pages to keep (:func:`reads_better`).

- Nothing classified in a photo: its print may be too small at the usual size, so it is read
  again enlarged (EnlargedPageTexts) and that reading kept where it reads better, naming a type
  surely (ClassifyEnlarged).
- A photo smeared by a shaking hand (engines.deblur, FindMotionBlur): the whole reading is done
  again on the pages with the smear undone (DeblurredLook), and the reading that reads better is
  kept. A wrong estimate of the smear then costs time, never a worse result.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol

from engines.classify import Classification, classify_text
from engines.deblur import deblurred, motion_blur_of
from engines.page_text import ocr_page_text
from engines.stages.base import DocumentState, Stage, run_stages
from engines.types import Check, EngineContext, EngineResult, FieldResult

logger = logging.getLogger(__name__)


class Reading(Protocol):
    """What :func:`reads_better` weighs of a reading (an :class:`EngineResult` is one)."""

    @property
    def document_type(self) -> str: ...

    @property
    def document_type_confidence(self) -> float: ...

    @property
    def fields(self) -> Mapping[str, FieldResult]: ...

    @property
    def checks(self) -> Sequence[Check]: ...


def reads_better(candidate: Reading, baseline: Reading, *, min_type_confidence: float = 0.0) -> bool:
    """Is ``candidate`` the better of two readings of the same pages? It must name its type at
    least ``min_type_confidence`` surely. Two readings that recognised different types are weighed
    by how sure each classification is: their fields belong to different schemas (a statement has
    more of them than an invoice), so their sums say nothing of which is right. Readings of one
    type are weighed by :func:`reading_strength`."""
    if candidate.document_type_confidence < min_type_confidence:
        return False
    if candidate.document_type != baseline.document_type and "other" not in (
        candidate.document_type,
        baseline.document_type,
    ):
        return candidate.document_type_confidence > baseline.document_type_confidence
    return reading_strength(candidate) > reading_strength(baseline)


def reading_strength(reading: Reading) -> tuple[bool, float]:
    """Which of two readings of the same pages to keep: one that recognised the document at all,
    then the one with more confidence in values no check refuted, less a point for every check
    that failed (a check digit, the totals' arithmetic, barcode against print)."""
    confidence = sum(f.confidence for f in reading.fields.values() if f.value and f.valid is not False)
    failed = sum(1 for check in reading.checks if not check.passed)
    return reading.document_type != "other", confidence - failed


@dataclass(frozen=True)
class _Classified:
    """A reading that has got as far as its type: no fields, no checks yet."""

    document_type: str
    document_type_confidence: float
    fields: Mapping[str, FieldResult] = field(default_factory=dict)
    checks: Sequence[Check] = ()


def classified(classification: Classification) -> Reading:
    return _Classified(classification.document_type, classification.confidence)


def unverified_where_readings_differ(kept: EngineResult, other: EngineResult) -> EngineResult:
    """``kept`` with every field that both readings of the same pages verified (a check digit
    passed, a second reader agreed) but as different values marked invalid: a check digit cannot
    tell M from W (22 and 32 weigh alike), so when the blurred photo reads JW38750 and its
    deblurred copy JM38750, each passing, the check verified neither, and a person decides."""
    if kept.document_type != other.document_type:
        return kept
    differing = sorted(
        name
        for name, f in kept.fields.items()
        if f.valid is True
        and f.value
        and (theirs := other.fields.get(name)) is not None
        and theirs.valid is True
        and theirs.value
        and theirs.value != f.value
    )
    if not differing:
        return kept
    fields = {name: replace(f, valid=False) if name in differing else f for name, f in kept.fields.items()}
    detail = "verified as different values by two readings: " + ", ".join(differing)
    return replace(kept, fields=fields, checks=[*kept.checks, Check("readings_agree", False, detail)])


def _photos_only(state: DocumentState, ctx: EngineContext) -> bool:
    """Photos (a text layer is exact), and few of them (see EngineContext.max_photo_pages)."""
    return all(layer is None for layer in state.layers) and len(state.layers) <= ctx.max_photo_pages


class EnlargedPageTexts:
    """A photo whose words OCR could not make out, read again enlarged (about a second and a half
    of CPU a page, spent only on the pages nothing could classify)."""

    name = "enlarged_page_texts"
    timing = "ocr"

    def applies(self, state: DocumentState, ctx: EngineContext) -> bool:
        return (
            state.identity is None
            and state.hint is None
            and state.classification is not None
            and state.classification.document_type == "other"
            and _photos_only(state, ctx)
        )

    def run(self, state: DocumentState, ctx: EngineContext) -> DocumentState:
        enlarged = tuple(
            ocr_page_text(image, page=n, enlarge_to=ctx.enlarged_page_pixels)
            for n, image in enumerate(state.images, start=1)
        )
        return replace(state, enlarged=enlarged)


class ClassifyEnlarged:
    """The enlarged reading's type, kept with its text where it reads better and names a type
    surely (EngineContext.enlarged_look_min_confidence)."""

    name = "classify_enlarged"
    timing = "classify"

    def applies(self, state: DocumentState, ctx: EngineContext) -> bool:
        return state.enlarged is not None and state.classification is not None

    def run(self, state: DocumentState, ctx: EngineContext) -> DocumentState:
        if state.enlarged is None or state.classification is None:
            return state
        second_look = classify_text([text for text, _ in state.enlarged])
        if not reads_better(
            classified(second_look),
            classified(state.classification),
            min_type_confidence=ctx.enlarged_look_min_confidence,
        ):
            return state
        return replace(
            state,
            classification=second_look,
            texts=tuple(text for text, _ in state.enlarged),
            frames={text.page: frame for text, frame in state.enlarged},
        )


class FindMotionBlur:
    """The smear of each photo a shaking hand smeared (engines.deblur), or None per page."""

    name = "find_motion_blur"
    timing = "deblur"

    def applies(self, state: DocumentState, ctx: EngineContext) -> bool:
        return True

    def run(self, state: DocumentState, ctx: EngineContext) -> DocumentState:
        photos = len(state.images) <= ctx.max_photo_pages
        blurs = tuple(
            motion_blur_of(image) if layer is None and photos else None
            for image, layer in zip(state.images, state.layers, strict=True)
        )
        return replace(state, blurs=blurs)


class Deblur:
    """The smeared pages with the smear undone (the first stage of DeblurredLook's reading)."""

    name = "deblur"
    timing = "deblur"

    def applies(self, state: DocumentState, ctx: EngineContext) -> bool:
        return any(state.blurs)

    def run(self, state: DocumentState, ctx: EngineContext) -> DocumentState:
        sharpened = tuple(
            image if blur is None else deblurred(image, blur)
            for image, blur in zip(state.images, state.blurs, strict=True)
        )
        return replace(state, images=sharpened)


class DeblurredLook:
    """A smeared photo read again by ``stages`` (Deblur, then the stages of one reading), and the
    reading that reads better kept; the time of both readings is counted. Fields both readings
    verified as different values are doubted (:func:`unverified_where_readings_differ`)."""

    name = "deblurred_look"
    timing = None

    def __init__(self, stages: Sequence[Stage]) -> None:
        self.stages = tuple(stages)

    def applies(self, state: DocumentState, ctx: EngineContext) -> bool:
        return state.result is not None and any(state.blurs)

    def run(self, state: DocumentState, ctx: EngineContext) -> DocumentState:
        first = state.result
        if first is None:
            return state
        again = run_stages(
            self.stages,
            DocumentState(
                pages=state.pages,
                document_type_hint=state.document_type_hint,
                text_layer=state.text_layer,
                images=state.images,
                layers=state.layers,
                hint=state.hint,
                blurs=state.blurs,
            ),
            ctx,
        )
        second = again.result
        if second is None:
            return state
        timings = {
            key: state.timings_ms.get(key, 0.0) + again.timings_ms.get(key, 0.0)
            for key in {**state.timings_ms, **again.timings_ms}
        }
        deblurred_reads_better = reads_better(second, first)
        kept, other = (second, first) if deblurred_reads_better else (first, second)
        kept = unverified_where_readings_differ(kept, other)
        if not deblurred_reads_better:
            return replace(state, result=kept, timings_ms=timings)
        logger.info("Motion blur undone: the deblurred pages read better")
        kept = replace(
            kept, checks=[*kept.checks, Check("motion_blur_corrected", True, "read from deblurred pages")]
        )
        return replace(again, result=kept, timings_ms=timings)
