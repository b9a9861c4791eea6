"""manage.py gpu_plan: model sizes from the architectures, memory arithmetic, the command."""

from __future__ import annotations

import json

import pytest
from django.core.management import CommandError, call_command

from engines.llm import gpu_plan
from engines.llm.gpu_plan import GIB, MIB, MODELS, Settings, plan


@pytest.mark.parametrize("name", sorted(MODELS))
def test_parameter_counts_from_the_architecture_match_the_published_sizes(name):
    spec = MODELS[name]
    assert spec.total_params() == pytest.approx(spec.published_total, rel=0.04)
    assert spec.active_params() == pytest.approx(spec.published_active, rel=0.04)


def test_kv_cache_per_token_by_hand_for_e4b():
    """E4B: 42 layers, the last 18 share KV; of the 24 cached, 20 sliding (2 KV heads x 256)
    and 4 global (2 x 512); K and V, FP8: 20*2*2*256 + 4*2*2*512 = 28,672 bytes per token."""
    spec = MODELS["gemma4-e4b"]
    assert spec.kv_bytes_per_sequence(32) == 32 * 28_672
    assert spec.kv_bytes_per_sequence(33) == 64 * 28_672  # whole blocks of 32 tokens
    assert spec.kv_bytes_per_sequence(32, kv_dtype="bf16") == 2 * 32 * 28_672
    # Sliding layers capped at 512 tokens when the runtime keeps only the window:
    assert (
        spec.kv_bytes_per_sequence(2048, window_aware=True) == 20 * 2 * 2 * 256 * 512 + 4 * 2 * 2 * 512 * 2048
    )


def test_weights_follow_the_precision_and_keep_embeddings_and_vision_in_bf16():
    spec = MODELS["gemma4-26b-a4b"]
    nvfp4 = gpu_plan.weights_bytes(spec, "nvfp4")
    fp8 = gpu_plan.weights_bytes(spec, "fp8")
    assert fp8 - nvfp4 == pytest.approx(spec.linear_params() * (1 - 4.5 / 8))
    assert nvfp4 > spec.bf16_params() * 2


@pytest.mark.parametrize("gpu", ["b200", "rtx-pro-6000", "h100", "h200"])
def test_the_production_stack_fits_and_the_memory_adds_up(gpu):
    settings = Settings()
    result = plan(gpu, ["gemma4-e4b", "gemma4-26b-a4b"], settings)
    assert result.fits
    used = sum(m.weights_gib + m.activations_gib + m.overhead_gib + m.kv_gib for m in result.models)
    assert used + result.headroom_gib == pytest.approx(result.memory_gib)
    for model in result.models:
        assert model.max_concurrency >= settings.concurrency
        assert model.max_concurrency * model.kv_per_document_mib * MIB <= model.kv_gib * GIB
        assert 0 < model.free_gpu_memory_fraction < 1


def test_blackwell_gets_nvfp4_mlp_only_and_hopper_fp8():
    assert plan("b200", ["gemma4-e4b"]).models[0].precision == "nvfp4_mlp_only"
    assert plan("h100", ["gemma4-e4b"]).models[0].precision == "fp8"
    for precision in ("nvfp4", "nvfp4_mlp_only"):
        with pytest.raises(ValueError, match="FP4"):
            plan("h100", ["gemma4-e4b"], Settings(precision=precision))
    with pytest.raises(ValueError, match="precision"):
        plan("b200", ["gemma4-e4b"], Settings(precision="int4"))


def test_nvfp4_mlp_only_keeps_attention_in_bf16():
    spec = MODELS["gemma4-26b-a4b"]
    mlp_only = gpu_plan.weights_bytes(spec, "nvfp4_mlp_only")
    nvfp4 = gpu_plan.weights_bytes(spec, "nvfp4")
    assert mlp_only - nvfp4 == pytest.approx(spec.attention_params() * (2 - 4.5 / 8))
    assert nvfp4 < mlp_only < gpu_plan.weights_bytes(spec, "fp8")


def test_engine_limits_hold_the_pages_of_one_extraction_call():
    """pages x (1120 soft tokens + the 2 around them) + ~900 prompt + the 512-token answer, in
    whole KV blocks."""
    assert gpu_plan.sequence_tokens(4) == 4 * (1120 + 2) + 900 + 512 == 5900
    limits = gpu_plan.engine_limits()
    assert limits.max_seq_len == 5920 and limits.max_seq_len % gpu_plan.TOKENS_PER_BLOCK == 0
    assert gpu_plan.engine_limits(1).max_seq_len >= gpu_plan.sequence_tokens(1)
    assert limits.max_num_tokens >= limits.max_seq_len
    assert Settings().context == gpu_plan.sequence_tokens(1)
    with pytest.raises(ValueError, match="prefill"):
        gpu_plan.engine_limits(16)


def test_hopper_is_planned_but_flagged_as_not_served_by_tensorrt_llm():
    settings = Settings()
    plans = [plan(gpu, ["gemma4-e4b", "gemma4-26b-a4b"], settings) for gpu in ("h100", "b200")]
    assert [p.trtllm_gemma4 for p in plans] == [False, True]
    out = gpu_plan.render(plans, settings)
    assert "h100         TensorRT-LLM cannot serve Gemma 4" in out and "b200         TensorRT-LLM" not in out
    assert "max_seq_len 5920" in out


def test_a_stack_too_big_for_the_gpu_says_so():
    result = plan("h100", ["gemma4-31b", "gemma4-26b-a4b", "gemma4-e4b"], Settings(precision="bf16"))
    assert not result.fits and "do not fit" in result.note


def test_more_pages_mean_fewer_documents_in_flight():
    one = plan("rtx-pro-6000", ["gemma4-e4b", "gemma4-26b-a4b"], Settings(pages=1)).models[1].max_concurrency
    four = plan("rtx-pro-6000", ["gemma4-e4b", "gemma4-26b-a4b"], Settings(pages=4)).models[1].max_concurrency
    assert four < one


def test_command_answers_for_b200_rtx_pro_6000_and_h100(capsys):
    call_command("gpu_plan")
    out = capsys.readouterr().out
    for gpu in ("b200", "rtx-pro-6000", "h100"):
        assert f"{gpu} " in out
    assert "fits" in out and "gemma4-26b-a4b" in out


def test_command_json_and_errors(capsys):
    call_command("gpu_plan", "--gpu", "h200", "--format", "json", "--concurrency", "8")
    data = json.loads(capsys.readouterr().out)
    assert data[0]["gpu"] == "h200" and data[0]["fits"] is True and data[0]["trtllm_gemma4"] is False
    with pytest.raises(CommandError, match="FP4"):
        call_command("gpu_plan", "--gpu", "h100", "--precision", "nvfp4")
