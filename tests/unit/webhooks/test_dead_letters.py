"""A receiver down for long is retried for a whole window, then its events wait as dead letters the
tenant can redrive, by the API or the page; /metrics tells how old the oldest undelivered event is
(issue 48, item 6). Real HTTP: local receivers; real PostgreSQL; the audit chain.

GIVEN a receiver that refuses every connection, a 4-second retry window and a backoff capped at
0.4 s WHEN the delivery is attempted each time it falls due THEN it is retried until the window
closes (more than the 8 attempts that used to end it), with capped and jittered gaps, and then it
is a dead letter of its tenant.
GIVEN dead letters of two tenants WHEN one tenant lists and redrives them (API key with the
webhooks scopes; an operator on the page, with CSRF) THEN it sees and redrives only its own, each
redrive is audited, and the redriven delivery is sent under its own id again.
"""

from __future__ import annotations

import datetime as dt
import itertools
import re
import time

import pytest
from django.test import Client
from django.utils import timezone

from apps.audit.models import AuditEvent
from apps.webhooks.models import DeliveryStatus, WebhookDelivery
from apps.webhooks.services import webhook_deliver
from tests.factories import api_key_client, webhook_delivery
from tests.support.webhook_receiver import Receiver

pytestmark = pytest.mark.django_db

REFUSING_URL = "http://127.0.0.1:9/hook"  # the discard port: nothing listens, the connection is refused


def _dead_letter(tenant, url: str = REFUSING_URL) -> WebhookDelivery:
    delivery = webhook_delivery(tenant, url)
    WebhookDelivery.objects.filter(pk=delivery.pk).update(
        status=DeliveryStatus.FAILED, attempts=30, dead_lettered_at=timezone.now(),
        created_at=timezone.now() - dt.timedelta(days=1, hours=1), next_attempt_at=None,
    )  # fmt: skip
    return WebhookDelivery.objects.get(pk=delivery.pk)


def test_a_receiver_down_is_retried_for_the_whole_window_then_kept_as_a_dead_letter(tenant, settings):
    settings.DOCINTEL_WEBHOOK_RETRY_WINDOW_S = 4.0
    settings.DOCINTEL_WEBHOOK_BACKOFF_S = 0.1
    settings.DOCINTEL_WEBHOOK_BACKOFF_MAX_S = 0.4
    delivery = webhook_delivery(tenant, REFUSING_URL)
    closes_at = delivery.created_at + dt.timedelta(seconds=4)
    outcome = ""
    deadline = time.monotonic() + 30
    while outcome != "failed":
        assert time.monotonic() < deadline, "the delivery never became a dead letter"
        delivery.refresh_from_db()
        if delivery.next_attempt_at is not None:
            time.sleep(max(0.0, (delivery.next_attempt_at - timezone.now()).total_seconds()))
        outcome = webhook_deliver(delivery_id=str(delivery.pk))
        assert outcome in ("pending", "failed", "not_due"), outcome

    delivery.refresh_from_db()
    attempts = list(delivery.attempt_log.all())
    assert len(attempts) == delivery.attempts > 8  # the old limit gave up after 8
    assert delivery.status == DeliveryStatus.FAILED and delivery.dead_lettered_at is not None
    assert attempts[-1].started_at >= closes_at - dt.timedelta(seconds=0.05)  # tried up to the close
    gaps = [(b.started_at - a.started_at).total_seconds() for a, b in itertools.pairwise(attempts)]
    assert max(gaps) < 0.4 + 0.5  # capped (plus a loaded machine's slack)
    assert all(not a.succeeded and a.status_code is None for a in attempts)


