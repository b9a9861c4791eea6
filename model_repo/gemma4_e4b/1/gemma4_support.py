"""What the Gemma 4 Triton model (``model.py`` beside this file) does without Triton or TensorRT-LLM.

Kept apart so the CPU tests, ``scripts/gpu/quantize.sh`` and ``scripts/gpu/smoke_test.py`` use the
same code the model runs (``model.py`` imports ``triton_python_backend_utils``, which exists only
inside Triton). Everything here is plain Python plus Pillow and PyYAML; model_repo/TENSORRT_LLM.md
says which TensorRT-LLM source each rule follows.

Run as a script it rewrites a checkpoint's page budget (``scripts/gpu/quantize.sh`` does)::

    python3 gemma4_support.py set-max-soft-tokens CHECKPOINT_DIR 1120
"""

from __future__ import annotations

import argparse
import base64
import binascii
import io
import json
import re
import sys
from collections.abc import Callable, Mapping, MutableMapping, Sequence
from pathlib import Path
from typing import Any

import yaml

# the one implementation of token offsets; model.py uses it from here
from engines.llm.confidence import allowed_choices
from engines.llm.confidence import decode_with_offsets as decode_with_offsets

# MPI job state a Triton started under mpirun leaves in the environment. Each Python stub must
# start MPI afresh, so these go before tensorrt_llm (and mpi4py) is imported; configuration
# (OMPI_MCA_*, PMIX_MCA_*) stays. The list is the stock llmapi model's
# (triton_backend/all_models/llmapi/tensorrt_llm/1/model.py).
MPI_JOB_ENV_VARS = frozenset(
    {
        "OMPI_COMM_WORLD_SIZE",
        "OMPI_COMM_WORLD_RANK",
        "OMPI_COMM_WORLD_LOCAL_SIZE",
        "OMPI_COMM_WORLD_LOCAL_RANK",
        "OMPI_COMM_WORLD_NODE_RANK",
        "OMPI_UNIVERSE_SIZE",
        "OMPI_FIRST_RANKS",
        "OMPI_APP_CTX_NUM_PROCS",
        "PMIX_RANK",
        "PMIX_NAMESPACE",
        "PMIX_SERVER_URI",
        "PMIX_SERVER_URI2",
        "PMIX_SERVER_URI21",
        "PMIX_SERVER_URI3",
        "PMIX_SERVER_TMPDIR",
        "PMIX_SYSTEM_TMPDIR",
        "PMIX_SECURITY_MODE",
        "PMIX_GDS_MODULE",
        "PMIX_BFROPS_MODULE",
        "PMIX_PTL_MODULE",
        "PMIX_VERSION",
        "PMIX_HOSTNAME",
        "PMI_RANK",
        "PMI_SIZE",
        "PMI_FD",
        "PMI_SPAWNED",
        "PMI_APPNUM",
    }
)
MPI_JOB_ENV_PREFIXES = ("OMPI_MCA_orte_", "ORTE_")

# Gemma 4's image processor accepts these budgets only (transformers' image_processing_gemma4.py).
SUPPORTED_SOFT_TOKENS = (70, 140, 280, 560, 1120)
# Where a checkpoint describes its image processor: transformers 5's unified processor_config.json
# (an "image_processor" section) and the older flat preprocessor_config.json.
PROCESSOR_FILES = ("processor_config.json", "preprocessor_config.json")
MEDIA_PREFIXES = ("data:image/png;base64,", "data:image/jpeg;base64,")
_VARIABLE = re.compile(r"\$\{?[A-Za-z_][A-Za-z0-9_]*\}?")


class ModelConfigError(ValueError):
    """model.yaml or the checkpoint is not what the model can serve: the model does not load."""


class RequestError(ValueError):
    """The request is malformed (the caller's fault): INVALID_ARG."""


def scrub_inherited_mpi_env(environ: MutableMapping[str, str]) -> list[str]:
    """Remove inherited MPI job variables from ``environ``; the names removed, sorted."""
    doomed = sorted(k for k in environ if k in MPI_JOB_ENV_VARS or k.startswith(MPI_JOB_ENV_PREFIXES))
    for key in doomed:
        del environ[key]
    return doomed


def launched_with_spawn_proxy(environ: Mapping[str, str]) -> bool:
    """True under ``trtllm-llmapi-launch``: its one spawn-proxy address serves a single ``LLM()``
    client (a ZeroMQ PAIR socket), so a second Gemma model in the same server would not load."""
    return environ.get("TLLM_SPAWN_PROXY_PROCESS") == "1"


