"""manage.py capacity_report: measured throughput wins over assumptions, and the arithmetic holds."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command


def _report(*args: str) -> dict:
    out = io.StringIO()
    call_command("capacity_report", *args, "--format", "json", stdout=out)
    return json.loads(out.getvalue())


def test_every_gpu_type_gets_a_row_with_its_sources(tmp_path: Path) -> None:
    report = _report("--target", "100", "--results", str(tmp_path))
    rows = {row["gpu"]: row for row in report["gpus"]}
    assert set(rows) == {"B200", "RTX PRO 6000", "H200", "H100"}
    assert all(row["throughput_source"].startswith("assumption") for row in rows.values())
    assert all(row["price_source"] for row in rows.values())


def test_measured_throughput_and_cpu_cost_from_bench_results_win(tmp_path: Path) -> None:
    """GIVEN bench/results with a measured H200 rate and a measured CPU cost per document
    WHEN the report runs for 360 documents/s at 100 % utilisation
    THEN the H200 row uses the measurement: 360 / 120 = 3 GPUs, and $3.60/h over 120 documents/s
    costs $3.60 / 432,000 documents = $0.00833 per 1,000; the CPU side uses 20 ms a document."""
    (tmp_path / "run.json").write_text(
        json.dumps(
            {
                "summary": {"cpu_ms_per_doc": 20.0},
                "gpu_throughput": {"H200": {"documents_per_s": 120, "source": "bench/gpu"}},
            }
        )
    )
    report = _report(
        "--target", "360", "--results", str(tmp_path), "--utilisation", "1", "--price", "H200=3.6"
    )
    h200 = next(row for row in report["gpus"] if row["gpu"] == "H200")
    assert h200["measured"] is True and "run.json" in h200["throughput_source"]
    assert h200["gpus_needed"] == 3
    assert h200["gpu_cost_per_1000_docs_usd"] == pytest.approx(3.6 / (120 * 3600) * 1000, abs=1e-4)
    assert report["cpu_ms_per_doc"] == 20.0
    assert h200["cpu_cores_needed"] == pytest.approx(360 * 0.020)


def test_a_malformed_price_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(CommandError):
        _report("--results", str(tmp_path), "--price", "H200=cheap")
