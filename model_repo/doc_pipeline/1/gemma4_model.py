"""doc_pipeline, Gemma 4 variant: classify -> extract -> verify over Gemma 4, inside Triton.

Loaded instead of ``model.py`` by ``configs/gemma4.pbtxt`` (``default_model_filename``); same
inputs, outputs and per-request errors (ARCHITECTURE §3.5), so the worker cannot tell the
variants apart except by ``engine`` in the result. Still the worker's single round trip per
document.

The model is reached through one interface (:mod:`engines.llm.model_client`) with two backends,
picked by ``DOCINTEL_MODEL_BACKEND``:

* ``openai`` (default): an OpenAI-compatible engine over HTTP (vLLM, SGLang, ``trtllm-serve``,
  Dynamo) — :class:`engines.llm.openai_backend.OpenAIBackend`;
* ``tensorrt_llm``: the in-Triton ``llmapi`` models ``gemma4_e4b`` / ``gemma4_26b_a4b`` over BLS —
  :class:`TritonLlmapiBackend` below.

Each document is its own chain: its extraction starts the moment its own classification returns,
never waiting for the rest of the batch; the backend's in-flight limit (not the batch) decides how
many calls the engine sees at once. Everything decided about what the model wrote — which type,
which schema, which value at which confidence, which checks — is ``engines.llm.pipeline``.

Errors: the document's fault -> INVALID_ARG ``"<code>: <message>"`` as on CPU; an engine that is
down or slow past ``wait_s`` -> UNAVAILABLE ``"model_unavailable: …"`` (the worker waits the outage
out: the document neither fails nor spends its attempts); the engine refusing this very request
(an HTTP 4xx, or INVALID_ARG from a TensorRT-LLM model: a schema it cannot compile, too many
images) -> INVALID_ARG ``"model_request_refused: …"``, never retried; the engine failing a call
(HTTP 500, INTERNAL from a TensorRT-LLM model) -> INTERNAL without a code (retried within the
document's attempts); anything else -> INTERNAL. An engine that is misconfigured — it does not serve
the model asked for, or refuses per-request page budgets — is a configuration error, never the
documents' failure: the start-up readiness check (:mod:`engines.llm.readiness`, rechecked every
``READINESS_RECHECK_S`` until all is well) logs it, and every document is answered UNAVAILABLE
``"model_unavailable: engine misconfigured: …"`` meanwhile (the worker waits, as for an outage). An engine that returns no log-probabilities is
misconfigured: each such call is logged as an error and the document's confidences are 0.0 with a
failed ``model_scored`` check. Logs carry codes, counts and timings only.
"""

from __future__ import annotations

import asyncio
import base64
import importlib.util
import json
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import triton_python_backend_utils as pb_utils

from engines.custom_types import TypeCandidate
from engines.llm import pipeline
from engines.llm.confidence import ALTERNATIVES
from engines.llm.gpu_plan import sequence_tokens
from engines.llm.model_client import (
    EngineMisconfigured,
    ModelBackend,
    ModelFailed,
    ModelRequest,
    ModelSettings,
    ModelUnavailable,
    Role,
    describe,
)
from engines.llm.readiness import EngineCheck, ReadinessGate
from engines.llm.schemas import CLASSIFY_TYPES
from engines.types import Check, EngineError, FieldResult


