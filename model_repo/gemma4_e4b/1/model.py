"""Gemma 4 on TensorRT-LLM's PyTorch backend (LLM API), as a Triton Python model (GPU only).

The shape of TensorRT-LLM's stock ``llmapi`` Triton model (triton_backend/all_models/llmapi/
tensorrt_llm/1/model.py): ``model.yaml`` is passed to ``tensorrt_llm.LLM()``, one asyncio loop
in a thread runs ``generate_async`` for every request while TensorRT-LLM batches them in flight,
and each request is answered through its response sender. Two extensions for ARCHITECTURE §3.5:

* ``guided_json`` — a JSON Schema; the answer is decoded under it
  (``SamplingParams(guided_decoding=GuidedDecodingParams(json=...))``, xgrammar backend);
* ``return_token_logprobs`` — the answer comes back with each generated token's id, natural-log
  probability (``SamplingParams(logprobs=1)``, the sampled token's entry) and its characters in
  ``text_output`` (``engines.llm.confidence.token_offsets``), from which ``doc_pipeline`` scores
  each value.

Images arrive as ``data:`` URIs only (one page each, at most ``max_images``) and are processed
with ``max_soft_tokens`` (1120: Gemma 4's document budget). ``gemma4_26b_a4b/1/model.py`` is a
link to this file: the two models differ only in ``config.pbtxt`` and ``model.yaml``.

Logs carry counts, timings and error types, never prompts, images or generated text.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import sys
import threading
from pathlib import Path
from typing import Any

import numpy as np
import triton_python_backend_utils as pb_utils
import yaml

REPO_ROOT = Path(__file__).resolve().parents[3]
if str(REPO_ROOT) not in sys.path:  # engines/ (the server normally runs in the repository root)
    sys.path.insert(0, str(REPO_ROOT))

from engines.llm.confidence import token_offsets  # noqa: E402

MEDIA_PREFIXES = ("data:image/png;base64,", "data:image/jpeg;base64,")
_UNEXPANDED = re.compile(r"\$\{?[A-Za-z_][A-Za-z0-9_]*\}?")


class RequestError(Exception):
    """The request is malformed (terminal for the caller): INVALID_ARG."""


def load_model_yaml(path: Path) -> tuple[dict[str, Any], dict[str, Any]]:
    """``(LLM() arguments, triton_config)`` from model.yaml, ``${VARS}`` expanded from the env."""
    text = os.path.expandvars(path.read_text())
    missing = _UNEXPANDED.findall(text)
    if missing:
        raise pb_utils.TritonModelException(f"{path}: environment variables not set: {', '.join(missing)}")
    config = yaml.safe_load(text)
    triton_config = config.pop("triton_config", {})
    return config, triton_config


def _scalar(request: Any, name: str, default: Any = None) -> Any:
    tensor = pb_utils.get_input_tensor_by_name(request, name)
    if tensor is None:
        return default
    array = tensor.as_numpy().reshape(-1)
    if array.size != 1:
        raise RequestError(f"{name} must hold one value")
    value = array[0]
    return value.decode("utf-8") if isinstance(value, bytes) else value.item()


def _strings(request: Any, name: str) -> list[str]:
    tensor = pb_utils.get_input_tensor_by_name(request, name)
    if tensor is None:
        return []
    return [v.decode("utf-8") if isinstance(v, bytes) else str(v) for v in tensor.as_numpy().reshape(-1)]


def sampled_logprob(entry: Any, token_id: int) -> float:
    """The sampled token's log-probability from one ``CompletionOutput.logprobs`` entry (a dict
    token id -> Logprob in TensorRT-LLM's TokenLogprobs, or a bare float)."""
    if isinstance(entry, dict):
        chosen = entry.get(token_id)
        if chosen is None:
            raise RuntimeError("the sampled token is missing from its log-probabilities")
        return float(getattr(chosen, "logprob", chosen))
    return float(entry)


