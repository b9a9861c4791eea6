"""The engine as a list of stages with one interface (engines/pipeline.py, engines/stages): their
order, the loop that skips a stage with nothing to do, the frozen context every stage is given,
the one rule both second looks keep a reading by, and the timings the result reports."""

from __future__ import annotations

import dataclasses
import datetime as dt
import io

import pytest
from mrz_pages import mrz_font, render_page
from PIL import Image

from engines.classify import Classification
from engines.layout import Line, text_layer_payload
from engines.pipeline import READING, STAGES, read_document
from engines.stages import DocumentState, run_stages
from engines.stages.second_look import DeblurredLook, classified, reads_better
from engines.types import EngineContext, EngineResult

TD3 = ("P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO7408122F1204159ZE184226B<<<<<10")
RECEIPT = [
    "GREENFIELD MARKET", "12 High Street, Leeds", "Date: 14/03/2024 Time: 10:42",
    "Milk 2L 1.25", "Bread 1.10", "SUBTOTAL 2.35", "VAT 0.00", "TOTAL 2.35",
    "CASH 5.00", "CHANGE 2.65", "Thank you for shopping with us",
]  # fmt: skip
A_DAY = dt.date(2031, 2, 3)


def _blank_png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (400, 600), (255, 255, 255)).save(out, format="PNG")
    return out.getvalue()


def _receipt_layer() -> str:
    return text_layer_payload(
        [Line(t, 1.0, (0.1, 0.05 + 0.05 * i, 0.6, 0.08 + 0.05 * i), 1) for i, t in enumerate(RECEIPT)]
    )


class _Recording:
    """A stage that notes that it ran, and the date its context gave it."""

    timing = "recorded"

    def __init__(self, name: str, *, applies: bool = True) -> None:
        self.name, self._applies = name, applies
        self.seen: list[dt.date] = []

    def applies(self, state: DocumentState, ctx: EngineContext) -> bool:
        return self._applies

    def run(self, state: DocumentState, ctx: EngineContext) -> DocumentState:
        self.seen.append(ctx.today)
        return dataclasses.replace(state, document_type=self.name)


def test_the_stage_list_reads_as_the_engine_works() -> None:
    assert [stage.name for stage in STAGES] == [
        "decode",
        "find_motion_blur",
        "page_texts",
        "identity_zones",
        "classify",
        "enlarged_page_texts",
        "classify_enlarged",
        "settle_type",
        "extract",
        "refine",
        "assemble",
        "evidence",
        "deblurred_look",
    ]
    deblurred_look = STAGES[-1]
    assert isinstance(deblurred_look, DeblurredLook)
    # the second look at a smeared photo: the smear undone, then the same reading again
    assert [stage.name for stage in deblurred_look.stages] == ["deblur", *(stage.name for stage in READING)]


def test_a_stage_that_does_not_apply_is_skipped_and_not_timed() -> None:
    first, skipped, last = _Recording("first"), _Recording("skipped", applies=False), _Recording("last")

    state = run_stages([first, skipped, last], DocumentState(pages=(b"",)), EngineContext(today=A_DAY))

    assert (len(first.seen), len(skipped.seen), len(last.seen)) == (1, 0, 1)
    assert state.document_type == "last"  # each stage got the state the one before it returned
    assert set(state.timings_ms) == {"recorded"}  # the two that ran share one key


def test_the_context_is_frozen_and_every_stage_is_given_its_date_not_the_clocks() -> None:
    ctx = EngineContext.from_environment(today=A_DAY)
    with pytest.raises(dataclasses.FrozenInstanceError):
        ctx.today = dt.date.today()  # type: ignore[misc]
    assert EngineContext.from_environment().today == dt.date.today()

    stages = [_Recording("one"), _Recording("two")]
    run_stages(stages, DocumentState(pages=(b"",)), ctx)

    assert [stage.seen for stage in stages] == [[A_DAY], [A_DAY]]


def test_the_context_settles_the_engine_named_and_whether_names_are_read_twice(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """GIVEN a receipt given with its text layer, and a context naming another engine version and
    turning the second reading off THEN the result carries that version, and no second OCR ran."""

    def no_second_reading(*args: object) -> None:
        raise AssertionError("the second reading ran though the context turned it off")

    monkeypatch.setattr("engines.stages.refine.confirm_fields", no_second_reading)
    ctx = EngineContext(today=A_DAY, engine_version="9.9.9-test", second_reading=False)

    result = read_document([_blank_png()], text_layer=[_receipt_layer()], context=ctx)

    assert (result.document_type, result.engine_version) == ("receipt", "9.9.9-test")
    assert "second_reading" in result.timings_ms  # the rest of the refining still ran


def test_a_digital_page_reports_the_timings_of_the_steps_it_went_through() -> None:
    result = read_document([_blank_png()], text_layer=[_receipt_layer()])
    assert set(result.timings_ms) == {"decode", "deblur", "ocr", "classify", "extract", "second_reading"}
    assert all(isinstance(ms, int) and ms >= 0 for ms in result.timings_ms.values())


@pytest.mark.skipif(mrz_font() is None, reason="no monospaced font installed to draw an MRZ")
def test_an_mrz_page_reports_the_mrz_readers_split_instead_of_its_search() -> None:
    result = read_document([render_page(TD3)], context=EngineContext(today=A_DAY))
    assert result.document_type == "passport"
    assert set(result.timings_ms) == {"decode", "deblur", "ocr", "parse"}


def _reading(document_type: str, confidence: float) -> EngineResult:
    return EngineResult(document_type=document_type, document_type_confidence=confidence, pages=1, fields={})


def test_both_second_looks_keep_a_reading_by_one_rule() -> None:
    """The enlarged look keeps its classification where the rule says it reads better and names
    a type surely; the deblurred look asks the same rule of two whole readings."""

    def enlarged_kept(document_type: str, confidence: float) -> bool:
        look = Classification(document_type, confidence, {document_type: confidence})
        nothing = Classification("other", 0.4, {"other": 0.4})
        return reads_better(classified(look), classified(nothing), min_type_confidence=0.6)

    assert enlarged_kept("proof_of_address", 0.7)
    assert not enlarged_kept("proof_of_address", 0.5)  # a type named unsurely
    assert not enlarged_kept("other", 0.9)  # still nothing recognised
    assert reads_better(_reading("invoice", 0.5), _reading("other", 0.9))
    assert not reads_better(_reading("invoice", 0.5), _reading("receipt", 0.9))


@pytest.mark.skipif(mrz_font() is None, reason="no monospaced font installed to draw an MRZ")
def test_the_mrz_reads_two_digit_years_against_the_contexts_date() -> None:
    """GIVEN a passport born in '74 read as of 2031 and as of 2080
    THEN the birth year is 1974 and 2074: the latest that is not in the reading's future, and
    that future is the context's, not the clock's."""
    page = render_page(TD3)
    now = read_document([page], context=EngineContext(today=A_DAY)).fields["date_of_birth"].value
    then = (
        read_document([page], context=EngineContext(today=dt.date(2080, 6, 1))).fields["date_of_birth"].value
    )
    assert (now, then) == ("1974-08-12", "2074-08-12")
