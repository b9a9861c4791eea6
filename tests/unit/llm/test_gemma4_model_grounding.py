"""The Gemma 4 ``doc_pipeline`` hands the request's text layer to the verify step, so a digital
PDF's model values are grounded in it, inside Triton as in the pure functions.

Triton's ``triton_python_backend_utils`` exists only inside Triton: a stand-in with the few names
the model file touches lets the file's request parsing and its extract step run here, with the
model's answer given (tests/gemma4 runs the same file in a real Triton against vLLM).
"""

from __future__ import annotations

import asyncio
import importlib.util
import io
import json
import math
import sys
import types
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np
import pytest
from PIL import Image

from engines.evidence import GROUNDED
from engines.llm import pipeline
from engines.spec import FIELDS
from tests.support.gemma4_model import MODEL_FILE
from tests.support.llm_pages import INVOICE_PAGE


class _TritonError:
    INVALID_ARG, UNAVAILABLE, INTERNAL, CANCELLED = range(4)

    def __init__(self, message: str, code: int = 0) -> None:
        self._message, self.code = message, code

    def message(self) -> str:
        return self._message


class _Tensor:
    def __init__(self, array: np.ndarray) -> None:
        self.array = array

    def as_numpy(self) -> np.ndarray:
        return self.array


class _Request:
    def __init__(self, inputs: dict[str, list[Any]]) -> None:
        self.inputs = {name: np.array([values], dtype=np.object_) for name, values in inputs.items()}

    def is_cancelled(self) -> bool:
        return False


@pytest.fixture
def gemma4_model(monkeypatch: pytest.MonkeyPatch) -> types.ModuleType:
    stub = types.ModuleType("triton_python_backend_utils")
    stub.TritonError = _TritonError  # type: ignore[attr-defined]
    stub.TritonModelException = RuntimeError  # type: ignore[attr-defined]
    stub.get_input_tensor_by_name = lambda request, name: (  # type: ignore[attr-defined]
        _Tensor(request.inputs[name]) if name in request.inputs else None
    )
    monkeypatch.setitem(sys.modules, "triton_python_backend_utils", stub)
    spec = importlib.util.spec_from_file_location("doc_pipeline_gemma4_under_test", MODEL_FILE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)
    spec.loader.exec_module(module)
    return module


def _png() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (32, 32), "white").save(buffer, format="PNG")
    return buffer.getvalue()


def _read(gemma4_model: types.ModuleType, inputs: dict[str, list[Any]], answer: dict[str, Any]) -> Any:
    model = gemma4_model.TritonPythonModel.__new__(gemma4_model.TritonPythonModel)
    model.max_pages, model.max_images, model.simple_types, model.statistic = 200, 4, frozenset(), "minimum"
    model.loop, model.encoder = asyncio.new_event_loop(), ThreadPoolExecutor(max_workers=1)
    text = json.dumps({name: None for name in FIELDS["invoice"]} | answer)

    async def answered(
        document: Any, role: str, call: Any, images: Any, *, simple: bool
    ) -> pipeline.Generation:
        return pipeline.Generation(text, [math.log(0.99)] * len(text), [(i, i + 1) for i in range(len(text))])

    model._call = answered
    try:
        document = model.loop.run_until_complete(model._start(_Request(inputs)))
        assert document.error is None
        document.decision = pipeline.TypeDecision("invoice", 0.99)
        model.loop.run_until_complete(model._extract(document))
        return document
    finally:
        model.loop.close()
        model.encoder.shutdown()


def test_a_pdfs_text_layer_grounds_the_models_values(gemma4_model):
    inputs = {"pages": [_png()], "text_layer": [INVOICE_PAGE.encode()], "document_type_hint": [b"invoice"]}
    document = _read(gemma4_model, inputs, {"total_amount": "1190.00", "customer_name": "Made Up"})
    assert GROUNDED in document.fields["total_amount"].evidence
    grounded = next(c for c in document.checks if c.name == "not_grounded")
    assert not grounded.passed and grounded.detail == "not found in the page's text: customer_name"


def test_a_scan_without_text_grounds_nothing(gemma4_model):
    document = _read(
        gemma4_model, {"pages": [_png()], "document_type_hint": [b"invoice"]}, {"total_amount": "1.00"}
    )
    assert document.fields["total_amount"].evidence == ()
    assert "not_grounded" not in {c.name for c in document.checks}
