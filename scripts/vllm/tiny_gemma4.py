"""Build a tiny Gemma 4 checkpoint with random weights, here, from nothing downloaded.

The serving engine is real (vLLM on CPU); only the weights are not. What makes a checkpoint
"Gemma 4" to vLLM and transformers is built here exactly as a published one is laid out:

* ``config.json`` — a ``Gemma4ForConditionalGeneration`` (text + vision towers, no audio) in one of
  two shapes the real family has: ``e4b`` (per-layer embeddings, KV-shared layers, sliding and
  global layers with their own head sizes) or ``26b-a4b`` (mixture of experts, keys doubling as
  values on global layers, bidirectional attention over image tokens);
* ``model.safetensors`` — random weights from the model's own initialiser, then a bias that makes
  a guided JSON answer end (below);
* ``tokenizer.json`` — a byte-fallback BPE trained on the spot with the ``tokenizers`` library on
  the text DocIntel sends and expects (its prompts, schemas and JSON answers), carrying Gemma 4's
  special tokens (``<bos>``, ``<eos>``, ``<|turn>``/``<turn|>``, ``<|image>``/``<|image|>``/``<image|>``);
* ``tokenizer_config.json`` with Gemma's chat template, ``preprocessor_config.json`` and
  ``processor_config.json`` (the image processor and the page budget) and
  ``generation_config.json``.

Why the bias: a model with random weights under guided decoding still has to *choose* among the
tokens the grammar allows, and a uniform choice keeps opening strings, digits and whitespace until
``max_tokens``. Every token's embedding gets a shared component along one direction, and tokens
that close a value (``"``, ``}``, ``,``, ``null``, ``]``) a larger one, so the final hidden state —
which carries that shared component — prefers closing: answers terminate, as a trained model's do.
(The ``}`` and ``,`` between values need no bias: once a value is closed, the grammar forces them.)

Run with the vLLM environment's Python (torch and transformers): ``scripts/vllm/install.sh`` does.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path
from typing import Any

VOCAB_SIZE = 4096
HIDDEN = 64
IMAGE_TOKENS_DEFAULT = 280  # the checkpoint's budget; requests ask for theirs (mm_processor_kwargs)
# Gemma 4's special tokens, by the names its processor and chat template use.
SPECIAL_TOKENS = {
    "pad_token": "<pad>",
    "eos_token": "<eos>",
    "bos_token": "<bos>",
    "unk_token": "<unk>",
}
EXTRA_SPECIAL_TOKENS = {
    "sot_token": "<|turn>",
    "eot_token": "<turn|>",
    "boi_token": "<|image>",
    "image_token": "<|image|>",
    "eoi_token": "<image|>",
    "boa_token": "<|audio>",
    "audio_token": "<|audio|>",
    "eoa_token": "<audio|>",
    "soc_token": "<|channel>",
    "eoc_token": "<channel|>",
}
VIDEO_TOKEN = "<|video|>"
# Only tokens that end a value wherever the grammar allows them: a "}" or "," inside a string is just
# a character, so favouring those would lengthen strings, not end them.
CLOSING_TEXTS = ('"', "null", '",', '"}', '":null')
# Gemma's chat template: turns between <|turn>role and <turn|>; an image is "\t<|image|>" in the
# user's text, expanded by the processor into <|image> + soft tokens + <image|>.
CHAT_TEMPLATE = (
    "{{ bos_token }}"
    "{%- for message in messages -%}"
    "{%- set role = 'model' if message['role'] == 'assistant' else message['role'] -%}"
    "{{ '<|turn>' + role + '\n' }}"
    "{%- if message['content'] is string -%}{{ message['content'] | trim }}"
    "{%- else -%}{%- for item in message['content'] -%}"
    "{%- if item['type'] == 'image' or item['type'] == 'image_url' -%}{{ '\t<|image|>' }}"
    "{%- elif item['type'] == 'text' -%}{{ item['text'] | trim }}{%- endif -%}"
    "{%- endfor -%}{%- endif -%}"
    "{{ '<turn|>\n' }}"
    "{%- endfor -%}"
    "{%- if add_generation_prompt -%}{{ '<|turn>model\n' }}{%- endif -%}"
)


def training_corpus(seed: int) -> list[str]:
    """Text shaped like what the model reads and writes: DocIntel's prompts and JSON answers."""
    from engines.llm.prompts import classification_prompt, extraction_prompt
    from engines.llm.schemas import CLASSIFY_TYPES, extraction_schema

    rng = random.Random(seed)
    lines = [classification_prompt(1), classification_prompt(3)]
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    for document_type in CLASSIFY_TYPES:
        schema = extraction_schema(document_type)
        lines.append(extraction_prompt(document_type, schema, 1))
        lines.append(json.dumps(schema))
        lines.append(json.dumps({"document_type": document_type}))
        for _ in range(40):
            answer: dict[str, Any] = {}
            for name in schema["properties"]:
                choice = rng.random()
                if choice < 0.3:
                    answer[name] = None
                elif choice < 0.6:
                    answer[name] = "".join(rng.choice(letters) for _ in range(rng.randint(1, 12)))
                elif choice < 0.8:
                    answer[name] = (
                        f"{rng.randint(1950, 2040)}-{rng.randint(1, 12):02d}-{rng.randint(1, 28):02d}"
                    )
                else:
                    answer[name] = f"{rng.randint(0, 99999)}.{rng.randint(0, 99):02d}"
            lines.append(json.dumps(answer, separators=(",", ":"), ensure_ascii=False))
    lines.append("ÄÖÜäöüßéèàçñøå€£ — ÉÍÓÚ ÇÃÕ ŁŚŻ «quoted»")
    return lines


