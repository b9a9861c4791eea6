"""The MRZ's country codes: ISO 3166-1 alpha-3 from pycountry plus ICAO 9303's own codes
(engines.mrz.countries)."""

from __future__ import annotations

import pytest

from engines.mrz.countries import ICAO_ONLY, ISO_ALPHA3, KNOWN_CODES, is_known_code


@pytest.mark.parametrize(
    "field", ["D<<", "GBD", "GBN", "GBO", "GBP", "GBS", "UNO", "UNA", "UNK", "EUE", "RKS"]
)
def test_icao_codes_beyond_iso_3166_stay_known(field: str) -> None:
    """GIVEN a code ICAO 9303 adds to ISO 3166 (Germany's D, British nationality categories, the
    UN, the EU, Kosovo) THEN it is known, though no ISO database holds it."""
    assert is_known_code(field)


@pytest.mark.parametrize("field", ["XXA", "XXB", "XXC", "XXX", "UTO"])
def test_stateless_refugee_unspecified_and_specimen_codes_are_known(field: str) -> None:
    assert is_known_code(field)


@pytest.mark.parametrize("field", ["QAT", "DEU", "HRV", "BRA", "SSD", "BES", "CUW", "SXM"])
def test_iso_codes_from_pycountry_are_known(field: str) -> None:
    """GIVEN ISO 3166-1 alpha-3 codes, among them states and territories coded since 2010 (South
    Sudan, the Caribbean Netherlands, Curaçao, Sint Maarten) THEN they are known."""
    assert field in ISO_ALPHA3
    assert is_known_code(field)


@pytest.mark.parametrize("field", ["OAT", "HND0", "D<E", "DD<", "YUG", "ANT", "ZZZ", "<<<"])
def test_misreadings_withdrawn_and_malformed_codes_are_not_known(field: str) -> None:
    """GIVEN an OCR misreading ('OAT' for QAT), a code ISO withdrew (Yugoslavia, the Netherlands
    Antilles) or a filler in the middle of the field THEN it is not known."""
    assert not is_known_code(field)


def test_the_iso_set_is_the_whole_of_iso_3166_and_apart_from_icaos() -> None:
    """249 alpha-3 codes (ISO 3166-1 as of 2024), none of them one of ICAO's own."""
    assert len(ISO_ALPHA3) >= 249
    assert not ISO_ALPHA3 & ICAO_ONLY
    assert KNOWN_CODES == ISO_ALPHA3 | ICAO_ONLY
