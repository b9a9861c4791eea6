"""The date checks, judged on the case date: date of birth everywhere, recency of the proof of
address, validity of the identity document, and the applicant's age (leap-day births)."""

from __future__ import annotations

import datetime as dt

import pytest

from apps.cases.checks.dates import (
    age_on,
    applicant_old_enough,
    date_of_birth_consistent,
    identity_document_valid,
    proof_of_address_recent,
)
from apps.cases.checks.types import Policy
from tests.unit.cases.facts import CASE_DATE, case, doc

POLICY = Policy()


def test_date_of_birth_equal_on_id_licence_and_declared_passes() -> None:
    facts = case(
        doc("passport", 1, date_of_birth="1990-04-01"),
        doc("driver_license", 2, date_of_birth="1990-04-01"),
        declared={"date_of_birth": "1990-04-01"},
    )
    assert date_of_birth_consistent(facts, POLICY).passed


def test_a_date_of_birth_off_by_one_day_fails_naming_the_document_not_the_date() -> None:
    facts = case(
        doc("passport", 1, date_of_birth="1990-04-01"),
        doc("driver_license", 2, date_of_birth="1990-04-02"),
    )
    result = date_of_birth_consistent(facts, POLICY)
    assert not result.passed
    assert "driver_license (document 2)" in result.detail and "1990" not in result.detail


def test_a_declared_date_of_birth_that_differs_fails() -> None:
    facts = case(doc("passport", 1, date_of_birth="1990-04-01"), declared={"date_of_birth": "1991-04-01"})
    result = date_of_birth_consistent(facts, POLICY)
    assert not result.passed and "the declared data" in result.detail


def test_an_unreadable_date_of_birth_fails() -> None:
    assert not date_of_birth_consistent(case(doc("passport", 1, date_of_birth="01/04/1990")), POLICY).passed


@pytest.mark.parametrize(
    ("document_date", "passed"),
    [
        ((CASE_DATE - dt.timedelta(days=90)).isoformat(), True),  # exactly the limit
        ((CASE_DATE - dt.timedelta(days=91)).isoformat(), False),  # a day too old
        (CASE_DATE.isoformat(), True),
        ((CASE_DATE + dt.timedelta(days=30)).isoformat(), False),  # dated after the case
    ],
)
def test_proof_of_address_recency(document_date: str, passed: bool) -> None:
    facts = case(doc("proof_of_address", 1, document_date=document_date))
    assert proof_of_address_recent(facts, POLICY).passed is passed


def test_a_bank_statement_counts_from_its_periods_end_and_the_policy_sets_the_days() -> None:
    statement = doc(
        "bank_statement", 1,
        document_date=(CASE_DATE - dt.timedelta(days=200)).isoformat(),
        statement_period_end=(CASE_DATE - dt.timedelta(days=40)).isoformat(),
    )  # fmt: skip
    assert proof_of_address_recent(case(statement), POLICY).passed
    result = proof_of_address_recent(case(statement), Policy(recency_days=30))
    assert not result.passed and "more than 30 days" in result.detail


def test_a_fresh_proof_of_address_beside_a_stale_one_passes_naming_the_stale_one() -> None:
    stale = doc("proof_of_address", 1, document_date=(CASE_DATE - dt.timedelta(days=400)).isoformat())
    fresh = doc("proof_of_address", 2, document_date=CASE_DATE.isoformat())
    result = proof_of_address_recent(case(stale, fresh), POLICY)
    assert result.passed and "document_date of proof_of_address (document 1) is more than" in result.detail


def test_a_proof_of_address_without_a_date_fails() -> None:
    result = proof_of_address_recent(case(doc("proof_of_address", 1)), POLICY)
    assert not result.passed and "no document_date" in result.detail


@pytest.mark.parametrize(
    ("expiry", "passed"),
    [
        (CASE_DATE.isoformat(), True),  # expires on the case date: still valid that day
        ((CASE_DATE - dt.timedelta(days=1)).isoformat(), False),
        ((CASE_DATE + dt.timedelta(days=1)).isoformat(), True),
    ],
)
def test_identity_document_valid_on_the_case_date(expiry: str, passed: bool) -> None:
    assert identity_document_valid(case(doc("passport", 1, date_of_expiry=expiry)), POLICY).passed is passed


def test_one_valid_identity_document_is_enough() -> None:
    facts = case(
        doc("passport", 1, date_of_expiry="2020-01-01"), doc("id_card", 2, date_of_expiry="2030-01-01")
    )
    result = identity_document_valid(facts, POLICY)
    assert result.passed and "passport (document 1) is before the case date" in result.detail


def test_an_identity_document_without_expiry_fails_and_the_policy_waiver_is_said() -> None:
    assert not identity_document_valid(case(doc("id_card", 1)), POLICY).passed
    expired = case(doc("id_card", 1, date_of_expiry="2020-01-01"))
    assert "accepts expired" in identity_document_valid(expired, Policy(accept_expired=True)).detail


@pytest.mark.parametrize(
    ("born", "day", "age"),
    [
        ("2008-02-29", "2026-02-28", 17),  # leap-day birth, common year: not yet on 28 February
        ("2008-02-29", "2026-03-01", 18),  # ... of age on 1 March
        ("2008-02-29", "2028-02-29", 20),  # on the day itself in a leap year
        ("2008-06-15", "2026-06-15", 18),  # on the birthday
        ("2008-06-16", "2026-06-15", 17),  # the day before
    ],
)
def test_age_on(born: str, day: str, age: int) -> None:
    assert age_on(dt.date.fromisoformat(born), dt.date.fromisoformat(day)) == age


def test_applicant_old_enough_on_the_case_date_with_the_policys_minimum() -> None:
    born_leap = doc("passport", 1, date_of_birth="2008-02-29")
    assert not applicant_old_enough(case(born_leap, case_date=dt.date(2026, 2, 28)), POLICY).passed
    assert applicant_old_enough(case(born_leap, case_date=dt.date(2026, 3, 1)), POLICY).passed
    assert not applicant_old_enough(
        case(born_leap, case_date=dt.date(2026, 3, 1)), Policy(minimum_age=21)
    ).passed


def test_age_falls_back_to_the_declared_date_of_birth() -> None:
    facts = case(doc("proof_of_address", 1), declared={"date_of_birth": "2015-01-01"})
    result = applicant_old_enough(facts, POLICY)
    assert not result.passed and "the declared data" in result.detail
