"""How the review screen words the decision's reasons, deadlines and ages."""

import datetime as dt

from apps.ingestion.presentation import EVIDENCE_LABELS, evidence_tags
from apps.review.presentation import crop_box, deadline, duration_text, field_flags, reason_rows
from engines.evidence import RULES


def test_reasons_point_at_their_fields_in_an_operators_words():
    rows = reason_rows(
        ["surname below confidence threshold", "date_of_birth invalid", "check mrz_check_digits failed",
         "document type uncertain"]
    )  # fmt: skip
    assert [(r.text, r.field) for r in rows] == [
        ("Surname: low confidence", "surname"),
        ("Date of birth: failed validation", "date_of_birth"),
        ("Check failed: mrz check digits", ""),
        ("Document type uncertain", ""),
    ]
    assert field_flags(["personal_number not found", "surname missing"]) == {
        "personal_number": "Not found",
        "surname": "Required, not found",
    }


def test_deadlines_warn_in_the_last_fifth_and_count_overdue_time():
    now = dt.datetime(2026, 1, 1, 12, tzinfo=dt.UTC)
    sla = dt.timedelta(hours=10)
    assert deadline(due_at=now + dt.timedelta(hours=5), now=now, sla=sla).state == "ok"
    assert deadline(due_at=now + dt.timedelta(hours=1), now=now, sla=sla).text == "due in 1 h"
    late = deadline(due_at=now - dt.timedelta(minutes=90), now=now, sla=sla)
    assert (late.state, late.text) == ("breached", "overdue by 1 h 30 min")
    assert duration_text(dt.timedelta(days=2, hours=3)) == "2 d 3 h"


def test_crop_box_pads_by_the_boxs_height_and_stays_on_the_page():
    x0, y0, x1, y1 = crop_box([0.0, 0.5, 0.5, 0.6])
    assert (x0, x1) == (0.0, 0.515)
    assert round(y0, 3) == 0.465 and round(y1, 3) == 0.635


def test_a_field_lacking_evidence_is_flagged_as_a_doubt_on_its_row():
    rows = reason_rows(["surname lacks evidence", "personal_number absence lacks evidence"])
    assert [(r.text, r.field) for r in rows] == [
        ("Surname: no independent evidence", "surname"),
        ("Personal number: not found, nothing confirms it", "personal_number"),
    ]
    assert field_flags(["surname lacks evidence"]) == {"surname": "No independent evidence"}


def test_every_kind_of_evidence_has_a_label_and_its_meaning_as_the_title():
    assert set(EVIDENCE_LABELS) == set(RULES.kinds)
    tags = evidence_tags(["two_readings", "mrz_check_digits", "two_readings", "retired_kind"])
    assert [(t.kind, t.label) for t in tags] == [
        ("mrz_check_digits", "MRZ check digits"),  # the data file's order, each once
        ("two_readings", "Two readings agree"),
        ("retired_kind", "Retired kind"),  # a kind no longer known is still shown
    ]
    assert tags[0].means == RULES.kinds["mrz_check_digits"].means and tags[2].means == ""
    assert evidence_tags(None) == evidence_tags([]) == []
