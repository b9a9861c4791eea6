"""The document status machine (ARCHITECTURE §1): the one place a document changes state.

``RECEIVED → QUEUED → PROCESSING → EXTRACTED → AUTO_APPROVED | NEEDS_REVIEW → APPROVED | REJECTED``,
``QUEUED → RESUBMISSION_REQUESTED`` (a capture too poor to read, sent back before inference),
``FAILED`` (with an error code) from any step before a decision, and ``FAILED → RECEIVED`` when a
person (or an identical re-upload) asks for a failed document to be tried again
(``apps.documents.reprocess``). Anything else raises.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from apps.audit.services import audit_record
from apps.documents.models import Document, DocumentStatus
from apps.observability.metrics import document_transitioned

S = DocumentStatus

ALLOWED_TRANSITIONS: dict[str, frozenset[str]] = {
    S.RECEIVED: frozenset({S.QUEUED, S.FAILED}),
    S.QUEUED: frozenset({S.PROCESSING, S.RESUBMISSION_REQUESTED, S.FAILED}),
    S.PROCESSING: frozenset({S.EXTRACTED, S.FAILED}),
    S.EXTRACTED: frozenset({S.AUTO_APPROVED, S.NEEDS_REVIEW, S.FAILED}),
    S.NEEDS_REVIEW: frozenset({S.APPROVED, S.REJECTED}),
    S.AUTO_APPROVED: frozenset(),
    S.RESUBMISSION_REQUESTED: frozenset(),
    S.APPROVED: frozenset(),
    S.REJECTED: frozenset(),
    S.FAILED: frozenset({S.RECEIVED}),  # reprocessed: only apps.documents.reprocess moves it
}
# States the pipeline never moves a document on from (a failed one leaves only when reprocessed).
TERMINAL = frozenset(s for s, targets in ALLOWED_TRANSITIONS.items() if not targets - {S.RECEIVED})
# States the pipeline still owes work on; the reconciler watches these.
IN_FLIGHT = frozenset({S.RECEIVED, S.QUEUED, S.PROCESSING, S.EXTRACTED})


class IllegalTransitionError(Exception):
    def __init__(self, document_id: object, source: str, target: str) -> None:
        super().__init__(f"document {document_id}: {source} -> {target} is not allowed")
        self.source = source
        self.target = target


def can_transition(source: str, target: str) -> bool:
    return target in ALLOWED_TRANSITIONS.get(source, frozenset())


def document_lock(*, document_id: uuid.UUID | str) -> Document | None:
    """The document's row, locked until the caller's transaction ends (None when it does not
    exist), with its tenant: what :func:`document_transition` takes as ``locked=True``."""
    return (
        Document.objects.select_for_update(of=("self",))
        .select_related("tenant")
        .filter(pk=document_id)
        .first()
    )


def document_transition(
    *,
    document: Document,
    target: str,
    actor: User | None = None,
    error_code: str = "",
    error_message: str = "",
    expected: str | None = None,
    locked: bool = False,
    also_save: Iterable[str] = (),
    write: bool = True,
) -> Document:
    """Move ``document`` to ``target`` under a row lock, and audit it.

    ``expected`` makes the call conditional: when the locked row is not in that state any more
    (another worker got there first), the transition is skipped and the fresh row is returned,
    which is what makes re-delivered tasks no-ops.

    ``locked=True`` says ``document`` is the row the caller locked in its current transaction
    (:func:`document_lock`, or a row it inserted) and has kept up to date since: it is not read
    again. ``also_save`` names fields the caller changed on it, written in the same UPDATE.
    ``write=False`` (with ``locked=True``) changes and audits the row but leaves the UPDATE to the
    caller's next transition in the same transaction: a step that moves a document twice
    (PROCESSING → EXTRACTED → decided) writes its row once.
    """
    if not transaction.get_connection().in_atomic_block:
        with transaction.atomic():
            return document_transition(
                document=document,
                target=target,
                actor=actor,
                error_code=error_code,
                error_message=error_message,
                expected=expected,
                locked=locked,
                also_save=also_save,
                write=write,
            )
    # Inside the caller's transaction, without a savepoint of its own: two savepoint round trips per
    # state change were a measurable share of a cheap pipeline step (bench/pipeline.py), and an
    # illegal transition is refused before anything is written.
    row = document if locked else document_lock(document_id=document.pk)
    if row is None:
        raise Document.DoesNotExist(f"document {document.pk} does not exist")
    if expected is not None and row.status != expected:
        return row
    if not can_transition(row.status, target):
        raise IllegalTransitionError(row.pk, row.status, target)
    source = row.status
    row.status = target
    row.status_changed_at = timezone.now()
    if target == S.FAILED:
        row.error_code = error_code or "internal_error"
        row.error_message = error_message
    # whatever it waited on answered (apps.documents.unavailability): the note ends with the state
    row.unavailable_since, row.unavailable_reason = None, ""
    if write:
        fields = {
            "status",
            "status_changed_at",
            "error_code",
            "error_message",
            "unavailable_since",
            "unavailable_reason",
            "updated_at",
            *also_save,
        }
        row.save(update_fields=sorted(fields))
    audit_record(
        tenant=row.tenant,
        actor=actor,
        action="document.status_changed",
        object_type="document",
        object_id=str(row.pk),
        data={
            "from": source,
            "to": target,
            **({"error_code": row.error_code} if target == S.FAILED else {}),
        },
    )
    created_at, failed_code = row.created_at, row.error_code
    transaction.on_commit(
        lambda: document_transitioned(target=target, created_at=created_at, error_code=failed_code)
    )
    if target not in IN_FLIGHT:
        _cases_tell(row.pk)
    return row


class _CasesToTell:
    """The documents this transaction decided, kept among its commit hooks (like the audit chain's
    head, apps.audit.services): once it commits, the KYC cases holding any of them are evaluated
    again (``apps.cases``), one query for a whole batch of documents. Robust: a failing case
    evaluation is logged and never undoes or fails the documents' own step."""

    __slots__ = ("document_ids", "told")

    def __init__(self) -> None:
        self.document_ids: list[uuid.UUID] = []
        self.told = False

    def __call__(self) -> None:
        from apps.cases.services import cases_reevaluate_for_documents  # cases depend on documents

        self.told = True
        cases_reevaluate_for_documents(document_ids=self.document_ids)


def _cases_tell(document_id: uuid.UUID) -> None:
    pending = next(
        (
            e[1]
            for e in transaction.get_connection().run_on_commit
            if isinstance(e[1], _CasesToTell) and not e[1].told
        ),
        None,
    )
    if pending is None:
        pending = _CasesToTell()
        transaction.on_commit(pending, robust=True)
    pending.document_ids.append(document_id)
