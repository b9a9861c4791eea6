"""Cities as read checked against known cities: respaced where only spaces differ, doubted where
one OCR confusion away (engines.business.city_spelling)."""

from __future__ import annotations

import pytest

from engines.business.city_spelling import CHECK_NAME, mend_city_spellings
from engines.types import FieldResult


def _city(value: str, *, source: str = "ocr", valid: bool | None = True) -> dict[str, FieldResult]:
    return {"address_city": FieldResult(value, 0.99, 1, (0.1, 0.2, 0.3, 0.22), source, valid)}


@pytest.mark.parametrize(
    ("read", "city"),
    [("FREIBU RG IM BREISGAU", "FREIBURG IM BREISGAU"), ("SANFRANCISCO", "SAN FRANCISCO")],
)
def test_a_known_city_read_with_its_spaces_wrong_takes_the_citys_spaces(read: str, city: str) -> None:
    """GIVEN a city both readers spelled right but one spaced inside a word (a wide "R")
    THEN it takes the known city's spaces, its confidence and checks untouched."""
    fields, checks = mend_city_spellings(_city(read))
    assert fields["address_city"].value == city
    assert fields["address_city"].confidence == 0.99
    assert checks == []


@pytest.mark.parametrize(
    ("read", "city"),
    [("NÜMBERG", "NÜRNBERG"), ("NJMEGEN", "NIJMEGEN"), ("OXF0RD", "OXFORD")],
)
def test_a_city_one_confusion_from_a_known_city_is_respelled_and_doubted(read: str, city: str) -> None:
    """GIVEN a city read with "rn" as "m", a letter lost or a letter read as a digit (once
    approved straight through at 0.999: both readers agreed)
    THEN it is respelled to the known city, its confidence halved, and a check fails."""
    fields, checks = mend_city_spellings(_city(read))
    f = fields["address_city"]
    assert (f.value, f.confidence, f.valid) == (city, 0.495, None)
    assert [(c.name, c.passed) for c in checks] == [(CHECK_NAME, False)]
    assert read not in checks[0].detail  # check details name fields, never values


@pytest.mark.parametrize("read", ["NÜRNBERG", "SPRINGFIELD", "SMALLVILLE", "HALLE", "ULN"])
def test_a_known_city_or_an_unknown_town_near_none_is_left_alone(read: str) -> None:
    fields, checks = mend_city_spellings(_city(read))
    assert fields["address_city"].value == read
    assert checks == []


def test_a_text_layers_city_is_exact_and_never_judged() -> None:
    fields, checks = mend_city_spellings(_city("NÜMBERG", source="text_layer"))
    assert fields["address_city"].value == "NÜMBERG"
    assert checks == []
