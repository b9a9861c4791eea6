"""bench/gpu: the Gemma 4 GPU benchmark, end to end on CPU with its tiny config.

The benchmark needs torch and transformers, which the project's venv does not have, so it runs
in the vLLM venv (scripts/vllm/install.sh builds REPO/.venv-vllm; DOCINTEL_VLLM_PYTHON overrides
it). What a GPU adds — the E4B numbers themselves — is not checked here.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

REPO_ROOT = Path(__file__).resolve().parents[3]
RUN = REPO_ROOT / "bench" / "gpu" / "run.sh"
BENCH_DIR = REPO_ROOT / "bench" / "gpu"


@pytest.fixture(scope="module")
def torch_python() -> Path:
    path = Path(os.environ.get("DOCINTEL_VLLM_PYTHON") or REPO_ROOT / ".venv-vllm" / "bin" / "python")
    if not path.exists():
        pytest.skip(
            f"no Python with torch + transformers at {path}: build it with scripts/vllm/install.sh "
            "or set DOCINTEL_VLLM_PYTHON"
        )
    return path


def run_bench(python: Path, *args: str, timeout: int = 90) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHON": str(python)}
    return subprocess.run(
        ["bash", str(RUN), *args], capture_output=True, text=True, timeout=timeout, env=env, cwd=REPO_ROOT
    )


def run_snippet(python: Path, code: str) -> str:
    """Runs ``code`` with gemma4_bench importable; returns its stdout."""
    done = subprocess.run(
        [str(python), "-c", code], capture_output=True, text=True, timeout=90, cwd=BENCH_DIR
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


def summary_line(done: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.slow
def test_tiny_run_measures_every_batch_size_and_derives_page_cost(torch_python, tmp_path):
    done = run_bench(
        torch_python,
        "--tiny",
        "--device",
        "cpu",
        "--batches",
        "1",
        "2",
        "4",
        "--out",
        str(tmp_path),
        "--label",
        "ci",
    )
    summary = summary_line(done)
    assert summary["json"] == str(tmp_path / "gpu_ci.json") and summary["elapsed_s"] < 60
    assert set(summary["decode_step_ms"]) == {"1", "2", "4"} and summary["stopped"] is None
    report = json.loads((tmp_path / "gpu_ci.json").read_text())

    assert report["model"]["kv_shared_layers"] == 2 and report["model"]["parameters"] > 0
    assert "soft tokens" in report["page_model"]["description"]
    assert report["vision"]["soft_tokens_per_page"] == 70 and report["vision"]["patches_per_page"] == 70 * 9
    assert report["vision"]["ms_per_page"] > 0 and report["prefill"]["tokens_per_s"] > 0

    assert [level["batch"] for level in report["decode"]] == [1, 2, 4]
    for level in report["decode"]:
        assert level["step_ms"] > 0 and level["tokens_per_s"] > 0 and level["timed_steps"] == 8
        logprob = level["sampled_logprob"]
        # one log-prob per sequence per step: the sampled token's, nothing full-vocabulary
        assert logprob["kept_per_step"] == level["batch"] and logprob["all_finite"]
        assert math.isfinite(logprob["min"]) and logprob["min"] <= logprob["max"] <= 0

    assert [page["batch"] for page in report["pages"]] == [1, 2, 4]
    assert all(page["pages_per_s"] > 0 and page["usd_per_1000_pages"] > 0 for page in report["pages"])
    best = max(report["pages"], key=lambda page: page["pages_per_s"])
    assert report["best"]["pages_per_s"] == best["pages_per_s"] == summary["best"]["pages_per_s"]
    b200 = report["b200_estimate"]
    assert "ESTIMATE" in b200["label"] and b200["pages_per_s"] > best["pages_per_s"]
    assert {spec["name"] for spec in report["published"]} == {"H200 SXM", "B200"}

    markdown = (tmp_path / "gpu_ci.md").read_text()
    assert "| 4 |" in markdown and "ESTIMATE" in markdown


@pytest.mark.slow
def test_spent_budget_stops_decode_and_still_writes_what_was_measured(torch_python, tmp_path):
    summary = summary_line(
        run_bench(
            torch_python,
            "--tiny",
            "--device",
            "cpu",
            "--budget-s",
            "0",
            "--out",
            str(tmp_path),
            "--label",
            "b",
        )
    )
    report = json.loads((tmp_path / "gpu_b.json").read_text())
    assert report["decode"] == [] and report["pages"] == [] and "best" not in report
    assert "time budget" in summary["stopped"] and report["vision"]["ms_per_page"] > 0


@pytest.mark.slow
def test_sampling_keeps_the_argmax_and_its_log_softmax(torch_python):
    out = run_snippet(
        torch_python,
        "import torch, gemma4_bench as b\n"
        "logits = torch.randn(3, 500) * 8\n"
        "token, logprob = b.sample(logits)\n"
        "assert token.shape == logprob.shape == (3,)\n"
        "assert torch.equal(token, logits.argmax(-1))\n"
        "expected = logits.log_softmax(-1).gather(-1, token[:, None]).squeeze(-1)\n"
        "assert torch.allclose(logprob, expected, atol=1e-5) and (logprob <= 0).all()\n"
        "print('ok')",
    )
    assert out.strip() == "ok"


@pytest.mark.slow
def test_e4b_config_is_the_published_architecture(torch_python):
    """Built on the meta device (no memory): 42 layers, 5 sliding : 1 full, head dims 256 / 512,
    the last 18 layers KV-shared, 7.63B parameters (8B published, with the ~0.3B audio tower)."""
    out = run_snippet(
        torch_python,
        "import json, torch, gemma4_bench as b\n"
        "m = b.build_model(b.e4b_config(), torch.device('meta'))\n"
        "layers = [l.self_attn for l in m.model.language_model.layers]\n"
        "print(json.dumps({'params': sum(p.numel() for p in m.parameters()),\n"
        "  'head_dims': [a.head_dim for a in layers], 'shared': [a.is_kv_shared_layer for a in layers],\n"
        "  'audio': m.model.audio_tower is None, 'dtype': str(next(m.parameters()).dtype)}))",
    )
    built = json.loads(out)
    assert built["head_dims"] == ([256] * 5 + [512]) * 7
    assert built["shared"] == [False] * 24 + [True] * 18
    assert built["audio"] and built["dtype"] == "torch.bfloat16"
    assert abs(built["params"] - 7.63e9) < 0.01e9


@pytest.mark.slow
def test_page_inputs_are_what_the_image_processor_makes_at_1120_soft_tokens(torch_python):
    out = run_snippet(
        torch_python,
        "import torch, gemma4_bench as b\n"
        "try:\n"
        "    from PIL import Image\n"
        "    from transformers.models.gemma4.image_processing_pil_gemma4 import Gemma4ImageProcessorPil\n"
        "except ImportError:\n"
        "    print('no PIL'); raise SystemExit\n"
        "rows, cols = b.page_grid(1120, 3)\n"
        "page = Image.new('RGB', (cols * 16, rows * 16), 'white')\n"
        "made = Gemma4ImageProcessorPil(max_soft_tokens=1120)(page, return_tensors='pt')\n"
        "pixels, positions = b.page_pixels(1, 1120, b.e4b_config().vision_config, torch.device('cpu'))\n"
        "assert (rows, cols) == (120, 84) and made['num_soft_tokens_per_image'].tolist() == [1120]\n"
        "assert pixels.shape == made['pixel_values'].shape == (1, 10080, 768)\n"
        "assert torch.equal(positions, made['image_position_ids'].to(positions.dtype))\n"
        "print('ok')",
    )
    if out.strip() == "no PIL":
        pytest.skip("the torch interpreter has no Pillow: the image processor cannot run")
    assert out.strip() == "ok"


@pytest.mark.slow
def test_bad_arguments_are_refused(torch_python):
    out = run_snippet(
        torch_python,
        "import gemma4_bench as b\n"
        "for args in (['--tiny', '--batches', '0'], ['--tiny', '--decode-steps', 'x'], ['--device', 'cpu']):\n"
        "    try:\n"
        "        b.parse_args(args)\n"
        "    except SystemExit as exit:\n"
        "        print(exit.code)",
    )
    assert out.split() == ["2", "2", "2"]


def test_run_sh_names_what_the_interpreter_lacks_and_installs_nothing():
    probe = subprocess.run([sys.executable, "-c", "import torch"], capture_output=True)
    if probe.returncode == 0:
        pytest.skip("this interpreter has torch: nothing to report missing")
    done = run_bench(Path(sys.executable), "--tiny", timeout=60)
    assert done.returncode == 1
    assert "lacks: torch" in done.stderr and "nothing is installed" in done.stderr
