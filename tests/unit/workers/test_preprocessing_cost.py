"""Cheap preprocessing (issue 7): a large JPEG is decoded at reduced scale when the page image
needs fewer pixels, and the page comes out at the model's input size either way."""

from __future__ import annotations

import io

import pytest
from PIL import Image, JpegImagePlugin

from workers.preprocessing import PageLimits, prepare_pages


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
