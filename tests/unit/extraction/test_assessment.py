import datetime as dt

from apps.extraction.calibration import Calibration, Example, TypeExample, current, fit, isotonic
from apps.extraction.services import result_assess
from engines.types import Check, EngineResult, FieldResult

TODAY = dt.date(2026, 11, 30)


# 0.999: the raw confidence the MRZ reader reports for a clean read, every character sure
def _passport(expiry: str = "2031-04-15", doc_valid: bool = True, confidence: float = 0.999) -> EngineResult:
    def f(value, valid=True):
        return FieldResult(
            value=value, confidence=confidence, page=1, bbox=(0.1, 0.8, 0.5, 0.85), source="mrz", valid=valid
        )

    return EngineResult(
        document_type="passport",
        document_type_confidence=0.99,
        pages=1,
        fields={
            "document_number": f("L898902C3", doc_valid),
            "surname": f("ERIKSSON", None),
            "given_names": f("ANNA MARIA", None),
            "nationality": f("UTO", None),
            "date_of_birth": f("1974-08-12"),
            "sex": f("F", None),
            "date_of_expiry": f(expiry),
            "issuing_country": f("UTO", None),
        },
        checks=[Check("mrz_check_digits", doc_valid)],
    )


def test_confident_valid_unexpired_passport_is_auto_approved():
    assessment = result_assess(result=_passport(), today=TODAY)
    assert assessment.decision.outcome == "auto_approved", assessment.decision.reasons


def test_expired_passport_needs_review():
    assessment = result_assess(result=_passport(expiry="2012-04-15"), today=TODAY)
    assert assessment.decision.outcome == "needs_review"
    assert {c.name: c.passed for c in assessment.result.checks}["document_not_expired"] is False


def test_failed_check_digit_lowers_confidence_and_needs_review():
    assessment = result_assess(result=_passport(doc_valid=False), today=TODAY)
    assert assessment.confidences["document_number"] < 0.3
    assert assessment.decision.outcome == "needs_review"


def test_birth_date_in_the_future_is_invalid():
    result = _passport()
    fields = dict(result.fields)
    fields["date_of_birth"] = FieldResult("2030-01-01", 0.99, 1, None, "mrz", True)
    assessment = result_assess(result=EngineResult(**{**result.__dict__, "fields": fields}), today=TODAY)
    assert assessment.result.fields["date_of_birth"].valid is False
    assert assessment.decision.outcome == "needs_review"


def test_unknown_document_type_is_never_auto_approved():
    result = EngineResult(document_type="other", document_type_confidence=0.3, pages=1, fields={})
    assert result_assess(result=result, today=TODAY).decision.outcome == "needs_review"


def test_isotonic_map_is_monotone_and_follows_the_observed_rate():
    # raw 0.2: right 1 time in 10; raw 0.9: right 9 times in 10; one violator in between
    points = [(0.2, i == 0) for i in range(10)] + [(0.9, i < 9) for i in range(10)] + [(0.5, False)] * 5
    fitted = isotonic(points)
    values = [fitted(x / 20) for x in range(21)]
    assert values == sorted(values)
    assert fitted(0.2) < 0.2 and fitted(0.9) > 0.75
    assert fitted(0.2) > 0.0 and fitted(1.0) < 1.0  # shrunk: never certain from a handful


def test_sparse_evidence_class_borrows_the_coarser_map():
    examples = [
        Example(source="ocr", name="total_amount", valid=None, raw_confidence=r / 100, correct=r > 50)
        for r in range(100)
    ]
    fitted = fit(examples, version="t")
    assert "ocr|amount|unchecked" in fitted.maps and "*|*|unchecked" in fitted.maps
    # a name read by OCR has no map of its own: the source-wide map answers
    assert fitted.calibrate(source="ocr", name="surname", valid=None, raw_confidence=0.9) > 0.8
    assert fitted.calibrate(source="ocr", name="surname", valid=None, raw_confidence=0.1) < 0.2
    # no map at all for failed validation: the raw score is capped low
    assert fitted.calibrate(source="mrz", name="surname", valid=False, raw_confidence=0.7) == 0.25
    assert Calibration.from_json(fitted.to_json()) == fitted


def test_shipped_calibration_is_monotone_and_ranks_failed_checks_lowest():
    shipped = current()
    raws = [i / 20 for i in range(21)]
    for valid in (True, None, False):
        values = [
            shipped.calibrate(source="mrz", name="document_number", valid=valid, raw_confidence=r)
            for r in raws
        ]
        assert values == sorted(values)
    for r in raws:
        failed = shipped.calibrate(source="mrz", name="document_number", valid=False, raw_confidence=r)
        passed = shipped.calibrate(source="mrz", name="document_number", valid=True, raw_confidence=r)
        assert failed <= passed


def test_examples_with_the_same_raw_score_share_one_calibrated_value():
    # a reader that always says 0.85 for a field family: right 3 times in 4
    fitted = isotonic([(0.85, i % 4 != 0) for i in range(40)] + [(0.95, True)] * 10)
    assert fitted.knots.count(0.85) == 1
    assert 0.7 < fitted(0.85) < 0.8


def test_type_confidence_is_calibrated_per_document_type() -> None:
    # receipts named at 0.6 were right one time in two; passports at 0.6 every time
    types = [TypeExample("receipt", 0.6, i % 2 == 0) for i in range(40)]
    types += [TypeExample("passport", 0.6, True) for _ in range(40)]
    fitted = fit([], version="t", types=types)
    assert fitted.calibrate_type(document_type="receipt", raw_confidence=0.6) < 0.6
    assert fitted.calibrate_type(document_type="passport", raw_confidence=0.6) > 0.9
    assert fitted.calibrate_type(document_type="invoice", raw_confidence=0.6) == 0.6  # unfitted: raw


