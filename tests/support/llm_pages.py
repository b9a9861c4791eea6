"""Page texts for the LLM reader's tests (tests/unit/llm): what a PDF's text layer gives, which the
model's answers are grounded in."""

from __future__ import annotations

# A German invoice: accents, a name with runs of spaces, amounts in German notation.
INVOICE_PAGE = """ACME Büromöbel GmbH
Rechnung Nr. RE-2024-0042
Rechnungsdatum: 01.03.2024
Kunde: Jürgen   Müller
Zwischensumme 1.000,00 EUR
MwSt 19 % 190,00 EUR
Gesamtbetrag 1.190,00 EUR
"""
