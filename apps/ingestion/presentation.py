"""Shaping a document's §3.1 result for the operators' pages: rows, bands, labels and boxes.

Pure functions over the result dict and a few model rows, so the templates stay free of logic
and the same bands and labels are used everywhere (document page, and later the review screen).
A field's colour says how far its calibrated confidence is from what auto-approval demands:
``high`` is enough to approve without a person, ``medium`` deserves a glance, ``low`` needs
checking against the image.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.template.defaultfilters import filesizeformat

from apps.audit.models import AuditEvent
from apps.documents.models import Document
from apps.documents.state import IN_FLIGHT
from engines.custom_types import CustomSchema
from engines.evidence import RULES as EVIDENCE_RULES
from engines.spec import FIELDS, REQUIRED_FIELDS

# Below the auto-approve threshold but at least this likely right: worth a glance, not a re-read.
MEDIUM_CONFIDENCE = 0.7

SOURCE_LABELS = {
    "mrz": "MRZ",
    "barcode": "Barcode",
    "text_layer": "PDF text",
    "ocr": "OCR",
    "model": "Model",
}

# Each kind of evidence (engines/spec/evidence.toml) in a reviewer's words, short enough for a
# label beside the confidence; the sentence saying what it means is the data file's ``means``.
EVIDENCE_LABELS = {
    "mrz_check_digits": "MRZ check digits",
    "barcode": "Barcode",
    "checksum": "Checksum",
    "arithmetic": "Adds up",
    "einvoice_xml": "E-invoice XML",
    "two_readings": "Two readings agree",
    "text_layer": "PDF text",
    "at_label": "At its label",
    "familiar_layout": "Familiar layout",
    "grounded": "In the page text",
}

# (group, label) per check name; groups are shown in this order.
CHECK_GROUPS = (
    "Capture quality",
    "Authenticity signals (advisory)",
    "Identity cross-checks",
    "Arithmetic and formats",
    "Decision rules",
    "Other",
)
CHECK_LABELS: dict[str, tuple[str, str]] = {
    "capture_blurred": ("Capture quality", "Sharp enough to read"),
    "capture_glare": ("Capture quality", "No glare over the text"),
    "capture_cropped": ("Capture quality", "Whole document in the frame"),
    "capture_low_resolution": ("Capture quality", "Letters large enough"),
    "capture_too_dark": ("Capture quality", "Bright and contrasted enough"),
    "authenticity_screen": ("Authenticity signals (advisory)", "Not a photo of a screen"),
    "authenticity_print": ("Authenticity signals (advisory)", "Not a print-out or photocopy"),
    "authenticity_edited": ("Authenticity signals (advisory)", "No region with its own JPEG history"),
    "authenticity_copied": ("Authenticity signals (advisory)", "No patch copied within the page"),
    "authenticity_glyphs": ("Authenticity signals (advisory)", "Each field's characters alike"),
    "authenticity_zones": ("Authenticity signals (advisory)", "MRZ, barcode and printed page agree"),
    "mrz_found": ("Identity cross-checks", "Machine-readable zone found"),
    "mrz_check_digits": ("Identity cross-checks", "MRZ check digits"),
    "mrz_matches_visual_zone": ("Identity cross-checks", "MRZ matches the printed page"),
    "barcode_found": ("Identity cross-checks", "PDF417 barcode found"),
    "barcode_parsed": ("Identity cross-checks", "Barcode read as an AAMVA payload"),
    "barcode_fields": ("Identity cross-checks", "Barcode fields readable"),
    "barcode_name_order": ("Identity cross-checks", "Order of the barcode's full name settled"),
    "barcode_name_truncated": ("Identity cross-checks", "Barcode holds the whole name"),
    "barcode_vs_front": ("Identity cross-checks", "Barcode matches the printed front"),
    "totals_arithmetic": ("Arithmetic and formats", "Totals add up"),
    "iban_checksum": ("Arithmetic and formats", "IBAN check digits"),
    "statement_period_order": ("Arithmetic and formats", "Statement period in order"),
    "document_type_hint": ("Decision rules", "Type agrees with the upload's hint"),
    "required_fields_present": ("Decision rules", "Required fields present"),
    "document_not_expired": ("Decision rules", "Document not expired"),
    "fields_valid": ("Decision rules", "Every field valid"),
    "confidence_calibrated": ("Decision rules", "Model confidences calibrated"),
    "model_output_complete": ("Other", "Model answer complete"),
    "all_pages_read": ("Other", "Every page read by the model"),
    "not_grounded": ("Other", "Model's values found in the page's text"),
    "model_scored": ("Other", "Model's confidences rest on its own choices"),
    "value_within_length_bound": ("Other", "Model's values shorter than their length bound"),
    "plausible_values": ("Arithmetic and formats", "Values of their kind (names, dates, amounts)"),
}

STATUS_LABELS = {
    "received": "Received",
    "queued": "Queued",
    "processing": "Processing",
    "extracted": "Extracted",
    "auto_approved": "Auto-approved",
    "needs_review": "Needs review",
    "resubmission_requested": "New photo requested",
    "approved": "Approved",
    "rejected": "Rejected",
    "failed": "Failed",
}

# Audit actions in an operator's words.
ACTION_LABELS = {
    "document.uploaded": "Uploaded",
    "document.status_changed": "Status changed",
    "document.reprocessed": "Processed again",
    "review.task_created": "Sent to review",
    "review.task_claimed": "Review claimed",
    "review.task_released": "Review released",
}


DOCUMENT_TYPE_LABELS = {"id_card": "ID card"}


def humanise(name: str) -> str:
    return name.replace("_", " ").capitalize()


def document_type_label(document_type: str | None) -> str:
    if not document_type:
        return ""
    return DOCUMENT_TYPE_LABELS.get(document_type, humanise(document_type))


def status_label(status: str) -> str:
    return STATUS_LABELS.get(status, humanise(status))


def confidence_band(confidence: float | None) -> str:
    if confidence is None:
        return "none"
    if confidence >= settings.DOCINTEL_AUTO_APPROVE_MIN_CONFIDENCE:
        return "high"
    if confidence >= MEDIUM_CONFIDENCE:
        return "medium"
    return "low"


@dataclass(frozen=True)
class EvidenceTag:
    """One kind of evidence behind a field, as a small label with its meaning as the title."""

    kind: str
    label: str
    means: str


def evidence_tags(evidence: Iterable[str] | None) -> list[EvidenceTag]:
    """A field's evidence as labels, in the data file's order. A kind the rules no longer know
    (a result stored by an older version) is still shown, by its name: hiding it would make the
    field look less supported than it was when it was decided."""
    found = list(dict.fromkeys(evidence or ()))
    ordered = [k for k in EVIDENCE_RULES.kinds if k in found] + [
        k for k in found if k not in EVIDENCE_RULES.kinds
    ]
    return [
        EvidenceTag(
            kind,
            EVIDENCE_LABELS.get(kind, humanise(kind)),
            EVIDENCE_RULES.kinds[kind].means if kind in EVIDENCE_RULES.kinds else "",
        )
        for kind in ordered
    ]


@dataclass(frozen=True)
class FieldRow:
    key: int  # 1-based position in the table; the keyboard and the boxes refer to it
    name: str
    label: str
    value: str | None
    confidence: float | None
    band: str
    source: str
    source_label: str
    valid: bool | None
    page: int
    bbox: list[float] | None
    required: bool
    evidence: tuple[EvidenceTag, ...] = ()

    @property
    def percent(self) -> str:
        return "—" if self.confidence is None else f"{self.confidence * 100:.0f}%"

    @property
    def box_style(self) -> str:
        """CSS placing the field's box over its page, in percentages so it scales with the image."""
        if self.bbox is None:
            return ""
        x0, y0, x1, y1 = self.bbox
        return (
            f"left:{x0 * 100:.2f}%;top:{y0 * 100:.2f}%;"
            f"width:{(x1 - x0) * 100:.2f}%;height:{(y1 - y0) * 100:.2f}%"
        )


