"""Fault 6: the machine's PostgreSQL restarts with 40 documents in flight.

Every process loses its connections at once: the worker mid-prepare, the dispatcher reading pages
or storing results, the test itself. Before issue 48 the document in hand failed with
``internal_error`` (the dispatcher's ``_fail_internal`` reconnected first, then failed it), and a
Celery step failing in the database failed its document the same way. Now a database that goes
away is waited for: the step runs again once it answers, and the attempt it had counted is given
back.

The test restarts the real cluster serving ``DATABASE_URL`` (``pg_ctlcluster <version> <name>
restart -m fast``, as root or the cluster's owner) and is skipped, saying why, where it cannot.
"""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import time

import pytest

from tests.reliability import ledger
from tests.reliability.conftest import wait_for

pytestmark = [pytest.mark.integration, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

IN_FLIGHT = 40  # the figure: at least this many documents in flight when the server goes
LOCAL_HOSTS = {"", "127.0.0.1", "localhost", "::1"}


def _cluster() -> tuple[str, str]:
    """(version, name) of the local cluster serving the test database, or the test is skipped."""
    from django.conf import settings

    db = settings.DATABASES["default"]
    if db["ENGINE"] != "django.db.backends.postgresql":
        pytest.skip("the database is not PostgreSQL")
    host, port = str(db.get("HOST") or ""), int(db.get("PORT") or 5432)
    if host not in LOCAL_HOSTS and not host.startswith("/"):
        pytest.skip(f"PostgreSQL runs on {host}, not on this machine: it cannot be restarted from here")
    if shutil.which("pg_lsclusters") is None or shutil.which("pg_ctlcluster") is None:
        pytest.skip("pg_lsclusters / pg_ctlcluster (Debian's postgresql-common) are not installed")
    listing = subprocess.run(["pg_lsclusters", "--no-header"], capture_output=True, text=True, check=False)
    for line in listing.stdout.splitlines():
        version, name, cluster_port, _status, owner, *_ = line.split()
        if int(cluster_port) != port:
            continue
        if os.geteuid() not in (0, pwd.getpwnam(owner).pw_uid):
            pytest.skip(f"restarting cluster {version}/{name} needs root or its owner {owner}")
        return version, name
    pytest.skip(f"no local PostgreSQL cluster listens on port {port} (pg_lsclusters)")


def _restart(version: str, name: str) -> float:
    """Restart the cluster (fast: every connection is cut at once); the seconds it took."""
    from django.db import connections

    started = time.monotonic()
    result = subprocess.run(
        ["pg_ctlcluster", version, name, "restart", "-m", "fast"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    took = time.monotonic() - started
    # this process's connections died with the server too: the next query opens a new one
    connections.close_all()
    assert result.returncode == 0, f"pg_ctlcluster restart failed: {result.stderr or result.stdout}"
    return took


def test_postgres_restarted_with_40_documents_in_flight_fails_none_and_loses_none(
    fault_stack, tenant, reliability_results
) -> None:
    """GIVEN at least 40 documents in flight: some being prepared by the worker, the others with
    the dispatcher (Triton at 8 documents a second, so some are inside it)
    WHEN PostgreSQL restarts
    THEN every one of them ends decided: none failed, none lost, none processed twice, and no
    document spent an attempt on the restart."""
    version, name = _cluster()
    stack = fault_stack(
        DOCINTEL_TRITON_MODEL="sim_slow",  # 8 documents a second: the restart finds some in Triton
        # the waits for the database, compressed (production: 2 s doubling up to 60 s)
        DOCINTEL_TRITON_RETRY_BASE_S="0.5",
        DOCINTEL_TRITON_RETRY_MAX_S="2",
    )
    ids = ledger.upload(tenant, 50)
    stack.start("beat", "worker", "dispatcher")
    wait_for(lambda: ledger.in_flight(ids) < len(ids), "the first documents to be decided", 90, 0.05)
    ids += ledger.upload(tenant, 10, first=50)  # being prepared as the server goes

    at_restart = ledger.statuses(ids)
    restart_s = _restart(version, name)

    recovered_in = ledger.settled(ids, 120, stack.tails)
    counts = ledger.statuses(ids)
    failed = counts.get("failed", 0)
    lost = len(ids) - sum(n for status, n in counts.items() if status in ledger.DECIDED)
    twice = ledger.processed_twice(ids)
    logs = stack.log_text("worker") + stack.log_text("dispatcher")
    reliability_results["postgres_restart"] = {
        "documents": len(ids),
        "in_flight_at_restart": sum(n for s, n in at_restart.items() if s not in ledger.TERMINAL),
        "statuses_at_restart": dict(at_restart),
        "restart_s": round(restart_s, 1),
        "failed": failed,
        "lost": lost,
        "processed_twice": len(twice),
        "max_attempts_used": ledger.max_attempts(ids),
        "database_waits_logged": logs.count("database unavailable"),
        "all_decided_s_after_restart": round(recovered_in, 1),
    }
    assert sum(n for s, n in at_restart.items() if s not in ledger.TERMINAL) >= IN_FLIGHT, at_restart
    assert failed == 0, dict(counts)
    assert lost == 0, dict(counts)
    assert twice == {}
    # prepare and inference, once each: a round cut short by the restart gave its attempt back (one
    # more only where the restart cut the very statement that counted it, before it could tell)
    assert ledger.max_attempts(ids) <= 3, ledger.max_attempts(ids)