def load_model_yaml(path: Path, environ: Mapping[str, str]) -> tuple[dict[str, Any], dict[str, Any]]:
    """``(LLM() arguments, triton_config)`` from model.yaml, ``${VARS}`` in its values expanded
    from ``environ`` (checkpoint paths are set at deployment, never committed; comments may
    mention ``${VARS}`` freely)."""
    config = yaml.safe_load(path.read_text())
    if not isinstance(config, dict):
        raise ModelConfigError(f"{path}: not a mapping")
    missing: set[str] = set()
    expanded = _expand(config, environ, missing)
    if missing:
        raise ModelConfigError(f"{path}: environment variables not set: {', '.join(sorted(missing))}")
    triton_config = expanded.pop("triton_config", {})
    return expanded, triton_config


def _expand(node: Any, environ: Mapping[str, str], missing: set[str]) -> Any:
    if isinstance(node, dict):
        return {key: _expand(value, environ, missing) for key, value in node.items()}
    if isinstance(node, list):
        return [_expand(value, environ, missing) for value in node]
    if not isinstance(node, str):
        return node

    def value(match: re.Match[str]) -> str:
        name = match.group(0).strip("${}")
        if name not in environ:
            missing.add(name)
            return match.group(0)
        return environ[name]

    return _VARIABLE.sub(value, node)


def check_engine_args(
    engine_args: dict[str, Any], triton_config: dict[str, Any], expected_tokens: int
) -> None:
    """Refuse what this model cannot serve: more than one GPU per model (the executor runs in this
    process), a non-multimodal config, a checkpoint whose page budget is not ``expected_tokens``."""
    if (
        int(engine_args.get("tensor_parallel_size", 1)) * int(engine_args.get("pipeline_parallel_size", 1))
        != 1
    ):
        raise ModelConfigError("tensor_parallel_size and pipeline_parallel_size must be 1")
    if not triton_config.get("multimodal"):
        raise ModelConfigError("model.yaml triton_config.multimodal must be true")
    tokens = read_max_soft_tokens(Path(str(engine_args["model"])))
    if tokens != expected_tokens:
        raise ModelConfigError(
            f"the checkpoint reads pages at {tokens} soft tokens, config.pbtxt expects {expected_tokens}: "
            f"run scripts/gpu/quantize.sh (or gemma4_support.py set-max-soft-tokens) on it"
        )


def _image_sections(config: dict[str, Any]) -> list[dict[str, Any]]:
    """The dicts of one processor file that configure the image processor."""
    sections = []
    nested = config.get("image_processor")
    if isinstance(nested, dict):
        sections.append(nested)
    if "image_processor_type" in config or "max_soft_tokens" in config:
        sections.append(config)
    return sections


def read_max_soft_tokens(checkpoint: Path) -> int:
    """The image soft-token budget the checkpoint's processor files give every page. TensorRT-LLM's
    Gemma 4 input processor builds its processor from these files and ignores
    ``mm_processor_kwargs``, so this is the budget every request gets."""
    values = set()
    for name in PROCESSOR_FILES:
        path = checkpoint / name
        if path.is_file():
            for section in _image_sections(json.loads(path.read_text())):
                values.add(int(section.get("max_soft_tokens", 280)))  # the image processor's default
    if not values:
        raise ModelConfigError(f"{checkpoint}: no image processor in {' or '.join(PROCESSOR_FILES)}")
    if len(values) > 1:
        raise ModelConfigError(f"{checkpoint}: processor files disagree on max_soft_tokens: {sorted(values)}")
    return values.pop()


def write_max_soft_tokens(checkpoint: Path, tokens: int) -> list[Path]:
    """Give every page ``tokens`` soft tokens: ``max_soft_tokens`` of each image-processor section
    (and the processor's ``image_seq_length``, where it is written) in the checkpoint's processor
    files. Video sections keep theirs. Returns the files rewritten."""
    if tokens not in SUPPORTED_SOFT_TOKENS:
        raise ModelConfigError(f"max_soft_tokens must be one of {SUPPORTED_SOFT_TOKENS}, not {tokens}")
    written = []
    for name in PROCESSOR_FILES:
        path = checkpoint / name
        if not path.is_file():
            continue
        config = json.loads(path.read_text())
        sections = _image_sections(config)
        for section in sections:
            section["max_soft_tokens"] = tokens
        if "image_seq_length" in config:
            config["image_seq_length"] = tokens
        if sections:
            path.write_text(json.dumps(config, indent=2, sort_keys=True) + "\n")
            written.append(path)
    if not written:
        raise ModelConfigError(f"{checkpoint}: no image processor in {' or '.join(PROCESSOR_FILES)}")
    return written


