"""Fault 1: the Celery worker and the inference dispatcher are SIGKILLed while documents are
mid-task, twice. acks_late keeps their messages in Redis, unacknowledged (Redis hands them out
again only after the visibility timeout, an hour); the reconciler re-sends whatever the database
says is still owed, and the steps' state checks make any second delivery a no-op."""

from __future__ import annotations

import pytest

from tests.reliability import ledger
from tests.reliability.conftest import wait_for

pytestmark = [pytest.mark.integration, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

DOCUMENTS = 48


def test_sigkilled_worker_and_dispatcher_twice_lose_nothing_and_process_nothing_twice(
    fault_stack, tenant, reliability_results
) -> None:
    """GIVEN 48 documents uploaded, and a worker and a dispatcher consuming them
    WHEN both are SIGKILLed once a fifth are decided, restarted, SIGKILLed again as soon as a few
    more are decided, and restarted
    THEN every document ends decided, each with one extraction, one review task and each state
    change audited once."""
    stack = fault_stack(
        # the reconciler's deadline, compressed from 10 minutes to seconds. attempt_count counts
        # every step run and every re-send (models.Document): a document caught inside Triton by
        # both kills uses up to 6 (prepare, infer, then re-send + infer twice), within production's
        # DOCINTEL_MAX_ATTEMPTS of 12 (the default, so not set here); the test reports the most any
        # document used ("max_attempts_used")
        DOCINTEL_STUCK_AFTER_S="6",
        DOCINTEL_TRITON_MODEL="sim_slow",  # 8 documents a second: kills find some inside Triton
    )
    ids = ledger.upload(tenant, DOCUMENTS)
    stack.start("beat", "worker", "dispatcher")
    kills = []
    for more in (DOCUMENTS // 4, 8):
        target = DOCUMENTS - ledger.in_flight(ids) + more
        wait_for(
            lambda t=target: DOCUMENTS - ledger.in_flight(ids) >= t,
            f"{target} documents to finish",
            90,
            interval_s=0.02,
        )
        stack.kill("worker", "dispatcher")
        kills.append(dict(ledger.statuses(ids)))
        stack.start("worker", "dispatcher")

    elapsed = ledger.settled(ids, 120, stack.tails)

    counts = ledger.statuses(ids)
    lost = DOCUMENTS - sum(n for status, n in counts.items() if status in ledger.DECIDED)
    twice = ledger.processed_twice(ids)
    reliability_results["worker_sigkill_x2"] = {
        "documents": DOCUMENTS,
        "in_flight_at_kill": [sum(n for s, n in k.items() if s not in ledger.TERMINAL) for k in kills],
        "statuses_at_kill": kills,
        "lost": lost,
        "processed_twice": len(twice),
        "max_attempts_used": ledger.max_attempts(ids),
        "recovered_in_s": round(elapsed, 1),
    }
    assert all(sum(n for s, n in k.items() if s not in ledger.TERMINAL) > 0 for k in kills), kills
    assert any(k.get("processing", 0) > 0 for k in kills), f"no kill found a document in Triton: {kills}"
    assert lost == 0, dict(counts)
    assert twice == {}
