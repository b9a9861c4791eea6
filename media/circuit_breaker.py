"""A circuit breaker for calls to Triton: stop hammering a server that is down.

While Triton is down every document keeps retrying; without a breaker each retry is one more
connection attempt (or one more request that hangs until its deadline on a wedged server). After
``failure_threshold`` consecutive unavailability errors the breaker *opens*: calls fail at once
with :class:`CircuitOpenError` (itself a ``TritonUnavailableError``, so callers retry with their
usual backoff) and never reach the server. After ``cooldown_s`` it is *half-open*: one call, the
probe, goes through; its success closes the breaker, its failure opens it for another cool-down.
Any answer from the server, including the engine's verdict on a document, counts as success.

One breaker per client (per process): the asyncio dispatcher and the blocking client share no
state across processes, which is enough to bound the load each process puts on a sick server.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from enum import StrEnum


class CircuitState(StrEnum):
    CLOSED = "closed"
    OPEN = "open"
    HALF_OPEN = "half_open"


class CircuitBreaker:
    """Consecutive-failure breaker with a cool-down and a single half-open probe (thread-safe)."""

    def __init__(
        self,
        *,
        failure_threshold: int = 5,
        cooldown_s: float = 30.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if failure_threshold < 1:
            raise ValueError("failure_threshold must be at least 1")
        self.failure_threshold = failure_threshold
        self.cooldown_s = cooldown_s
        self._clock = clock
        self._lock = threading.Lock()
        self._failures = 0
        self._opened_at: float | None = None
        self._probe_in_flight = False
        self.times_opened = 0
        self.rejected = 0
        self.last_failure = ""  # what the last failure was (its caller's word), to say why it is open

    @property
    def state(self) -> CircuitState:
        with self._lock:
            return self._state()

    def _state(self) -> CircuitState:
        if self._opened_at is None:
            return CircuitState.CLOSED
        if self._clock() - self._opened_at >= self.cooldown_s:
            return CircuitState.HALF_OPEN
        return CircuitState.OPEN

    def allow(self) -> bool:
        """Whether a call may go to the server now; a True in half-open state makes it the probe,
        and the caller must then report its outcome (``record_success`` / ``record_failure``)."""
        with self._lock:
            state = self._state()
            if state is CircuitState.CLOSED:
                return True
            if state is CircuitState.HALF_OPEN and not self._probe_in_flight:
                self._probe_in_flight = True
                return True
            self.rejected += 1
            return False

    def record_success(self) -> None:
        with self._lock:
            self._failures = 0
            self._opened_at = None
            self._probe_in_flight = False

    def record_failure(self, cause: str = "") -> None:
        with self._lock:
            self.last_failure = cause
            self._failures += 1
            was_probe = self._probe_in_flight
            self._probe_in_flight = False
            if was_probe or (self._opened_at is None and self._failures >= self.failure_threshold):
                self._opened_at = self._clock()
                self.times_opened += 1

    def release(self) -> None:
        """The call allowed by :meth:`allow` ended without telling anything about the server (it was
        cancelled): let another caller probe."""
        with self._lock:
            self._probe_in_flight = False
