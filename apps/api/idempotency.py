"""``Idempotency-Key``: the same key with the same request answers with the same resource; the
same key with a different request is refused (422); a key whose first request is still running
answers 409. Keys are per tenant and live ``DOCINTEL_IDEMPOTENCY_TTL_S`` (24 h by default)."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import uuid
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from apps.api.errors import ApiError
from apps.api.models import IdempotencyKey, IdempotencyStatus
from apps.tenants.models import Tenant

HEADER = "Idempotency-Key"
MAX_LENGTH = 255
# A claim this old whose request never finished (its process died) no longer blocks the key.
ABANDONED_AFTER = dt.timedelta(minutes=5)


def idempotency_key_read(raw: str | None) -> str | None:
    if raw is None:
        return None
    key = raw.strip()
    if not key or len(key) > MAX_LENGTH or not key.isprintable() or not key.isascii():
        raise ApiError(
            400, "invalid_idempotency_key", f"{HEADER} must be 1 to {MAX_LENGTH} printable ASCII characters"
        )
    return key


def request_fingerprint(**parts: Any) -> str:
    canonical = json.dumps(parts, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Claim:
    record: IdempotencyKey
    replay: bool  # True: the work was done before; answer with record.resource_id


def idempotency_claim(
    *, tenant: Tenant, key: str, operation: str, fingerprint: str, now: dt.datetime | None = None
) -> Claim:
    now = now or timezone.now()
    IdempotencyKey.objects.filter(
        tenant=tenant, key=key, created_at__lt=now - dt.timedelta(seconds=settings.DOCINTEL_IDEMPOTENCY_TTL_S)
    ).delete()
    IdempotencyKey.objects.filter(
        tenant=tenant, key=key, status=IdempotencyStatus.IN_PROGRESS, created_at__lt=now - ABANDONED_AFTER
    ).delete()
    for _ in range(2):  # a competing claim may vanish between our insert and our read: look again
        try:
            with transaction.atomic():
                record = IdempotencyKey.objects.create(
                    tenant=tenant, key=key, operation=operation, fingerprint=fingerprint
                )
            return Claim(record, replay=False)
        except IntegrityError:
            existing = IdempotencyKey.objects.filter(tenant=tenant, key=key).first()
        if existing is None:
            continue
        if existing.operation != operation or existing.fingerprint != fingerprint:
            raise ApiError(
                422,
                "idempotency_key_reused",
                f"this {HEADER} was used for a different request; use a new key for new content",
            )
        if existing.status == IdempotencyStatus.IN_PROGRESS:
            raise ApiError(
                409, "idempotency_key_in_progress", f"a request with this {HEADER} is still being processed"
            )
        return Claim(existing, replay=True)
    raise ApiError(
        409, "idempotency_key_in_progress", f"a request with this {HEADER} is still being processed"
    )


def idempotency_complete(*, claim: Claim | None, response_status: int, resource_id: uuid.UUID) -> None:
    if claim is None or claim.replay:
        return
    IdempotencyKey.objects.filter(pk=claim.record.pk).update(
        status=IdempotencyStatus.DONE,
        response_status=response_status,
        resource_id=resource_id,
        completed_at=timezone.now(),
    )


def idempotency_release(*, claim: Claim | None) -> None:
    """The request was refused (or failed): the key is free for a corrected request."""
    if claim is not None and not claim.replay:
        IdempotencyKey.objects.filter(pk=claim.record.pk, status=IdempotencyStatus.IN_PROGRESS).delete()


def idempotency_keys_purge(*, now: dt.datetime | None = None) -> int:
    now = now or timezone.now()
    cutoff = now - dt.timedelta(seconds=settings.DOCINTEL_IDEMPOTENCY_TTL_S)
    deleted, _ = IdempotencyKey.objects.filter(created_at__lt=cutoff).delete()
    return deleted
