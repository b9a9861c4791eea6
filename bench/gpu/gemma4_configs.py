"""The Gemma 4 models the GPU benchmark builds, as ``Gemma4Config``s: the E4B (classification)
and the 26B-A4B (extraction) at their real sizes, and tiny stand-ins that run the same code paths
on a CPU in seconds. Needs transformers >= 5.17 (gemma4_bench.py checks it before importing this).
"""

from __future__ import annotations

from collections.abc import Callable

from transformers import Gemma4Config, Gemma4TextConfig, Gemma4VisionConfig


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


def a26b_config() -> Gemma4Config:
    """Gemma 4 26B-A4B as google/gemma-4-26B-A4B-it's config declares it (the values
    engines/knowledge/gpu_plan.toml plans with): 30 layers, 5 sliding (window 1024) : 1 global,
    16 heads, 8 KV heads of 256 on sliding layers and 2 of 512 on global ones where keys double as
    values, a shared MLP of 2112 beside 128 experts of 704 (top 8), image tokens attending
    bidirectionally, no per-layer embeddings; a 27-layer, 1152-wide vision tower."""
    text = Gemma4TextConfig(
        vocab_size=262_144,
        hidden_size=2816,
        hidden_size_per_layer_input=0,
        intermediate_size=2112,
        num_hidden_layers=30,
        layer_types=(["sliding_attention"] * 5 + ["full_attention"]) * 5,
        num_attention_heads=16,
        num_key_value_heads=8,
        num_global_key_value_heads=2,
        head_dim=256,
        global_head_dim=512,
        attention_k_eq_v=True,
        use_bidirectional_attention="vision",
        enable_moe_block=True,
        num_experts=128,
        top_k_experts=8,
        moe_intermediate_size=704,
        sliding_window=1024,
        max_position_embeddings=262_144,
        final_logit_softcapping=30.0,
    )
    vision = Gemma4VisionConfig(
        hidden_size=1152,
        intermediate_size=4304,
        num_hidden_layers=27,
        num_attention_heads=16,
        num_key_value_heads=16,
        head_dim=72,
        pooling_kernel_size=3,
        standardize=True,
    )
    return Gemma4Config(text_config=text, vision_config=vision, audio_config=None)


def tiny_vision() -> Gemma4VisionConfig:
    return Gemma4VisionConfig(
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=2,
        num_key_value_heads=2,
        head_dim=16,
        pooling_kernel_size=3,
        use_clipped_linears=True,
    )


def tiny_e4b_config() -> Gemma4Config:
    """The E4B's code paths at toy size: per-layer embeddings, KV sharing (the last two layers
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
    return Gemma4Config(text_config=text, vision_config=tiny_vision(), audio_config=None)


def tiny_26b_a4b_config() -> Gemma4Config:
    """The 26B-A4B's code paths at toy size: experts beside the shared MLP (4, top 2), keys as
    values on the global layers, the bidirectional image block longer than the sliding window."""
    text = Gemma4TextConfig(
        vocab_size=4096,
        vocab_size_per_layer_input=4096,
        hidden_size=64,
        hidden_size_per_layer_input=0,
        intermediate_size=128,
        num_hidden_layers=4,
        layer_types=["sliding_attention", "full_attention"] * 2,
        num_attention_heads=2,
        num_key_value_heads=1,
        num_global_key_value_heads=1,
        head_dim=32,
        global_head_dim=64,
        attention_k_eq_v=True,
        use_bidirectional_attention="vision",
        enable_moe_block=True,
        num_experts=4,
        top_k_experts=2,
        moe_intermediate_size=32,
        sliding_window=32,
        final_logit_softcapping=30.0,
    )
    return Gemma4Config(text_config=text, vision_config=tiny_vision(), audio_config=None)


CONFIGS: dict[str, Callable[[], Gemma4Config]] = {"26B-A4B": a26b_config, "E4B": e4b_config}
TINY_CONFIGS: dict[str, Callable[[], Gemma4Config]] = {"26B-A4B": tiny_26b_a4b_config, "E4B": tiny_e4b_config}
