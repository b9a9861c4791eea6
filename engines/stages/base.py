"""The stage interface, the document the stages pass on, and the loop that runs them."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol

import numpy as np

from engines.classify import Classification
from engines.deblur import MotionBlur
from engines.layout import PageText
from engines.mrz.reader import MrzReading
from engines.page_text import PageFrame
from engines.types import Check, EngineContext, EngineResult, Extracted


@dataclass(frozen=True)
class IdentityZone:
    """An identity document's machine-readable zone, and the text of the page it was read on."""

    reading: MrzReading
    page_text: PageText


@dataclass(frozen=True, eq=False)
class DocumentState:
    """One document as the stages pass it on. Each stage reads what the ones before it found and
    returns a copy with its own findings added (:func:`dataclasses.replace`): none changes what
    it was given. The groups below are filled in the stages' order."""

    # the request, as the caller made it
    pages: tuple[bytes, ...]
    document_type_hint: str | None = None
    text_layer: tuple[str, ...] | None = None
    # Decode: the pages' pixels, the usable text layers (None: read by OCR), the hint if a known type
    images: tuple[np.ndarray, ...] = ()
    layers: tuple[PageText | None, ...] = ()
    hint: str | None = None
    # FindMotionBlur: per page, the smear of a shaken photo, or None
    blurs: tuple[MotionBlur | None, ...] = ()
    # PageTexts: every page's text, and the reading frame of each page OCR read
    texts: tuple[PageText, ...] = ()
    frames: dict[int, PageFrame] = field(default_factory=dict)
    # IdentityZones: the MRZ, where one was found (the reading then goes straight to Assemble)
    identity: IdentityZone | None = None
    # Classify; EnlargedPageTexts holds its pages' second reading for ClassifyEnlarged
    classification: Classification | None = None
    enlarged: tuple[tuple[PageText, PageFrame], ...] | None = None
    # SettleType and Extract: the type read as, the reader's fields, the checks so far in order
    document_type: str = "other"
    document_type_confidence: float = 0.0
    extracted: Extracted | None = None
    checks: tuple[Check, ...] = ()
    # Assemble: the result (its timings are added when the reading ends)
    result: EngineResult | None = None
    # milliseconds per key of the result's timings_ms, summed over the stages that share a key
    timings_ms: Mapping[str, float] = field(default_factory=dict)

    def timed(self, key: str, ms: float) -> DocumentState:
        return replace(self, timings_ms={**self.timings_ms, key: self.timings_ms.get(key, 0.0) + ms})

    def finished(self) -> EngineResult:
        """The result, with the milliseconds each step took."""
        if self.result is None:
            raise RuntimeError("the stages ended without assembling a result")
        return replace(self.result, timings_ms={key: round(ms) for key, ms in self.timings_ms.items()})


class Stage(Protocol):
    """One step of the engine (see engines/stages/__init__.py)."""

    @property
    def name(self) -> str:
        """The stage's name, in logs and tests."""
        ...

    @property
    def timing(self) -> str | None:
        """The key of the result's ``timings_ms`` that the stage's time adds to (stages may share
        one: the enlarged second look's OCR counts as OCR); None: not timed."""
        ...

    def applies(self, state: DocumentState, ctx: EngineContext) -> bool:
        """Has the stage anything to do with this document?"""
        ...

    def run(self, state: DocumentState, ctx: EngineContext) -> DocumentState:
        """The document with the stage's findings added."""
        ...


def run_stages(stages: Sequence[Stage], state: DocumentState, ctx: EngineContext) -> DocumentState:
    """Run every stage that applies, in order, timing each."""
    for stage in stages:
        if not stage.applies(state, ctx):
            continue
        started = time.perf_counter()
        state = stage.run(state, ctx)
        if stage.timing is not None:
            state = state.timed(stage.timing, (time.perf_counter() - started) * 1000)
    return state
