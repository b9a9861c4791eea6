"""Webhook deliveries without the network's help: signing, backoff, outbox rows on decide,
review and failure, a failed delivery's replay, and the sweep. Real HTTP: a local server."""

from __future__ import annotations

import datetime as dt
import json
import random

import pytest
from django.utils import timezone

from apps.documents.services import document_fail
from apps.tenants.webhook_secrets import webhook_secret_of
from apps.webhooks import signing
from apps.webhooks.models import DeliveryStatus, WebhookDelivery
from apps.webhooks.services import (
    document_callback_set,
    retry_delay_s,
    webhook_deliver,
    webhook_deliveries_sweep,
    webhook_delivery_replay,
    webhook_document_event,
)
from tests.factories import make_document
from tests.support.webhook_receiver import Receiver

pytestmark = pytest.mark.django_db


@pytest.fixture
def receiver():
    servers: list[Receiver] = []

    def start(statuses: list[int]) -> Receiver:
        servers.append(Receiver(statuses))
        return servers[-1]

    yield start
    for server in servers:
        server.close()


def test_signature_is_the_hmac_of_the_body_and_the_timestamped_one_binds_the_time():
    headers = signing.signature_headers(secret="s3cret", body=b'{"a":1}', timestamp=1_700_000_000)
    assert (
        headers["X-DocIntel-Signature"]
        == "sha256=" + __import__("hmac").new(b"s3cret", b'{"a":1}', "sha256").hexdigest()
    )
    args = {
        "secret": "s3cret", "body": b'{"a":1}', "signature": headers["X-DocIntel-Signature"],
        "timestamp": "1700000000", "timestamped_signature": headers["X-DocIntel-Signature-Timestamped"],
    }  # fmt: skip
    assert signing.verify(**args, now=1_700_000_100)
    assert not signing.verify(**args, now=1_700_001_000)  # a replay, much later
    assert not signing.verify(**{**args, "timestamp": "1700000999"}, now=1_700_001_000)  # a forged time
    assert not signing.verify(**{**args, "body": b'{"a":2}'}, now=1_700_000_100)


def test_verify_refuses_a_signature_without_its_timestamp_headers():
    """A body's signature alone could be a recorded delivery sent again: verify() needs the
    timestamp and the timestamped signature too (issue 48)."""
    body = b'{"a":1}'
    headers = signing.signature_headers(secret="s3cret", body=body, timestamp=1_700_000_000)
    signature = headers["X-DocIntel-Signature"]
    stamped = headers["X-DocIntel-Signature-Timestamped"]
    for timestamp, timestamped in ((None, None), ("1700000000", None), (None, stamped), ("", "")):
        assert not signing.verify(
            secret="s3cret", body=body, signature=signature, timestamp=timestamp,
            timestamped_signature=timestamped, now=1_700_000_000,
        )  # fmt: skip
    assert signing.verify(
        secret="s3cret", body=body, signature=signature, timestamp="1700000000",
        timestamped_signature=stamped, now=1_700_000_000,
    )  # fmt: skip


def test_backoff_grows_exponentially_with_jitter_and_a_cap(settings):
    settings.DOCINTEL_WEBHOOK_BACKOFF_S = 2
    settings.DOCINTEL_WEBHOOK_BACKOFF_MAX_S = 60
    rng = random.Random(7)
    delays = [retry_delay_s(n, rng=rng) for n in range(1, 9)]
    for attempt, delay in enumerate(delays, start=1):
        cap = min(60, 2 * 2 ** (attempt - 1))
        assert cap / 2 <= delay <= cap
    assert len({round(retry_delay_s(3), 6) for _ in range(5)}) > 1  # jittered


def test_a_document_without_callback_records_no_delivery(tenant):
    assert webhook_document_event(document=make_document(tenant), event="document.decided") is None


