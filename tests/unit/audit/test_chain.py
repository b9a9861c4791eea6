import pytest
from django.db import connection

from apps.audit.models import AuditEvent, AuditEventImmutableError
from apps.audit.services import audit_chain_verify, audit_record

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
