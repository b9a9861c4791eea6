"""Names one OCR confusion from a common spelling (engines/business/name_spelling.py)."""

from __future__ import annotations

import pytest

from engines.business.name_spelling import (
    CHECK_NAME,
    doubt_uncommon_spellings,
    doubtful_words,
    respelled,
    share_spacing_of_one_name,
)
from engines.types import FieldResult


@pytest.mark.parametrize(
    ("value", "doubted"),
    [
        ("ANA GÓMEZ HEMÁNDEZ", ["HEMÁNDEZ"]),  # rn read as m, by both readers
        ("NGUYÊT CASTILLO", ["NGUYÊT"]),  # the dot below NGUYỆT's E lost
        ("Shabana Siddioui", ["SIDDIOUI"]),  # Q read as O
        ("JOHN VVILLIAMS", ["VVILLIAMS"]),
        ("Hélène Gonzàlez", ["GONZÀLEZ"]),  # an accent, but not the name's
        ("EMMA WILEM DE GROOT", ["WILEM"]),  # the double l read as one
    ],
)
def test_a_misread_common_name_is_doubted(value: str, doubted: list[str]) -> None:
    assert doubtful_words(value) == doubted


@pytest.mark.parametrize(
    "value",
    [
        "ANA GÓMEZ HERNÁNDEZ",
        "NGUYỆT CASTILLO",
        "Hans Weißmüller",
        "GONZALEZ MULLER",  # printed without accents: printed so
        "Kemal DEMİR",  # the Turkish capital of i is no accent
        "Mary O'Brien",
        "Zephyrine Quaxtelbaum",  # unknown, and near no common name: no evidence either way
        "Li Wu",  # too short to judge
    ],
)
def test_a_common_or_unknown_name_is_left_alone(value: str) -> None:
    assert doubtful_words(value) == []


def _field(value: str, *, source: str = "ocr", valid: bool | None = True) -> FieldResult:
    return FieldResult(
        value=value, confidence=0.96, source=source, page=1, bbox=(0.1, 0.1, 0.4, 0.12), valid=valid
    )


def test_a_doubted_name_loses_half_its_confidence_and_its_cross_check() -> None:
    fields = {
        "account_holder": _field("ANA GÓMEZ HEMÁNDEZ"),
        "full_name": _field("ANA GÓMEZ HEMÁNDEZ", source="text_layer"),  # a text layer is exact
        "address_city": _field("MADRID"),
    }
    out, checks = doubt_uncommon_spellings(fields)
    assert out["account_holder"].confidence == pytest.approx(0.48)
    assert out["account_holder"].valid is None
    assert out["full_name"] == fields["full_name"]
    assert out["address_city"] == fields["address_city"]
    assert [(c.name, c.passed) for c in checks] == [(CHECK_NAME, False)]
    assert "account_holder" in checks[0].detail and "HEMÁNDEZ" not in checks[0].detail  # no PII


def test_names_read_well_add_no_check() -> None:
    fields = {"full_name": _field("ANA GÓMEZ HERNÁNDEZ")}
    assert doubt_uncommon_spellings(fields) == (fields, [])


@pytest.mark.parametrize(
    ("value", "plain", "expected"),
    [
        ("LLARIA MARIANI-LOMBARDI", False, "ILARIA MARIANI-LOMBARDI"),  # a sans-serif I read as l
        ("ANA GÓMEZ HEMÁNDEZ", False, "ANA GÓMEZ HERNÁNDEZ"),
        ("AL SIDDIOUI SHARMA", True, "AL SIDDIQUI SHARMA"),  # an MRZ writes no accents
        ("HÊLÈNE LEMAÎTRE", False, "HÉLÈNE LEMAÎTRE"),  # the accents alone in doubt
        ("GONZALEZ MULLER", False, "GONZALEZ MULLER"),  # printed without accents: printed so
        ("Shabana Siddioui", False, "Shabana Siddioui"),  # not upper case: left as read
        ("ZEPHYRINE QUAXTELBAUM", False, "ZEPHYRINE QUAXTELBAUM"),
    ],
)
def test_a_misread_word_with_one_likely_name_is_respelled(value: str, plain: bool, expected: str) -> None:
    assert respelled(value, plain=plain) == expected


def test_a_respelled_name_stays_doubted() -> None:
    out, checks = doubt_uncommon_spellings({"full_name": _field("LLARIA ROSSI")})
    assert out["full_name"].value == "ILARIA ROSSI"
    assert out["full_name"].confidence == pytest.approx(0.48)
    assert [(c.name, c.passed) for c in checks] == [(CHECK_NAME, False)]


@pytest.mark.parametrize(
    ("addressee", "holder", "parted", "doubted"),
    [
        ("J EAN-LUC GAUTHIER", "JEAN-LUC GAUTHIER", "JEAN-LUC GAUTHIER", False),  # an initial split off
        ("ASMITH", "A SMITH", "A SMITH", False),  # an initial glued on
        ("MARIA KOWALSKA", "MARIA KOWALSKA", "MARIA KOWALSKA", False),
        ("ZYX QWV", "ZY XQWV", None, True),  # no common name settles it
    ],
)
def test_one_persons_name_read_with_two_partings_takes_the_one_of_common_names(
    addressee: str, holder: str, parted: str | None, doubted: bool
) -> None:
    """GIVEN a statement whose addressee and account holder hold the same letters, parted alike
    or not (the second reader split "JEAN" into "J EAN" in one of them: approved so once)
    THEN both take the parting whose words more common names are; where neither has more, both
    keep their readings at half their raw confidence."""
    fields = {
        "full_name": FieldResult(addressee, 0.8, 1, (0.1, 0.1, 0.3, 0.12), "ocr", True),
        "account_holder": FieldResult(holder, 0.8, 1, (0.1, 0.2, 0.3, 0.22), "ocr", True),
    }
    out = share_spacing_of_one_name(fields)
    if parted is not None:
        assert (out["full_name"].value, out["account_holder"].value) == (parted, parted)
    else:
        assert (out["full_name"].value, out["account_holder"].value) == (addressee, holder)
    assert (
        [out[n].confidence for n in ("full_name", "account_holder")] == [0.4, 0.4] if doubted else [0.8, 0.8]
    )


@pytest.mark.parametrize(
    ("value", "doubted", "shown"),
    [
        ("FRANÇOIS SOPHIE LEMAITRE", ["LEMAITRE"], "FRANÇOIS SOPHIE LEMAÎTRE"),  # its Ç shows accents printed
        ("FRANCOIS SOPHIE LEMAITRE", [], "FRANCOIS SOPHIE LEMAITRE"),  # printed without any
    ],
)
def test_a_word_without_the_accents_its_names_other_words_show_is_doubted(
    value: str, doubted: list[str], shown: str
) -> None:
    """GIVEN an addressee read with FRANÇOIS's cedilla but LEMAÎTRE without its circumflex (both
    readers lost it on a photo, and the name was approved)
    THEN LEMAITRE is doubted and shown as LEMAÎTRE, its one common spelling; a name read without
    any accent was printed so and is left alone."""
    assert doubtful_words(value) == doubted
    assert respelled(value) == shown
