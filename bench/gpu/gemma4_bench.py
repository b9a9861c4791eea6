"""Gemma 4 on one GPU, as the pipeline runs it: what a page costs, measured on this card.

doc_pipeline makes two model calls per page (``passes.yaml``): the **26B-A4B extraction
pass** (the page at 1120 soft tokens, a JSON answer) and the **E4B classification pass** (the first
page at 280 soft tokens, a short answer of at most 48 tokens). Each model is built in code from its
``Gemma4Config`` (transformers' variant configs: the 26B-A4B with 128 experts, top-8, keys doubling
as values on its global layers, image tokens attending bidirectionally; the E4B without its audio
tower) with random weights created directly in bf16 on the device, one model at a time: nothing
is downloaded, and the compute per token is the real model's. Per pass it measures, with plain
PyTorch + transformers (no serving stack):

* the vision tower, in ms per page at the pass's soft tokens (1120: 10,080 16-px patches, what
  Gemma 4's image processor makes of a 1920 x 1344 px page);
* prefill tokens/s over the pass's prompts (the page's soft tokens inside the text, marked as
  image tokens so the 26B-A4B's bidirectional image block is built as in serving);
* the decode step at each batch size against a ``StaticCache`` sized for the call's longest
  answer, keeping per step only the greedy token and its log-probability;

then derives pages/s and $ per 1,000 pages for a one-page document, and a B200 line scaled from
the card actually measured (``gpu_cards.py``: recognised by name and compute capability, published
figures and their sources in ``cards.yaml``), labelled as an estimate. An unknown card gets none.

    python bench/gpu/gemma4_bench.py                    # the GPU run (bench/gpu/run.sh)
    python bench/gpu/gemma4_bench.py --tiny --device cpu  # tiny stand-ins, the plumbing on CPU

Needs transformers >= 5.17 (checked first). Writes ``OUT/gpu_<label>.json`` and ``.md``, OUT
being ``var/bench/gpu`` (ignored by git) unless ``--out`` says otherwise, after every decode batch
size, so a run stopped by its time budget or a crash keeps what it measured; prints one JSON
summary line last.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
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
import yaml
from gpu_cards import CARDS, TARGET, Card, identify, no_estimate, scale_phases
from packaging.version import Version

MIN_TRANSFORMERS = Version("5.17")


def require_transformers(version: str) -> None:
    """Refuses an older transformers at start, by name: one without Gemma 4 would fail further
    down with an ImportError that does not say why, and one before 5.17 is not the Gemma 4 (its
    MoE experts, its vision-bidirectional mask) these configs were checked against."""
    if Version(version).release < MIN_TRANSFORMERS.release:
        raise SystemExit(
            f"gemma4_bench: needs transformers >= {MIN_TRANSFORMERS} (Gemma 4), this Python has "
            f"transformers {version} ({sys.executable}); nothing was measured"
        )


require_transformers(transformers.__version__)

# Imported after the version check: an older transformers lacks these names.
from gemma4_configs import CONFIGS, TINY_CONFIGS  # noqa: E402
from transformers import (  # noqa: E402
    Gemma4Config,
    Gemma4ForConditionalGeneration,
    Gemma4VisionConfig,
    StaticCache,
)

REPO_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_OUT = REPO_ROOT / "var" / "bench" / "gpu"  # var/ is git-ignored: results are not the tree's
DATA = yaml.safe_load((Path(__file__).resolve().parent / "passes.yaml").read_text(encoding="utf-8"))
FULL_BATCHES = (1, 2, 4, 8, 16, 32, 64, 128)
TINY_BATCHES = (1, 2, 4)
PAGE_ASPECT = 1.43  # portrait page, height / width (A4 is 1.41)
FIRST_TEXT_ID = 3  # skip pad / eos / bos
LAST_TEXT_ID = 255_000  # below Gemma 4's special ids (begin-of-image 255,999, image 258,880, ...)
DECODE_WARMUP_STEPS = 4
# A decode batch size is started only with this many times the previous one's duration left: the
# next one (twice the batch) takes up to about twice as long, mostly its prefill.
NEXT_LEVEL_FACTOR = 2.0
# The extraction pass (the 26B-A4B, measured first) may spend this share of the time budget; the
# classification pass (the E4B on short prompts, far cheaper) the rest.
EXTRACT_BUDGET_SHARE = 0.6
# Room a model needs beyond its weights to run batch 1 (caches, activations, CUDA context).
RUN_MARGIN_GIB = 4.0
T = TypeVar("T")


@dataclass(frozen=True)
class Pass:
    """One model call per page as doc_pipeline makes it (``passes.yaml``). The prompt is
    the page's soft tokens between begin- and end-of-image, after the first ``text_before_image``
    text tokens; ``answer_tokens`` are decoded (an estimate), the cache holds ``max_answer_tokens``
    (the call's cap)."""

    role: str
    model: str
    soft_tokens: int
    text_tokens: int
    answer_tokens: int
    max_answer_tokens: int

    @property
    def prompt_tokens(self) -> int:
        return self.soft_tokens + DATA["tokens_around_image"] + self.text_tokens

    @property
    def image_start(self) -> int:
        return DATA["text_before_image"] + 1  # after the begin-of-image token

    def describe(self) -> str:
        return (
            f"{self.role}: {self.model}, the page at {self.soft_tokens} soft tokens in a "
            f"{self.prompt_tokens}-token prompt, {self.answer_tokens} tokens decoded "
            f"(at most {self.max_answer_tokens})"
        )


PIPELINE_PASSES = tuple(Pass(role=role, **raw) for role, raw in DATA["passes"].items())
TINY_PASSES = (
    Pass("extract", "26B-A4B", soft_tokens=70, text_tokens=24, answer_tokens=12, max_answer_tokens=16),
    Pass("classify", "E4B", soft_tokens=18, text_tokens=24, answer_tokens=4, max_answer_tokens=6),
)


@contextlib.contextmanager
def default_dtype(dtype: torch.dtype) -> Iterator[None]:
    """Parameters are created in ``dtype`` instead of fp32-then-cast: a 26B model in fp32 would
    need twice the memory and time just to be thrown away."""
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


def parameter_count(config: Gemma4Config) -> int:
    """Counted on the meta device: no memory, no time."""
    return sum(p.numel() for p in build_model(config, torch.device("meta")).parameters())


def lack_of_room(parameters: int, free_gib: float) -> str | None:
    """Why a model of ``parameters`` cannot be built in bf16 with ``free_gib`` free (its weights
    and ``RUN_MARGIN_GIB``), or None: the pass is then reported as not measured, nothing scaled
    down stands in for it (fewer experts would read less memory per step than the real model)."""
    need = parameters * 2 / 2**30 + RUN_MARGIN_GIB
    if need <= free_gib:
        return None
    return (
        f"needs {need:.1f} GiB in bf16 (weights + {RUN_MARGIN_GIB:.0f} GiB to run), {free_gib:.1f} GiB free"
    )


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
    """The vision tower + its projection into the text model, as the call runs it."""
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


@dataclass(frozen=True)
class Prompts:
    """A batch of the pass's prompts: random text ids, and the page's soft tokens marked as image
    tokens (``mm_token_type_ids`` 1), which is what gives the 26B-A4B its bidirectional image
    block. The soft tokens are text ids here: past the embedding lookup the decoder does the same
    work for both (the merge is one ``masked_scatter``)."""

    ids: torch.Tensor
    image_types: torch.Tensor

    @classmethod
    def random(cls, batch: int, work: Pass, vocab: int, device: torch.device) -> Prompts:
        ids = torch.randint(
            FIRST_TEXT_ID, min(vocab, LAST_TEXT_ID), (batch, work.prompt_tokens), device=device
        )
        image_types = torch.zeros_like(ids)
        image_types[:, work.image_start : work.image_start + work.soft_tokens] = 1
        return cls(ids, image_types)


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
    model: Gemma4ForConditionalGeneration, prompts: Prompts, cache: StaticCache
) -> tuple[torch.Tensor, torch.Tensor]:
    """Runs the prompts into ``cache``; only the last position's logits are computed."""
    logits = model(
        input_ids=prompts.ids,
        mm_token_type_ids=prompts.image_types,
        past_key_values=cache,
        use_cache=True,
        logits_to_keep=1,
    ).logits
    return sample(logits[:, -1])


