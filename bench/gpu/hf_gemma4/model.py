"""Benchmark stand-in for ``gemma4_e4b`` on a GPU: the Gemma 4 E4B architecture with random BF16
weights (instantiated from its configuration with transformers, nothing downloaded), answering
the same tensors as model_repo/gemma4_e4b (text_output, finish_reason, output_token_ids,
output_log_probs, output_token_offsets).

What it measures is the model's real work: the vision tower over each page at 1120 soft tokens,
the prefill of ~1300 tokens, and exactly ``BENCH_OUTPUT_TOKENS`` (200) greedy decode steps for an
extraction call (16 for a classification). Random weights write noise, so the *text* it returns
is a fixed, schema-valid JSON answer spread over the generated tokens, with the generated
tokens' real log-probabilities; doc_pipeline parses it like a real answer.

Batching: requests are queued and a worker thread runs them in batches of up to ``max_batch``
(static batching with ``generate``; TensorRT-LLM's in-flight batching is faster — the numbers
are a baseline for the Triton + BLS path, not for the production engine).

Used only by bench/gpu/run.sh; never loaded by the application.
"""

from __future__ import annotations

import base64
import io
import json
import os
import queue
import threading
import time
from typing import Any

import numpy as np
import triton_python_backend_utils as pb_utils

OUTPUT_TOKENS = int(os.environ.get("BENCH_OUTPUT_TOKENS", "200"))
MAX_BATCH = int(os.environ.get("BENCH_MAX_BATCH", "64"))
BATCH_WAIT_S = float(os.environ.get("BENCH_BATCH_WAIT_MS", "10")) / 1000
MAX_SOFT_TOKENS = 1120
PROMPT_TOKENS = 160


def e4b_config() -> Any:
    """Gemma 4 E4B as transformers' convert_gemma4_weights.py declares it (no audio tower: the
    benchmark sends images only)."""
    from transformers import Gemma4Config, Gemma4TextConfig, Gemma4VisionConfig

    text = Gemma4TextConfig(
        hidden_size=2560,
        hidden_size_per_layer_input=256,
        intermediate_size=4 * 2560,
        num_hidden_layers=42,
        layer_types=(["sliding_attention"] * 5 + ["full_attention"]) * 7,
        num_attention_heads=8,
        num_key_value_heads=2,
        global_head_dim=512,
        num_kv_shared_layers=18,
        final_logit_softcapping=30.0,
    )
    vision = Gemma4VisionConfig(
        hidden_size=768,
        intermediate_size=3072,
        num_hidden_layers=16,
        num_attention_heads=12,
        num_key_value_heads=12,
        head_dim=64,
        pooling_kernel_size=3,
        use_clipped_linears=True,
    )
    return Gemma4Config(text_config=text, vision_config=vision, audio_config=None)


def image_processor() -> Any:
    try:
        from transformers import Gemma4ImageProcessor
    except ImportError:
        from transformers.models.gemma4.image_processing_gemma4 import Gemma4ImageProcessor
    return Gemma4ImageProcessor()


def canned_answer(schema: dict[str, Any]) -> str:
    """A schema-valid answer: the classifier says invoice, the extractor fills nothing."""
    properties = schema.get("properties", {})
    if "document_type" in properties:
        return json.dumps({"document_type": "invoice"})
    return json.dumps(dict.fromkeys(properties))


