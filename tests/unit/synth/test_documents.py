"""synth.documents: whole synthetic documents, from random generator to encoded image and truth.

Rendering costs a few tenths of a second a document, so one small batch covering every kind and
profile is generated once for the module and shared by the tests.
"""

from __future__ import annotations

import itertools

import cv2
import numpy as np
import pytest

from engines.mrz.checkdigit import is_valid
from synth import fonts
from synth.documents import KINDS, document_rng, generate_document
from synth.identity import sample_identity
from synth.mrz import TD2, document_type
from tests.unit.synth.mrz_reference import read

LINE_LENGTHS = {"passport": (44, 44), "id_card": (30, 30, 30), "td2": (36, 36)}
CASES = list(itertools.product(KINDS, ["clean", "scan", "photo"]))


@pytest.fixture(scope="module")
def documents():
    return {
        (kind, profile): generate_document(document_rng(11, i), kind=kind, profile=profile)
        for i, (kind, profile) in enumerate(CASES)
    }


@pytest.mark.parametrize(("kind", "profile"), CASES)
def test_generated_mrz_has_valid_check_digits_and_the_right_line_lengths(documents, kind, profile):
    lines = documents[kind, profile].mrz_lines
    assert tuple(len(line) for line in lines) == LINE_LENGTHS[kind]
    _, errors = read(lines)
    assert errors == []


@pytest.mark.parametrize(("kind", "profile"), CASES)
def test_check_digits_recomputed_with_the_engine_agree_position_by_position(documents, kind, profile):
    """Every check digit position of the format verifies with engines.mrz.checkdigit.is_valid."""
    lines = documents[kind, profile].mrz_lines
    if kind == "id_card":
        l1, l2, _ = lines
        long_number = l1[14] == "<"
        if not long_number:
            assert is_valid(l1[5:14], l1[14])
        assert is_valid(l2[0:6], l2[6]) and is_valid(l2[8:14], l2[14])
        assert is_valid(l1[5:30] + l2[0:7] + l2[8:15] + l2[18:29], l2[29])
    else:
        l2 = lines[1]
        end = 43 if kind == "passport" else 35
        assert is_valid(l2[0:9], l2[9]) and is_valid(l2[13:19], l2[19]) and is_valid(l2[21:27], l2[27])
        assert is_valid(l2[0:10] + l2[13:20] + l2[21:end], l2[end])


@pytest.mark.parametrize(("kind", "profile"), CASES)
def test_truth_fields_are_what_the_mrz_encodes(documents, kind, profile):
    doc = documents[kind, profile]
    fields, _ = read(doc.mrz_lines)
    assert doc.truth.fields == fields
    assert list(doc.truth.to_json()["mrz"]) == list(doc.mrz_lines)


@pytest.mark.parametrize(("kind", "profile"), CASES)
def test_image_bytes_decode_and_match_their_extension(documents, kind, profile):
    doc = documents[kind, profile]
    magic = {"png": b"\x89PNG", "jpg": b"\xff\xd8\xff"}[doc.extension]
    assert doc.image.startswith(magic)
    image = cv2.imdecode(np.frombuffer(doc.image, np.uint8), cv2.IMREAD_COLOR)
    assert image is not None and min(image.shape[:2]) >= 400


def test_passport_kind_is_a_passport_and_id_card_kind_an_id_card(documents):
    assert {documents["passport", p].truth.document_type for p in ("clean", "scan", "photo")} == {"passport"}
    assert {documents["id_card", p].truth.document_type for p in ("clean", "scan", "photo")} == {"id_card"}


def test_td2_document_type_follows_its_document_code():
    """GIVEN TD2 documents WHEN the code starts with P THEN passport, otherwise id_card."""
    seen = set()
    for i in range(40):  # composing is enough: the document type depends on the MRZ alone
        data = sample_identity(document_rng(3, i), TD2).mrz
        expected = "passport" if data.document_code.startswith("P") else "id_card"
        assert document_type(data) == expected
        seen.add(expected)
    assert seen == {"passport", "id_card"}


def test_same_seed_gives_the_same_bytes_and_another_seed_does_not():
    first = generate_document(document_rng(42, 3), kind="id_card", profile="photo")
    again = generate_document(document_rng(42, 3), kind="id_card", profile="photo")
    other = generate_document(document_rng(43, 3), kind="id_card", profile="photo")
    assert first.image == again.image and first.truth == again.truth
    assert other.image != first.image


def test_clean_profile_applies_no_degradation_beyond_encoding(documents):
    for kind in KINDS:
        steps = documents[kind, "clean"].truth.meta["degradations"]
        assert all(step.startswith("jpeg:") for step in steps)


def test_photo_and_scan_profiles_record_their_degradations(documents):
    assert any(s.startswith("table:") for s in documents["passport", "photo"].truth.meta["degradations"])
    assert "scanner-bed" in documents["passport", "scan"].truth.meta["degradations"]


def test_mixed_profile_resolves_to_a_concrete_profile():
    doc = generate_document(document_rng(5, 0), kind="td2", profile="mixed")
    assert doc.profile in {"clean", "scan", "photo"} and doc.truth.meta["profile"] == doc.profile


def test_unknown_kind_or_profile_is_rejected():
    with pytest.raises(ValueError, match="kind"):
        generate_document(document_rng(0, 0), kind="visa")
    with pytest.raises(ValueError, match="profile"):
        generate_document(document_rng(0, 0), kind="passport", profile="fax")


@pytest.fixture
def no_installed_fonts(monkeypatch, tmp_path):
    monkeypatch.setattr(fonts, "_ROOT", tmp_path)
    fonts.viz_faces.cache_clear()
    fonts.mrz_fonts.cache_clear()
    yield
    fonts.viz_faces.cache_clear()
    fonts.mrz_fonts.cache_clear()


def test_a_machine_without_font_packages_still_generates_valid_documents(no_installed_fonts):
    """GIVEN no fonts under /usr/share/fonts WHEN generating THEN Pillow's own font is used."""
    assert fonts.mrz_font_choices() == ("<pillow-default>",)
    doc = generate_document(document_rng(8, 0), kind="id_card", profile="clean")
    assert read(doc.mrz_lines)[1] == []
    assert cv2.imdecode(np.frombuffer(doc.image, np.uint8), cv2.IMREAD_COLOR) is not None
