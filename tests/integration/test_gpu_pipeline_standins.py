"""doc_pipeline's Gemma 4 variant with its ``tensorrt_llm`` backend, in the real Triton server on
CPU, with stand-in Gemma 4 models.

GIVEN a temporary model repository with the real ``doc_pipeline`` (both variants) and the real
``gemma4_*`` configs whose ``model.py`` is a CPU stand-in answering the same tensors (canned,
schema-valid JSON with known log-probabilities, tests/integration/gpu_standins/standin_model.py),
WHEN the bundled tritonserver loads it with ``--model-config-name=gemma4`` and documents go through
``media.triton_client``, THEN the BLS code path (async BLS to both models), the schemas, the
parsing, the span confidences and the verify step are exercised end to end.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from engines.types import EngineError
from tests.support.processes import free_ports, log_tail
from tests.triton_server_fixture import READY_TIMEOUT_S

pytestmark = pytest.mark.integration

REPO_ROOT = Path(__file__).resolve().parents[2]
STANDIN = Path(__file__).with_name("gpu_standins") / "standin_model.py"
GEMMA_MODELS = ("gemma4_e4b", "gemma4_26b_a4b")


def _png(width: int) -> bytes:
    import cv2
    import numpy as np

    ok, encoded = cv2.imencode(".png", np.full((1, width, 3), 255, dtype=np.uint8))
    assert ok
    return encoded.tobytes()


# The stand-in classifier reads a 2-pixel-wide first page as a receipt, anything else as a passport.
PNG = _png(1)
RECEIPT_PNG = _png(2)


@pytest.fixture(scope="module")
def gpu_triton(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    pytest.importorskip("tritonclient.grpc")
    from servers import triton_server as launcher

    try:
        launcher.find_installation()
    except FileNotFoundError as error:
        pytest.skip(f"no Triton server available: {error}")
    repository = tmp_path_factory.mktemp("gpu_repo")
    shutil.copytree(REPO_ROOT / "model_repo" / "doc_pipeline", repository / "doc_pipeline")
    for name in GEMMA_MODELS:
        (repository / name / "1").mkdir(parents=True)
        shutil.copy(REPO_ROOT / "model_repo" / name / "config.pbtxt", repository / name / "config.pbtxt")
        shutil.copy(STANDIN, repository / name / "1" / "model.py")

    http_port, grpc_port, metrics_port = free_ports(3)
    log_path = repository.parent / f"{repository.name}.log"
    models = (*GEMMA_MODELS, "doc_pipeline")
    process = launcher.start_background(
        http_port=http_port,
        grpc_port=grpc_port,
        metrics_port=metrics_port,
        model_repository=repository,
        models=models,
        config_name="gemma4",
        environment={"DOCINTEL_MODEL_BACKEND": "tensorrt_llm"},
        log_path=log_path,
        log_verbose=1,
        die_with_parent=True,
    )
    try:
        launcher.wait_until_ready(f"127.0.0.1:{http_port}", READY_TIMEOUT_S, models=models, process=process)
    except (TimeoutError, RuntimeError) as error:
        launcher.stop(process)
        pytest.fail(f"Triton did not start: {error}\n{log_tail(log_path)}")
    try:
        yield f"127.0.0.1:{grpc_port}"
    finally:
        launcher.stop(process)


@pytest.fixture
def client(gpu_triton: str):
    from media.triton_client import TritonEngineClient

    with TritonEngineClient(gpu_triton, timeout_s=60) as triton_client:
        yield triton_client


def test_passport_is_classified_extracted_and_verified_inside_triton(client):
    result = client.read_document([PNG, PNG])

    assert result.engine_name == "gemma4"
    assert result.document_type == "passport"
    assert result.document_type_confidence == pytest.approx(0.97, abs=1e-6)
    assert result.pages == 2
    fields = result.fields
    assert fields["surname"].value == "ERIKSSON" and fields["surname"].source == "model"
    assert fields["surname"].confidence == pytest.approx(0.97, abs=1e-6)  # minimum over its tokens
    assert fields["document_number"].confidence == pytest.approx(0.8, abs=1e-6)  # a digit token
    assert fields["personal_number"].value is None
    assert fields["document_number"].valid is True  # its MRZ check digit, verified
    checks = {c.name: c.passed for c in result.checks}
    assert checks["mrz_check_digits"] and checks["mrz_matches_visual_zone"]
    steps = {
        f"{step}{part}"
        for step in ("classify", "extract")
        for part in ("", "_engine", "_prompt_tokens", "_answer_tokens")
    }
    assert set(result.timings_ms) == steps
    assert result.timings_ms["extract_answer_tokens"] > 0


def test_simple_types_are_extracted_by_the_small_model(client):
    result = client.read_document([RECEIPT_PNG])
    assert result.document_type == "receipt"
    assert result.fields["merchant_name"].value == "GEMMA4_E4B"
    assert result.fields["total_amount"].value == "12.50"
    assert result.fields["date"].valid is True


def test_a_hint_the_classifier_is_sure_against_loses(client):
    """The classifier says passport at 0.97 (>= 0.9): the receipt hint fails its check."""
    result = client.read_document([PNG], document_type_hint="receipt")
    assert result.document_type == "passport"
    assert result.fields["surname"].value == "ERIKSSON"
    assert {c.name: c.passed for c in result.checks}["document_type_hint"] is False


def test_tenant_type_uses_its_schema_and_skips_the_classifier(client):
    schema = {
        "type": "object",
        "properties": {"policy_number": {"type": "string"}, "merchant_name": {"type": "string"}},
    }
    result = client.read_document([PNG], document_type_hint="insurance_card", schema_json=json.dumps(schema))
    assert result.document_type == "insurance_card"
    assert result.fields["policy_number"].value == "PX-7"
    assert result.fields["merchant_name"].value == "GEMMA4_26B_A4B"  # the extraction model


def test_a_batch_of_documents_goes_through_together(client, gpu_triton):
    from media.triton_client import TritonEngineClient

    def read(_index: int) -> str:
        with TritonEngineClient(gpu_triton, timeout_s=60) as own:
            return own.read_document([PNG]).document_type

    with ThreadPoolExecutor(max_workers=8) as pool:
        assert list(pool.map(read, range(16))) == ["passport"] * 16


def test_bad_documents_fail_alone_with_their_code(client):
    with pytest.raises(EngineError) as raised:
        client.read_document([b"GIF89a not a png"])
    assert raised.value.code == "unreadable_image"
    with pytest.raises(EngineError) as raised:
        client.read_document([PNG], document_type_hint="insurance_card")
    assert raised.value.code == "invalid_request"
    with pytest.raises(EngineError) as raised:
        client.read_document([PNG], document_type_hint="x", schema_json=json.dumps({"type": "array"}))
    assert raised.value.code == "invalid_schema"
