"""doc_pipeline, GPU variant: classify -> extract -> verify over the Gemma 4 models, inside Triton.

Loaded instead of ``model.py`` by ``configs/gpu.pbtxt`` (``default_model_filename``); same
inputs, outputs and per-request errors (ARCHITECTURE §3.5), so the worker cannot tell the
variants apart except by ``engine`` in the result.

One ``execute()`` receives up to ``max_batch_size`` documents. Their classification calls go out
together with async BLS (``InferenceRequest.async_exec()``), then their extraction calls, so
TensorRT-LLM's in-flight batcher always sees the whole batch, and one document costs the worker
a single round trip. Everything decided about what the models wrote — which type, which schema,
which value at which confidence, which checks — is ``engines.llm.pipeline``, tested without a GPU.

Errors: the document's fault -> INVALID_ARG ``"<code>: <message>"`` as on CPU; a model that
failed or timed out -> UNAVAILABLE (the worker retries); anything else -> INTERNAL. Logs carry
codes, counts and timings only.
"""

from __future__ import annotations

import asyncio
import base64
import importlib.util
import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import triton_python_backend_utils as pb_utils

from engines.llm import pipeline
from engines.llm.schemas import CLASSIFY_TYPES
from engines.types import Check, EngineError, FieldResult


def _load_request_parsing() -> Any:
    """The CPU variant's request parsing (model.py beside this file), shared, not copied."""
    spec = importlib.util.spec_from_file_location(
        "doc_pipeline_cpu_model", Path(__file__).with_name("model.py")
    )
    if spec is None or spec.loader is None:
        raise pb_utils.TritonModelException("doc_pipeline: model.py not found beside gpu_model.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


_cpu = _load_request_parsing()
InvalidRequest = _cpu.InvalidRequest
parse_request = _cpu.parse_request


class ModelCallFailed(Exception):
    """A Gemma 4 model did not answer (not loaded, out of memory, timed out): retryable."""


def data_uri(page: bytes) -> str:
    """A page as the data: URI the Gemma 4 models accept; PNG and JPEG only."""
    if page.startswith(b"\x89PNG\r\n\x1a\n"):
        kind = "png"
    elif page.startswith(b"\xff\xd8\xff"):
        kind = "jpeg"
    else:
        raise EngineError("unreadable_image", "a page is neither PNG nor JPEG")
    return f"data:image/{kind};base64,{base64.b64encode(page).decode('ascii')}"


@dataclass
class Document:
    """One request's progress through the steps."""

    request: Any
    pages: list[str] = field(default_factory=list)  # data: URIs
    page_count: int = 0
    hint: str | None = None
    custom_schema: dict[str, Any] | None = None
    decision: pipeline.TypeDecision | None = None
    fields: dict[str, FieldResult] = field(default_factory=dict)
    checks: list[Check] = field(default_factory=list)
    timings_ms: dict[str, int] = field(default_factory=dict)
    error: Any = None  # the pb_utils.InferenceResponse error to answer with


def _bytes_tensor(name: str, values: list[str]) -> Any:
    return pb_utils.Tensor(name, np.array([v.encode("utf-8") for v in values], dtype=np.object_))


class TritonPythonModel:
    def initialize(self, args: dict[str, str]) -> None:
        config = json.loads(args["model_config"])
        parameters = {key: value["string_value"] for key, value in config.get("parameters", {}).items()}
        self.max_pages = int(parameters.get("max_pages", "200"))
        self.classify_model = parameters.get("classify_model", "gemma4_e4b")
        self.extract_model = parameters.get("extract_model", "gemma4_26b_a4b")
        self.simple_types = frozenset(t for t in parameters.get("simple_types", "").split(",") if t)
        self.max_images = int(parameters.get("max_images_per_call", "4"))
        statistic = parameters.get("confidence_statistic", "minimum")
        if statistic not in pipeline.STATISTICS:
            raise pb_utils.TritonModelException(
                f"doc_pipeline: confidence_statistic must be one of {pipeline.STATISTICS}"
            )
        self.statistic: pipeline.Statistic = statistic  # type: ignore[assignment]
        self.timeout_us = int(parameters.get("call_timeout_ms", "25000")) * 1000
        self.loop = asyncio.new_event_loop()
        self.logger = pb_utils.Logger
        self.logger.log_info(
            f"doc_pipeline (gpu): classify with {self.classify_model}, extract with {self.extract_model}, "
            f"{self.statistic} token probability"
        )

    def execute(self, requests: list[Any]) -> list[Any]:
        return self.loop.run_until_complete(self._run(requests))

    async def _run(self, requests: list[Any]) -> list[Any]:
        documents = [self._start(request) for request in requests]
        live = [d for d in documents if d.error is None]
        await asyncio.gather(*(self._step(d, self._classify(d)) for d in live))
        live = [d for d in live if d.error is None]
        await asyncio.gather(*(self._step(d, self._extract(d)) for d in live))
        return [self._respond(d) for d in documents]

    def _start(self, request: Any) -> Document:
        document = Document(request)
        if request.is_cancelled():
            document.error = pb_utils.TritonError(
                "cancelled: the client cancelled the request", pb_utils.TritonError.CANCELLED
            )
            return document
        try:
            parsed = parse_request(request, max_pages=self.max_pages)
            if not parsed.pages:
                raise EngineError("unreadable_image", "the document has no pages")
            document.page_count = len(parsed.pages)
            document.pages = [data_uri(page) for page in parsed.pages[: self.max_images]]
            document.hint = parsed.document_type_hint
            document.custom_schema = parsed.schema
            if (
                document.hint is not None
                and document.hint not in CLASSIFY_TYPES
                and document.custom_schema is None
            ):
                raise EngineError("invalid_request", "a document type outside §3.2 needs its schema_json")
        except (InvalidRequest, EngineError) as error:
            document.error = pb_utils.TritonError(
                f"{error.code}: {error.message}", pb_utils.TritonError.INVALID_ARG
            )
        return document

    async def _step(self, document: Document, step: Any) -> None:
        """Run one step of one document; its failure becomes that document's error only."""
        try:
            await step
        except EngineError as error:
            document.error = pb_utils.TritonError(
                f"{error.code}: {error.message}", pb_utils.TritonError.INVALID_ARG
            )
        except ModelCallFailed as error:
            document.error = pb_utils.TritonError(
                f"model_unavailable: {error}", pb_utils.TritonError.UNAVAILABLE
            )
        except Exception as error:
            self.logger.log_error(f"doc_pipeline (gpu): {type(error).__name__} in a step")
            document.error = pb_utils.TritonError(
                f"engine_internal_error: {type(error).__name__}", pb_utils.TritonError.INTERNAL
            )

    async def _call(self, model: str, call: pipeline.ModelCall, images: list[str]) -> pipeline.Generation:
        """One Gemma 4 request, awaited without blocking the other documents' calls."""
        inputs = [
            _bytes_tensor("text_input", [call.prompt]),
            _bytes_tensor("image_url", images),
            _bytes_tensor("guided_json", [call.schema_json]),
            pb_utils.Tensor("return_token_logprobs", np.array([True], dtype=bool)),
            pb_utils.Tensor("sampling_param_max_tokens", np.array([call.max_tokens], dtype=np.int32)),
            pb_utils.Tensor("sampling_param_temperature", np.array([0.0], dtype=np.float32)),
        ]
        request = pb_utils.InferenceRequest(
            model_name=model,
            inputs=inputs,
            requested_output_names=[
                "text_output",
                "finish_reason",
                "output_log_probs",
                "output_token_offsets",
            ],
            timeout=self.timeout_us,
        )
        response = await request.async_exec()
        if response.has_error():
            raise ModelCallFailed(f"{model} answered with an error")

        def output(name: str) -> np.ndarray:
            tensor = pb_utils.get_output_tensor_by_name(response, name)
            if tensor is None:
                raise ModelCallFailed(f"{model} returned no {name}")
            return tensor.as_numpy()

        text = output("text_output").reshape(-1)[0]
        finish = output("finish_reason").reshape(-1)
        return pipeline.Generation(
            text=text.decode("utf-8") if isinstance(text, bytes) else str(text),
            logprobs=[float(v) for v in output("output_log_probs").reshape(-1)],
            offsets=[(int(a), int(b)) for a, b in output("output_token_offsets").reshape(-1, 2)],
            truncated_by_length=bool(finish.size) and finish[0] in (b"length", "length"),
        )

    async def _classify(self, document: Document) -> None:
        started = time.perf_counter()
        if document.hint is not None and document.hint not in CLASSIFY_TYPES:
            # A tenant's own type: the classifier knows only §3.2 types.
            document.decision = pipeline.TypeDecision(
                document.hint, 1.0, [Check("document_type_hint", True, "")]
            )
            return
        generation = await self._call(
            self.classify_model, pipeline.plan_classification(document.page_count), document.pages[:1]
        )
        document.decision = pipeline.read_classification(
            generation, hint=document.hint, statistic=self.statistic
        )
        document.timings_ms["classify"] = round((time.perf_counter() - started) * 1000)

    async def _extract(self, document: Document) -> None:
        assert document.decision is not None
        document_type = document.decision.document_type
        if document.custom_schema is None and document_type == "other":
            return  # classification only (§3.2)
        started = time.perf_counter()
        schema = pipeline.extraction_schema_for(document_type, document.custom_schema)
        simple = document.custom_schema is None and document_type in self.simple_types
        model = self.classify_model if simple else self.extract_model
        call = pipeline.plan_extraction(document_type, schema, len(document.pages))
        generation = await self._call(model, call, document.pages)
        document.fields, parsed = pipeline.read_extraction(generation, schema, statistic=self.statistic)
        document.checks = pipeline.verify(document_type, document.fields, parsed)
        if document.page_count > len(document.pages):
            detail = f"the first {len(document.pages)} of {document.page_count} pages were read"
            document.checks.append(Check("all_pages_read", False, detail))
        document.timings_ms["extract"] = round((time.perf_counter() - started) * 1000)

    def _respond(self, document: Document) -> Any:
        request_id = document.request.request_id() or "-"
        if document.error is not None:
            self.logger.log_info(
                f"doc_pipeline (gpu): request {request_id} failed: {document.error.message().split(':')[0]}"
            )
            return pb_utils.InferenceResponse(error=document.error)
        assert document.decision is not None
        result = pipeline.assemble(
            document.decision,
            document.fields,
            document.checks,
            pages=document.page_count,
            timings_ms=document.timings_ms,
        )
        payload = result.to_json().encode("utf-8")
        return pb_utils.InferenceResponse(
            output_tensors=[pb_utils.Tensor("result_json", np.array([[payload]], dtype=np.object_))]
        )

    def finalize(self) -> None:
        self.loop.close()
