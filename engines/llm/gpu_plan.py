"""Will the Gemma 4 stack fit on a GPU, and how many documents can it hold at once?

``manage.py gpu_plan`` prints this for each GPU type. Per model it adds up:

* **weights** by precision: the language model's linear layers in the chosen format (NVFP4 =
  4 bits + one FP8 scale per 16 values = 4.5 bits; FP8 8; BF16 16). ``nvfp4_mlp_only`` (Model
  Optimizer's preset, what ``scripts/gpu/quantize.sh`` writes on Blackwell) quantises the MLP and
  expert layers only and keeps attention in BF16. Embeddings, Gemma's per-layer embeddings (PLE),
  the vision and audio towers stay BF16 (the vision tower is not quantised, ARCHITECTURE §3.5);
* **KV cache** per document: K and V for every layer that keeps its own cache (E2B/E4B share
  the KV of their last ``kv_shared_layers`` layers), sliding layers capped at their window only
  with ``window_aware`` (whether the runtime allocates them so is not assumed by default);
* **activations**: TensorRT-LLM reserves them for ``max_num_tokens`` tokens in flight, plus the
  FP32 logits of ``max_batch_size`` rows (log-probs need them) and the vision encoder's peak;
* a fixed **runtime overhead** per model process (CUDA context, cuBLAS workspaces, CUDA graphs)
  and a **headroom** share of the GPU left free.

The engine limits written in each ``model.yaml`` come from here too (:func:`engine_limits`): a
sequence must hold ``MAX_IMAGES_PER_CALL`` pages of ``IMAGE_TOKENS`` soft tokens, the prompt and
the answer, and a test checks the committed files agree.

The parameter counts are computed from each model's architecture (transformers'
``convert_gemma4_weights.py`` variant configs, as data in ``engines/knowledge/gpu_plan.toml``
with the GPUs) and checked against the published totals in the tests; every number is an estimate to plan with, not a measurement (model_repo/TENSORRT_LLM.md
says where each one comes from). Pure Python, no GPU needed.
"""

from __future__ import annotations

import json
import math
import tomllib
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from engines.llm.page_budget import TOKENS_AROUND_IMAGE  # begin- and end-of-image tokens around a page
from engines.llm.pipeline import EXTRACT_MAX_TOKENS

GIB = 1024**3
MIB = 1024**2
BYTES_PER_PARAM = {"nvfp4": 4.5 / 8, "fp8": 1.0, "bf16": 2.0}
PRECISIONS = ("nvfp4_mlp_only", "nvfp4", "fp8", "bf16")
KV_BYTES = {"fp8": 1, "bf16": 2}
# Every page is read at the checkpoint's processor_config.json budget (TensorRT-LLM's Gemma 4 input
# processor takes no per-request budget): at most this many soft tokens, fewer for odd aspect ratios.
IMAGE_TOKENS = 1120
MAX_IMAGES_PER_CALL = 4  # doc_pipeline's max_images_per_call: pages of one extraction call
PROMPT_TOKENS = 900  # chat template, instruction and JSON Schema of the longest extraction prompt
ANSWER_TOKENS = EXTRACT_MAX_TOKENS  # sampling_param_max_tokens of an extraction call
PATCHES_PER_SOFT_TOKEN = 9  # pooling kernel 3x3
TOKENS_PER_BLOCK = 32  # TensorRT-LLM's default KV block
MAX_NUM_TOKENS = 16_384  # model.yaml max_num_tokens: tokens one engine step schedules
MAX_BATCH_SIZE = 64  # model.yaml max_batch_size: requests in flight per model


