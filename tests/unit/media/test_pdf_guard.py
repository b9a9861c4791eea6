"""The checks that run before PDFium sees an uploaded PDF: decompression bombs and deep nesting."""

import io
import zlib

import pytest
from PIL import Image

from engines.types import EngineError
from media.pdf_guard import pdf_nesting_check, pdf_streams_check
from tests.hostile.pdfbuild import one_page_pdf, stream

MB = 1024 * 1024


def _flate_spaces(megabytes: int) -> bytes:
    return zlib.compress(b" " * (megabytes * MB), 9)


def _check(data: bytes, *, stream_mb: int = 8, total_mb: int = 32) -> None:
    pdf_streams_check(data, max_stream_bytes=stream_mb * MB, max_decoded_bytes=total_mb * MB)


def test_an_ordinary_pdf_with_a_flate_image_passes():
    buffer = io.BytesIO()
    Image.effect_noise((800, 600), 40).convert("RGB").save(buffer, format="PDF")
    _check(buffer.getvalue())
    _check(one_page_pdf())


def test_a_stream_inflating_past_the_limit_is_a_decompression_bomb():
    data = b"%PDF-1.7\n1 0 obj\n" + stream(_flate_spaces(9), b"/Filter /FlateDecode ") + b"\nendobj\n"
    with pytest.raises(EngineError) as caught:
        _check(data)
    assert caught.value.code == "pdf_decompression_bomb"
    _check(data, stream_mb=10)  # the same stream under a larger limit is fine


def test_a_chain_of_flate_filters_is_followed_to_its_last_stage():
    twice = zlib.compress(_flate_spaces(9), 9)  # about 1 KB on disk
    data = b"%PDF-1.7\n1 0 obj\n" + stream(twice, b"/Filter [/FlateDecode /FlateDecode] ") + b"\nendobj\n"
    with pytest.raises(EngineError) as caught:
        _check(data)
    assert caught.value.code == "pdf_decompression_bomb"


def test_many_streams_under_the_stream_limit_still_count_towards_the_total():
    one = stream(_flate_spaces(6), b"/Filter /FlateDecode ")
    data = b"%PDF-1.7\n" + b"".join(b"%d 0 obj\n" % i + one + b"\nendobj\n" for i in range(1, 7))
    _check(data, total_mb=40)
    with pytest.raises(EngineError):
        _check(data, total_mb=30)


def test_a_broken_zlib_stream_is_counted_as_far_as_it_inflates():
    broken = _flate_spaces(9)[:-200] + b"\x00" * 200
    data = b"%PDF-1.7\n1 0 obj\n" + stream(broken, b"/Filter /FlateDecode ") + b"\nendobj\n"
    with pytest.raises(EngineError):
        _check(data)


@pytest.mark.parametrize("nest", [b"[" * 300 + b"]" * 300, b"<< /A " * 300 + b">>" * 300])
def test_objects_nested_hundreds_deep_are_refused(nest):
    with pytest.raises(EngineError) as caught:
        pdf_nesting_check(one_page_pdf(catalog_extra=b"/X " + nest + b" "))
    assert caught.value.code == "pdf_too_deeply_nested"


def test_ordinary_nesting_passes():
    pdf_nesting_check(one_page_pdf(catalog_extra=b"/X [[[1]] << /A << /B [2] >> >>] "))
