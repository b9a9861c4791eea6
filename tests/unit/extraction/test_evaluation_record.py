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
from apps.extraction.accuracy_record import AccuracyRecord, markdown
from apps.extraction.evaluation import Sample, score, set_accuracy
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
        stdout=out,
    )
    return {
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
        [sys.executable, str(REPO_ROOT / "bench" / "accuracy_table.py"), str(evaluated["path"])],
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