@dataclass(frozen=True)
class ModelSpec:
    """A Gemma 4 text decoder plus its towers (transformers' variant configs)."""

    name: str
    triton_name: str
    hidden: int
    intermediate: int
    layers: int
    pattern: int  # one full-attention layer every `pattern` layers, the others sliding
    heads: int
    kv_heads: int  # sliding layers
    global_kv_heads: int  # full-attention layers
    sliding_window: int
    head_dim: int = 256
    global_head_dim: int = 512
    k_eq_v: bool = False  # full-attention layers: keys double as values (no v_proj)
    kv_shared_layers: int = 0  # the last layers reuse earlier layers' KV
    double_wide_layers: int = 0  # layers whose MLP is twice as wide (E2B)
    ple_dim: int = 0  # per-layer embedding width
    experts: int = 0
    top_k: int = 0
    moe_intermediate: int = 0
    vision_hidden: int = 768
    vision_params: float = 0.0
    audio_params: float = 0.0
    vocab: int = 262_144
    published_total: float = 0.0  # parameters, as the model card states
    published_active: float = 0.0

    def layer_is_global(self, index: int) -> bool:
        return (index + 1) % self.pattern == 0 or index == self.layers - 1

    def attention_params(self) -> int:
        total = 0
        for i in range(self.layers):
            if self.layer_is_global(i):
                hd, kvh = self.global_head_dim, self.global_kv_heads
                v = 0 if self.k_eq_v else self.hidden * kvh * hd
            else:
                hd, kvh = self.head_dim, self.kv_heads
                v = self.hidden * kvh * hd
            total += 2 * self.hidden * self.heads * hd + self.hidden * kvh * hd + v
        return total

    def mlp_params(self, *, active: bool = False) -> int:
        dense = 3 * self.hidden * self.intermediate
        if self.experts:
            experts = (self.top_k if active else self.experts) * 3 * self.hidden * self.moe_intermediate
            return self.layers * (experts + dense + self.hidden * self.experts)
        return self.layers * dense + self.double_wide_layers * dense

    def linear_params(self) -> int:
        """The layers a quantiser converts (attention and MLP/experts of the text decoder)."""
        return self.attention_params() + self.mlp_params()

    def bf16_params(self) -> float:
        """Embeddings (tied with the output head), PLE tables and the towers: kept in BF16."""
        return (
            self.vocab * self.hidden
            + self.vocab * self.layers * self.ple_dim
            + self.vision_params
            + self.audio_params
        )

    def total_params(self) -> float:
        return self.linear_params() + self.bf16_params()

    def active_params(self) -> float:
        """Parameters one token passes through (no PLE lookups, no towers): 'effective' sizes."""
        return self.attention_params() + self.mlp_params(active=True) + self.vocab * self.hidden

    def kv_bytes_per_sequence(
        self, context: int, *, kv_dtype: str = "fp8", window_aware: bool = False
    ) -> int:
        tokens = math.ceil(context / TOKENS_PER_BLOCK) * TOKENS_PER_BLOCK
        total = 0
        for i in range(self.layers - self.kv_shared_layers):
            if self.layer_is_global(i):
                per_token = 2 * self.global_kv_heads * self.global_head_dim
                kept = tokens
            else:
                per_token = 2 * self.kv_heads * self.head_dim
                kept = min(tokens, self.sliding_window) if window_aware else tokens
            total += per_token * kept * KV_BYTES[kv_dtype]
        return total


_DATA = tomllib.loads(
    (Path(__file__).resolve().parent.parent / "knowledge" / "gpu_plan.toml").read_text(encoding="utf-8")
)


def _model(name: str, raw: dict[str, Any]) -> ModelSpec:
    layers, hidden, mlp = raw.pop("vision_tower")
    return ModelSpec(name=name, vision_params=layers * (4 * hidden * hidden + 3 * hidden * mlp), **raw)


MODELS: dict[str, ModelSpec] = {name: _model(name, dict(raw)) for name, raw in _DATA["models"].items()}


def sequence_tokens(pages: int) -> int:
    """Tokens one extraction call holds: its pages at the full image budget, prompt and answer."""
    return pages * (IMAGE_TOKENS + TOKENS_AROUND_IMAGE) + PROMPT_TOKENS + ANSWER_TOKENS


@dataclass(frozen=True)
class EngineLimits:
    """``model.yaml``'s ``max_seq_len``, ``max_num_tokens`` and ``max_batch_size``."""

    max_seq_len: int
    max_num_tokens: int
    max_batch_size: int


def engine_limits(pages: int = MAX_IMAGES_PER_CALL) -> EngineLimits:
    """The limits both Gemma models are configured with: a sequence of ``pages`` pages rounded up
    to whole KV blocks, and a step wide enough to prefill the longest prompt in one go (chunked
    prefill stays off: the 26B's image blocks attend bidirectionally)."""
    max_seq_len = math.ceil(sequence_tokens(pages) / TOKENS_PER_BLOCK) * TOKENS_PER_BLOCK
    if max_seq_len > MAX_NUM_TOKENS:
        raise ValueError(f"max_num_tokens {MAX_NUM_TOKENS} cannot prefill {max_seq_len} tokens")
    return EngineLimits(max_seq_len, MAX_NUM_TOKENS, MAX_BATCH_SIZE)


