"""The readers together (engines/business/__init__.py, ``READERS``): what every reader gives for an
empty document, and one rendered page read as a bill and as a statement through the real OCR.
"""

from __future__ import annotations

import pytest

from engines.business import READERS, read_bank_statement, read_proof_of_address
from engines.layout import PageText
from tests.support.business_pages import needs_font, render, values


@pytest.mark.parametrize("kind", sorted(READERS))
def test_empty_document_gives_every_field_empty(kind: str) -> None:
    result = READERS[kind]([PageText(1, (), "ocr")])
    assert result.fields and all(f.value is None and f.confidence == 0.0 for f in result.fields.values())


# --------------------------------------------------------------------------------------------
# End to end: a rendered page through the real OCR
# --------------------------------------------------------------------------------------------


@needs_font
def test_rendered_bill_and_statement_end_to_end() -> None:
    rows = [
        (0.04, [(0.06, "**Harbour Energy Ltd")]),
        (0.14, [(0.08, "Emily Carter"), (0.6, "Bill date: 15/02/2026")]),
        (0.16, [(0.08, "14 Kingsway Road")]),
        (0.18, [(0.08, "Manchester M19 2LL")]),
        (0.22, [(0.08, "IBAN: GB82 WEST 1234 5698 7654 32")]),
        (0.26, [(0.08, "Statement period: 01/01/2026 - 31/01/2026")]),
    ]
    pages = [render(rows)]
    bill = values(read_proof_of_address(pages))
    assert (bill["address_street"], bill["address_city"], bill["address_postal_code"]) == (
        "14 KINGSWAY ROAD",
        "MANCHESTER",
        "M19 2LL",
    )
    assert (bill["full_name"], bill["document_date"]) == ("EMILY CARTER", "2026-02-15")
    statement = values(read_bank_statement(pages))
    assert statement["iban_or_account_number"] == "GB82WEST12345698765432"
    assert (statement["statement_period_start"], statement["statement_period_end"]) == (
        "2026-01-01",
        "2026-01-31",
    )
