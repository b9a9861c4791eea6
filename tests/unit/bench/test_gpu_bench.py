"""bench/gpu: the Gemma 4 GPU benchmark, end to end on CPU with its tiny stand-in models.

The benchmark needs torch and transformers, which the project's venv does not have, so it runs
in the vLLM venv (scripts/vllm/install.sh builds REPO/.venv-vllm; DOCINTEL_VLLM_PYTHON overrides
it). What a GPU adds — the E4B and 26B-A4B numbers themselves, the card's name as CUDA reports it,
the 26B-A4B fitting beside its caches — is not checked here (bench/gpu/README.md).
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
import yaml

from engines.llm import gpu_plan, model_client, page_budget, pipeline

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
def test_tiny_run_measures_both_passes_and_derives_page_cost(torch_python, tmp_path):
    """GIVEN the tiny stand-ins on CPU WHEN the bench runs THEN the 26B-A4B extraction pass (a MoE)
    and the E4B classification pass are each measured at every batch size, a page costs both, and
    the CPU, a card with no published figures, gets no B200 estimate and is told why."""
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
    assert list(summary["passes"]) == ["extract", "classify"]
    for measured in summary["passes"].values():
        assert set(measured["decode_step_ms"]) == {"1", "2", "4"} and measured["stopped"] is None
    report = json.loads((tmp_path / "gpu_ci.json").read_text())

    extract, classify = report["passes"]["extract"], report["passes"]["classify"]
    assert extract["pass"]["model"] == "26B-A4B" and classify["pass"]["model"] == "E4B"
    assert extract["model"]["experts"] == 4 and extract["model"]["top_k_experts"] == 2
    assert classify["model"]["experts"] == 0 and classify["model"]["kv_shared_layers"] == 2
    assert extract["vision"]["soft_tokens_per_page"] == 70 and extract["vision"]["patches_per_page"] == 70 * 9
    assert (
        classify["vision"]["soft_tokens_per_page"] == 18 and classify["vision"]["patches_per_page"] == 18 * 9
    )
    assert extract["prefill"]["prompt_tokens"] == 70 + 2 + 24
    for measured in (extract, classify):
        assert measured["vision"]["ms_per_page"] > 0 and measured["prefill"]["tokens_per_s"] > 0
        assert [level["batch"] for level in measured["decode"]] == [1, 2, 4]
        for level in measured["decode"]:
            assert level["step_ms"] > 0 and level["tokens_per_s"] > 0 and level["timed_steps"] == 8
            # the cache holds the prompt and the call's longest answer
            assert level["cache_tokens"] == measured["pass"]["prompt_tokens"] + max(
                measured["pass"]["max_answer_tokens"], 4 + 8
            )
            logprob = level["sampled_logprob"]
            # one log-prob per sequence per step: the sampled token's, nothing full-vocabulary
            assert logprob["kept_per_step"] == level["batch"] and logprob["all_finite"]
            assert math.isfinite(logprob["min"]) and logprob["min"] <= logprob["max"] <= 0

    assert report["page_model"]["passes"] == ["extract", "classify"]
    assert [page["batch"] for page in report["pages"]] == [1, 2, 4]
    assert all(page["pages_per_s"] > 0 and page["usd_per_1000_pages"] > 0 for page in report["pages"])
    best = max(report["pages"], key=lambda page: page["pages_per_s"])
    assert report["best"]["pages_per_s"] == best["pages_per_s"] == summary["best"]["pages_per_s"]
    phases = {key for key in best if key.endswith("_ms_per_page")}
    assert phases == {
        f"{role}_{phase}_ms_per_page"
        for role in ("extract", "classify")
        for phase in ("vision", "prefill", "decode")
    }
    assert 1000 / best["pages_per_s"] == pytest.approx(sum(best[key] for key in phases))

    assert report["machine"]["device"] == "CPU" and report["machine"]["card"] is None
    assert report["b200_estimate"]["scaled_from"] is None and "pages_per_s" not in report["b200_estimate"]
    assert (
        "no B200 estimate" in report["b200_estimate"]["label"] and "'CPU'" in report["b200_estimate"]["label"]
    )
    assert summary["b200_estimate"] is None and summary["b200_estimate_label"].startswith("no B200 estimate")
    assert {card["label"] for card in report["published"]} >= {"H100 SXM", "H200 SXM", "B200"}

    markdown = (tmp_path / "gpu_ci.md").read_text()
    assert "## extract" in markdown and "## classify" in markdown and "| 4 |" in markdown
    assert "no B200 estimate" in markdown


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
    assert report["pages"] == [] and "best" not in report
    for role in ("extract", "classify"):
        measured = report["passes"][role]
        assert measured["decode"] == [] and measured["vision"]["ms_per_page"] > 0
        assert "time budget" in summary["passes"][role]["stopped"]


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
        "import json, torch, gemma4_bench as b, gemma4_configs as cf\n"
        "m = b.build_model(cf.e4b_config(), torch.device('meta'))\n"
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
def test_26b_a4b_config_is_the_architecture_gpu_plan_plans(torch_python):
    """GIVEN the 26B-A4B config the extraction pass builds WHEN built on the meta device (no
    memory) THEN it is the model engines/knowledge/gpu_plan.toml plans with: 30 layers 5 : 1, head
    dims 256 / 512, no value projection where keys double as values, 128 experts of 704 (top 8)
    beside a shared MLP of 2112, and gpu_plan's parameter count."""
    out = run_snippet(
        torch_python,
        "import json, torch, gemma4_bench as b, gemma4_configs as cf\n"
        "c = cf.a26b_config()\n"
        "m = b.build_model(c, torch.device('meta'))\n"
        "layers = m.model.language_model.layers\n"
        "t, v = c.text_config, c.vision_config\n"
        "print(json.dumps({'params': sum(p.numel() for p in m.parameters()),\n"
        "  'head_dims': [l.self_attn.head_dim for l in layers],\n"
        "  'v_proj': [hasattr(l.self_attn, 'v_proj') and l.self_attn.v_proj is not None for l in layers],\n"
        "  'experts': list(layers[0].experts.gate_up_proj.shape), 'top_k': t.top_k_experts,\n"
        "  'mlp': layers[0].mlp.gate_proj.out_features, 'hidden': t.hidden_size,\n"
        "  'heads': t.num_attention_heads,\n"
        "  'kv_heads': [l.self_attn.k_proj.out_features // l.self_attn.head_dim for l in layers[:6]],\n"
        "  'window': t.sliding_window, 'bidirectional': t.use_bidirectional_attention,\n"
        "  'vision': [v.num_hidden_layers, v.hidden_size, v.intermediate_size],\n"
        "  'audio': m.model.audio_tower is None, 'dtype': str(next(m.parameters()).dtype)}))",
    )
    built = json.loads(out)
    spec = gpu_plan.MODELS["gemma4-26b-a4b"]
    assert built["head_dims"] == ([spec.head_dim] * 5 + [spec.global_head_dim]) * 5 and spec.layers == 30
    assert spec.k_eq_v and built["v_proj"] == ([True] * 5 + [False]) * 5
    assert (
        built["experts"] == [spec.experts, 2 * spec.moe_intermediate, spec.hidden]
        and built["top_k"] == spec.top_k
    )
    assert (built["mlp"], built["hidden"], built["heads"], built["window"]) == (
        spec.intermediate,
        spec.hidden,
        spec.heads,
        spec.sliding_window,
    )
    assert built["kv_heads"] == [spec.kv_heads] * 5 + [spec.global_kv_heads]
    raw = tomllib.loads((REPO_ROOT / "engines" / "knowledge" / "gpu_plan.toml").read_text())
    assert built["vision"] == raw["models"]["gemma4-26b-a4b"]["vision_tower"]
    assert built["bidirectional"] == "vision" and built["audio"] and built["dtype"] == "torch.bfloat16"
    # transformers' module adds norms, router scales and the vision embedder gpu_plan leaves out
    assert built["params"] == pytest.approx(spec.total_params(), rel=0.005)


