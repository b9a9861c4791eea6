"""Each role's engine, and what happens when an engine is not the one doc_pipeline needs (issue 50
items 8 and 9), against real vLLM servers on CPU.

GIVEN the session's vLLM (:func:`vllm_engine`: started from deploy/serving/gemma4.toml, serving the
tiny Gemma 4 under both names) and a second one started the way a production engine goes wrong —
serving one model only, without ``--trust-request-mm-kwargs`` and with vLLM's default structured
outputs (``auto``) — WHEN the openai backend and doc_pipeline use them THEN each model's calls go
to its own engine, and a missing model, a missing flag or a structured-output backend that falls
back are configuration errors that keep documents waiting, never documents failed.
"""

from __future__ import annotations

import asyncio
import importlib.util
import subprocess
import sys
import types
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from engines.llm import pipeline
from engines.llm.model_client import EngineMisconfigured, ModelRequest, ModelSettings
from engines.llm.openai_backend import OpenAIBackend, chat_request
from engines.llm.readiness import XGRAMMAR_REFUSES, EngineCheck
from engines.llm.schemas import extraction_schema
from tests.gemma4.conftest import VLLM_READY_S
from tests.support.gemma4_model import MODEL_FILE, Logger, TritonError
from tests.support.processes import free_ports, log_tail

pytestmark = pytest.mark.integration

EXTRACTOR_ONLY = "gemma4-26b-a4b"


def _without(command: list[str], flag: str, *, takes_value: bool) -> list[str]:
    index = command.index(flag)
    return command[:index] + command[index + 1 + takes_value :]


