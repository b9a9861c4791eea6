"""The checks of dates: the date of birth the same everywhere, the proof of address recent enough,
the identity document valid on the case date, and the applicant old enough.

All are judged on the case date (the day the case was opened), not on the day they run: a case
re-evaluated next month is still decided on the facts of its own day.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping

from apps.cases.checks.types import CaseFacts, CheckResult, Policy, usable


def parse_date(value: str | None) -> dt.date | None:
    """An ISO ``YYYY-MM-DD`` date (§3.1), or None for anything else."""
    try:
        return dt.date.fromisoformat(value) if value else None
    except ValueError:
        return None


def age_on(born: dt.date, day: dt.date) -> int:
    """Whole years from ``born`` to ``day``. Someone born on 29 February has a birthday on
    1 March in common years (the day after 28 February), as in UK and New Zealand law."""
    return day.year - born.year - ((day.month, day.day) < (born.month, born.day))


def date_of_birth_consistent(facts: CaseFacts, policy: Policy) -> CheckResult:
    name = "date_of_birth_consistent"
    found = [(d.label, d.fields["date_of_birth"]) for d in usable(facts) if d.fields.get("date_of_birth")]
    if facts.declared.get("date_of_birth"):
        found.append(("the declared data", facts.declared["date_of_birth"]))
    unreadable = [label for label, value in found if parse_date(value) is None]
    if unreadable:
        return CheckResult(name, False, f"date_of_birth of {', '.join(unreadable)} is not a date")
    if len(found) < 2:
        return CheckResult(name, True, "fewer than two dates of birth to compare")
    (first_label, first), others = found[0], found[1:]
    differing = [label for label, value in others if parse_date(value) != parse_date(first)]
    if differing:
        return CheckResult(name, False, f"date_of_birth of {', '.join(differing)} differs from {first_label}")
    return CheckResult(name, True, f"date_of_birth is the same on {len(found)} sources")


def _issued_on(fields: Mapping[str, str], document_type: str) -> dt.date | None:
    """The day an address document speaks for: its date, or a statement's last day when later."""
    dates = [parse_date(fields.get("document_date"))]
    if document_type == "bank_statement":
        dates.append(parse_date(fields.get("statement_period_end")))
    known = [d for d in dates if d is not None]
    return max(known, default=None)


def proof_of_address_recent(facts: CaseFacts, policy: Policy) -> CheckResult:
    """At least one proof of address dated within the policy's days of the case (a fresh one sent
    after a stale one makes the case good; the stale one stays named in the detail)."""
    name = "proof_of_address_recent"
    documents = usable(facts, "address")
    if not documents:
        return CheckResult(name, True, "no proof of address to date")
    recent, problems = [], []
    for document in documents:
        issued = _issued_on(document.fields, document.document_type)
        if issued is None:
            problems.append(f"{document.label} has no document_date")
        elif (facts.case_date - issued).days > policy.recency_days:
            problems.append(
                f"document_date of {document.label} is more than {policy.recency_days} days before the case"
            )
        elif issued > facts.case_date + dt.timedelta(days=1):  # a day's slack for time zones
            problems.append(f"document_date of {document.label} is after the case date")
        else:
            recent.append(document.label)
    if not recent:
        return CheckResult(name, False, "; ".join(problems))
    return CheckResult(
        name,
        True,
        "; ".join([f"{', '.join(recent)} dated within {policy.recency_days} days of the case", *problems]),
    )


def identity_document_valid(facts: CaseFacts, policy: Policy) -> CheckResult:
    """At least one identity document valid on the case date (one that expires on that day still
    is); expired ones beside it stay named in the detail."""
    name = "identity_document_valid"
    documents = usable(facts, "identity")
    if not documents:
        return CheckResult(name, True, "no identity document to date")
    valid, problems = [], []
    for document in documents:
        expiry = parse_date(document.fields.get("date_of_expiry"))
        if expiry is None:
            problems.append(f"{document.label} has no date_of_expiry")
        elif expiry < facts.case_date:
            problems.append(f"date_of_expiry of {document.label} is before the case date")
        else:
            valid.append(document.label)
    if not valid:
        waived = "; the policy accepts expired documents" if policy.accept_expired else ""
        return CheckResult(name, False, "; ".join(problems) + waived)
    return CheckResult(name, True, "; ".join([f"{', '.join(valid)} valid on the case date", *problems]))


def applicant_old_enough(facts: CaseFacts, policy: Policy) -> CheckResult:
    """The age on the case date from the identity documents' date of birth (else the declared one)."""
    name = "applicant_old_enough"
    sources = [(d.label, d.fields.get("date_of_birth")) for d in usable(facts, "identity")]
    sources.append(("the declared data", facts.declared.get("date_of_birth")))
    born = next(((label, parse_date(v)) for label, v in sources if parse_date(v) is not None), None)
    if born is None:
        return CheckResult(name, True, "no date_of_birth to check the age with")
    label, birthday = born
    assert birthday is not None
    if age_on(birthday, facts.case_date) < policy.minimum_age:
        return CheckResult(
            name, False, f"date_of_birth of {label}: younger than {policy.minimum_age} on the case date"
        )
    return CheckResult(
        name, True, f"date_of_birth of {label}: at least {policy.minimum_age} on the case date"
    )
