"""Both Gemma 4 shapes DocIntel serves are real to vLLM: the 26B-A4B-shaped checkpoint too.

The session's engine serves the E4B shape (per-layer embeddings, KV-shared layers). This starts a
second server on the checkpoint shaped like 26B-A4B (mixture of experts, keys as values on global
layers, bidirectional attention over image tokens) and reads an identity document with it, after
checking how vLLM tokenizes its chat template (the generation prompt's empty thought block).
"""

from __future__ import annotations

import asyncio
import json

import jsonschema
import pytest

from engines.llm import pipeline
from engines.llm.model_client import ModelRequest, ModelSettings
from engines.llm.openai_backend import OpenAIBackend
from engines.llm.schemas import extraction_schema
from tests.gemma4.conftest import start_engine
from tests.support.gemma4_engine import CHAT, assert_gemma_chat_prompt, invoice_page_url, tokenize_chat

pytestmark = [pytest.mark.integration, pytest.mark.slow]


def test_the_moe_shaped_checkpoint_serves_guided_answers(tmp_path):
    from servers import vllm_server

    checkpoint = vllm_server.DEFAULT_CHECKPOINT.with_name("tiny-gemma4-26b-a4b")
    config = json.loads((checkpoint / "config.json").read_text())["text_config"]
    assert config["enable_moe_block"] and config["attention_k_eq_v"]
    engine = start_engine(checkpoint, tmp_path / "vllm-26b.log")
    try:
        tokens = tokenize_chat(engine.url, "gemma4-26b-a4b", CHAT)
        assert_gemma_chat_prompt(tokens)
        assert tokens[-1] == "<channel|>" and "<|channel>" in tokens  # the empty thought block
        settings = ModelSettings.from_sources({}, {"DOCINTEL_MODEL_URL": engine.url})
        schema = extraction_schema("passport")
        call = pipeline.plan_extraction("passport", schema, 1)

        async def read() -> pipeline.Generation:
            backend = OpenAIBackend(settings)
            try:
                return await backend.generate(
                    "gemma4-26b-a4b", ModelRequest("extract", call, (invoice_page_url(),), 1120)
                )
            finally:
                await backend.close()

        generation = asyncio.run(read())
    finally:
        engine.stop()
    jsonschema.validate(json.loads(generation.text), schema)
    assert generation.prompt_tokens > 1000
