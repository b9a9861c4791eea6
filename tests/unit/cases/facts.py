"""Builders of case facts for the check tests: documents as plain field dictionaries."""

from __future__ import annotations

import datetime as dt

from apps.cases.checks.types import CaseFacts, DocumentFacts

CASE_DATE = dt.date(2026, 6, 15)


def doc(document_type: str, position: int = 1, status: str = "auto_approved", **fields: str) -> DocumentFacts:
    return DocumentFacts(
        label=f"{document_type} (document {position})",
        document_type=document_type,
        status=status,
        fields=fields,
    )


def case(*documents: DocumentFacts, declared: dict[str, str] | None = None, **kwargs: object) -> CaseFacts:
    return CaseFacts(
        case_date=kwargs.pop("case_date", CASE_DATE),  # type: ignore[arg-type]
        documents=documents,
        declared=declared or {},
        **kwargs,  # type: ignore[arg-type]
    )