def measure_prefill(
    model: Gemma4ForConditionalGeneration, batch: int, work: Pass, repeats: int, device: torch.device
) -> dict[str, Any]:
    prompts = Prompts.random(batch, work, model.config.text_config.vocab_size, device)
    cache = new_cache(model, work.prompt_tokens)

    def run() -> tuple[torch.Tensor, torch.Tensor]:
        cache.reset()
        return prefill(model, prompts, cache)

    seconds, _ = timed(device, run, repeats)
    return {
        "batch": batch,
        "prompt_tokens": work.prompt_tokens,
        "ms_per_call": 1000 * seconds,
        "tokens_per_s": batch * work.prompt_tokens / seconds,
    }


def measure_decode(
    model: Gemma4ForConditionalGeneration, batch: int, work: Pass, steps: int, device: torch.device
) -> dict[str, Any]:
    """Prefills ``batch`` of the pass's prompts, then times ``steps`` greedy decode steps (after a
    few untimed ones) against a static cache sized for the call's longest answer."""
    warmup = DECODE_WARMUP_STEPS
    context = work.prompt_tokens + max(work.max_answer_tokens, warmup + steps)
    if device.type == "cuda":
        torch.cuda.reset_peak_memory_stats(device)
    cache = new_cache(model, context)
    prompts = Prompts.random(batch, work, model.config.text_config.vocab_size, device)
    synchronize(device)
    started = time.perf_counter()
    token, _ = prefill(model, prompts, cache)
    synchronize(device)
    prefill_s = time.perf_counter() - started
    position = torch.full((batch, 1), work.prompt_tokens, device=device)
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


