"""Straight-through or human review: the rule per document type."""

from __future__ import annotations

from dataclasses import dataclass

from apps.extraction.schemas import REQUIRED_FIELDS

AUTO_APPROVED = "auto_approved"
NEEDS_REVIEW = "needs_review"


@dataclass(frozen=True)
class CalibratedField:
    name: str
    value: str | None
    confidence: float
    valid: bool | None


@dataclass(frozen=True)
class Decision:
    outcome: str  # auto_approved | needs_review
    reasons: tuple[str, ...]


def decide(
    *,
    document_type: str,
    fields: list[CalibratedField],
    checks_passed: dict[str, bool],
    min_confidence: float,
) -> Decision:
    """Auto-approve only a known identity type whose every check passed and whose required
    fields are all present, valid and confident; everything else goes to a person."""
    reasons: list[str] = []
    required = REQUIRED_FIELDS.get(document_type)
    if not required:
        reasons.append(f"no automatic decision for document type {document_type or 'unknown'}")
    by_name = {f.name: f for f in fields}
    for name in required or ():
        field = by_name.get(name)
        if field is None or not field.value:
            reasons.append(f"{name} missing")
        elif field.valid is False:
            reasons.append(f"{name} invalid")
        elif field.confidence < min_confidence:
            reasons.append(f"{name} below confidence threshold")
    reasons.extend(f"check {name} failed" for name, passed in checks_passed.items() if not passed)
    return Decision(AUTO_APPROVED if not reasons else NEEDS_REVIEW, tuple(reasons))
