"""Cheap preprocessing (issue 7): a large JPEG is decoded at reduced scale when the page image
needs fewer pixels, and the page comes out at the model's input size either way."""

from __future__ import annotations

import io

import pytest
from PIL import Image, JpegImagePlugin

from media.preprocessing import PageLimits, prepare_pages


def _jpeg(size: tuple[int, int]) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", size, (200, 180, 160)).save(buffer, format="JPEG", quality=90)
    return buffer.getvalue()


@pytest.fixture
def draft_scales(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    """The size each JPEG decode was reduced to by draft (its original size when not reduced)."""
    sizes: list[tuple[int, int]] = []
    original = JpegImagePlugin.JpegImageFile.draft

    def spy(self, mode, size):  # type: ignore[no-untyped-def]
        result = original(self, mode, size)
        sizes.append(self.size)
        return result

    monkeypatch.setattr(JpegImagePlugin.JpegImageFile, "draft", spy)
    return sizes


def test_a_large_jpeg_is_decoded_at_reduced_scale_for_a_small_page(draft_scales) -> None:
    """GIVEN a 4000 x 3000 photo and a 1,000-pixel page WHEN prepared THEN the decoder delivered at
    most half the pixels per side (1/2, 1/4 or 1/8 scale) and the page is exactly 1000 x 750."""
    (page,) = prepare_pages(_jpeg((4000, 3000)), "image/jpeg", PageLimits(max_side=1000))
    assert (page.width, page.height) == (1000, 750)
    assert draft_scales and max(draft_scales[0]) <= 2000
    with Image.open(io.BytesIO(page.image)) as image:
        assert image.format == "JPEG" and image.size == (1000, 750)


def test_a_jpeg_smaller_than_twice_the_page_is_decoded_whole(draft_scales) -> None:
    (page,) = prepare_pages(_jpeg((1500, 1000)), "image/jpeg", PageLimits(max_side=1000))
    assert (page.width, page.height) == (1000, 667)
    assert draft_scales == [(1500, 1000)]


def _scan(size: tuple[int, int] = (1240, 1754)) -> Image.Image:
    """A scanned page: paper, dark text-like bars, a coloured stamp."""
    from PIL import ImageDraw

    image = Image.new("RGB", size, (238, 234, 226))
    draw = ImageDraw.Draw(image)
    for row in range(8, size[1] // 40):
        for column in range(4):
            x = 80 + column * (size[0] - 160) // 4
            draw.rectangle(
                (x, row * 40, x + 180 + (row * 37 + column * 53) % 90, row * 40 + 18), fill=(25, 25, 35)
            )
    draw.ellipse((size[0] - 400, 100, size[0] - 120, 380), outline=(180, 30, 40), width=14)
    return image


def _scanned_pdf(images: list[Image.Image]) -> bytes:
    buffer = io.BytesIO()
    images[0].save(buffer, format="PDF", save_all=True, append_images=images[1:], resolution=150, quality=90)
    return buffer.getvalue()


def _pdfium_page(data: bytes, max_side: int, index: int = 0) -> Image.Image:
    import pypdfium2 as pdfium

    page = pdfium.PdfDocument(data)[index]
    return page.render(scale=max_side / max(page.get_size())).to_pil().convert("RGB")


def _mean_difference(a: Image.Image, b: Image.Image) -> float:
    import numpy as np

    assert a.size == b.size
    return float(np.abs(np.asarray(a, dtype=np.int16) - np.asarray(b.convert(a.mode), dtype=np.int16)).mean())


def _page(data: bytes, max_side: int) -> list[Image.Image]:
    pages = prepare_pages(data, "application/pdf", PageLimits(max_side=max_side, pdf_sandbox=False))
    return [Image.open(io.BytesIO(page.image)).convert("RGB") for page in pages]


def test_a_scanned_pdf_page_is_decoded_at_reduced_scale_and_looks_as_pdfium_draws_it(draft_scales) -> None:
    """GIVEN a two-page 150 dpi scan (each page one JPEG) WHEN prepared at 600 pixels THEN each JPEG
    was decoded at half scale or less, and each page differs from PDFium's rendering by a few grey
    levels on average (resampling at the bars' hard edges), from the other page by far more."""
    data = _scanned_pdf([_scan(), _scan().transpose(Image.Transpose.FLIP_TOP_BOTTOM)])
    pages = _page(data, 600)
    assert [page.size for page in pages] == [(425, 600), (425, 600)]
    assert len(draft_scales) == 2 and all(max(size) <= 1754 // 2 + 1 for size in draft_scales)
    for index, page in enumerate(pages):
        assert _mean_difference(page, _pdfium_page(data, 600, index)) < 5.0
    assert _mean_difference(pages[0], _pdfium_page(data, 600, 1)) > 25.0


def test_a_scan_with_a_decode_array_is_left_to_pdfium(draft_scales) -> None:
    """GIVEN a scanned page whose image dictionary inverts its colours (/Decode [1 0 1 0 1 0]) WHEN
    prepared THEN PDFium draws it (inverted, as any viewer shows it), not the JPEG decoder."""
    import pypdf
    from pypdf.generic import ArrayObject, FloatObject, NameObject

    writer = pypdf.PdfWriter(clone_from=io.BytesIO(_scanned_pdf([_scan()])))
    (image,) = (x.get_object() for x in writer.pages[0]["/Resources"]["/XObject"].values())
    image[NameObject("/Decode")] = ArrayObject([FloatObject(v) for v in (1, 0, 1, 0, 1, 0)])
    buffer = io.BytesIO()
    writer.write(buffer)
    data = buffer.getvalue()
    (page,) = _page(data, 600)
    assert draft_scales == []
    assert _mean_difference(page, _pdfium_page(data, 600)) < 3.0
    assert _mean_difference(page, _page(_scanned_pdf([_scan()]), 600)[0]) > 100


def test_a_scan_with_more_drawn_on_it_is_left_to_pdfium(draft_scales) -> None:
    """GIVEN a scanned page with a second image drawn over it WHEN prepared THEN PDFium draws it."""
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(_scanned_pdf([_scan()]))
    stamp = pdfium.PdfImage.new(pdf)
    stamp.set_bitmap(pdfium.PdfBitmap.from_pil(Image.new("RGB", (50, 50), (0, 0, 255))))
    stamp.set_matrix(pdfium.PdfMatrix().scale(100, 100).translate(100, 100))
    page = pdf[0]
    page.insert_obj(stamp)
    page.gen_content()
    buffer = io.BytesIO()
    pdf.save(buffer)
    data = buffer.getvalue()
    (page,) = _page(data, 600)
    assert draft_scales == []
    assert _mean_difference(page, _pdfium_page(data, 600)) < 3.0