def build_tokenizer(seed: int) -> Any:
    """A byte-fallback BPE (as Gemma's) of VOCAB_SIZE tokens, trained on :func:`training_corpus`."""
    from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, trainers

    tokenizer = Tokenizer(models.BPE(unk_token="<unk>", byte_fallback=True, fuse_unk=True))
    tokenizer.normalizer = normalizers.Replace(" ", "▁")
    tokenizer.pre_tokenizer = pre_tokenizers.Split("▁", behavior="merged_with_next")
    tokenizer.decoder = decoders.Sequence(
        [decoders.Replace("▁", " "), decoders.ByteFallback(), decoders.Fuse()]
    )
    specials = [*SPECIAL_TOKENS.values(), *EXTRA_SPECIAL_TOKENS.values(), VIDEO_TOKEN]
    byte_tokens = [f"<0x{value:02X}>" for value in range(256)]
    trainer = trainers.BpeTrainer(
        vocab_size=VOCAB_SIZE,
        special_tokens=[*specials, *byte_tokens],
        initial_alphabet=list("\t\n"),
        show_progress=False,
    )
    tokenizer.train_from_iterator(training_corpus(seed), trainer=trainer)
    # The trainer keeps the byte tokens as *special* added tokens; they are ordinary vocabulary
    # (byte fallback), or an engine that skips special tokens would drop them from the answer.
    serialized = json.loads(tokenizer.to_str())
    serialized["added_tokens"] = [t for t in serialized["added_tokens"] if t["content"] not in byte_tokens]
    return Tokenizer.from_str(json.dumps(serialized))


def model_config(shape: str, tokenizer: Any) -> Any:
    """A ``Gemma4Config`` of ``shape`` (``e4b`` or ``26b-a4b``) at toy sizes."""
    from transformers import Gemma4Config

    ids = {name: tokenizer.token_to_id(token) for name, token in EXTRA_SPECIAL_TOKENS.items()}
    text: dict[str, Any] = {
        "vocab_size": VOCAB_SIZE,
        "hidden_size": HIDDEN,
        "intermediate_size": 128,
        "num_hidden_layers": 2,
        "num_attention_heads": 2,
        "num_key_value_heads": 1,
        "head_dim": 32,
        "global_head_dim": 64,
        "sliding_window": 128,
        "layer_types": ["sliding_attention", "full_attention"],
        "max_position_embeddings": 16384,
        "pad_token_id": tokenizer.token_to_id("<pad>"),
        "eos_token_id": [tokenizer.token_to_id("<eos>"), ids["eot_token"]],
        "bos_token_id": tokenizer.token_to_id("<bos>"),
        "final_logit_softcapping": 30.0,
        "tie_word_embeddings": True,
    }
    if shape == "e4b":  # per-layer embeddings, the last layer reusing an earlier one's KV
        text |= {
            "vocab_size_per_layer_input": VOCAB_SIZE,
            "hidden_size_per_layer_input": 16,
            "num_kv_shared_layers": 1,
            "layer_types": ["sliding_attention", "full_attention", "sliding_attention", "full_attention"],
            "num_hidden_layers": 4,
        }
    elif shape == "26b-a4b":  # experts, keys as values on global layers, image tokens bidirectional
        text |= {
            "hidden_size_per_layer_input": 0,
            "vocab_size_per_layer_input": VOCAB_SIZE,
            "enable_moe_block": True,
            "num_experts": 4,
            "top_k_experts": 2,
            "moe_intermediate_size": 32,
            "attention_k_eq_v": True,
            "num_global_key_value_heads": 1,
            "use_bidirectional_attention": "vision",
        }
    else:
        raise ValueError(f"unknown shape {shape!r}: e4b or 26b-a4b")
    vision = {
        "hidden_size": 32,
        "intermediate_size": 64,
        "num_hidden_layers": 1,
        "num_attention_heads": 2,
        "num_key_value_heads": 2,
        "head_dim": 16,
        "patch_size": 16,
        "pooling_kernel_size": 3,
        "position_embedding_size": 1024,
        "default_output_length": IMAGE_TOKENS_DEFAULT,
    }
    return Gemma4Config(
        text_config=text,
        vision_config=vision,
        audio_config=None,
        boi_token_id=ids["boi_token"],
        eoi_token_id=ids["eoi_token"],
        image_token_id=ids["image_token"],
        video_token_id=tokenizer.token_to_id(VIDEO_TOKEN),
        boa_token_id=ids["boa_token"],
        eoa_token_index=ids["eoa_token"],
        audio_token_id=ids["audio_token"],
        tie_word_embeddings=True,
    )


