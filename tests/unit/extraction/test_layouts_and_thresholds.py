"""Familiar layouts and per-type thresholds (issue 47): fitted knowledge that knows where it was fitted."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace

from apps.extraction.calibration import Calibration, load, save
from apps.extraction.holdout import held_out
from apps.extraction.layouts import fit_layouts
from apps.extraction.services import result_assess
from apps.extraction.thresholds import NEVER, Candidate, choose
from engines.types import Check, EngineResult, FieldResult

TODAY = dt.date(2026, 12, 7)


def _receipt(top: float, jitter: float = 0.0) -> EngineResult:
    """A receipt whose merchant a second OCR confirmed and whose other values stand at labels."""

    def f(value: str, y: float, evidence: tuple[str, ...] = ("at_label",)) -> FieldResult:
        return FieldResult(
            value,
            0.999,
            1,
            (0.3 + jitter, y + jitter, 0.6 + jitter, y + 0.02 + jitter),
            "ocr",
            None,
            evidence,
        )

    return EngineResult(
        "receipt",
        0.99,
        1,
        {
            "merchant_name": f("CORNER SHOP", top, ("two_readings",)),
            "date": f("2026-01-02", top + 0.2),
            "currency": f("EUR", top + 0.5),
            "total_amount": f("12.00", top + 0.5),
            "tax_amount": f("2.00", top + 0.45),
        },
        [Check("totals_arithmetic", True)],
    )


def test_a_layout_like_the_fitted_ones_is_familiar_and_another_is_not(tmp_path) -> None:
    fitted = fit_layouts(_receipt(0.05, jitter=i / 400) for i in range(20))
    calibration = Calibration("test", {}, layouts=fitted)
    assert calibration.familiar(_receipt(0.05, jitter=0.013))
    assert not calibration.familiar(_receipt(0.4))
    save(calibration, tmp_path / "c.json")
    assert load(tmp_path / "c.json").familiar(_receipt(0.05, jitter=0.013)), "layouts survive the artefact"


def test_familiarity_is_evidence_that_completes_a_name_read_twice() -> None:
    calibration = Calibration(
        "test", {}, layouts=fit_layouts(_receipt(0.05, jitter=i / 400) for i in range(20))
    )
    known = result_assess(result=_receipt(0.05, jitter=0.01), today=TODAY, calibration=calibration)
    assert "familiar_layout" in known.evidence["merchant_name"]
    assert known.decision.outcome == "auto_approved", known.decision.reasons
    elsewhere = result_assess(result=_receipt(0.4), today=TODAY, calibration=calibration)
    assert "familiar_layout" not in elsewhere.evidence["merchant_name"]
    assert "merchant_name lacks evidence" in elsewhere.decision.reasons


def test_the_threshold_is_the_lowest_that_reaches_the_target_precision() -> None:
    found = [Candidate("receipt", 0.99, True, True) for _ in range(40)]
    found += [Candidate("receipt", 0.95, True, False), Candidate("receipt", 0.97, True, True)]
    found += [Candidate("receipt", 0.5, False, False)]  # stopped by something else: no say
    assert choose(found, target=0.99) == {"receipt": 0.97}
    assert choose(found, target=0.97)["receipt"] == 0.95


def test_a_type_never_right_enough_is_never_automated_and_a_rare_one_keeps_the_default() -> None:
    wrong = [Candidate("invoice", 0.99, True, i % 2 == 0) for i in range(20)]
    rare = [Candidate("passport", 0.99, True, True) for _ in range(3)]
    chosen = choose(wrong + rare, target=0.99)
    assert chosen == {"invoice": NEVER}
    calibration = Calibration("test", {}, thresholds=chosen)
    assert calibration.threshold("invoice", 0.9) == NEVER and calibration.threshold("passport", 0.9) == 0.9
    assessed = result_assess(
        result=replace(_receipt(0.05), document_type="invoice"), today=TODAY, calibration=calibration
    )
    assert assessed.decision.outcome == "needs_review"


def test_the_held_out_split_is_stable_and_about_half() -> None:
    names = [f"doc-{i}.pdf" for i in range(1000)]
    assert [held_out(n) for n in names] == [held_out(n) for n in names]
    assert 400 < sum(held_out(n) for n in names) < 600