def test_failure_is_delivered_signed_and_a_500_is_retried_then_replayed(tenant, receiver, settings):
    settings.DOCINTEL_WEBHOOK_RETRY_WINDOW_S = 60
    settings.DOCINTEL_WEBHOOK_BACKOFF_S = 30
    server = receiver([500, 503, 200])
    document = make_document(tenant)
    document_callback_set(document=document, url=server.url)
    document_fail(document=document, code="unreadable_image", message="the image cannot be read")
    delivery = WebhookDelivery.objects.get(document=document)
    assert delivery.event == "document.failed"

    assert webhook_deliver(delivery_id=str(delivery.pk)) == "pending"
    delivery.refresh_from_db()
    assert delivery.next_attempt_at > timezone.now() and delivery.last_status_code == 500
    assert webhook_deliver(delivery_id=str(delivery.pk)) == "not_due"
    # the retry window closed a second ago: the attempt due now is its last
    WebhookDelivery.objects.filter(pk=delivery.pk).update(
        next_attempt_at=timezone.now(), created_at=timezone.now() - dt.timedelta(seconds=61)
    )
    assert webhook_deliver(delivery_id=str(delivery.pk)) == "failed"
    assert [a.status_code for a in delivery.attempt_log.all()] == [500, 503]

    replay = webhook_delivery_replay(delivery=WebhookDelivery.objects.get(pk=delivery.pk))
    assert replay is not None and webhook_deliver(delivery_id=str(replay.pk)) == "succeeded"
    headers, body = server.received[-1]
    assert json.loads(body)["error"]["code"] == "unreadable_image"
    assert headers["X-DocIntel-Event"] == "document.failed"
    assert signing.verify(
        secret=webhook_secret_of(tenant=tenant), body=body, signature=headers["X-DocIntel-Signature"],
        timestamp=headers["X-DocIntel-Timestamp"], timestamped_signature=headers["X-DocIntel-Signature-Timestamped"],
    )  # fmt: skip
    assert server.received[0][1] == body  # every attempt sends the same body


def test_an_unreachable_receiver_is_an_attempt_with_an_error(tenant, settings):
    document = make_document(tenant)
    document_callback_set(document=document, url="http://127.0.0.1:9/nothing")
    delivery = webhook_document_event(document=document, event="document.decided")
    assert webhook_deliver(delivery_id=str(delivery.pk)) == "pending"
    attempt = delivery.attempt_log.get()
    assert attempt.status_code is None and attempt.error and not attempt.succeeded


def test_the_sweep_resends_what_is_overdue_and_frees_what_a_dead_worker_held(tenant):
    document = make_document(tenant)
    document_callback_set(document=document, url="http://127.0.0.1:9/x")
    overdue = webhook_document_event(document=document, event="document.decided")
    stuck = webhook_document_event(document=document, event="document.reviewed")
    WebhookDelivery.objects.filter(pk=overdue.pk).update(
        next_attempt_at=timezone.now() - dt.timedelta(minutes=5)
    )
    WebhookDelivery.objects.filter(pk=stuck.pk).update(status=DeliveryStatus.SENDING)
    later = timezone.now() + dt.timedelta(minutes=10)
    assert set(webhook_deliveries_sweep(now=later)) == {str(overdue.pk), str(stuck.pk)}


def test_a_callback_given_for_an_already_decided_duplicate_gets_the_result_now(api, tenant):
    from apps.documents.models import Document
    from tests.support.uploads import png_bytes, upload

    first = api.post("/api/v1/documents", {"file": upload(png_bytes(1), "a.png")}, format="multipart").json()
    Document.objects.filter(pk=first["id"]).update(status="auto_approved", decision="auto_approved")
    again = api.post(
        "/api/v1/documents",
        {"file": upload(png_bytes(1), "a.png"), "callback_url": "http://127.0.0.1:9/hook"},
        format="multipart",
    )
    assert again.status_code == 200
    delivery = WebhookDelivery.objects.get(document_id=first["id"])
    assert delivery.event == "document.decided" and json.loads(delivery.body)["status"] == "auto_approved"


def test_a_failed_delivery_is_replayed_from_the_admin(admin_client, tenant, receiver):
    server = receiver([200])
    document = make_document(tenant)
    document_callback_set(document=document, url=server.url)
    failed = webhook_document_event(document=document, event="document.decided")
    WebhookDelivery.objects.filter(pk=failed.pk).update(status=DeliveryStatus.FAILED, attempts=8)
    page = admin_client.get(f"/admin/webhooks/webhookdelivery/{failed.pk}/change/")
    assert page.status_code == 200 and b"attempt" in page.content.lower()
    response = admin_client.post(
        "/admin/webhooks/webhookdelivery/", {"action": "replay", "_selected_action": [str(failed.pk)]}
    )
    assert response.status_code == 302
    replay = WebhookDelivery.objects.get(replay_of=failed)
    assert replay.body == failed.body and webhook_deliver(delivery_id=str(replay.pk)) == "succeeded"
    assert len(server.received) == 1


def test_an_api_key_is_revoked_from_the_admin(admin_client, tenant):
    from apps.tenants.models import ApiKey
    from apps.tenants.services import api_key_create

    key = api_key_create(tenant=tenant, name="erp").api_key
    listing = admin_client.get("/admin/tenants/apikey/")
    assert key.prefix.encode() in listing.content and key.key_hash.encode() not in listing.content
    admin_client.post("/admin/tenants/apikey/", {"action": "revoke", "_selected_action": [str(key.pk)]})
    assert ApiKey.objects.get(pk=key.pk).revoked_at is not None
