import contextlib

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from apps.audit.models import AuditEvent, AuditEventImmutableError
from apps.audit.services import audit_batch, audit_chain_verify, audit_record

pytestmark = pytest.mark.django_db


def _three_events():
    return [
        audit_record(
            tenant=None, actor=None, action=f"test.{i}", object_type="thing", object_id=str(i), data={"n": i}
        )
        for i in range(3)
    ]


def test_untouched_chain_verifies():
    _three_events()
    verdict = audit_chain_verify()
    assert verdict.ok and verdict.events_checked == 3


def test_each_event_carries_the_hash_of_the_previous_one():
    first, second, third = _three_events()
    assert second.prev_hash == first.hash and third.prev_hash == second.hash


def test_an_edited_row_breaks_the_chain_at_that_row():
    _first, second, _third = _three_events()
    with connection.cursor() as cursor:  # an attacker with database access, bypassing the model
        cursor.execute("UPDATE audit_auditevent SET data = %s WHERE id = %s", ['{"n": 99}', second.id])
    verdict = audit_chain_verify()
    assert not verdict.ok and verdict.first_bad_event_id == second.id


def test_a_deleted_row_breaks_the_chain():
    _first, second, third = _three_events()
    with connection.cursor() as cursor:
        cursor.execute("DELETE FROM audit_auditevent WHERE id = %s", [second.id])
    verdict = audit_chain_verify()
    assert not verdict.ok and verdict.first_bad_event_id == third.id


def test_events_cannot_be_changed_or_deleted_through_the_model():
    event = _three_events()[0]
    event.action = "rewritten"
    with pytest.raises(AuditEventImmutableError):
        event.save()
    with pytest.raises(AuditEventImmutableError):
        event.delete()
    assert AuditEvent.objects.get(pk=event.pk).action == "test.0"


def _record(n: int):
    return audit_record(tenant=None, actor=None, action=f"test.{n}", object_type="thing", object_id=str(n))


def _chain_lock_queries(captured) -> int:
    return sum("pg_advisory_xact_lock" in q["sql"] for q in captured.captured_queries)


@pytest.mark.django_db(transaction=True)
def test_appends_in_one_transaction_take_the_chain_lock_once():
    """GIVEN one transaction WHEN it appends three events THEN the chain's lock is taken and its
    head read once; the second and third extend the event the transaction wrote itself."""
    with CaptureQueriesContext(connection) as captured, transaction.atomic():
        first, second, third = (_record(i) for i in range(3))
    sqls = [q["sql"] for q in captured.captured_queries]
    assert _chain_lock_queries(captured) == 1
    assert sum(s.startswith("SELECT") and "audit_auditevent" in s for s in sqls) == 1  # the head
    assert sum(s.startswith("INSERT") for s in sqls) == 3
    assert second.prev_hash == first.hash and third.prev_hash == second.hash
    assert audit_chain_verify().ok


def test_an_event_rolled_back_with_its_savepoint_is_not_the_head():
    """GIVEN an event appended inside a savepoint that is rolled back WHEN the transaction appends
    another THEN that one extends the event before the savepoint, and the chain verifies."""
    with transaction.atomic():
        kept = _record(1)
        with contextlib.suppress(RuntimeError), transaction.atomic():
            _record(2)
            raise RuntimeError("rolled back")
        after = _record(3)
    assert after.prev_hash == kept.hash
    assert audit_chain_verify().ok and AuditEvent.objects.count() == 2


@pytest.mark.django_db(transaction=True)
def test_the_first_append_rolled_back_with_its_savepoint_takes_the_lock_again():
    """GIVEN the transaction's first append (and with it the chain's lock) rolled back with its
    savepoint WHEN the transaction appends again THEN it takes the lock and reads the head afresh."""
    before = _record(0)
    with transaction.atomic():
        with contextlib.suppress(RuntimeError), transaction.atomic():
            _record(1)
            raise RuntimeError("rolled back")
        with CaptureQueriesContext(connection) as captured:
            after = _record(2)
    assert _chain_lock_queries(captured) == 1
    assert after.prev_hash == before.hash and audit_chain_verify().ok


def test_an_event_of_a_released_savepoint_stays_the_head():
    with transaction.atomic():
        with transaction.atomic():
            inner = _record(1)
        with CaptureQueriesContext(connection) as captured:
            after = _record(2)
    assert _chain_lock_queries(captured) == 0 and after.prev_hash == inner.hash


@pytest.mark.django_db(transaction=True)
def test_a_rolled_back_transaction_leaves_no_head_behind():
    """GIVEN a transaction whose events were rolled back WHEN the next transaction appends THEN it
    reads the head from the table, not the rolled-back event."""
    before = _record(0)
    with contextlib.suppress(RuntimeError), transaction.atomic():
        _record(1)
        raise RuntimeError("rolled back")
    after = _record(2)
    assert after.prev_hash == before.hash and audit_chain_verify().ok


@pytest.mark.django_db(transaction=True)
def test_a_batch_appends_its_events_together_at_its_end():
    """GIVEN events recorded inside audit_batch, one of them in a savepoint rolled back WHEN the
    batch ends THEN the others are appended in order with one lock, one head read and one INSERT,
    and the chain verifies."""
    before = _record(0)
    with CaptureQueriesContext(connection) as captured, transaction.atomic(), audit_batch():
        first = _record(1)
        with contextlib.suppress(RuntimeError), transaction.atomic():
            _record(2)
            raise RuntimeError("rolled back")
        last = _record(3)
        assert AuditEvent.objects.count() == 1  # nothing appended yet
    sqls = [q["sql"] for q in captured.captured_queries]
    assert _chain_lock_queries(captured) == 1 and sum(s.startswith("INSERT") for s in sqls) == 1
    assert [e.action for e in AuditEvent.objects.all()] == ["test.0", "test.1", "test.3"]
    assert first.prev_hash == before.hash and last.prev_hash == first.hash
    assert audit_chain_verify().ok


@pytest.mark.django_db(transaction=True)
def test_a_batch_that_raises_appends_nothing():
    with contextlib.suppress(RuntimeError), transaction.atomic(), audit_batch():
        _record(1)
        raise RuntimeError("failed")
    assert not AuditEvent.objects.exists()
    after = _record(2)
    assert after.prev_hash == "0" * 64 and audit_chain_verify().ok
