"""Accents both OCR readers lose on words that have only one spelling (engines/business/accents.py)."""

from __future__ import annotations

import pytest

from engines.business.accents import (
    restore_customary_accents,
    share_accents_of_one_name,
    with_customary_accents,
)
from engines.types import FieldResult


@pytest.mark.parametrize(
    ("read", "respelled"),
    [
        ("BACKEREI & KONDITOREI HOFMANN", "BÄCKEREI & KONDITOREI HOFMANN"),
        ("PANADERIA LOPEZ", "PANADERÍA LOPEZ"),
        ("MUNCHEN", "MÜNCHEN"),
        ("BÄCKEREI MÜLLER", "BÄCKEREI MÜLLER"),  # already accented
        ("CAFE ROMA", "CAFE ROMA"),  # English writes it so
        ("BACKEREIEN", "BACKEREIEN"),  # whole words only
        ("MULLER", "MULLER"),  # a surname too: never respelled
        ("SAINT-ÈTIENNE", "SAINT-ÉTIENNE"),  # a grave French cannot write before "TI"
        ("ÈCOLE DES ARTS", "ÉCOLE DES ARTS"),
        ("CAFÈ FJORDLINE", "CAFÉ FJORDLINE"),  # no language of ours writes "CAFÈ"
        ("CAFFÈ ROMA", "CAFFÈ ROMA"),
        ("ÈRE NOUVELLE", "ÈRE NOUVELLE"),  # before a mute e the grave is French
        ("RUE DE LA FIÈVRE", "RUE DE LA FIÈVRE"),  # inside a word it is left alone
    ],
)
def test_only_words_with_one_accented_spelling_are_respelled(read: str, respelled: str) -> None:
    assert with_customary_accents(read) == respelled


def test_ocr_business_names_get_their_accents_and_text_layers_and_people_do_not() -> None:
    """GIVEN a merchant both readers read "BACKEREI", a statement's holder and a text layer's vendor
    WHEN the fields' accents are restored
    THEN only the OCR'd business name changes, and it keeps its confidence and cross-check."""
    fields = {
        "merchant_name": FieldResult("BACKEREI HOFMANN", 0.53, 1, None, "ocr", True),
        "full_name": FieldResult("BACKEREI HOFMANN", 0.53, 1, None, "ocr", True),
        "vendor_name": FieldResult("BACKEREI HOFMANN", 0.99, 1, None, "text_layer", None),
    }
    restored = restore_customary_accents(fields)
    assert restored["merchant_name"] == FieldResult("BÄCKEREI HOFMANN", 0.53, 1, None, "ocr", True)
    assert restored["full_name"] == fields["full_name"]
    assert restored["vendor_name"] == fields["vendor_name"]


def test_one_persons_name_read_twice_keeps_the_accents_either_reading_saw() -> None:
    """GIVEN a statement whose addressee reads PRIYA RAMÍREZ and whose holder PRIYA RAMIREZ
    WHEN the fields are reconciled
    THEN both are PRIYA RAMÍREZ; a different name, and a text layer's value, stay as read."""
    fields = {
        "full_name": FieldResult("PRIYA RAMÍREZ", 0.77, 1, None, "ocr", True),
        "account_holder": FieldResult("PRIYA RAMIREZ", 0.83, 1, None, "ocr", True),
        "customer_name": FieldResult("PRIYA RAMOS", 0.8, 1, None, "ocr", True),
    }
    shared = share_accents_of_one_name(fields)
    assert shared["account_holder"] == FieldResult("PRIYA RAMÍREZ", 0.83, 1, None, "ocr", True)
    assert shared["full_name"] == fields["full_name"]
    assert shared["customer_name"] == fields["customer_name"]
    layer = {**fields, "account_holder": FieldResult("PRIYA RAMIREZ", 0.99, 1, None, "text_layer", None)}
    assert share_accents_of_one_name(layer)["account_holder"].value == "PRIYA RAMIREZ"
