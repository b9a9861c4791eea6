"""Writes of webhooks: remembering a document's callback URL, recording an event as a delivery,
one delivery attempt, retries with exponential backoff and jitter, replays and the sweep.

The outbox pattern: the delivery row is written in the same transaction as the state change it
reports (``document_decide``, a review's approval or rejection, a failure), and its task is sent
when that transaction commits. A lost message, a flushed Redis or a killed worker delays a
delivery but never loses it: ``webhook_deliveries_sweep`` sends again whatever is overdue.
"""

from __future__ import annotations

import datetime as dt
import http.client
import json
import logging
import random
import time
import urllib.parse
import uuid
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from apps.documents.models import Document
from apps.documents.selectors import document_result_get
from apps.documents.state import IN_FLIGHT
from apps.webhooks import destinations, signing
from apps.webhooks.models import (
    DeliveryStatus,
    DocumentCallback,
    WebhookAttempt,
    WebhookDelivery,
    WebhookEvent,
)

logger = logging.getLogger(__name__)

DELIVER_TASK = "apps.webhooks.tasks.deliver"
# A pending delivery this late (its message lost) or an attempt in flight this long (its worker
# killed) is sent again by the sweep.
SWEEP_GRACE = dt.timedelta(seconds=30)
USER_AGENT = "DocIntel-Webhooks/1"


def document_callback_set(*, document: Document, url: str) -> DocumentCallback:
    """Remember where the new document's result goes (in the upload's own transaction)."""
    callback, _ = DocumentCallback.objects.update_or_create(document=document, defaults={"url": url})
    return callback


@transaction.atomic
def document_callback_attach(*, document: Document, url: str) -> bool:
    """For an upload that turned out to be an existing document: use ``url`` when the document has
    no callback yet; when it is already past the pipeline, its result is sent now. False when the
    document already had a callback (the first one stays).

    The document's row lock orders this against ``document_decide`` (which takes it too), so the
    result is sent exactly once: either the decision sees the callback, or this sees the decision.
    """
    locked = Document.objects.select_for_update().get(pk=document.pk)
    if DocumentCallback.objects.filter(document=locked).exists():
        return False
    DocumentCallback.objects.create(document=locked, url=url)
    if locked.status not in IN_FLIGHT:
        event = WebhookEvent.DOCUMENT_FAILED if locked.status == "failed" else WebhookEvent.DOCUMENT_DECIDED
        webhook_document_event(document=locked, event=event)
    return True


def webhook_document_event(
    *, document: Document, event: str, callbacks: dict[uuid.UUID, DocumentCallback] | None = None
) -> WebhookDelivery | None:
    """Record ``event`` of the document as a delivery to its callback URL, if it has one, and send
    it once the caller's transaction commits. Call it inside the transaction of the state change.
    ``callbacks``: the callbacks of a batch of documents by document id, read by the caller in
    one query (:func:`document_callbacks_of`); a document missing from it has none."""
    if callbacks is not None:
        callback = callbacks.get(document.pk)
    else:
        callback = DocumentCallback.objects.filter(document_id=document.pk).first()
    if callback is None:
        return None
    body = json.dumps(document_result_get(document=document), ensure_ascii=False, separators=(",", ":"))
    delivery = WebhookDelivery.objects.create(
        tenant_id=document.tenant_id, document_id=document.pk, event=event, url=callback.url, body=body,
        next_attempt_at=timezone.now(),
    )  # fmt: skip
    delivery_id = str(delivery.pk)
    transaction.on_commit(lambda: webhook_task_send(delivery_id))
    return delivery


def webhook_case_event(*, case_id: uuid.UUID, tenant_id: uuid.UUID, url: str, body: str) -> WebhookDelivery:
    """Record a case's decision (``body``: the case as the API shows it) as a delivery to the case's
    callback URL, sent once the caller's transaction commits (``apps.cases.services``)."""
    delivery = WebhookDelivery.objects.create(
        tenant_id=tenant_id, case_id=case_id, event=WebhookEvent.CASE_DECIDED, url=url, body=body,
        next_attempt_at=timezone.now(),
    )  # fmt: skip
    delivery_id = str(delivery.pk)
    transaction.on_commit(lambda: webhook_task_send(delivery_id))
    return delivery


