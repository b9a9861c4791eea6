"""Turning uploads into page images: PDFs, multi-page TIFFs, EXIF rotation, limits, corrupt files."""

import io

import pytest
from PIL import Image

from engines.types import EngineError
from media.preprocessing import PageLimits, prepare_pages


def _image(size=(300, 200), color="white", fmt="PNG", **save_args) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", size, color).save(buffer, format=fmt, **save_args)
    return buffer.getvalue()


def _pdf(pages: int) -> bytes:
    buffer = io.BytesIO()
    frames = [Image.new("RGB", (595, 842), "white") for _ in range(pages)]
    frames[0].save(buffer, format="PDF", save_all=True, append_images=frames[1:])
    return buffer.getvalue()


def test_an_image_becomes_one_jpeg_page():
    (page,) = prepare_pages(_image(fmt="JPEG"), "image/jpeg")
    assert page.number == 1 and (page.width, page.height) == (300, 200)
    assert page.image.startswith(b"\xff\xd8\xff")  # JPEG (media.pdf_render.encode_page)


def test_every_pdf_page_is_rendered_in_order():
    pages = prepare_pages(_pdf(3), "application/pdf", PageLimits(max_side=800))
    assert [p.number for p in pages] == [1, 2, 3]
    assert all(max(p.width, p.height) == 800 for p in pages)


def test_every_frame_of_a_multipage_tiff_is_a_page():
    buffer = io.BytesIO()
    frames = [Image.new("RGB", (100, 80), c) for c in ("white", "black")]
    frames[0].save(buffer, format="TIFF", save_all=True, append_images=frames[1:])
    assert len(prepare_pages(buffer.getvalue(), "image/tiff")) == 2


def test_exif_orientation_is_applied():
    exif = Image.Exif()
    exif[0x0112] = 6  # rotated 90° clockwise: the upright image is taller than wide
    (page,) = prepare_pages(_image(size=(300, 200), fmt="JPEG", exif=exif.tobytes()), "image/jpeg")
    assert (page.width, page.height) == (200, 300)


def test_large_images_are_scaled_down_to_the_page_limit():
    (page,) = prepare_pages(_image(size=(4000, 1000)), "image/png", PageLimits(max_side=2000))
    assert (page.width, page.height) == (2000, 500)


@pytest.mark.parametrize(
    ("data", "mime", "code"),
    [
        (b"", "image/png", "empty_file"),
        (b"\x89PNG\r\n\x1a\n" + b"\x00" * 40, "image/png", "unreadable_image"),
        (b"%PDF-1.4\n garbage", "application/pdf", "corrupt_pdf"),
    ],
)
def test_broken_files_raise_an_operator_readable_code(data, mime, code):
    with pytest.raises(EngineError) as caught:
        prepare_pages(data, mime)
    assert caught.value.code == code


def test_too_many_pages_is_refused():
    with pytest.raises(EngineError) as caught:
        prepare_pages(_pdf(3), "application/pdf", PageLimits(max_pages=2))
    assert caught.value.code == "too_many_pages"


def test_too_many_pixels_is_refused():
    with pytest.raises(EngineError) as caught:
        prepare_pages(_image(size=(2000, 2000)), "image/png", PageLimits(max_image_pixels=1_000_000))
    assert caught.value.code == "image_too_large"


def test_an_upright_jpeg_that_fits_is_kept_as_uploaded():
    data = _image(fmt="JPEG", quality=80)
    (page,) = prepare_pages(data, "image/jpeg")
    assert page.image == data


def test_a_jpeg_that_must_turn_or_shrink_is_re_encoded():
    exif = Image.Exif()
    exif[0x0112] = 3  # upside down
    turned = _image(fmt="JPEG", exif=exif.tobytes())
    large = _image(size=(3000, 200), fmt="JPEG")
    assert prepare_pages(turned, "image/jpeg")[0].image != turned
    assert prepare_pages(large, "image/jpeg", PageLimits(max_side=1000))[0].image != large


def test_a_truncated_jpeg_is_unreadable_even_when_it_would_be_kept():
    data = _image(size=(300, 200), color="red", fmt="JPEG")
    with pytest.raises(EngineError) as caught:
        prepare_pages(data[: len(data) // 2], "image/jpeg")
    assert caught.value.code == "unreadable_image"
