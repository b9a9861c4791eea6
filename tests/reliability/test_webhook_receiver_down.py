"""A webhook receiver down for the whole retry window, then up: every event delivered exactly once
(issue 48). Real processes: a Celery worker on the webhook queue alone (as deployed), a private
Redis, PostgreSQL, and a real HTTP receiver on a local port.

What "the retry window" means here: each event is retried with capped, jittered backoff for
``DOCINTEL_WEBHOOK_RETRY_WINDOW_S`` (a day in production; seconds here, with a 0.2 s backoff capped
at 0.5 s, so the outage is compressed, not shortened in attempts). Two outages:

* down for longer than the window (connections refused): every event becomes a dead letter of its
  tenant; the receiver comes back; the tenant redrives them through the API; each is delivered once;
* down for most of the window (answering 503), then up: each is delivered once within its window,
  none dead-lettered.

"Exactly once" is counted at the receiver: each delivery id answered 2xx once, every event's id
among them, and nothing more arriving for a while after the last one.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from statistics import mean
from typing import Any

import pytest
from django.db import transaction
from rest_framework.test import APIClient

from servers.triton_server import _terminate_with_parent
from tests.reliability.conftest import REPO_ROOT, wait_for
from tests.support.processes import free_ports

pytestmark = [pytest.mark.integration, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

EVENTS = 20
WINDOW_S = 4.0
BACKOFF_S = 0.2
BACKOFF_MAX_S = 0.5
QUIET_AFTER_S = 3.0  # nothing more may arrive this long after the last delivery


class Receiver:
    """A real HTTP receiver on ``port``: ``answer`` is the status it gives (503 while "down");
    ``delivered`` counts the 2xx answers per ``X-DocIntel-Delivery`` id."""

    def __init__(self, port: int, answer: int = 200) -> None:
        self.answer = answer
        self.delivered: Counter[str] = Counter()
        self.refused = 0
        self.last_delivery_at = 0.0
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                self.rfile.read(int(self.headers["Content-Length"]))
                status = receiver.answer
                if 200 <= status < 300:
                    receiver.delivered[self.headers["X-DocIntel-Delivery"]] += 1
                    receiver.last_delivery_at = time.monotonic()
                else:
                    receiver.refused += 1
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: object) -> None:
                pass

        ThreadingHTTPServer.allow_reuse_address = True
        self.server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def webhook_worker(
    transactional_db: Any,
    private_redis: str,
    test_process_broker: str,
    tmp_path: Path,
    request: pytest.FixtureRequest,
) -> Iterator[Callable[[], Path]]:
    """Start a Celery worker consuming only the webhook queue (16 threads, as deploy/k8s runs it),
    with the retry window compressed; returns its log's path. Stopped after the test."""
    import redis
    from django.conf import settings

    redis.Redis.from_url(private_redis).flushall()
    db = settings.DATABASES["default"]
    processes: list[subprocess.Popen[bytes]] = []
    log = tmp_path / "worker-webhooks.log"

    def start() -> Path:
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings.test",
            "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
            "CELERY_BROKER_URL": private_redis,
            "DOCINTEL_CELERY_QUEUE": settings.CELERY_TASK_DEFAULT_QUEUE,
            "DOCINTEL_WEBHOOK_QUEUE": settings.DOCINTEL_WEBHOOK_QUEUE,
            "DOCINTEL_WEBHOOK_RETRY_WINDOW_S": str(WINDOW_S),
            "DOCINTEL_WEBHOOK_BACKOFF_S": str(BACKOFF_S),
            "DOCINTEL_WEBHOOK_BACKOFF_MAX_S": str(BACKOFF_MAX_S),
            "DOCINTEL_LOG_FORMAT": "plain",
            "PYTHONUNBUFFERED": "1",
        }
        command = [
            sys.executable, "-m", "celery", "-A", "config", "worker", "--pool", "threads", "--concurrency", "16",
            "-Q", settings.DOCINTEL_WEBHOOK_QUEUE, "-n", "rel-webhooks@%h", "--without-gossip",
            "--without-mingle", "--without-heartbeat", "--loglevel", "INFO",
        ]  # fmt: skip
        with open(log, "ab") as out:
            process = subprocess.Popen(
                command, cwd=REPO_ROOT, env=env, stdout=out, stderr=subprocess.STDOUT,
                start_new_session=True, preexec_fn=_terminate_with_parent,
            )  # fmt: skip
        processes.append(process)

        def ready() -> bool:
            assert processes[-1].poll() is None, log.read_text(errors="replace")[-4000:]
            return "ready." in log.read_text(errors="replace")

        wait_for(ready, "the webhook worker to start", 90, interval_s=0.2)
        return log

    failed_before = request.session.testsfailed
    yield start
    if request.session.testsfailed > failed_before and log.exists():
        print(f"--- worker-webhooks\n{log.read_text(errors='replace')[-4000:]}")
    for process in processes:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _events(tenant: Any, url: str) -> list[str]:
    """``EVENTS`` documents decided with a callback: their deliveries, committed and sent."""
    from apps.webhooks.services import document_callback_set, webhook_document_event
    from tests.factories import make_document

    ids = []
    with transaction.atomic():
        for _ in range(EVENTS):
            document = make_document(tenant)
            document_callback_set(document=document, url=url)
            delivery = webhook_document_event(document=document, event="document.decided")
            assert delivery is not None
            ids.append(str(delivery.pk))
    return ids


