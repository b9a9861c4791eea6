"""Straight-through or human review: the rule per document type."""

from __future__ import annotations

from dataclasses import dataclass

from engines.evidence import sufficient
from engines.spec import REQUIRED_FIELDS

# Checks shown to the reviewer that do not by themselves stop straight-through processing: the
# engine's reading of an item table is less reliable than the totals it cross-checks, and a name
# the MRZ spells without the printed page's accents is no error (agreement raises confidence),
# and a second OCR reading that differs only lowers the calibrated confidence of that field.
ADVISORY_CHECKS = frozenset({"line_items_sum", "mrz_matches_visual_zone", "ocr_second_reading"})

AUTO_APPROVED = "auto_approved"
NEEDS_REVIEW = "needs_review"


@dataclass(frozen=True)
class CalibratedField:
    name: str
    value: str | None
    confidence: float
    valid: bool | None
    # what supports the value besides its score (engines/spec/evidence.toml); none: never approved
    evidence: tuple[str, ...] = ()


@dataclass(frozen=True)
class Decision:
    outcome: str  # auto_approved | needs_review
    reasons: tuple[str, ...]


def decide(
    *,
    document_type: str,
    document_type_confidence: float,
    fields: list[CalibratedField],
    checks_passed: dict[str, bool],
    min_confidence: float,
    min_type_confidence: float,
    required_fields: tuple[str, ...] | None = None,
) -> Decision:
    """Auto-approve only a document of a known type, confidently classified, whose every check
    passed, whose required fields are all present, and whose every field (required or not: an
    approved document is approved whole) is valid, at least ``min_confidence`` likely right and
    supported by enough independent evidence (engines.evidence.sufficient: a score alone is a
    probability only on layouts like those it was fitted on). Everything else goes to a person. ``required_fields``: those of a tenant's own type (its
    schema's ``required``, possibly none), instead of the §3.2 type's."""
    reasons: list[str] = []
    required = REQUIRED_FIELDS.get(document_type) if required_fields is None else required_fields
    if required_fields is None and not required:
        reasons.append(f"no automatic decision for document type {document_type or 'unknown'}")
    elif document_type_confidence < min_type_confidence:
        reasons.append("document type uncertain")
    by_name = {f.name: f for f in fields}
    reasons.extend(
        f"{name} missing" for name in required or () if not (by_name.get(name) and by_name[name].value)
    )
    for field in fields:
        if not field.value:
            # an optional field found empty: approved only if "there is none" is itself confident
            # and something besides the score says so (a verified zone, a familiar layout)
            if field.name in (required or ()):
                continue
            if field.confidence < min_confidence:
                reasons.append(f"{field.name} not found")
            elif not sufficient(field.name, field.evidence, present=False):
                reasons.append(f"{field.name} absence lacks evidence")
            continue
        if field.valid is False:
            reasons.append(f"{field.name} invalid")
        elif field.confidence < min_confidence:
            reasons.append(f"{field.name} below confidence threshold")
        elif not sufficient(field.name, field.evidence):
            reasons.append(f"{field.name} lacks evidence")
    reasons.extend(
        f"check {name} failed"
        for name, passed in checks_passed.items()
        if not passed and name not in ADVISORY_CHECKS
    )
    return Decision(AUTO_APPROVED if not reasons else NEEDS_REVIEW, tuple(reasons))
