"""Fault 3: Triton stops answering under load, and Triton answering "queue full".

The outage is a SIGSTOP of the server process: its port still accepts connections
and nothing answers, the hardest case for a client (a refused connection fails at once, a hung
server only by the deadline). The outage lasts the issue's 60 s (``DOCINTEL_TEST_TRITON_OUTAGE_S``
shortens it while developing), with the retry backoff capped at 4 s so documents resume within
seconds of the server's return.
"""

from __future__ import annotations

import os
import re
import time

import pytest

from tests.reliability import ledger
from tests.reliability.conftest import wait_for

pytestmark = [pytest.mark.integration, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

OUTAGE_S = float(os.environ.get("DOCINTEL_TEST_TRITON_OUTAGE_S", "60"))
TIMEOUT_S = 1.0
COOLDOWN_S = 2.0
RETRY_MAX_S = 4.0
OUTAGE_ENV = {
    "DOCINTEL_TRITON_TIMEOUT_S": str(TIMEOUT_S),
    "DOCINTEL_TRITON_RETRIES": str(int(OUTAGE_S / (RETRY_MAX_S / 2)) + 10),  # outlasts the outage
    "DOCINTEL_TRITON_RETRY_BASE_S": "0.5",
    "DOCINTEL_TRITON_RETRY_MAX_S": str(RETRY_MAX_S),
    "DOCINTEL_TRITON_BREAKER_FAILURES": "5",
    "DOCINTEL_TRITON_BREAKER_COOLDOWN_S": str(COOLDOWN_S),
    "DOCINTEL_STUCK_AFTER_S": "600",  # production's: the outage is the dispatcher's to ride out
}


def _retries(log: str, kind: str) -> int:
    return len(re.findall(rf"Triton unavailable \({kind}\); retry", log))


def test_triton_stopped_under_load_documents_wait_then_all_complete(
    fault_stack, tenant, reliability_triton, reliability_results
) -> None:
    """GIVEN documents flowing through the worker and the dispatcher
    WHEN Triton stops answering for OUTAGE_S while more documents are uploaded
    THEN no document fails: they wait in PROCESSING (visible through the API); a call times out
    within its 1 s deadline; the circuit breaker keeps all but a few probes off the server; and
    every document is decided, once, soon after Triton answers again."""
    from media.circuit_breaker import CircuitBreaker
    from media.triton_client import TritonEngineClient, TritonUnavailableError

    stack = fault_stack(**OUTAGE_ENV)
    ids = ledger.upload(tenant, 20)
    stack.start("beat", "worker", "dispatcher")
    wait_for(lambda: ledger.in_flight(ids) <= 15, "the first documents to finish", 90, interval_s=0.05)

    log_before = len(stack.log_text("dispatcher"))
    reliability_triton.pause()
    paused_at = time.monotonic()
    ids += ledger.upload(tenant, 20, first=20)  # uploads go on: the load continues

    with TritonEngineClient(
        reliability_triton.url, timeout_s=TIMEOUT_S, model="sim_rel", breaker=CircuitBreaker()
    ) as client:
        started = time.monotonic()
        with pytest.raises(TritonUnavailableError) as raised:
            client.read_document([ledger.png(0)])
        timed_out_in = time.monotonic() - started
    assert raised.value.kind == "timeout"
    assert timed_out_in < TIMEOUT_S + 1.0

    samples = []
    while time.monotonic() - paused_at < OUTAGE_S:
        samples.append(ledger.statuses(ids))
        assert samples[-1]["failed"] == 0, f"a document failed during the outage: {dict(samples[-1])}"
        time.sleep(0.5)
    reliability_triton.resume()
    resumed_at = time.monotonic()
    outage_log = stack.log_text("dispatcher")[log_before:]

    drained_in = ledger.settled(ids, 60, stack.tails)

    counts = ledger.statuses(ids)
    lost = len(ids) - sum(n for status, n in counts.items() if status in ledger.DECIDED)
    twice = ledger.processed_twice(ids)
    waiting = max(s["processing"] for s in samples)
    reached_server = _retries(outage_log, "timeout")
    kept_off = _retries(outage_log, "circuit_open")
    reliability_results["triton_outage"] = {
        "outage_s": OUTAGE_S,
        "documents": len(ids),
        "in_flight_during_outage": max(
            sum(n for st, n in s.items() if st not in ledger.TERMINAL) for s in samples
        ),
        "waiting_in_processing": waiting,
        "failed_during_outage": 0,
        "client_timeout_s": round(timed_out_in, 2),
        "calls_timed_out_on_server": reached_server,
        "calls_kept_off_by_breaker": kept_off,
        "lost": lost,
        "processed_twice": len(twice),
        "all_decided_s_after_return": round(time.monotonic() - resumed_at, 1) if drained_in else 0.0,
    }
    assert waiting > 0
    assert lost == 0, dict(counts)
    assert twice == {}
    # the breaker opens after 5 failures and then lets one probe through per cool-down: the calls
    # that reach the hung server are those already sent when it stopped, plus the probes
    assert kept_off > reached_server, (reached_server, kept_off)
    assert reached_server <= 32 + OUTAGE_S / COOLDOWN_S + 5, reached_server


def test_queue_full_answers_are_retried_with_backoff_until_every_document_is_done(
    fault_stack, tenant, reliability_results
) -> None:
    """GIVEN a model whose Triton queue holds 2 requests, and a dispatcher keeping 32 in flight
    WHEN 60 documents arrive
    THEN Triton refuses many calls with "queue full", the dispatcher retries them with jittered
    backoff without opening its circuit breaker (the server is up), and every document is decided."""
    stack = fault_stack(
        DOCINTEL_TRITON_MODEL="sim_small_queue",
        DOCINTEL_TRITON_RETRIES="30",
        DOCINTEL_TRITON_RETRY_BASE_S="0.1",
        DOCINTEL_TRITON_RETRY_MAX_S="1",
    )
    ids = ledger.upload(tenant, 60)
    stack.start("worker", "dispatcher")
    ledger.settled(ids, 90, stack.tails)

    log = stack.log_text("dispatcher")
    counts = ledger.statuses(ids)
    lost = len(ids) - sum(n for status, n in counts.items() if status in ledger.DECIDED)
    reliability_results["triton_queue_full"] = {
        "documents": len(ids),
        "queue_full_retries": _retries(log, "overloaded"),
        "circuit_open": _retries(log, "circuit_open"),
        "lost": lost,
        "processed_twice": len(ledger.processed_twice(ids)),
    }
    assert _retries(log, "overloaded") > 0, "Triton's queue never filled: the test proves nothing"
    assert _retries(log, "circuit_open") == 0
    assert lost == 0, dict(counts)
    assert ledger.processed_twice(ids) == {}