def document_callbacks_of(document_ids: list[uuid.UUID]) -> dict[uuid.UUID, DocumentCallback]:
    """The callbacks of these documents by document id, in one query."""
    return {c.document_id: c for c in DocumentCallback.objects.filter(document_id__in=document_ids)}


def webhook_task_send(delivery_id: str, countdown: float = 0) -> None:
    """Send the delivery task on the webhooks queue; a broker outage is left to the sweep."""
    from config.celery import app

    try:
        app.send_task(
            DELIVER_TASK,
            args=[delivery_id],
            countdown=countdown or None,
            queue=settings.DOCINTEL_WEBHOOK_QUEUE,
        )
    except Exception:
        logger.warning("could not enqueue webhook delivery %s; the sweep will retry", delivery_id)


def retry_delay_s(attempt: int, *, rng: random.Random | None = None) -> float:
    """Exponential backoff with jitter after the ``attempt``-th failure: half the capped
    exponential delay, plus a random share of the other half (so many receivers failing together
    do not all come back at once)."""
    base = settings.DOCINTEL_WEBHOOK_BACKOFF_S * (2 ** max(attempt - 1, 0))
    delay = min(float(settings.DOCINTEL_WEBHOOK_BACKOFF_MAX_S), base)
    return delay / 2 + (rng or random).uniform(0, delay / 2)


@dataclass(frozen=True)
class PostOutcome:
    status_code: int | None
    error: str


def _post(url: str, body: bytes, headers: dict[str, str], timeout_s: float) -> PostOutcome:
    """POST ``body``; redirects are not followed (a redirect is the receiver's answer, not an
    instruction to send personal data elsewhere), header names are sent as written."""
    parts = urllib.parse.urlsplit(url)
    connection_class = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    try:
        refusal = destinations.url_refusal(url)
        if refusal:
            raise destinations.DestinationRefusedError(f"callback URL {refusal}")
        connection = connection_class(parts.hostname or "", parts.port, timeout=timeout_s)
        address = destinations.checked_address(connection.host, connection.port)
        if address is not None:
            # Connect to the address that was checked; TLS still verifies the host name.
            create = connection._create_connection  # type: ignore[attr-defined]
            connection._create_connection = (  # type: ignore[attr-defined]
                lambda target, *args: create((address, target[1]), *args)
            )
        try:
            connection.request("POST", path, body=body, headers=headers)
            response = connection.getresponse()
            response.read(1024)
            status = response.status
        finally:
            connection.close()
    except destinations.DestinationRefusedError as exc:
        return PostOutcome(None, f"refused: {exc}")
    except TimeoutError:
        return PostOutcome(None, "timeout")
    except (OSError, http.client.HTTPException, ValueError) as exc:
        return PostOutcome(None, (str(exc) or type(exc).__name__)[:200])
    return PostOutcome(status, "" if 200 <= status < 300 else f"HTTP {status}")


