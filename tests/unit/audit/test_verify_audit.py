"""``manage.py verify_audit``: every edited or deleted audit row is found and named.

GIVEN a chain of audit events WHEN someone with database access edits, deletes or rewrites rows
(bypassing the model, as an attacker would) THEN the command fails and names each one.
"""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from apps.audit.services import _event_hash, audit_record

pytestmark = pytest.mark.django_db


def _events(count: int = 5):
    return [
        audit_record(
            tenant=None, actor=None, action=f"test.{i}", object_type="thing", object_id=str(i), data={"n": i}
        )
        for i in range(count)
    ]


def _sql(statement: str, *params) -> None:
    with connection.cursor() as cursor:
        cursor.execute(statement, list(params))


def _verify(*args: str) -> tuple[bool, str]:
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("verify_audit", *args, stdout=out, stderr=err)
    except CommandError as failed:
        return False, err.getvalue() + str(failed)
    return True, out.getvalue()


def test_an_untouched_trail_verifies():
    _events()
    ok, output = _verify()
    assert ok and "intact: 5 events" in output


def test_an_edited_row_is_named():
    events = _events()
    _sql("UPDATE audit_auditevent SET data = %s WHERE id = %s", '{"n": 99}', events[2].id)
    ok, output = _verify()
    assert not ok and f"event {events[2].id} (test.2) was edited" in output
    assert "1 problems in 5 events" in output  # the rows after it are not blamed


def test_a_deleted_row_is_named_by_the_events_around_the_gap():
    events = _events()
    _sql("DELETE FROM audit_auditevent WHERE id = %s", events[2].id)
    ok, output = _verify()
    assert not ok and f"between events {events[1].id} and {events[3].id}" in output


def test_deleting_the_first_rows_is_found():
    events = _events()
    _sql("DELETE FROM audit_auditevent WHERE id <= %s", events[1].id)
    ok, output = _verify()
    assert not ok and f"events before event {events[2].id} were deleted" in output


def test_an_edit_that_recomputes_its_own_hash_still_breaks_the_next_link():
    events = _events()
    victim = events[1]
    victim.data = {"n": 42}
    forged = _event_hash(prev_hash=victim.prev_hash, event=victim)
    _sql("UPDATE audit_auditevent SET data = %s, hash = %s WHERE id = %s", '{"n": 42}', forged, victim.id)
    ok, output = _verify()
    assert not ok and f"event {victim.id} was rewritten" in output


def test_every_problem_is_reported_not_just_the_first():
    events = _events(6)
    _sql("UPDATE audit_auditevent SET action = 'test.x' WHERE id = %s", events[1].id)
    _sql("DELETE FROM audit_auditevent WHERE id = %s", events[4].id)
    ok, output = _verify()
    assert not ok and f"event {events[1].id} (test.x) was edited" in output
    assert f"between events {events[3].id} and {events[5].id}" in output


def test_cutting_off_the_newest_rows_is_caught_by_the_saved_anchor(tmp_path):
    events = _events()
    anchor = tmp_path / "audit-head.json"
    ok, _ = _verify("--save-anchor", str(anchor))
    assert ok and json.loads(anchor.read_text())["id"] == events[-1].id
    _sql("DELETE FROM audit_auditevent WHERE id >= %s", events[3].id)
    assert _verify()[0]  # the chain that is left is consistent in itself
    ok, output = _verify("--anchor", str(anchor))
    assert not ok and f"event {events[-1].id}, the head recorded in" in output and "was deleted" in output
