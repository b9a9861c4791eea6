"""bench/gpu/run.sh and its load generator, on CPU with the stand-in models.

The GPU measurement itself needs a GPU; this checks everything around it: the arguments, the
temporary repository, the server start, the load generator at two concurrencies, the files.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
RUN = REPO_ROOT / "bench" / "gpu" / "run.sh"
sys.path.insert(0, str(REPO_ROOT / "bench" / "gpu"))

import loadgen  # noqa: E402


def _run(*args: str, timeout: int = 240) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHON": sys.executable}
    return subprocess.run(["bash", str(RUN), *args], capture_output=True, text=True, timeout=timeout, env=env)


@pytest.mark.integration
def test_run_sh_measures_the_stand_in_pipeline_and_writes_results(tmp_path):
    done = _run(
        "--backend",
        "standin",
        "--concurrency",
        "1",
        "4",
        "--documents",
        "8",
        "--out",
        str(tmp_path),
        "--label",
        "ci",
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    report = json.loads((tmp_path / "gpu_bench_ci.json").read_text())
    assert [level["concurrency"] for level in report["levels"]] == [1, 4]
    for level in report["levels"]:
        assert level["failed"] == 0 and level["documents"] == 8
        assert level["pages_per_s"] > 0 and 0 < level["p50_ms"] <= level["p95_ms"]
    assert "not a GPU measurement" in report["backend"]
    assert "| 4 | 8 | 0 |" in (tmp_path / "gpu_bench_ci.md").read_text()


@pytest.mark.parametrize(
    "args",
    [["--backend", "tpu"], ["--concurrency", "0"], ["--concurrency"], ["--documents", "x"], ["--frobnicate"]],
)
def test_run_sh_refuses_bad_arguments(args):
    done = _run(*args, timeout=30)
    assert done.returncode == 2
    assert "run.sh:" in done.stderr


def test_bench_page_is_exactly_1120_image_tokens():
    width, height = loadgen.PAGE_SIZE
    assert width % 16 == 0 and height % 16 == 0
    assert (width // 16) * (height // 16) == 1120 * 9  # 16-pixel patches, pooled 3 x 3
    assert loadgen.page_image().startswith(b"\x89PNG")


def test_percentiles_are_nearest_rank():
    values = [float(v) for v in range(1, 101)]
    assert loadgen.percentile(values, 50) == 50.0
    assert loadgen.percentile(values, 95) == 95.0
    assert loadgen.percentile([3.0], 95) == 3.0


def test_loadgen_arguments():
    args = loadgen.parse_args(["--concurrency", "1", "8", "32", "128"])
    assert args.concurrency == [1, 8, 32, 128]
    with pytest.raises(SystemExit):
        loadgen.parse_args(["--concurrency", "0"])