def page_seconds(passes: dict[str, dict[str, Any]], batch: int) -> dict[str, float]:
    """GPU seconds a one-page document takes, by pass and phase, at decode batch ``batch``: each
    pass's vision tower once, its prompt at the measured prefill tokens/s, its answer at the
    measured step time shared by the batch; passes and phases one after another."""
    phases = {}
    for role, measured in passes.items():
        work = measured["pass"]
        step_ms = next(level["step_ms"] for level in measured["decode"] if level["batch"] == batch)
        phases[f"{role}_vision"] = measured["vision"]["ms_per_page"] / 1000
        phases[f"{role}_prefill"] = work["prompt_tokens"] / measured["prefill"]["tokens_per_s"]
        phases[f"{role}_decode"] = work["answer_tokens"] * step_ms / 1000 / batch
    return phases


def throughput(phases: dict[str, float], usd_per_hour: float) -> dict[str, float]:
    seconds = sum(phases.values())
    return {
        "pages_per_s": 1 / seconds,
        "usd_per_1000_pages": 1000 * seconds / 3600 * usd_per_hour,
        **{f"{phase}_ms_per_page": 1000 * value for phase, value in phases.items()},
    }


def b200_estimate(
    phases: dict[str, float], batch: int, card: Card | None, device_name: str, usd_per_hour: float
) -> dict[str, Any]:
    reason = no_estimate(device_name, card)
    if reason is not None or card is None:
        return {"label": reason, "scaled_from": None}
    ratios = {bound: card.figure(bound) / TARGET.figure(bound) for bound in ("compute", "bandwidth")}
    return {
        "label": f"ESTIMATE, not measured: the phases measured on the {card.label} scaled by published "
        f"{card.label}/{TARGET.label} ratios (vision + prefill by bf16 dense TFLOPS "
        f"{ratios['compute']:.3f}, decode by HBM bandwidth {ratios['bandwidth']:.3f})",
        "scaled_from": card.label,
        "ratios": ratios,
        "batch": batch,
        "usd_per_gpu_hour": usd_per_hour,
        **throughput(scale_phases(phases, card, TARGET), usd_per_hour),
    }


