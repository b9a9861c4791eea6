"""Fault 2: Redis loses every message (FLUSHALL on the broker) while documents are queued and
running. The database still knows what each document is owed; the reconciler sends it again."""

from __future__ import annotations

import re
import time

import pytest
import redis

from tests.reliability import ledger
from tests.reliability.conftest import wait_for

pytestmark = [pytest.mark.integration, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

DOCUMENTS = 48
# production's settings: the reconciler runs once a minute and re-sends a document untouched for
# ten minutes; it must notice the emptied broker itself (workers.broker_epoch), not wait that long
STUCK_AFTER_S = 600
RECONCILE_EVERY_S = 60
RECOVERY_BOUND_S = 120  # the bound: every document re-enqueued within two minutes


def test_flushall_with_documents_queued_and_running_loses_none(
    fault_stack, tenant, private_redis, reliability_results
) -> None:
    """GIVEN 48 documents uploaded and being processed, some decided, some queued, some running
    WHEN the broker's Redis is flushed (every queued and unacknowledged message gone)
    THEN the next reconciler run (within a minute) sees the broker's epoch key gone, re-enqueues
    every unfinished one from the database, all are decided within two minutes, and none is
    processed twice."""
    stack = fault_stack(
        DOCINTEL_STUCK_AFTER_S=str(STUCK_AFTER_S),
        DOCINTEL_RECONCILE_EVERY_S=str(RECONCILE_EVERY_S),
        DOCINTEL_TRITON_MODEL="sim_slow",  # 8 documents a second: some queued, some inside Triton
        DOCINTEL_DISPATCH_MAX_IN_FLIGHT="8",  # the dispatcher holds 8; the rest wait in the broker
    )
    broker = redis.Redis.from_url(private_redis)
    ids = ledger.upload(tenant, DOCUMENTS)
    stack.start("beat", "worker", "dispatcher")
    wait_for(lambda: ledger.in_flight(ids) <= DOCUMENTS * 3 // 4, "a quarter to finish", 90, interval_s=0.02)

    at_flush = dict(ledger.statuses(ids))
    messages = sum(broker.llen(key) for key in broker.keys("docintel*") if broker.type(key) == b"list")
    unacked = broker.hlen("unacked")
    broker.flushall()
    flushed_at = time.monotonic()

    elapsed = ledger.settled(ids, RECOVERY_BOUND_S, stack.tails)
    assert time.monotonic() - flushed_at < RECOVERY_BOUND_S

    counts = ledger.statuses(ids)
    lost = DOCUMENTS - sum(n for status, n in counts.items() if status in ledger.DECIDED)
    twice = ledger.processed_twice(ids)
    reenqueued = sum(
        int(n) for n in re.findall(r"re-enqueued or failed (\d+) stuck", stack.log_text("worker"))
    )
    in_flight = sum(n for s, n in at_flush.items() if s not in ledger.TERMINAL)
    reliability_results["redis_flushall"] = {
        "documents": DOCUMENTS,
        "in_flight_at_flush": in_flight,
        "statuses_at_flush": at_flush,
        "messages_flushed": {"queued": messages, "unacknowledged": unacked},
        "reconciler_reenqueued": reenqueued,
        "lost": lost,
        "processed_twice": len(twice),
        "recovered_in_s": round(elapsed, 1),
    }
    assert in_flight > 0 and messages + unacked > 0, (at_flush, messages, unacked)
    assert reenqueued >= 1
    assert "the broker lost its messages" in stack.log_text("worker")
    assert lost == 0, dict(counts)
    assert twice == {}
