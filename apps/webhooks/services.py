"""Writes of webhooks: remembering a document's callback URL, recording an event as a delivery,
one delivery attempt, retries with exponential backoff and jitter, dead letters and their redrive,
replays and the sweep.

The outbox pattern: the delivery row is written in the same transaction as the state change it
reports (``document_decide``, a review's approval or rejection, a failure), and its task is sent
when that transaction commits. A lost message, a flushed Redis or a killed worker delays a
delivery but never loses it: ``webhook_deliveries_sweep`` sends again whatever is overdue.

A receiver that is down is retried for ``DOCINTEL_WEBHOOK_RETRY_WINDOW_S`` (a day by default);
what is still undelivered when that window closes is a dead letter of its tenant, kept until the
tenant redrives it (``webhook_dead_letters_redrive``: the API and the dead-letter page).
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import random
import time
import uuid

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from apps.audit.services import audit_batch, audit_record
from apps.documents.crypto import DecryptionError
from apps.documents.models import Document
from apps.documents.selectors import document_result_get
from apps.documents.state import IN_FLIGHT
from apps.tenants.models import Tenant
from apps.tenants.webhook_secrets import webhook_secret_of
from apps.webhooks import signing, transport
from apps.webhooks.models import (
    DeliveryStatus,
    DocumentCallback,
    WebhookAttempt,
    WebhookDelivery,
    WebhookEvent,
)

logger = logging.getLogger(__name__)

DELIVER_TASK = "apps.webhooks.tasks.deliver"
# A pending delivery this late (its message lost), or an attempt in flight this much longer than
# its deadline (its worker killed), is sent again by the sweep; an attempt due at the close of its
# retry window may start this late.
SWEEP_GRACE = dt.timedelta(seconds=30)
USER_AGENT = "DocIntel-Webhooks/1"
REDRIVE_BATCH = 500  # dead letters redriven per call, oldest first


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


def retry_window() -> dt.timedelta:
    return dt.timedelta(seconds=float(settings.DOCINTEL_WEBHOOK_RETRY_WINDOW_S))


def window_closes_at(delivery: WebhookDelivery) -> dt.datetime:
    """When the delivery's retry window closes: the window opens at its creation, or at its last
    redrive. Read from the setting each time, so raising it during a receiver's outage keeps
    every delivery of that outage alive."""
    return (delivery.redriven_at or delivery.created_at) + retry_window()


def retry_delay_s(attempt: int, *, rng: random.Random | None = None) -> float:
    """Exponential backoff with jitter after the ``attempt``-th failure: half the capped
    exponential delay, plus a random share of the other half (so many receivers failing together
    do not all come back at once)."""
    base = settings.DOCINTEL_WEBHOOK_BACKOFF_S * (2 ** min(max(attempt - 1, 0), 64))
    delay = min(float(settings.DOCINTEL_WEBHOOK_BACKOFF_MAX_S), base)
    return delay / 2 + (rng or random).uniform(0, delay / 2)


def _dead_letter(delivery: WebhookDelivery, now: dt.datetime) -> None:
    delivery.status = DeliveryStatus.FAILED
    delivery.next_attempt_at = None
    delivery.dead_lettered_at = now


def webhook_deliver(*, delivery_id: str) -> str:
    """One attempt at a delivery. Returns what happened, for the task's log line.

    The delivery is claimed (``pending`` → ``sending``) in a short transaction, the request made
    outside any transaction (bounded in total by ``DOCINTEL_WEBHOOK_TIMEOUT_S``), and its outcome
    recorded in another: a success ends it; a failure schedules the next attempt with backoff, the
    last one at the close of the retry window; a failure at or after the close makes it a dead
    letter. A delivery whose window closed while its message waited (a late message, one the sweep
    sent again) is not claimed: it becomes a dead letter without being sent.
    """
    now = timezone.now()
    with transaction.atomic():
        # of=self: the delivery's row only, not its tenant's, which every other delivery of the
        # tenant being claimed at the same moment would otherwise find locked, and skip
        delivery = (
            WebhookDelivery.objects.select_for_update(skip_locked=True, of=("self",))
            .select_related("tenant")
            .filter(pk=delivery_id)
            .first()
        )
        if delivery is None:
            return "missing"  # or claimed by another worker this very moment
        if delivery.status != DeliveryStatus.PENDING:
            return "skipped"
        if delivery.next_attempt_at is not None and delivery.next_attempt_at > now + dt.timedelta(seconds=1):
            return "not_due"
        if now > window_closes_at(delivery) + SWEEP_GRACE:
            _dead_letter(delivery, now)
            delivery.save(update_fields=["status", "next_attempt_at", "dead_lettered_at", "updated_at"])
            logger.info("webhook %s: its retry window closed before this attempt; a dead letter", delivery.pk)
            return str(delivery.status)
        delivery.status = DeliveryStatus.SENDING
        delivery.attempts += 1
        delivery.save(update_fields=["status", "attempts", "updated_at"])
    number = delivery.attempts
    started = time.perf_counter()
    outcome = _attempt(delivery)
    duration_ms = int((time.perf_counter() - started) * 1000)
    succeeded = outcome.status_code is not None and 200 <= outcome.status_code < 300
    with transaction.atomic():
        locked = WebhookDelivery.objects.select_for_update().filter(pk=delivery.pk).first()
        if locked is None:
            return "missing"  # erased while in flight (a person's erasure): nothing left to record
        WebhookAttempt.objects.create(
            delivery_id=delivery.pk, number=number, started_at=now, duration_ms=duration_ms,
            status_code=outcome.status_code, error=outcome.error, succeeded=succeeded,
        )  # fmt: skip
        finished = timezone.now()
        locked.last_status_code = outcome.status_code
        locked.last_error = outcome.error
        if succeeded:
            locked.status = DeliveryStatus.SUCCEEDED
            locked.delivered_at = finished
            locked.next_attempt_at = None
        elif locked.status != DeliveryStatus.SENDING or locked.attempts != number:
            pass  # the sweep took it back meanwhile: the attempt it started decides what follows
        elif finished >= window_closes_at(locked):
            _dead_letter(locked, finished)
        else:
            delay = retry_delay_s(number)
            locked.status = DeliveryStatus.PENDING
            locked.next_attempt_at = min(finished + dt.timedelta(seconds=delay), window_closes_at(locked))
            countdown = max(0.0, (locked.next_attempt_at - finished).total_seconds())
            transaction.on_commit(lambda: webhook_task_send(str(locked.pk), countdown=countdown))
        locked.save()
    logger.info(
        "webhook %s %s of %s attempt %d: %s",
        delivery.pk, delivery.event, delivery.document_id or f"case {delivery.case_id}", number,
        outcome.status_code or outcome.error,
    )  # fmt: skip
    return str(locked.status)


def _attempt(delivery: WebhookDelivery) -> transport.PostOutcome:
    """Sign the delivery's body with its tenant's secret and POST it."""
    body = delivery.body.encode("utf-8")
    try:
        secret = webhook_secret_of(tenant=delivery.tenant)
    except DecryptionError:  # sealed under a master key this process does not hold (yet)
        return transport.PostOutcome(None, "not sent: no configured master key opens the webhook secret")
    headers = {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        signing.EVENT_HEADER: delivery.event,
        signing.DELIVERY_HEADER: str(delivery.pk),
        **signing.signature_headers(secret=secret, body=body),
    }
    return transport.post(delivery.url, body, headers, settings.DOCINTEL_WEBHOOK_TIMEOUT_S)


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


def _stale_sending_before(now: dt.datetime) -> dt.datetime:
    """An attempt claimed before this has outlived its deadline (``DOCINTEL_WEBHOOK_TIMEOUT_S``
    bounds the whole request) by ``SWEEP_GRACE``: its worker died. Never a live attempt, so the
    sweep never sends a second copy beside one still in flight."""
    return now - dt.timedelta(seconds=settings.DOCINTEL_WEBHOOK_TIMEOUT_S) - SWEEP_GRACE


def webhook_deliveries_sweep(*, now: dt.datetime | None = None) -> list[str]:
    """Send again every delivery whose message must have been lost: pending well past its time,
    or in flight far longer than a request may take (its worker died). One whose retry window
    closed meanwhile is not sent again: it becomes a dead letter. Returns the ids sent again."""
    now = now or timezone.now()
    lost = Q(status=DeliveryStatus.PENDING, next_attempt_at__lt=now - SWEEP_GRACE) | Q(
        status=DeliveryStatus.SENDING, updated_at__lt=_stale_sending_before(now)
    )
    opened_before = now - retry_window() - SWEEP_GRACE
    closed = Q(redriven_at__isnull=True, created_at__lt=opened_before) | Q(redriven_at__lt=opened_before)
    dead = WebhookDelivery.objects.filter(lost & closed).update(
        status=DeliveryStatus.FAILED, next_attempt_at=None, dead_lettered_at=now, updated_at=now
    )
    stale = list(
        WebhookDelivery.objects.filter(
            status=DeliveryStatus.SENDING, updated_at__lt=_stale_sending_before(now)
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
    if overdue or dead:
        logger.info("webhook sweep re-sent %d overdue deliveries, %d became dead letters", len(overdue), dead)
    return [str(pk) for pk in overdue]


@transaction.atomic
def webhook_dead_letters_redrive(
    *, tenant: Tenant, actor: User | None, via: str, delivery_ids: list[uuid.UUID] | None = None
) -> list[str]:
    """Send the tenant's dead letters again (all of them, or those among ``delivery_ids``; the
    oldest ``REDRIVE_BATCH`` per call), each audited. Returns the ids redriven.

    A redriven dead letter is the same delivery in a new retry window: the receiver sees the same
    ``X-DocIntel-Delivery`` id as in the failed attempts, so one that did get an earlier attempt
    (answering after our deadline) can tell it already has the event. ``via`` says how it was
    asked for (``api``, ``page``), for the audit trail. Another tenant's ids are ignored."""
    now = timezone.now()
    letters = WebhookDelivery.objects.select_for_update(skip_locked=True).filter(
        tenant=tenant, status=DeliveryStatus.FAILED
    )
    if delivery_ids is not None:
        letters = letters.filter(pk__in=delivery_ids)
    ids = list(letters.order_by("created_at").values_list("pk", flat=True)[:REDRIVE_BATCH])
    WebhookDelivery.objects.filter(pk__in=ids).update(
        status=DeliveryStatus.PENDING, redriven_at=now, next_attempt_at=now, dead_lettered_at=None,
        updated_at=now,
    )  # fmt: skip
    with audit_batch():
        for pk in ids:
            audit_record(
                tenant=tenant, actor=actor, action="webhook.redriven", object_type="webhook_delivery",
                object_id=str(pk), data={"via": via},
            )  # fmt: skip
    redriven = [str(pk) for pk in ids]
    transaction.on_commit(lambda: _send_all(redriven))
    if redriven:
        logger.info("tenant %s redrove %d dead letters (%s)", tenant.pk, len(redriven), via)
    return redriven


def _send_all(delivery_ids: list[str]) -> None:
    for delivery_id in delivery_ids:
        webhook_task_send(delivery_id)
