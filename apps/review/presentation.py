"""Shaping review tasks for the operators' pages: field rows, flags, deadlines and maker-checker.

Pure functions over the selectors' answers, so the templates stay free of logic. Bands, source
names and check labels come from ``apps.ingestion.presentation``: the review screen and the
document page must colour and name a field the same way, or operators learn two vocabularies.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.urls import reverse

from apps.ingestion.presentation import SOURCE_LABELS, EvidenceTag, confidence_band, evidence_tags, humanise
from apps.ingestion.presentation import document_type_label as ingestion_type_label
from apps.review import rules
from apps.review.models import RejectReason, ReviewTask, TaskKind, TaskStatus
from apps.review.selectors import FieldUnderReview
from engines.custom_types import CustomSchema
from engines.spec import FIELDS, REQUIRED_FIELDS

# The decision step's reasons name a field and what is wrong with it (apps.extraction.decision).
_FLAG_TEXT = {
    "below confidence threshold": "Low confidence",
    "invalid": "Failed validation",
    "missing": "Required, not found",
    "not found": "Not found",
    "lacks evidence": "No independent evidence",
    "absence lacks evidence": "Not found, nothing confirms it",
}
_FIELD_REASON = re.compile(
    r"^(?P<name>[a-z0-9_]+) (?P<what>" + "|".join(re.escape(what) for what in _FLAG_TEXT) + ")$"
)
_CHECK_REASON = re.compile(r"^check (?P<name>[a-z0-9_]+) failed$")
# Flags that are a doubt about a value (coloured apart from a value that failed or is missing).
_DOUBT_FLAGS = frozenset(
    _FLAG_TEXT[what] for what in ("below confidence threshold", "lacks evidence", "absence lacks evidence")
)

# Around a field's box: a little of the line either side (a label printed beside a value says
# what it is), a third of the box's height above and below, and no more: a margin in page
# fractions would pull in half of the neighbouring MRZ line, which is noise to compare against.
CROP_PAD_X = 0.015
CROP_PAD_Y_OF_HEIGHT = 0.35

REJECT_REASON_HELP = {
    RejectReason.ILLEGIBLE: "The image cannot be read reliably",
    RejectReason.WRONG_DOCUMENT_TYPE: "Not the document this flow expects",
    RejectReason.EXPIRED: "The document is past its expiry date",
    RejectReason.INCOMPLETE: "Pages or sides are missing",
    RejectReason.SUSPECTED_FRAUD: "Signs of tampering or forgery",
    RejectReason.DUPLICATE: "Already submitted",
    RejectReason.OTHER: "Say why in the note",
}


def crop_box(bbox: Sequence[float]) -> tuple[float, float, float, float]:
    """The region of the page shown beside a field: its box, padded, within the page."""
    x0, y0, x1, y1 = bbox
    pad_y = (y1 - y0) * CROP_PAD_Y_OF_HEIGHT
    return (max(x0 - CROP_PAD_X, 0.0), max(y0 - pad_y, 0.0), min(x1 + CROP_PAD_X, 1.0), min(y1 + pad_y, 1.0))


@dataclass(frozen=True)
class ReviewFieldRow:
    """One field on the review screen, in the order of the type's schema."""

    key: int  # 1-based; the keyboard and the page boxes refer to it
    name: str
    label: str
    value: str | None
    confidence: float | None
    band: str
    source_label: str
    valid: bool | None
    page: int
    bbox: list[float] | None
    required: bool
    flag: str  # why the decision step flagged it ("" when it did not)
    review: str | None  # "confirmed" | "corrected" | None
    engine_value: str | None  # what the engine read, when an operator changed it
    crop_url: str
    # what supported the engine's value besides its score; none is shown for a corrected value,
    # which the operator, not the evidence, now stands behind
    evidence: tuple[EvidenceTag, ...] = ()

    @property
    def percent(self) -> str:
        return "—" if self.confidence is None else f"{self.confidence * 100:.0f}%"

    @property
    def flag_kind(self) -> str:
        """ "low" for a doubt, "bad" for a value that failed or is missing: coloured apart."""
        return "low" if self.flag in _DOUBT_FLAGS else "bad" if self.flag else ""

    @property
    def width(self) -> str:
        return "0" if self.confidence is None else f"{self.confidence * 100:.0f}"

    @property
    def crop(self) -> str:
        """The padded crop region as "x0,y0,x1,y1", for the screen's script to draw."""
        return ",".join(f"{v:.4f}" for v in crop_box(self.bbox)) if self.bbox else ""

    @property
    def box_style(self) -> str:
        if not self.bbox:
            return ""
        x0, y0, x1, y1 = self.bbox
        return (
            f"left:{x0 * 100:.2f}%;top:{y0 * 100:.2f}%;"
            f"width:{(x1 - x0) * 100:.2f}%;height:{(y1 - y0) * 100:.2f}%"
        )


@dataclass(frozen=True)
class Reason:
    text: str
    field: str  # the field it is about, "" for document-level reasons


def reason_rows(reasons: Sequence[str], *, custom: CustomSchema | None = None) -> list[Reason]:
    """The decision's reasons in an operator's words, each pointing at its field where it has one
    (``custom``: the tenant's own type the document was read as, whose fields have titles)."""
    titles = custom.titles if custom is not None else {}
    rows = []
    for reason in reasons:
        if match := _FIELD_REASON.match(reason):
            name = match["name"]
            label = titles.get(name) or humanise(name)
            rows.append(Reason(f"{label}: {_FLAG_TEXT[match['what']].lower()}", name))
        elif match := _CHECK_REASON.match(reason):
            rows.append(Reason(f"Check failed: {humanise(match['name']).lower()}", ""))
        else:
            rows.append(Reason(reason[:1].upper() + reason[1:], ""))
    return rows


