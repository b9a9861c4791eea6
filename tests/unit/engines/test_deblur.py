"""Motion blur of shaken photos (engines/deblur.py): found, measured and undone, and read_document
reading a page that is unreadable as photographed."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from mrz_pages import blank_page, mrz_font, render_page

from engines.deblur import (
    MAX_SMEARED_ANISOTROPY,
    MotionBlur,
    _cepstrum_near_origin,
    _dip_along,
    _weakest_edge_direction,
    deblurred,
    motion_blur_of,
)
from engines.mrz.reader import read_mrz
from engines.pipeline import read_document

TD3 = ("P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO7408122F1204159ZE184226B<<<<<10")


def _decoded(data: bytes) -> np.ndarray:
    return cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)


def _shaken(page: np.ndarray, length: int, degrees: float) -> np.ndarray:
    """``page`` smeared along a line, as a camera moving during the exposure smears it, plus
    sensor noise."""
    size = length + 3 - length % 2
    line = np.zeros((size, size), np.float32)
    line[size // 2, size // 2 - length // 2 : size // 2 - length // 2 + length] = 1.0
    rotation = cv2.getRotationMatrix2D((size // 2, size // 2), degrees, 1.0)
    kernel = cv2.warpAffine(line, rotation, (size, size))
    smeared = cv2.filter2D(page.astype(np.float32), -1, kernel / kernel.sum())
    noise = np.random.default_rng(7).normal(0, 3, page.shape)
    return np.clip(smeared + noise, 0, 255).astype(np.uint8)


@pytest.mark.parametrize(("length", "degrees"), [(9, 0), (13, 30), (17, 120), (21, 165)])
def test_the_smear_is_measured_to_a_pixel_and_a_few_degrees(length: int, degrees: float) -> None:
    blur = motion_blur_of(_shaken(_decoded(blank_page()), length, degrees))
    assert blur is not None
    assert abs(blur.length - length) <= 1.5
    assert min(abs(blur.degrees - degrees), 180 - abs(blur.degrees - degrees)) <= 6


@pytest.mark.parametrize(("length", "degrees"), [(9, 165), (13, 76), (19, 100)])
def test_the_weakest_edges_tell_the_direction_and_the_cepstrum_the_length_along_it(
    length: int, degrees: float
) -> None:
    """The fallback for photos whose cepstrum's deepest point is the page's own texture (seed
    90's shaken bill, whose table's grain won): the direction where edges are weakest, then the
    cepstrum's dip along that direction only."""
    gray = cv2.cvtColor(_shaken(_decoded(blank_page()), length, degrees), cv2.COLOR_BGR2GRAY)
    crop = gray[:1024, :1024]
    found, anisotropy = _weakest_edge_direction(crop)
    assert min(abs(found - degrees), 180 - abs(found - degrees)) <= 6
    assert anisotropy <= MAX_SMEARED_ANISOTROPY
    assert abs(_dip_along(_cepstrum_near_origin(crop), found) - length) <= 1.5


def test_a_sharp_page_has_no_direction_of_weak_edges() -> None:
    gray = cv2.cvtColor(_decoded(blank_page()), cv2.COLOR_BGR2GRAY)
    assert _weakest_edge_direction(gray[:1024, :1024])[1] > MAX_SMEARED_ANISOTROPY


@pytest.mark.parametrize("length", [0, 3])
def test_a_sharp_or_slightly_smeared_page_is_left_alone(length: int) -> None:
    page = _decoded(blank_page())
    assert motion_blur_of(page if length == 0 else _shaken(page, length, 40)) is None


def test_undoing_the_smear_brings_the_page_back_towards_the_original() -> None:
    page = _decoded(blank_page())
    shaken = _shaken(page, 13, 30)
    restored = deblurred(shaken, MotionBlur(13, 30))
    assert restored.shape == page.shape and restored.dtype == np.uint8

    def error(image: np.ndarray) -> float:
        return float(np.mean((image.astype(np.float32) - page.astype(np.float32)) ** 2))

    assert error(restored) < error(shaken) / 2


@pytest.mark.skipif(mrz_font() is None, reason="no monospaced font installed to draw an MRZ")
def test_a_shaken_passport_photo_unreadable_as_taken_is_read_whole() -> None:
    shaken = _shaken(_decoded(render_page(TD3)), 17, 120)
    assert read_mrz(shaken) is None  # as photographed, no MRZ can be found
    _, encoded = cv2.imencode(".jpg", shaken, [cv2.IMWRITE_JPEG_QUALITY, 90])

    result = read_document([encoded.tobytes()])

    assert result.document_type == "passport"
    values = {name: field.value for name, field in result.fields.items()}
    assert values["surname"] == "ERIKSSON" and values["given_names"] == "ANNA MARIA"
    assert values["document_number"] == "L898902C3" and values["date_of_birth"] == "1974-08-12"
    assert any(c.name == "motion_blur_corrected" and c.passed for c in result.checks)
    assert result.timings_ms["deblur"] > 0


def test_a_sharp_page_is_read_once_without_a_deblurring_check() -> None:
    result = read_document([blank_page()])
    assert not any(c.name == "motion_blur_corrected" for c in result.checks)
