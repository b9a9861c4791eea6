"""Fault 3: Triton stops answering under load, and Triton answering "queue full".

The outage is a SIGSTOP of the server process: its port still accepts connections and nothing
answers, the hardest case for a client (a refused connection fails at once, a hung server only by
the deadline).

Twenty minutes, compressed. Production waits up to 60 s between tries (DOCINTEL_TRITON_RETRY_MAX_S)
and allows 12 attempts; here the waits are capped at 1.5 s and the attempts at 4, so the 30 s
outage (``DOCINTEL_TEST_TRITON_OUTAGE_S``) is as many tries as 20 minutes in production, and more
rounds of a message per document than its attempt budget: the code before issue 48, which counted
an attempt at each round (and one more at each reconciler re-send), failed every one of these
documents with ``max_attempts_exceeded`` before the outage was over. Now an outage spends no
attempt: every document waits, shown as processing, and is decided once Triton is back.
"""

from __future__ import annotations

import json
import os
import re
import statistics
import time
from collections import Counter

import pytest

from tests.reliability import ledger
from tests.reliability.conftest import wait_for

pytestmark = [pytest.mark.integration, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

OUTAGE_S = float(os.environ.get("DOCINTEL_TEST_TRITON_OUTAGE_S", "30"))
TIMEOUT_S = 1.0
COOLDOWN_S = 2.0
RETRY_MAX_S = 1.5  # production: 60 s
MAX_ATTEMPTS = 4  # production: 12
OUTAGE_ENV = {
    "DOCINTEL_TRITON_TIMEOUT_S": str(TIMEOUT_S),
    "DOCINTEL_TRITON_RETRIES": "2",  # three calls a message, then the document is sent again
    "DOCINTEL_TRITON_RETRY_BASE_S": "0.25",
    "DOCINTEL_TRITON_RETRY_MAX_S": str(RETRY_MAX_S),
    "DOCINTEL_TRITON_BREAKER_FAILURES": "5",
    "DOCINTEL_TRITON_BREAKER_COOLDOWN_S": str(COOLDOWN_S),
    "DOCINTEL_MAX_ATTEMPTS": str(MAX_ATTEMPTS),
    # the reconciler's deadline compressed too (production: 600 s): before, it re-sent each
    # document left behind after its retries, and counted an attempt for it
    "DOCINTEL_STUCK_AFTER_S": "8",
    "DOCINTEL_LOG_FORMAT": "json",  # lines carry the document id
}


def _retries(log: str, kind: str) -> int:
    return len(re.findall(rf"Triton unavailable \({kind}\); retry", log))


def _rounds_waited(log: str) -> Counter[str]:
    """Per document, the messages that ended with the document waiting out the outage: each is one
    round of begin (an attempt counted, before issue 48 never given back) and calls."""
    rounds: Counter[str] = Counter()
    for line in log.splitlines():
        if "the document waits" not in line:
            continue
        try:
            rounds[json.loads(line)["document_id"]] += 1
        except (ValueError, KeyError):
            continue
    return rounds


def test_triton_stopped_for_twenty_compressed_minutes_fails_nothing_and_everything_completes(
    fault_stack, tenant, reliability_triton, reliability_results
) -> None:
    """GIVEN documents flowing through the worker and the dispatcher
    WHEN Triton stops answering for OUTAGE_S while more documents are uploaded
    THEN no document fails: they wait in PROCESSING, noted as waiting on Triton (what the API
    shows), each through more rounds than its attempt budget yet with no attempt spent; a call
    times out within its 1 s deadline; the circuit breaker keeps most calls off the server; and
    every document is decided, once, soon after Triton answers again."""
    from apps.documents.models import Document
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

    samples, noted = [], 0
    while time.monotonic() - paused_at < OUTAGE_S:
        samples.append(ledger.statuses(ids))
        assert samples[-1]["failed"] == 0, f"a document failed during the outage: {dict(samples[-1])}"
        noted = max(noted, Document.objects.filter(pk__in=ids, unavailable_reason="triton").count())
        time.sleep(0.5)
    attempts_during = ledger.max_attempts(ids)
    reliability_triton.resume()
    resumed_at = time.monotonic()
    outage_log = stack.log_text("dispatcher")[log_before:]

    drained_in = ledger.settled(ids, 90, stack.tails)

    counts = ledger.statuses(ids)
    lost = len(ids) - sum(n for status, n in counts.items() if status in ledger.DECIDED)
    twice = ledger.processed_twice(ids)
    waiting = max(s["processing"] for s in samples)
    rounds = _rounds_waited(outage_log)
    waited_rounds = [rounds.get(document_id, 0) for document_id in ids if rounds.get(document_id)]
    reached_server = _retries(outage_log, "timeout")
    kept_off = _retries(outage_log, "circuit_open")
    reliability_results["triton_outage"] = {
        "outage_s": OUTAGE_S,
        "compressed_from_s": 1200,
        "documents": len(ids),
        "in_flight_during_outage": max(
            sum(n for st, n in s.items() if st not in ledger.TERMINAL) for s in samples
        ),
        "waiting_in_processing": waiting,
        "noted_waiting_on_triton": noted,
        "failed": counts.get("failed", 0),
        "lost": lost,
        "processed_twice": len(twice),
        "max_attempts": MAX_ATTEMPTS,
        "rounds_waited_per_document": {
            "min": min(waited_rounds, default=0),
            "median": statistics.median(waited_rounds) if waited_rounds else 0,
            "max": max(waited_rounds, default=0),
        },
        "max_attempts_used_during_outage": attempts_during,
        "max_attempts_used": ledger.max_attempts(ids),
        "client_timeout_s": round(timed_out_in, 2),
        "calls_timed_out_on_server": reached_server,
        "calls_kept_off_by_breaker": kept_off,
        "all_decided_s_after_return": round(time.monotonic() - resumed_at, 1) if drained_in else 0.0,
    }
    assert waiting > 0 and noted > 0
    assert counts.get("failed", 0) == 0 and lost == 0, dict(counts)
    assert twice == {}
    # before issue 48 each round counted an attempt (and each reconciler re-send one more): with
    # prepare's, a document that met the outage MAX_ATTEMPTS - 1 times had used them all, and its
    # next round failed it. Every document waiting did, most of them many times over
    assert len(waited_rounds) >= waiting
    assert min(waited_rounds) >= MAX_ATTEMPTS - 1, rounds
    assert statistics.median(waited_rounds) > MAX_ATTEMPTS, rounds
    # ...and spent none: prepare's and the final inference's, and no more
    assert ledger.max_attempts(ids) <= 2 + 1, ledger.max_attempts(ids)
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