def _statuses(ids: list[str]) -> Counter[str]:
    from apps.webhooks.models import WebhookDelivery

    return Counter(WebhookDelivery.objects.filter(pk__in=ids).values_list("status", flat=True))


def _attempts(ids: list[str]) -> list[int]:
    from apps.webhooks.models import WebhookDelivery

    return list(WebhookDelivery.objects.filter(pk__in=ids).values_list("attempts", flat=True))


def _delivered_exactly_once(receiver: Receiver, ids: list[str]) -> dict[str, int]:
    """Wait for the quiet after the last delivery, then count what the receiver accepted."""
    wait_for(
        lambda: time.monotonic() - receiver.last_delivery_at > QUIET_AFTER_S, "the receiver to go quiet", 60
    )
    twice = {i: n for i, n in receiver.delivered.items() if n > 1}
    assert set(receiver.delivered) == set(ids), "an event was not delivered, or an unknown one was"
    assert twice == {}, f"delivered more than once: {twice}"
    return {"delivered": len(receiver.delivered), "delivered_twice": len(twice)}


def test_down_past_the_window_then_up_dead_letters_are_redriven_and_each_delivered_once(
    webhook_worker, tenant, reliability_results
) -> None:
    """GIVEN 20 events whose receiver refuses connections WHEN it stays down past the retry window
    THEN all 20 are dead letters, none was received; WHEN the receiver is up again and the tenant
    redrives through the API THEN each is delivered exactly once."""
    from apps.tenants.services import api_key_create

    log = webhook_worker()
    (port,) = free_ports(1)
    ids = _events(tenant, f"http://127.0.0.1:{port}/hook")  # nothing listens there yet
    down_s = wait_for(
        lambda: _statuses(ids)["failed"] == EVENTS, "every event to become a dead letter", 120, interval_s=0.2
    )
    attempts_in_window = _attempts(ids)
    assert min(attempts_in_window) >= 3, attempts_in_window

    receiver = Receiver(port)
    try:
        client = APIClient()
        raw = api_key_create(tenant=tenant, name="ops", scopes=["webhooks:read", "webhooks:write"]).raw_key
        client.credentials(HTTP_AUTHORIZATION=f"Api-Key {raw}")
        listed = client.get("/api/v1/webhooks/dead-letters", {"page_size": 200}).json()["results"]
        assert sorted(row["id"] for row in listed) == sorted(ids)
        redriven = client.post("/api/v1/webhooks/dead-letters/redrive", {}, format="json").json()["redriven"]
        assert sorted(redriven) == sorted(ids)
        started = time.monotonic()
        wait_for(lambda: _statuses(ids)["succeeded"] == EVENTS, "every event delivered", 60, interval_s=0.2)
        delivered_in_s = time.monotonic() - started
        counts = _delivered_exactly_once(receiver, ids)
    finally:
        receiver.close()
    reliability_results["webhook_receiver_down_past_window"] = {
        "events": EVENTS,
        "retry_window_s": WINDOW_S,
        "dead_letters": EVENTS,
        "dead_lettered_in_s": round(down_s, 1),
        "attempts_per_event_in_window": {"min": min(attempts_in_window), "max": max(attempts_in_window)},
        "redriven": len(redriven),
        "delivered_after_redrive_in_s": round(delivered_in_s, 1),
        **counts,
        "lost": EVENTS - counts["delivered"],
    }
    assert "Traceback" not in log.read_text(errors="replace")


def test_down_for_most_of_the_window_then_up_each_event_is_delivered_once(
    webhook_worker, tenant, reliability_results
) -> None:
    """GIVEN 20 events whose receiver answers 503 WHEN it comes back (200) after 60 % of the retry
    window THEN each is delivered exactly once, within its window, and none is a dead letter."""
    log = webhook_worker()
    (port,) = free_ports(1)
    receiver = Receiver(port, answer=503)
    try:
        ids = _events(tenant, f"http://127.0.0.1:{port}/hook")
        time.sleep(WINDOW_S * 0.6)
        receiver.answer = 200
        wait_for(lambda: _statuses(ids)["succeeded"] == EVENTS, "every event delivered", 60, interval_s=0.2)
        counts = _delivered_exactly_once(receiver, ids)
    finally:
        receiver.close()
    statuses = _statuses(ids)
    attempts = _attempts(ids)
    reliability_results["webhook_receiver_down_most_of_window"] = {
        "events": EVENTS,
        "retry_window_s": WINDOW_S,
        "down_s": WINDOW_S * 0.6,
        "answers_503": receiver.refused,
        "attempts_per_event": {"min": min(attempts), "mean": round(mean(attempts), 1), "max": max(attempts)},
        "dead_letters": statuses["failed"],
        **counts,
        "lost": EVENTS - counts["delivered"],
    }
    assert statuses == Counter({"succeeded": EVENTS})
    assert receiver.refused >= EVENTS  # every event met the outage
    assert "Traceback" not in log.read_text(errors="replace")
