"""The Triton clients behind their circuit breaker, against a port where nothing listens: the
breaker opens after the configured failures and later calls never leave the process."""

from __future__ import annotations

import asyncio
import socket
import time

import pytest

from media.circuit_breaker import CircuitBreaker, CircuitState
from media.triton_client import (
    AsyncTritonEngineClient,
    CircuitOpenError,
    TritonEngineClient,
    TritonUnavailableError,
    _kind,
)


def _closed_port() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return f"127.0.0.1:{sock.getsockname()[1]}"


def test_blocking_client_opens_its_breaker_and_then_fails_fast() -> None:
    breaker = CircuitBreaker(failure_threshold=2, cooldown_s=60)
    with TritonEngineClient(_closed_port(), timeout_s=2, model="null", breaker=breaker) as client:
        for _ in range(2):
            with pytest.raises(TritonUnavailableError) as raised:
                client.read_document([b"page"])
            assert not isinstance(raised.value, CircuitOpenError)
        assert breaker.state is CircuitState.OPEN
        started = time.perf_counter()
        with pytest.raises(CircuitOpenError) as raised:
            client.read_document([b"page"])
        assert raised.value.kind == "circuit_open"
        assert raised.value.cause == "down"  # what opened it: Triton's own failures
        assert time.perf_counter() - started < 0.05


def test_async_client_shares_the_breaker_across_concurrent_documents() -> None:
    breaker = CircuitBreaker(failure_threshold=3, cooldown_s=60)

    async def send() -> list[BaseException]:
        async with AsyncTritonEngineClient(
            _closed_port(), timeout_s=2, model="null", max_in_flight=1, breaker=breaker
        ) as client:
            results = await asyncio.gather(
                *(client.read_document([b"page"]) for _ in range(10)), return_exceptions=True
            )
        return [r for r in results if isinstance(r, BaseException)]

    errors = asyncio.run(send())
    assert len(errors) == 10
    assert sum(isinstance(e, CircuitOpenError) for e in errors) == 7, "only 3 calls reached the port"


@pytest.mark.parametrize(
    ("status", "message", "kind"),
    [
        ("StatusCode.UNAVAILABLE", "Exceeds maximum queue size", "overloaded"),
        ("StatusCode.RESOURCE_EXHAUSTED", "", "overloaded"),
        ("StatusCode.DEADLINE_EXCEEDED", "Deadline Exceeded", "timeout"),
        ("StatusCode.UNAVAILABLE", "failed to connect to all addresses", "down"),
    ],
)
def test_unavailability_says_why(status: str, message: str, kind: str) -> None:
    """GIVEN Triton's answer WHEN translated THEN "queue full" is told apart from down and slow."""
    assert _kind(status, message) == kind


@pytest.mark.parametrize(
    ("status", "message", "kind", "outage"),
    [
        ("StatusCode.UNAVAILABLE", "failed to connect to all addresses", "down", True),
        (
            "StatusCode.UNAVAILABLE",
            "model_unavailable: gemma4-e4b unavailable for 20 s (ConnectError)",
            "model_unavailable",
            True,
        ),
        ("StatusCode.NOT_FOUND", "Request for unknown model: 'doc_pipeline' is not found", "down", True),
        # Triton answering this document with an error that is no verdict: a model crashing on it
        ("StatusCode.INTERNAL", "Stub process is not healthy.", "failed", False),
        (
            "StatusCode.INTERNAL",
            "the model engine failed (the engine failed the call (HTTP 500))",
            "failed",
            False,
        ),
    ],
)
def test_an_outage_is_told_apart_from_a_model_failing_on_the_document(
    status: str, message: str, kind: str, outage: bool
) -> None:
    """GIVEN Triton's error WHEN translated THEN Triton or its model engine being away is an outage
    (waited out without spending the document's attempts); a model failing on this very document
    is retryable but no outage; the model refusing the request is the engine's verdict."""
    from tritonclient.utils import InferenceServerException

    from media.triton_client import _translate

    error = _translate(InferenceServerException(message, status=status))
    assert isinstance(error, TritonUnavailableError)
    assert (error.kind, error.outage) == (kind, outage)
    refused = _translate(
        InferenceServerException("model_request_refused: HTTP 400", status="StatusCode.INVALID_ARGUMENT")
    )
    assert not isinstance(refused, TritonUnavailableError)


def test_a_call_past_its_deadline_is_an_outage_only_once_the_breaker_is_open() -> None:
    """GIVEN a server that accepts connections and never answers (hung), and a breaker opening
    after 2 failures WHEN two calls time out THEN the first, with the breaker still closed (other
    calls could still be answered: it may be this document that is too slow), counts against the
    document; the second, which opens the breaker, is an outage."""
    with socket.socket() as hung:
        hung.bind(("127.0.0.1", 0))
        hung.listen(8)  # connections complete in the kernel's backlog; nothing ever answers
        url = f"127.0.0.1:{hung.getsockname()[1]}"
        breaker = CircuitBreaker(failure_threshold=2, cooldown_s=60)
        outages = []
        with TritonEngineClient(url, timeout_s=0.5, model="null", breaker=breaker) as client:
            for _ in range(2):
                with pytest.raises(TritonUnavailableError) as raised:
                    client.read_document([b"page"])
                assert raised.value.kind == "timeout"
                outages.append(raised.value.outage)
    assert outages == [False, True]
    assert breaker.state is CircuitState.OPEN