@dataclass(frozen=True)
class CheckRow:
    name: str
    label: str
    passed: bool
    detail: str


@dataclass(frozen=True)
class CheckRegion:
    """A failed capture measure's or a flagged authenticity signal's region, drawn on its page."""

    name: str
    label: str
    detail: str
    page: int
    bbox: tuple[float, float, float, float]

    @property
    def box_style(self) -> str:
        x0, y0, x1, y1 = self.bbox
        return (
            f"left:{x0 * 100:.2f}%;top:{y0 * 100:.2f}%;"
            f"width:{(x1 - x0) * 100:.2f}%;height:{(y1 - y0) * 100:.2f}%"
        )


def check_regions(checks: Iterable[dict[str, Any]]) -> list[CheckRegion]:
    """The regions (shares of the page) that the failed capture checks and the flagged
    authenticity signals concern, for an overlay on their page."""
    regions = []
    for check in checks:
        region, page = check.get("region"), check.get("page")
        if check.get("passed") or not region or not page:
            continue
        _, label = CHECK_LABELS.get(check["name"], ("Other", humanise(check["name"])))
        x0, y0, x1, y1 = (float(v) for v in region)
        regions.append(
            CheckRegion(check["name"], label, check.get("detail") or "", int(page), (x0, y0, x1, y1))
        )
    return regions


