"""What the case checks take and give: plain, frozen data, so each check is a pure function that a
unit test calls with dictionaries and a date (no database, no Django).

Checks name fields and documents ("date_of_birth of driver_license (document 2)"), never values:
their results are shown to reviewers, sent in webhooks and may end up in logs.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from apps.cases import knowledge


@dataclass(frozen=True)
class CheckResult:
    """One named case check. ``links``: ids of other cases a reviewer should open (duplicates);
    ``score``: the check's own measure where it has one (the lowest name-match score)."""

    name: str
    passed: bool
    detail: str
    links: tuple[str, ...] = ()
    score: float | None = None


@dataclass(frozen=True)
class DocumentFacts:
    """A document of the case as the checks see it: its extracted fields (non-empty values only),
    where each came from, and a label that names it without its content."""

    label: str  # "passport (document 1)"
    document_type: str
    status: str
    fields: Mapping[str, str] = field(default_factory=dict)
    sources: Mapping[str, str] = field(default_factory=dict)
    document_id: str = ""
    sha256: str = ""


@dataclass(frozen=True)
class DuplicateHit:
    """A document of this case also found in another applicant's case of the same tenant."""

    kind: str  # "document_number", "barcode" or "file"
    label: str  # the document of this case
    case_id: str  # the other case


@dataclass(frozen=True)
class CaseFacts:
    case_date: dt.date
    documents: tuple[DocumentFacts, ...]
    declared: Mapping[str, str] = field(
        default_factory=dict
    )  # full_name, date_of_birth, address_* as the applicant gave them
    duplicates: tuple[DuplicateHit, ...] = ()
    blocklisted: tuple[str, ...] = ()  # labels of documents whose number the tenant blocked


def _defaults() -> Mapping[str, Any]:
    return knowledge.rules().defaults


@dataclass(frozen=True)
class Policy:
    """A tenant's case policy (``apps.cases.models.CasePolicy``), or the defaults of rules.toml."""

    required_document_types: tuple[tuple[str, ...], ...] = field(
        default_factory=lambda: tuple(tuple(group) for group in _defaults()["required_document_types"])
    )
    recency_days: int = field(default_factory=lambda: int(_defaults()["recency_days"]))
    minimum_age: int = field(default_factory=lambda: int(_defaults()["minimum_age"]))
    accept_expired: bool = field(default_factory=lambda: bool(_defaults()["accept_expired"]))
    name_match_threshold: float = field(default_factory=lambda: float(_defaults()["name_match_threshold"]))
    maker_checker: bool = field(default_factory=lambda: bool(_defaults()["maker_checker"]))


# Documents a reader refused or a reviewer rejected: flagged by ``documents_readable``, and their
# fields are not evidence for any other check.
# A document sent back for a new capture (``resubmission_requested``) is unusable too: its
# case asks the applicant for it again, naming it.
UNUSABLE_STATUSES = frozenset({"failed", "rejected", "resubmission_requested"})


def family_of(document_type: str) -> str:
    """The §3.2 family of a document type (``identity``, ``address``, ...; "" when unknown)."""
    from engines.spec import CATALOGUE

    spec = CATALOGUE.types.get(document_type)
    return spec.family if spec is not None else ""


def usable(facts: CaseFacts, family: str = "") -> list[DocumentFacts]:
    """The case's documents whose fields count, of one family when given."""
    return [
        d
        for d in facts.documents
        if d.status not in UNUSABLE_STATUSES and (not family or family_of(d.document_type) == family)
    ]