@pytest.fixture(scope="module")
def extractor_only(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """vLLM serving only the extractor's name, started without ``--trust-request-mm-kwargs`` and
    without the structured-outputs config: the engine a production operator starts by hand."""
    from servers import vllm_server

    port = free_ports(1)[0]
    command = vllm_server.build_command(
        vllm_server.DEFAULT_CHECKPOINT, port=port, served_names=[EXTRACTOR_ONLY]
    )
    command = _without(command, "--trust-request-mm-kwargs", takes_value=False)
    command = _without(command, "--structured-outputs-config", takes_value=True)
    log_path = tmp_path_factory.mktemp("vllm-extractor") / "vllm.log"
    with open(log_path, "ab") as log:
        process = subprocess.Popen(
            command,
            env=vllm_server.build_environment(),
            cwd=vllm_server.REPO_ROOT,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        vllm_server.wait_until_ready(port, VLLM_READY_S, process=process)
    except (TimeoutError, RuntimeError) as error:
        vllm_server.stop(process)
        pytest.fail(f"the second vLLM did not start: {error}\n{log_tail(log_path)}")
    try:
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        vllm_server.stop(process)


def _page() -> str:
    import base64
    import io

    from PIL import Image, ImageDraw

    image = Image.new("RGB", (640, 480), "white")
    ImageDraw.Draw(image).text((40, 40), "RECEIPT TOTAL 12.50", fill="black")
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode()


CLASSIFY = ModelRequest("classify", pipeline.plan_classification(1), (_page(),), 280)


def _generate(settings: ModelSettings, model: str, request: ModelRequest = CLASSIFY) -> pipeline.Generation:
    async def run() -> pipeline.Generation:
        backend = OpenAIBackend(settings)
        try:
            return await backend.generate(model, request)
        finally:
            await backend.close()

    return asyncio.run(run())


def _checks(settings: ModelSettings) -> dict[str, EngineCheck]:
    async def run() -> list[EngineCheck]:
        backend = OpenAIBackend(settings)
        try:
            return await backend.check_ready(min_model_len=5900)
        finally:
            await backend.close()

    return {check.model: check for check in asyncio.run(run())}


def test_each_models_calls_go_to_its_own_engine(vllm_engine, extractor_only):
    """The classifier's engine set apart from DOCINTEL_MODEL_URL's (which serves the extractor
    only): the classifier's call is answered by its own engine. Before issue 50 every call went to
    DOCINTEL_MODEL_URL, which answered 404 for the classifier's name: every document failed."""
    settings = ModelSettings.from_sources(
        {}, {"DOCINTEL_MODEL_URL": extractor_only, "DOCINTEL_CLASSIFY_MODEL_URL": vllm_engine.url}
    )
    generation = _generate(settings, settings.model_for("classify", simple=False))
    assert generation.text and generation.prompt_tokens > 0
    assert settings.url_for(settings.model_for("extract", simple=False)) == extractor_only


def test_a_model_the_engine_does_not_serve_is_a_configuration_error_not_a_document_failure(extractor_only):
    """One URL for both roles, at an engine serving the extractor only: the readiness check names
    the missing model, and a call for it waits (EngineMisconfigured, UNAVAILABLE in doc_pipeline)
    instead of failing the document as ``model_request_refused``."""
    settings = ModelSettings.from_sources({}, {"DOCINTEL_MODEL_URL": extractor_only})
    checks = _checks(settings)
    assert not checks["gemma4-e4b"].ready
    assert "does not serve gemma4-e4b" in checks["gemma4-e4b"].describe()
    with pytest.raises(EngineMisconfigured, match="does not serve"):
        _generate(settings, "gemma4-e4b")


def test_a_server_without_trust_request_mm_kwargs_or_a_pinned_backend_is_reported(
    vllm_engine, extractor_only
):
    """vLLM 0.32 refuses a request's ``mm_processor_kwargs`` unless started with
    ``--trust-request-mm-kwargs``, and under ``auto`` compiles a schema xgrammar refuses with
    another backend. The readiness check reports both; the engine started from the serving
    configuration passes it."""
    settings = ModelSettings.from_sources(
        {}, {"DOCINTEL_CLASSIFY_MODEL_URL": vllm_engine.url, "DOCINTEL_EXTRACT_MODEL_URL": extractor_only}
    )
    checks = _checks(settings)
    assert checks["gemma4-e4b"].ready, checks["gemma4-e4b"].describe()
    extractor = checks[EXTRACTOR_ONLY]
    assert any("--trust-request-mm-kwargs" in problem for problem in extractor.problems), extractor.problems
    assert any("fall back from xgrammar" in problem for problem in extractor.problems), extractor.problems
    # a real extraction call is the same configuration error, not the document's failure
    schema = extraction_schema("receipt")
    request = ModelRequest("extract", pipeline.plan_extraction("receipt", schema, 1), (_page(),), 1120)
    with pytest.raises(EngineMisconfigured, match="trust-request-mm-kwargs"):
        _generate(settings, EXTRACTOR_ONLY, request)


def test_the_pinned_backend_refuses_a_schema_xgrammar_cannot_compile_instead_of_falling_back(
    vllm_engine, extractor_only
):
    """Pinned (deploy/serving/gemma4.toml): 400, and the document fails ``model_request_refused``
    rather than being read by a backend we never calibrated. Left on ``auto``: vLLM answers 200
    from another backend (what the readiness check reports, test above)."""
    probe = {
        **chat_request("gemma4-e4b", CLASSIFY),
        "messages": [{"role": "user", "content": "code?"}],
        "mm_processor_kwargs": None,
        "max_tokens": 4,
        "response_format": {"type": "json_schema", "json_schema": {"name": "x", "schema": XGRAMMAR_REFUSES}},
    }
    pinned = httpx.post(f"{vllm_engine.url}/chat/completions", json=probe, timeout=120)
    assert pinned.status_code == 400 and "xgrammar" in pinned.text
    auto = httpx.post(
        f"{extractor_only}/chat/completions", json={**probe, "model": EXTRACTOR_ONLY}, timeout=120
    )
    assert auto.status_code == 200, auto.text[:300]


@pytest.fixture
def gemma4_model(monkeypatch: pytest.MonkeyPatch) -> types.ModuleType:
    """doc_pipeline's model file with a stand-in for ``triton_python_backend_utils`` (the names it
    touches outside Triton); its backend, readiness gate and error mapping run unchanged."""

    class _InferenceResponse:
        def __init__(self, output_tensors: Any = None, error: TritonError | None = None) -> None:
            self.error = error

    stub = types.ModuleType("triton_python_backend_utils")
    stub.TritonError = TritonError  # type: ignore[attr-defined]
    stub.TritonModelException = RuntimeError  # type: ignore[attr-defined]
    stub.InferenceResponse = _InferenceResponse  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "triton_python_backend_utils", stub)
    spec = importlib.util.spec_from_file_location("doc_pipeline_gemma4_readiness_under_test", MODEL_FILE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)
    spec.loader.exec_module(module)
    return module


def test_doc_pipeline_answers_unavailable_while_an_engine_is_misconfigured(gemma4_model, extractor_only):
    """doc_pipeline pointed at the extractor-only engine for both roles: at start-up the
    configuration error is logged once, and a batch of documents is answered UNAVAILABLE
    ``model_unavailable: engine misconfigured`` (the worker waits) — none INVALID_ARG, none failed."""
    model = gemma4_model.TritonPythonModel.__new__(gemma4_model.TritonPythonModel)
    model.settings = ModelSettings.from_sources({}, {"DOCINTEL_MODEL_URL": extractor_only})
    model.max_images = 4
    model.logger = Logger()
    model.loop = asyncio.new_event_loop()
    try:
        model.backend = model.loop.run_until_complete(model._make_backend())
        model.readiness = model._readiness_gate()
        model.loop.run_until_complete(model.readiness.blocking_problem())
        responses = model.loop.run_until_complete(model._run([object(), object()]))
        model.loop.run_until_complete(model.backend.close())
    finally:
        model.loop.close()
    errors = [line for level, line in model.logger.lines if level == "error"]
    assert len(errors) == 1 and "configuration error" in errors[0] and "gemma4-e4b" in errors[0]
    for response in responses:
        assert response.error.code() == TritonError.UNAVAILABLE
        assert response.error.message().startswith("model_unavailable: engine misconfigured: ")


def test_the_serving_configuration_is_what_the_cpu_engine_runs(vllm_engine):
    """The session engine was started from deploy/serving/gemma4.toml: its max_model_len is
    gpu_plan's, and it takes four pages and no audio (the tiny checkpoint has no audio tower)."""
    from engines.llm.gpu_plan import engine_limits

    cards = httpx.get(f"{vllm_engine.url}/models", timeout=10).json()["data"]
    assert {card["max_model_len"] for card in cards} == {engine_limits().max_seq_len}
