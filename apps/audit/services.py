"""Recording audit events and verifying the chain."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.db import connection, transaction
from django.utils import timezone

from apps.audit.models import AuditEvent

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from apps.tenants.models import Tenant

GENESIS_HASH = "0" * 64
# Arbitrary constant that names "the audit chain" for PostgreSQL's advisory lock.
_CHAIN_LOCK_ID = 0x0A0D17


def _event_hash(*, prev_hash: str, event: AuditEvent) -> str:
    payload = {
        "prev": prev_hash,
        "tenant": str(event.tenant_id) if event.tenant_id else None,
        "actor": event.actor_id,
        "action": event.action,
        "object_type": event.object_type,
        "object_id": event.object_id,
        "data": event.data,
        "created_at": event.created_at.isoformat(),
    }
    canonical = json.dumps(payload, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()


def _lock_chain() -> None:
    """Serialise appends so two concurrent writers cannot both extend the same last row."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [_CHAIN_LOCK_ID])


@transaction.atomic(savepoint=False)  # a failed append fails its caller's transaction: no savepoint
def audit_record(
    *,
    tenant: Tenant | None,
    actor: User | None,
    action: str,
    object_type: str,
    object_id: str,
    data: dict[str, Any] | None = None,
) -> AuditEvent:
    _lock_chain()
    last = AuditEvent.objects.order_by("-id").only("hash").first()
    prev_hash = last.hash if last else GENESIS_HASH
    event = AuditEvent(
        tenant=tenant,
        actor=actor,  # type: ignore[misc]
        action=action,
        object_type=object_type,
        object_id=object_id,
        data=data or {},
        created_at=timezone.now(),
        prev_hash=prev_hash,
    )
    event.hash = _event_hash(prev_hash=prev_hash, event=event)
    event.save()
    return event


@dataclass(frozen=True)
class ChainVerdict:
    ok: bool
    events_checked: int
    first_bad_event_id: int | None = None


def audit_chain_verify() -> ChainVerdict:
    """Recompute every hash in order; the first mismatch (edited, inserted or deleted row) fails."""
    prev_hash = GENESIS_HASH
    checked = 0
    for event in AuditEvent.objects.order_by("id").iterator():
        if event.prev_hash != prev_hash or _event_hash(prev_hash=prev_hash, event=event) != event.hash:
            return ChainVerdict(ok=False, events_checked=checked, first_bad_event_id=event.id)
        prev_hash = event.hash
        checked += 1
    return ChainVerdict(ok=True, events_checked=checked)
