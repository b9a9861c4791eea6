"""The CPU reference engine's entry point: page images in, typed fields out.

Everyone else (the CPU Triton models, ``manage.py extract --engine local``, apps/extraction)
calls :func:`read_document`. Today it reads identity documents through their MRZ; a page without
an MRZ is classified ``other`` with no fields. Field values are personal data: nothing here logs
them, and check details name which check digits failed, never their values.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence

from engines import ENGINE_NAME, ENGINE_VERSION
from engines.images import decode_image
from engines.mrz.reader import MrzReading, read_mrz
from engines.types import Check, EngineError, EngineResult, FieldResult

logger = logging.getLogger(__name__)

_NO_MRZ_CONFIDENCE = 0.2  # "other" only means "no MRZ found", which is weak evidence


def read_document(pages: Sequence[bytes], *, document_type_hint: str | None = None) -> EngineResult:
    """Read a document given as encoded PNG/JPEG pages (page 1 first).

    Raises EngineError("unreadable_image" | "image_too_large") for a page that cannot be decoded.
    ``document_type_hint`` is accepted for the contract; the MRZ itself says what the document is.
    """
    if not pages:
        raise EngineError("unreadable_image", "The document has no pages.")
    started = time.perf_counter()
    images = [decode_image(page) for page in pages]
    decode_ms = (time.perf_counter() - started) * 1000

    ocr_ms = parse_ms = 0.0
    for number, image in enumerate(images, start=1):
        reading = read_mrz(image)
        if reading is None:
            continue
        ocr_ms += reading.timings_ms.get("ocr", 0)
        parse_ms += reading.timings_ms.get("parse", 0)
        logger.info(
            "MRZ found on page %d: format %s, %d/%d check digits pass, %d characters repaired",
            number,
            reading.parse.format.name,
            sum(reading.parse.check_digits.values()),
            len(reading.parse.check_digits),
            reading.repair.repair_count,
        )
        return _result_from_mrz(reading, page=number, pages=len(pages), timings=(decode_ms, ocr_ms, parse_ms))

    total_ms = (time.perf_counter() - started) * 1000
    logger.info("No MRZ found on %d page(s)", len(pages))
    return EngineResult(
        document_type="other",
        document_type_confidence=_NO_MRZ_CONFIDENCE,
        pages=len(pages),
        fields={},
        checks=[Check("mrz_found", False, "no machine-readable zone found on any page")],
        engine_name=ENGINE_NAME,
        engine_version=ENGINE_VERSION,
        timings_ms={"decode": round(decode_ms), "ocr": round(total_ms - decode_ms), "parse": 0},
    )


def _result_from_mrz(
    reading: MrzReading, *, page: int, pages: int, timings: tuple[float, float, float]
) -> EngineResult:
    fields = {
        name: FieldResult(
            value=f.value,
            confidence=f.confidence,
            page=page,
            bbox=f.bbox,
            source="mrz",
            valid=f.valid,
        )
        for name, f in reading.fields.items()
    }
    failed = reading.parse.failed_checks
    detail = "" if not failed else "failed: " + ", ".join(failed)
    checks = [
        Check("mrz_found", True, f"{reading.parse.format.name} on page {page}"),
        Check("mrz_check_digits", not failed, detail),
    ]
    decode_ms, ocr_ms, parse_ms = timings
    return EngineResult(
        document_type=reading.parse.document_type,
        document_type_confidence=reading.document_type_confidence,
        pages=pages,
        fields=fields,
        checks=checks,
        engine_name=ENGINE_NAME,
        engine_version=ENGINE_VERSION,
        timings_ms={"decode": round(decode_ms), "ocr": round(ocr_ms), "parse": round(parse_ms)},
    )