def page_image(uri: str) -> Any:
    """One page from a ``data:image/png|jpeg;base64,`` URI, decoded and converted to RGB (no
    http(s), no files: the model reads only what the request carries)."""
    from PIL import Image, UnidentifiedImageError

    if not uri.startswith(MEDIA_PREFIXES):
        raise RequestError("image_url accepts data:image/png or data:image/jpeg URIs only")
    try:
        raw = base64.b64decode(uri.split(",", 1)[1], validate=True)
        with Image.open(io.BytesIO(raw)) as image:
            return image.convert("RGB")
    except (binascii.Error, UnidentifiedImageError, OSError):
        raise RequestError("an image_url is not a readable PNG or JPEG") from None


def page_conversation(prompt: str, pages: int) -> list[dict[str, Any]]:
    """The chat turn Gemma's template renders: the pages first, then the instruction (TensorRT-LLM
    registers Gemma 4 with ``MultimodalPlaceholderPlacement.BEFORE_TEXT``)."""
    content: list[dict[str, Any]] = [{"type": "image"} for _ in range(pages)]
    content.append({"type": "text", "text": prompt})
    return [{"role": "user", "content": content}]


def page_prompt(processor: Any, prompt: str, pages: int) -> str:
    """The prompt text handed to TensorRT-LLM: :func:`page_conversation` through the checkpoint's
    chat template, with one ``<bos>`` once tokenized.

    The template begins with ``{{ bos_token }}``, and TensorRT-LLM's Gemma 4 input processor
    tokenizes the text with special tokens on (``Gemma4InputProcessor._preprocess`` calls the
    processor with the tokenizer's defaults), where Gemma's tokenizer adds ``<bos>`` itself: the
    rendered one is dropped then, or the model would read two."""
    text = str(
        processor.apply_chat_template(
            page_conversation(prompt, pages), tokenize=False, add_generation_prompt=True
        )
    )
    return without_rendered_bos(text, processor.tokenizer)


def without_rendered_bos(text: str, tokenizer: Any) -> str:
    """``text`` without its leading ``<bos>`` when ``tokenizer`` adds one of its own."""
    bos = tokenizer.bos_token
    adds_bos = tokenizer("", add_special_tokens=True)["input_ids"][:1] == [tokenizer.bos_token_id]
    if bos and adds_bos and text.startswith(bos):
        return text[len(bos) :]
    return text


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    commands = parser.add_subparsers(dest="command", required=True)
    budget = commands.add_parser("set-max-soft-tokens", help="rewrite a checkpoint's page budget")
    budget.add_argument("checkpoint", type=Path)
    budget.add_argument("tokens", type=int, choices=SUPPORTED_SOFT_TOKENS)
    args = parser.parse_args(argv)
    for path in write_max_soft_tokens(args.checkpoint, args.tokens):
        print(f"{path}: max_soft_tokens {args.tokens}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))


def step_choices(entries: Sequence[Any], decode_one: Callable[[int], str]) -> list[int] | None:
    """Per generated token, how many texts the grammar left (``engines.llm.confidence.
    allowed_choices``), from TensorRT-LLM's ``CompletionOutput.logprobs``: one dict per token of
    token id -> ``Logprob`` over the top alternatives asked, where a token the grammar ruled out
    has a log-probability of -inf (or is left out: either way it is not counted) — the mask is
    applied to the logits in place before the RAW log-probabilities are taken
    (model_repo/TENSORRT_LLM.md). None where the entries carry no alternatives (bare floats): the
    values are then scored as if every token was chosen."""
    if not all(isinstance(entry, dict) for entry in entries):
        return None
    texts: dict[int, str] = {}  # the same few alternatives recur at most steps: decode each once

    def text(token: Any) -> str:
        key = int(token)
        if key not in texts:
            texts[key] = decode_one(key)
        return texts[key]

    return [
        allowed_choices(
            [(text(token), float(getattr(value, "logprob", value))) for token, value in entry.items()]
        )
        for entry in entries
    ]
