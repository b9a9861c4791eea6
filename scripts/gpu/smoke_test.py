"""GPU smoke test of one Gemma 4 model on TensorRT-LLM: every page is read at the full budget.

    GEMMA4_E4B_CHECKPOINT=/models/gemma-4-E4B-it-nvfp4 python3 scripts/gpu/smoke_test.py gemma4_e4b

Run in the serving image on a Blackwell GPU with nothing else holding it (stop serve.sh first).
It builds ``LLM()`` from ``model_repo/<model>/1/model.yaml`` the way ``model.py`` does (in this
process, ``TLLM_WORKER_USE_SINGLE_PROCESS=1``), sends one guided request with log-probabilities
built the way ``model.py`` builds it (chat template, pages first) over synthetic pages of 1344 x
1920 px — 28 x 40 cells of 48 px (patch 16, pooling 3), exactly 1120 soft tokens each — and checks:

* the prompt TensorRT-LLM tokenized holds ``pages x max_soft_tokens`` image tokens (the
  checkpoint's ``image_token_id``): a checkpoint left at its default budget gives 280 a page, and
  ``mm_processor_kwargs`` would not change that, which is why this test exists;
* the tokenized prompt begins with exactly one ``<bos>``: the chat template renders one as text and
  TensorRT-LLM's processor tokenizes with special tokens on, so ``model.py`` drops the rendered one
  (``gemma4_support.page_prompt``);
* the answer is JSON under the schema, with one RAW log-probability (<= 0) per generated token and
  offsets that cover the text.

Prints one JSON line; exits 1 on the first failed check.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any, NoReturn

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "model_repo" / "gemma4_e4b" / "1"))

import gemma4_support as support  # noqa: E402

PAGE_SIZE = (1344, 1920)  # width, height: 28 x 40 cells of 48 px = 1120 soft tokens
SCHEMA = {
    "type": "object",
    "properties": {"title": {"type": "string"}, "page_count": {"type": "integer"}},
    "required": ["title", "page_count"],
}
PROMPT = "Read the pages. Answer with JSON: the title printed on the first page and the number of pages."


def synthetic_page(number: int) -> Any:
    from PIL import Image, ImageDraw

    page = Image.new("RGB", PAGE_SIZE, "white")
    draw = ImageDraw.Draw(page)
    draw.text((96, 96), "SMOKE TEST INVOICE" if number == 1 else f"Page {number}", fill="black")
    for row in range(12):
        draw.text(
            (96, 240 + row * 120),
            f"Line {row + 1}: item {row * 7 + number} ... {row * 3.5:.2f} EUR",
            fill="black",
        )
    return page


def fail(check: str, **details: Any) -> NoReturn:
    print(json.dumps({"ok": False, "failed": check, **details}))
    raise SystemExit(1)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("model", choices=["gemma4_e4b", "gemma4_26b_a4b"])
    parser.add_argument("--pages", type=int, default=2)
    args = parser.parse_args()

    support.scrub_inherited_mpi_env(os.environ)
    os.environ["TLLM_WORKER_USE_SINGLE_PROCESS"] = "1"
    engine_args, _ = support.load_model_yaml(
        ROOT / "model_repo" / args.model / "1" / "model.yaml", os.environ
    )
    checkpoint = Path(str(engine_args["model"]))
    budget = support.read_max_soft_tokens(checkpoint)
    image_token_id = int(json.loads((checkpoint / "config.json").read_text())["image_token_id"])

    from tensorrt_llm import LLM, SamplingParams
    from tensorrt_llm.llmapi import GuidedDecodingParams
    from tensorrt_llm.llmapi.llm_utils import update_llm_args_with_extra_dict
    from tensorrt_llm.sampling_params import LogprobMode
    from transformers import AutoProcessor

    processor = AutoProcessor.from_pretrained(str(checkpoint))
    pages = [synthetic_page(n + 1) for n in range(args.pages)]
    prompt = support.page_prompt(processor, PROMPT, len(pages))
    sampling = SamplingParams(
        max_tokens=64,
        temperature=0.0,
        logprobs=1,
        logprobs_mode=LogprobMode.RAW,
        guided_decoding=GuidedDecodingParams(json=json.dumps(SCHEMA)),
    )
    with LLM(**update_llm_args_with_extra_dict({}, engine_args)) as llm:
        output = llm.generate({"prompt": prompt, "multi_modal_data": {"image": pages}}, sampling)
        completion = output.outputs[0]
        ids = [int(t) for t in completion.token_ids]
        text, offsets = support.decode_with_offsets(
            ids, lambda window: str(llm.tokenizer.decode(window, skip_special_tokens=True))
        )

    bos_tokens = sum(1 for t in output.prompt_token_ids if t == processor.tokenizer.bos_token_id)
    if bos_tokens != 1 or output.prompt_token_ids[0] != processor.tokenizer.bos_token_id:
        fail("one_bos", bos_tokens=bos_tokens, first_token=int(output.prompt_token_ids[0]))
    image_tokens = sum(1 for t in output.prompt_token_ids if t == image_token_id)
    if image_tokens != len(pages) * budget:
        fail("image_tokens", image_tokens=image_tokens, expected=len(pages) * budget, budget=budget)
    try:
        answer = json.loads(text)
    except json.JSONDecodeError:
        fail("answer_is_json", finish_reason=str(completion.finish_reason))
    if set(answer) != set(SCHEMA["properties"]):
        fail("answer_follows_schema", keys=sorted(answer))
    logprobs = completion.logprobs or []
    if len(logprobs) != len(ids) or not all(
        entry[t].logprob <= 0 for entry, t in zip(logprobs, ids, strict=True)
    ):
        fail("raw_logprobs", tokens=len(ids), logprobs=len(logprobs))
    if not offsets or offsets[-1][1] != len(text):
        fail("offsets_cover_text", text_chars=len(text))
    print(
        json.dumps(
            {
                "ok": True,
                "model": args.model,
                "pages": len(pages),
                "soft_tokens_per_page": image_tokens // len(pages),
                "prompt_tokens": len(output.prompt_token_ids),
                "answer_tokens": len(ids),
            }
        )
    )


if __name__ == "__main__":
    main()
