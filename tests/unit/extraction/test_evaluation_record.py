"""The accuracy record (``manage.py evaluate --record``) and its markdown table (bench/accuracy_table.py).

The record replaces figures copied by hand into the README, so it must carry the same numbers the
text report prints, per set and pooled, and say which engine, calibration and machine made them.
Two tiny generated sets (five documents, seeds fixed) keep the engine part to seconds; the
figures from hand-made samples need no engine at all.
"""

from __future__ import annotations

import importlib.util
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

import engines
from apps.extraction import calibration as calibration_maps
from apps.extraction.accuracy_record import (
    AccuracyRecord,
    CoveragePoint,
    DocumentOutcome,
    OperatingPoint,
    accuracy_at_coverage,
    coverage_curve,
    gate_rates,
    markdown,
    readme_table,
)
from apps.extraction.evaluation import Sample, document_confidence, score, set_accuracy
from apps.extraction.holdout import held_out
from apps.extraction.services import result_assess
from engines.types import EngineResult, FieldResult
from synth.generate import main as synth_generate

REPO_ROOT = Path(__file__).resolve().parents[3]


# ---- figures from hand-made samples (no engine) ------------------------------------------------------


def _result(document_type: str, fields: dict[str, str]) -> EngineResult:
    return EngineResult(
        document_type=document_type,
        document_type_confidence=0.99,
        pages=1,
        fields={
            name: FieldResult(value=value, confidence=0.99, page=1, bbox=None, source="ocr", valid=True)
            for name, value in fields.items()
        },
        checks=[],
    )


def test_set_figures_count_types_fields_confusions_and_failures() -> None:
    """GIVEN a receipt read right, one read as an invoice with a wrong total, and a passport the engine failed on
    WHEN the samples are scored and turned into the record's figures
    THEN per-type documents, classifications and fields, the MRZ fields and the confusion are counted."""
    truth = {"date": "2018-03-27", "total_amount": "12.00"}
    samples = [
        Sample("a.jpg", "receipt", truth, _result("receipt", truth), None, 1.0, 1),
        Sample(
            "b.jpg",
            "receipt",
            truth,
            _result("invoice", {"date": "2018-03-27", "total_amount": "13.00"}),
            None,
            1.0,
            1,
        ),
        Sample("c.jpg", "passport", {"surname": "ERIKSSON", "sex": "F"}, None, "ocr_failed", 1.0, 1),
    ]
    figures = set_accuracy(score(samples), name="hand", path="hand", partial_labels=False)

    assert (figures.documents, figures.failed) == (3, 1)
    assert (figures.document_type.right, figures.document_type.total) == (1, 3)
    assert (figures.fields.right, figures.fields.total) == (3, 6)  # a: 2, b: date only, c: none
    assert (figures.mrz_fields.right, figures.mrz_fields.total) == (0, 2)
    types = {t.document_type: t for t in figures.types}
    assert (types["receipt"].classified.right, types["receipt"].documents) == (1, 2)
    assert (types["receipt"].fields.right, types["receipt"].fields.total) == (3, 4)
    assert (types["passport"].classified.right, types["passport"].documents) == (0, 1)
    per_field = {(f.document_type, f.field): (f.values.right, f.values.total) for f in figures.per_field}
    assert per_field[("receipt", "total_amount")] == (1, 2)
    assert per_field[("passport", "surname")] == (0, 1)
    assert [(c.truth, c.read_as, c.documents) for c in figures.confusions] == [("receipt", "invoice", 1)]
    assert sum(b.fields for b in figures.reliability) == figures.fields_scored
    assert all(b.mean_confidence is None for b in figures.reliability if not b.fields)


# ---- the command on generated documents --------------------------------------------------------------


