"""The document result of ARCHITECTURE §3.1, shared by the API, the CLI and webhooks."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from media.capture_quality import applicant_message


@dataclass(frozen=True)
class FieldView:
    name: str
    value: str | None
    confidence: float | None
    page: int
    bbox: list[float] | None
    source: str
    valid: bool | None
    title: str | None = None  # a tenant's own type's field: its title (apps.doctypes)
    # what supports the value besides its score (engines/spec/evidence.toml kinds): a field with
    # none is never auto-approved, so integrators and reviewers see why it was not
    evidence: list[str] = field(default_factory=list)


def document_result(
    *,
    id: str | None,
    file: str,
    sha256: str,
    status: str,
    document_type: str | None,
    document_type_confidence: float | None,
    pages: int,
    fields: list[FieldView],
    checks: list[dict[str, Any]],
    decision: str | None,
    engine: dict[str, str] | None,
    timings_ms: dict[str, int],
    error: dict[str, str] | None,
    resubmission: dict[str, Any] | None = None,
    document_type_version: int | None = None,
    waiting: dict[str, str] | None = None,
) -> dict[str, Any]:
    """``resubmission``: the reasons and the applicant's sentence of a document sent back for a
    better capture (decision ``resubmission_requested``), else None. ``waiting``: what a document
    still processing waits on, and since when (an outage: apps.documents.unavailability)."""
    return {
        "id": id,
        "file": file,
        "sha256": sha256,
        "status": status,
        "document_type": document_type or None,
        "document_type_confidence": document_type_confidence,
        "pages": pages,
        "fields": {
            f.name: {
                "value": f.value,
                "confidence": f.confidence,
                "page": f.page,
                "bbox": [round(v, 4) for v in f.bbox] if f.bbox is not None else None,
                "source": f.source,
                "valid": f.valid,
                "evidence": list(f.evidence),
                **({"title": f.title} if f.title is not None else {}),
            }
            for f in fields
        },
        "checks": [{"name": c["name"], "passed": c["passed"], "detail": c.get("detail", "")} for c in checks],
        "decision": decision or None,
        "engine": engine,
        "timings_ms": timings_ms,
        "error": error,
        "resubmission": resubmission,
        # a tenant's own type: the version of its schema the document was read with
        **({"document_type_version": document_type_version} if document_type_version is not None else {}),
        # still processing, waiting out an outage (Triton, the model engine, a key not loaded yet)
        **({"waiting": waiting} if waiting is not None else {}),
    }


def resubmission_of(checks: list[dict[str, Any]]) -> dict[str, Any]:
    """The machine-readable reasons (``blurred``, ``glare``, ``cropped``, ``low_resolution``,
    ``too_dark``) of the failed capture checks, and the sentence for the applicant."""
    reasons = [c["reason"] for c in checks if c.get("kind") == "capture" and not c["passed"]]
    return {"reasons": reasons, "message": applicant_message(reasons)}
