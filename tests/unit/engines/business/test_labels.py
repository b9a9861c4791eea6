"""Label matching (engines/business/labels.py): labels OCR glued to their neighbours, and titles
that are never names.
"""

from __future__ import annotations

import pytest

from engines.business.labels import is_title
from engines.layout import Line


def test_a_tax_abbreviation_glued_to_the_word_before_it_is_still_a_label() -> None:
    from engines.business.labels import label_hits

    line = Line(text="dontTVA20%", score=0.99, bbox=(0.1, 0.7, 0.3, 0.72), page=1)
    plain = Line(text="dont TVA 20%", score=0.99, bbox=(0.1, 0.7, 0.3, 0.72), page=1)
    for printed in (line, plain):  # "dont" ("of which") qualifies the tax as included
        assert [(h.key, printed.text[h.start : h.end].strip()) for h in label_hits(printed)] == [
            ("incl", "dont"),
            ("tax", "TVA"),
        ]


@pytest.mark.parametrize(("text", "key"), [("TOTALEEUR", "total"), ("SUBTOTALEUR", "subtotal")])
def test_a_totals_word_glued_to_its_currency_code_is_still_its_label(text: str, key: str) -> None:
    """An Italian invoice's "TOTALE EUR" read "TOTALEEUR" lost its total; a subtotal stays one."""
    from engines.business.labels import label_hits

    line = Line(text=text, score=0.99, bbox=(0.49, 0.5, 0.6, 0.52), page=1)
    assert [h.key for h in label_hits(line)] == [key]


@pytest.mark.parametrize(
    ("text", "line_labels"),
    [
        ("Singh Software Ltd.", []),
        ("Horsham Gas Ltd", []),
        ("sinIVA 12,00", [("excl", "sinIVA")]),
        ("ExcludingGST 5.00", [("excl", "Excluding"), ("tax", "GST")]),
        ("Summe ohneMwSt", [("total", "Summe"), ("excl", "ohne"), ("tax", "MwSt")]),
    ],
)
def test_a_short_tax_qualifier_is_glued_only_to_a_tax(text: str, line_labels: list[tuple[str, str]]) -> None:
    from engines.business.labels import label_hits

    line = Line(text=text, score=0.99, bbox=(0.1, 0.7, 0.3, 0.72), page=1)
    assert [(h.key, text[h.start : h.end]) for h in label_hits(line)] == line_labels


@pytest.mark.parametrize(
    "title",
    [
        "COUNCIL TAX DEMAND NOTICE",
        "Final notice",
        "Your electricity bill",
        "Zahlungserinnerung",
        "FACTURE DE GAZ",  # a title word and the bill's kind
        "Fattura servizio idrico",
        "Water and Sewerage Charges",  # taken for a water bill's issuer, approved so on seed 97
        "Electricity charges",
    ],
)
def test_a_bills_title_is_a_title_never_a_name(title: str) -> None:
    # a council tax bill's title read as its addressee was once approved straight through
    assert is_title(title)


@pytest.mark.parametrize(
    "name",
    ["Invoice Solutions Ltd", "Bill Evans", "Brightline Gaz", "HANS GARCIA", "Easy Bill Ltd", "Evans Bill"],
)
def test_a_name_is_no_title(name: str) -> None:
    assert not is_title(name)


@pytest.mark.parametrize(
    "caption", ["INVOICE NO:", "Invoice number", "Factura No.", "INVOICE TO", "Invoice date"]
)
def test_a_caption_over_its_value_is_no_title(caption: str) -> None:
    # "INVOICE NO:" over "XS-88211" on the next line lost every such digital invoice's number
    assert not is_title(caption)
