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
