"""Approximate phrase search (engines/approximate.py): OCR's one-letter misreadings of a cue."""

from __future__ import annotations

import pytest

from engines.approximate import occurs_approximately


@pytest.mark.parametrize(
    ("phrase", "text"),
    [
        ("numerodefacture", "brghtlineeurlnumerodetacture2022-0010"),  # substitution
        ("monthlyplan", "deafhslinetoialmontilyplan68.35"),  # substitution in the middle
        ("totalamountdue", "orioncounciltotalaountduegbp3791.61"),  # deletion
        ("conditionsdepaiement", "conditionsdepalement:30jours"),  # two edits in a long phrase
        ("accountnumber", "aecountnumber"),  # at the very start of the text
        ("meterreading", "xxxmeterreadinng"),  # insertion at the very end
    ],
)
def test_a_phrase_misread_by_a_letter_is_found(phrase: str, text: str) -> None:
    assert occurs_approximately(phrase, text, 2 if len(phrase) >= 16 else 1)


@pytest.mark.parametrize(
    ("phrase", "text", "edits"),
    [
        ("numerodefacture", "numerodetactura", 1),  # two substitutions, one allowed
        ("monthlyplan", "monthlychargeplan", 1),  # its words far apart
        ("accountnumber", "customernumber", 1),
        ("invoicedate", "", 1),
    ],
)
def test_a_phrase_further_away_is_not_found(phrase: str, text: str, edits: int) -> None:
    assert not occurs_approximately(phrase, text, edits)


def test_no_edits_allowed_is_exact_search() -> None:
    assert occurs_approximately("invoice", "taxinvoice#12", 0)
    assert not occurs_approximately("invoice", "taxinvoise#12", 0)
