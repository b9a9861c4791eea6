"""doc_pipeline on the real Triton server, against the CPU engine run in-process.

Real specimen images are read from ../shared/realdata/ (next to the repository, never copied
into it); tests that need one skip when it is absent.
"""

from __future__ import annotations

import asyncio
import socket
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from engines.types import EngineError, EngineResult

pytestmark = pytest.mark.integration

REPO_ROOT = Path(__file__).resolve().parents[2]
ID_SPECIMENS = REPO_ROOT.parent / "shared" / "realdata" / "id_specimens"
PASSPORT = ID_SPECIMENS / "mrzdocs_passports_ICAO_Example.png"
ID_CARD = ID_SPECIMENS / "mrzdocs_id_cards_Latvia.png"

# Generous: on a shared 2-core machine a document queued behind others waits for them.
CALL_TIMEOUT_S = 180.0

LocalRead = Callable[[tuple[bytes, ...]], EngineResult]


def _specimen(path: Path) -> bytes:
    if not path.exists():
        pytest.skip(f"specimen {path.name} not found under {path.parent}")
    return path.read_bytes()


@pytest.fixture(scope="module")
def passport() -> bytes:
    return _specimen(PASSPORT)


@pytest.fixture(scope="module")
def id_card() -> bytes:
    return _specimen(ID_CARD)


@pytest.fixture(scope="module")
def local_read() -> LocalRead:
    """The CPU engine in this process, memoised: several tests compare against the same pages."""
    pipeline = pytest.importorskip("engines.pipeline")
    cache: dict[tuple[bytes, ...], EngineResult] = {}

    def read(pages: tuple[bytes, ...]) -> EngineResult:
        if pages not in cache:
            cache[pages] = pipeline.read_document(pages)
        return cache[pages]

    return read


@pytest.fixture
def client(triton_server: str) -> Any:
    from media.triton_client import TritonEngineClient

    with TritonEngineClient(triton_server, timeout_s=CALL_TIMEOUT_S) as triton_client:
        yield triton_client


def _comparable(result: EngineResult) -> dict[str, Any]:
    """Everything the engine decided; timings differ from run to run."""
    data = result.to_dict()
    del data["timings_ms"]
    return data


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_triton_reads_the_same_fields_as_the_local_engine(
    client: Any, local_read: LocalRead, passport: bytes
) -> None:
    """GIVEN the ICAO passport specimen
    WHEN it is read by the CPU engine in-process and by doc_pipeline on Triton
    THEN both give the same document type, fields (values, confidences, boxes) and checks."""
    local = local_read((passport,))

    remote = client.read_document([passport])

    assert remote.pages == 1
    assert _comparable(remote) == _comparable(local)


def test_concurrent_documents_with_different_page_counts_each_get_their_own_result(
    triton_server: str, local_read: LocalRead, passport: bytes, id_card: bytes
) -> None:
    """GIVEN documents of 1, 2 and 1 pages, and an unreadable one, sent at the same time
    WHEN Triton batches them into shared executions (ragged inputs)
    THEN each readable document gets the local engine's result for its own pages, and the
    unreadable one gets its own error without failing the others of its batch."""
    import tritonclient.grpc as grpcclient

    from media.triton_client import MODEL_NAME, AsyncTritonEngineClient

    documents: list[tuple[bytes, ...]] = [(passport,), (id_card, passport), (b"not an image",), (id_card,)]
    stats_client = grpcclient.InferenceServerClient(triton_server)

    def counts() -> tuple[int, int]:
        stats = stats_client.get_inference_statistics(MODEL_NAME, as_json=True, client_timeout=10)
        model = stats["model_stats"][0]
        return int(model.get("inference_count", 0)), int(model.get("execution_count", 0))

    async def read_all() -> list[EngineResult | BaseException]:
        async with AsyncTritonEngineClient(triton_server, timeout_s=CALL_TIMEOUT_S, max_in_flight=8) as ac:
            calls = (ac.read_document(list(pages)) for pages in documents)
            return await asyncio.gather(*calls, return_exceptions=True)

    try:
        inferences_before, executions_before = counts()
        results = asyncio.run(read_all())
        # Triton updates its statistics after sending the responses: wait for them to settle.
        deadline = time.monotonic() + 10
        while (counted := counts())[0] - inferences_before < len(documents) and time.monotonic() < deadline:
            time.sleep(0.1)
        inferences_after, executions_after = counted
    finally:
        stats_client.close()

    for pages, result in zip(documents, results, strict=True):
        if pages == (b"not an image",):
            assert isinstance(result, EngineError) and result.code == "unreadable_image"
            continue
        assert isinstance(result, EngineResult), result
        assert result.pages == len(pages)
        assert _comparable(result) == _comparable(local_read(pages))
    # Fewer executions than documents: the dynamic batcher did combine different page counts.
    assert inferences_after - inferences_before == len(documents)
    assert executions_after - executions_before < len(documents)


def test_undecodable_image_is_an_engine_error_and_the_server_keeps_serving(
    client: Any, passport: bytes
) -> None:
    """GIVEN a page that is not an image
    WHEN it is sent to doc_pipeline
    THEN the client raises the engine's own EngineError(unreadable_image), and the next
    document is read normally."""
    with pytest.raises(EngineError) as failure:
        client.read_document([b"this is not an image"])
    assert failure.value.code == "unreadable_image"

    assert client.read_document([passport]).pages == 1


def test_malformed_request_is_a_terminal_invalid_request(client: Any, passport: bytes) -> None:
    """GIVEN a text layer with more entries than pages
    WHEN it is sent
    THEN the client raises EngineError(invalid_request) without the engine running."""
    with pytest.raises(EngineError) as failure:
        client.read_document([passport], text_layer=["page one", "page two"])
    assert failure.value.code == "invalid_request"


def test_a_call_past_its_deadline_is_retryable(triton_server: str, passport: bytes) -> None:
    """GIVEN a client whose deadline is far shorter than reading a document takes
    WHEN it calls doc_pipeline
    THEN it gets TritonUnavailableError (retryable) as soon as the deadline passes."""
    from media.triton_client import TritonEngineClient, TritonUnavailableError

    with TritonEngineClient(triton_server, timeout_s=0.05) as impatient:
        started = time.monotonic()
        with pytest.raises(TritonUnavailableError):
            impatient.read_document([passport])
    assert time.monotonic() - started < 5


def test_a_stopped_server_is_unavailable_quickly(passport: bytes) -> None:
    """GIVEN no server listening on the URL (a stopped Triton)
    WHEN the sync and async clients call it
    THEN both raise TritonUnavailableError within seconds, not after their 30 s deadline."""
    from media.triton_client import AsyncTritonEngineClient, TritonEngineClient, TritonUnavailableError

    url = f"127.0.0.1:{_free_port()}"
    started = time.monotonic()
    with TritonEngineClient(url) as sync_client, pytest.raises(TritonUnavailableError):
        sync_client.read_document([passport])

    async def call_async() -> None:
        async with AsyncTritonEngineClient(url) as async_client:
            await async_client.read_document([passport])

    with pytest.raises(TritonUnavailableError):
        asyncio.run(call_async())
    assert time.monotonic() - started < 10