def derive(report: dict[str, Any], usd_per_hour: float, b200_usd_per_hour: float) -> None:
    """Fills ``pages`` (per decode batch size measured in every pass of the page model: none
    while one is still to come or was not measured) and ``best`` / ``b200_estimate``."""
    passes = report["passes"]
    roles = report["page_model"]["passes"]
    measured = [passes[role] for role in roles if "decode" in passes.get(role, {})]
    batches = sorted(
        set.intersection(*({level["batch"] for level in p["decode"]} for p in measured))
        if len(measured) == len(roles)
        else set()
    )
    rows = []
    for batch in batches:
        phases = page_seconds(passes, batch)
        rows.append({"batch": batch, "phases": phases, **throughput(phases, usd_per_hour)})
    report["pages"] = [{k: v for k, v in row.items() if k != "phases"} for row in rows]
    if not rows:
        return
    best = max(rows, key=lambda row: row["pages_per_s"])
    report["best"] = {k: v for k, v in best.items() if k != "phases"} | {"usd_per_gpu_hour": usd_per_hour}
    card = CARDS.get(report["machine"]["card"] or "")
    report["b200_estimate"] = b200_estimate(
        best["phases"], best["batch"], card, report["machine"]["device"], b200_usd_per_hour
    )


def markdown(report: dict[str, Any]) -> str:
    """The same report as a short page."""
    machine = report["machine"]
    lines = [
        f"# Gemma 4 pipeline passes on {machine['device']} ({report['label']})",
        "",
        f"Card: {machine['card_label'] or 'not recognised'}; torch {machine['torch']}, "
        f"transformers {machine['transformers']}.",
        "",
        f"Page model: {report['page_model']['description']}",
        "",
    ]
    for role, measured in report["passes"].items():
        lines.append(f"## {role}: {measured['model']['description']}")
        if "skipped" in measured:
            lines += ["", f"Not measured: {measured['skipped']}.", ""]
            continue
        lines += [
            "",
            f"- Vision tower: {measured['vision']['ms_per_page']:.1f} ms/page "
            f"({measured['vision']['soft_tokens_per_page']} soft tokens, "
            f"{measured['vision']['pages_per_call']} pages per call)",
            f"- Prefill: {measured['prefill']['tokens_per_s']:,.0f} tokens/s "
            f"(batch {measured['prefill']['batch']} x {measured['prefill']['prompt_tokens']} tokens)",
            "",
            "| decode batch | step ms | decode tokens/s |",
            "|---:|---:|---:|",
            *(
                f"| {level['batch']} | {level['step_ms']:.2f} | {level['tokens_per_s']:,.0f} |"
                for level in measured["decode"]
            ),
            "",
        ]
        if measured.get("stopped"):
            lines += [f"Stopped early: {measured['stopped']}.", ""]
    lines += ["## A page", "", "| decode batch | pages/s | $ / 1000 pages |", "|---:|---:|---:|"]
    lines += [
        f"| {page['batch']} | {page['pages_per_s']:.2f} | {page['usd_per_1000_pages']:.4f} |"
        for page in report["pages"]
    ]
    if "best" in report:
        best, b200 = report["best"], report["b200_estimate"]
        lines += [
            "",
            f"**Best: {best['pages_per_s']:.2f} pages/s at decode batch {best['batch']}, "
            f"${best['usd_per_1000_pages']:.4f} per 1000 pages at ${best['usd_per_gpu_hour']:.2f}/GPU-hour.**",
            "",
        ]
        if b200["scaled_from"] is None:
            lines.append(b200["label"] + ".")
        else:
            lines.append(
                f"{TARGET.label} {b200['label']}: {b200['pages_per_s']:.2f} pages/s, "
                f"${b200['usd_per_1000_pages']:.4f} per 1000 pages at ${b200['usd_per_gpu_hour']:.2f}/GPU-hour."
            )
    lines += [
        "",
        "Published figures: " + "; ".join(f"{s['label']}: {s['source']}" for s in report["published"]),
    ]
    return "\n".join(lines) + "\n"


def write(report: dict[str, Any], out: Path) -> tuple[Path, Path]:
    out.mkdir(parents=True, exist_ok=True)
    json_path, md_path = out / f"gpu_{report['label']}.json", out / f"gpu_{report['label']}.md"
    json_path.write_text(json.dumps(report, indent=2) + "\n")
    md_path.write_text(markdown(report))
    return json_path, md_path