def field_flags(reasons: Sequence[str]) -> dict[str, str]:
    flags: dict[str, str] = {}
    for reason in reasons:
        if match := _FIELD_REASON.match(reason):
            flags.setdefault(match["name"], _FLAG_TEXT[match["what"]])
    return flags


def review_field_rows(
    *,
    task: ReviewTask,
    fields: Sequence[FieldUnderReview],
    engine_values: dict[str, str | None],
    custom: CustomSchema | None = None,
) -> list[ReviewFieldRow]:
    """The document's fields in schema order (then any others), flagged by the task's reasons.
    ``custom``: the schema of the tenant's own type the document was read as: its order, its
    fields' titles and its required fields."""
    by_name = {f.name: f for f in fields}
    schema_order = custom.names if custom is not None else FIELDS.get(task.document_type, ())
    order = [n for n in schema_order if n in by_name]
    order += [n for n in by_name if n not in order]
    required = set(custom.required if custom is not None else REQUIRED_FIELDS.get(task.document_type, ()))
    titles = custom.titles if custom is not None else {}
    flags = field_flags(task.reasons or [])
    rows = []
    for key, name in enumerate(order, start=1):
        f = by_name[name]
        rows.append(
            ReviewFieldRow(
                key=key,
                name=name,
                label=titles.get(name) or humanise(name),
                value=f.value,
                confidence=f.confidence,
                band="operator" if f.review else confidence_band(f.confidence),
                source_label=SOURCE_LABELS.get(f.source, f.source or "—"),
                valid=f.valid,
                page=f.page,
                bbox=f.bbox,
                required=name in required,
                flag=flags.get(name, ""),
                review=f.review,
                engine_value=engine_values.get(name) if f.review == "corrected" else None,
                crop_url=reverse("review:field_crop", args=[task.pk, name]) if f.bbox else "",
                evidence=tuple(evidence_tags(f.evidence)),
            )
        )
    return rows


def first_field_to_check(rows: Sequence[ReviewFieldRow]) -> int:
    """Where the keyboard starts: the first flagged field nobody checked, else the first unchecked."""
    for row in rows:
        if row.flag and row.review is None:
            return row.key
    for row in rows:
        if row.review is None:
            return row.key
    return rows[0].key if rows else 0


def duration_text(delta: dt.timedelta | None) -> str:
    """A short age or remaining time: "45 s", "12 min", "3 h 20 min", "2 d 4 h"."""
    if delta is None:
        return "—"
    seconds = int(abs(delta.total_seconds()))
    if seconds < 60:
        return f"{seconds} s"
    minutes = seconds // 60
    if minutes < 60:
        return f"{minutes} min"
    hours, minutes = divmod(minutes, 60)
    if hours < 24:
        return f"{hours} h {minutes} min" if minutes else f"{hours} h"
    days, hours = divmod(hours, 24)
    return f"{days} d {hours} h" if hours else f"{days} d"


@dataclass(frozen=True)
class Deadline:
    text: str  # "due in 3 h" | "overdue by 20 min"
    state: str  # "ok" | "soon" | "breached"


def deadline(*, due_at: dt.datetime, now: dt.datetime, sla: dt.timedelta) -> Deadline:
    """How far the task is from its SLA deadline; "soon" in the last fifth of the SLA."""
    left = due_at - now
    if left.total_seconds() < 0:
        return Deadline(f"overdue by {duration_text(-left)}", "breached")
    state = "soon" if left < sla / 5 else "ok"
    return Deadline(f"due in {duration_text(left)}", state)


@dataclass(frozen=True)
class CheckState:
    """Where the task stands with maker-checker, in words for the operator looking at it."""

    required: bool
    text: str
    state: str  # "none" | "needs_maker" | "needs_checker" | "own_approval"


def maker_checker_state(*, task: ReviewTask, user: User) -> CheckState:
    required = rules.requires_check(
        maker_checker_document_types=task.queue.maker_checker_document_types or [],
        document_type=task.document_type,
        kind=task.kind,
    )
    if not required:
        return CheckState(False, "", "none")
    if task.maker_id is None:
        return CheckState(True, "Maker-checker: your approval is the first of two.", "needs_maker")
    maker = task.maker.get_username() if task.maker is not None else "another operator"
    if task.maker_id == user.pk:
        return CheckState(
            True, "You approved this as maker: a different operator must check it.", "own_approval"
        )
    return CheckState(
        True, f"Approved by {maker} as maker: your approval completes the check.", "needs_checker"
    )


STATUS_LABELS = {
    TaskStatus.OPEN: "Open",
    TaskStatus.AWAITING_CHECK: "Awaiting check",
    TaskStatus.ESCALATED: "Escalated",
    TaskStatus.DONE: "Done",
}
KIND_LABELS: dict[str, str] = {TaskKind.REVIEW: "Review", TaskKind.QUALITY_AUDIT: "Quality audit"}


def task_status_label(task: ReviewTask) -> str:
    if task.status == TaskStatus.DONE:
        return "Approved" if task.outcome == "approved" else "Rejected"
    return STATUS_LABELS.get(TaskStatus(task.status), humanise(task.status))


def document_type_label(document_type: str) -> str:
    return ingestion_type_label(document_type) if document_type else "Unclassified"
