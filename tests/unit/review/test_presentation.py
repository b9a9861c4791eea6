"""How the review screen words the decision's reasons, deadlines and ages."""

import datetime as dt

from apps.review.presentation import crop_box, deadline, duration_text, field_flags, reason_rows


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
