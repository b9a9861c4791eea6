"""The circuit breaker in front of Triton: closed → open after N failures → half-open probe."""

from __future__ import annotations

import pytest

from media.circuit_breaker import CircuitBreaker, CircuitState


class FakeClock:
    """Time that moves only when the test says so (the breaker's only dependency)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _breaker(clock: FakeClock, threshold: int = 3, cooldown_s: float = 10.0) -> CircuitBreaker:
    return CircuitBreaker(failure_threshold=threshold, cooldown_s=cooldown_s, clock=clock)


def test_breaker_opens_after_consecutive_failures_and_rejects_without_calling() -> None:
    clock = FakeClock()
    breaker = _breaker(clock)
    for _ in range(2):
        assert breaker.allow()
        breaker.record_failure()
    assert breaker.state is CircuitState.CLOSED
    assert breaker.allow()
    breaker.record_failure()
    assert breaker.state is CircuitState.OPEN
    assert [breaker.allow() for _ in range(5)] == [False] * 5
    assert breaker.rejected == 5
    assert breaker.times_opened == 1


def test_a_success_resets_the_count_of_consecutive_failures() -> None:
    breaker = _breaker(FakeClock())
    for _ in range(2):
        breaker.record_failure()
    breaker.record_success()
    for _ in range(2):
        breaker.record_failure()
    assert breaker.state is CircuitState.CLOSED


def test_after_the_cool_down_exactly_one_probe_goes_through() -> None:
    clock = FakeClock()
    breaker = _breaker(clock)
    for _ in range(3):
        breaker.record_failure()
    clock.now += 10.0
    assert breaker.state is CircuitState.HALF_OPEN
    assert breaker.allow(), "the probe"
    assert not breaker.allow(), "a second caller while the probe is out"
    breaker.record_success()
    assert breaker.state is CircuitState.CLOSED
    assert all(breaker.allow() for _ in range(10))


def test_a_failed_probe_opens_the_breaker_for_another_cool_down() -> None:
    clock = FakeClock()
    breaker = _breaker(clock)
    for _ in range(3):
        breaker.record_failure()
    clock.now += 10.0
    assert breaker.allow()
    breaker.record_failure()
    assert breaker.state is CircuitState.OPEN
    assert breaker.times_opened == 2
    clock.now += 9.9
    assert not breaker.allow()
    clock.now += 0.1
    assert breaker.allow()


def test_a_cancelled_probe_lets_another_caller_probe() -> None:
    clock = FakeClock()
    breaker = _breaker(clock, threshold=1)
    breaker.record_failure()
    clock.now += 10.0
    assert breaker.allow()
    breaker.release()
    assert breaker.allow()


def test_threshold_must_be_positive() -> None:
    with pytest.raises(ValueError):
        CircuitBreaker(failure_threshold=0)
