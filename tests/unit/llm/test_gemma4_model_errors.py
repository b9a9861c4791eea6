"""How the Gemma 4 ``doc_pipeline`` reads a TensorRT-LLM model's answer: its errors and an answer
without log-probabilities.

``TritonLlmapiBackend`` reaches the ``gemma4_e4b`` model over BLS, which exists only inside
Triton with a GPU. A stand-in for ``triton_python_backend_utils`` gives the few names it touches —
the error type with its codes, tensors, a BLS request that answers what the test says the engine
answered — and the model file's own backend, steps and error mapping run unchanged.
"""

from __future__ import annotations

import asyncio
import importlib.util
import math
import sys
import types
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np
import pytest

from engines.llm import pipeline
from engines.llm.model_client import ModelSettings
from tests.support.gemma4_model import MODEL_FILE, Logger, TritonError


class _Tensor:
    def __init__(self, name: str, array: np.ndarray) -> None:
        self._name, self.array = name, array

    def name(self) -> str:
        return self._name

    def as_numpy(self) -> np.ndarray:
        return self.array


class _Response:
    def __init__(self, outputs: dict[str, np.ndarray] | None = None, error: TritonError | None = None):
        self.outputs, self._error = outputs or {}, error

    def has_error(self) -> bool:
        return self._error is not None

    def error(self) -> TritonError | None:
        return self._error


@pytest.fixture
def engine() -> dict[str, Any]:
    """What the TensorRT-LLM model answers the next BLS call with, and the calls it saw."""
    return {"answer": None, "calls": []}


@pytest.fixture
def gemma4_model(monkeypatch: pytest.MonkeyPatch, engine: dict[str, Any]) -> types.ModuleType:
    class _InferenceRequest:
        def __init__(
            self, model_name: str, inputs: list[_Tensor], requested_output_names: list[str], timeout: int
        ):
            self.model_name = model_name

        async def async_exec(self) -> _Response:
            engine["calls"].append(self.model_name)
            return engine["answer"]

    stub = types.ModuleType("triton_python_backend_utils")
    stub.TritonError = TritonError  # type: ignore[attr-defined]
    stub.TritonModelException = RuntimeError  # type: ignore[attr-defined]
    stub.Tensor = _Tensor  # type: ignore[attr-defined]
    stub.InferenceRequest = _InferenceRequest  # type: ignore[attr-defined]
    stub.get_output_tensor_by_name = lambda response, name: (  # type: ignore[attr-defined]
        _Tensor(name, response.outputs[name]) if name in response.outputs else None
    )
    monkeypatch.setitem(sys.modules, "triton_python_backend_utils", stub)
    spec = importlib.util.spec_from_file_location("doc_pipeline_gemma4_errors_under_test", MODEL_FILE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)
    spec.loader.exec_module(module)
    return module


def _classify(gemma4_model: types.ModuleType, hint: str | None = None) -> tuple[Any, Logger]:
    """One document's classification step through the model file's TensorRT-LLM backend."""
    model = gemma4_model.TritonPythonModel.__new__(gemma4_model.TritonPythonModel)
    model.statistic = "minimum"
    model.settings = ModelSettings.from_sources({}, {"DOCINTEL_MODEL_BACKEND": "tensorrt_llm"})
    model.logger = Logger()
    model.loop = asyncio.new_event_loop()
    model.encoder = ThreadPoolExecutor(max_workers=1)
    try:
        model.backend = model.loop.run_until_complete(model._make_backend())
        assert isinstance(model.backend, gemma4_model.TritonLlmapiBackend)
        document = gemma4_model.Document(request=None, pages=("data:image/png;base64,AAAA",), page_count=1)
        document.hint = hint
        model.loop.run_until_complete(model._step(document, model._classify(document)))
        return document, model.logger
    finally:
        model.loop.close()
        model.encoder.shutdown()


def test_a_request_the_engine_refuses_fails_the_document_without_retry(gemma4_model, engine):
    """INVALID_ARG (a schema the engine cannot compile, too many images) is the engine's verdict on
    this request: ``model_request_refused``, as the openai backend reads a 400 — not an outage."""
    engine["answer"] = _Response(error=TritonError("send 1 to 4 images", TritonError.INVALID_ARG))
    document, _ = _classify(gemma4_model)
    assert document.error.code() == TritonError.INVALID_ARG
    assert document.error.message().startswith("model_request_refused: ")
    assert engine["calls"] == ["gemma4_e4b"]


def test_an_engine_failing_the_call_is_retried_within_the_documents_attempts(gemma4_model, engine):
    engine["answer"] = _Response(error=TritonError("RuntimeError", TritonError.INTERNAL))
    document, _ = _classify(gemma4_model)
    assert document.error.code() == TritonError.INTERNAL
    assert not document.error.message().startswith("model_unavailable")


def test_an_engine_that_cannot_answer_now_is_waited_out(gemma4_model, engine):
    engine["answer"] = _Response(error=TritonError("overloaded", TritonError.UNAVAILABLE))
    document, _ = _classify(gemma4_model)
    assert document.error.code() == TritonError.UNAVAILABLE
    assert document.error.message().startswith("model_unavailable: ")


def _answer(text: str, *, with_logprobs: bool) -> _Response:
    outputs = {
        "text_output": np.array([text.encode()], dtype=np.object_),
        "finish_reason": np.array([b"stop"], dtype=np.object_),
    }
    if with_logprobs:
        outputs["output_log_probs"] = np.full(len(text), math.log(0.99), dtype=np.float32)
        outputs["output_token_offsets"] = np.array([(i, i + 1) for i in range(len(text))], dtype=np.int32)
    return _Response(outputs)


def test_an_answer_without_log_probabilities_is_unknown_and_reported_as_misconfiguration(
    gemma4_model, engine
):
    engine["answer"] = _answer('{"document_type":"invoice"}', with_logprobs=False)
    document, logger = _classify(gemma4_model, hint="receipt")
    assert document.error is None
    assert document.decision.document_type == "receipt" and document.decision.confidence == 0.0
    unscored = [c for c in document.decision.checks if c.name == pipeline.UNSCORED]
    assert len(unscored) == 1 and not unscored[0].passed and "misconfigured" in unscored[0].detail
    assert any(level == "error" and "misconfigured" in line for level, line in logger.lines)


def test_an_answer_with_log_probabilities_is_scored(gemma4_model, engine):
    engine["answer"] = _answer('{"document_type":"invoice"}', with_logprobs=True)
    document, logger = _classify(gemma4_model)
    assert document.decision.document_type == "invoice"
    assert document.decision.confidence == pytest.approx(0.99)
    assert document.decision.checks == [] and logger.lines == []