def test_the_api_lists_and_redrives_only_the_tenants_own_dead_letters(tenant, other_tenant):
    server = Receiver([200, 200])
    try:
        mine = _dead_letter(tenant, server.url)
        also_mine = _dead_letter(tenant, server.url)
        theirs = _dead_letter(other_tenant, server.url)
        webhook_delivery(tenant, server.url)  # still in its window: not a dead letter
        client = api_key_client(tenant, name="redrive", scopes=["webhooks:read", "webhooks:write"])

        listed = client.get("/api/v1/webhooks/dead-letters")
        assert listed.status_code == 200, listed.content
        assert [row["id"] for row in listed.json()["results"]] == [str(mine.pk), str(also_mine.pk)]
        assert "body" not in listed.json()["results"][0]

        redriven = client.post(
            "/api/v1/webhooks/dead-letters/redrive", {"ids": [str(mine.pk), str(theirs.pk)]}, format="json"
        )
        assert redriven.status_code == 200, redriven.content
        assert redriven.json() == {"redriven": [str(mine.pk)]}
        statuses = dict(WebhookDelivery.objects.values_list("pk", "status"))
        assert statuses[mine.pk] == DeliveryStatus.PENDING
        assert statuses[also_mine.pk] == statuses[theirs.pk] == DeliveryStatus.FAILED
        event = AuditEvent.objects.get(action="webhook.redriven")
        assert (event.tenant_id, event.object_id) == (tenant.pk, str(mine.pk))
        assert event.data["via"].startswith("api key ")

        # the same delivery, in a new window: sent under its own id, and delivered
        assert webhook_deliver(delivery_id=str(mine.pk)) == "succeeded"
        headers, _ = server.received[-1]
        assert headers["X-DocIntel-Delivery"] == str(mine.pk)

        assert client.post("/api/v1/webhooks/dead-letters/redrive", {}, format="json").json() == {
            "redriven": [str(also_mine.pk)]
        }
        reader = api_key_client(tenant, name="redrive", scopes=["webhooks:read"])
        refused = reader.post("/api/v1/webhooks/dead-letters/redrive", {}, format="json")
        assert refused.status_code == 403 and refused.json()["code"] == "insufficient_scope"
    finally:
        server.close()


def test_an_operator_redrives_from_the_page_with_csrf_and_an_uploader_cannot(
    tenant, other_tenant, operator, django_user_model
):
    from apps.tenants.services import membership_grant

    mine = _dead_letter(tenant)
    theirs = _dead_letter(other_tenant)
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(operator)
    page = browser.get("/webhooks/dead-letters/")
    assert page.status_code == 200
    html = page.content.decode()
    assert str(mine.pk) in html and str(theirs.pk) not in html
    assert 'href="/webhooks/dead-letters/"' in html  # in the navigation

    forged = browser.post("/webhooks/dead-letters/redrive/", {"delivery": str(mine.pk)})
    assert forged.status_code == 403  # no CSRF token
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
    answer = browser.post(
        "/webhooks/dead-letters/redrive/", {"delivery": str(theirs.pk), "csrfmiddlewaretoken": token}
    )
    assert answer.status_code == 302
    assert WebhookDelivery.objects.get(pk=theirs.pk).status == DeliveryStatus.FAILED  # not theirs to redrive
    answer = browser.post(
        "/webhooks/dead-letters/redrive/", {"delivery": str(mine.pk), "csrfmiddlewaretoken": token}
    )
    assert answer.status_code == 302
    assert WebhookDelivery.objects.get(pk=mine.pk).status == DeliveryStatus.PENDING
    event = AuditEvent.objects.get(action="webhook.redriven")
    assert (event.actor_id, event.object_id, event.data) == (operator.pk, str(mine.pk), {"via": "page"})

    uploader = django_user_model.objects.create_user(username="ulla", password="correct horse battery")
    membership_grant(tenant=tenant, user=uploader, role="uploader")
    browser.force_login(uploader)
    assert browser.get("/webhooks/dead-letters/").status_code == 403


def test_metrics_give_the_age_of_the_oldest_undelivered_event(tenant, client):
    _dead_letter(tenant)  # a day and an hour old
    retrying = webhook_delivery(tenant, REFUSING_URL)
    WebhookDelivery.objects.filter(pk=retrying.pk).update(
        created_at=timezone.now() - dt.timedelta(minutes=10)
    )
    text = client.get("/metrics").content.decode()

    def value(name: str, state: str) -> float:
        found = re.search(rf'^{name}{{state="{state}"}} (\S+)$', text, re.M)
        assert found, f"{name}{{state={state}}} not in /metrics"
        return float(found.group(1))

    assert 600 <= value("docintel_webhook_oldest_undelivered_seconds", "retrying") < 700
    assert value("docintel_webhook_oldest_undelivered_seconds", "dead_letter") >= 25 * 3600
    assert value("docintel_webhook_undelivered", "retrying") == 1
    assert value("docintel_webhook_undelivered", "dead_letter") == 1