def webhook_deliver(*, delivery_id: str) -> str:
    """One attempt at a delivery. Returns what happened, for the task's log line.

    The delivery is claimed (``pending`` → ``sending``) in a short transaction, the request made
    outside any transaction, and its outcome recorded in another: a success ends it, a failure
    schedules the next attempt with backoff, the last failure leaves it ``failed`` for a replay.
    """
    now = timezone.now()
    with transaction.atomic():
        delivery = (
            WebhookDelivery.objects.select_for_update(skip_locked=True)
            .select_related("tenant")
            .filter(pk=delivery_id)
            .first()
        )
        if delivery is None:
            return "missing"
        if delivery.status != DeliveryStatus.PENDING:
            return "skipped"
        if delivery.next_attempt_at is not None and delivery.next_attempt_at > now + dt.timedelta(seconds=1):
            return "not_due"
        delivery.status = DeliveryStatus.SENDING
        delivery.attempts += 1
        delivery.save(update_fields=["status", "attempts", "updated_at"])
    number = delivery.attempts
    body = delivery.body.encode("utf-8")
    headers = {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        signing.EVENT_HEADER: delivery.event,
        signing.DELIVERY_HEADER: str(delivery.pk),
        **signing.signature_headers(secret=delivery.tenant.webhook_secret, body=body),
    }
    started = time.perf_counter()
    outcome = _post(delivery.url, body, headers, settings.DOCINTEL_WEBHOOK_TIMEOUT_S)
    duration_ms = int((time.perf_counter() - started) * 1000)
    succeeded = outcome.status_code is not None and 200 <= outcome.status_code < 300
    with transaction.atomic():
        WebhookAttempt.objects.create(
            delivery_id=delivery.pk, number=number, started_at=now, duration_ms=duration_ms,
            status_code=outcome.status_code, error=outcome.error, succeeded=succeeded,
        )  # fmt: skip
        locked = WebhookDelivery.objects.select_for_update().get(pk=delivery.pk)
        locked.last_status_code = outcome.status_code
        locked.last_error = outcome.error
        if succeeded:
            locked.status = DeliveryStatus.SUCCEEDED
            locked.delivered_at = timezone.now()
            locked.next_attempt_at = None
        elif number >= settings.DOCINTEL_WEBHOOK_MAX_ATTEMPTS:
            locked.status = DeliveryStatus.FAILED
            locked.next_attempt_at = None
        else:
            delay = retry_delay_s(number)
            locked.status = DeliveryStatus.PENDING
            locked.next_attempt_at = timezone.now() + dt.timedelta(seconds=delay)
            transaction.on_commit(lambda: webhook_task_send(str(locked.pk), countdown=delay))
        locked.save()
    logger.info(
        "webhook %s %s of %s attempt %d: %s",
        delivery.pk, delivery.event, delivery.document_id or f"case {delivery.case_id}", number,
        outcome.status_code or outcome.error,
    )  # fmt: skip
    return str(locked.status)


@transaction.atomic
def webhook_delivery_replay(*, delivery: WebhookDelivery) -> WebhookDelivery | None:
    """Send a finished delivery's body again, as a new delivery (the old one and its attempts stay
    as they were). None for a delivery still pending or in flight."""
    if delivery.status not in (DeliveryStatus.FAILED, DeliveryStatus.SUCCEEDED):
        return None
    replay = WebhookDelivery.objects.create(
        tenant_id=delivery.tenant_id, document_id=delivery.document_id, case_id=delivery.case_id,
        event=delivery.event, url=delivery.url, body=delivery.body, replay_of=delivery,
        next_attempt_at=timezone.now(),
    )  # fmt: skip
    replay_id = str(replay.pk)
    transaction.on_commit(lambda: webhook_task_send(replay_id))
    return replay


def webhook_deliveries_sweep(*, now: dt.datetime | None = None) -> list[str]:
    """Send again every delivery whose message must have been lost: pending well past its time,
    or in flight far longer than a request may take (its worker died). Returns their ids."""
    now = now or timezone.now()
    stale_sending = now - SWEEP_GRACE - dt.timedelta(seconds=settings.DOCINTEL_WEBHOOK_TIMEOUT_S)
    stale = list(
        WebhookDelivery.objects.filter(
            status=DeliveryStatus.SENDING, updated_at__lt=stale_sending
        ).values_list("pk", flat=True)[:500]
    )
    WebhookDelivery.objects.filter(pk__in=stale, status=DeliveryStatus.SENDING).update(
        status=DeliveryStatus.PENDING, next_attempt_at=now
    )
    overdue = stale + list(
        WebhookDelivery.objects.filter(
            status=DeliveryStatus.PENDING, next_attempt_at__lt=now - SWEEP_GRACE
        ).values_list("pk", flat=True)[:500]
    )
    for delivery_id in overdue:
        webhook_task_send(str(delivery_id))
    if overdue:
        logger.info("webhook sweep re-sent %d overdue deliveries", len(overdue))
    return [str(pk) for pk in overdue]
