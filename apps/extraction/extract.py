"""Synchronous extraction of files on disk, without the database: what ``manage.py extract`` runs.

The same steps as the worker (prepare → infer → validate/calibrate → decide) on the same code,
so a result printed here is the result the pipeline would store.
"""

from __future__ import annotations

import hashlib
import time
from pathlib import Path
from typing import Any

from django.conf import settings

from apps.documents.filetypes import sniff_mime_type
from apps.extraction.readers import DocumentReader
from apps.extraction.results import FieldView, document_result, resubmission_of
from apps.extraction.services import result_assess
from engines.types import EngineError
from media.capture_quality import CaptureThresholds, assess_images
from media.preprocessing import PageLimits, prepare_pages


def _failed(path: Path, sha256: str, code: str, message: str, timings: dict[str, int]) -> dict[str, Any]:
    return document_result(
        id=None,
        file=path.name,
        sha256=sha256,
        status="failed",
        document_type=None,
        document_type_confidence=None,
        pages=0,
        fields=[],
        checks=[],
        decision=None,
        engine=None,
        timings_ms=timings,
        error={"code": code, "message": message},
    )


def _capture_gate(
    path: Path, sha256: str, pages: list[Any], document_type_hint: str | None, timings: dict[str, int]
) -> dict[str, Any] | None:
    """The result of a capture too poor to read (the worker's prepare step sends it back the
    same way, apps.documents.pipeline), or None to read the pages."""
    captured = [page for page in pages if not page.text_layer][: settings.DOCINTEL_CAPTURE_MAX_PAGES]
    if not settings.DOCINTEL_CAPTURE_GATE or not captured:
        return None
    thresholds = CaptureThresholds.from_settings(settings.DOCINTEL_CAPTURE_THRESHOLDS, document_type_hint)
    try:
        capture = assess_images([p.image for p in captured], thresholds, [p.number for p in captured])
    except ValueError:
        return None
    if capture.passed:
        return None
    checks = [check.to_dict() for check in capture.checks]
    return document_result(
        id=None,
        file=path.name,
        sha256=sha256,
        status="resubmission_requested",
        document_type=None,
        document_type_confidence=None,
        pages=len(pages),
        fields=[],
        checks=checks,
        decision="resubmission_requested",
        engine=None,
        timings_ms=timings,
        error=None,
        resubmission=resubmission_of(checks),
    )


def extract_file(
    *, path: Path, reader: DocumentReader, document_type_hint: str | None = None
) -> dict[str, Any]:
    """One ARCHITECTURE §3.1 result for the file at ``path`` (errors are results too)."""
    timings: dict[str, int] = {}
    try:
        content = path.read_bytes()
    except OSError as exc:
        return _failed(path, "", "unreadable_file", f"cannot read the file ({exc.strerror})", timings)
    sha256 = hashlib.sha256(content).hexdigest()
    mime_type = sniff_mime_type(content[:2048])
    if mime_type is None:
        return _failed(path, sha256, "unsupported_file_type", "unsupported file type", timings)

    started = time.perf_counter()
    limits = PageLimits(
        max_pages=settings.DOCINTEL_MAX_PAGES,
        max_image_pixels=settings.DOCINTEL_MAX_IMAGE_PIXELS,
        max_side=settings.DOCINTEL_PAGE_MAX_SIDE,
    )
    try:
        pages = prepare_pages(content, mime_type, limits)
        timings["prepare"] = int((time.perf_counter() - started) * 1000)
        sent_back = _capture_gate(path, sha256, pages, document_type_hint, timings)
        if sent_back is not None:
            return sent_back
        started = time.perf_counter()
        text_layer = [p.text_layer for p in pages]
        result = reader.read_document(
            [p.image for p in pages],
            document_type_hint=document_type_hint,
            text_layer=text_layer if any(text_layer) else None,
        )
        timings["infer"] = int((time.perf_counter() - started) * 1000)
    except EngineError as exc:
        return _failed(path, sha256, exc.code, exc.message, timings)

    started = time.perf_counter()
    assessment = result_assess(result=result)
    timings["validate"] = int((time.perf_counter() - started) * 1000)
    validated = assessment.result
    return document_result(
        id=None,
        file=path.name,
        sha256=sha256,
        status=assessment.decision.outcome,
        document_type=validated.document_type,
        document_type_confidence=validated.document_type_confidence,
        pages=len(pages),
        fields=[
            FieldView(
                name=name,
                value=f.value,
                confidence=assessment.confidences[name],
                page=f.page,
                bbox=list(f.bbox) if f.bbox is not None else None,
                source=f.source,
                valid=f.valid,
                evidence=list(assessment.evidence.get(name, f.evidence)),
            )
            for name, f in validated.fields.items()
        ],
        checks=[{"name": c.name, "passed": c.passed, "detail": c.detail} for c in validated.checks],
        decision=assessment.decision.outcome,
        engine={"name": validated.engine_name, "version": validated.engine_version},
        timings_ms=timings,
        error=None,
    )