def _load_request_parsing() -> Any:
    """The reference variant's request parsing (model.py beside this file), shared, not copied."""
    spec = importlib.util.spec_from_file_location(
        "doc_pipeline_reference_model", Path(__file__).with_name("model.py")
    )
    if spec is None or spec.loader is None:
        raise pb_utils.TritonModelException("doc_pipeline: model.py not found beside gemma4_model.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


# How often a misconfigured (or not yet reachable) engine is asked again, at most: on the next batch.
READINESS_RECHECK_S = 30.0

_reference = _load_request_parsing()
InvalidRequest = _reference.InvalidRequest
parse_request = _reference.parse_request


def data_uri(page: bytes) -> str:
    """A page as the data: URI the Gemma 4 engines accept; PNG and JPEG only."""
    if page.startswith(b"\x89PNG\r\n\x1a\n"):
        kind = "png"
    elif page.startswith(b"\xff\xd8\xff"):
        kind = "jpeg"
    else:
        raise EngineError("unreadable_image", "a page is neither PNG nor JPEG")
    return f"data:image/{kind};base64,{base64.b64encode(page).decode('ascii')}"


def _bytes_tensor(name: str, values: list[str]) -> Any:
    return pb_utils.Tensor(name, np.array([v.encode("utf-8") for v in values], dtype=np.object_))


class TritonLlmapiBackend:
    """The ``tensorrt_llm`` backend: TensorRT-LLM's ``llmapi`` models in this Triton, over async BLS.

    Their contract is ``model_repo/gemma4_e4b``'s (see model_repo/TENSORRT_LLM.md): TensorRT-LLM's
    Gemma 4 input processor ignores a per-request page budget, so ``image_tokens`` is fixed by the
    checkpoint's ``processor_config.json`` instead and not sent."""

    def __init__(self, settings: ModelSettings) -> None:
        self.settings = settings
        self._slots = asyncio.Semaphore(settings.max_in_flight)
        self.timeout_us = int(settings.call_timeout_s * 1_000_000)

    async def generate(self, model: str, request: ModelRequest) -> pipeline.Generation:
        inputs = [
            _bytes_tensor("text_input", [request.call.prompt]),
            _bytes_tensor("image_url", list(request.images)),
            _bytes_tensor("guided_json", [request.call.schema_json]),
            pb_utils.Tensor("return_token_logprobs", np.array([True], dtype=bool)),
            pb_utils.Tensor("return_token_alternatives", np.array([ALTERNATIVES], dtype=np.int32)),
            pb_utils.Tensor("sampling_param_max_tokens", np.array([request.call.max_tokens], dtype=np.int32)),
            pb_utils.Tensor("sampling_param_temperature", np.array([0.0], dtype=np.float32)),
        ]
        bls = pb_utils.InferenceRequest(
            model_name=model,
            inputs=inputs,
            requested_output_names=[
                "text_output",
                "finish_reason",
                "output_log_probs",
                "output_token_offsets",
                "output_token_choices",
            ],
            timeout=self.timeout_us,
        )
        async with self._slots:
            started = time.perf_counter()
            response = await bls.async_exec()
            engine_ms = round((time.perf_counter() - started) * 1000)
        if response.has_error():
            raise engine_error(model, response.error())

        def output(name: str) -> np.ndarray:
            tensor = pb_utils.get_output_tensor_by_name(response, name)
            if tensor is None:
                raise ModelUnavailable(f"{model} returned no {name}")
            return tensor.as_numpy()

        text = output("text_output").reshape(-1)[0]
        finish = output("finish_reason").reshape(-1)
        # asked for (return_token_logprobs) and not returned: a misconfigured model, scored as unknown
        scored = all(
            pb_utils.get_output_tensor_by_name(response, name) is not None
            for name in ("output_log_probs", "output_token_offsets")
        )
        logprobs = [float(v) for v in output("output_log_probs").reshape(-1)] if scored else []
        offsets = (
            [(int(a), int(b)) for a, b in output("output_token_offsets").reshape(-1, 2)] if scored else []
        )
        returned = pb_utils.get_output_tensor_by_name(response, "output_token_choices") if scored else None
        choices = [int(c) for c in returned.as_numpy().reshape(-1)] if returned is not None else None
        return pipeline.Generation(
            text=text.decode("utf-8") if isinstance(text, bytes) else str(text),
            logprobs=logprobs,
            offsets=offsets,
            truncated_by_length=bool(finish.size) and finish[0] in (b"length", "length"),
            answer_tokens=len(logprobs),
            engine_ms=engine_ms,
            scored=scored,
            choices=choices,
        )

    async def check_ready(self, *, min_model_len: int) -> list[EngineCheck]:
        """Nothing to ask: the models are this Triton's own, loaded (or not) before doc_pipeline."""
        return []

    async def close(self) -> None:
        return None


def engine_error(model: str, error: Any) -> Exception:
    """What a TensorRT-LLM model's error response means for the document, as the ``openai``
    backend reads HTTP statuses: INVALID_ARG is the model refusing this very request (a schema it
    cannot compile, too many images) -> ``model_request_refused``, as a 4xx, since asking again
    cannot help; INTERNAL is the model failing the call -> :class:`ModelFailed`, as a 500 (retried
    within the document's attempts); anything else (UNAVAILABLE, a timeout, a cancellation) is an
    engine that cannot answer now -> :class:`ModelUnavailable`."""
    code = error.code()
    if code == pb_utils.TritonError.INVALID_ARG:
        return EngineError(
            "model_request_refused", f"the model engine refused the call ({model}: INVALID_ARG)"
        )
    if code == pb_utils.TritonError.INTERNAL:
        return ModelFailed(f"{model} failed the call (INTERNAL)")
    return ModelUnavailable(f"{model} answered with an error")


def make_backend(settings: ModelSettings) -> ModelBackend:
    if settings.backend == "tensorrt_llm":
        return TritonLlmapiBackend(settings)
    from engines.llm.openai_backend import OpenAIBackend

    return OpenAIBackend(settings)


@dataclass
class Document:
    """One request's progress through the steps."""

    request: Any
    pages: tuple[str, ...] = ()  # data: URIs
    page_count: int = 0
    hint: str | None = None
    custom_schema: dict[str, Any] | None = None
    candidates: tuple[TypeCandidate, ...] = ()  # the tenant's own types the classifier may choose
    text_layer: tuple[str, ...] = ()  # a digital PDF's text per page, where values are grounded
    decision: pipeline.TypeDecision | None = None
    fields: dict[str, FieldResult] = field(default_factory=dict)
    checks: list[Check] = field(default_factory=list)
    timings_ms: dict[str, int] = field(default_factory=dict)
    error: Any = None  # the pb_utils.TritonError to answer with


class TritonPythonModel:
    def initialize(self, args: dict[str, str]) -> None:
        config = json.loads(args["model_config"])
        parameters = {key: value["string_value"] for key, value in config.get("parameters", {}).items()}
        self.max_pages = int(parameters.get("max_pages", "200"))
        self.simple_types = frozenset(t for t in parameters.get("simple_types", "").split(",") if t)
        self.max_images = int(parameters.get("max_images_per_call", "4"))
        statistic = parameters.get("confidence_statistic", "minimum")
        if statistic not in pipeline.STATISTICS:
            raise pb_utils.TritonModelException(
                f"doc_pipeline: confidence_statistic must be one of {pipeline.STATISTICS}"
            )
        self.statistic: pipeline.Statistic = statistic  # type: ignore[assignment]
        try:
            self.settings = ModelSettings.from_sources(parameters)
        except ValueError as error:
            raise pb_utils.TritonModelException(f"doc_pipeline: {error}") from None
        self.loop = asyncio.new_event_loop()
        # BLS async_exec() waits in the loop's default executor, min(32, cpus + 4) threads unless
        # told otherwise: that, not the engine, would cap the calls in flight.
        self.loop.set_default_executor(
            ThreadPoolExecutor(max_workers=self.settings.max_in_flight, thread_name_prefix="doc_pipeline_bls")
        )
        # Base64 of a 4-page document is CPU work: off the loop, so other documents' answers are read.
        self.encoder = ThreadPoolExecutor(max_workers=2, thread_name_prefix="doc_pipeline_encode")
        self.backend = self.loop.run_until_complete(self._make_backend())
        self.logger = pb_utils.Logger
        self.logger.log_info(
            f"doc_pipeline (gemma4): {describe(self.settings)}, {self.statistic} token probability"
        )
        self.readiness = self._readiness_gate()
        self.loop.run_until_complete(self.readiness.blocking_problem())  # asked once at start-up

    def _readiness_gate(self) -> ReadinessGate:
        # the longest call this model makes: max_images pages at the full budget, prompt and answer
        longest = sequence_tokens(self.max_images)
        return ReadinessGate(
            lambda: self.backend.check_ready(min_model_len=longest),
            recheck_s=READINESS_RECHECK_S,
            log_error=lambda line: self.logger.log_error(f"doc_pipeline (gemma4): {line}"),
            log_info=lambda line: self.logger.log_info(f"doc_pipeline (gemma4): {line}"),
        )

    async def _make_backend(self) -> ModelBackend:
        return make_backend(self.settings)  # created on the loop it will run on

    def execute(self, requests: list[Any]) -> list[Any]:
        return self.loop.run_until_complete(self._run(requests))

    async def _run(self, requests: list[Any]) -> list[Any]:
        problem = await self.readiness.blocking_problem()
        if problem:
            # no document is at fault: each waits (UNAVAILABLE) until the engine is fixed
            error = pb_utils.TritonError(
                f"model_unavailable: engine misconfigured: {problem}", pb_utils.TritonError.UNAVAILABLE
            )
            return [pb_utils.InferenceResponse(error=error) for _ in requests]
        documents = await asyncio.gather(*(self._start(request) for request in requests))
        await asyncio.gather(*(self._chain(d) for d in documents if d.error is None))
        return [self._respond(d) for d in documents]

    async def _chain(self, document: Document) -> None:
        """One document's steps, back to back: its extraction does not wait for other documents."""
        await self._step(document, self._classify(document))
        if document.error is None:
            await self._step(document, self._extract(document))

    async def _start(self, request: Any) -> Document:
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
            document.pages = tuple(
                await self.loop.run_in_executor(
                    self.encoder, lambda: [data_uri(page) for page in parsed.pages[: self.max_images]]
                )
            )
            document.hint = parsed.document_type_hint
            document.custom_schema = parsed.schema
            document.candidates = parsed.candidates
            document.text_layer = tuple(parsed.text_layer or ())
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
        except EngineMisconfigured as error:
            # an engine changed under us (restarted without a flag): the next batch asks it again
            self.logger.log_error(f"doc_pipeline (gemma4): configuration error: {error}")
            self.readiness.recheck()
            document.error = pb_utils.TritonError(
                f"model_unavailable: engine misconfigured: {error}", pb_utils.TritonError.UNAVAILABLE
            )
        except ModelUnavailable as error:
            document.error = pb_utils.TritonError(
                f"model_unavailable: {error}", pb_utils.TritonError.UNAVAILABLE
            )
        except ModelFailed as error:
            # no "<code>: " prefix: the client retries it within the document's attempts, neither
            # waits it out as an outage nor takes it for the engine's verdict on the document
            document.error = pb_utils.TritonError(
                f"the model engine failed ({error})", pb_utils.TritonError.INTERNAL
            )
        except Exception as error:
            self.logger.log_error(f"doc_pipeline (gemma4): {type(error).__name__} in a step")
            document.error = pb_utils.TritonError(
                f"engine_internal_error: {type(error).__name__}", pb_utils.TritonError.INTERNAL
            )

    async def _call(
        self,
        document: Document,
        role: Role,
        call: pipeline.ModelCall,
        images: tuple[str, ...],
        *,
        simple: bool,
    ) -> pipeline.Generation:
        model = self.settings.model_for(role, simple=simple)
        request = ModelRequest(role, call, images, self.settings.image_tokens_for(role))
        started = time.perf_counter()
        generation = await self.backend.generate(model, request)
        if not generation.scored:
            # the document still gets its answer, every confidence unknown (a failed check says
            # so); the operator is told here, per call, that the engine is misconfigured
            self.logger.log_error(
                f"doc_pipeline (gemma4): engine misconfigured: {model} returned no log-probabilities "
                f"for a {role} call; confidences are unknown until it does"
            )
        document.timings_ms[role] = round((time.perf_counter() - started) * 1000)
        document.timings_ms[f"{role}_engine"] = generation.engine_ms
        document.timings_ms[f"{role}_prompt_tokens"] = generation.prompt_tokens
        document.timings_ms[f"{role}_answer_tokens"] = generation.answer_tokens
        return generation

    async def _classify(self, document: Document) -> None:
        if document.hint is not None and document.hint not in CLASSIFY_TYPES:
            # The tenant named its own type: its schema came with it, nothing to classify.
            document.decision = pipeline.TypeDecision(
                document.hint, 1.0, [Check("document_type_hint", True, "")]
            )
            return
        call = pipeline.plan_classification(document.page_count, document.candidates)
        generation = await self._call(document, "classify", call, document.pages[:1], simple=True)
        document.decision = pipeline.read_classification(
            generation,
            hint=document.hint,
            statistic=self.statistic,
            own_types=[c.name for c in document.candidates],
        )
        chosen = next((c for c in document.candidates if c.name == document.decision.document_type), None)
        if chosen is not None:  # classified into a tenant's type: extracted with its schema
            document.custom_schema = chosen.schema

    async def _extract(self, document: Document) -> None:
        assert document.decision is not None
        document_type = document.decision.document_type
        if document.custom_schema is None and document_type == "other":
            return  # classification only (§3.2)
        schema = pipeline.extraction_schema_for(document_type, document.custom_schema)
        simple = document.custom_schema is None and document_type in self.simple_types
        call = pipeline.plan_extraction(document_type, schema, len(document.pages))
        generation = await self._call(document, "extract", call, document.pages, simple=simple)
        document.fields, parsed = pipeline.read_extraction(generation, schema, statistic=self.statistic)
        document.checks = pipeline.verify(
            document_type, document.fields, parsed, page_texts=document.text_layer
        )
        document.checks.extend(pipeline.unscored_checks(generation, parsed))
        if document.page_count > len(document.pages):
            detail = f"the first {len(document.pages)} of {document.page_count} pages were read"
            document.checks.append(Check("all_pages_read", False, detail))

    def _respond(self, document: Document) -> Any:
        request_id = document.request.request_id() or "-"
        if document.error is not None:
            self.logger.log_info(
                f"doc_pipeline (gemma4): request {request_id} failed: {document.error.message().split(':')[0]}"
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
        self.loop.run_until_complete(self.backend.close())
        self.loop.close()
        self.encoder.shutdown(wait=False)