@dataclass(frozen=True)
class CheckGroup:
    title: str
    checks: list[CheckRow]


@dataclass(frozen=True)
class HistoryRow:
    at: datetime
    label: str
    detail: str
    actor: str


def field_rows(result: dict[str, Any], *, custom: CustomSchema | None = None) -> list[FieldRow]:
    """The result's fields in the order of the type's schema (then any others), numbered.
    ``custom``: the tenant's own type the document was read as (its order, its required fields)."""
    fields: dict[str, dict[str, Any]] = result.get("fields") or {}
    document_type = result.get("document_type") or ""
    schema_order = custom.names if custom is not None else FIELDS.get(document_type, ())
    order = [n for n in schema_order if n in fields]
    order += [n for n in fields if n not in order]
    required = set(custom.required if custom is not None else REQUIRED_FIELDS.get(document_type, ()))
    rows = []
    for key, name in enumerate(order, start=1):
        f = fields[name]
        rows.append(
            FieldRow(
                key=key,
                name=name,
                label=f.get("title") or humanise(name),  # a tenant's own type titles its fields
                value=f.get("value"),
                confidence=f.get("confidence"),
                band=confidence_band(f.get("confidence")),
                source=f.get("source") or "",
                source_label=SOURCE_LABELS.get(f.get("source") or "", f.get("source") or "—"),
                valid=f.get("valid"),
                page=int(f.get("page") or 1),
                bbox=f.get("bbox"),
                required=name in required,
                evidence=tuple(evidence_tags(f.get("evidence"))),
            )
        )
    return rows


def check_groups(result: dict[str, Any]) -> list[CheckGroup]:
    grouped: dict[str, list[CheckRow]] = {title: [] for title in CHECK_GROUPS}
    for check in result.get("checks") or []:
        group, label = CHECK_LABELS.get(check["name"], ("Other", humanise(check["name"])))
        grouped[group].append(
            CheckRow(check["name"], label, bool(check["passed"]), check.get("detail") or "")
        )
    return [CheckGroup(title, rows) for title, rows in grouped.items() if rows]


def history_rows(events: Iterable[AuditEvent]) -> list[HistoryRow]:
    rows = []
    for event in events:
        data = event.data or {}
        if event.action == "document.status_changed":
            detail = f"{status_label(data.get('from', ''))} → {status_label(data.get('to', ''))}"
            if data.get("error_code"):
                detail += f" ({data['error_code']})"
        elif event.action == "document.uploaded":
            detail = f"{data.get('mime_type', '')}, {filesizeformat(data.get('size_bytes', 0))}"
        else:
            detail = _describe(data)
        rows.append(
            HistoryRow(
                at=event.created_at,
                label=ACTION_LABELS.get(event.action, humanise(event.action.replace(".", "_"))),
                detail=detail,
                actor=event.actor.get_username() if event.actor is not None else "system",
            )
        )
    return rows


def _describe(data: dict[str, Any]) -> str:
    """An audit event's details in words: ids are left out (the page is already about the
    document), lists joined, timestamps shortened to the minute."""
    parts = []
    for key, value in data.items():
        if value in (None, "", []) or _is_id(value):
            continue
        if isinstance(value, list):
            text = "; ".join(str(v) for v in value)
        elif isinstance(value, str) and _ISO_TIMESTAMP.match(value):
            text = value[:16].replace("T", " ")
        else:
            text = str(value)
        parts.append(f"{humanise(key)}: {text}")
    return " · ".join(parts)


_ISO_TIMESTAMP = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}")


def _is_id(value: object) -> bool:
    if not isinstance(value, str):
        return False
    try:
        uuid.UUID(value)
    except ValueError:
        return False
    return True


def is_in_flight(status: str) -> bool:
    return status in IN_FLIGHT


def status_payload(document: Document, *, url: str) -> dict[str, Any]:
    """What the status endpoint says about one document: enough to update its row without a reload."""
    return {
        "id": str(document.pk),
        "file": document.original_name,
        "status": document.status,
        "status_label": status_label(document.status),
        "in_flight": is_in_flight(document.status),
        "document_type": document.document_type or None,
        "document_type_label": document_type_label(document.document_type),
        "decision": document.decision or None,
        "error": {"code": document.error_code, "message": document.error_message}
        if document.error_code
        else None,
        "url": url,
    }
