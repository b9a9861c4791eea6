"""Gemma 4 on TensorRT-LLM's PyTorch backend (LLM API), as a Triton Python model (GPU only).

The shape of TensorRT-LLM's stock ``llmapi`` Triton model (triton_backend/all_models/llmapi/
tensorrt_llm/1/model.py): ``model.yaml`` is passed to ``tensorrt_llm.LLM()``, one asyncio loop
in a thread runs ``generate_async`` for every request while TensorRT-LLM batches them in flight,
and each request is answered through its response sender. Two extensions for ARCHITECTURE §3.5:

* ``guided_json`` — a JSON Schema; the answer is decoded under it
  (``SamplingParams(guided_decoding=GuidedDecodingParams(json=...))``, xgrammar backend);
* ``return_token_logprobs`` — the answer comes back with each generated token's id, natural-log
  probability (``SamplingParams(logprobs=1, logprobs_mode=LogprobMode.RAW)``, the sampled token's
  entry) and its characters in ``text_output``, from which ``doc_pipeline`` scores each value.

How it runs (model_repo/TENSORRT_LLM.md says why and against which TensorRT-LLM source):

* **one process per model, no MPI proxy**: both Gemma models are TP=1, so each ``LLM()`` runs its
  executor inside this stub (``TLLM_WORKER_USE_SINGLE_PROCESS=1``) under a plain ``tritonserver``.
  ``trtllm-llmapi-launch`` is refused: its one spawn proxy serves one ``LLM()``, and the second
  model would not load. Inherited MPI job variables are cleared first, as the stock model does;
* **the page budget is the checkpoint's**: TensorRT-LLM's Gemma 4 input processor ignores
  ``mm_processor_kwargs``, so ``scripts/gpu/quantize.sh`` writes ``max_soft_tokens`` into the
  checkpoint's processor files and this model refuses a checkpoint whose budget is not the
  ``max_soft_tokens`` parameter of ``config.pbtxt``;
* **the event loop only awaits**: decoding the pages, the chat template and the detokenization
  run on a small thread pool; the processor (chat template) is built once at load.

Images arrive as ``data:`` URIs only (one page each, at most ``max_images``). The pure parts live
in ``gemma4_support.py`` beside this file (tested on CPU). ``gemma4_26b_a4b/1/model.py`` is a
link to this file: the two models differ only in ``config.pbtxt`` and ``model.yaml``.

Logs carry counts, timings and error types, never prompts, images or generated text.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent  # gemma4_e4b/1 for both models: the 26B's model.py links here
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import gemma4_support as support  # noqa: E402

# Before anything imports mpi4py (tensorrt_llm does): a Triton started under mpirun must not hand
# its MPI job to this stub, which starts MPI afresh.
support.scrub_inherited_mpi_env(os.environ)

import numpy as np  # noqa: E402
import triton_python_backend_utils as pb_utils  # noqa: E402

CONVERT_THREADS = 4  # page decoding, chat template, detokenization: off the event loop


def _scalar(request: Any, name: str, default: Any = None) -> Any:
    tensor = pb_utils.get_input_tensor_by_name(request, name)
    if tensor is None:
        return default
    array = tensor.as_numpy().reshape(-1)
    if array.size != 1:
        raise support.RequestError(f"{name} must hold one value")
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
        self.max_images = int(parameters["max_images"])
        model_dir = Path(args["model_repository"]) / args["model_version"]
        if support.launched_with_spawn_proxy(os.environ):
            raise pb_utils.TritonModelException(
                f"{self.name}: started under trtllm-llmapi-launch, whose one spawn proxy serves a single "
                "LLM(): run plain tritonserver (scripts/gpu/serve.sh)"
            )
        try:
            engine_args, triton_config = support.load_model_yaml(
                Path(os.environ.get("LLM_CONFIG_PATH", model_dir / "model.yaml")), os.environ
            )
            support.check_engine_args(engine_args, triton_config, int(parameters["max_soft_tokens"]))
        except support.ModelConfigError as error:
            raise pb_utils.TritonModelException(f"{self.name}: {error}") from None

        # TP=1: the executor runs in this process, no MPI proxy to spawn. Set before tensorrt_llm is
        # imported (it reads the variable once); the import itself is deferred, as in the stock
        # model, because it initialises CUDA.
        os.environ["TLLM_WORKER_USE_SINGLE_PROCESS"] = "1"
        from tensorrt_llm import LLM, SamplingParams
        from tensorrt_llm.llmapi import GuidedDecodingParams
        from tensorrt_llm.llmapi.llm_utils import update_llm_args_with_extra_dict
        from tensorrt_llm.sampling_params import LogprobMode
        from transformers import AutoProcessor

        self._sampling_params = SamplingParams
        self._guided = GuidedDecodingParams
        self._raw_logprobs = LogprobMode.RAW
        checkpoint = str(engine_args["model"])
        self.processor = AutoProcessor.from_pretrained(checkpoint)  # the chat template, built once
        self.llm = LLM(**update_llm_args_with_extra_dict({}, engine_args))
        self.tokenizer = self.llm.tokenizer
        self.pool = ThreadPoolExecutor(CONVERT_THREADS, thread_name_prefix=f"{self.name}-convert")
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, name=f"{self.name}-loop", daemon=True)
        self.thread.start()
        self.logger.log_info(f"{self.name}: loaded, {parameters['max_soft_tokens']} soft tokens per page")

    def execute(self, requests: list[Any]) -> None:
        for request in requests:
            asyncio.run_coroutine_threadsafe(self._answer(request), self.loop)
        return None  # every request is answered through its response sender

    async def _answer(self, request: Any) -> None:
        sender = request.get_response_sender()
        loop = asyncio.get_running_loop()
        try:
            if request.is_cancelled():
                raise asyncio.CancelledError
            prompt, sampling, asked = await loop.run_in_executor(self.pool, self._convert, request)
            output = await self.llm.generate_async(prompt, sampling).aresult()
            response = await loop.run_in_executor(self.pool, self._response, output, asked)
        except support.RequestError as error:
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
        sender.send(response, flags=pb_utils.TRITONSERVER_RESPONSE_COMPLETE_FINAL)

    def _convert(self, request: Any) -> tuple[dict[str, Any], Any, tuple[bool, int]]:
        """The prompt (chat template, pages first) and sampling parameters of one request."""
        texts = _strings(request, "text_input")
        if len(texts) != 1:
            raise support.RequestError("text_input must hold one prompt")
        uris = _strings(request, "image_url")
        if not uris or len(uris) > self.max_images:
            raise support.RequestError(f"send 1 to {self.max_images} images")
        pages = [support.page_image(uri) for uri in uris]
        prompt = support.page_prompt(self.processor, texts[0], len(pages))  # one <bos> once tokenized
        inputs = {"prompt": prompt, "multi_modal_data": {"image": pages}}

        with_logprobs = bool(_scalar(request, "return_token_logprobs", False))
        alternatives = int(_scalar(request, "return_token_alternatives", 0)) if with_logprobs else 0
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
            # RAW: the log-softmax of the logits the sampler receives (after the grammar mask, before
            # temperature/top-k/top-p), whatever the sampling settings; calibration is per engine.
            # The top ``alternatives`` per token (at least the sampled one): which of them the
            # grammar ruled out (-inf) says how many choices it left (engines.llm.confidence).
            kwargs["logprobs"] = max(1, alternatives)
            kwargs["logprobs_mode"] = self._raw_logprobs
        if schema:
            try:
                json.loads(schema)
            except json.JSONDecodeError:
                raise support.RequestError("guided_json is not valid JSON") from None
            kwargs["guided_decoding"] = self._guided(json=schema)
        return inputs, self._sampling_params(**kwargs), (with_logprobs, alternatives)

    def _response(self, output: Any, asked: tuple[bool, int]) -> Any:
        with_logprobs, alternatives = asked
        completion = output.outputs[0]
        ids = [int(t) for t in completion.token_ids]
        # text_output is the detokenized ids themselves, so the offsets index exactly this text.
        text, offsets = support.decode_with_offsets(
            ids, lambda window: str(self.tokenizer.decode(window, skip_special_tokens=True))
        )
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
            tensors += [
                pb_utils.Tensor("output_token_ids", np.array(ids, dtype=np.int32)),
                pb_utils.Tensor("output_log_probs", np.array(logprobs, dtype=np.float32)),
                pb_utils.Tensor("output_token_offsets", np.array(offsets, dtype=np.int32).reshape(-1, 2)),
            ]
            choices = support.step_choices(entries, self._decode_one) if alternatives else None
            if choices is not None:
                tensors.append(pb_utils.Tensor("output_token_choices", np.array(choices, dtype=np.int32)))
        return pb_utils.InferenceResponse(output_tensors=tensors)

    def _decode_one(self, token: int) -> str:
        """One token's text, as an OpenAI-compatible engine returns an alternative's."""
        return str(self.tokenizer.decode([token], skip_special_tokens=True))

    def finalize(self) -> None:
        self.logger.log_info(f"{self.name}: shutting down")
        self.llm.shutdown()
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=30)
        self.pool.shutdown(wait=False, cancel_futures=True)