@dataclass(frozen=True)
class GpuSpec:
    name: str
    memory_gib: float  # what the driver reports as total (nvidia-smi), not the marketing figure
    fp4: bool  # Blackwell tensor cores: NVFP4
    source: str
    # TensorRT-LLM's PyTorch backend has no head_dim-512 attention kernel for SM90 (Hopper): Gemma 4
    # is served there by vLLM or SGLang instead (model_repo/TENSORRT_LLM.md).
    trtllm_gemma4: bool = True


def _gpu(name: str, raw: dict[str, Any]) -> GpuSpec:
    return GpuSpec(name, raw.pop("memory_mib") * MIB / GIB, **raw)


GPUS: dict[str, GpuSpec] = {name: _gpu(name, dict(raw)) for name, raw in _DATA["gpus"].items()}


@dataclass(frozen=True)
class Settings:
    concurrency: int = 64  # documents in flight per model (the target)
    pages: int = 1  # pages per extraction call
    precision: str = "auto"  # nvfp4_mlp_only on Blackwell, fp8 on Hopper
    kv_dtype: str = "fp8"
    window_aware: bool = False
    max_num_tokens: int = MAX_NUM_TOKENS
    max_batch_size: int = MAX_BATCH_SIZE
    runtime_overhead_gib: float = 3.0  # per model process
    headroom: float = 0.08  # of the GPU, left unallocated

    @property
    def context(self) -> int:
        return sequence_tokens(self.pages)


@dataclass(frozen=True)
class ModelPlan:
    model: str
    precision: str
    weights_gib: float
    activations_gib: float
    overhead_gib: float
    kv_per_document_mib: float
    kv_gib: float = 0.0
    max_concurrency: int = 0
    free_gpu_memory_fraction: float = 0.0  # model.yaml kv_cache_config value, in load order


@dataclass(frozen=True)
class GpuPlan:
    gpu: str
    memory_gib: float
    headroom_gib: float
    fits: bool
    models: list[ModelPlan] = field(default_factory=list)
    note: str = ""
    trtllm_gemma4: bool = True


def precision_for(gpu: GpuSpec, requested: str) -> str:
    if requested == "auto":
        return "nvfp4_mlp_only" if gpu.fp4 else "fp8"
    if requested not in PRECISIONS:
        raise ValueError(f"precision must be one of {', '.join(PRECISIONS)}")
    if requested.startswith("nvfp4") and not gpu.fp4:
        raise ValueError(f"{gpu.name} has no FP4 tensor cores: use fp8 or bf16")
    return requested


def weights_bytes(spec: ModelSpec, precision: str) -> float:
    bf16 = BYTES_PER_PARAM["bf16"]
    if precision == "nvfp4_mlp_only":  # attention kept in BF16
        linear = spec.attention_params() * bf16 + spec.mlp_params() * BYTES_PER_PARAM["nvfp4"]
    else:
        linear = spec.linear_params() * BYTES_PER_PARAM[precision]
    return linear + spec.bf16_params() * bf16


