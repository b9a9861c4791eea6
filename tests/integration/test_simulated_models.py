"""The simulated models (model_repo/null, model_repo/sim_gpu) on the real Triton server: they keep
doc_pipeline's contract, and sim_gpu batches whatever is in flight like a GPU would."""

from __future__ import annotations

import asyncio
import time

import pytest

from engines.types import EngineError

pytestmark = pytest.mark.integration


def test_null_model_answers_a_valid_result_with_the_hint_and_page_count(triton_sim_server: str) -> None:
    """GIVEN the null model WHEN a two-page document with a type hint is sent
    THEN the answer is a doc_pipeline result of that type, for two pages, from the null engine."""
    from media.triton_client import TritonEngineClient

    with TritonEngineClient(triton_sim_server, model="null", timeout_s=30) as client:
        result = client.read_document([b"page one", b"page two"], document_type_hint="receipt")
    assert result.document_type == "receipt"
    assert result.pages == 2
    assert result.fields == {}
    assert result.engine_name == "null"


def test_simulated_models_refuse_a_document_without_pages_like_doc_pipeline(triton_sim_server: str) -> None:
    from media.triton_client import TritonEngineClient

    with (
        TritonEngineClient(triton_sim_server, model="sim_gpu", timeout_s=30) as client,
        pytest.raises(EngineError) as raised,
    ):
        client.read_document([])
    assert raised.value.code == "invalid_request"


def test_sim_gpu_fills_batches_from_many_requests_in_flight(triton_sim_server: str) -> None:
    """GIVEN sim_gpu (150 ms a batch + 2 ms a document, batches of 32) WHEN 64 documents are in
    flight at once THEN Triton runs them in a few full batches, not 64 executions, and they take
    about two batches' time instead of 64 x 152 ms."""
    import tritonclient.grpc as grpcclient

    from media.triton_client import AsyncTritonEngineClient

    stats_client = grpcclient.InferenceServerClient(triton_sim_server)

    def counts() -> tuple[int, int]:
        stats = stats_client.get_inference_statistics("sim_gpu", as_json=True)["model_stats"][0]
        return int(stats.get("inference_count", 0)), int(stats.get("execution_count", 0))

    inferences_before, executions_before = counts()

    async def send(n: int) -> float:
        async with AsyncTritonEngineClient(triton_sim_server, model="sim_gpu", max_in_flight=n) as client:
            assert await client.batch_capacity() == 32
            started = time.perf_counter()
            await asyncio.gather(*(client.read_document([b"page"]) for _ in range(n)))
            return time.perf_counter() - started

    elapsed = asyncio.run(send(64))
    inferences, executions = counts()
    assert inferences - inferences_before == 64
    assert executions - executions_before <= 4, "64 documents in flight should ride in 2-4 batches"
    assert elapsed < 64 * 0.152 / 4, f"64 documents took {elapsed:.2f} s: not batched"
