"""Recording audit events and verifying the chain."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.db import connection, transaction
from django.db.transaction import TransactionManagementError
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


class _ChainHead:
    """The event this transaction appended last, kept among the transaction's commit hooks.

    Django drops a transaction's hooks when it commits or rolls back, and the hooks of a savepoint
    when that savepoint is rolled back (keeping them when it is released): exactly when an event
    stops, or goes on, being the chain's head that this transaction wrote and still holds the
    chain's lock for (PostgreSQL releases a lock taken in a rolled-back savepoint too). Calling it
    at commit does nothing.
    """

    __slots__ = ("hash",)

    def __init__(self, event_hash: str) -> None:
        self.hash = event_hash

    def __call__(self) -> None:
        pass


class _Pending:
    """An event recorded inside :func:`audit_batch`, waiting among the commit hooks for the batch's
    end (so an event of a rolled-back savepoint disappears with it). Calling it does nothing."""

    __slots__ = ("event", "written")

    def __init__(self, event: AuditEvent) -> None:
        self.event = event
        self.written = False

    def __call__(self) -> None:
        pass


_batch_depth: ContextVar[int] = ContextVar("audit_batch_depth", default=0)


def _chain_head_held() -> str | None:
    """The hash of the newest event this transaction appended and still holds, else None."""
    for entry in reversed(connection.run_on_commit):  # (savepoint ids, hook, robust)
        hook = entry[1]
        if isinstance(hook, _ChainHead):
            return hook.hash
    return None


def _chain_head() -> str:
    """The hash to extend: this transaction's own last event, else (under the chain's lock, held
    until the transaction ends) the newest stored one."""
    prev_hash = _chain_head_held()
    if prev_hash is None:
        _lock_chain()
        last = AuditEvent.objects.order_by("-id").only("hash").first()
        prev_hash = last.hash if last else GENESIS_HASH
    return prev_hash


@contextmanager
def audit_batch() -> Iterator[None]:
    """Append the events recorded inside the block when the block ends, all together: one chain
    lock, one head read and one INSERT, and the lock (which serialises every writer of the chain)
    held only from there to the commit. Use it inside the transaction, around its work; an event
    recorded in a savepoint that was rolled back is not appended, and nothing is when the block
    raises. Until then ``audit_record`` returns the events without id and hash."""
    if not connection.in_atomic_block:
        raise TransactionManagementError("audit_batch() belongs inside the transaction it audits")
    token = _batch_depth.set(_batch_depth.get() + 1)
    try:
        yield
    finally:
        _batch_depth.reset(token)
    if _batch_depth.get() == 0:
        _batch_flush()


def _batch_flush() -> None:
    pending = [
        entry[1]
        for entry in connection.run_on_commit
        if isinstance(entry[1], _Pending) and not entry[1].written
    ]
    if not pending:
        return
    prev_hash = _chain_head()
    for item in pending:
        item.event.prev_hash = prev_hash
        item.event.hash = prev_hash = _event_hash(prev_hash=prev_hash, event=item.event)
        item.written = True
    AuditEvent.objects.bulk_create([item.event for item in pending])
    transaction.on_commit(_ChainHead(prev_hash))


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
    """Append one event to the chain, in the caller's transaction (inside :func:`audit_batch`:
    when the batch ends).

    The first append of a transaction takes the chain's lock (held until the transaction ends)
    and reads the newest event; a later append in the same transaction already knows the head,
    the event it wrote itself, and costs one INSERT.
    """
    event = AuditEvent(
        tenant=tenant,
        actor=actor,
        action=action,
        object_type=object_type,
        object_id=object_id,
        data=data or {},
        created_at=timezone.now(),
    )
    if _batch_depth.get():
        transaction.on_commit(_Pending(event))
        return event
    event.prev_hash = _chain_head()
    event.hash = _event_hash(prev_hash=event.prev_hash, event=event)
    event.save()
    transaction.on_commit(_ChainHead(event.hash))
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


@dataclass(frozen=True)
class ChainProblem:
    """One place where the stored chain is not what ``audit_record`` wrote."""

    kind: str  # "edited" or "broken_link"
    event_id: int
    previous_id: int | None
    message: str


def audit_chain_problems() -> tuple[int, list[ChainProblem]]:
    """Every problem in the chain, not just the first: (events checked, problems in id order).

    An event whose content no longer hashes to its stored hash was edited. An event whose
    ``prev_hash`` is not the stored hash of the event before it follows a deletion (or an insertion,
    or an edit that also rewrote the hash): the problem names both events around the gap. A first
    event that does not start from the genesis hash had events before it deleted. Deleting the most
    recent events leaves no trace in the chain itself; ``verify_audit --anchor`` compares the chain
    with a head recorded earlier to catch that.
    """
    problems: list[ChainProblem] = []
    previous: AuditEvent | None = None
    checked = 0
    for event in AuditEvent.objects.order_by("id").iterator():
        checked += 1
        if _event_hash(prev_hash=event.prev_hash, event=event) != event.hash:
            problems.append(
                ChainProblem("edited", event.id, None, f"event {event.id} ({event.action}) was edited")
            )
        expected = previous.hash if previous is not None else GENESIS_HASH
        if event.prev_hash != expected:
            if previous is None:
                message = f"events before event {event.id} were deleted"
            else:
                message = (
                    f"the chain breaks between events {previous.id} and {event.id}: events between them "
                    f"were deleted, or event {previous.id} was rewritten with a new hash"
                )
            problems.append(ChainProblem("broken_link", event.id, previous.id if previous else None, message))
        previous = event
    return checked, problems


def audit_chain_head() -> tuple[int, str] | None:
    """The id and hash of the newest event: record it elsewhere to detect later truncation."""
    last = AuditEvent.objects.order_by("-id").only("id", "hash").first()
    return (last.id, last.hash) if last is not None else None