def activation_bytes(spec: ModelSpec, settings: Settings) -> float:
    """What the runtime reserves for a full step: hidden states and MLP intermediates of
    ``max_num_tokens`` tokens (BF16), FP32 logits of ``max_batch_size`` rows, and the vision
    encoder over one batch of page images."""
    mlp_width = (
        2 * (spec.top_k * spec.moe_intermediate + spec.intermediate)
        if spec.experts
        else 2 * spec.intermediate
    )
    hidden_states = settings.max_num_tokens * (12 * spec.hidden + mlp_width) * 2
    logits = settings.max_batch_size * spec.vocab * 4
    images = max(1, settings.max_num_tokens // IMAGE_TOKENS)
    vision = images * IMAGE_TOKENS * PATCHES_PER_SOFT_TOKEN * spec.vision_hidden * 2 * 12
    return hidden_states + logits + vision


def plan(gpu_name: str, model_names: Sequence[str], settings: Settings = Settings()) -> GpuPlan:
    """The stack ``model_names`` (in load order) on one ``gpu_name``."""
    gpu = GPUS[gpu_name]
    precision = precision_for(gpu, settings.precision)
    specs = [MODELS[name] for name in model_names]
    total = gpu.memory_gib * GIB
    headroom = total * settings.headroom
    fixed = [
        ModelPlan(
            model=spec.name,
            precision=precision,
            weights_gib=weights_bytes(spec, precision) / GIB,
            activations_gib=activation_bytes(spec, settings) / GIB,
            overhead_gib=settings.runtime_overhead_gib,
            kv_per_document_mib=spec.kv_bytes_per_sequence(
                settings.context, kv_dtype=settings.kv_dtype, window_aware=settings.window_aware
            )
            / MIB,
        )
        for spec in specs
    ]
    used = sum((m.weights_gib + m.activations_gib + m.overhead_gib) * GIB for m in fixed)
    kv_total = total - headroom - used
    if kv_total <= 0:
        note = "the weights alone do not fit"
        return GpuPlan(gpu.name, gpu.memory_gib, headroom / GIB, False, fixed, note, gpu.trtllm_gemma4)
    # KV is shared in proportion to what each model needs for the target concurrency.
    demand = [m.kv_per_document_mib * MIB * settings.concurrency for m in fixed]
    plans = []
    free = total  # memory free before each model loads, in load order
    for model, need in zip(fixed, demand, strict=True):
        share = kv_total * need / sum(demand)
        free -= (model.weights_gib + model.activations_gib + model.overhead_gib) * GIB
        plans.append(
            ModelPlan(
                **{
                    **asdict(model),
                    "kv_gib": share / GIB,
                    "max_concurrency": int(share // (model.kv_per_document_mib * MIB)),
                    "free_gpu_memory_fraction": round(share / free, 3),
                }
            )
        )
        free -= share
    fits = all(p.max_concurrency >= settings.concurrency for p in plans)
    note = "" if fits else f"holds fewer than {settings.concurrency} documents per model"
    return GpuPlan(gpu.name, gpu.memory_gib, headroom / GIB, fits, plans, note, gpu.trtllm_gemma4)


def render(plans: Sequence[GpuPlan], settings: Settings) -> str:
    limits = engine_limits()
    lines = [
        f"context {settings.context} tokens per document ({settings.pages} page(s) x "
        f"{IMAGE_TOKENS + TOKENS_AROUND_IMAGE} image tokens + {PROMPT_TOKENS} prompt + {ANSWER_TOKENS} answer), "
        f"KV {settings.kv_dtype}"
        f"{', sliding layers capped at their window' if settings.window_aware else ''}, "
        f"target {settings.concurrency} documents in flight per model",
        f"model.yaml: max_seq_len {limits.max_seq_len} ({MAX_IMAGES_PER_CALL} pages), "
        f"max_num_tokens {limits.max_num_tokens}, max_batch_size {limits.max_batch_size}",
        "",
        f"{'gpu':<13}{'model':<16}{'prec':<16}{'weights':>9}{'activ.':>8}{'runtime':>8}{'KV/doc':>9}"
        f"{'KV':>8}{'max docs':>10}{'kv frac':>9}",
    ]
    for gpu_plan in plans:
        for model in gpu_plan.models:
            lines.append(
                f"{gpu_plan.gpu:<13}{model.model:<16}{model.precision:<16}{model.weights_gib:>8.1f}G"
                f"{model.activations_gib:>7.1f}G{model.overhead_gib:>7.1f}G{model.kv_per_document_mib:>7.0f}Mi"
                f"{model.kv_gib:>7.1f}G{model.max_concurrency:>10}{model.free_gpu_memory_fraction:>9.3f}"
            )
        verdict = "fits" if gpu_plan.fits else f"DOES NOT FIT: {gpu_plan.note}"
        lines.append(
            f"{gpu_plan.gpu:<13}{gpu_plan.memory_gib:.1f} GiB, {gpu_plan.headroom_gib:.1f} GiB headroom: {verdict}"
        )
        if not gpu_plan.trtllm_gemma4:
            lines.append(
                f"{gpu_plan.gpu:<13}TensorRT-LLM cannot serve Gemma 4 here (no head_dim-512 attention on SM90): "
                "vLLM or SGLang through DOCINTEL_MODEL_BACKEND=openai; sizes above are the models', "
                "not that server's plan"
            )
        lines.append("")
    lines.append(
        "kv frac: model.yaml kv_cache_config.free_gpu_memory_fraction, models loaded in the order listed."
    )
    return "\n".join(lines)


def to_json(plans: Sequence[GpuPlan]) -> str:
    return json.dumps([asdict(p) for p in plans], indent=2)