def test_a_map_claims_no_more_than_the_raw_score_where_it_saw_too_few_examples() -> None:
    """GIVEN a type whose every labelled reading was right, all at raw 0.9 and up but for two
    WHEN a reading of that type comes at raw 0.47, where the map saw fewer than five examples
    THEN its calibrated confidence is the raw 0.47, not the 1.0 pooling gives the readings seen;
    the map still answers as fitted where it has examples, and keeps its support through JSON."""
    types = [TypeExample("receipt", 0.9 + i / 1000, True) for i in range(40)]
    types += [TypeExample("receipt", 0.35, True), TypeExample("receipt", 0.6, True)]
    fitted = fit([], version="t", types=types)
    assert fitted.calibrate_type(document_type="receipt", raw_confidence=0.47) == 0.47
    assert fitted.calibrate_type(document_type="receipt", raw_confidence=0.92) > 0.95
    assert Calibration.from_json(fitted.to_json()) == fitted


def test_failed_validations_are_never_pooled_across_sources() -> None:
    """GIVEN 30 failed validations, 18 of OCR'd totals that were mostly right and 12 of MRZ check
    digits, each source too few to fit alone
    WHEN the calibration is fitted
    THEN no map pools them: a failed check digit keeps the low cap, whatever the totals did."""
    examples = [Example("ocr", "total_amount", False, 0.9, i % 6 != 0) for i in range(18)]
    examples += [Example("mrz", "document_number", False, 0.9, i == 0) for i in range(12)]
    fitted = fit(examples, version="t")
    assert not [key for key in fitted.maps if key.endswith("|invalid")]
    assert fitted.calibrate(source="mrz", name="document_number", valid=False, raw_confidence=0.9) == 0.25


def test_a_raw_score_below_a_class_support_is_answered_by_the_coarser_class_and_stays_monotone() -> None:
    """GIVEN merchant names whose 40 labelled examples all came at raw 0.8 and up (right nine in
    ten), and OCR fields in general seen from raw 0.2 up
    WHEN a merchant name comes at raw 0.5, where its own class saw nothing
    THEN the coarser class answers, never above what the merchant class claims at its support,
    so the answer still rises with the raw score."""
    examples = [
        Example("ocr", "merchant_name", None, 0.8 + i / 400, i % 10 != 0, True, "receipt") for i in range(40)
    ]
    examples += [
        Example("ocr", "total_amount", None, 0.2 + i / 100, i > 10, True, "receipt") for i in range(60)
    ]
    fitted = fit(examples, version="t")
    specific = fitted.maps["receipt.merchant_name|ocr|unchecked"]
    assert not specific.covers(0.5)

    def merchant(raw: float) -> float:
        return fitted.calibrate(
            source="ocr", name="merchant_name", valid=None, raw_confidence=raw, document_type="receipt"
        )

    assert merchant(0.5) == fitted.calibrate(source="ocr", name="surname", valid=None, raw_confidence=0.5)
    values = [merchant(r / 20) for r in range(21)]
    assert values == sorted(values)


def _read_by_the_model(
    result: EngineResult, names: set[str], evidence: tuple[str, ...] = ("grounded", "two_readings")
) -> EngineResult:
    """The fields ``names`` as a model read them, found in the page's text and agreeing with the
    MRZ (``evidence``) unless told otherwise."""
    fields = {
        name: FieldResult(f.value, f.confidence, f.page, None, "model", f.valid, evidence)
        if name in names
        else f
        for name, f in result.fields.items()
    }
    return EngineResult(**{**result.__dict__, "fields": fields, "engine_name": "gemma4"})


def test_model_read_values_never_auto_approve_before_the_model_is_calibrated():
    """At 0.999 a model's token probability is not yet a probability of being right."""
    result = _read_by_the_model(_passport(), {"surname", "given_names"})
    assessment = result_assess(result=result, today=TODAY, calibration=current())
    checks = {c.name: c for c in assessment.result.checks}
    assert checks["confidence_calibrated"].passed is False
    assert "given_names, surname" in checks["confidence_calibrated"].detail
    assert "ERIKSSON" not in checks["confidence_calibrated"].detail  # fields are named, values never
    assert assessment.decision.outcome == "needs_review"
    assert "check confidence_calibrated failed" in assessment.decision.reasons


def test_a_map_fitted_on_the_models_own_labelled_output_lets_it_approve():
    result = _read_by_the_model(_passport(), {"surname", "given_names"})
    examples = [Example("model", "surname", None, 0.999, True, document_type="passport")] * 60
    examples += [Example("model", "surname", None, 0.5, False, document_type="passport")] * 10
    calibration = Calibration(version="model-fitted", maps={**current().maps, **fit(examples).maps})
    assessment = result_assess(result=result, today=TODAY, calibration=calibration)
    assert "confidence_calibrated" not in {c.name for c in assessment.result.checks}
    assert assessment.decision.outcome == "auto_approved", assessment.decision.reasons


def test_a_calibrated_model_value_without_evidence_never_auto_approves():
    """Calibrated or not, a value nothing but its score supports goes to a person (issue 47)."""
    result = _read_by_the_model(_passport(), {"surname", "given_names"}, evidence=())
    examples = [Example("model", "surname", None, 0.999, True, document_type="passport")] * 60
    examples += [Example("model", "surname", None, 0.5, False, document_type="passport")] * 10
    calibration = Calibration(version="model-fitted", maps={**current().maps, **fit(examples).maps})
    assessment = result_assess(result=result, today=TODAY, calibration=calibration)
    assert assessment.decision.outcome == "needs_review"
    assert "surname lacks evidence" in assessment.decision.reasons
    assert assessment.evidence["document_number"] == ("mrz_check_digits",)
