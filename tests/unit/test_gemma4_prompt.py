"""The Gemma 4 TensorRT-LLM model's prompt carries one ``<bos>`` once TensorRT-LLM tokenizes it.

``model.py`` renders the chat template as text (it begins with ``{{ bos_token }}``) and TensorRT-LLM's
Gemma 4 input processor tokenizes that text with the processor's defaults, special tokens on
(``Gemma4InputProcessor._preprocess``, tensorrt_llm/_torch/models/modeling_gemma4mm.py): Gemma's
tokenizer adds ``<bos>`` itself. Checked here with the tiny checkpoints, whose tokenizer adds
``<bos>`` by default as the real one does, through the real transformers processor. transformers is
in the vLLM environment only, so the check runs there (scripts/vllm/install.sh builds both).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
SUPPORT_DIR = REPO_ROOT / "model_repo" / "gemma4_e4b" / "1"

# What Gemma4InputProcessor._preprocess does with model.py's prompt and pages.
TOKENIZE_AS_TENSORRT_LLM = """
import json, sys
from PIL import Image
from transformers import AutoProcessor
import gemma4_support as support

processor = AutoProcessor.from_pretrained(sys.argv[1])
pages = [Image.new("RGB", (480, 640), "white") for _ in range(2)]
prompt = support.page_prompt(processor, "Read the pages. Total 12.50", len(pages))
ids = processor(text=prompt, images=pages, return_tensors="pt")["input_ids"][0].tolist()
tokenizer = processor.tokenizer
print(json.dumps({
    "bos": tokenizer.bos_token_id,
    "adds_bos": tokenizer("x")["input_ids"][0] == tokenizer.bos_token_id,
    "ids": ids,
}))
"""


@pytest.mark.slow
@pytest.mark.parametrize("shape", ["e4b", "26b-a4b"])
def test_the_tensorrt_llm_prompt_tokenizes_to_one_bos(shape):
    """GIVEN a tiny checkpoint whose tokenizer adds <bos> by default, as Gemma's does
    WHEN model.py's prompt is tokenized the way TensorRT-LLM's Gemma 4 input processor does
    THEN the ids begin with exactly one <bos>, not the rendered one and the tokenizer's."""
    from servers import vllm_server

    python = vllm_server.python_path()
    checkpoint = vllm_server.DEFAULT_CHECKPOINT.with_name(f"tiny-gemma4-{shape}")
    if not python.exists() or not (checkpoint / "config.json").exists():
        pytest.skip(
            "the vLLM environment or the tiny Gemma 4 checkpoints are missing: scripts/vllm/install.sh"
        )
    done = subprocess.run(
        [str(python), "-c", TOKENIZE_AS_TENSORRT_LLM, str(checkpoint)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=SUPPORT_DIR,
        env={**vllm_server.build_environment(), "PYTHONPATH": f"{SUPPORT_DIR}:{REPO_ROOT}"},
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["adds_bos"], "the tiny tokenizer must add <bos> by default, as Gemma's does"
    assert result["ids"][0] == result["bos"]
    assert result["ids"].count(result["bos"]) == 1