def machine(device: torch.device) -> dict[str, Any]:
    """The device, and the card it is recognised as (``identify``), or None."""
    if device.type == "cuda":
        name = torch.cuda.get_device_name(device)
        properties = torch.cuda.get_device_properties(device)
        capability: tuple[int, int] | None = (properties.major, properties.minor)
        details = {
            "compute_capability": [properties.major, properties.minor],
            "memory_gib": properties.total_memory / 2**30,
            "multiprocessors": properties.multi_processor_count,
        }
    else:
        name, capability, details = "CPU", None, {}
    card = identify(name, capability)
    return {
        "device": name,
        **details,
        "card": card.key if card else None,
        "card_label": card.label if card else None,
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
    parser.add_argument("--tiny", action="store_true", help="tiny stand-in models (CPU plumbing check)")
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
        "--budget-s",
        type=float,
        default=420.0,
        help=f"start no decode batch size past this (s); the extraction pass gets {EXTRACT_BUDGET_SHARE:.0%}",
    )
    parser.add_argument("--usd-per-hour", type=float, default=3.50, help="$/GPU-hour of the card measured")
    parser.add_argument(
        "--b200-usd-per-hour", type=float, default=5.50, help="$/GPU-hour for the B200 estimate"
    )
    parser.add_argument("--label", help="results name: gpu_<label>.json (default: device and UTC time)")
    parser.add_argument(
        "--out", type=Path, default=DEFAULT_OUT, help="results folder (default var/bench/gpu, git-ignored)"
    )
    args = parser.parse_args(argv)
    args.batches = args.batches or list(TINY_BATCHES if args.tiny else FULL_BATCHES)
    args.decode_steps = args.decode_steps or (8 if args.tiny else 64)
    if args.device == "cuda" and not torch.cuda.is_available():
        parser.error("--device cuda: torch sees no CUDA GPU")
    if args.device == "cpu" and not args.tiny:
        parser.error("Gemma 4 on CPU is no measurement; use --tiny")
    return args


def log(message: str) -> None:
    print(f"[gemma4_bench] {message}", file=sys.stderr, flush=True)


def describe_model(model: Gemma4ForConditionalGeneration, name: str) -> dict[str, Any]:
    text = model.config.text_config
    parameters = sum(p.numel() for p in model.parameters())
    experts = (
        f", {text.num_experts} experts (top {text.top_k_experts}, {model.config._experts_implementation})"
        if text.enable_moe_block
        else ""
    )
    return {
        "name": name,
        "description": f"Gemma 4 {name} architecture, random bf16 weights, {parameters:,} parameters"
        f"{experts}, no audio tower, attention {model.config._attn_implementation}, eager PyTorch",
        "parameters": parameters,
        "layers": text.num_hidden_layers,
        "kv_shared_layers": text.num_kv_shared_layers,
        "experts": text.num_experts if text.enable_moe_block else 0,
        "top_k_experts": text.top_k_experts if text.enable_moe_block else 0,
        "sliding_window": text.sliding_window,
        "vocab": text.vocab_size,
    }


def measure_decode_levels(
    model: Gemma4ForConditionalGeneration,
    args: argparse.Namespace,
    work: Pass,
    report: dict[str, Any],
    deadline: float,
) -> None:
    """Decode batch sizes in the order given, each written out as soon as it is measured, until
    the time budget would be overrun or memory runs out; the pass's ``stopped`` says which."""
    measured = report["passes"][work.role]
    last_level_s = 0.0
    for index, batch in enumerate(args.batches):
        left = deadline - time.perf_counter()
        if left <= 0 or left < NEXT_LEVEL_FACTOR * last_level_s:
            measured["stopped"] = f"time budget; not measured: batch {args.batches[index:]}"
            return
        level_started = time.perf_counter()
        try:
            level = measure_decode(model, batch, work, args.decode_steps, torch.device(args.device))
        except torch.OutOfMemoryError:
            measured["stopped"] = (
                f"out of memory at decode batch {batch}; not measured: {args.batches[index:]}"
            )
            return
        last_level_s = time.perf_counter() - level_started
        measured["decode"].append(level)
        log(f"{work.role} decode batch {batch}: {level['step_ms']:.2f} ms/step ({last_level_s:.1f} s)")
        derive(report, args.usd_per_hour, args.b200_usd_per_hour)
        write(report, args.out)


