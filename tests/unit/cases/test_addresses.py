"""The address check: normalised, postcode and street number must agree, flat numbers handled."""

from __future__ import annotations

import pytest

from apps.cases.checks.addresses import address_differences, address_matches, parse_address
from apps.cases.checks.types import Policy
from tests.unit.cases.facts import case, doc

POLICY = Policy()


def address(street: str, postcode: str) -> dict[str, str]:
    return {"address_street": street, "address_postal_code": postcode}


@pytest.mark.parametrize(
    ("a", "b"),
    [
        (
            address("39 PARK TERRACE", "SE7 3YG"),
            address("39 Park Tce.", "se73yg"),
        ),  # abbreviation, case, spaces
        (
            address("FLAT 3, 39 PARK TERRACE", "SE7 3YG"),
            address("39 PARK TERRACE", "SE7 3YG"),
        ),  # flat on one side
        (
            address("3/39 PARK TERRACE", "SE7 3YG"),
            address("Flat 3 39 Park Terrace", "SE7 3YG"),
        ),  # 3/39 is flat 3
        (address("APT 4B 7747 COLLEGE WAY", "T6L 9C7"), address("7747 COLLEGE WAY #4B", "T6L9C7")),
        (address("156 TER ALLÉE VOLTAIRE", "34000"), address("156 TER ALLEE VOLTAIRE", "34000")),  # accents
        (address("12 MAIN STREET", "90210-1234"), address("12 MAIN ST", "90210")),  # ZIP+4
        (
            address("HAUPTSTRASSE 5", "80331"),
            address("Hauptstr. 5", "80331"),
        ),  # number after the street, glued type
        (address("HAUPTSTRASSE 5", "80331"), address("HAUPT STRASSE 5", "80331")),
        (address("12 1ST AVENUE", "10001"), address("12 1ST AVE", "10001")),
    ],
)
def test_the_same_address_written_differently_matches(a: dict[str, str], b: dict[str, str]) -> None:
    parsed_a, parsed_b = parse_address(a), parse_address(b)
    assert parsed_a is not None and parsed_b is not None
    assert address_differences(parsed_a, parsed_b) == []


@pytest.mark.parametrize(
    ("a", "b", "difference"),
    [
        (address("39 PARK TERRACE", "SE7 3YG"), address("39 PARK TERRACE", "SE7 3YH"), "address_postal_code"),
        (address("39 PARK TERRACE", "SE7 3YG"), address("93 PARK TERRACE", "SE7 3YG"), "street number"),
        (
            address("FLAT 3, 39 PARK TERRACE", "SE7 3YG"),
            address("FLAT 4, 39 PARK TERRACE", "SE7 3YG"),
            "flat number",
        ),
        (address("3/39 PARK TERRACE", "SE7 3YG"), address("APT 5 39 PARK TERRACE", "SE7 3YG"), "flat number"),
        (address("39 PARK TERRACE", "SE7 3YG"), address("39 HIGH STREET", "SE7 3YG"), "address_street"),
        (address("12 MAIN ST", "90210"), address("12 MAIN ST", "90211-1234"), "address_postal_code"),
        (address("MAIN ST", "90210"), address("MAIN ST", "90210"), "street number"),  # no number to agree on
    ],
)
def test_different_addresses_differ_in_the_named_part(
    a: dict[str, str], b: dict[str, str], difference: str
) -> None:
    parsed_a, parsed_b = parse_address(a), parse_address(b)
    assert parsed_a is not None and parsed_b is not None
    assert difference in address_differences(parsed_a, parsed_b)


def test_proof_of_address_matching_the_licence_passes() -> None:
    facts = case(
        doc("driver_license", 1, **address("7747 COLLEGE WAY", "T6L 9C7")),
        doc("proof_of_address", 2, **address("FLAT 2, 7747 College Way", "T6L9C7")),
    )
    assert address_matches(facts, POLICY).passed


def test_proof_of_address_matching_the_declared_address_passes_though_the_licence_differs() -> None:
    facts = case(
        doc("driver_license", 1, **address("1 OLD ROAD", "T6L 9C7")),
        doc("proof_of_address", 2, **address("39 PARK TERRACE", "SE7 3YG")),
        declared=address("39 Park Terrace", "SE7 3YG"),
    )
    assert address_matches(facts, POLICY).passed


def test_another_address_fails_naming_parts_not_values() -> None:
    facts = case(
        doc("driver_license", 1, **address("7747 COLLEGE WAY", "T6L 9C7")),
        doc("proof_of_address", 2, **address("39 PARK TERRACE", "SE7 3YG")),
    )
    result = address_matches(facts, POLICY)
    assert not result.passed
    assert "proof_of_address (document 2) differs from driver_license (document 1)" in result.detail
    assert (
        "address_postal_code" in result.detail and "PARK" not in result.detail and "SE7" not in result.detail
    )


def test_nothing_to_compare_passes() -> None:
    assert address_matches(
        case(doc("proof_of_address", 1, **address("39 PARK TERRACE", "SE7 3YG"))), POLICY
    ).passed
