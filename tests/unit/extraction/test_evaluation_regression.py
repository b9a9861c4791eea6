"""The fixed-seed evaluation that guards the CPU engine's accuracy and calibration in CI.

Eighteen synthetic documents of every kind (seed fixed, so the same bytes every run) go through
``manage.py evaluate`` exactly as a developer runs it; the thresholds sit a little below what the
engine measured when they were set, so a change that makes reading or calibration worse fails
here instead of in a customer's queue. Raise them when the engine improves.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.core.management import call_command

from synth.generate import main as synth_generate

SEED = 20261130
COUNT = 18  # two of each of the nine kinds (passport, id_card, td2, driver_license, receipt, ...)

# measured 2026-12-01 (engine 0.2.8, calibration isotonic-20261201-0102): fields 0.788, types
# 0.778 (14/18: this fixed set draws several of the generator's harshest photos), ECE 0.037, STP
# 0.22 with every auto-approved document right. The set is small, so the margins allow one more miss.
THRESHOLDS = {
    "field_accuracy": 0.75,
    "type_accuracy": 0.72,
}
MAX_ECE = 0.10


@pytest.fixture(scope="module")
def evaluation(tmp_path_factory: pytest.TempPathFactory) -> dict[str, float]:
    folder = tmp_path_factory.mktemp("eval")
    synth_generate([str(folder / "docs"), "--count", str(COUNT), "--seed", str(SEED)])
    out = folder / "summary.json"
    call_command(
        "evaluate", str(folder / "docs"), "--no-cache", "--json", str(out), "--plot", str(folder / "rel.png")
    )
    assert (folder / "rel.png").stat().st_size > 0
    summary: dict[str, float] = json.loads(Path(out).read_text())
    return summary


def test_every_document_is_read(evaluation: dict[str, float]) -> None:
    assert evaluation["documents"] == COUNT
    assert evaluation["failed"] == 0


@pytest.mark.parametrize("metric", sorted(THRESHOLDS))
def test_accuracy_does_not_regress(evaluation: dict[str, float], metric: str) -> None:
    assert evaluation[metric] >= THRESHOLDS[metric], evaluation


def test_confidences_stay_calibrated(evaluation: dict[str, float]) -> None:
    assert evaluation["expected_calibration_error"] <= MAX_ECE, evaluation


def test_auto_approved_documents_are_right(evaluation: dict[str, float]) -> None:
    # every auto-approved document of the fixed set had every field right when this was set
    assert evaluation["auto_approved_precision"] == 1.0 or evaluation["straight_through_rate"] == 0.0, (
        evaluation
    )