class TritonPythonModel:
    def initialize(self, args: dict[str, str]) -> None:
        self.logger = pb_utils.Logger
        config = json.loads(args["model_config"])
        self.name = config["name"]
        parameters = {key: value["string_value"] for key, value in config.get("parameters", {}).items()}
        self.max_soft_tokens = int(parameters.get("max_soft_tokens", "1120"))
        self.max_images = int(parameters.get("max_images", "8"))
        model_dir = Path(args["model_repository"]) / args["model_version"]
        engine_args, triton_config = load_model_yaml(
            Path(os.environ.get("LLM_CONFIG_PATH", model_dir / "model.yaml"))
        )
        if not triton_config.get("multimodal"):
            raise pb_utils.TritonModelException(
                f"{self.name}: model.yaml triton_config.multimodal must be true"
            )

        # Deferred, as in the stock model: importing tensorrt_llm initialises CUDA.
        from tensorrt_llm import LLM, SamplingParams
        from tensorrt_llm.inputs import default_multimodal_input_loader
        from tensorrt_llm.llmapi import GuidedDecodingParams
        from tensorrt_llm.llmapi.llm_utils import update_llm_args_with_extra_dict

        self._sampling_params = SamplingParams
        self._guided = GuidedDecodingParams
        self._input_loader = default_multimodal_input_loader
        self.checkpoint = str(engine_args["model"])
        self.model_type = json.loads((Path(self.checkpoint) / "config.json").read_text())["model_type"]
        self.llm = LLM(**update_llm_args_with_extra_dict({}, engine_args))
        self.tokenizer = self.llm.tokenizer
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name=f"{self.name}-loop", daemon=True)
        self.thread.start()
        self.logger.log_info(f"{self.name}: {self.model_type} loaded, max_soft_tokens {self.max_soft_tokens}")

    def execute(self, requests: list[Any]) -> None:
        for request in requests:
            asyncio.run_coroutine_threadsafe(self._answer(request), self.loop)
        return None  # every request is answered through its response sender

    async def _answer(self, request: Any) -> None:
        sender = request.get_response_sender()
        final = pb_utils.TRITONSERVER_RESPONSE_COMPLETE_FINAL
        try:
            if request.is_cancelled():
                raise asyncio.CancelledError
            prompt, sampling, with_logprobs = self._convert(request)
            output = await self.llm.generate_async(prompt, sampling).aresult()
            response = self._response(output, with_logprobs)
        except RequestError as error:
            response = pb_utils.InferenceResponse(
                error=pb_utils.TritonError(str(error), pb_utils.TritonError.INVALID_ARG)
            )
        except asyncio.CancelledError:
            response = pb_utils.InferenceResponse(
                error=pb_utils.TritonError("cancelled", pb_utils.TritonError.CANCELLED)
            )
        except Exception as error:  # one failed request must not stop the loop
            self.logger.log_error(f"{self.name}: request failed with {type(error).__name__}")
            response = pb_utils.InferenceResponse(
                error=pb_utils.TritonError(f"{type(error).__name__}", pb_utils.TritonError.INTERNAL)
            )
        sender.send(response, flags=final)

    def _convert(self, request: Any) -> tuple[Any, Any, bool]:
        texts = _strings(request, "text_input")
        if len(texts) != 1:
            raise RequestError("text_input must hold one prompt")
        images = _strings(request, "image_url")
        if not images or len(images) > self.max_images:
            raise RequestError(f"send 1 to {self.max_images} images")
        if not all(image.startswith(MEDIA_PREFIXES) for image in images):
            raise RequestError("image_url accepts data:image/png or data:image/jpeg URIs only")
        inputs = self._input_loader(
            tokenizer=self.tokenizer,
            model_dir=self.checkpoint,
            model_type=self.model_type,
            modality="image" if len(images) == 1 else "multiple_image",
            prompts=[texts[0]],
            media=[images],
            image_data_format="pil",
        )[0]
        inputs["mm_processor_kwargs"] = {"max_soft_tokens": self.max_soft_tokens}

        with_logprobs = bool(_scalar(request, "return_token_logprobs", False))
        schema = _scalar(request, "guided_json")
        kwargs: dict[str, Any] = {
            "max_tokens": int(_scalar(request, "sampling_param_max_tokens", 512)),
            "temperature": float(_scalar(request, "sampling_param_temperature", 0.0)),
        }
        top_k = _scalar(request, "sampling_param_top_k")
        if top_k is not None:
            kwargs["top_k"] = int(top_k)
        seed = _scalar(request, "sampling_param_seed")
        if seed is not None:
            kwargs["seed"] = int(seed)
        if with_logprobs:
            kwargs["logprobs"] = 1
        if schema:
            try:
                json.loads(schema)
            except json.JSONDecodeError:
                raise RequestError("guided_json is not valid JSON") from None
            kwargs["guided_decoding"] = self._guided(json=schema)
        return inputs, self._sampling_params(**kwargs), with_logprobs

    def _response(self, output: Any, with_logprobs: bool) -> Any:
        completion = output.outputs[0]
        ids = [int(t) for t in completion.token_ids]

        def decode(prefix: list[int]) -> str:
            return str(self.tokenizer.decode(prefix, skip_special_tokens=True))

        # text_output is the decoded ids themselves, so the offsets index exactly this text.
        text = decode(ids)
        tensors = [
            pb_utils.Tensor("text_output", np.array([text.encode("utf-8")], dtype=np.object_)),
            pb_utils.Tensor(
                "finish_reason", np.array([str(completion.finish_reason or "").encode()], dtype=np.object_)
            ),
        ]
        if with_logprobs:
            entries = completion.logprobs or []
            if len(entries) != len(ids):
                raise RuntimeError("log-probabilities and tokens differ in number")
            logprobs = [sampled_logprob(entry, token) for entry, token in zip(entries, ids, strict=True)]
            offsets = token_offsets(ids, decode)
            tensors += [
                pb_utils.Tensor("output_token_ids", np.array(ids, dtype=np.int32)),
                pb_utils.Tensor("output_log_probs", np.array(logprobs, dtype=np.float32)),
                pb_utils.Tensor("output_token_offsets", np.array(offsets, dtype=np.int32).reshape(-1, 2)),
            ]
        return pb_utils.InferenceResponse(output_tensors=tensors)

    def finalize(self) -> None:
        self.logger.log_info(f"{self.name}: shutting down")
        self.llm.shutdown()
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=30)