@pytest.mark.slow
def test_page_inputs_are_what_the_image_processor_makes_at_1120_soft_tokens(torch_python):
    out = run_snippet(
        torch_python,
        "import torch, gemma4_bench as b, gemma4_configs as cf\n"
        "try:\n"
        "    from PIL import Image\n"
        "    from transformers.models.gemma4.image_processing_pil_gemma4 import Gemma4ImageProcessorPil\n"
        "except ImportError:\n"
        "    print('no PIL'); raise SystemExit\n"
        "rows, cols = b.page_grid(1120, 3)\n"
        "page = Image.new('RGB', (cols * 16, rows * 16), 'white')\n"
        "made = Gemma4ImageProcessorPil(max_soft_tokens=1120)(page, return_tensors='pt')\n"
        "pixels, positions = b.page_pixels(1, 1120, cf.e4b_config().vision_config, torch.device('cpu'))\n"
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


def test_the_passes_are_the_pipelines_calls():
    """GIVEN passes.yaml THEN each is the call doc_pipeline makes: the model ModelSettings
    picks by default for its role, the role's soft tokens per page and answer cap, the tokens
    around a page; the extraction pass first (it gets the larger share of the time budget)."""
    data = yaml.safe_load((BENCH_DIR / "passes.yaml").read_text())
    extract, classify = data["passes"]["extract"], data["passes"]["classify"]
    assert list(data["passes"]) == ["extract", "classify"]
    settings = model_client.ModelSettings.from_sources({}, {})
    assert settings.model_for("extract", simple=False) == f"gemma4-{extract['model'].lower()}"
    assert settings.model_for("classify", simple=True) == f"gemma4-{classify['model'].lower()}"
    assert extract["soft_tokens"] == settings.image_tokens_for("extract") == 1120
    assert classify["soft_tokens"] == settings.image_tokens_for("classify") == 280
    assert extract["max_answer_tokens"] == pipeline.EXTRACT_MAX_TOKENS
    assert classify["max_answer_tokens"] == pipeline.CLASSIFY_MAX_TOKENS == 48
    assert data["tokens_around_image"] == page_budget.TOKENS_AROUND_IMAGE
    for work in (extract, classify):
        assert 0 < work["answer_tokens"] <= work["max_answer_tokens"]


@pytest.mark.slow
def test_the_card_measured_sets_the_b200_scale(torch_python):
    """GIVEN the name and compute capability CUDA reports WHEN the card is one with published
    figures THEN the B200 line scales from *its* figures (H100 SXM 3.35 TB/s, H200 4.8 TB/s, decode
    by bandwidth, vision and prefill by bf16 TFLOPS); a MIG slice, a wrong capability or an unknown
    card gets no estimate, and neither does the B200 itself."""
    out = run_snippet(
        torch_python,
        "import json, gemma4_bench as b, gpu_cards as c\n"
        "phases = {'extract_vision': 1.0, 'extract_prefill': 2.0, 'extract_decode': 4.0, 'classify_decode': 8.0}\n"
        "h100, h200, b200 = c.identify('NVIDIA H100 80GB HBM3', (9, 0)), c.identify('NVIDIA H200', (9, 0)), "
        "c.identify('NVIDIA B200', (10, 0))\n"
        "print(json.dumps({\n"
        "  'cards': [card.key for card in (h100, h200, b200)],\n"
        "  'pcie': c.identify('NVIDIA H100 PCIe', (9, 0)).hbm_tb_per_s,\n"
        "  'unknown': [c.identify(*a) for a in (('NVIDIA H100 80GB HBM3 MIG 1g.10gb', (9, 0)),\n"
        "      ('NVIDIA H100 80GB HBM3', (8, 0)), ('NVIDIA A100-SXM4-80GB', (8, 0)), ('CPU', None))],\n"
        "  'h100': c.scale_phases(phases, h100, c.TARGET), 'h200': c.scale_phases(phases, h200, c.TARGET),\n"
        "  'h100_line': b.b200_estimate(phases, 8, h100, 'NVIDIA H100 80GB HBM3', 5.5),\n"
        "  'b200_line': b.b200_estimate(phases, 8, b200, 'NVIDIA B200', 5.5),\n"
        "  'a100_line': b.b200_estimate(phases, 8, None, 'NVIDIA A100-SXM4-80GB', 5.5)}))",
    )
    got = json.loads(out)
    assert got["cards"] == ["h100-sxm", "h200-sxm", "b200"] and got["pcie"] == 2.0
    assert got["unknown"] == [None] * 4
    h100, h200 = got["h100"], got["h200"]
    assert h100["extract_decode"] == pytest.approx(4.0 * 3.35 / 8.0)
    assert h100["classify_decode"] == pytest.approx(8.0 * 3.35 / 8.0)
    assert h200["extract_decode"] == pytest.approx(4.0 * 4.8 / 8.0)
    assert h100["extract_vision"] == h200["extract_vision"] == pytest.approx(1.0 * 989.5 / 2250)
    assert h100["extract_prefill"] == pytest.approx(2.0 * 989.5 / 2250)

    line = got["h100_line"]
    assert line["scaled_from"] == "H100 SXM" and line["label"].startswith("ESTIMATE, not measured")
    assert line["ratios"]["bandwidth"] == pytest.approx(3.35 / 8.0)
    assert 1000 / line["pages_per_s"] == pytest.approx(1000 * sum(h100.values()))
    assert got["b200_line"]["scaled_from"] is None and "this card is the B200" in got["b200_line"]["label"]
    a100 = got["a100_line"]
    assert a100["scaled_from"] is None and "pages_per_s" not in a100
    assert "'NVIDIA A100-SXM4-80GB' is not a card with published figures" in a100["label"]


@pytest.mark.slow
def test_results_default_to_a_folder_git_ignores(torch_python):
    out = run_snippet(torch_python, "import gemma4_bench as b\nprint(b.parse_args(['--tiny']).out)")
    out_dir = Path(out.strip())
    assert out_dir == REPO_ROOT / "var" / "bench" / "gpu"
    ignored = subprocess.run(
        ["git", "check-ignore", "-q", str(out_dir / "gpu_x.json")], cwd=REPO_ROOT, capture_output=True
    )
    assert ignored.returncode == 0, "the default results folder is inside the tracked tree"


@pytest.mark.slow
def test_an_older_transformers_is_refused_at_start(torch_python, tmp_path):
    """GIVEN an interpreter whose transformers is 5.16 with Gemma 4's names (a stand-in package
    first on its path: the real one cannot be downgraded here) WHEN run.sh starts the bench THEN it stops at once, naming
    the version it needs and the one it found, before building anything."""
    stub = tmp_path / "transformers"
    stub.mkdir()
    # a release that has the Gemma 4 names, but older than the bench is written for
    names = ["Gemma4Config", "Gemma4ForConditionalGeneration", "Gemma4TextConfig", "Gemma4VisionConfig"]
    (stub / "__init__.py").write_text(
        '__version__ = "5.16.2"\n' + "".join(f"class {name}: pass\n" for name in [*names, "StaticCache"])
    )
    env = {**os.environ, "PYTHON": str(torch_python), "PYTHONPATH": str(tmp_path)}
    done = subprocess.run(
        ["bash", str(RUN), "--tiny", "--device", "cpu", "--out", str(tmp_path / "out")],
        capture_output=True,
        text=True,
        timeout=90,
        env=env,
        cwd=REPO_ROOT,
    )
    assert done.returncode == 1
    assert "needs transformers >= 5.17" in done.stderr and "transformers 5.16.2" in done.stderr
    assert "Traceback" not in done.stderr and not (tmp_path / "out").exists()


@pytest.mark.slow
def test_the_26b_page_attends_both_ways_and_the_e4b_page_does_not(torch_python):
    """GIVEN the pass's prompts WHEN prefilled THEN the page's soft tokens are marked as image
    tokens, so in the 26B-A4B (use_bidirectional_attention="vision") the first soft token sees the
    last one, as in serving, while the E4B stays causal; the text before the page sees neither."""
    out = run_snippet(
        torch_python,
        "import json, torch, gemma4_bench as b, gemma4_configs as cf\n"
        "work = b.TINY_PASSES[0]\n"
        "def changes(config):\n"
        "    m = b.build_model(config, torch.device('cpu'))\n"
        "    p = b.Prompts.random(1, work, 4096, torch.device('cpu'))\n"
        "    last = work.image_start + work.soft_tokens - 1\n"
        "    other = p.ids.clone(); other[0, last] = (other[0, last] + 1) % 4000 + 3\n"
        "    with torch.inference_mode():\n"
        "        a, c = (m(input_ids=i, mm_token_type_ids=p.image_types, logits_to_keep=0).logits[0].float()\n"
        "                for i in (p.ids, other))\n"
        "    return [not torch.equal(a[work.image_start], c[work.image_start]),\n"
        "            not torch.equal(a[work.image_start - 1], c[work.image_start - 1])]\n"
        "types = b.Prompts.random(2, work, 4096, torch.device('cpu')).image_types\n"
        "print(json.dumps({'marked': types.sum(-1).tolist(), 'first': types[0].nonzero()[0].item(),\n"
        "  'moe': changes(cf.tiny_26b_a4b_config()), 'e4b': changes(cf.tiny_e4b_config())}))",
    )
    got = json.loads(out)
    work_soft, image_start = 70, 4 + 1
    assert got["marked"] == [work_soft, work_soft] and got["first"] == image_start
    assert got["moe"] == [True, False]
    assert got["e4b"] == [False, False]


@pytest.mark.slow
def test_a_card_too_small_for_the_26b_reports_the_pass_unmeasured(torch_python):
    """GIVEN the 26B-A4B's parameter count and the memory free on a card WHEN its bf16 weights do
    not fit THEN the extraction pass is reported as not measured, with the numbers, and no page
    cost (nor B200 line) is derived from the classification pass alone."""
    out = run_snippet(
        torch_python,
        "import json, gemma4_bench as b, gemma4_configs as cf\n"
        "n = b.parameter_count(cf.a26b_config())\n"
        "work = b.PIPELINE_PASSES[1]\n"
        "level = {'batch': 1, 'step_ms': 10.0, 'tokens_per_s': 100.0}\n"
        "report = {'label': 'x', 'machine': {'device': 'NVIDIA H100 80GB HBM3', 'card': 'h100-sxm',\n"
        "    'card_label': 'H100 SXM', 'torch': '-', 'transformers': '-'},\n"
        "  'page_model': {'description': '-', 'passes': ['extract', 'classify']},\n"
        "  'published': [], 'pages': [], 'elapsed_s': 1.0,\n"
        "  'b200_estimate': {'label': 'no estimate yet', 'scaled_from': None},\n"
        "  'passes': {'extract': {'pass': {}, 'model': {'description': '26B-A4B (not built)'},\n"
        "      'skipped': '26B-A4B ' + b.lack_of_room(n, 40.0)},\n"
        "    'classify': {'pass': {'prompt_tokens': work.prompt_tokens, 'answer_tokens': 16},\n"
        "      'model': {'description': 'E4B'}, 'vision': {'ms_per_page': 5.0, 'soft_tokens_per_page': 280,\n"
        "      'pages_per_call': 4}, 'prefill': {'tokens_per_s': 1e4, 'batch': 4, 'prompt_tokens': 466},\n"
        "      'decode': [level], 'stopped': None}}}\n"
        "b.derive(report, 3.5, 5.5)\n"
        "print(json.dumps({'fits_h100': b.lack_of_room(n, 79.0), 'pages': report['pages'],\n"
        "  'best': 'best' in report, 'markdown': b.markdown(report),\n"
        "  'summary': b.summary(report, b.Path('a'), b.Path('b'))['passes']['extract']}))",
    )
    got = json.loads(out)
    assert got["fits_h100"] is None
    assert got["pages"] == [] and not got["best"]
    assert (
        "Not measured: 26B-A4B needs 52.1 GiB in bf16" in got["markdown"]
        and "40.0 GiB free" in got["markdown"]
    )
    assert got["summary"]["skipped"].startswith("26B-A4B needs 52.1 GiB")