def measure_pass(
    work: Pass, config: Gemma4Config, args: argparse.Namespace, report: dict[str, Any], deadline: float
) -> None:
    """One pass on its own model, built here and freed after, so the two models never share the
    card: the 26B-A4B in bf16 alone takes most of an 80 GB one."""
    device = torch.device(args.device)
    name = f"tiny stand-in for {work.model}" if args.tiny else work.model
    pass_info = {"description": work.describe(), "prompt_tokens": work.prompt_tokens, **asdict(work)}
    lack = (
        lack_of_room(parameter_count(config), torch.cuda.mem_get_info(device)[0] / 2**30)
        if device.type == "cuda"
        else None
    )
    if lack is not None:
        report["passes"][work.role] = {
            "pass": pass_info,
            "model": {"name": name, "description": f"Gemma 4 {name} (not built)"},
            "skipped": f"{work.model} {lack}",
        }
        log(f"{work.role}: {work.model} not built, {lack}")
        return
    started = time.perf_counter()
    model = build_model(config, device)
    measured: dict[str, Any] = {
        "pass": pass_info,
        "model": describe_model(model, name),
        "decode": [],
        "stopped": None,
    }
    report["passes"][work.role] = measured
    log(
        f"{work.role}: {name}, {measured['model']['parameters']:,} parameters, built in "
        f"{time.perf_counter() - started:.0f} s"
    )
    with torch.inference_mode():
        measured["vision"] = measure_vision(model, args.vision_batch, work.soft_tokens, args.repeats, device)
        measured["prefill"] = measure_prefill(model, args.prefill_batch, work, args.repeats, device)
        log(
            f"{work.role}: vision {measured['vision']['ms_per_page']:.2f} ms/page, "
            f"prefill {measured['prefill']['tokens_per_s']:,.0f} tokens/s"
        )
        measure_decode_levels(model, args, work, report, deadline)
    del model
    gc.collect()
    if device.type == "cuda":
        torch.cuda.empty_cache()


def summary(report: dict[str, Any], json_path: Path, md_path: Path) -> dict[str, Any]:
    """The one line printed last: where the files are and the numbers that matter."""
    passes = report["passes"]
    return {
        "label": report["label"],
        "device": report["machine"]["device"],
        "card": report["machine"]["card_label"],
        "json": str(json_path),
        "md": str(md_path),
        "passes": {
            role: {"skipped": p["skipped"]}
            if "skipped" in p
            else {
                "vision_ms_per_page": p["vision"]["ms_per_page"],
                "prefill_tokens_per_s": p["prefill"]["tokens_per_s"],
                "decode_step_ms": {str(level["batch"]): level["step_ms"] for level in p["decode"]},
                "stopped": p["stopped"],
            }
            for role, p in passes.items()
        },
        "best": report.get("best"),
        "b200_estimate": report.get("b200_estimate", {}).get("pages_per_s"),
        "b200_estimate_label": report.get("b200_estimate", {}).get("label"),
        "elapsed_s": report["elapsed_s"],
    }


def main(argv: Sequence[str] | None = None) -> int:
    started = time.perf_counter()
    args = parse_args(argv)
    device = torch.device(args.device)
    passes, configs = (TINY_PASSES, TINY_CONFIGS) if args.tiny else (PIPELINE_PASSES, CONFIGS)
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())  # not datetime.UTC: Python 3.10 too
    report: dict[str, Any] = {
        "label": args.label or f"{'tiny' if args.tiny else 'pipeline'}-{args.device}-{stamp}",
        "started_utc": stamp,
        "machine": machine(device),
        "page_model": {
            "description": "1 one-page document = "
            + " + ".join(work.describe() for work in passes)
            + "; calls and phases one after another, decode steps shared by the batch",
            "passes": [work.role for work in passes],
        },
        "published": [asdict(card) for card in CARDS.values()],
        "passes": {},
        "pages": [],
    }
    card = CARDS.get(report["machine"]["card"] or "")
    unmeasured = "no estimate yet: no decode batch size measured in every pass"
    report["b200_estimate"] = {
        "label": no_estimate(report["machine"]["device"], card) or unmeasured,
        "scaled_from": None,
    }
    log(f"device {report['machine']['device']}: {report['machine']['card_label'] or 'no published figures'}")
    for work in passes:
        share = EXTRACT_BUDGET_SHARE if work.role == "extract" else 1.0
        measure_pass(work, configs[work.model](), args, report, deadline=started + share * args.budget_s)
    derive(report, args.usd_per_hour, args.b200_usd_per_hour)
    report["elapsed_s"] = time.perf_counter() - started
    print(json.dumps(summary(report, *write(report, args.out))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
