"""A slow receiver holds a delivery no longer than its deadline, and never gets copies of it
(issue 48, item 3). Real HTTP: local servers that answer too slowly on purpose.

GIVEN a receiver that sends its answer one byte every quarter second WHEN a delivery with a
1-second timeout is attempted THEN the attempt ends as a timeout after about a second (before, each
byte restarted a per-read timeout and the attempt lasted the whole trickle).
GIVEN a delivery whose retry window closed while its message waited (the sweep freed it from a dead
worker) WHEN its message arrives THEN it is not sent again: it is a dead letter.
GIVEN an attempt still within its deadline, and deliveries whose window closed WHEN the sweep runs
THEN it sends no second copy beside the live attempt, and dead-letters the expired ones.
GIVEN a delivery of a tenant whose row another claim holds locked WHEN it is claimed THEN it is
sent (before, the claim locked the tenant's row too, and skipped every delivery of a tenant being
claimed by another thread at that moment: they waited for the sweep).
"""

from __future__ import annotations

import datetime as dt
import socket
import threading
import time
from collections.abc import Iterator

import pytest
from django.db import connection, transaction
from django.utils import timezone

from apps.tenants.models import Tenant
from apps.webhooks.models import DeliveryStatus, WebhookDelivery
from apps.webhooks.services import (
    SWEEP_GRACE,
    webhook_deliver,
    webhook_deliveries_sweep,
)
from tests.factories import webhook_delivery
from tests.support.webhook_receiver import Receiver

pytestmark = pytest.mark.django_db

TRICKLE_INTERVAL_S = 0.25
ANSWER = b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok"


class TricklingReceiver:
    """A TCP server that reads the request, then writes ``ANSWER`` one byte every
    ``TRICKLE_INTERVAL_S`` (about 16 s for the whole of it)."""

    def __init__(self) -> None:
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}/hook"
        self.requests = 0
        self.stopped = threading.Event()
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while not self.stopped.is_set():
            try:
                connection, _ = self.sock.accept()
            except OSError:
                return
            threading.Thread(target=self._trickle, args=(connection,), daemon=True).start()

    def _trickle(self, connection: socket.socket) -> None:
        with connection:
            received = b""
            while b"\r\n\r\n" not in received:
                chunk = connection.recv(65536)
                if not chunk:
                    return
                received += chunk
            self.requests += 1
            for byte in ANSWER:
                if self.stopped.is_set():
                    return
                try:
                    connection.sendall(bytes([byte]))
                except OSError:
                    return  # the client gave up
                time.sleep(TRICKLE_INTERVAL_S)

    def close(self) -> None:
        self.stopped.set()
        self.sock.close()


@pytest.fixture
def trickling() -> Iterator[TricklingReceiver]:
    server = TricklingReceiver()
    yield server
    server.close()


def test_a_receiver_trickling_its_answer_is_cut_at_the_deadline(tenant, trickling, settings):
    settings.DOCINTEL_WEBHOOK_TIMEOUT_S = 1.0
    delivery = webhook_delivery(tenant, trickling.url)
    started = time.monotonic()
    assert webhook_deliver(delivery_id=str(delivery.pk)) == "pending"  # to be retried
    elapsed = time.monotonic() - started
    attempt = delivery.attempt_log.get()
    assert trickling.requests == 1  # the request was sent and the answer had begun
    assert attempt.error == "timeout" and attempt.status_code is None
    assert elapsed < 2.5, f"the attempt took {elapsed:.1f} s with a 1 s deadline"


def test_a_delivery_whose_window_closed_while_its_message_waited_is_not_sent(tenant, settings):
    settings.DOCINTEL_WEBHOOK_RETRY_WINDOW_S = 24 * 3600
    server = Receiver([200])
    try:
        delivery = webhook_delivery(tenant, server.url)
        # two days old, 8 attempts made: the sweep freed it from a worker that died mid-attempt
        WebhookDelivery.objects.filter(pk=delivery.pk).update(
            created_at=timezone.now() - dt.timedelta(days=2), attempts=8, next_attempt_at=timezone.now()
        )
        assert webhook_deliver(delivery_id=str(delivery.pk)) == "failed"
        delivery.refresh_from_db()
        assert delivery.status == DeliveryStatus.FAILED and delivery.dead_lettered_at is not None
        assert delivery.attempts == 8 and server.received == []
    finally:
        server.close()


def test_the_sweep_never_copies_a_live_attempt_and_dead_letters_what_outlived_its_window(tenant, settings):
    settings.DOCINTEL_WEBHOOK_TIMEOUT_S = 10.0
    settings.DOCINTEL_WEBHOOK_RETRY_WINDOW_S = 24 * 3600
    now = timezone.now()
    url = "http://127.0.0.1:9/x"
    live, lost, expired_pending, expired_stuck = (webhook_delivery(tenant, url) for _ in range(4))
    two_days_ago = now - dt.timedelta(days=2)
    # claimed just within deadline + grace ago: its request may still be running
    WebhookDelivery.objects.filter(pk=live.pk).update(
        status=DeliveryStatus.SENDING, updated_at=now - dt.timedelta(seconds=10) - SWEEP_GRACE / 2
    )
    WebhookDelivery.objects.filter(pk=lost.pk).update(
        status=DeliveryStatus.SENDING, updated_at=now - dt.timedelta(minutes=10)
    )
    WebhookDelivery.objects.filter(pk=expired_pending.pk).update(
        created_at=two_days_ago, next_attempt_at=now - dt.timedelta(minutes=5)
    )
    WebhookDelivery.objects.filter(pk=expired_stuck.pk).update(
        created_at=two_days_ago, status=DeliveryStatus.SENDING, updated_at=now - dt.timedelta(minutes=10)
    )

    assert webhook_deliveries_sweep(now=now) == [str(lost.pk)]

    statuses = dict(WebhookDelivery.objects.values_list("pk", "status"))
    assert statuses[live.pk] == DeliveryStatus.SENDING
    assert statuses[lost.pk] == DeliveryStatus.PENDING
    assert statuses[expired_pending.pk] == statuses[expired_stuck.pk] == DeliveryStatus.FAILED


@pytest.mark.django_db(transaction=True)
def test_a_claim_does_not_skip_a_delivery_whose_tenant_another_claim_holds(tenant):
    server = Receiver([200])
    holding, release = threading.Event(), threading.Event()

    def other_claim() -> None:
        try:
            with transaction.atomic():
                Tenant.objects.select_for_update().get(pk=tenant.pk)
                holding.set()
                release.wait(10)
        finally:
            connection.close()

    thread = threading.Thread(target=other_claim)
    try:
        delivery = webhook_delivery(tenant, server.url)
        thread.start()
        assert holding.wait(10)
        # "skipped": a worker of the test session took the delivery's message first, under the
        # same tenant lock; either way it must be claimed (never "missing") and sent once
        assert webhook_deliver(delivery_id=str(delivery.pk)) in ("succeeded", "skipped")
        deadline = time.monotonic() + 10
        while WebhookDelivery.objects.get(pk=delivery.pk).status != DeliveryStatus.SUCCEEDED:
            assert time.monotonic() < deadline, "not delivered while the tenant's row was locked"
            time.sleep(0.1)
        assert len(server.received) == 1
    finally:
        release.set()
        thread.join()
        server.close()
