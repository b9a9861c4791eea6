"""sim_gpu (and null): the doc_pipeline contract with a simulated model behind it.

A batch of n documents sleeps ``batch_latency_ms + n x item_latency_ms`` (wall time, no CPU, like
a GPU the host waits for) and answers every document with the same valid result: its type is the
request's ``document_type_hint`` (``other`` without one), with no fields. ``model_repo/null`` is
this file with both latencies 0 (a symlink: one implementation, two configs).

What the model measures is everything around it: the client's ability to keep batches full
(sim_gpu) and the CPU the rest of the system spends per document (null). The pages are counted,
never decoded. Errors follow doc_pipeline: ``"<error_code>: <message>"`` per request.

The ``crash_on_hint`` parameter (empty: off) makes every document with that type hint fail the
way a crashing model does (an internal error, not a verdict on the document), so the reliability
tests have a poison document that fails every attempt.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from typing import Any

import numpy as np
import triton_python_backend_utils as pb_utils

DEFAULT_MAX_PAGES = 200


def _row_count(request: Any, name: str) -> int | None:
    """How many entries the input's one row has (None when the optional input is absent)."""
    tensor = pb_utils.get_input_tensor_by_name(request, name)
    if tensor is None:
        return None
    shape = tensor.shape() if hasattr(tensor, "shape") else tensor.as_numpy().shape
    if len(shape) != 2 or shape[0] != 1:
        raise ValueError(f"{name} must have shape [1, n]: one document per request")
    return int(shape[1])


def _hint(request: Any) -> str:
    tensor = pb_utils.get_input_tensor_by_name(request, "document_type_hint")
    if tensor is None:
        return ""
    value = tensor.as_numpy().reshape(-1)
    if value.size == 0:
        return ""
    raw = value[0]
    text = raw.decode("utf-8", errors="replace") if isinstance(raw, bytes) else str(raw)
    return text.strip()


class TritonPythonModel:
    def initialize(self, args: dict[str, str]) -> None:
        config = json.loads(args["model_config"])
        parameters = {key: value["string_value"] for key, value in config.get("parameters", {}).items()}
        self.name = config.get("name", "sim_gpu")
        self.batch_latency_s = float(parameters.get("batch_latency_ms", "0")) / 1000
        self.item_latency_s = float(parameters.get("item_latency_ms", "0")) / 1000
        self.max_pages = int(parameters.get("max_pages", str(DEFAULT_MAX_PAGES)))
        self.crash_on_hint = parameters.get("crash_on_hint", "").strip()
        pb_utils.Logger.log_info(
            f"{self.name}: {self.batch_latency_s * 1000:.1f} ms a batch + "
            f"{self.item_latency_s * 1000:.1f} ms a document, at most {config.get('max_batch_size')} a batch"
        )

    def execute(self, requests: Sequence[Any]) -> list[Any]:
        started = time.perf_counter()
        latency = self.batch_latency_s + self.item_latency_s * len(requests)
        if latency > 0:
            time.sleep(latency)
        model_ms = int((time.perf_counter() - started) * 1000)
        return [self._respond(request, model_ms) for request in requests]

    def _respond(self, request: Any, model_ms: int) -> Any:
        try:
            pages = _row_count(request, "pages") or 0
            text_pages = _row_count(request, "text_layer")
        except ValueError as error:
            return self._error("invalid_request", str(error))
        if pages == 0:
            return self._error("invalid_request", "no pages")
        if pages > self.max_pages:
            return self._error("invalid_request", f"{pages} pages, at most {self.max_pages} allowed")
        if text_pages is not None and text_pages != pages:
            return self._error("invalid_request", f"text_layer has {text_pages} entries for {pages} pages")
        if self.crash_on_hint and _hint(request) == self.crash_on_hint:
            return pb_utils.InferenceResponse(error=pb_utils.TritonError("simulated model crash"))
        result = {
            "document_type": _hint(request) or "other",
            "document_type_confidence": 1.0,
            "pages": pages,
            "fields": {},
            "checks": [],
            "engine": {"name": self.name, "version": "1"},
            "timings_ms": {"model": model_ms},
        }
        payload = json.dumps(result, sort_keys=True).encode("utf-8")
        output = pb_utils.Tensor("result_json", np.array([[payload]], dtype=np.object_))
        return pb_utils.InferenceResponse(output_tensors=[output])

    @staticmethod
    def _error(code: str, message: str) -> Any:
        error = pb_utils.TritonError(f"{code}: {message}", pb_utils.TritonError.INVALID_ARG)
        return pb_utils.InferenceResponse(error=error)
