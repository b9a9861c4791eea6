"""The routing rules of review, pure so they can be read and tested without a database.

A queue accepts a task when its document-type filter and its task-kind filter both let it
through (an empty filter accepts everything). Among the queues that accept a task, the one that
names the task's document type beats one that merely accepts all types, the one that names the
kind beats one that accepts all kinds, and then the higher queue priority wins: so a tenant can
add a "passports" queue beside its catch-all default and passports go there without touching
the default.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass

from engines.spec import DOCUMENT_TYPES

REVIEW = "review"  # a person must decide: the engine was not sure enough
QUALITY_AUDIT = "quality_audit"  # a sample of auto-approved documents, to measure the machine
TASK_KINDS = (REVIEW, QUALITY_AUDIT)


@dataclass(frozen=True)
class QueueRule:
    """What routing needs to know about a queue."""

    key: object  # the queue's id, returned by ``best_queue``
    document_types: Sequence[str]
    task_kinds: Sequence[str]
    priority: int


def queue_accepts(rule: QueueRule, *, document_type: str, kind: str) -> bool:
    return (not rule.document_types or document_type in rule.document_types) and (
        not rule.task_kinds or kind in rule.task_kinds
    )


def best_queue(rules: Sequence[QueueRule], *, document_type: str, kind: str) -> object | None:
    """The key of the most specific accepting queue, None when no queue accepts the task."""
    accepting = [r for r in rules if queue_accepts(r, document_type=document_type, kind=kind)]
    if not accepting:
        return None
    best = max(
        accepting, key=lambda r: (bool(r.document_types), bool(r.task_kinds), r.priority, -accepting.index(r))
    )
    return best.key


def qa_sampled(*, document_id: object, rate: float) -> bool:
    """Whether an auto-approved document is drawn for quality audit.

    The draw is a hash of the document's id, not ``random()``: a re-delivered ``decide`` message
    draws the same answer, and a rate of 1.0 (or 0.0) makes the outcome certain for tests.
    """
    if rate <= 0.0:
        return False
    digest = hashlib.sha256(f"qa-sample:{document_id}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64 < rate


def requires_check(*, maker_checker_document_types: Sequence[str], document_type: str, kind: str) -> bool:
    """Maker-checker applies to reviews of the listed document types; an audit of a document that
    is already approved has nothing left to approve twice."""
    return kind == REVIEW and document_type in maker_checker_document_types


def queue_settings_errors(
    *,
    name: str,
    document_types: Sequence[str],
    task_kinds: Sequence[str],
    maker_checker_document_types: Sequence[str],
    qa_sample_rate: float | None,
    sla_seconds: float,
) -> list[str]:
    """Everything wrong with a queue's settings, as messages without any document data."""
    errors = []
    if not name.strip():
        errors.append("a queue needs a name")
    for label, types in (
        ("document_types", document_types),
        ("maker_checker_document_types", maker_checker_document_types),
    ):
        unknown = sorted(set(types) - set(DOCUMENT_TYPES))
        if unknown:
            errors.append(f"{label}: unknown document types {', '.join(unknown)}")
    unknown_kinds = sorted(set(task_kinds) - set(TASK_KINDS))
    if unknown_kinds:
        errors.append(f"task_kinds: unknown kinds {', '.join(unknown_kinds)}")
    if qa_sample_rate is not None and not 0.0 <= qa_sample_rate <= 1.0:
        errors.append("qa_sample_rate must be between 0 and 1")
    if sla_seconds <= 0:
        errors.append("the SLA must be positive")
    return errors