class TritonPythonModel:
    def initialize(self, args: dict[str, str]) -> None:
        import torch
        from transformers import Gemma4ForConditionalGeneration

        self.torch = torch
        started = time.perf_counter()
        torch.manual_seed(0)
        self.config = e4b_config()
        with torch.device("cuda"):
            self.model = Gemma4ForConditionalGeneration(self.config).to(torch.bfloat16).eval()
        self.processor = image_processor()
        self.queue: queue.Queue[tuple[Any, Any]] = queue.Queue()
        self.running = True
        self.worker = threading.Thread(target=self._loop, name="bench-gemma4", daemon=True)
        self.worker.start()
        params = sum(p.numel() for p in self.model.parameters()) / 1e9
        pb_utils.Logger.log_info(
            f"bench gemma4_e4b: {params:.2f}B random parameters in {time.perf_counter() - started:.0f} s"
        )

    def execute(self, requests: list[Any]) -> None:
        for request in requests:
            self.queue.put((request, request.get_response_sender()))
        return None

    def _loop(self) -> None:
        while self.running:
            try:
                first = self.queue.get(timeout=0.5)
            except queue.Empty:
                continue
            batch = [first]
            deadline = time.monotonic() + BATCH_WAIT_S
            while len(batch) < MAX_BATCH and time.monotonic() < deadline:
                try:
                    batch.append(self.queue.get(timeout=max(0.0, deadline - time.monotonic())))
                except queue.Empty:
                    break
            groups: dict[int, list[tuple[Any, Any]]] = {}
            for item in batch:
                groups.setdefault(self._new_tokens(item[0]), []).append(item)
            for new_tokens, items in groups.items():
                self._run(items, new_tokens)

    def _new_tokens(self, request: Any) -> int:
        tensor = pb_utils.get_input_tensor_by_name(request, "sampling_param_max_tokens")
        asked = int(tensor.as_numpy().reshape(-1)[0]) if tensor is not None else OUTPUT_TOKENS
        return min(asked, OUTPUT_TOKENS)

    def _inputs(self, request: Any) -> tuple[Any, str]:
        from PIL import Image

        uri = pb_utils.get_input_tensor_by_name(request, "image_url").as_numpy().reshape(-1)[0].decode()
        image = Image.open(io.BytesIO(base64.b64decode(uri.split(",", 1)[1]))).convert("RGB")
        schema_tensor = pb_utils.get_input_tensor_by_name(request, "guided_json")
        schema = json.loads(schema_tensor.as_numpy().reshape(-1)[0]) if schema_tensor is not None else {}
        return image, canned_answer(schema)

    def _run(self, items: list[tuple[Any, Any]], new_tokens: int) -> None:
        torch = self.torch
        final = pb_utils.TRITONSERVER_RESPONSE_COMPLETE_FINAL
        try:
            decoded = [self._inputs(request) for request, _sender in items]
            pixels = self.processor(
                images=[image for image, _ in decoded], max_soft_tokens=MAX_SOFT_TOKENS, return_tensors="pt"
            )
            positions = pixels["image_position_ids"]
            soft_tokens = int((positions[0, :, 0] >= 0).sum()) // 9
            config = self.config
            image_tokens = [
                config.boi_token_id,
                *([config.image_token_id] * soft_tokens),
                config.eoi_token_id,
            ]
            prompt = torch.randint(1000, 200_000, (len(items), PROMPT_TOKENS))
            input_ids = torch.cat([torch.tensor([[2, *image_tokens]] * len(items)), prompt], dim=1).cuda()
            output = self.model.generate(
                input_ids=input_ids,
                attention_mask=torch.ones_like(input_ids),
                pixel_values=pixels["pixel_values"].to("cuda", torch.bfloat16),
                image_position_ids=positions.cuda(),
                max_new_tokens=new_tokens,
                min_new_tokens=new_tokens,
                do_sample=False,
                output_scores=True,
                return_dict_in_generate=True,
            )
            scores = self.model.compute_transition_scores(
                output.sequences, output.scores, normalize_logits=True
            )
            scores = scores.float().cpu().numpy()
            generated = output.sequences[:, input_ids.shape[1] :].cpu().numpy()
        except Exception as error:
            for _request, sender in items:
                sender.send(
                    pb_utils.InferenceResponse(
                        error=pb_utils.TritonError(f"{type(error).__name__}: {error}")
                    ),
                    flags=final,
                )
            return
        for row, (_request, sender) in enumerate(items):
            text = decoded[row][1]
            n = generated.shape[1]
            # The fixed answer spread over the generated tokens, so every character has a token.
            bounds = [round(i * len(text) / n) for i in range(n + 1)]
            offsets = np.array([[bounds[i], bounds[i + 1]] for i in range(n)], dtype=np.int32)
            tensors = [
                pb_utils.Tensor("text_output", np.array([text.encode()], dtype=np.object_)),
                pb_utils.Tensor("finish_reason", np.array([b"stop"], dtype=np.object_)),
                pb_utils.Tensor("output_token_ids", generated[row].astype(np.int32)),
                pb_utils.Tensor("output_log_probs", scores[row].astype(np.float32)),
                pb_utils.Tensor("output_token_offsets", offsets),
            ]
            sender.send(pb_utils.InferenceResponse(output_tensors=tensors), flags=final)

    def finalize(self) -> None:
        self.running = False
        self.worker.join(timeout=10)