def bias_towards_closing(model: Any, tokenizer: Any, seed: int) -> None:
    """Give every embedding a shared direction, and closing tokens more of it (module docstring)."""
    import torch

    generator = torch.Generator().manual_seed(seed)
    embeddings = model.get_input_embeddings().weight
    with torch.no_grad():
        direction = torch.randn(embeddings.shape[1], generator=generator)
        direction /= direction.norm()
        scale = embeddings.norm(dim=1).mean()
        embeddings += 2.0 * scale * direction
        for text in CLOSING_TEXTS:
            token = tokenizer.token_to_id(text)
            if token is not None:
                embeddings[token] += 4.0 * scale * direction


def write_checkpoint(target: Path, shape: str, seed: int) -> None:
    import torch
    from transformers import Gemma4ForConditionalGeneration, PreTrainedTokenizerFast

    torch.manual_seed(seed)
    target.mkdir(parents=True, exist_ok=True)
    raw = build_tokenizer(seed)
    config = model_config(shape, raw)
    model = Gemma4ForConditionalGeneration(config).to(torch.bfloat16).eval()
    bias_towards_closing(model, raw, seed)
    model.save_pretrained(target, safe_serialization=True)
    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=raw,
        **SPECIAL_TOKENS,
        extra_special_tokens=EXTRA_SPECIAL_TOKENS,
        additional_special_tokens=[VIDEO_TOKEN],
        chat_template=CHAT_TEMPLATE,
        add_bos_token=False,
        model_max_length=16384,
    )
    tokenizer.save_pretrained(target)
    (target / "chat_template.jinja").write_text(CHAT_TEMPLATE)
    image_processor = {
        "image_processor_type": "Gemma4ImageProcessorPil",
        "processor_class": "Gemma4Processor",
        "do_resize": True,
        "do_rescale": True,
        "rescale_factor": 1 / 255,
        "do_normalize": False,
        "do_convert_rgb": True,
        "patch_size": 16,
        "pooling_kernel_size": 3,
        "max_soft_tokens": IMAGE_TOKENS_DEFAULT,
    }
    (target / "preprocessor_config.json").write_text(json.dumps(image_processor, indent=2))
    processor = {"processor_class": "Gemma4Processor", "image_seq_length": IMAGE_TOKENS_DEFAULT}
    (target / "processor_config.json").write_text(json.dumps(processor, indent=2))
    (target / "docintel_tiny.json").write_text(
        json.dumps({"shape": shape, "seed": seed, "vocab": VOCAB_SIZE})
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("target", type=Path, help="the checkpoint directory to write")
    parser.add_argument("--shape", choices=("e4b", "26b-a4b"), default="e4b")
    parser.add_argument("--seed", type=int, default=4)
    args = parser.parse_args(argv)
    write_checkpoint(args.target, args.shape, args.seed)
    print(f"tiny Gemma 4 ({args.shape}) written to {args.target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