@pytest.fixture(scope="module")
def evaluated(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Two tiny sets through ``evaluate --record --json``: the record, the pooled summary, the printed text."""
    work = tmp_path_factory.mktemp("record")
    synth_generate([str(work / "mrz"), "--count", "3", "--seed", "35071", "--kinds", "passport,id_card,td2"])
    synth_generate([str(work / "business"), "--count", "2", "--seed", "35072", "--kinds", "receipt,invoice"])
    out = io.StringIO()
    call_command(
        "evaluate",
        str(work / "mrz"),
        str(work / "business"),
        "--cache",
        str(work / "cache"),
        "--plot",
        str(work / "rel.png"),
        "--json",
        str(work / "summary.json"),
        "--record",
        str(work / "results" / "accuracy.json"),
        "--coverage-plot",
        str(work / "coverage.png"),
        stdout=out,
    )
    return {
        "coverage_plot": work / "coverage.png",
        "path": work / "results" / "accuracy.json",
        "record": json.loads((work / "results" / "accuracy.json").read_text()),
        "summary": json.loads((work / "summary.json").read_text()),
        "text": out.getvalue(),
    }


def _sections(text: str) -> dict[str, str]:
    """The printed report split at its ``== name`` headers: each set's folder, then "pooled"."""
    parts = re.split(r"^== (.+)$", text, flags=re.MULTILINE)
    return {
        ("pooled" if header.startswith("pooled") else Path(header.split(" (")[0]).name): body
        for header, body in zip(parts[1::2], parts[2::2], strict=True)
    }


def test_the_record_says_what_made_it(evaluated: dict[str, Any]) -> None:
    record = evaluated["record"]
    assert record["format"] == 1
    assert record["engine"] == {"name": engines.ENGINE_NAME, "version": engines.ENGINE_VERSION}
    assert record["engines_read"] == [f"{engines.ENGINE_NAME} {engines.ENGINE_VERSION}"]
    assert record["reader"] == "local"
    assert record["calibration_version"] == calibration_maps.current().version
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", record["date"])
    assert record["machine"]["cores"] >= 1 and record["machine"]["cpu_model"]
    assert [(s["name"], s["documents"], s["partial_labels"]) for s in record["sets"]] == [
        ("mrz", 3, False),
        ("business", 2, False),
    ]
    assert all(len(s["truth_sha256"]) == 64 for s in record["sets"])


def test_the_pool_is_the_sum_of_the_sets(evaluated: dict[str, Any]) -> None:
    sets, pooled = evaluated["record"]["sets"], evaluated["record"]["pooled"]
    for key in ("documents", "failed", "fields_scored", "auto_approved", "auto_approved_all_right"):
        assert pooled[key] == sum(s[key] for s in sets), key
    for key in ("document_type", "fields", "mrz_fields"):
        assert pooled[key]["right"] == sum(s[key]["right"] for s in sets), key
        assert pooled[key]["total"] == sum(s[key]["total"] for s in sets), key
    assert pooled["mrz_fields"] == sets[0]["mrz_fields"]  # the business set has no MRZ document
    assert sets[1]["mrz_fields"]["total"] == 0


def test_the_record_agrees_with_the_printed_report(evaluated: dict[str, Any]) -> None:
    """Every figure the text prints for a set is the figure the record holds for it."""
    record = evaluated["record"]
    sections = _sections(evaluated["text"])
    assert set(sections) == {"mrz", "business", "pooled"}
    for figures in [*record["sets"], record["pooled"]]:
        text = sections[figures["name"]]

        def line(caption: str, text: str = text) -> str:
            found = re.search(rf"^{re.escape(caption)}\s+(.*)$", text, flags=re.MULTILINE)
            assert found, (caption, text)
            return found.group(1)

        assert line("documents") == f"{figures['documents']} ({figures['failed']} failed)"
        assert line("field accuracy (all types)") == f"{figures['fields']['rate']:.1%}"
        mrz = figures["mrz_fields"]
        assert line("MRZ documents' fields") == f"{mrz['rate']:.1%}  ({mrz['right']}/{mrz['total']})"
        assert line("document type accuracy") == f"{figures['document_type']['rate']:.1%}"
        assert line("expected calibration error").startswith(f"{figures['expected_calibration_error']:.4f}")
        assert line("straight-through rate") == f"{figures['straight_through_rate']:.1%}"
        assert line("auto-approved all right") == (
            f"{figures['auto_approved_precision']:.1%}  "
            f"({figures['auto_approved_all_right']}/{figures['auto_approved']})"
        )
        for t in figures["types"]:
            if t["fields"]["total"]:
                assert re.search(
                    rf"^{t['document_type']}\s+\S+%\s+\({t['fields']['right']}/{t['fields']['total']}\)$",
                    text,
                    flags=re.MULTILINE,
                ), (t, text)
        for f in figures["per_field"]:
            assert re.search(
                rf"^  {f['field']}\s+\S+%\s+\({f['right']}/{f['total']}\)$", text, flags=re.MULTILINE
            ), (f, text)
        printed_bins = re.findall(
            r"^  (\d\.\d)-\d\.\d: (\d\.\d{3}) (\d\.\d{3}) (\d+)$", text, flags=re.MULTILINE
        )
        assert printed_bins == [
            (f"{b['low']:.1f}", f"{b['mean_confidence']:.3f}", f"{b['accuracy']:.3f}", str(b["fields"]))
            for b in figures["reliability"]
            if b["fields"]
        ]


def test_the_json_summary_is_the_pooled_record(evaluated: dict[str, Any]) -> None:
    summary, pooled = evaluated["summary"], evaluated["record"]["pooled"]
    assert summary["documents"] == pooled["documents"]
    assert summary["fields_scored"] == pooled["fields_scored"]
    assert summary["field_accuracy"] == pooled["fields"]["rate"]
    assert summary["type_accuracy"] == pooled["document_type"]["rate"]
    assert summary["expected_calibration_error"] == pooled["expected_calibration_error"]
    assert summary["straight_through_rate"] == pooled["straight_through_rate"]
    assert summary["auto_approved_precision"] == pooled["auto_approved_precision"]


def test_a_record_reads_back_as_written(evaluated: dict[str, Any]) -> None:
    assert AccuracyRecord.load(evaluated["path"]).to_dict() == evaluated["record"]


def test_the_table_renders_every_set_and_the_pool_without_django(evaluated: dict[str, Any]) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    done = subprocess.run(
        [sys.executable, str(REPO_ROOT / "bench" / "accuracy_table.py"), str(evaluated["path"]), "--no-gate"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=True,
    )
    assert done.stdout == markdown(AccuracyRecord.load(evaluated["path"]))
    pooled = evaluated["record"]["pooled"]
    rows = [line for line in done.stdout.splitlines() if line.startswith("| ")]
    assert rows[2].startswith("| mrz | 3 |") and rows[3].startswith("| business | 2 |")
    assert rows[4].startswith("| all 2 sets pooled | 5 |")
    assert f"({pooled['fields']['right']}/{pooled['fields']['total']})" in rows[4]
    assert engines.ENGINE_VERSION in done.stdout.splitlines()[0]


def test_partial_labels_in_must_name_a_folder_evaluated(tmp_path: Path) -> None:
    """A typo in ``--partial-labels-in`` must not silently score a real set on every field."""
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "truth.json").write_text("{}")
    with pytest.raises(CommandError, match="partial-labels-in"):
        call_command("evaluate", str(tmp_path / "a"), "--partial-labels-in", str(tmp_path / "b"))


def test_the_latest_record_is_the_highest_engine_version(tmp_path: Path) -> None:
    """0.2.144 comes after 0.2.99: versions compare as numbers, not as text."""
    spec = importlib.util.spec_from_file_location("accuracy_table", REPO_ROOT / "bench" / "accuracy_table.py")
    assert spec is not None and spec.loader is not None
    table = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(table)
    for version in ("0.2.99", "0.2.144", "0.10.1-rc"):
        (tmp_path / f"accuracy-{version}.json").write_text("{}")
    (tmp_path / "accuracy-0.2.150.json").write_text("{}")
    (tmp_path / "throughput-0.3.0.json").write_text("{}")
    assert table.latest_record(tmp_path).name == "accuracy-0.2.150.json"


# ---- selective prediction: the coverage-accuracy curve and the operating point ------------------------


def _doc(confidence: float, all_right: bool, *, approved: bool = False) -> DocumentOutcome:
    return DocumentOutcome("x", confidence, approved, all_right)


def test_the_curve_has_a_point_per_distinct_confidence_and_ties_enter_together() -> None:
    """GIVEN five documents, two tied at 0.9 (one right, one wrong), then 0.8 right, 0.5 right, a failed read
    WHEN the coverage-accuracy curve is drawn
    THEN each threshold covers every document at or above it, and counts those entirely right."""
    documents = [_doc(0.5, True), _doc(0.9, True), _doc(0.0, False), _doc(0.9, False), _doc(0.8, True)]
    curve = coverage_curve(documents)
    assert [(p.threshold, p.covered, p.covered_all_right) for p in curve] == [
        (0.9, 2, 1),
        (0.8, 3, 2),
        (0.5, 4, 3),
        (0.0, 5, 3),
    ]
    assert [p.coverage for p in curve] == [0.4, 0.6, 0.8, 1.0]
    assert [p.accuracy for p in curve] == [0.5, 2 / 3, 0.75, 0.6]
    assert coverage_curve([]) == ()


def test_confidences_equal_at_the_records_precision_are_one_threshold() -> None:
    """The record writes thresholds to 4 digits: a curve read back must have the same points."""
    curve = coverage_curve([_doc(0.91231, True), _doc(0.91234, False), _doc(0.5, True)])
    assert [(p.threshold, p.covered, p.covered_all_right) for p in curve] == [(0.9123, 2, 1), (0.5, 3, 2)]


def test_the_curve_is_read_at_the_least_coverage_that_reaches_the_share_asked() -> None:
    curve = coverage_curve([_doc(0.9, True), _doc(0.8, False), _doc(0.7, True), _doc(0.6, True)])
    assert accuracy_at_coverage(curve, 0.25) == curve[0]  # exactly one document of four
    assert accuracy_at_coverage(curve, 0.3) == curve[1]  # two needed to reach 30 %
    assert accuracy_at_coverage(curve, 0.5) == curve[1]
    assert accuracy_at_coverage(curve, 1.0) == curve[3]
    assert accuracy_at_coverage((), 0.5) is None


def test_the_operating_point_is_the_decisions_approvals_and_their_precision() -> None:
    point = OperatingPoint(documents=8, auto_approved=4, auto_approved_all_right=3, lowest_confidence=0.93)
    assert (point.automation_rate, point.precision) == (0.5, 0.75)
    assert OperatingPoint(5, 0, 0, None).precision == 0.0
    assert point.to_dict() == {
        "documents": 8,
        "auto_approved": 4,
        "auto_approved_all_right": 3,
        "automation_rate": 0.5,
        "precision": 0.75,
        "lowest_confidence": 0.93,
    }


def _receipt_read(confidences: dict[str, float], *, type_confidence: float = 0.99) -> EngineResult:
    values = {
        "merchant_name": "LIAN HING",
        "date": "2018-03-27",
        "total_amount": "12.00",
        "tax_amount": "0.68",
    }
    return EngineResult(
        document_type="receipt",
        document_type_confidence=type_confidence,
        pages=1,
        fields={
            name: FieldResult(value=values[name], confidence=c, page=1, bbox=None, source="ocr", valid=True)
            for name, c in confidences.items()
        },
        checks=[],
    )


def test_a_documents_confidence_is_its_weakest_scored_part_and_its_decision_is_the_real_one() -> None:
    """GIVEN receipts labelled with merchant, date and total only (partial labels), read with the identity calibration
    WHEN they are scored
    THEN each document's confidence is the least of its type's and its scored fields' (the unlabelled tax
    never lowers it), it is approved exactly when result_assess approves it, and a failed read ranks last."""
    truth = {"merchant_name": "LIAN HING", "date": "2018-03-27", "total_amount": "12.00"}
    reads = [
        _receipt_read({"merchant_name": 0.97, "date": 0.95, "total_amount": 0.98, "tax_amount": 0.05}),
        _receipt_read({"merchant_name": 0.97, "date": 0.40, "total_amount": 0.98}),
        _receipt_read({"merchant_name": 0.97, "date": 0.95, "total_amount": 0.98}, type_confidence=0.30),
    ]
    samples = [
        Sample(f"r{i}.jpg", "receipt", truth, read, None, 1.0, 1, partial_labels=True)
        for i, read in enumerate(reads)
    ]
    samples.append(Sample("failed.jpg", "receipt", truth, None, "ocr_failed", 1.0, 1, partial_labels=True))
    samples.append(
        Sample(
            "wrong.jpg",
            "receipt",
            {**truth, "total_amount": "13.00"},
            reads[0],
            None,
            1.0,
            1,
            partial_labels=True,
        )
    )
    report = score(samples, calibration=calibration_maps.IDENTITY)

    outcomes = {d.file: d for d in report.document_outcomes}
    assert [outcomes[f].confidence for f in ("r0.jpg", "r1.jpg", "r2.jpg", "failed.jpg")] == [
        0.95,
        0.40,
        0.30,
        0.0,
    ]
    assert document_confidence(0.99, [0.95, 0.98]) == 0.95
    assert document_confidence(0.3, []) == 0.3
    for sample in samples:
        expected = sample.result is not None and (
            result_assess(result=sample.result, calibration=calibration_maps.IDENTITY).decision.outcome
            == "auto_approved"
        )
        assert outcomes[sample.file].auto_approved is expected, sample.file
    assert [outcomes[f].all_right for f in ("r0.jpg", "r1.jpg", "r2.jpg", "failed.jpg", "wrong.jpg")] == [
        True,
        True,
        True,
        False,
        False,
    ]
    assert report.auto_approved == sum(d.auto_approved for d in report.document_outcomes)
    figures = set_accuracy(report, name="receipts", partial_labels=True)
    assert [(p.threshold, p.covered, p.covered_all_right) for p in figures.coverage_curve] == [
        (0.95, 2, 1),  # r0 and the same read labelled with another total
        (0.4, 3, 2),
        (0.3, 4, 3),
        (0.0, 5, 3),
    ]
    approved = [d.confidence for d in report.document_outcomes if d.auto_approved]
    assert figures.auto_approved_min_confidence == (min(approved) if approved else None)
    assert figures.operating_point.auto_approved == report.auto_approved
    assert figures.operating_point.auto_approved_all_right == report.auto_approved_all_right


def test_a_record_without_selective_prediction_still_reads(tmp_path: Path) -> None:
    """Records written before the curve existed (bench/results/) read back with an empty curve."""
    old = json.loads((REPO_ROOT / "bench" / "results" / "accuracy-0.5.0.json").read_text())
    assert "coverage_curve" not in old["sets"][0]
    record = AccuracyRecord.from_dict(old)
    assert record.sets[0].coverage_curve == () and record.sets[0].held_out is False
    assert record.sets[0].operating_point.auto_approved == old["sets"][0]["auto_approved"]
    assert "| all-types | 90 |" in markdown(record)


def test_the_curve_and_operating_point_read_back_as_written(evaluated: dict[str, Any]) -> None:
    record = evaluated["record"]
    for figures in [*record["sets"], record["pooled"]]:
        curve = figures["coverage_curve"]
        assert curve, figures["name"]
        assert curve[-1]["covered"] == figures["documents"]
        assert [p["covered"] for p in curve] == sorted(p["covered"] for p in curve)
        assert [p["threshold"] for p in curve] == sorted((p["threshold"] for p in curve), reverse=True)
        operating = figures["operating_point"]
        assert (operating["auto_approved"], operating["auto_approved_all_right"]) == (
            figures["auto_approved"],
            figures["auto_approved_all_right"],
        )
        if operating["auto_approved"]:
            # every document approved is covered at the lowest confidence approved
            at = next(p for p in curve if p["threshold"] <= operating["lowest_confidence"])
            assert at["covered"] >= operating["auto_approved"]
    # the pool ranks every document: its last point is the sets' last points summed
    assert record["pooled"]["coverage_curve"][-1]["covered_all_right"] == sum(
        s["coverage_curve"][-1]["covered_all_right"] for s in record["sets"]
    )
    loaded = AccuracyRecord.load(evaluated["path"])
    assert loaded.sets[0].coverage_curve == tuple(
        CoveragePoint(p["threshold"], record["sets"][0]["documents"], p["covered"], p["covered_all_right"])
        for p in record["sets"][0]["coverage_curve"]
    )
    assert evaluated["coverage_plot"].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


# ---- held-out scoring of real sets --------------------------------------------------------------------


def test_held_out_in_scores_only_the_held_out_files_and_says_so(tmp_path: Path) -> None:
    """GIVEN a folder whose truth names twelve files, of which only the held-out ones exist (unreadable bytes)
    WHEN it is evaluated with --held-out-in and a note
    THEN only the held-out files are read (the others would raise), and the set is named for both."""
    names = [f"doc{i:02}.pdf" for i in range(12)]
    kept = [n for n in names if held_out(n)]
    assert 0 < len(kept) < len(names)
    folder = tmp_path / "realset"
    folder.mkdir()
    (folder / "truth.json").write_text(
        json.dumps({n: {"document_type": "invoice", "fields": {"total_amount": "1.00"}} for n in names})
    )
    for name in kept:
        (folder / name).write_bytes(b"not a document")
    out = tmp_path / "record.json"
    call_command(
        "evaluate",
        str(folder),
        "--held-out-in",
        str(folder),
        "--note",
        str(folder),
        "page only",
        "--partial-labels-in",
        str(folder),
        "--no-cache",
        "--plot",
        str(tmp_path / "r.png"),
        "--coverage-plot",
        str(tmp_path / "c.png"),
        "--record",
        str(out),
        stdout=io.StringIO(),
    )
    figures = json.loads(out.read_text())["sets"][0]
    assert figures["name"] == "realset (page only, held out)"
    assert (figures["documents"], figures["failed"], figures["held_out"]) == (len(kept), len(kept), True)
    assert figures["coverage_curve"] == [
        {"threshold": 0.0, "covered": len(kept), "covered_all_right": 0, "coverage": 1.0, "accuracy": 0.0}
    ]
    assert (tmp_path / "c.png").exists()
    assert "| realset (page only, held out, partial labels) |" in markdown(AccuracyRecord.load(out))


def test_held_out_in_must_name_a_folder_evaluated(tmp_path: Path) -> None:
    for name in ("a", "b"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "truth.json").write_text("{}")
    with pytest.raises(CommandError, match="held-out-in"):
        call_command("evaluate", str(tmp_path / "a"), "--held-out-in", str(tmp_path / "b"))


# ---- the capture gate's rates beside the table --------------------------------------------------------


def test_the_gate_rates_are_read_from_its_json_and_shown_for_the_sets_it_measured(
    evaluated: dict[str, Any],
) -> None:
    """bench/capture_gate.py's results per family: a family named as a set fills that set's columns
    ("synth" is the generated set), the others are listed as the gate wrote them."""
    gate_json = {
        "benchmark": "capture-gate",
        "thresholds": {"min_sharpness": 40.0},
        "results": {
            "business": {
                "documents": 40,
                "sent_back": 1,
                "false_resubmission": 0.025,
                "page_false_resubmission": 0.05,
                "degraded_pages": 80,
                "caught": 72,
                "catch_rate": 0.9,
                "catch_rate_by_defect": {"blur": 1.0},
            },
            "synth": {"false_resubmission": 0.0, "catch_rate": 0.5},
            "receipts_sroie": {"false_resubmission": 0.1},
        },
        "pages": {"business": {"documents": [{"measures": [{"sharpness": 1.0}]}]}},
    }
    rates = {g.name: g for g in gate_rates(gate_json)}
    assert set(rates) == {"business", "synth", "receipts_sroie"}
    assert rates["business"].false_resubmission == "2.5% (1/40)"
    assert rates["business"].catch == "90.0% (72/80)"
    assert rates["receipts_sroie"].catch is None
    assert gate_rates({"something": "else"}) == ()

    record = AccuracyRecord.load(evaluated["path"])
    text = markdown(record, gate=tuple(rates.values()))
    selective = [line for line in text.splitlines() if line.startswith("| business |")][1]
    assert selective.endswith("| 2.5% (1/40) | 90.0% (72/80) |")
    assert "| synth | 0.0% | 50.0% |" in text and "| receipts_sroie | 10.0% | — |" in text
    readme = readme_table(record, tuple(rates.values()))
    assert readme.splitlines()[0].endswith("| false resubmissions |")
    assert [line.split(" | ")[-1] for line in readme.splitlines()[2:]] == ["— |", "2.5% (1/40) |", "— |"]
    # a gate that measured none of these sets adds no column of dashes
    assert "false resubmissions" not in readme_table(record, (rates["synth"],))
