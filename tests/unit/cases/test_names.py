"""The same-person check: names tolerant of order, accents, transliteration, compound surnames,
middle names and initials, and intolerant of another person."""

from __future__ import annotations

import pytest

from apps.cases.checks.names import PersonName, name_score, same_person, words
from apps.cases.checks.types import Policy
from tests.unit.cases.facts import case, doc

POLICY = Policy()


def structured(surname: str, given: str = "") -> PersonName:
    return PersonName(surname=words(surname), given=words(given))


def full(name: str) -> PersonName:
    return PersonName(surname=(), given=words(name))


@pytest.mark.parametrize(
    ("surname", "given", "other"),
    [
        ("MUELLER", "HANS", "HANS MÜLLER"),  # MRZ transliteration ↔ printed umlaut
        ("MULLER", "HANS", "Hans Müller"),  # MRZ without the E: the folded spelling
        ("GROSS", "JUERGEN", "JÜRGEN GROß"),  # ß and Ü
        ("ASANTE", "LUCA", "ASANTE LUCA"),  # surname first
        (
            "VAN HANSEN RAMIREZ",
            "FATIMA PRIYA ZEYNEP",
            "FATIMA RAMIREZ",
        ),  # compound surname, middle names dropped
        ("VAN HANSEN RAMIREZ", "FATIMA PRIYA ZEYNEP", "PRIYA VAN HANSEN"),  # a middle name as the one used
        ("VAN HANSEN", "FATIMA", "FATIMA VANHANSEN"),  # particle glued on one document
        ("SMITH", "JOHN PETER", "J SMITH"),  # an initial
        ("SMITH", "JOHN", "MR JOHN SMITH JR"),  # title and suffix
        ("OBRIEN", "SEAN", "Seán O'Brien"),  # apostrophe and accent
        ("ИВАНОВ", "ИВАН", "IVAN IVANOV"),  # Cyrillic, ICAO transliteration
        ("KOVALENKO", "LUCA", "LUCA KOVALENK0"),  # an OCR slip
        ("GARCIA-LOPEZ", "MARIA", "MARIA GARCIA LOPEZ"),  # hyphenated compound
    ],
)
def test_the_same_person_written_differently_matches(surname: str, given: str, other: str) -> None:
    assert name_score(structured(surname, given), full(other)) >= POLICY.name_match_threshold


@pytest.mark.parametrize(
    ("surname", "given", "other"),
    [
        ("VAN HANSEN RAMIREZ", "FATIMA", "MICHAEL WHITE"),  # another person's bill
        ("ASANTE", "LUCA", "MARIA ASANTE"),  # a relative: the same surname, another given name
        ("SMITH", "JOHN", "JANE SMITH"),
        ("SMITH", "JOHN", "JOHN"),  # a given name alone names nobody
        ("SMITH", "JOHN", "K SMITH"),  # another initial
        ("VAN DEN BERG", "ANNA", "ANNA VAN DEN"),  # the particles alone prove nothing
    ],
)
def test_another_person_does_not_match(surname: str, given: str, other: str) -> None:
    assert name_score(structured(surname, given), full(other)) < POLICY.name_match_threshold


def test_two_full_names_without_a_known_surname_are_compared_word_by_word() -> None:
    assert name_score(full("LÉA SIMON"), full("SIMON LEA")) == 1.0
    assert name_score(full("LÉA SIMON"), full("SIMON")) < POLICY.name_match_threshold


def test_check_passes_with_a_score_and_names_fields_never_values() -> None:
    facts = case(
        doc("passport", 1, surname="MUELLER", given_names="HANS PETER"),
        doc("proof_of_address", 2, full_name="HANS MÜLLER"),
        declared={"full_name": "Hans P. Müller"},
    )
    result = same_person(facts, POLICY)
    assert result.passed and result.score is not None and result.score >= 0.85
    assert "MUELLER" not in result.detail and "HANS" not in result.detail


def test_check_fails_on_another_persons_bill_naming_the_fields() -> None:
    facts = case(
        doc("passport", 1, surname="ASANTE KOVALENKO", given_names="LUCA"),
        doc("proof_of_address", 2, full_name="MICHAEL WHITE"),
    )
    result = same_person(facts, POLICY)
    assert not result.passed
    assert "full_name of proof_of_address (document 2)" in result.detail
    assert "surname and given_names of passport (document 1)" in result.detail
    assert "WHITE" not in result.detail and "ASANTE" not in result.detail


def test_the_policys_tolerance_decides_a_borderline_name() -> None:
    facts = case(
        doc("passport", 1, surname="SMITH", given_names="JOHN"),
        doc("proof_of_address", 2, full_name="J SMITH"),  # scores the initial's 0.9
    )
    assert same_person(facts, Policy(name_match_threshold=0.85)).passed
    assert not same_person(facts, Policy(name_match_threshold=0.95)).passed


def test_a_rejected_documents_name_is_not_compared() -> None:
    facts = case(
        doc("passport", 1, surname="SMITH", given_names="JOHN"),
        doc("proof_of_address", 2, status="rejected", full_name="MICHAEL WHITE"),
    )
    assert same_person(facts, POLICY).passed
