"""Gemma 4 E4B on one GPU: vision, prefill and decode speed, and what a page costs.

The model is the E4B architecture built in code from a ``Gemma4Config`` (transformers'
``convert_gemma4_weights.py`` E4B variant, audio tower dropped) with random weights created
directly in bf16 on the device: nothing is downloaded, and the compute per token is the real
model's. It measures, with plain PyTorch + transformers (no serving stack):

* the vision tower, in ms per page at 1120 soft tokens (10,080 16-px patches, the pixel inputs
  Gemma 4's image processor makes for a 1920 x 1344 px page at ``max_soft_tokens=1120``);
* prefill tokens/s for a batch of 1,300-token prompts (the page's 1120 soft tokens + 180 text);
* the decode step at each batch size against a ``StaticCache`` sized for the whole extraction,
  keeping per step only the greedy token and its log-probability;

then derives pages/s and $ per 1,000 pages from a stated page model (``Workload``), and a B200
line scaled from published bf16 TFLOPS and HBM bandwidth, labelled as an estimate.

    python bench/gpu/gemma4_bench.py                    # the GPU run (bench/gpu/run.sh)
    python bench/gpu/gemma4_bench.py --tiny --device cpu  # tiny config, the plumbing on CPU

Writes ``OUT/gpu_<label>.json`` and ``.md`` (after every decode batch size, so a run stopped by
its time budget or a crash keeps what it measured) and prints one JSON summary line last.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import platform
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, TypeVar

import torch
import transformers
from transformers import (
    Gemma4Config,
    Gemma4ForConditionalGeneration,
    Gemma4TextConfig,
    Gemma4VisionConfig,
    StaticCache,
)

REPO_ROOT = Path(__file__).resolve().parents[2]
FULL_BATCHES = (1, 2, 4, 8, 16, 32, 64, 128)
TINY_BATCHES = (1, 2, 4)
PAGE_ASPECT = 1.43  # portrait page, height / width (A4 is 1.41)
FIRST_TEXT_ID = 3  # skip pad / eos / bos
LAST_TEXT_ID = 255_000  # below Gemma 4's special ids (begin-of-image 255,999, image 258,880, ...)
DECODE_WARMUP_STEPS = 4
# A decode batch size is started only with this many times the previous one's duration left: the
# next one (twice the batch) takes up to about twice as long, mostly its prefill.
NEXT_LEVEL_FACTOR = 2.0
T = TypeVar("T")


@dataclass(frozen=True)
class GpuSpec:
    """Published per-GPU figures (dense, i.e. without 2:4 sparsity) the B200 line scales by."""

    name: str
    bf16_dense_tflops: float
    fp4_dense_tflops: float | None
    hbm_tb_per_s: float
    source: str


H200 = GpuSpec(
    "H200 SXM", 989.0, None, 4.8, "NVIDIA H200 Tensor Core GPU datasheet (1,979 TFLOPS bf16 with sparsity)"
)
B200 = GpuSpec(
    "B200",
    2250.0,
    4500.0,
    8.0,
    "NVIDIA HGX/DGX B200 datasheet, per GPU (4.5 PFLOPS bf16, 9 PFLOPS fp4 with sparsity)",
)


@dataclass(frozen=True)
class Workload:
    """One page, as the GPU pipeline spends it: the vision tower once, an extraction call over
    the page (its soft tokens are part of the prompt) and a short classification call. Phases run
    one after another (static batches, no overlap); prefill of both prompts at the measured
    prefill tokens/s; decode at the step time of the batch size it runs at."""

    soft_tokens: int
    extract_prompt: int
    extract_decode: int
    classify_prompt: int
    classify_decode: int

    def describe(self) -> str:
        return (
            f"1 page = vision tower at {self.soft_tokens} soft tokens + extraction call "
            f"({self.extract_prompt} prompt tokens incl. the {self.soft_tokens} soft tokens, "
            f"{self.extract_decode} decoded) + classification call ({self.classify_prompt} prompt "
            f"tokens, {self.classify_decode} decoded); phases sequential, decode shared by the batch"
        )


FULL_WORKLOAD = Workload(1120, 1300, 200, 300, 16)
TINY_WORKLOAD = Workload(70, 96, 12, 24, 4)


def e4b_config() -> Gemma4Config:
    """Gemma 4 E4B as ``convert_gemma4_weights.py`` declares it (``_VARIANT_GEMMA_4_E4B`` and
    ``_ON_DEVICE_VISION_CONFIG``), without the audio tower a document page never uses."""
    text = Gemma4TextConfig(
        vocab_size=262_144,
        hidden_size=2560,
        hidden_size_per_layer_input=256,
        intermediate_size=4 * 2560,
        num_hidden_layers=42,
        layer_types=(["sliding_attention"] * 5 + ["full_attention"]) * 7,
        num_attention_heads=8,
        num_key_value_heads=2,
        num_global_key_value_heads=None,
        head_dim=256,
        global_head_dim=512,
        attention_k_eq_v=False,
        use_bidirectional_attention=None,
        num_kv_shared_layers=18,
        sliding_window=512,
        final_logit_softcapping=30.0,
    )
    vision = Gemma4VisionConfig(
        hidden_size=768,
        intermediate_size=3072,
        num_hidden_layers=16,
        num_attention_heads=12,
        num_key_value_heads=12,
        head_dim=64,
        pooling_kernel_size=3,
        use_clipped_linears=True,
    )
    return Gemma4Config(text_config=text, vision_config=vision, audio_config=None)


def tiny_config() -> Gemma4Config:
    """The same code paths at toy size: per-layer embeddings, KV sharing (the last two layers
    reuse the KV of the first two), sliding + full attention with 32/64-dim heads, a prompt
    longer than the sliding window, a two-layer vision tower. Four layers, not two: a KV-shared
    layer reads the last non-shared layer *of its own type*, so both types need one before it."""
    text = Gemma4TextConfig(
        vocab_size=4096,
        vocab_size_per_layer_input=4096,
        hidden_size=64,
        hidden_size_per_layer_input=16,
        intermediate_size=128,
        num_hidden_layers=4,
        layer_types=["sliding_attention", "full_attention"] * 2,
        num_attention_heads=2,
        num_key_value_heads=1,
        head_dim=32,
        global_head_dim=64,
        num_kv_shared_layers=2,
        sliding_window=32,
        final_logit_softcapping=30.0,
    )
    vision = Gemma4VisionConfig(
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=2,
        num_key_value_heads=2,
        head_dim=16,
        pooling_kernel_size=3,
        use_clipped_linears=True,
    )
    return Gemma4Config(text_config=text, vision_config=vision, audio_config=None)


@contextlib.contextmanager
def default_dtype(dtype: torch.dtype) -> Iterator[None]:
    """Parameters are created in ``dtype`` instead of fp32-then-cast: E4B in fp32 would need
    twice the memory and time just to be thrown away."""
    previous = torch.get_default_dtype()
    torch.set_default_dtype(dtype)
    try:
        yield
    finally:
        torch.set_default_dtype(previous)


def build_model(config: Gemma4Config, device: torch.device) -> Gemma4ForConditionalGeneration:
    """Random bf16 weights straight on ``device`` (transformers' own init, seeded)."""
    torch.manual_seed(0)
    with default_dtype(torch.bfloat16), device:
        model = Gemma4ForConditionalGeneration(config)
    return model.eval()


def synchronize(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def timed(device: torch.device, fn: Callable[[], T], repeats: int) -> tuple[float, T]:
    """Seconds per call of ``fn`` and its last result, after one untimed warm-up call (kernel
    selection, allocator growth)."""
    result = fn()
    synchronize(device)
    started = time.perf_counter()
    for _ in range(repeats):
        result = fn()
    synchronize(device)
    return (time.perf_counter() - started) / repeats, result


def page_grid(soft_tokens: int, pooling: int) -> tuple[int, int]:
    """Patch rows and columns of a portrait page that gives exactly ``soft_tokens`` soft tokens:
    the factor pair of ``soft_tokens`` closest to ``PAGE_ASPECT``, times the pooling kernel. For
    1120 that is 120 x 84 patches: Gemma 4's image processor keeps a 1920 x 1344 px page at that
    size (``get_aspect_ratio_preserving_size``), so nothing is padded."""
    pairs = [(soft_tokens // cols, cols) for cols in range(1, soft_tokens + 1) if soft_tokens % cols == 0]
    rows, cols = min(pairs, key=lambda pair: abs(math.log(pair[0] / pair[1] / PAGE_ASPECT)))
    return rows * pooling, cols * pooling


def page_pixels(
    pages: int, soft_tokens: int, vision: Gemma4VisionConfig, device: torch.device
) -> tuple[torch.Tensor, torch.Tensor]:
    """``pixel_values`` (pages, patches, 3 * patch_size**2) in [0, 1] and ``image_position_ids``
    (pages, patches, 2) as (x, y), laid out like ``image_processing_pil_gemma4.py`` makes them."""
    rows, cols = page_grid(soft_tokens, vision.pooling_kernel_size)
    pixels = torch.rand(pages, rows * cols, 3 * vision.patch_size**2, device=device)
    ys, xs = torch.meshgrid(
        torch.arange(rows, device=device), torch.arange(cols, device=device), indexing="ij"
    )
    positions = torch.stack([xs, ys], dim=-1).reshape(1, rows * cols, 2).expand(pages, -1, -1)
    return pixels, positions


def measure_vision(
    model: Gemma4ForConditionalGeneration, pages: int, soft_tokens: int, repeats: int, device: torch.device
) -> dict[str, Any]:
    """The vision tower + its projection into the text model, as the extraction call runs it."""
    pixels, positions = page_pixels(pages, soft_tokens, model.config.vision_config, device)

    def encode() -> tuple[torch.Tensor, ...]:
        return model.model.get_image_features(pixels, positions, return_dict=True).pooler_output

    seconds, features = timed(device, encode, repeats)
    if [tuple(f.shape) for f in features] != [(soft_tokens, model.config.text_config.hidden_size)] * pages:
        raise RuntimeError(f"vision tower returned {[tuple(f.shape) for f in features]}")
    return {
        "pages_per_call": pages,
        "soft_tokens_per_page": soft_tokens,
        "patches_per_page": pixels.shape[1],
        "ms_per_page": 1000 * seconds / pages,
    }


def prompt_ids(batch: int, length: int, vocab: int, device: torch.device) -> torch.Tensor:
    """Random text ids. The page's soft tokens are text ids here: past the embedding lookup the
    decoder does the same work for both (the merge is one ``masked_scatter``)."""
    return torch.randint(FIRST_TEXT_ID, min(vocab, LAST_TEXT_ID), (batch, length), device=device)


def new_cache(model: Gemma4ForConditionalGeneration, length: int) -> StaticCache:
    """A cache pre-allocated for ``length`` tokens (sliding layers for their window only), so
    decode never reallocates; the KV-shared layers keep none of their own."""
    return StaticCache(config=model.config, max_cache_len=length)


def sample(logits: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Greedy token and its log-probability, and nothing else per row: ``logsumexp`` instead of a
    full-vocabulary ``log_softmax`` tensor, which at batch 128 x 262k would be kept for nothing."""
    logits = logits.float()
    token = logits.argmax(dim=-1)
    logprob = logits.gather(-1, token[:, None]).squeeze(-1) - torch.logsumexp(logits, dim=-1)
    return token, logprob


def prefill(
    model: Gemma4ForConditionalGeneration, ids: torch.Tensor, cache: StaticCache
) -> tuple[torch.Tensor, torch.Tensor]:
    """Runs the prompts into ``cache``; only the last position's logits are computed."""
    logits = model(input_ids=ids, past_key_values=cache, use_cache=True, logits_to_keep=1).logits
    return sample(logits[:, -1])


def measure_prefill(
    model: Gemma4ForConditionalGeneration, batch: int, length: int, repeats: int, device: torch.device
) -> dict[str, Any]:
    ids = prompt_ids(batch, length, model.config.text_config.vocab_size, device)
    cache = new_cache(model, length)

    def run() -> tuple[torch.Tensor, torch.Tensor]:
        cache.reset()
        return prefill(model, ids, cache)

    seconds, _ = timed(device, run, repeats)
    return {
        "batch": batch,
        "prompt_tokens": length,
        "ms_per_call": 1000 * seconds,
        "tokens_per_s": batch * length / seconds,
    }


def measure_decode(
    model: Gemma4ForConditionalGeneration, batch: int, work: Workload, steps: int, device: torch.device
) -> dict[str, Any]:
    """Prefills ``batch`` extraction prompts, then times ``steps`` greedy decode steps (after a
    few untimed ones) against a static cache sized for the whole extraction answer."""
    warmup = DECODE_WARMUP_STEPS
    context = work.extract_prompt + max(work.extract_decode, warmup + steps)
    if device.type == "cuda":
        torch.cuda.reset_peak_memory_stats(device)
    cache = new_cache(model, context)
    ids = prompt_ids(batch, work.extract_prompt, model.config.text_config.vocab_size, device)
    synchronize(device)
    started = time.perf_counter()
    token, _ = prefill(model, ids, cache)
    synchronize(device)
    prefill_s = time.perf_counter() - started
    position = torch.full((batch, 1), work.extract_prompt, device=device)
    logprobs = []
    for step in range(warmup + steps):
        if step == warmup:
            synchronize(device)
            started = time.perf_counter()
        logits = model(
            input_ids=token[:, None], position_ids=position, past_key_values=cache, use_cache=True
        ).logits
        token, logprob = sample(logits[:, -1])
        logprobs.append(logprob)
        position += 1
    synchronize(device)
    step_s = (time.perf_counter() - started) / steps
    kept = torch.stack(logprobs[warmup:])
    return {
        "batch": batch,
        "step_ms": 1000 * step_s,
        "tokens_per_s": batch / step_s,
        "timed_steps": steps,
        "cache_tokens": context,
        "prefill_ms": 1000 * prefill_s,
        "peak_allocated_gib": torch.cuda.max_memory_allocated(device) / 2**30
        if device.type == "cuda"
        else None,
        "sampled_logprob": {
            "kept_per_step": kept.shape[1],
            "min": kept.min().item(),
            "max": kept.max().item(),
            "all_finite": bool(torch.isfinite(kept).all()),
        },
    }


def page_seconds(
    work: Workload, vision_ms: float, prefill_tps: float, step_ms: float, batch: int
) -> dict[str, float]:
    """GPU seconds one page takes, by phase, at decode batch ``batch`` (``Workload``)."""
    return {
        "vision": vision_ms / 1000,
        "prefill": (work.extract_prompt + work.classify_prompt) / prefill_tps,
        "decode": (work.extract_decode + work.classify_decode) * step_ms / 1000 / batch,
    }


def throughput(phases: dict[str, float], usd_per_hour: float) -> dict[str, float]:
    seconds = sum(phases.values())
    return {
        "pages_per_s": 1 / seconds,
        "usd_per_1000_pages": 1000 * seconds / 3600 * usd_per_hour,
        **{f"{phase}_ms_per_page": 1000 * value for phase, value in phases.items()},
    }


def b200_phases(phases: dict[str, float]) -> dict[str, float]:
    """Vision and prefill are compute-bound: scaled by bf16 dense TFLOPS. Decode is scaled by
    HBM bandwidth, which holds only where it is bandwidth-bound; a launch-bound eager decode would
    gain less, so this is an upper estimate."""
    compute = H200.bf16_dense_tflops / B200.bf16_dense_tflops
    bandwidth = H200.hbm_tb_per_s / B200.hbm_tb_per_s
    return {
        "vision": phases["vision"] * compute,
        "prefill": phases["prefill"] * compute,
        "decode": phases["decode"] * bandwidth,
    }


def derive(report: dict[str, Any], work: Workload, usd_per_hour: float, b200_usd_per_hour: float) -> None:
    """Fills ``pages`` (per decode batch size) and ``best``/``b200_estimate`` from what was measured."""
    vision_ms = report["vision"]["ms_per_page"]
    prefill_tps = report["prefill"]["tokens_per_s"]
    rows = []
    for level in report["decode"]:
        phases = page_seconds(work, vision_ms, prefill_tps, level["step_ms"], level["batch"])
        rows.append({"batch": level["batch"], "phases": phases, **throughput(phases, usd_per_hour)})
    report["pages"] = [{k: v for k, v in row.items() if k != "phases"} for row in rows]
    if not rows:
        return
    best = max(rows, key=lambda row: row["pages_per_s"])
    report["best"] = {k: v for k, v in best.items() if k != "phases"} | {"usd_per_gpu_hour": usd_per_hour}
    report["b200_estimate"] = {
        "batch": best["batch"],
        "label": "ESTIMATE, not measured: the measured phases scaled by published B200/H200 ratios "
        "(vision + prefill by bf16 dense TFLOPS, decode by HBM bandwidth)",
        "usd_per_gpu_hour": b200_usd_per_hour,
        **throughput(b200_phases(best["phases"]), b200_usd_per_hour),
    }


def markdown(report: dict[str, Any]) -> str:
    """The same report as a short page for bench/results/."""
    lines = [
        f"# Gemma 4 {report['model']['name']} on {report['machine']['device']} ({report['label']})",
        "",
        f"{report['model']['description']}; torch {report['machine']['torch']}, "
        f"transformers {report['machine']['transformers']}.",
        "",
        f"- Vision tower: {report['vision']['ms_per_page']:.1f} ms/page "
        f"({report['vision']['soft_tokens_per_page']} soft tokens, {report['vision']['pages_per_call']} pages per call)",
        f"- Prefill: {report['prefill']['tokens_per_s']:,.0f} tokens/s "
        f"(batch {report['prefill']['batch']} x {report['prefill']['prompt_tokens']} tokens)",
        f"- Page model: {report['page_model']['description']}",
        "",
        "| decode batch | step ms | decode tokens/s | pages/s | $ / 1000 pages |",
        "|---:|---:|---:|---:|---:|",
    ]
    for level, page in zip(report["decode"], report["pages"], strict=True):
        lines.append(
            f"| {level['batch']} | {level['step_ms']:.2f} | {level['tokens_per_s']:,.0f} | "
            f"{page['pages_per_s']:.2f} | {page['usd_per_1000_pages']:.4f} |"
        )
    if "best" in report:
        best, b200 = report["best"], report["b200_estimate"]
        lines += [
            "",
            f"**Best: {best['pages_per_s']:.2f} pages/s at decode batch {best['batch']}, "
            f"${best['usd_per_1000_pages']:.4f} per 1000 pages at ${best['usd_per_gpu_hour']:.2f}/GPU-hour.**",
            "",
            f"B200 {b200['label']}: {b200['pages_per_s']:.2f} pages/s, ${b200['usd_per_1000_pages']:.4f} "
            f"per 1000 pages at ${b200['usd_per_gpu_hour']:.2f}/GPU-hour.",
        ]
    if report.get("stopped"):
        lines += ["", f"Stopped early: {report['stopped']}."]
    lines += [
        "",
        "Published figures: " + "; ".join(f"{s['name']}: {s['source']}" for s in report["published"]),
    ]
    return "\n".join(lines) + "\n"


def write(report: dict[str, Any], out: Path) -> tuple[Path, Path]:
    out.mkdir(parents=True, exist_ok=True)
    json_path, md_path = out / f"gpu_{report['label']}.json", out / f"gpu_{report['label']}.md"
    json_path.write_text(json.dumps(report, indent=2) + "\n")
    md_path.write_text(markdown(report))
    return json_path, md_path


def machine(device: torch.device) -> dict[str, Any]:
    return {
        "device": torch.cuda.get_device_name(device) if device.type == "cuda" else "CPU",
        "torch": torch.__version__,
        "transformers": transformers.__version__,
        "python": platform.python_version(),
    }


def positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be >= 1, not {value}")
    return value


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tiny", action="store_true", help="tiny Gemma 4 config (CPU plumbing check)")
    parser.add_argument(
        "--device", choices=("cpu", "cuda"), default="cuda" if torch.cuda.is_available() else "cpu"
    )
    parser.add_argument(
        "--batches", type=positive, nargs="+", help="decode batch sizes (default 1..128; tiny 1 2 4)"
    )
    parser.add_argument(
        "--decode-steps", type=positive, help="timed decode steps per batch size (default 64; tiny 8)"
    )
    parser.add_argument("--prefill-batch", type=positive, default=4, help="prompts per timed prefill call")
    parser.add_argument("--vision-batch", type=positive, default=4, help="pages per timed vision call")
    parser.add_argument(
        "--repeats", type=positive, default=3, help="timed repeats of the vision and prefill calls"
    )
    parser.add_argument(
        "--budget-s", type=float, default=420.0, help="start no decode batch size past this (s)"
    )
    parser.add_argument(
        "--usd-per-hour", type=float, default=3.50, help="$/GPU-hour of the measured GPU (H200)"
    )
    parser.add_argument(
        "--b200-usd-per-hour", type=float, default=5.50, help="$/GPU-hour for the B200 estimate"
    )
    parser.add_argument("--label", help="results name: gpu_<label>.json (default: model-device-UTC time)")
    parser.add_argument("--out", type=Path, default=REPO_ROOT / "bench" / "results", help="results folder")
    args = parser.parse_args(argv)
    args.batches = args.batches or list(TINY_BATCHES if args.tiny else FULL_BATCHES)
    args.decode_steps = args.decode_steps or (8 if args.tiny else 64)
    if args.device == "cuda" and not torch.cuda.is_available():
        parser.error("--device cuda: torch sees no CUDA GPU")
    if args.device == "cpu" and not args.tiny:
        parser.error("the E4B model on CPU is no measurement; use --tiny")
    return args


def log(message: str) -> None:
    print(f"[gemma4_bench] {message}", file=sys.stderr, flush=True)


def describe_model(model: Gemma4ForConditionalGeneration, name: str) -> dict[str, Any]:
    text = model.config.text_config
    parameters = sum(p.numel() for p in model.parameters())
    return {
        "name": name,
        "description": f"Gemma 4 {name} architecture, random bf16 weights, {parameters:,} parameters, "
        f"no audio tower, attention {model.config._attn_implementation}, eager PyTorch",
        "parameters": parameters,
        "layers": text.num_hidden_layers,
        "kv_shared_layers": text.num_kv_shared_layers,
        "sliding_window": text.sliding_window,
        "vocab": text.vocab_size,
    }


def measure_decode_levels(
    model: Gemma4ForConditionalGeneration,
    args: argparse.Namespace,
    work: Workload,
    report: dict[str, Any],
    deadline: float,
) -> None:
    """Decode batch sizes in the order given, each written out as soon as it is measured, until
    the time budget would be overrun or memory runs out; ``report["stopped"]`` says which."""
    last_level_s = 0.0
    for index, batch in enumerate(args.batches):
        left = deadline - time.perf_counter()
        if left <= 0 or left < NEXT_LEVEL_FACTOR * last_level_s:
            report["stopped"] = (
                f"time budget {args.budget_s:.0f} s; not measured: batch {args.batches[index:]}"
            )
            return
        level_started = time.perf_counter()
        try:
            level = measure_decode(model, batch, work, args.decode_steps, torch.device(args.device))
        except torch.OutOfMemoryError:
            report["stopped"] = f"out of memory at decode batch {batch}; not measured: {args.batches[index:]}"
            return
        last_level_s = time.perf_counter() - level_started
        report["decode"].append(level)
        log(f"decode batch {batch}: {level['step_ms']:.2f} ms/step ({last_level_s:.1f} s)")
        derive(report, work, args.usd_per_hour, args.b200_usd_per_hour)
        write(report, args.out)


def summary(report: dict[str, Any], json_path: Path, md_path: Path) -> dict[str, Any]:
    """The one line printed last: where the files are and the numbers that matter."""
    return {
        "label": report["label"],
        "device": report["machine"]["device"],
        "json": str(json_path),
        "md": str(md_path),
        "vision_ms_per_page": report["vision"]["ms_per_page"],
        "prefill_tokens_per_s": report["prefill"]["tokens_per_s"],
        "decode_step_ms": {str(level["batch"]): level["step_ms"] for level in report["decode"]},
        "best": report.get("best"),
        "b200_estimate_pages_per_s": report.get("b200_estimate", {}).get("pages_per_s"),
        "stopped": report["stopped"],
        "elapsed_s": report["elapsed_s"],
    }


def main(argv: Sequence[str] | None = None) -> int:
    started = time.perf_counter()
    args = parse_args(argv)
    device = torch.device(args.device)
    work = TINY_WORKLOAD if args.tiny else FULL_WORKLOAD
    name = "tiny" if args.tiny else "E4B"
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())  # not datetime.UTC: Python 3.10 too

    log(f"building Gemma 4 {name} (random bf16 weights) on {device}")
    model = build_model(tiny_config() if args.tiny else e4b_config(), device)
    report: dict[str, Any] = {
        "label": args.label or f"{name.lower()}-{args.device}-{stamp}",
        "started_utc": stamp,
        "machine": machine(device),
        "model": describe_model(model, name),
        "page_model": {"description": work.describe(), **asdict(work)},
        "published": [asdict(H200), asdict(B200)],
        "decode": [],
        "stopped": None,
    }
    log(f"{report['model']['parameters']:,} parameters, built in {time.perf_counter() - started:.0f} s")
    with torch.inference_mode():
        report["vision"] = measure_vision(model, args.vision_batch, work.soft_tokens, args.repeats, device)
        log(f"vision {report['vision']['ms_per_page']:.2f} ms/page")
        report["prefill"] = measure_prefill(
            model, args.prefill_batch, work.extract_prompt, args.repeats, device
        )
        log(f"prefill {report['prefill']['tokens_per_s']:,.0f} tokens/s")
        measure_decode_levels(model, args, work, report, deadline=started + args.budget_s)
    derive(report, work, args.usd_per_hour, args.b200_usd_per_hour)
    report["elapsed_s"] = time.perf_counter() - started
    print(json.dumps(summary(report, *write(report, args.out))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
