"""Scoring labelled documents (apps/extraction/evaluation.py): what counts as right and what is scored."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.core.management import call_command

from apps.extraction.evaluation import Sample, _canonical_truth, score
from engines.types import EngineResult, FieldResult
from tests.conftest import REALDATA


def _receipt() -> EngineResult:
    def f(value: str) -> FieldResult:
        return FieldResult(value=value, confidence=0.99, page=1, bbox=None, source="ocr", valid=True)

    return EngineResult(
        document_type="receipt",
        document_type_confidence=0.99,
        pages=1,
        fields={
            "merchant_name": f("LIAN HING STATIONERY SDN BHD"),
            "date": f("2018-03-27"),
            "total_amount": f("12.00"),
            "currency": f("MYR"),
            "tax_amount": f("0.68"),
        },
        checks=[],
    )


def _sample(*, partial_labels: bool) -> Sample:
    truth = {"merchant_name": "LIAN HING STATIONERY SDN BHD", "date": "2018-03-27", "total_amount": "12.00"}
    return Sample("sroie_076.jpg", "receipt", truth, _receipt(), None, 1.0, 1, partial_labels=partial_labels)


def test_fields_a_partly_labelled_document_does_not_name_are_not_scored() -> None:
    """GIVEN a real receipt labelled with merchant, date and total only
    WHEN the engine also reads its currency and tax
    THEN only the three labelled fields are scored, and all three are right."""
    report = score([_sample(partial_labels=True)])
    assert sorted(o.name for o in report.outcomes) == ["date", "merchant_name", "total_amount"]
    assert all(o.correct for o in report.outcomes)


def test_a_fully_labelled_document_counts_an_unlabelled_value_as_wrong() -> None:
    report = score([_sample(partial_labels=False)])
    wrong = sorted(o.name for o in report.outcomes if not o.correct)
    assert wrong == ["currency", "tax_amount"]


def test_an_amount_labelled_with_its_currency_is_compared_as_its_decimal() -> None:
    assert _canonical_truth("total_amount", "RM 9.00") == "9.00"
    assert _canonical_truth("total_amount", "$8.20") == "8.20"
    assert _canonical_truth("total_amount", "1234.50") == "1234.50"
    assert _canonical_truth("invoice_number", "RM-9.00") == "RM-9.00"  # not an amount field


def test_evaluate_command_scores_real_receipts_on_their_labels_only(tmp_path: Path) -> None:
    """The flag reaches the scoring: a real receipt, read by the engine, scores three fields."""
    folder = REALDATA / "receipts_sroie"
    if not folder.exists():
        pytest.skip("no shared real data beside the checkout")
    one = tmp_path / "one"
    one.mkdir()
    name = "sroie_076.jpg"
    (one / name).write_bytes((folder / name).read_bytes())
    truth = json.loads((folder / "truth.json").read_text())
    (one / "truth.json").write_text(json.dumps({name: truth[name]}))
    out = tmp_path / "summary.json"
    call_command(
        "evaluate",
        str(one),
        "--partial-labels",
        "--no-cache",
        "--json",
        str(out),
        "--plot",
        str(tmp_path / "r.png"),
    )
    summary = json.loads(out.read_text())
    assert (summary["documents"], summary["fields_scored"]) == (1, 3), summary
