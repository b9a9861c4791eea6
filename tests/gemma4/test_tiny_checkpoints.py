"""The tiny Gemma 4 checkpoints exercise what the serving code depends on (scripts/vllm/tiny_gemma4.py).

Through the real vLLM: its chat tokenization of the checkpoint's template and tokenizer (one
``<bos>``, a system turn, ``<|turn>``/``<turn|>``, multi-digit and byte-fallback tokens; the
26B-A4B shape's empty thought block is checked where test_shapes.py serves that shape), and a
``<turn|>`` that ends the answer. From the files vLLM loads: the published config fields (head
sizes 256/512, KV heads per layer type, top-k experts), E4B's clipped linears with bounds held in
the weights, and the 26B-A4B's own vision tower.
"""

from __future__ import annotations

import json
import struct
from pathlib import Path

import httpx
import pytest

from tests.support.gemma4_engine import CHAT, assert_gemma_chat_prompt, tokenize_chat

pytestmark = [pytest.mark.integration, pytest.mark.slow]


def safetensors_scalars(path: Path, suffix: str) -> list[float]:
    """The bfloat16 scalars of ``path`` whose names end in ``suffix`` (read without torch)."""
    raw = path.read_bytes()
    size = struct.unpack("<Q", raw[:8])[0]
    header = json.loads(raw[8 : 8 + size])
    values = []
    for name, entry in header.items():
        if name.endswith(suffix) and entry["dtype"] == "BF16" and entry["shape"] == []:
            start, _ = entry["data_offsets"]
            (value,) = struct.unpack("<f", b"\0\0" + raw[8 + size + start : 8 + size + start + 2])
            values.append(value)
    return values


def test_vllm_tokenizes_the_chat_template_like_gemma_4(vllm_engine):
    tokens = tokenize_chat(vllm_engine.url, "gemma4-e4b", CHAT)
    assert_gemma_chat_prompt(tokens)
    assert tokens[-1] != "<channel|>"  # the E-series templates write no thought block


def test_turn_end_closes_the_answer(vllm_engine):
    """<turn|> ends a turn: favoured by a logit bias, it ends the answer at once and is not text."""
    from servers import vllm_server

    checkpoint = vllm_server.DEFAULT_CHECKPOINT
    turn_end = json.loads((checkpoint / "tokenizer_config.json").read_text())["eot_token"]
    vocab = json.loads((checkpoint / "tokenizer.json").read_text())["added_tokens"]
    turn_end_id = next(t["id"] for t in vocab if t["content"] == turn_end)
    response = httpx.post(
        f"{vllm_engine.url}/chat/completions",
        json={
            "model": "gemma4-e4b",
            "messages": CHAT,
            "max_tokens": 8,
            "logit_bias": {str(turn_end_id): 100},
        },
        timeout=60,
    )
    assert response.status_code == 200, response.text[:500]
    body = response.json()
    assert body["choices"][0]["finish_reason"] == "stop"
    assert body["choices"][0]["message"]["content"] == ""
    assert body["usage"]["completion_tokens"] == 1


def test_the_checkpoints_carry_the_published_fields_vllm_reads():
    from servers import vllm_server

    e4b_dir = vllm_server.DEFAULT_CHECKPOINT
    moe_dir = e4b_dir.with_name("tiny-gemma4-26b-a4b")
    e4b = json.loads((e4b_dir / "config.json").read_text())
    moe = json.loads((moe_dir / "config.json").read_text())
    for config in (e4b, moe):
        text = config["text_config"]
        assert (text["head_dim"], text["global_head_dim"]) == (256, 512)
        assert "per_layer_config" not in text  # transformers derives it on load, as from a real one
    shared = e4b["text_config"]["layer_types"][-e4b["text_config"]["num_kv_shared_layers"] :]
    assert set(shared) == {"sliding_attention", "full_attention"}
    text = moe["text_config"]
    assert text["attention_k_eq_v"] and text["num_global_key_value_heads"] < text["num_key_value_heads"]
    assert 1 < text["top_k_experts"] < text["num_experts"]

    assert e4b["vision_config"]["use_clipped_linears"]
    bounds = safetensors_scalars(e4b_dir / "model.safetensors", ".input_max")
    assert bounds and all(0 < bound < float("inf") for bound in bounds)
    assert moe["vision_config"]["standardize"] and not moe["vision_config"]["use_clipped_linears"]
    shape = ("hidden_size", "intermediate_size", "num_hidden_layers", "head_dim")
    assert [moe["vision_config"][k] for k in shape] != [e4b["vision_config"][k] for k in shape]
    assert moe["vision_config"]["intermediate_size"] % 64  # as the real one's 4304
