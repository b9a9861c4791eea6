"""Build a tiny Gemma 4 checkpoint with random weights, here, from nothing downloaded.

The serving engine is real (vLLM on CPU); only the weights are not. What makes a checkpoint
"Gemma 4" to vLLM and transformers is built here as a published one is laid out, down to what the
serving code depends on:

* ``config.json`` — a ``Gemma4ForConditionalGeneration`` (text + vision towers, no audio) in one of
  two shapes the real family has, written with the published fields (``global_head_dim``,
  ``num_global_key_value_heads``, ``top_k_experts``), which transformers turns into per-layer
  settings on load:

  - ``e4b``: per-layer embeddings, KV-shared layers (a sliding and a global one), head sizes 256 on
    sliding and 512 on global layers, and a vision tower whose linears are *clipped*
    (``use_clipped_linears``; the bounds are weights of the checkpoint, finite here so that vLLM
    must load them);
  - ``26b-a4b``: top-k of several experts, keys doubling as values on global layers, which have
    fewer KV heads than sliding layers (``num_global_key_value_heads``), bidirectional attention
    over image tokens, and a vision tower of its own shape (wider and deeper than E4B's, an
    intermediate size that is no multiple of 64, standardized soft tokens);
* ``model.safetensors`` — random weights from the model's own initialiser, then a bias that makes
  a guided JSON answer end (below);
* ``tokenizer.json`` — SentencePiece-style: a byte-fallback BPE over ``▁``-marked words, trained on
  the spot with the ``tokenizers`` library on the text DocIntel sends and expects (its prompts,
  schemas and JSON answers, so numbers get multi-digit tokens), adding ``<bos>`` by default as
  Gemma's does, and carrying Gemma 4's special tokens (``<bos>``, ``<eos>``, ``<|turn>``/``<turn|>``,
  ``<|image>``/``<|image|>``/``<image|>``, ``<|channel>``/``<channel|>``, ``<|think|>``);
* ``tokenizer_config.json`` with the shape's chat template (:func:`chat_template`),
  ``preprocessor_config.json`` and ``processor_config.json`` (the image processor and the page
  budget) and ``generation_config.json`` (``<eos>`` and ``<turn|>`` end an answer).

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
    "think_token": "<|think|>",
}
VIDEO_TOKEN = "<|video|>"
# Only tokens that end a value wherever the grammar allows them: a "}" or "," inside a string is just
# a character, so favouring those would lengthen strings, not end them.
CLOSING_TEXTS = ('"', "null", '",', '"}', '":null')
# A clipped linear's bounds (vision tower of the e4b shape): finite, so a loader that skipped them
# would leave the +-inf defaults and compute something else. Wide enough to keep the signal.
CLIP_BOUNDS = {"input_min": -4.0, "input_max": 4.0, "output_min": -3.0, "output_max": 3.0}
# The 26B-A4B generation prompt with thinking off: an empty thought block before the answer.
EMPTY_THOUGHT = "<|channel>thought\n<channel|>"


def chat_template(shape: str) -> str:
    """Gemma 4's chat template, in the structure of the published one (docs/gemma4.md says where
    that came from), without tools: ``<bos>``; a system turn when the first message is a system
    (or developer) message or thinking is on (``<|think|>`` first); each turn between ``<|turn>role``
    and ``<turn|>``; an image part is ``<|image|>``, which the processor expands to ``<|image>`` +
    soft tokens + ``<image|>``; the generation prompt ``<|turn>model``, which on the 26B-A4B shape
    carries an empty thought block unless thinking is on (the E-series templates write none)."""
    thought = (
        "{%- if not enable_thinking | default(false) -%}{{- '" + EMPTY_THOUGHT + "' -}}{%- endif -%}"
        if shape == "26b-a4b"
        else ""
    )
    return (
        "{%- macro render(content) -%}"
        "{%- if content is string -%}{{ content | trim }}"
        "{%- else -%}{%- for item in content -%}"
        "{%- if item['type'] == 'image' or item['type'] == 'image_url' -%}{{ '<|image|>' }}"
        "{%- elif item['type'] == 'text' -%}{{ item['text'] | trim }}{%- endif -%}"
        "{%- endfor -%}{%- endif -%}"
        "{%- endmacro -%}"
        "{{- bos_token -}}"
        "{%- set loop_messages = messages -%}"
        "{%- if enable_thinking | default(false) or messages[0]['role'] in ['system', 'developer'] -%}"
        "{{- '<|turn>system\n' -}}"
        "{%- if enable_thinking | default(false) -%}{{- '<|think|>\n' -}}{%- endif -%}"
        "{%- if messages[0]['role'] in ['system', 'developer'] -%}"
        "{{- render(messages[0]['content']) -}}{%- set loop_messages = messages[1:] -%}"
        "{%- endif -%}"
        "{{- '<turn|>\n' -}}"
        "{%- endif -%}"
        "{%- for message in loop_messages -%}"
        "{%- set role = 'model' if message['role'] == 'assistant' else message['role'] -%}"
        "{{- '<|turn>' + role + '\n' -}}{{- render(message['content']) -}}{{- '<turn|>\n' -}}"
        "{%- endfor -%}"
        "{%- if add_generation_prompt -%}{{- '<|turn>model\n' -}}" + thought + "{%- endif -%}"
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


def model_config(shape: str, tokenizer: Any) -> dict[str, Any]:
    """The ``config.json`` of ``shape`` (``e4b`` or ``26b-a4b``) at toy sizes, in the published
    layout: ``global_head_dim`` and ``num_global_key_value_heads`` as written there, which
    transformers turns into ``per_layer_config`` on load (configuration_gemma4.py)."""
    from transformers import Gemma4Config

    ids = {name: tokenizer.token_to_id(token) for name, token in EXTRA_SPECIAL_TOKENS.items()}
    text: dict[str, Any] = {
        "vocab_size": VOCAB_SIZE,
        "hidden_size": HIDDEN,
        "intermediate_size": 128,
        "head_dim": 256,  # the real sizes: the CPU attention backend has kernels for 256 and 512
        "global_head_dim": 512,
        "sliding_window": 128,
        "max_position_embeddings": 16384,
        "pad_token_id": tokenizer.token_to_id("<pad>"),
        "eos_token_id": [tokenizer.token_to_id("<eos>"), ids["eot_token"]],
        "bos_token_id": tokenizer.token_to_id("<bos>"),
        "final_logit_softcapping": 30.0,
        "tie_word_embeddings": True,
    }
    vision: dict[str, Any] = {
        "patch_size": 16,
        "pooling_kernel_size": 3,
        "position_embedding_size": 1024,
        "default_output_length": IMAGE_TOKENS_DEFAULT,
    }
    if shape == "e4b":  # per-layer embeddings; the last two layers reuse the KV of earlier ones
        text |= {
            "num_hidden_layers": 4,
            "layer_types": ["sliding_attention", "full_attention"] * 2,
            "num_attention_heads": 2,
            "num_key_value_heads": 1,
            "vocab_size_per_layer_input": VOCAB_SIZE,
            "hidden_size_per_layer_input": 16,
            "num_kv_shared_layers": 2,
        }
        vision |= {  # E4B's tower: clipped linears
            "hidden_size": 32,
            "intermediate_size": 64,
            "num_hidden_layers": 1,
            "num_attention_heads": 2,
            "num_key_value_heads": 2,
            "head_dim": 16,
            "use_clipped_linears": True,
        }
    elif shape == "26b-a4b":  # experts, keys as values on global layers, image tokens bidirectional
        text |= {
            "num_hidden_layers": 2,
            "layer_types": ["sliding_attention", "full_attention"],
            "num_attention_heads": 4,
            "num_key_value_heads": 2,  # sliding layers; global layers have fewer (26B-A4B: 8 and 2)
            "num_global_key_value_heads": 1,
            "attention_k_eq_v": True,
            "hidden_size_per_layer_input": 0,
            "vocab_size_per_layer_input": VOCAB_SIZE,
            "enable_moe_block": True,
            "num_experts": 8,
            "top_k_experts": 2,
            "moe_intermediate_size": 32,
            "use_bidirectional_attention": "vision",
        }
        vision |= {  # the 26B-A4B's own tower: wider, deeper, intermediate no multiple of 64
            "hidden_size": 48,
            "intermediate_size": 88,
            "num_hidden_layers": 2,
            "num_attention_heads": 2,
            "num_key_value_heads": 2,
            "head_dim": 24,
            "standardize": True,
        }
    else:
        raise ValueError(f"unknown shape {shape!r}: e4b or 26b-a4b")
    config = Gemma4Config(
        text_config=dict(text),
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
    ).to_dict()
    config["architectures"] = ["Gemma4ForConditionalGeneration"]
    return as_published(config, text)


def as_published(config: dict[str, Any], text: dict[str, Any]) -> dict[str, Any]:
    """``config`` with the text config's per-layer settings as the published ``config.json`` writes
    them (``global_head_dim``, ``num_global_key_value_heads``), not as transformers serializes them."""
    config["text_config"].pop("per_layer_config")
    config["text_config"] |= {
        key: text[key] for key in ("global_head_dim", "num_global_key_value_heads") if key in text
    }
    return config


def set_vision_buffers(model: Any, seed: int) -> None:
    """Give the vision tower's checkpoint-held constants values a loader cannot fake: finite clip
    bounds (e4b) and a non-trivial standardization (26b-a4b)."""
    import torch

    generator = torch.Generator().manual_seed(seed)
    tower = model.model.vision_tower
    with torch.no_grad():
        for module in tower.modules():
            if getattr(module, "use_clipped_linears", False):
                for name, value in CLIP_BOUNDS.items():
                    getattr(module, name).fill_(value)
        if tower.config.standardize:
            tower.std_bias.copy_(0.1 * torch.randn(tower.std_bias.shape, generator=generator))
            tower.std_scale.copy_(1.0 + 0.1 * torch.rand(tower.std_scale.shape, generator=generator))


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
    from transformers import Gemma4Config, Gemma4ForConditionalGeneration, PreTrainedTokenizerFast

    torch.manual_seed(seed)
    target.mkdir(parents=True, exist_ok=True)
    raw = build_tokenizer(seed)
    published = model_config(shape, raw)
    model = Gemma4ForConditionalGeneration(Gemma4Config.from_dict(published)).to(torch.bfloat16).eval()
    bias_towards_closing(model, raw, seed)
    set_vision_buffers(model, seed)
    model.save_pretrained(target, safe_serialization=True)
    saved = json.loads((target / "config.json").read_text())
    saved = as_published(saved, published["text_config"])
    (target / "config.json").write_text(json.dumps(saved, indent=2, sort_keys=True) + "\n")
    template = chat_template(shape)
    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=raw,
        **SPECIAL_TOKENS,
        extra_special_tokens=EXTRA_SPECIAL_TOKENS,
        additional_special_tokens=[VIDEO_TOKEN],
        chat_template=template,
        add_bos_token=True,  # as Gemma's: whoever tokenizes with special tokens gets <bos>
        model_max_length=16384,
    )
    tokenizer.save_pretrained(target)
    (target / "chat_template.jinja").write_text(template)
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
