"""Key-value readers for receipts, invoices, proof of address and bank statements (engines/business).

Most tests build the page text by hand (what OCR or a PDF text layer would give), so each one pins
one layout rule; a few render a small page with PIL and run the real OCR, and one reads real
scanned receipts (SROIE) from the shared real-data folder.
"""

from __future__ import annotations

import io
import json
from collections.abc import Sequence
from pathlib import Path

import pytest
from PIL import Image, ImageDraw, ImageFont

from engines.business import READERS, read_bank_statement, read_invoice, read_proof_of_address, read_receipt
from engines.business.fields import ABSENT_LABEL_CONFIDENCE, code_parser, repair_ocr_text
from engines.business.labels import is_title
from engines.business.names import canonical_name, clean_person
from engines.business.places import parse_city_line
from engines.layout import Line, PageText, page_from_ocr, sort_reading_order
from engines.types import Extracted
from tests.conftest import REALDATA

Cell = tuple[float, str]
Row = tuple[float, Sequence[Cell]]
FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
BOLD = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")


def page(rows: Sequence[Row], *, source: str = "text_layer", number: int = 1) -> PageText:
    """A page from rows of (y, [(x, text), ...]) in page fractions, about 0.012 wide a character."""
    lines = [
        Line(text, 0.98, (x, y, min(1.0, x + 0.012 * len(text)), y + 0.015), number)
        for y, cells in rows
        for x, text in cells
    ]
    return PageText(number, tuple(sort_reading_order(lines)), source)


def values(result) -> dict[str, str | None]:
    return {name: field.value for name, field in result.fields.items()}


# --------------------------------------------------------------------------------------------
# Invoices
# --------------------------------------------------------------------------------------------

GERMAN_INVOICE = [
    (0.04, [(0.06, "Nordlicht Haustechnik GmbH")]),
    (0.06, [(0.06, "Hafenstraße 12, 20457 Hamburg")]),
    (0.10, [(0.70, "RECHNUNG")]),
    (0.14, [(0.06, "Rechnungsempfänger:"), (0.60, "Rechnungsnummer:"), (0.80, "RE-2026-0042")]),
    (0.16, [(0.06, "Herr Jonas Weber"), (0.60, "Rechnungsdatum:"), (0.80, "03.03.2026")]),
    (0.18, [(0.06, "Lindenallee 5"), (0.60, "Fällig am:"), (0.80, "02.04.2026")]),
    (0.20, [(0.06, "10115 Berlin")]),
    (
        0.30,
        [(0.06, "Pos."), (0.15, "Beschreibung"), (0.55, "Menge"), (0.65, "Einzelpreis"), (0.82, "Betrag")],
    ),
    (0.33, [(0.06, "1"), (0.15, "Wartung Heizung"), (0.55, "2"), (0.65, "450,00 €"), (0.82, "900,00 €")]),
    (0.36, [(0.06, "2"), (0.15, "Ersatzteile"), (0.55, "1"), (0.65, "334,50 €"), (0.82, "334,50 €")]),
    (0.42, [(0.60, "Nettobetrag"), (0.82, "1.234,50 €")]),
    (0.44, [(0.60, "MwSt. 19 %"), (0.82, "234,56 €")]),
    (0.46, [(0.60, "Gesamtbetrag"), (0.82, "1.469,06 €")]),
]


def test_german_invoice_reads_every_field_in_canonical_form() -> None:
    result = read_invoice([page(GERMAN_INVOICE)])
    assert values(result) == {
        "vendor_name": "NORDLICHT HAUSTECHNIK GMBH",
        "invoice_number": "RE-2026-0042",
        "invoice_date": "2026-03-03",
        "due_date": "2026-04-02",
        "customer_name": "JONAS WEBER",  # the courtesy title is not part of the name
        "currency": "EUR",
        "subtotal": "1234.50",
        "tax_amount": "234.56",
        "total_amount": "1469.06",
    }
    checks = {check.name: check.passed for check in result.checks}
    assert checks == {"totals_arithmetic": True, "line_items_sum": True}
    assert all(field.source == "text_layer" for field in result.fields.values())


@pytest.mark.parametrize("title", ["Herrn", "Frau", "Herr"])
def test_a_courtesy_title_on_its_own_line_is_not_the_customer(title: str) -> None:
    """DIN 5008 letters print "Herrn" or "Frau" alone on the line above the name."""
    rows = [row for row in GERMAN_INVOICE if row[0] not in (0.16, 0.18, 0.20)]
    rows += [
        (0.16, [(0.06, title), (0.60, "Rechnungsdatum:"), (0.80, "03.03.2026")]),
        (0.18, [(0.06, "Mehmet Vogel"), (0.60, "Fällig am:"), (0.80, "02.04.2026")]),
        (0.20, [(0.06, "Lindenallee 5")]),
        (0.22, [(0.06, "10115 Berlin")]),
    ]
    result = read_invoice([page(sorted(rows, key=lambda row: row[0]))])
    assert result.fields["customer_name"].value == "MEHMET VOGEL"


def test_value_box_points_at_the_value_not_at_its_label() -> None:
    result = read_invoice([page(GERMAN_INVOICE)])
    total = result.fields["total_amount"]
    assert total.bbox is not None and total.bbox[0] >= 0.8  # the amount column, not "Gesamtbetrag"
    number = result.fields["invoice_number"]
    assert number.bbox is not None and number.bbox[0] >= 0.8 and number.page == 1


def test_us_invoice_reads_month_first_dates_and_dollars() -> None:
    rows = [
        (0.04, [(0.06, "Blue River Supply Inc.")]),
        (0.06, [(0.06, "1200 Pine St, Seattle, WA 98101")]),
        (0.10, [(0.06, "INVOICE")]),
        (0.14, [(0.06, "Invoice #: 10442"), (0.60, "Date: 03/04/2026")]),
        (0.16, [(0.60, "Due Date: 04/03/2026")]),
        (0.20, [(0.06, "Bill To:")]),
        (0.22, [(0.06, "Acme Plumbing LLC")]),
        (0.24, [(0.06, "77 Ocean Drive, Miami, FL 33139")]),
        (0.40, [(0.60, "Subtotal"), (0.82, "$1,200.00")]),
        (0.42, [(0.60, "Sales Tax (7%)"), (0.82, "$84.00")]),
        (0.44, [(0.60, "Amount Due"), (0.82, "$1,284.00")]),
    ]
    got = values(read_invoice([page(rows)]))
    assert got["invoice_number"] == "10442"
    assert (got["invoice_date"], got["due_date"]) == ("2026-03-04", "2026-04-03")
    assert got["customer_name"] == "ACME PLUMBING LLC"
    assert got["vendor_name"] == "BLUE RIVER SUPPLY INC."
    assert (got["currency"], got["subtotal"], got["tax_amount"], got["total_amount"]) == (
        "USD",
        "1200.00",
        "84.00",
        "1284.00",
    )


def test_a_logos_initial_beside_the_vendor_is_no_french_a_naming_the_customer() -> None:
    """GIVEN a French invoice whose logo prints the letter "A" left of the vendor's name, and
    whose addressee block has no "Facturé à"
    THEN the vendor is the name beside the logo and the customer the addressee: a letter alone,
    without its accent or a colon, is no "À" label."""
    rows = [
        (0.03, [(0.06, "A"), (0.12, "Altamira Fournitures de Bureau SASU")]),
        (0.05, [(0.06, "Altamira Fournitures de Bureau SASU · 93 rue des Roses · 13100 AIX-EN-PROVENCE")]),
        (0.10, [(0.06, "M. Jean Chevalier"), (0.60, "N° de facture:"), (0.80, "2324048")]),
        (0.12, [(0.06, "93 IMPASSE GAMBETTA"), (0.60, "Date de facture:"), (0.80, "13 mars 2023")]),
        (0.14, [(0.06, "59300 LILLE")]),
        (0.40, [(0.60, "Total HT"), (0.82, "1 000,00 €")]),
        (0.42, [(0.60, "TVA 20 %"), (0.82, "200,00 €")]),
        (0.44, [(0.60, "Total TTC"), (0.82, "1 200,00 €")]),
    ]
    got = values(read_invoice([page(rows)]))
    assert (got["vendor_name"], got["customer_name"]) == (
        "ALTAMIRA FOURNITURES DE BUREAU SASU",
        "JEAN CHEVALIER",
    )


@pytest.mark.parametrize("letterhead", [True, False])
def test_a_windowed_letters_return_line_names_the_vendor_over_a_customer_with_a_legal_form(
    letterhead: bool,
) -> None:
    """GIVEN a DIN 5008 invoice from "Meridian Co." (no legal form the engine knows) whose return
    line over the window names it, addressed to "Vertex Logistics Inc", with or without the
    letterhead read on its own line
    THEN the vendor is Meridian Co. and the customer Vertex Logistics Inc: the customer's legal
    form once outranked the letterhead, and the customer was approved as the vendor."""
    rows = [
        (0.03, [(0.06, "Meridian Co.")] if letterhead else [(0.6, "Seite 1")]),
        (0.08, [(0.06, "Meridian Co.·9282SMaple Avenue·HoustonTX 77001-2902")]),
        (0.10, [(0.06, "Vertex Logistics Inc"), (0.60, "Invoice #"), (0.80, "RE202327342")]),
        (0.12, [(0.06, "5469 E PARK LN"), (0.60, "Issue date"), (0.80, "Jan 19, 2023")]),
        (0.14, [(0.06, "NASHVILLE, TN 37268")]),
        (0.40, [(0.60, "Subtotal"), (0.82, "1,000.00")]),
        (0.42, [(0.60, "Tax 8.875%"), (0.82, "88.75")]),
        (0.44, [(0.60, "Total"), (0.82, "1,088.75")]),
    ]
    got = values(read_invoice([page(rows)]))
    assert (got["vendor_name"], got["customer_name"]) == ("MERIDIAN CO.", "VERTEX LOGISTICS INC")


def test_a_letterhead_set_wide_is_one_name_with_its_legal_form() -> None:
    """GIVEN a Spanish invoice whose letterhead and "DE" block print "Westerbrook Artes
    Gráficas S.A." so widely spaced that OCR detects two pieces on one row, and whose client
    block prints its name a column left of the vendor's
    THEN the vendor is the whole name, legal form and all, and the client stays the client: a
    piece a column away is another party."""
    rows = [
        (0.11, [(0.16, "Westerbrook Artes"), (0.40, "Graficas S.A.")]),
        (0.14, [(0.16, "Camino de la Constitucion, 117 48006 Bilbao"), (0.70, "FACTURA")]),
        (0.20, [(0.16, "N° Factura: FA-021747")]),
        (0.22, [(0.16, "Fecha: 10/12/2024")]),
        (0.25, [(0.16, "DATOS DEL CLIENTE"), (0.50, "DE")]),
        (0.27, [(0.16, "Hernandez y Serrano"), (0.50, "Westerbrook Artes"), (0.72, "Graficas S.A.")]),
        (0.29, [(0.16, "Ronda del Sol, 1"), (0.50, "Camino de la Constitucion, 117")]),
        (0.31, [(0.16, "08011 Barcelona"), (0.50, "48006 Bilbao")]),
        (0.50, [(0.50, "Base imponible"), (0.75, "100,00")]),
        (0.52, [(0.50, "IVA 21%"), (0.75, "21,00")]),
        (0.54, [(0.50, "Total"), (0.75, "121,00 EUR")]),
    ]
    got = values(read_invoice([page(rows)]))
    assert (got["vendor_name"], got["customer_name"]) == (
        "WESTERBROOK ARTES GRAFICAS S.A.",
        "HERNANDEZ Y SERRANO",
    )


def test_the_party_the_invoices_web_address_names_is_the_vendor() -> None:
    """GIVEN an invoice without a "Bill to" label whose customer's name stands at the top of the
    page, set larger than its sender's, and whose contact e-mail is the sender's
    THEN the vendor is the party the e-mail names and the customer the other."""
    rows = [
        (0.03, [(0.06, "Davis Marketing S.L.")]),
        (0.06, [(0.06, "VALMONT MARKETING SL")]),
        (0.08, [(0.06, "CAMINO NUEVA 13022B"), (0.60, "Invoice No."), (0.80, "2256927")]),
        (0.10, [(0.06, "46046 VALENCIA"), (0.60, "Issue date:"), (0.80, "19/08/2022")]),
        (0.14, [(0.60, "Email"), (0.70, "service@valmont-marketing.es")]),
        (0.40, [(0.60, "Subtotal"), (0.82, "1.000,00")]),
        (0.42, [(0.60, "VAT 21%"), (0.82, "210,00")]),
        (0.44, [(0.60, "Total"), (0.82, "1.210,00")]),
    ]
    got = values(read_invoice([page(rows, source="ocr")]))
    assert (got["vendor_name"], got["customer_name"]) == ("VALMONT MARKETING SL", "DAVIS MARKETING S.L.")


def test_the_letterheads_full_stop_after_a_legal_form_is_kept_where_the_from_block_lost_it() -> None:
    """GIVEN a British invoice whose letterhead reads "SMITH & MACDONALD LTD." and whose "From"
    block reads the same name without the full stop (OCR lost the small dot)
    THEN the vendor keeps the full stop: OCR drops a dot far oftener than it makes one up."""
    rows = [
        (0.03, [(0.07, "SMITH & MACDONALD LTD."), (0.70, "TAX INVOICE")]),
        (0.06, [(0.06, "4 Orchard Street · London · E5 2WD")]),
        (0.13, [(0.07, "Invoice No."), (0.36, "Issue date")]),
        (0.14, [(0.08, "INV-2023-7382"), (0.36, "26 September 2023")]),
        (0.18, [(0.07, "Customer"), (0.54, "From")]),
        (0.20, [(0.06, "Susan Chen"), (0.54, "SMITH & MACDONALD LTD")]),
        (0.22, [(0.07, "134 Victoria Place"), (0.54, "4 Orchard Street")]),
        (0.40, [(0.60, "Subtotal"), (0.82, "1,000.00")]),
        (0.42, [(0.60, "VAT 20%"), (0.82, "200.00")]),
        (0.44, [(0.60, "Total"), (0.82, "1,200.00")]),
    ]
    got = values(read_invoice([page(rows, source="ocr")]))
    assert (got["vendor_name"], got["customer_name"]) == ("SMITH & MACDONALD LTD.", "SUSAN CHEN")


def test_the_return_lines_full_stop_after_a_legal_form_is_kept_where_the_logo_lost_it() -> None:
    """GIVEN a British invoice whose logo reads "WESTERBROOK ENGINEERING LTD" (no full stop) and
    whose return line above the customer prints "Westerbrook Engineering Ltd. · 122 Victoria Way"
    THEN the vendor keeps the full stop the return line shows."""
    rows = [
        (0.05, [(0.43, "WESTERBROOK ENGINEERING LTD")]),
        (0.16, [(0.12, "Westerbrook Engineering Ltd. · 122 Victoria Way - London NW5 6RH")]),
        (0.18, [(0.12, "Charlotte Murphy"), (0.59, "Invoice number:"), (0.80, "GK-94033")]),
        (0.19, [(0.59, "Date:"), (0.80, "2026-08-25")]),
        (0.20, [(0.12, "68 Kingsway Grove")]),
        (0.40, [(0.60, "Subtotal"), (0.82, "1,000.00")]),
        (0.42, [(0.60, "VAT 20%"), (0.82, "200.00")]),
        (0.44, [(0.60, "Total"), (0.82, "1,200.00")]),
    ]
    assert values(read_invoice([page(rows, source="ocr")]))["vendor_name"] == "WESTERBROOK ENGINEERING LTD."


def test_a_client_caption_read_cuent_still_names_the_customer() -> None:
    """GIVEN a French invoice whose letterhead is "Moreau et Michel SA" and whose customer block
    is captioned "CUENT" (OCR read CLIENT's LI as U) over "Bernard et Thomas SARL", and whose
    "REF.CUENT" caption stands over a customer number
    THEN the customer is Bernard et Thomas SARL and the vendor the letterhead, although the
    customer's legal form outranks the vendor's; the customer number is no name."""
    rows = [
        (0.32, [(0.35, "Moreau et Michel SA")]),
        (0.34, [(0.35, "147 ter impasse Emile Zola")]),
        (0.35, [(0.34, "38000 Grenoble")]),
        (0.41, [(0.59, "CUENT")]),
        (0.42, [(0.59, "Bernard et Thomas SARL")]),
        (0.43, [(0.59, "60 TER IMPASSE VOLTAIRE")]),
        (0.45, [(0.58, "31000 TOULOUSE")]),
        (0.50, [(0.32, "FACTURE N"), (0.44, "DATE DE FACTURE"), (0.68, "REF.CUENT")]),
        (0.51, [(0.32, "F2022/9123"), (0.44, "5 janvier 2022"), (0.68, "99621775")]),
        (0.60, [(0.55, "BASE HT"), (0.74, "3.078,71")]),
        (0.61, [(0.55, "TVA 20%"), (0.74, "615,74")]),
        (0.62, [(0.54, "NET A PAYER EUR"), (0.72, "3.694,45")]),
    ]
    got = values(read_invoice([page(rows, source="ocr")]))
    assert (got["vendor_name"], got["customer_name"]) == ("MOREAU ET MICHEL SA", "BERNARD ET THOMAS SARL")


def test_french_invoice_with_labels_above_their_values() -> None:
    rows = [
        (0.04, [(0.06, "Atelier Lumière SARL")]),
        (0.06, [(0.06, "12 rue de la Paix")]),
        (0.08, [(0.06, "75002 PARIS")]),
        (0.14, [(0.06, "FACTURE")]),
        (0.20, [(0.06, "N° de facture"), (0.36, "Date de facture"), (0.66, "Échéance")]),
        (0.22, [(0.06, "F2026-117"), (0.36, "5 mars 2026"), (0.66, "4 avril 2026")]),
        (0.26, [(0.06, "Client :")]),
        (0.28, [(0.06, "Mme Claire Dubois")]),
        (0.40, [(0.60, "Total HT"), (0.82, "1 000,00 €")]),
        (0.42, [(0.60, "TVA 20 %"), (0.82, "200,00 €")]),
        (0.44, [(0.60, "Total TTC"), (0.82, "1 200,00 €")]),
    ]
    got = values(read_invoice([page(rows)]))
    assert (got["invoice_number"], got["invoice_date"], got["due_date"]) == (
        "F2026-117",
        "2026-03-05",
        "2026-04-04",
    )
    assert got["customer_name"] == "CLAIRE DUBOIS"
    assert (got["subtotal"], got["tax_amount"], got["total_amount"]) == ("1000.00", "200.00", "1200.00")


def test_two_vat_rates_add_up_to_the_tax_amount() -> None:
    rows = [
        (0.04, [(0.06, "Van Dijk Installatie B.V.")]),
        (0.10, [(0.06, "Factuurnummer: 2026-88"), (0.60, "Factuurdatum: 12-01-2026")]),
        (0.40, [(0.60, "Subtotaal"), (0.82, "200,00")]),
        (0.42, [(0.60, "BTW 9%"), (0.82, "9,00")]),
        (0.44, [(0.60, "BTW 21%"), (0.82, "21,00")]),
        (0.46, [(0.60, "Totaal"), (0.82, "230,00")]),
    ]
    result = read_invoice([page(rows)])
    assert (result.fields["tax_amount"].value, result.fields["total_amount"].value) == ("30.00", "230.00")
    assert result.fields["currency"].value == "EUR"  # no sign printed: a Dutch legal form says euro


def test_totals_that_do_not_add_up_fail_the_check_and_lower_confidence() -> None:
    consistent = read_invoice([page(GERMAN_INVOICE)])
    broken_rows = [
        row if row[0] != 0.46 else (0.46, [(0.60, "Gesamtbetrag"), (0.82, "1.500,00 €")])
        for row in GERMAN_INVOICE
    ]
    broken = read_invoice([page(broken_rows)])
    assert {c.name: c.passed for c in broken.checks}["totals_arithmetic"] is False
    assert broken.fields["total_amount"].valid is False
    assert broken.fields["total_amount"].confidence < consistent.fields["total_amount"].confidence


def test_check_details_never_carry_values() -> None:
    result = read_invoice([page(GERMAN_INVOICE)])
    for check in result.checks:
        assert not any(ch.isdigit() for ch in check.detail)


# --------------------------------------------------------------------------------------------
# Receipts
# --------------------------------------------------------------------------------------------


def test_a_receipts_tax_table_gives_the_tax_when_ocr_lost_its_caption() -> None:
    """GIVEN a Dutch café receipt whose tax table reads "Netto | | Bruto" (the BTW caption lost)
    over "A 21% | 11,94 | 2,51 | 14,45"
    THEN the tax is the amount that makes net + tax = gross where the gross is the total."""
    rows = [
        (0.05, [(0.2, "Brasserie Janssen")]),
        (0.37, [(0.1, "Verse muntthee"), (0.73, "3,50 A")]),
        (0.44, [(0.1, "Subtotaal excl. BTW:"), (0.74, "14,45")]),
        (0.46, [(0.1, "Totaal:"), (0.63, "14,45")]),
        (0.51, [(0.1, "Contant:"), (0.74, "20,00")]),
        (0.53, [(0.1, "Wisselgeld:"), (0.76, "5,55")]),
        (0.56, [(0.32, "Netto"), (0.74, "Bruto")]),
        (0.58, [(0.1, "A 21%"), (0.32, "11,94"), (0.55, "2,51"), (0.74, "14,45")]),
        (0.61, [(0.1, "30/11/2024 13:47")]),
    ]
    fields = read_receipt([page(rows, source="ocr")]).fields
    assert (fields["total_amount"].value, fields["tax_amount"].value) == ("14.45", "2.51")


UK_TWO_RATE_RECEIPT = [
    (0.07, [(0.24, "LINDQVIST MARKET")]),
    (0.23, [(0.05, "Dark Chocolate 100g"), (0.83, "1.27 B")]),
    (0.29, [(0.10, "2 x 3.49"), (0.83, "6.98 A")]),
    (0.34, [(0.05, "NET AMOUNT"), (0.87, "8.25")]),
    (0.37, [(0.05, "BALANCE DUE"), (0.76, "£ 8.25")]),
    (0.43, [(0.05, "DEBIT CARD **** 1742"), (0.87, "8.25")]),
    (0.47, [(0.05, "%"), (0.32, "Net"), (0.61, "VAT"), (0.85, "Gross")]),
    (0.49, [(0.05, "A 20%"), (0.32, "5.82"), (0.61, "1.16"), (0.87, "6.98")]),
    (0.52, [(0.05, "B 0%"), (0.32, "1.27"), (0.61, "0.00"), (0.87, "1.27")]),
    (0.61, [(0.05, "2023-07-29 17:52")]),
]


def test_a_tax_table_with_a_zero_rate_row_sums_its_rates() -> None:
    """GIVEN a UK till receipt whose net amount equals its total (prices include VAT) and whose
    VAT table has a 20 % row (1.16) and a 0 % row (0.00), the total row of the table unread
    THEN the tax is the rows' sum, 1.16, not the zero row's 0.00 that also "balances" the net."""
    fields = read_receipt([page(UK_TWO_RATE_RECEIPT, source="ocr")]).fields
    assert (fields["total_amount"].value, fields["tax_amount"].value) == ("8.25", "1.16")


def test_a_zero_tax_that_balances_a_net_total_yields_to_the_included_tax() -> None:
    """GIVEN the same receipt with its VAT table's 20 % row smeared (no net, tax, gross row to
    add up) but an "incl. VAT 20%" line printing 1.16
    THEN the tax is 1.16: a zero rate's 0.00 balances a net amount equal to the total whatever
    the tax is, so it is the tax only where no tax label shows an amount above nought."""
    rows = [row for row in UK_TWO_RATE_RECEIPT if row[0] != 0.49]
    rows.append((0.54, [(0.05, "incl. VAT 20%"), (0.87, "1.16")]))
    fields = read_receipt([page(rows, source="ocr")]).fields
    assert (fields["total_amount"].value, fields["tax_amount"].value) == ("8.25", "1.16")


def test_a_receipt_whose_every_rate_is_zero_owes_no_tax() -> None:
    """GIVEN a receipt of zero-rated food only: its VAT table's one row is "B 0% 1.27 0.00 1.27"
    THEN the tax is 0.00 (nothing else under a tax label)."""
    rows = [
        (0.07, [(0.24, "LINDQVIST MARKET")]),
        (0.23, [(0.05, "Dark Chocolate 100g"), (0.83, "1.27 B")]),
        (0.34, [(0.05, "NET AMOUNT"), (0.87, "1.27")]),
        (0.37, [(0.05, "BALANCE DUE"), (0.76, "£ 1.27")]),
        (0.47, [(0.05, "%"), (0.32, "Net"), (0.61, "VAT"), (0.85, "Gross")]),
        (0.52, [(0.05, "B 0%"), (0.32, "1.27"), (0.61, "0.00"), (0.87, "1.27")]),
    ]
    fields = read_receipt([page(rows, source="ocr")]).fields
    assert (fields["total_amount"].value, fields["tax_amount"].value) == ("1.27", "0.00")


@pytest.mark.parametrize(
    ("tax_row", "total_text", "expected"),
    [
        (("HST15%", "6.74"), "851.70CAD", "51.70"),  # $ read as 8; the tax at 15 % on 44.96
        (("HST15%", "6.74"), "551.70", "51.70"),  # $ read as 5
        (("HST15%", "6.74"), "51.70", "51.70"),
        (("HST15%", "126.74"), "971.70", "971.70"),  # 126.74 is 15 % of 844.96: as printed
    ],
)
def test_a_dollar_sign_read_as_a_digit_is_no_part_of_the_total(
    tax_row: tuple[str, str], total_text: str, expected: str
) -> None:
    """GIVEN a Canadian grocery receipt with no subtotal label, "HST15%" and its tax, and an
    "Amount due:" whose "$51.70" OCR read as 851.70 (the sign as an 8)
    THEN the total is 51.70, the amount on which the tax is 15 % of what is left; a total that
    already agrees with its tax's rate, or that only a leading digit would make agree, stays."""
    rows = [
        (0.04, [(0.14, "FITZGERALD'S GROCERY")]),
        (0.17, [(0.29, "03/10/2024")]),
        (0.25, [(0.15, "Sourdough Bread"), (0.78, "3.49")]),
        (0.39, [(0.78, "44.96")]),
        (0.41, [(0.48, tax_row[0]), (0.78, tax_row[1])]),
        (0.43, [(0.48, "Amount due:"), (0.70, total_text)]),
    ]
    fields = read_receipt([page(rows, source="ocr")]).fields
    assert fields["total_amount"].value == expected


@pytest.mark.parametrize("till", ["CASSA15", "CASSA 15", "Kasse 3", "TAVOLO 22", "Table #4"])
def test_a_tills_number_is_no_merchant(till: str) -> None:
    """GIVEN an Italian café's receipt headed "Caffe Sonnental", with its till's number ("CASSA15")
    right of the table's on a row below the address ("Cassa" also names savings banks)
    THEN the merchant is the café (whose accent the pipeline puts back later)."""
    rows = [
        (0.11, [(0.32, "Caffe Sonnental")]),
        (0.15, [(0.32, "VIALE MANZONI N.94")]),
        (0.17, [(0.36, "35111 PADOVA PD")]),
        (0.20, [(0.35, "Tel.0674444775")]),
        (0.24, [(0.07, "TAV0L022"), (0.79, till)]),
        (0.26, [(0.07, "29/05/24 14:18:45"), (0.62, "Scontrino n.1911")]),
        (0.32, [(0.06, "Lasagne al forno"), (0.80, "14,56 A")]),
        (0.46, [(0.06, "TOTALE EURO"), (0.80, "14,56")]),
    ]
    assert values(read_receipt([page(rows, source="ocr")]))["merchant_name"] == "CAFFE SONNENTAL"


def test_the_sum_under_two_rates_tax_lines_is_the_tax() -> None:
    """GIVEN a German receipt with prices including tax, one "enth. MwSt" line per rate (1.60 at
    7 %, 1.55 at 19 %) and their total 3.15 on the row below, its caption lost
    THEN the tax is 3.15, not one rate's share."""
    rows = [
        (0.10, [(0.26, "Frischkauf Meyer")]),
        (0.21, [(0.22, "21.06.2025 18:15:38")]),
        (0.28, [(0.22, "Schokolade Vollmilch"), (0.59, "82.40")]),
        (0.58, [(0.23, "Netto"), (0.59, "82.40")]),
        (0.60, [(0.23, "Gesamt EUR"), (0.58, "82.40")]),
        (0.65, [(0.23, "enth. MwSt 7%"), (0.61, "1.60")]),
        (0.67, [(0.23, "enth. MwSt 19%"), (0.61, "1.55")]),
        (0.69, [(0.61, "3.15")]),
    ]
    fields = read_receipt([page(rows, source="ocr")]).fields
    assert (fields["total_amount"].value, fields["tax_amount"].value) == ("82.40", "3.15")


def test_a_receipt_numbers_caption_is_no_merchant() -> None:
    """GIVEN an Italian fuel station's receipt whose name (in a logo) OCR did not read, so that
    the first words under its title are the address and the caption "Scontrino n." beside its
    number
    THEN no merchant is read (once SCONTRINO N., approved at 1.00): a name never ends in "n."."""
    rows = [
        (0.11, [(0.16, "S"), (0.35, "DOCUMENTO COMMERCIALE")]),
        (0.15, [(0.14, "Viale del Corso, 153")]),
        (0.17, [(0.14, "80136 Napoli")]),
        (0.19, [(0.14, "Tel. 0515949341")]),
        (0.23, [(0.14, "Scontrino n."), (0.36, "7284")]),
        (0.25, [(0.14, "Data"), (0.36, "04/09/2026")]),
        (0.31, [(0.15, "Descrizione")]),
        (0.33, [(0.15, "Gasolio"), (0.80, "40,00")]),
        (0.40, [(0.15, "TOTALE EURO"), (0.80, "40,00")]),
    ]
    assert values(read_receipt([page(rows, source="ocr")]))["merchant_name"] is None


def test_a_subtotal_read_under_the_tax_label_is_not_the_tax() -> None:
    """GIVEN a receipt where OCR set "VAT" apart from "Total excl.", so the subtotal 12.94 is read
    as a tax, beside the real tax line "Tax 6.5%" 0.84
    THEN the tax is the smaller of the two amounts that add up to the total."""
    rows = [
        (0.30, [(0.2, "Summit Kitchen & Bar")]),
        (0.42, [(0.1, "Soup of the day"), (0.75, "7.95")]),
        (0.44, [(0.1, "Cappuccino"), (0.75, "4.99")]),
        (0.48, [(0.1, "Total excl."), (0.29, "VAT"), (0.74, "12.94")]),
        (0.50, [(0.1, "Tax 6.5%"), (0.75, "0.84")]),
        (0.52, [(0.1, "Total amount USD"), (0.70, "13.78")]),
        (0.56, [(0.1, "Debit card ****6667"), (0.74, "13.78")]),
    ]
    fields = read_receipt([page(rows, source="ocr")]).fields
    assert (fields["total_amount"].value, fields["tax_amount"].value) == ("13.78", "0.84")


@pytest.mark.parametrize(
    "rounded_rows",
    [
        # the rounding line prints the rounded total itself
        [
            (0.65, [(0.26, "Rounding Adjustment RM"), (0.79, ".02")]),
            (0.68, [(0.48, "Rounding RM"), (0.76, "42.35")]),
        ],
        # a second subtotal after the rounding, which cash minus change confirms
        [
            (0.65, [(0.17, "ROUNDING"), (0.67, "RM0.02")]),
            (0.68, [(0.17, "SUBTOTAL (QTY 4)"), (0.66, "RM42.35")]),
            (0.70, [(0.17, "CASH"), (0.66, "RM50.00")]),
            (0.72, [(0.17, "CHANGE CASH"), (0.65, "RM7.65")]),
        ],
        # the rounded total printed nowhere OCR could read: cash minus change gives it
        [
            (0.68, [(0.17, "Total Payable"), (0.66, "RN4Z.3S")]),
            (0.70, [(0.17, "CASH"), (0.66, "RM50.00")]),
            (0.72, [(0.17, "CHANGE"), (0.65, "RM7.65")]),
        ],
        # ... and the change's label misread too: the amount under the payment is the change
        [
            (0.70, [(0.17, "Paid Amount:"), (0.66, "50.00")]),
            (0.72, [(0.17, "Chonqe:"), (0.65, "7.65")]),
        ],
    ],
)
def test_a_malaysian_receipts_total_is_the_amount_rounded_to_five_sen(rounded_rows) -> None:
    """GIVEN a Malaysian receipt whose total 42.33 is rounded to the 42.35 paid in cash
    THEN the total is the rounded amount (SROIE labels it so; the unrounded one was once read)."""
    rows = [
        (0.05, [(0.2, "99 SPEED MART S/B")]),
        (0.10, [(0.2, "GST ID : 000181747712")]),
        (0.20, [(0.2, "12/02/2018"), (0.6, "INVOICE NO : 18046/102/T0382")]),
        (0.48, [(0.1, "2832 HUAT WHI COFFEE"), (0.72, "RM12.65 S")]),
        (0.63, [(0.1, "Total Sales (Inclusive GST) RM"), (0.76, "42.33")]),
        *rounded_rows,
    ]
    fields = read_receipt([page(rows, source="ocr")]).fields
    assert fields["total_amount"].value == "42.35"


def test_malaysian_receipt_total_is_the_amount_payment_minus_change_confirms() -> None:
    rows = [
        (0.02, [(0.3, "31803014")]),
        (0.05, [(0.2, "LIAN HING STATIONERY SDN BHD")]),
        (0.07, [(0.4, "(162761-M)")]),
        (0.09, [(0.2, "NO.32 & 33, JALAN SR 1/9, SEKSYEN 9")]),
        (0.11, [(0.2, "43300 SERI KEMBANGAN, SELANGOR")]),
        (0.13, [(0.3, "GST ID: 002139201536")]),
        (0.15, [(0.4, "TAX INVOICE")]),
        (0.17, [(0.2, "27/03/2018"), (0.6, "No: CS-20243")]),
        (0.21, [(0.2, "F/CASTELL 187057"), (0.8, "12.00")]),
        (0.25, [(0.2, "Total Amt Incl. GST 6%:"), (0.8, "12.01")]),
        (0.27, [(0.2, "Rounding Adjustment:"), (0.8, "-0.01")]),
        (0.29, [(0.2, "Total Amt Payable:"), (0.8, "12.00")]),
        (0.31, [(0.2, "Paid Amount:"), (0.8, "20.00")]),
        (0.33, [(0.2, "Change:"), (0.8, "8.00")]),
        (0.35, [(0.2, "Total Qty Tender:"), (0.8, "2")]),
        (0.39, [(0.2, "GST Summary"), (0.5, "Amount(RM)"), (0.75, "Tax(RM)")]),
        (0.41, [(0.2, "SR @ 6%"), (0.5, "11.32"), (0.75, "0.68")]),
    ]
    result = read_receipt([page(rows, source="ocr")])
    got = values(result)
    assert got == {
        "merchant_name": "LIAN HING STATIONERY SDN BHD",  # registration number in brackets dropped
        "date": "2018-03-27",
        "currency": "MYR",
        "total_amount": "12.00",
        "tax_amount": "0.68",
    }
    assert {c.name: c.passed for c in result.checks} == {"totals_arithmetic": True}
    assert result.fields["date"].source == "ocr"


@pytest.mark.parametrize(
    "noise",
    [("Subtotal", "9.00"), ("Total Qty", "3"), ("Change", "11.00"), ("Cash", "20.00"), ("Total Items", "3")],
)
def test_receipt_total_is_not_a_subtotal_quantity_change_or_tendered_amount(noise: tuple[str, str]) -> None:
    rows = [
        (0.03, [(0.3, "Joe's Diner")]),
        (0.05, [(0.3, "1200 Pine St")]),
        (0.07, [(0.3, "Seattle, WA 98101")]),
        (0.10, [(0.05, "07/15/2026 12:41")]),
        (0.20, [(0.05, noise[0]), (0.7, noise[1])]),
        (0.22, [(0.05, "TOTAL"), (0.7, "9.72")]),
    ]
    got = values(read_receipt([page(rows, source="ocr")]))
    assert got["total_amount"] == "9.72"
    assert got["date"] == "2026-07-15"
    assert got["currency"] == "USD"  # no "$" printed: a US address says dollars


def test_a_total_no_label_points_at_is_what_subtotal_plus_tax_gives() -> None:
    """GIVEN a German till receipt whose "ZU ZAHLEN" OCR split over two lines, paid by girocard,
    with its net, tax and gross printed as a column under their captions
    THEN the total is the printed amount that net plus tax gives, confirmed by the card payment."""
    rows = [
        (0.03, [(0.3, "Autohof Horizon")]),
        (0.05, [(0.3, "20921 HAMBURG")]),
        (0.10, [(0.05, "Diesel"), (0.7, "100,75A")]),
        (0.12, [(0.05, "Espresso"), (0.7, "13,81A")]),
        (0.16, [(0.05, "ZU")]),
        (0.18, [(0.05, "ZAHLEN"), (0.6, "114,56 EUR")]),
        (0.22, [(0.05, "GIROCARD")]),
        (0.24, [(0.05, "****0894")]),
        (0.26, [(0.05, "114,56")]),
        (0.30, [(0.05, "Netto"), (0.3, "USt."), (0.6, "Brutto")]),
        (0.32, [(0.05, "96,27"), (0.3, "18,29"), (0.6, "114,56")]),
        (0.36, [(0.05, "2026-07-16 21:38")]),
    ]
    result = read_receipt([page(rows, source="ocr")])
    assert values(result)["total_amount"] == "114.56"
    assert {c.name: c.passed for c in result.checks}["totals_arithmetic"] is True


def test_a_total_beside_a_tax_qualifier_is_what_payment_minus_change_gives() -> None:
    """GIVEN a Spanish ticket whose "TOTAL" OCR lost above "(IVA INCL.):33,93"
    THEN the printed amount cash minus change gives is the total, and not also the tax."""
    rows = [
        (0.03, [(0.3, "Restaurante Verdant")]),
        (0.05, [(0.3, "47017 Valladolid")]),
        (0.08, [(0.05, "12-11-2025 15:14:00")]),
        (0.12, [(0.05, "Flan casero")]),
        (0.13, [(0.05, "4,99A")]),
        (0.14, [(0.05, "Menu del dia")]),
        (0.15, [(0.05, "28,94A")]),
        (0.18, [(0.05, "(IVA INCL.):33,93")]),  # its "TOTAL" above lost to glare
        (0.19, [(0.05, "B EUR")]),
        (0.20, [(0.05, "EFECTIVO:"), (0.7, "50,00")]),
        (0.22, [(0.05, "CAMBIO:"), (0.7, "16,07")]),
    ]
    got = values(read_receipt([page(rows, source="ocr")]))
    assert got["total_amount"] == "33.93"
    assert got["tax_amount"] is None


def test_french_ticket_with_broken_over_two_lines_merchant_name() -> None:
    rows = [
        (0.03, [(0.3, "BOULANGERIE MARTIN &")]),
        (0.05, [(0.3, "FILS")]),
        (0.07, [(0.3, "12 rue de la Paix")]),
        (0.09, [(0.3, "75002 PARIS")]),
        (0.12, [(0.05, "Ticket n° 4521"), (0.6, "12/03/2026 12:41")]),
        (0.22, [(0.05, "Total TTC"), (0.7, "8,80 EUR")]),
        (0.24, [(0.05, "dont TVA 10%"), (0.7, "0,80")]),
    ]
    got = values(read_receipt([page(rows, source="ocr")]))
    assert got["merchant_name"] == "BOULANGERIE MARTIN & FILS"
    assert (got["date"], got["currency"], got["total_amount"], got["tax_amount"]) == (
        "2026-03-12",
        "EUR",
        "8.80",
        "0.80",
    )


# --------------------------------------------------------------------------------------------
# Proof of address and bank statements
# --------------------------------------------------------------------------------------------

ADDRESSES = [
    (
        ["Ms Emily Carter", "4821 Maple Avenue", "Springfield, IL 62704"],
        ("EMILY CARTER", "4821 MAPLE AVENUE", "SPRINGFIELD", "IL", "62704"),
    ),
    (
        ["Mr James O'Neil", "Flat 2 88 Baker Street", "LONDON", "NW1 6XE"],
        ("JAMES O'NEIL", "FLAT 2 88 BAKER STREET", "LONDON", None, "NW1 6XE"),
    ),
    (
        ["Dhr. Pieter de Vries", "Keizersgracht 221", "1016 DV Amsterdam"],
        ("PIETER DE VRIES", "KEIZERSGRACHT 221", "AMSTERDAM", None, "1016 DV"),
    ),
    (
        ["Sig.ra Giulia Rossi", "Via Roma 15", "00184 Roma (RM)"],
        ("GIULIA ROSSI", "VIA ROMA 15", "ROMA", "RM", "00184"),
    ),
    (
        ["Claire Dubois", "350 King Street West", "Toronto ON M5V 3L9"],
        ("CLAIRE DUBOIS", "350 KING STREET WEST", "TORONTO", "ON", "M5V 3L9"),
    ),
    (
        ["Frau Anna Schmidt", "Goethestraße 17a", "80331 München"],
        ("ANNA SCHMIDT", "GOETHESTRASSE 17A", "MÜNCHEN", None, "80331"),
    ),
]


@pytest.mark.parametrize(("lines", "expected"), ADDRESSES, ids=["US", "GB", "NL", "IT", "CA", "DE"])
def test_bill_addressee_block_in_each_countrys_format(lines: list[str], expected: tuple) -> None:
    rows: list[Row] = [
        (0.04, [(0.06, "Stadtwerke Nordhafen GmbH")]),
        (0.06, [(0.06, "Postfach 1234, 20001 Hamburg")]),
    ]
    rows += [(0.14 + 0.02 * i, [(0.08, text)]) for i, text in enumerate(lines)]
    rows += [(0.14, [(0.6, "Bill date: 15 Feb 2026")]), (0.30, [(0.06, "Amount due"), (0.7, "123.45")])]
    got = values(read_proof_of_address([page(rows)]))
    name, street, city, region, postal = expected
    assert (got["full_name"], got["address_street"], got["address_city"]) == (name, street, city)
    assert (got["address_region"], got["address_postal_code"]) == (region, postal)
    assert got["document_date"] == "2026-02-15"
    assert (
        got["issuer_name"] == "STADTWERKE NORDHAFEN GMBH"
    )  # the issuer's own address is not the addressee's


@pytest.mark.parametrize("title", ["YOUR BILL", "Ihre Rechnung", "Votre facture", "Monthly statement"])
def test_a_title_addressed_to_the_reader_is_not_the_issuer(title: str) -> None:
    """A telecom bill prints "YOUR BILL" top right, on the row of the issuer's logo and name."""
    rows: list[Row] = [
        (0.04, [(0.06, "L"), (0.14, "Levante Mobile"), (0.80, title)]),
        (0.08, [(0.06, "An der Mühlbach 10")]),
        (0.10, [(0.06, "28114 Bremen")]),
        (0.16, [(0.08, "NAME"), (0.52, "INVOICE DATE")]),
        (0.18, [(0.08, "Jonas Weber"), (0.52, "16 July 2023")]),
        (0.20, [(0.08, "Sonnenplatz 136")]),
        (0.22, [(0.08, "30782 Hannover")]),
        (0.30, [(0.50, "TOTAL AMOUNT DUE"), (0.80, "60,02 EUR")]),
    ]
    got = values(read_proof_of_address([page(rows)]))
    assert got["issuer_name"] == "LEVANTE MOBILE"
    assert got["full_name"] == "JONAS WEBER"


def test_a_garbled_caption_over_the_supply_address_and_the_taxs_title_are_nobodys_name() -> None:
    """GIVEN a Spanish property-tax bill photo whose addressee's name OCR lost, so that the lines
    over the supply address are its garbled caption ("DIRECCIONDE SUMNISTRO:") and, above that,
    the tax's title
    THEN the addressee is not found, rather than the tax's name (once SOBRE BIENES INMUEBLES,
    read at 0.955)."""
    rows: list[Row] = [
        (0.02, [(0.06, "Ayuntamiento de A Coruña")]),
        (0.06, [(0.06, "FECHA DE EMISION"), (0.5, "2024-10-18")]),
        (0.16, [(0.06, "IMPUESTO SOBRE BIENES INMUEBLES")]),
        (0.19, [(0.06, "DIRECCIONDE SUMNISTRO:")]),
        (0.21, [(0.06, "Paseo de la Paz, 86, 15010 A Coruña")]),
        (0.30, [(0.06, "IMPORTE A PAGAR:"), (0.8, "3.006,88")]),
    ]
    got = values(read_proof_of_address([page(rows, source="ocr")]))
    assert got["full_name"] is None
    assert is_title("IMPUESTO SOBRE BIENES INMUEBLES")


def test_a_salutation_heading_a_bill_whose_letterhead_ocr_lost_is_not_the_issuer() -> None:
    """GIVEN a phone bill photo whose letterhead OCR could not read, so that "Hi Chloe," is the
    first line of the page
    THEN the issuer is not found rather than "HI CHLOE" (once read at 0.99)."""
    rows: list[Row] = [
        (0.02, [(0.06, "Hi Chloe,")]),
        (0.06, [(0.06, "12/30/2024"), (0.6, "$64.84")]),
        (0.10, [(0.06, "Chloe Megan Nguyen-O'Brien")]),
        (0.12, [(0.06, "1124 S Lakeview Ct Unit 10B")]),
        (0.14, [(0.06, "Springfield, IL 62779")]),
        (0.30, [(0.06, "TOTAL AMOUNT DUE"), (0.8, "$64.84")]),
    ]
    got = values(read_proof_of_address([page(rows, source="ocr")]))
    assert got["issuer_name"] is None
    assert got["full_name"] == "CHLOE MEGAN NGUYEN-O'BRIEN"


def test_a_page_number_in_the_top_corner_is_not_the_issuer() -> None:
    rows: list[Row] = [
        (0.02, [(0.80, "Page 1 of 3")]),
        (0.06, [(0.06, "A"), (0.12, "Altamira Bank")]),
        (0.16, [(0.50, "Date"), (0.65, "31 December 2025")]),
        (0.18, [(0.08, "MRS CHLOE ROBERTS"), (0.50, "IBAN"), (0.65, "FR76 6330 3414 5248 1172 9567 209")]),
        (
            0.20,
            [(0.08, "125 TER RUE LAFAYETTE"), (0.50, "For the period"), (0.65, "01/12/2025 to 31/12/2025")],
        ),
        (0.22, [(0.08, "44100 NANTES")]),
        (0.30, [(0.06, "Account statement")]),
        (0.34, [(0.06, "01/12/2025"), (0.20, "Opening balance"), (0.85, "743,26")]),
    ]
    got = values(read_bank_statement([page(rows)]))
    assert got["issuer_name"] == "ALTAMIRA BANK"
    assert got["full_name"] == "CHLOE ROBERTS"


def test_a_street_that_ocr_split_at_a_wide_gap_is_read_whole() -> None:
    """A street printed with a wide gap ("Via della      Repubblica n. 84") comes out of OCR as two
    pieces on one row; the piece at the block's left edge is the street's beginning."""
    rows: list[Row] = [
        (0.04, [(0.60, "Cassa di Risparmio di Firenze")]),
        (0.14, [(0.20, "Gent.ma Sig.ra Ilaria Bianchi")]),
        (0.16, [(0.20, "Via della"), (0.34, "Repubblica n. 84")]),
        (0.18, [(0.20, "50135 Firenze (FI)")]),
        (0.24, [(0.20, "Estratto conto 6/2023"), (0.60, "Data: 27/04/2023")]),
    ]
    got = values(read_bank_statement([page(rows)]))
    assert (got["full_name"], got["address_street"]) == ("ILARIA BIANCHI", "VIA DELLA REPUBBLICA N. 84")
    assert (got["address_city"], got["address_postal_code"]) == ("FIRENZE", "50135")


def test_bank_statement_in_french_with_period_holder_and_iban() -> None:
    rows = [
        (0.04, [(0.06, "Banque du Port")]),
        (0.08, [(0.06, "Relevé de compte")]),
        (0.12, [(0.06, "M. Jean Dupont"), (0.6, "Date d'édition : 01/04/2026")]),
        (0.14, [(0.06, "8 avenue Jean Jaurès"), (0.6, "Titulaire du compte : M. Jean Dupont")]),
        (0.16, [(0.06, "69007 LYON"), (0.6, "IBAN : FR14 2004 1010 0505 0001 3M02 606")]),
        (0.22, [(0.06, "Période du 01/03/2026 au 31/03/2026")]),
        (0.28, [(0.06, "05/03/2026"), (0.3, "Virement"), (0.8, "1 250,00")]),
    ]
    result = read_bank_statement([page(rows)])
    got = values(result)
    assert (got["full_name"], got["account_holder"]) == ("JEAN DUPONT", "JEAN DUPONT")
    assert (got["address_street"], got["address_city"], got["address_postal_code"]) == (
        "8 AVENUE JEAN JAURÈS",
        "LYON",
        "69007",
    )
    assert got["iban_or_account_number"] == "FR1420041010050500013M02606"
    assert (got["statement_period_start"], got["statement_period_end"]) == ("2026-03-01", "2026-03-31")
    assert got["document_date"] == "2026-04-01"
    assert result.fields["iban_or_account_number"].valid is True
    assert {c.name: c.passed for c in result.checks} == {
        "statement_period_order": True,
        "iban_checksum": True,
    }


@pytest.mark.parametrize(
    ("printed", "value", "valid"),
    [
        ("IBAN IT541045 9145145668345616725", "IT54I0459145145668345616725", True),  # CIN read as 1
        ("Estratto conto · IT54 1045 9145 1456 6834 5616 726", "10459145145668345616726", False),
    ],
)
def test_an_iban_ocr_broke_is_repaired_by_its_format_or_never_passes_as_an_account_number(
    printed: str, value: str, valid: bool
) -> None:
    """GIVEN an Italian statement whose IBAN OCR read with a digit where the CIN letter stands
    THEN the letter is put back where mod 97 confirms it; where a digit is misread too, nothing
    confirms it, and the digits a "conto" label points at are an invalid account number for a
    person (they were once approved straight through)."""
    rows = [
        (0.04, [(0.06, "Cassa di Risparmio di Reggio Emilia")]),
        (0.12, [(0.06, "NICCOLÒ COLOMBO"), (0.6, "Data 19 novembre 2025")]),
        (0.14, [(0.06, "VIA MANZONI, 158A"), (0.5, printed)]),
        (0.16, [(0.06, "42196 REGGIO EMILIA (RE)")]),
    ]
    field = read_bank_statement([page(rows, source="ocr")]).fields["iban_or_account_number"]
    assert (field.value, field.valid) == (value, valid)


def test_bank_statement_without_iban_gives_the_account_numbers_digits() -> None:
    rows = [
        (0.04, [(0.06, "First Harbour Bank")]),
        (0.12, [(0.06, "Emily Carter"), (0.6, "Statement date: April 1, 2026")]),
        (0.14, [(0.06, "4821 Maple Avenue"), (0.6, "Account number: 123-456789-0")]),
        (0.16, [(0.06, "Springfield, IL 62704")]),
        (0.22, [(0.06, "Statement period"), (0.4, "March 1, 2026 - March 31, 2026")]),
    ]
    result = read_bank_statement([page(rows)])
    got = values(result)
    assert got["iban_or_account_number"] == "1234567890"
    assert result.fields["iban_or_account_number"].valid is None  # no checksum to verify
    assert (got["statement_period_start"], got["statement_period_end"]) == ("2026-03-01", "2026-03-31")
    assert got["account_holder"] == "EMILY CARTER"


@pytest.mark.parametrize("kind", sorted(READERS))
def test_empty_document_gives_every_field_empty(kind: str) -> None:
    result = READERS[kind]([PageText(1, (), "ocr")])
    assert result.fields and all(f.value is None and f.confidence == 0.0 for f in result.fields.values())


# --------------------------------------------------------------------------------------------
# End to end: a rendered page through the real OCR
# --------------------------------------------------------------------------------------------


def _render(rows: Sequence[Row], *, size: int = 20, width: int = 1000, height: int = 1300) -> PageText:
    from engines.images import decode_image
    from engines.ocr import get_ocr

    image = Image.new("RGB", (width, height), "white")
    draw = ImageDraw.Draw(image)
    for y, cells in rows:
        for x, text in cells:
            bold = text.startswith("**")
            font = ImageFont.truetype(str(BOLD if bold else FONT), size)
            draw.text((x * width, y * height), text.strip("*"), font=font, fill=(15, 15, 15))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    bgr = decode_image(buffer.getvalue())
    ocr_lines = get_ocr().read_page(bgr)
    return page_from_ocr(
        [(line.text, line.score, line.quad) for line in ocr_lines], width=width, height=height, page=1
    )


needs_font = pytest.mark.skipif(
    not FONT.is_file(), reason="DejaVu Sans is not installed to render test pages"
)


@needs_font
def test_rendered_invoice_end_to_end() -> None:
    pages = [_render(GERMAN_INVOICE)]
    got = values(read_invoice(pages))
    assert got["invoice_number"] == "RE-2026-0042"
    assert (got["invoice_date"], got["due_date"]) == ("2026-03-03", "2026-04-02")
    assert (got["subtotal"], got["tax_amount"], got["total_amount"]) == ("1234.50", "234.56", "1469.06")
    assert got["currency"] == "EUR"  # OCR cannot read "€": the German legal form and address decide


@needs_font
def test_rendered_receipt_end_to_end() -> None:
    rows = [
        (0.03, [(0.3, "**CORNER MARKET")]),
        (0.06, [(0.3, "1200 Pine St")]),
        (0.08, [(0.3, "Seattle, WA 98101")]),
        (0.12, [(0.05, "07/15/2026 12:41")]),
        (0.16, [(0.05, "Milk"), (0.7, "3.49")]),
        (0.18, [(0.05, "Bread"), (0.7, "6.23")]),
        (0.21, [(0.05, "Subtotal"), (0.7, "9.72")]),
        (0.23, [(0.05, "Sales Tax"), (0.7, "0.68")]),
        (0.25, [(0.05, "**TOTAL"), (0.7, "**$10.40")]),
        (0.27, [(0.05, "Cash"), (0.7, "20.00")]),
        (0.29, [(0.05, "Change"), (0.7, "9.60")]),
    ]
    got = values(read_receipt([_render(rows, width=700, height=1000)]))
    assert got == {
        "merchant_name": "CORNER MARKET",
        "date": "2026-07-15",
        "currency": "USD",
        "total_amount": "10.40",
        "tax_amount": "0.68",
    }


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
    pages = [_render(rows)]
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


# --------------------------------------------------------------------------------------------
# Real scanned receipts (SROIE)
# --------------------------------------------------------------------------------------------

SROIE_SAMPLE = (
    "sroie_015.jpg",
    "sroie_076.jpg",
    "sroie_X00016469612.jpg",
    "sroie_X51005676547.jpg",
    "sroie_X51005711403.jpg",
)


def test_real_receipts_totals_are_read() -> None:
    """GIVEN five real scanned Malaysian receipts WHEN read THEN at least four totals are exact."""
    folder = REALDATA / "receipts_sroie"
    truth_file = folder / "truth.json"
    if not truth_file.is_file():
        pytest.skip(f"real receipts not found at {folder} (they live beside the checkout, in CI too)")
    from engines.images import decode_image
    from engines.ocr import get_ocr

    truth = json.loads(truth_file.read_text())
    right = 0
    for name in SROIE_SAMPLE:
        image = decode_image((folder / name).read_bytes())
        height, width = image.shape[:2]
        lines = get_ocr().read_page(image)
        text = page_from_ocr(
            [(line.text, line.score, line.quad) for line in lines], width=width, height=height, page=1
        )
        got = read_receipt([text]).fields["total_amount"].value
        right += got == truth[name]["fields"]["total_amount"]
    assert right >= 4, f"{right}/5 receipt totals right"


# --------------------------------------------------------------------------------------------
# What OCR does to text
# --------------------------------------------------------------------------------------------


def test_a_floors_ordinal_indicator_read_as_a_degree_sign_is_an_ordinal_again() -> None:
    """GIVEN a Spanish bill addressed to "Calle de Santa Ana 138, 6º A", the ordinal read by OCR
    as the degree sign it resembles
    WHEN it is read
    THEN the street carries the ordinal indicator, as printed."""
    rows = [
        (0.04, [(0.06, "Canal Greenfield S.A.")]),
        (0.12, [(0.06, "Jesús Gil Martín"), (0.6, "Fecha: 16/08/2023")]),
        (0.14, [(0.06, "Calle de Santa Ana 138, 6° A")]),
        (0.16, [(0.06, "50038 Zaragoza")]),
    ]
    got = values(read_proof_of_address([page(rows, source="ocr")]))
    assert got["address_street"] == "CALLE DE SANTA ANA 138, 6º A"


@pytest.mark.parametrize(
    ("printed", "street"),
    [
        ("Ronda de Goya 1016º A", "RONDA DE GOYA 101 6º A"),  # OCR glued the house and the floor
        ("Calle Nueva 376° izq.", "CALLE NUEVA 37 6º IZQ."),  # and read the ordinal as a degree
        ("Calle Mayor 12, 3º B", "CALLE MAYOR 12, 3º B"),
    ],
)
def test_a_house_number_glued_to_its_floor_is_parted_from_it(printed: str, street: str) -> None:
    """GIVEN a Spanish bill whose street OCR read with the house number glued to the floor's
    ordinal ("1016º" of "101 6º")
    THEN the two are parted: a floor's ordinal has one digit, no house number an indicator."""
    rows = [
        (0.04, [(0.06, "Canal Greenfield S.A.")]),
        (0.12, [(0.06, "Jesús Gil Martín"), (0.6, "Fecha: 16/08/2023")]),
        (0.14, [(0.06, printed)]),
        (0.16, [(0.06, "50038 Zaragoza")]),
    ]
    assert values(read_proof_of_address([page(rows, source="ocr")]))["address_street"] == street


@pytest.mark.parametrize(
    "tax_line",
    [
        "VAT No. GB579665683",
        "EINGB254652213-w",
        "incl. VAT 20%  2.83",
        "incl.VAT20%  2.83",  # the tax glued to its rate
    ],  # the VAT id read glued to a garbled label
)
def test_a_receipt_that_prints_no_currency_takes_its_countrys_from_the_vat_it_names(tax_line: str) -> None:
    """GIVEN a British till receipt whose amounts carry no £ sign and whose postcode line OCR lost,
    so that only its VAT line says where it is from
    WHEN it is read
    THEN its currency is the pound, as the country's currency (a weaker confidence than printed)."""
    rows = [
        (0.04, [(0.2, "Wilson's Grocery")]),
        (0.06, [(0.2, "28Springfield Road")]),
        (0.08, [(0.2, "OXFORD")]),
        (0.10, [(0.2, tax_line)]),
        (0.14, [(0.2, "20/03/2024 16:20")]),
        (0.20, [(0.1, "Dish Soap"), (0.7, "3.50")]),
        (0.24, [(0.1, "Total amount"), (0.7, "3.50")]),
    ]
    currency = read_receipt([page(rows, source="ocr")]).fields["currency"]
    assert currency.value == "GBP" and currency.confidence < 0.9


def test_a_caption_row_set_tight_over_its_values_gives_each_label_the_value_under_it() -> None:
    """GIVEN a German electricity bill whose row of captions ("Rechnungsdatum | Fälliger Betrag |
    Fällig am") stands so close over its values that the rows touch, two captions misspelt by OCR
    WHEN it is read
    THEN the bill's date is the one under "Rechnungsdatum", not the due date further right."""
    lines = [
        ("Redfernstrom", (0.24, 0.085, 0.36, 0.099)),
        ("Rechnungsdatum", (0.195, 0.181, 0.262, 0.193)),
        ("Faliger Berag", (0.364, 0.181, 0.42, 0.193)),
        ("Falig am", (0.531, 0.181, 0.568, 0.193)),
        ("2025-03-28", (0.196, 0.192, 0.255, 0.203)),
        ("228,49EUR", (0.364, 0.192, 0.426, 0.204)),
        ("2025-04-11", (0.531, 0.191, 0.589, 0.203)),
        ("FRAU", (0.188, 0.242, 0.223, 0.255)),
        ("L. HOFMANN", (0.188, 0.254, 0.256, 0.265)),
        ("MUHLENSTR.145", (0.188, 0.266, 0.27, 0.277)),
        ("45026ESSEN", (0.188, 0.278, 0.26, 0.289)),
    ]
    ocr = PageText(1, tuple(sort_reading_order([Line(t, 0.95, box, 1) for t, box in lines])), "ocr")
    assert read_proof_of_address([ocr]).fields["document_date"].value == "2025-03-28"


@pytest.mark.parametrize(
    ("text", "city", "postcode"),
    [
        ("Oxford Ox96NZ", "OXFORD", "OX9 6NZ"),  # a letter read in lower case
        ("OXFORD 0X9 6SX", "OXFORD", "OX9 6SX"),  # O read as zero
        ("0X96SX", "", "OX9 6SX"),
        ("SHEFTIELD S6TAL", "SHEFTIELD", "S6 7AL"),  # the inward 7 read as T
        ("Item 12 OBS", None, None),  # an area of digits alone is no postcode
        ("Birmingham BI0 7YG", "BIRMINGHAM", "B10 7YG"),  # no area is BI: B, and the I a one
        # glued to a city in capitals, the inward 1 read as I; the two-letter area wins
        ("LONDONSE7IQG", "LONDON", "SE7 1QG"),
        ("LEEDSLS62AB", "LEEDS", "LS6 2AB"),
        ("INVOICE2024", None, None),
    ],
)
def test_a_british_postcode_ocr_misread_is_still_a_postcode(
    text: str, city: str | None, postcode: str | None
) -> None:
    parsed = parse_city_line(Line(text, 0.9, (0.1, 0.1, 0.3, 0.12), 1))
    assert (parsed.city, parsed.postal_code) == (city, postcode) if parsed else city is None


@pytest.mark.parametrize(
    ("text", "postcode", "repaired"),
    [
        ("Mississauga ON L7C sV3", "L7C 5V3", True),  # a digit read as a letter: a guess, doubted
        ("Toronto ON MSV 2T6", "M5V 2T6", True),
        ("Halifax NS B3T 4R6", "B3T 4R6", False),
        ("Toronto ON M5V ZT6", None, None),  # Z is no digit's lookalike
    ],
)
def test_a_canadian_postal_code_ocr_misread_is_still_one(
    text: str, postcode: str | None, repaired: bool | None
) -> None:
    parsed = parse_city_line(Line(text, 0.9, (0.1, 0.1, 0.3, 0.12), 1))
    assert (
        (parsed.postal_code, parsed.postal_code_repaired) == (postcode, repaired)
        if parsed
        else postcode is None
    )


@pytest.mark.parametrize(
    ("text", "city", "postcode"),
    [
        ("CH-20B5Neuchatel", "NEUCHATEL", "2085"),  # an 8 read as B
        ("B1363Munchen", "MUNCHEN", "81363"),
        ("BOSS Hamburg", None, None),  # a word, not a code: too few digits
    ],
)
def test_a_postal_code_before_its_city_with_a_digit_read_as_a_letter_is_repaired(
    text: str, city: str | None, postcode: str | None
) -> None:
    parsed = parse_city_line(Line(text, 0.9, (0.1, 0.1, 0.3, 0.12), 1))
    if city is None:
        assert parsed is None
    else:
        assert parsed is not None and (parsed.city, parsed.postal_code, parsed.postal_code_repaired) == (
            city,
            postcode,
            True,
        )


def test_the_issuers_own_address_is_never_the_addressees() -> None:
    """GIVEN a gas bill whose addressee's block OCR could not parse (its city line unreadable)
    and whose issuer prints its own name, address, phone and web address at the top
    THEN no addressee is read: the issuer's letterhead is not taken for it."""
    rows = [
        (0.19, [(0.20, "Gaz de Neuchatel"), (0.57, "VOTRE FACTURE DE GAZ NATUREL")]),
        (0.217, [(0.20, "Rue de Lausanne 58")]),
        (0.227, [(0.20, "1791 Fribourg")]),
        (0.238, [(0.20, "Tel 020 786 90 36")]),
        (0.251, [(0.20, "www.gaz-neuch.ch")]),
        (0.295, [(0.21, "Jean-Luc Fontaine"), (0.55, "4 octobre 2024")]),
        (0.306, [(0.21, "Chemin de Geneve 113")]),
        (0.317, [(0.21, "CH-2#8%Neuc")]),
    ]
    got = values(read_proof_of_address([page(rows, source="ocr")]))
    assert (got["full_name"], got["address_city"], got["issuer_name"]) == (None, None, "GAZ DE NEUCHATEL")


def test_a_banks_letterhead_block_is_never_the_account_holders_address() -> None:
    """GIVEN a Spanish statement photo whose bank prints its name and address at the top
    ("CAJA MERIDIAN", no legal form, no phone read) and whose holder's block OCR could not parse
    THEN the bank's block is not taken for the holder's (CAJA MERIDIAN was read as the holder at
    0.98): a bank's word in the letterhead's name makes the block the issuer's own."""
    rows = [
        (0.04, [(0.10, "CAJA MERIDIAN")]),
        (0.06, [(0.10, "Calle Mayor 10")]),
        (0.08, [(0.10, "48059 Bilbao")]),
        (0.14, [(0.10, "D. Francsco Gomeu Semano")]),
        (0.16, [(0.10, "Camino de a Prinoes la")]),
        (0.18, [(0.10, "28081 Madnd!")]),
        (0.30, [(0.10, "Extracto de movimientos")]),
    ]
    got = values(read_bank_statement([page(rows, source="ocr")]))
    assert got["full_name"] != "CAJA MERIDIAN" and got["account_holder"] != "CAJA MERIDIAN"
    assert got["issuer_name"] == "CAJA MERIDIAN"


def test_a_postcode_under_its_street_with_the_town_line_unread_still_gives_the_address() -> None:
    """GIVEN a British bill whose addressee block OCR read as name, street and postcode, the
    town's line lost
    THEN the name, street and postcode are read, and the city is left empty (for a person)."""
    rows = [
        (0.08, [(0.22, "Oxford Water"), (0.70, "WATER BILL")]),
        (0.15, [(0.67, "Statement date 05/01/2024")]),
        (0.19, [(0.22, "OLIVER THOMAS")]),
        (0.20, [(0.22, "97ManorStreet")]),
        (0.226, [(0.22, "OX41WJ")]),
        (0.25, [(0.54, "Amount due"), (0.73, "171.47")]),
    ]
    got = values(read_proof_of_address([page(rows, source="ocr")]))
    assert (got["full_name"], got["address_street"], got["address_city"], got["address_postal_code"]) == (
        "OLIVER THOMAS",
        "97 MANOR STREET",
        None,
        "OX4 1WJ",
    )


@pytest.mark.parametrize(
    ("text", "repaired"),
    [
        ("Birmingham BI0 7YG", True),
        ("SHEFTIELD S6TAL", True),
        ("Oxford Ox96NZ", False),  # only the case was OCR's: no letter was taken for a digit
        ("BIRMINGHAM B10 7YQ", False),
        ("LONDONSE71QG", True),  # where the city ends is a guess
    ],
)
def test_a_postcode_read_only_after_undoing_a_confusion_is_marked_repaired(text: str, repaired: bool) -> None:
    parsed = parse_city_line(Line(text, 0.9, (0.1, 0.1, 0.3, 0.12), 1))
    assert parsed is not None and parsed.postal_code_repaired is repaired


@pytest.mark.parametrize("title", ["EXTRAIT DE COMPTE", "RELEVÉ DE COMPTE COURANT"])
def test_a_statements_title_is_not_its_issuer(title: str) -> None:
    """GIVEN a French statement headed by its title, the bank's name below it
    WHEN it is read
    THEN the issuer is the bank, not the title."""
    rows = [
        (0.04, [(0.06, title)]),
        (0.07, [(0.06, "Crédit Levante")]),
        (0.09, [(0.06, "12 rue de la Paix, 75002 Paris")]),
        (0.16, [(0.06, "M. Karim Laurent"), (0.6, "Date : 12/04/2023")]),
        (0.18, [(0.06, "83 place de la Gare")]),
        (0.20, [(0.06, "33300 Bordeaux")]),
        (0.26, [(0.06, "IBAN FR76 3000 6000 0112 3456 7890 189")]),
        (0.30, [(0.06, "Période du 01/03/2023 au 31/03/2023")]),
    ]
    assert read_bank_statement([page(rows)]).fields["issuer_name"].value == "CRÉDIT LEVANTE"


def test_words_ocr_glued_together_are_split_again() -> None:
    rows = [
        (0.04, [(0.06, "SONNENTALBANKAG")]),
        (0.12, [(0.06, "Frau AnnaSchmidt"), (0.6, "Datum: 02.03.2026")]),
        (0.14, [(0.06, "GoethestraBe17a")]),
        (0.16, [(0.06, "80331Munchen")]),
        (0.90, [(0.06, "Sonnental Bank AG · Sitz Hamburg")]),
    ]
    got = values(read_proof_of_address([page(rows, source="ocr")]))
    assert got["full_name"] == "ANNA SCHMIDT"  # the space OCR dropped between mixed-case words
    assert got["address_street"] == "GOETHESTRASSE 17A"  # "ß" read as "B", the house number glued
    assert (got["address_postal_code"], got["address_city"]) == ("80331", "MUNCHEN")
    assert got["issuer_name"] == "SONNENTAL BANK AG"  # spelled out with spaces in the footer


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Miami,FL33139", ("MIAMI", "FL", "33139")),
        ("QuebecQCGOB1H0", ("QUEBEC", "QC", "G0B 1H0")),  # "O" read for the zero of G0B
        ("40100 BOLOGNABO", ("BOLOGNA", "BO", "40100")),  # province glued to its city
        ("20100 MILANO", ("MILANO", None, "20100")),  # ...but a city ending in capitals is kept
        ("4857 ARBreda", ("BREDA", None, "4857 AR")),
        ("CH-4060 Basel", ("BASEL", None, "4060")),
    ],
)
def test_address_last_lines_as_ocr_prints_them(text: str, expected: tuple) -> None:
    rows = [(0.12, [(0.06, "Emily Carter")]), (0.14, [(0.06, "12 Harbour Street")]), (0.16, [(0.06, text)])]
    got = values(read_proof_of_address([page(rows, source="ocr")]))
    assert (got["address_city"], got["address_region"], got["address_postal_code"]) == expected


def test_invoice_without_a_bill_to_label_takes_the_addressee_under_the_window() -> None:
    rows = [
        (0.04, [(0.10, "Eichhorn SASU")]),
        (0.14, [(0.10, "Eichhorn SASU · 30 bis chemin Nationale - 44000 NANTES")]),
        (0.16, [(0.10, "Lefèvre et Benali SAS"), (0.60, "Facture n° : 2383784")]),
        (0.18, [(0.10, "168 bis rue Nationale"), (0.60, "Date : 13/05/2023")]),
        (0.20, [(0.10, "59000 Lille")]),
        (0.40, [(0.55, "Total TTC"), (0.80, "120,00")]),
    ]
    got = values(read_invoice([page(rows)]))
    assert (got["vendor_name"], got["customer_name"]) == ("EICHHORN SASU", "LEFÈVRE ET BENALI SAS")
    assert (got["invoice_number"], got["invoice_date"]) == ("2383784", "2023-05-13")


def test_a_value_drifting_out_of_its_row_on_a_skewed_photo_is_still_found() -> None:
    rows = [
        (0.03, [(0.3, "HELIX DIY STORE")]),
        (0.10, [(0.05, "15/06/2024 13:27")]),
        (0.610, [(0.05, "BALANCE DUE"), (0.60, "363.58")]),
        (0.636, [(0.05, "CARD PAYMENT"), (0.60, "363.58")]),
        (0.658, [(0.05, "incl. VAT 20%")]),
        (0.671, [(0.60, "60.60")]),  # half a line lower than its label
    ]
    got = values(read_receipt([page(rows, source="ocr")]))
    assert (got["total_amount"], got["tax_amount"]) == ("363.58", "60.60")


@pytest.mark.parametrize(
    ("sentence", "due"),
    [
        ("Payment terms: 7 days net. Please pay by 2025-03-06.", "2025-03-06"),
        ("Bitte überweisen Sie den Betrag bis zum 2024-06-13.", "2024-06-13"),
        ("Wij verzoeken u het bedrag vóór 27 maart 2025 over te maken.", "2025-03-27"),
    ],
)
def test_due_date_inside_a_sentence_after_another_label(sentence: str, due: str) -> None:
    rows = [
        (0.05, [(0.1, "ACME LTD")]),
        (0.10, [(0.1, "INVOICE")]),
        (0.15, [(0.1, "Invoice number: INV-1")]),
        (0.20, [(0.1, "Invoice date: 2025-02-27")]),
        (0.30, [(0.1, "Total due EUR 100.00")]),
        (0.40, [(0.1, sentence)]),
    ]
    page = PageText(
        page=1,
        lines=tuple(Line(text, 1.0, (x, y, x + 0.7, y + 0.02), 1) for y, cells in rows for x, text in cells),
        source="text_layer",
    )
    assert read_invoice([page]).fields["due_date"].value == due


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


def test_a_name_that_begins_with_a_tax_qualifier_keeps_its_first_letters() -> None:
    """GIVEN a scanned invoice billed to "Singh Software Ltd." (whose first letters spell the
    Spanish "sin", "without" tax) in a two-column address block
    WHEN it is read
    THEN the customer is the whole name, not "GH SOFTWARE LTD." after a qualifier label."""
    rows = [
        (0.04, [(0.06, "MURPHY & KOWALSKI LTD")]),
        (0.06, [(0.06, "96 Park Close · BRIGHTON · BN9 3EU")]),
        (0.10, [(0.70, "INVOICE")]),
        (0.12, [(0.60, "Invoice No."), (0.80, "SV-86862")]),
        (0.14, [(0.60, "Date"), (0.80, "13/07/2024")]),
        (0.18, [(0.06, "Singh Software Ltd."), (0.55, "MURPHY & KOWALSKI LTD")]),
        (0.20, [(0.06, "Attn: Isla Mitchell"), (0.55, "96 Park Close")]),
        (0.22, [(0.06, "105 QUEEN ROAD"), (0.55, "BRIGHTON")]),
        (0.24, [(0.06, "LONDON"), (0.55, "BN9 3EU")]),
        (0.26, [(0.06, "N18 7TB")]),
        (0.40, [(0.06, "Office chair"), (0.80, "257.53")]),
        (0.60, [(0.55, "Subtotal"), (0.80, "257.53")]),
        (0.62, [(0.55, "VAT 20%"), (0.80, "51.51")]),
        (0.64, [(0.55, "Total (GBP)"), (0.80, "309.04")]),
    ]
    assert values(read_invoice([page(rows, source="ocr")]))["customer_name"] == "SINGH SOFTWARE LTD."


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
    ("text", "boilerplate"),
    [
        ("Hartelijk dank voor uw opdracht.", True),
        ("Wir danken für Ihren Auftrag.", True),
        ("Thank you for your business!", True),
        ("ATLAS BV", False),
        ("J. R. R. Tolkien Ltd.", False),
        ("Dankwart Meier", False),
        ("Ville de la Rochelle", False),
        ("Hi Chloe,", True),  # a salutation
        ("Dear Ms Weber", True),
        ("Sehr geehrte Frau Koch,", True),
        ("Hilton Garden Inn", False),
        ("Hi-Tech Solutions Ltd", False),
        ("Caro Supermercati S.r.l.", False),
    ],
)
def test_a_courtesy_sentence_is_never_a_party_name(text: str, boilerplate: bool) -> None:
    from engines.business.names import is_boilerplate

    assert is_boilerplate(text) is boilerplate


@pytest.mark.parametrize(
    ("tax_line", "tax", "valid"),
    [
        ("VAT 20%", "4.00", True),  # 24.00 includes 4.00 at the printed 20 %
        ("TVA", "4.00", True),  # no rate printed: 20 % is a common one
        ("MwSt. 7 %", "4.00", None),  # the printed rate says otherwise
        ("VAT", "3.33", None),  # no rate gives 3.33 out of 24.00
    ],
)
def test_a_receipt_tax_agreeing_with_the_total_at_a_vat_rate_is_cross_checked(
    tax_line: str, tax: str, valid: bool | None
) -> None:
    rows = [
        (0.04, [(0.30, "Corner Deli Ltd")]),
        (0.08, [(0.30, "12/03/2025 14:02")]),
        (0.30, [(0.10, "Sandwich"), (0.70, "24.00")]),
        (0.40, [(0.10, "TOTAL"), (0.70, "24.00")]),
        (0.44, [(0.10, tax_line), (0.70, tax)]),
    ]
    result = read_receipt([page(rows, source="ocr")])
    assert result.fields["tax_amount"].value == tax
    assert result.fields["tax_amount"].valid is valid


def test_an_invoice_without_a_due_date_label_says_so_with_confidence() -> None:
    without_due = [
        (y, [cell for cell in cells if not cell[1].startswith(("Fällig", "02.04"))])
        for y, cells in GERMAN_INVOICE
    ]
    absent = read_invoice([page(without_due)]).fields["due_date"]
    assert absent.value is None and absent.confidence == ABSENT_LABEL_CONFIDENCE
    unreadable = [
        (y, [(x, "bald" if text == "02.04.2026" else text) for x, text in cells])
        for y, cells in GERMAN_INVOICE
    ]
    missed = read_invoice([page(unreadable)]).fields["due_date"]
    assert missed.value is None and missed.confidence == 0.0  # a label without a date: found nothing


def test_an_invoice_printing_a_later_date_under_unknown_wording_claims_no_absence() -> None:
    """GIVEN an invoice with no due-date label whose closing sentence names a date after the
    invoice date in words no label knows
    WHEN it is read
    THEN the due date is not found, and not claimed absent either: it is likely printed."""
    without_due = [
        (y, [cell for cell in cells if not cell[1].startswith(("Fällig", "02.04"))])
        for y, cells in GERMAN_INVOICE
    ]
    worded = [*without_due, (0.70, [(0.06, "Kindly settle this amount no later than 02.04.2026.")])]
    due = read_invoice([page(worded)]).fields["due_date"]
    assert due.value is None and due.confidence == 0.0
    undated = [
        (y, [cell for cell in cells if not cell[1].startswith(("Rechnungsdatum", "03.03"))])
        for y, cells in without_due
    ]
    due = read_invoice([page(undated)]).fields["due_date"]
    assert due.value is None and due.confidence == 0.0  # its invoice date unread: no evidence either


def test_an_invoice_number_with_a_lower_case_l_among_capitals_is_doubted() -> None:
    """GIVEN invoices numbered "TI-11949" and "T1l-11949" (OCR's reading of the first)
    THEN the second's confidence is half the first's: such numbers print no lower-case l."""

    def number(printed: str) -> float:
        rows = [
            (y, [(x, printed if text == "RE-2026-0042" else text) for x, text in cells])
            for y, cells in GERMAN_INVOICE
        ]
        return read_invoice([page(rows, source="ocr")]).fields["invoice_number"].confidence

    assert number("T1l-11949") == pytest.approx(number("TI-11949") / 2, abs=0.001)


def test_a_receipt_tax_summary_gives_the_total_of_its_rates_lines() -> None:
    """Each VAT rate's line and then their total under "TAX": the tax is the total, not the first
    rate's line (tax included in prices, so no subtotal plus tax arithmetic settles it)."""
    rows = [
        (0.04, [(0.30, "QUERCIA FOODS")]),
        (0.08, [(0.30, "22/03/26 19:56")]),
        (0.30, [(0.10, "Dish Soap"), (0.70, "1,66 A")]),
        (0.40, [(0.10, "TOTAL AMOUNT"), (0.70, "€ 38,97")]),
        (0.44, [(0.10, "incl. VAT 21%"), (0.70, "0,81")]),
        (0.46, [(0.10, "incl. VAT 9%"), (0.70, "2,83")]),
        (0.48, [(0.10, "TAX"), (0.70, "3,64")]),
    ]
    tax = read_receipt([page(rows, source="ocr")]).fields["tax_amount"]
    assert tax.value == "3.64"


def test_a_receipt_tax_tied_between_two_amounts_is_a_guess() -> None:
    rows = [
        (0.04, [(0.30, "Corner Deli Ltd")]),
        (0.30, [(0.10, "TOTAL"), (0.70, "24.00")]),
        (0.34, [(0.10, "VAT 20%"), (0.70, "3.00")]),
        (0.36, [(0.10, "VAT 5%"), (0.70, "0.30")]),
    ]
    tied = read_receipt([page(rows, source="ocr")]).fields["tax_amount"]
    single = read_receipt([page(rows[:3], source="ocr")]).fields["tax_amount"]
    assert tied.value is not None and tied.confidence < single.confidence


def test_a_receipt_printing_no_tax_at_all_reports_none_with_confidence() -> None:
    rows = [
        (0.04, [(0.30, "Corner Deli Ltd")]),
        (0.08, [(0.30, "12/03/2025 14:02")]),
        (0.30, [(0.10, "Sandwich"), (0.70, "24.00")]),
        (0.40, [(0.10, "TOTAL"), (0.70, "24.00")]),
    ]
    tax = read_receipt([page(rows, source="ocr")]).fields["tax_amount"]
    assert tax.value is None and tax.confidence == ABSENT_LABEL_CONFIDENCE


@pytest.mark.parametrize(
    ("printed", "name"),
    [
        ("D. François David Çelik", "FRANÇOIS DAVID ÇELIK"),  # Spanish "Don"
        ("Dña. Ana López", "ANA LÓPEZ"),
        ("DNA. LAURA MARTIN NAVARRO", "LAURA MARTIN NAVARRO"),  # "Dña." with its tilde lost
        ("DOA. NURIA MARTINEZ", "NURIA MARTINEZ"),  # its ñ read as an o
        ("Doa Nuria", "DOA NURIA"),  # without the full stop, no title
        ("Herrn Jonas Lange", "JONAS LANGE"),  # German address form
        ("M. Pierre Dubois", "PIERRE DUBOIS"),
        ("Gent.ma Sig.ra Laura Rossi", "LAURA ROSSI"),
        ("D Smith", "D SMITH"),  # an initial without its full stop is part of the name
        ("M Dubois", "M DUBOIS"),
        ("M. E. Evans", "M. E. EVANS"),  # initials, not Monsieur before an initial
        ("K.Johnson", "K. JOHNSON"),  # an initial's space OCR dropped
        ("M. Patel", "M. PATEL"),  # before a surname alone: an initial, not Monsieur
        ("M. van den Berg", "M. VAN DEN BERG"),  # before a Dutch particle: an initial
        ("M. VAN LEEUWEN", "M. VAN LEEUWEN"),  # the particle in capitals too
        ("M. DE VRIES", "M. DE VRIES"),
        ("DeheerD.HENDRIKS", "D. HENDRIKS"),  # a title OCR glued to the name, told by case
        ("MRNoah Fitzgerald", "NOAH FITZGERALD"),  # a title in capitals glued to a name
        ("MRSnow White", "SNOW WHITE"),  # MR before Snow, not MRS before "now"
        ("MRNOAH FITZGERALD", "NOAH FITZGERALD"),  # all capitals: NOAH is a common name
        ("MRSANCHEZ", "MRSANCHEZ"),  # SANCHEZ is not spelled as its bearers print it: left
        ("DRAKE SMITH", "DRAKE SMITH"),  # AKE is no name: Drake is
        ("Drew Barry", "DREW BARRY"),
    ],
)
def test_courtesy_titles_are_not_part_of_a_persons_name(printed, name):
    assert clean_person(printed) == name


@pytest.mark.parametrize(
    ("printed", "city", "postal_code"),
    [
        ("33200 B0RDEAUX", "BORDEAUX", "33200"),  # a monospaced O read as a zero
        ("75008 PAR1S", "PARIS", "75008"),
        ("LONDON SW1A 1AA", "LONDON", "SW1A 1AA"),  # a postcode's digits stay digits
        ("1012 AB AMSTERDAM", "AMSTERDAM", "1012 AB"),
    ],
)
def test_a_city_line_is_read_through_digits_ocr_put_in_its_words(printed, city, postal_code):
    parsed = parse_city_line(Line(printed, 0.9, (0.1, 0.5, 0.4, 0.52), 1))
    assert parsed is not None and (parsed.city, parsed.postal_code) == (city, postal_code)


@pytest.mark.parametrize(
    ("printed", "city"),
    [
        ("Salt LakeCity. UT84158", "SALT LAKECITY"),  # the comma before the state read as a stop
        ("Philadelphia. PA 19160", "PHILADELPHIA"),
        ("St. Louis, MO 63101", "ST. LOUIS"),  # an abbreviation's stop inside the name stays
        ("Chicago.IL60673", "CHICAGO"),  # ... and glued to the state
        ("Miami.FL33145", "MIAMI"),
    ],
)
def test_a_citys_name_never_ends_in_a_full_stop(printed: str, city: str) -> None:
    parsed = parse_city_line(Line(printed, 0.9, (0.1, 0.5, 0.4, 0.52), 1))
    assert parsed is not None and parsed.city == city


RECEIPT_BODY = [
    (0.10, [(0.30, "12 Pine Boulevard")]),
    (0.14, [(0.30, "TAX INVOICE")]),
    (0.18, [(0.10, "10/21/24 8:12 PM")]),
    (0.22, [(0.10, "Club Sandwich"), (0.70, "27.98")]),
    (0.30, [(0.10, "Total"), (0.70, "27.98")]),
]


def test_a_merchant_name_ocr_broke_in_pieces_is_joined_and_trusted_less() -> None:
    whole = read_receipt([page([(0.05, [(0.30, "The Sonnental Arms")]), *RECEIPT_BODY], source="ocr")])
    pieces = read_receipt(
        [page([(0.05, [(0.25, "THE"), (0.30, "SONNENTAL ARMS")]), *RECEIPT_BODY], source="ocr")]
    )
    assert whole.fields["merchant_name"].value == pieces.fields["merchant_name"].value == "THE SONNENTAL ARMS"
    assert pieces.fields["merchant_name"].confidence == pytest.approx(
        whole.fields["merchant_name"].confidence / 2, abs=0.01
    )


def test_a_letters_salutation_and_its_opening_sentence_are_not_the_customer() -> None:
    letter = [
        (0.04, [(0.50, "Moore & Clarke B.V.")]),
        (0.10, [(0.10, "Invoice number FA-084757")]),
        (0.14, [(0.10, "Dear Customer,")]),
        (0.16, [(0.10, "For the services belowwe charge asfollows:")]),  # as OCR glued it: 7 words
        (0.30, [(0.60, "Total"), (0.80, "EUR 1,200.00")]),
    ]
    assert read_invoice([page(letter)]).fields["customer_name"].value is None  # none is printed


@pytest.mark.parametrize("text", ["21.Juni 2022", "21. Juni 2022", "12.03.2024", ": 03/04/2026"])
def test_a_date_is_never_read_as_an_invoice_number(text: str) -> None:
    """A photographed German invoice put its "DATUM" box's "21.Juni 2022" next to the number's
    label; the date's day is no identifier."""
    assert code_parser(text) is None


@pytest.mark.parametrize(
    ("text", "number"),
    [
        ("9724/2022", "9724/2022"),
        ("No. RE-2026-0042", "RE-2026-0042"),
        ("A-26.03.2024", "A-26.03.2024"),  # a date that ends with the number is part of it
        # a page header's "MF-72235 · 26 juli 2024", its separator and a space lost by OCR
        ("MF-72235-26juli 2024", "MF-72235"),
        ("F2023/7673-19-09-2023", "F2023/7673"),  # the date ends the glued token
        ("INV-2023-01-15", "INV-2023-01-15"),  # a number made of a date keeps it
        ("NR-77448", "NR-77448"),  # a prefix a hyphen joins to the digits is the number's own
        ("Nr. 77448", "77448"),  # a caption's abbreviation is not
        ("Ne2552439", "2552439"),  # "Nº" whose º OCR read as an e, glued to the number
        ("NE2552439", "NE2552439"),  # in capitals, a prefix of the number's own
    ],
)
def test_an_invoice_number_keeps_its_own_year_and_sheds_a_date_glued_after_it(text: str, number: str) -> None:
    parsed = code_parser(text)
    assert parsed is not None and parsed.value == number


def test_a_title_ocr_read_into_the_merchants_line_is_cut_off() -> None:
    rows = [(0.05, [(0.30, "Supermercado Nordlicht FACTURA SIMPLIFICADA")]), *RECEIPT_BODY[1:]]
    assert read_receipt([page(rows, source="ocr")]).fields["merchant_name"].value == "SUPERMERCADO NORDLICHT"


def test_the_addressee_wins_over_the_issuers_footer_address_ocr_misspelled() -> None:
    """A photographed water bill: OCR glued the addressee's "Oxford OX1 3YP" and dropped letters
    of the issuer's name in its small footer; the footer's address is still the issuer's."""
    rows: list[Row] = [
        (0.04, [(0.18, "Riverside Water Services")]),
        (0.10, [(0.18, "Ms. Amelia Evans"), (0.55, "Invoice date:"), (0.66, "2023-12-22")]),
        (0.12, [(0.18, "33Chapel Way"), (0.55, "Acct no."), (0.66, "7000112511")]),
        (0.14, [(0.18, "OxfordOX13YP")]),
        (0.24, [(0.18, "WATER BILL")]),
        (0.28, [(0.20, "Total to pay:"), (0.70, "2,390.09")]),
        (0.86, [(0.12, "Riveride Water Servis")]),
        (0.88, [(0.12, "81 Queen Gardes")]),
        (0.90, [(0.12, "GLASGOW")]),
        (0.92, [(0.12, "G16 7NB")]),
    ]
    got = values(read_proof_of_address([page(rows, source="ocr")]))
    assert (got["full_name"], got["address_city"], got["address_postal_code"]) == (
        "AMELIA EVANS",
        "OXFORD",
        "OX1 3YP",
    )
    assert got["issuer_name"] == "RIVERSIDE WATER SERVICES"


@pytest.mark.parametrize(
    "attention",
    [
        "z. Hd. Dieter Braun",
        "Attn: Dieter Braun",
        "c/o Dieter Braun",
        "c.a. Dieter Braun",
        "Alla c.a. Dieter Braun",
        "A l'attentiondeDieterBraun",  # glued by OCR, told apart by case
    ],
)
def test_the_company_above_an_attention_line_is_the_customer(attention: str) -> None:
    """DIN 5008, English and Italian ("c.a.": cortese attenzione) letters put the company first and
    the person it is for under it."""
    rows: list[Row] = [
        (0.04, [(0.06, "Sonnentalsoft GmbH")]),
        (0.06, [(0.06, "Hauptstraße 57, 40306 Düsseldorf")]),
        (0.14, [(0.06, "Nova Steuerberatung UG"), (0.60, "Rechnungsnummer:"), (0.80, "RE-2026-0042")]),
        (0.16, [(0.06, attention), (0.60, "Rechnungsdatum:"), (0.80, "03.03.2026")]),
        (0.18, [(0.06, "Lindenallee 5")]),
        (0.20, [(0.06, "10115 Berlin")]),
        (0.30, [(0.60, "Gesamtbetrag"), (0.82, "1.469,06 €")]),
    ]
    result = read_invoice([page(rows)])
    assert result.fields["customer_name"].value == "NOVA STEUERBERATUNG UG"


def _invoice_dated(date: str, amount: str) -> list[Row]:
    return [
        (0.04, [(0.06, "Murphy IT Solutions Ltd.")]),
        (0.10, [(0.06, "INVOICE")]),
        (0.14, [(0.06, "Invoice #: 2435928"), (0.60, f"Date: {date}")]),
        (0.20, [(0.06, "Bill To:")]),
        (0.22, [(0.06, "Mitchell & Nguyen Ltee")]),
        (0.44, [(0.60, "Total"), (0.82, amount)]),
    ]


def test_an_ambiguous_date_on_a_canadian_invoice_is_trusted_less() -> None:
    """09/05/2024 is May 9 in Montréal and September 5 in Toronto's accounting software."""
    canadian = read_invoice([page(_invoice_dated("09/05/2024", "2,532.00 CAD"))]).fields["invoice_date"]
    american = read_invoice([page(_invoice_dated("09/05/2024", "$2,532.00"))]).fields["invoice_date"]
    settled = read_invoice([page(_invoice_dated("09/25/2024", "2,532.00 CAD"))]).fields["invoice_date"]
    assert american.value == "2024-09-05"
    assert canadian.confidence == pytest.approx(0.8 * american.confidence, abs=0.01)
    assert settled.confidence == pytest.approx(american.confidence, abs=0.01)


@pytest.mark.parametrize("name", ["Rizzo & Russo S.N.C.", "Lumen Acqua S.P.A."])
def test_a_dotted_legal_form_keeps_its_full_stops_unspaced(name: str) -> None:
    """An initial's dropped space is restored ("K.JOHNSON"), but "S.N.C." is one abbreviation."""
    assert clean_person(name) == name.upper()


@pytest.mark.parametrize(
    ("net_label", "tax_line"),
    [("Net total", "incl VAT 5.5%"), ("TOTALE IMPONIBILE:", "di cui IVA 5,5%")],
)
def test_a_receipt_whose_net_total_includes_its_tax_passes_the_arithmetic(
    net_label: str, tax_line: str
) -> None:
    """Prices include tax: the till's "net total" is the total, and the tax is the share of it
    at the printed rate. Subtotal plus tax gives nothing, and that is no contradiction."""
    rows = [
        (0.04, [(0.30, "Lindqvist Supermarket")]),
        (0.08, [(0.30, "12/08/2025 09:00:26")]),
        (0.30, [(0.10, "Olive Oil 750ml"), (0.70, "80,25")]),
        (0.40, [(0.10, net_label), (0.70, "80.25")]),
        (0.42, [(0.10, "Grand total"), (0.70, "80,25 EUR")]),
        (0.44, [(0.10, tax_line), (0.70, "4,18")]),
    ]
    result = read_receipt([page(rows, source="ocr")])
    assert result.fields["total_amount"].value == "80.25"
    assert result.fields["total_amount"].valid is True
    assert [(c.name, c.passed) for c in result.checks] == [("totals_arithmetic", True)]


def test_a_receipt_whose_subtotal_and_tax_disagree_with_its_total_still_fails_the_arithmetic() -> None:
    rows = [
        (0.04, [(0.30, "Lindqvist Supermarket")]),
        (0.40, [(0.10, "Subtotal"), (0.70, "76.07")]),
        (0.42, [(0.10, "Grand total"), (0.70, "82.25 EUR")]),
        (0.44, [(0.10, "VAT 5.5%"), (0.70, "4,18")]),
    ]
    result = read_receipt([page(rows, source="ocr")])
    assert result.fields["total_amount"].valid is False


def test_a_receipt_whose_change_label_ocr_misread_still_checks_payment_minus_change() -> None:
    rows = [
        (0.04, [(0.30, "Riverside Markt")]),
        (0.08, [(0.10, "Datum"), (0.50, "19.11.25")]),
        (0.30, [(0.10, "Kaffee Bohnen 1kg"), (0.70, "62,65")]),
        (0.40, [(0.10, "Gesamtbetrag"), (0.70, "EUR 62,65")]),
        (0.42, [(0.10, "MwSt. gesamt"), (0.70, "4,16")]),
        (0.46, [(0.10, "Gegeben"), (0.70, "100,00")]),
        (0.48, [(0.10, "Rickgeld"), (0.70, "37,35")]),  # Rückgeld
    ]
    result = read_receipt([page(rows, source="ocr")])
    assert result.fields["total_amount"].value == "62.65"
    assert result.fields["total_amount"].valid is True
    wrong_change = [(y, [(x, "36,35" if t == "37,35" else t) for x, t in cells]) for y, cells in rows]
    assert read_receipt([page(wrong_change, source="ocr")]).fields["total_amount"].valid is False


def test_a_tax_rate_read_without_its_percent_sign_gives_way_to_the_tax_beside_it() -> None:
    """GIVEN a US till receipt whose "TAX 7.25%" OCR read as "tax7.25", the tax itself right of it
    in the row, and a net amount that with that tax makes the total
    WHEN the receipt is read
    THEN the tax is the amount under the label, confirmed by subtotal + tax = total."""
    rows = [
        (0.05, [(0.30, "Tramonto Kitchen & Bar")]),
        (0.10, [(0.30, "Houston, TX 77083")]),
        (0.14, [(0.10, "12/21/25 9:15pm")]),
        (0.20, [(0.10, "Fish & Chips")]),
        (0.22, [(0.70, "16.49")]),
        (0.26, [(0.10, "Net amount"), (0.70, "21.86")]),
        (0.30, [(0.10, "tax7.25"), (0.70, "1.58")]),
        (0.34, [(0.10, "Total USD"), (0.70, "23.44")]),
        (0.38, [(0.10, "Cash"), (0.70, "23.44")]),
    ]
    fields = read_receipt([page(rows, source="ocr")]).fields
    assert (fields["total_amount"].value, fields["tax_amount"].value) == ("23.44", "1.58")


def test_an_ambiguous_date_on_a_canadian_receipt_is_doubted_more_than_on_a_german_one() -> None:
    """GIVEN the same till receipt dated 07/06/2023, once in Canadian dollars, once in euros
    WHEN each is read
    THEN the Canadian date is trusted less, and a failed check sends it to a person: Canada
    writes both orders, Germany day first only."""

    def receipt(currency: str) -> Extracted:
        rows = [
            (0.05, [(0.30, "Wilson's Grocery")]),
            (0.10, [(0.10, "Date: 07/06/2023")]),
            (0.20, [(0.10, "Milk 2L"), (0.70, "4.29")]),
            (0.30, [(0.10, f"Total {currency}"), (0.70, "82.09")]),
        ]
        return read_receipt([page(rows)])

    canadian, german = receipt("CAD"), receipt("EUR")
    assert canadian.fields["date"].value == german.fields["date"].value
    assert canadian.fields["date"].confidence < german.fields["date"].confidence
    assert [(c.name, c.passed) for c in canadian.checks if c.name == "date_order_settled"] == [
        ("date_order_settled", False)
    ]
    assert not [c for c in german.checks if c.name == "date_order_settled"]


def test_a_ledger_rows_booking_and_value_dates_are_no_statement_period() -> None:
    """GIVEN a statement whose period OCR could not read and whose ledger rows print the booking
    and value dates of each movement side by side ("27.11.2026 27.11.2026", "03.11.2026
    05.11.2026")
    WHEN it is read
    THEN no period is claimed from a row no period label points at whose dates only a space
    joins, nor from one that joins a day to itself."""
    rows = [
        (0.05, [(0.10, "Banca Alpina")]),
        (0.10, [(0.10, "ESTRATTO CONTO")]),
        (0.14, [(0.10, "Intestatario: Giulia Bianchi")]),
        (0.40, [(0.10, "27.11.2026 27.11.2026"), (0.40, "BONIFICO"), (0.80, "120,00")]),
        (0.44, [(0.10, "03.11.2026 05.11.2026"), (0.40, "PRELIEVO"), (0.80, "50,00")]),
    ]
    fields = read_bank_statement([page(rows)]).fields
    assert fields["statement_period_start"].value is None
    assert fields["statement_period_end"].value is None


def test_a_period_whose_label_and_joiner_ocr_misread_is_still_the_statements_period() -> None:
    """GIVEN a statement whose "FOR THE PERIOD: 01/11/2026 to 30/11/2026" OCR read with zeros for
    o ("peri0d", "t0"), above ledger rows whose "TRANSFER FROM" is a period label's word
    WHEN it is read
    THEN the period is the joined pair of dates, not a ledger row's booking and value dates."""
    rows = [
        (0.05, [(0.50, "First Nordlicht Bank")]),
        (0.10, [(0.10, "Mr William Brown")]),
        (0.14, [(0.10, "for the peri0d:01/11/2026t0 30/11/2026")]),
        (0.30, [(0.10, "03/11/2026 05/11/2026 TRANSFER FROM Chloe Jackson"), (0.80, "564.24")]),
    ]
    fields = read_bank_statement([page(rows, source="ocr")]).fields
    assert (fields["statement_period_start"].value, fields["statement_period_end"].value) == (
        "2026-11-01",
        "2026-11-30",
    )


@pytest.mark.parametrize("kind", ["Betaalrekening", "Girokonto", "Cuenta nómina", "Current account"])
def test_the_kind_of_account_a_statement_heads_is_no_issuer(kind: str) -> None:
    """GIVEN a Dutch bank statement whose bank's name "SPAARBANK 'S-HERTOGENBOSCH" stands left of
    the account's kind, printed larger ("Betaalrekening", approved as the issuer at 1.00)
    THEN the issuer is the bank: the account's kind is a heading, never a name."""
    rows = [
        (0.073, [(0.77, kind)]),
        (0.082, [(0.19, "SPAARBANK 'S-HERTOGENBOSCH")]),
        (0.095, [(0.75, "17/06/2023 - 16/07/2023")]),
        (0.15, [(0.10, "Daan Jacobs"), (0.52, "T.n.v."), (0.66, "Daan Jacobs")]),
        (0.164, [(0.10, "Julianasingel 17"), (0.52, "IBAN"), (0.66, "NL33 XNKB 3470 6064 98")]),
        (0.178, [(0.10, "5254 JK 's-Hertogenbosch"), (0.52, "BIC"), (0.66, "XFOCNLV4")]),
    ]
    lines = [
        Line(text, 0.98, (x, y, min(1.0, x + 0.012 * len(text)), y + (0.013 if text == kind else 0.011)), 1)
        for y, cells in rows
        for x, text in cells
    ]
    statement = PageText(1, tuple(sort_reading_order(lines)), "text_layer")
    assert values(read_bank_statement([statement]))["issuer_name"] == "SPAARBANK 'S-HERTOGENBOSCH"


def test_a_nameless_block_under_the_banks_name_is_the_banks_own_address() -> None:
    """GIVEN an Italian statement whose letterhead prints "Banca Aurora" (its logo's initial "B"
    beside it) over its own street and city, and whose addressee's street OCR garbled past
    reading ("VialeVittorioEmanuelelln.59")
    THEN no address is read: the bank's own (once read as the holder's, approved at 0.93) is
    no addressee's."""
    rows = [
        (0.10, [(0.21, "B"), (0.25, "Banca Aurora"), (0.69, "ESTRATTO CONTO")]),
        (0.14, [(0.20, "Via San Francesco 109")]),
        (0.15, [(0.20, "10129 Torino (TO)")]),
        (0.16, [(0.20, "T0367585593")]),
        (0.20, [(0.21, "Giovanni Moretti"), (0.51, "Data emissione:"), (0.72, "01/11/2023")]),
        (0.21, [(0.21, "VialeVittorioEmanuelelln.59"), (0.51, "Intestatario:"), (0.72, "GIOVANNI MORETTI")]),
        (0.23, [(0.21, "50135Firenze (Fl)"), (0.51, "IBAN:"), (0.62, "IT62J7023207137171784607994")]),
    ]
    got = values(read_bank_statement([page(rows, source="ocr")]))
    assert (got["address_street"], got["address_city"], got["account_holder"]) == (
        None,
        None,
        "GIOVANNI MORETTI",
    )


@pytest.mark.parametrize(
    ("label", "value", "period"),
    [
        ("Perlod:", "11/01/2023rough11/30/2023", ("2023-11-01", "2023-11-30")),  # "through" lost its th
        ("Statement period:", "October14.2022November 17,2022", ("2022-10-14", "2022-11-17")),
        ("Statement period:", "11/01/2023 - 11/30/2023", ("2023-11-01", "2023-11-30")),
    ],
)
def test_a_labelled_period_whose_joiner_or_comma_ocr_misread_is_read(
    label: str, value: str, period: tuple[str, str]
) -> None:
    """GIVEN a US statement whose period, right of its caption, OCR read with its joiner misread
    ("rough" of "through") or lost and a comma read as a full stop ("October14.2022November 17,2022")
    THEN the period is still read: after a period's caption any short word joins two dates, and a
    month's name, a day, a full stop and a four-digit year are a date."""
    rows = [
        (0.16, [(0.22, "Westerbrook Bank")]),
        (0.26, [(0.53, "Statement date:"), (0.63, "12/02/2023")]),
        (0.27, [(0.21, "Linda Kowalski"), (0.52, "Account name"), (0.63, "Linda Kowalski")]),
        (0.30, [(0.21, "Boston, MA 02125-7417")]),
        (0.34, [(0.45, label), (0.67, value)]),
    ]
    fields = read_bank_statement([page(rows, source="ocr")]).fields
    assert (fields["statement_period_start"].value, fields["statement_period_end"].value) == period


@pytest.mark.parametrize(
    ("read", "printed"),
    [
        ("StraBe 12", "Straße 12"),
        ("WeiB Sanitar AG", "Weiß Sanitar AG"),  # a capital B ending a lower-case word
        ("WeiBSanitar AG", "Weiß Sanitar AG"),  # and the space after it lost
        ("Jager & GroB KG", "Jager & Groß KG"),
        ("ABB AG", "ABB AG"),
        ("GmbH", "GmbH"),
        ("Jacob", "Jacob"),
    ],
)
def test_an_eszett_ocr_read_as_capital_b_is_put_back(read: str, printed: str) -> None:
    assert repair_ocr_text(read) == printed


@pytest.mark.parametrize(
    ("read", "canonical"),
    [
        ("Mitchell 's Grocery", "MITCHELL'S GROCERY"),
        ("THOMPSON' S GROCERY", "THOMPSON'S GROCERY"),  # or after it
        ("Drinkwater 's-Hertogenbosch", "DRINKWATER 'S-HERTOGENBOSCH"),  # a Dutch place's 's-
        ("O'Brien & Sons", "O'BRIEN & SONS"),
        ("Rock 'n' Roll", "ROCK 'N' ROLL"),
    ],
)
def test_a_possessive_read_with_a_space_before_its_apostrophe_is_joined(read: str, canonical: str) -> None:
    assert canonical_name(read) == canonical


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


@pytest.mark.parametrize(
    ("read", "spaced"),
    [
        ("4605S FRANKLIN PLACE", "4605 S FRANKLIN PLACE"),  # a compass point glued to the number
        ("4575 SSUNSET ST", "4575 S SUNSET ST"),  # ... or to the street's name
        ("4575SSUNSETST", "4575 S SUNSETST"),  # (the second reader puts back the last space)
        ("KIRCHRING177", "KIRCHRING 177"),
        ("221B Baker Street", "221B Baker Street"),  # a house number's own letter stays
        ("VIAMAZZINI 37", "VIA MAZZINI 37"),  # a street type glued to the name
        ("VIALEMONZA 12", "VIALE MONZA 12"),
        ("VIA ROMA 3", "VIA ROMA 3"),
        ("CALLEMAYOR 5", "CALLE MAYOR 5"),
        ("5188 WLINCOLN BLVD", "5188 W LINCOLN BLVD"),  # no word opens with WL
        ("12 WRIGHT ST", "12 WRIGHT ST"),
        ("6763 SRIVER DR", "6763 S RIVER DR"),  # no word opens with SR
        ("8950RidgeLn", "8950 Ridge Ln"),  # a street type glued to the name, told by case
        ("8950 RIDGELN", "8950 RIDGE LN"),  # ... or by an ending no English word has
        ("12 MEADOWBLVD.", "12 MEADOW BLVD."),
        ("12 KILN", "12 KILN"),
        ("12 FOREST", "12 FOREST"),  # ST ends many words: left
        ("12 WestSt", "12 West St"),
        ("12 SPRING ST", "12 SPRING ST"),
        ("12 STATE ST", "12 STATE ST"),
        ("CORSO SAN FRANCESCO N.31", "CORSO SAN FRANCESCO N. 31"),  # Italian "n." and its number
        ("Via Roma n.7", "Via Roma n. 7"),
        ("VIA DEL CORSO N. 3", "VIA DEL CORSO N. 3"),
        ("8717 SPRING CTAPT 31", "8717 SPRING CT APT 31"),  # approved so on seed 90
        ("12 OAK DRSTE. 4", "12 OAK DR STE. 4"),
        ("40 CAPTAIN ST", "40 CAPTAIN ST"),
    ],
)
def test_a_house_number_glued_by_ocr_gets_its_space_back(read: str, spaced: str) -> None:
    from engines.business.address import _house_number_spaced

    assert _house_number_spaced(read) == spaced


@pytest.mark.parametrize(
    ("printed", "city", "postal_code"),
    [
        ("1273 GENÈVE", "GENÈVE", "1273"),  # a Swiss code: GE is the start of the city, no Dutch code
        ("1015 CJAmsterdam", "AMSTERDAM", "1015 CJ"),  # a Dutch code glued to its city
        ("5029 HW TILBURG", "TILBURG", "5029 HW"),
    ],
)
def test_a_dutch_postcodes_letters_are_never_a_citys_first_letters(printed, city, postal_code):
    parsed = parse_city_line(Line(printed, 0.9, (0.1, 0.5, 0.4, 0.52), 1))
    assert parsed is not None and (parsed.city, parsed.postal_code) == (city, postal_code)


def test_a_header_date_over_a_ledgers_date_columns_is_the_statements_date() -> None:
    """GIVEN a statement dated "Date: 12/13/2025" at the top left, over a ledger whose posting and
    value dates run in columns below the label and its value
    AND a last page whose ledger holds a single row under its captions
    THEN the statement's date is 2025-12-13: a label beside its value, in no row of captions,
    heads no ledger column (and the last page's lone movement is no statement date either)."""
    rows = [
        (0.04, [(0.06, "First Polaris Bank")]),
        (0.06, [(0.06, "E. ROBERTS")]),
        (0.08, [(0.06, "8728 HILL BLVD APT 14A")]),
        (0.10, [(0.06, "SAN DIEGO, CA 92173")]),
        (0.14, [(0.06, "Date:"), (0.13, "12/13/2025")]),
        (0.16, [(0.06, "For the period: 11/08/2025 through 12/12/2025")]),
        (0.20, [(0.06, "Posting date"), (0.13, "Value date"), (0.3, "Transaction"), (0.8, "Amount")]),
        (0.22, [(0.06, "11/08/2025"), (0.13, "11/10/2025"), (0.3, "STANDING ORDER"), (0.8, "842.24")]),
        (0.24, [(0.06, "11/09/2025"), (0.13, "11/10/2025"), (0.3, "ONLINE TRANSFER"), (0.8, "416.70")]),
        (0.26, [(0.06, "11/10/2025"), (0.13, "11/11/2025"), (0.3, "CARD PAYMENT"), (0.8, "136.54")]),
        (0.28, [(0.06, "11/12/2025"), (0.13, "11/12/2025"), (0.3, "DIRECT DEBIT"), (0.8, "16.00")]),
    ]
    last = [
        (0.04, [(0.06, "Posting date"), (0.13, "Value date"), (0.3, "Transaction"), (0.8, "Amount")]),
        (
            0.06,
            [(0.06, "12/12/2025"), (0.13, "12/12/2025"), (0.3, "CONTACTLESS FALCON CAFE"), (0.8, "138.24")],
        ),
    ]
    statement = read_bank_statement([page(rows), page(last, number=2)])
    assert statement.fields["document_date"].value == "2025-12-13"


def test_an_initial_ocr_read_as_a_digit_heads_the_address_as_a_letter() -> None:
    """GIVEN a bill addressed to "I. Singh", whose initial OCR read as the digit 1
    THEN the addressee is I. SINGH: over a street, "1." is no list's first item."""
    rows = [
        (0.04, [(0.06, "STADTWERKE HAMBURG")]),
        (0.08, [(0.06, "Stadtwerke Hamburg · Gartenallee 113 · 90077 Nürnberg")]),
        (0.12, [(0.06, "1. Singh"), (0.6, "Ausstellungsdatum 2. April 2022")]),
        (0.14, [(0.06, "Parkring 6")]),
        (0.16, [(0.06, "20849 Hamburg")]),
        (0.30, [(0.06, "Stromrechnung")]),
    ]
    assert read_proof_of_address([page(rows, source="ocr")]).fields["full_name"].value == "I. SINGH"


def test_totals_whose_thousands_plain_spaces_group_are_read_whole() -> None:
    """GIVEN a Swiss invoice printing "Base HT 8 071.00" and "Net à payer CHF 8 724.75" (the
    thousands grouped by a plain space, the decimals after a point), whose subtotal and total,
    each read without its thousands, would still add up with the tax
    THEN subtotal and total are read whole: no quantity stands before a labelled total."""
    rows = [
        (0.04, [(0.06, "Auroraline GmbH")]),
        (0.10, [(0.06, "Numéro de facture"), (0.6, "202205-233")]),
        (0.12, [(0.06, "Date de facture"), (0.6, "21/03/2022")]),
        (0.60, [(0.55, "Base HT"), (0.8, "8 071.00")]),
        (0.62, [(0.55, "TVA 8.1%"), (0.8, "653.75")]),
        (0.64, [(0.55, "Net à payer CHF"), (0.8, "8 724.75")]),
    ]
    got = values(read_invoice([page(rows)]))
    assert (got["subtotal"], got["tax_amount"], got["total_amount"]) == ("8071.00", "653.75", "8724.75")


def test_a_ledgers_date_column_is_never_the_statements_date() -> None:
    """GIVEN a statement whose date's label OCR lost ("panse" for "Statement date") and whose
    ledger is headed by a "Date" column caption
    THEN the statement's date is its own, not the first movement's under the column caption."""
    rows = [
        (0.04, [(0.06, "OAKRIDGE & OAKRIDGE BANK"), (0.6, "BANK STATEMENT")]),
        (0.12, [(0.06, "John Martin"), (0.5, "panse"), (0.65, "01/02/2024")]),
        (0.14, [(0.06, "149 Abbey Crescent"), (0.5, "Period:"), (0.65, "01/01/2024 to 31/01/2024")]),
        (0.16, [(0.06, "Belfast BT4 5BH")]),
        (0.30, [(0.06, "Date"), (0.2, "Transaction"), (0.6, "Amount"), (0.8, "Balance")]),
        (0.32, [(0.06, "02/01/2024"), (0.2, "CARD PAYMENT"), (0.6, "12.50"), (0.8, "987.50")]),
        (0.34, [(0.06, "09/01/2024"), (0.2, "DIRECT DEBIT"), (0.6, "40.00"), (0.8, "947.50")]),
        (0.36, [(0.06, "16/01/2024"), (0.2, "TRANSFER"), (0.6, "100.00"), (0.8, "847.50")]),
    ]
    assert read_bank_statement([page(rows, source="ocr")]).fields["document_date"].value == "2024-02-01"


def test_a_ledgers_value_date_read_level_with_its_caption_is_not_the_statements_date() -> None:
    """GIVEN a page scanned askew, whose first movement's value date OCR read level with the
    ledger's "Datum" caption (right of it), and whose statement date's label OCR lost
    THEN the statement's date is its own, not that value date."""
    rows = [
        (0.04, [(0.06, "SPARKASSE BERLIN"), (0.6, "Finanzstatus")]),
        (0.10, [(0.06, "E. A. Koch"), (0.6, "Erstellf am"), (0.75, "2023-03-05")]),
        (0.12, [(0.06, "Friedrichplatz 118"), (0.6, "Zeitraum 2023-02-01 - 2023-02-28")]),
        (0.14, [(0.06, "10131 Berlin")]),
        (0.30, [(0.06, "Datum"), (0.2, "2023-02-12"), (0.4, "Vorgang"), (0.8, "Saldo")]),
        (0.32, [(0.06, "2023-02-10"), (0.4, "Kartenzahlung"), (0.8, "6.298,00")]),
        (0.34, [(0.06, "2023-02-10"), (0.2, "2023-02-11"), (0.4, "Lastschrift"), (0.8, "6.100,00")]),
        (0.36, [(0.06, "2023-02-11"), (0.2, "2023-02-12"), (0.4, "Gutschrift"), (0.8, "6.200,00")]),
        (0.38, [(0.06, "2023-02-11"), (0.2, "2023-02-13"), (0.4, "Entgelt"), (0.8, "6.198,22")]),
    ]
    assert read_bank_statement([page(rows, source="ocr")]).fields["document_date"].value == "2023-03-05"


def test_a_labels_date_beside_it_over_a_ledgers_date_column_is_the_statements_date() -> None:
    """GIVEN a French statement printing "Date d'arrêté: 01/09/2024" in a row with "Code BIC:
    OJWNFRZV", over a ledger whose value dates run in a column under that date, and whose last
    page's ledger holds a single movement
    THEN the statement's date is 2024-09-01: a label ending in a colon has its value beside it
    and heads no ledger column (the last movement's date, 2024-08-31, was once approved)."""
    rows = [
        (0.04, [(0.6, "Banque Oakridge")]),
        (0.10, [(0.11, "ÉLODIE MATHIEU MOREAU-BERNARD")]),
        (0.12, [(0.11, "131 CHEMIN DU GÉNÉRAL DE GAULLE")]),
        (0.14, [(0.11, "35000 RENNES")]),
        (0.20, [(0.11, "Date d'arrete:"), (0.30, "01/09/2024"), (0.52, "Code BIC:"), (0.64, "OJWNFRZV")]),
        (0.22, [(0.11, "Période:"), (0.25, "du 01/08/2024 au 31/08/2024")]),
        (0.30, [(0.11, "Date opé."), (0.22, "Valeur"), (0.30, "Libellé"), (0.82, "Montant")]),
        (0.32, [(0.11, "01/08/2024"), (0.22, "01/08/2024 VIR PERMANENT LOYER"), (0.82, "986,70 -")]),
        (0.34, [(0.11, "01/08/2024"), (0.22, "01/08/2024 RETRAIT DAB"), (0.82, "20,00 -")]),
        (0.36, [(0.11, "02/08/2024"), (0.22, "02/08/2024 CB VALMONT CAFE"), (0.82, "38,05 -")]),
    ]
    last = [
        (0.04, [(0.11, "Date opé."), (0.22, "Valeur"), (0.30, "Libellé"), (0.82, "Montant")]),
        (0.06, [(0.11, "31/08/2024"), (0.22, "31/08/2024 FRAIS"), (0.82, "4,00 -")]),
    ]
    statement = read_bank_statement([page(rows, source="ocr"), page(last, source="ocr", number=2)])
    assert statement.fields["document_date"].value == "2024-09-01"


@pytest.mark.parametrize(
    ("street", "doubted"),
    [
        ("Paseo de Atocha 164, 2 D", True),
        ("Paseo de Atocha 164, 2º D", False),
        ("Flat 5167 Beech Road", True),  # Flat 5, 167 Beech Road with the space lost
        ("Flat 5 167 Beech Road", False),
    ],
)
def test_a_street_ocr_may_have_lost_a_mark_or_a_space_in_is_doubted(street: str, doubted: bool) -> None:
    """GIVEN a Spanish address whose floor "2º" OCR may have read without its small º, or a
    British flat's number that may hold the house number after it
    THEN the street's confidence is halved against a street that leaves no such doubt."""

    def street_confidence(text: str) -> float:
        rows = [
            (0.04, [(0.06, "Banco Ejemplo")]),
            (0.12, [(0.06, "Lucía Gómez")]),
            (0.14, [(0.06, text)]),
            (0.16, [(0.06, "28012 Madrid")]),
        ]
        return read_proof_of_address([page(rows, source="ocr")]).fields["address_street"].confidence

    ratio = street_confidence(street) / street_confidence("Paseo de Atocha 164, 2º D")
    assert ratio == (pytest.approx(0.5, abs=0.01) if doubted else 1.0)


def test_a_dutch_statement_names_its_customer_whose_code_ocr_glued_to_the_city() -> None:
    """GIVEN a Dutch bank statement ("BANKAFSCHRIFT", a title) whose customer's city line OCR read
    "2594LRDENHAAG", below the bank's own "9752 WE Groningen"
    THEN on a Dutch document that is 2594 LR, DEN HAAG, and the customer's address is read, not
    the bank's (the line alone could be a Swiss code glued to its city)."""
    rows = [
        (0.13, [(0.65, "BANKAFSCHRIFT")]),
        (0.15, [(0.24, "Ashbybank")]),
        (0.18, [(0.17, "Kerklaan 137")]),
        (0.19, [(0.17, "9752 WE Groningen")]),
        (0.21, [(0.17, "service@ashbybank.nl")]),
        (0.25, [(0.19, "DeheerD.HENDRIKS"), (0.49, "DATUM:"), (0.59, "01/03/2026")]),
        (0.26, [(0.19, "JULIANAKADE123"), (0.49, "TEN NAME VAN:"), (0.59, "D. Hendriks")]),
        (0.27, [(0.19, "2594LRDENHAAG"), (0.49, "IBAN:"), (0.59, "NL58CKVR1592805485")]),
    ]
    got = values(read_bank_statement([page(rows, source="ocr")]))
    assert (got["address_postal_code"], got["address_street"], got["issuer_name"]) == (
        "2594 LR",
        "JULIANAKADE 123",
        "ASHBYBANK",
    )
    assert got["full_name"] == "D. HENDRIKS"


def test_a_quebec_receipts_tps_tvq_is_its_tax_and_canadas_tax_account_its_currency() -> None:
    """GIVEN a Montréal café's receipt whose tax line says "TPS+TVQ 14.975%" over its amount, and
    a Vancouver shop's whose footer prints its GST/HST account (843142996RT0001), its total's
    "CA$" read as "CAS" and its captions saying "VAT"
    THEN the tax is TPS+TVQ's amount, and both are in Canadian dollars."""
    quebec = [
        (0.04, [(0.1, "Chez Bonnet")]),
        (0.06, [(0.1, "MONTRÉAL QC H0R 6B4")]),
        (0.10, [(0.1, "Date: 2025-09-23")]),
        (0.20, [(0.1, "Sous-total HT:"), (0.6, "9.98")]),
        (0.22, [(0.1, "TPS+TVQ 14.975%"), (0.6, "1.49")]),
        (0.24, [(0.1, "Montant total TTC:"), (0.6, "CA$11.47")]),
    ]
    got = values(read_receipt([page(quebec)]))
    assert (got["tax_amount"], got["total_amount"], got["currency"]) == ("1.49", "11.47", "CAD")
    vancouver = [
        (0.04, [(0.1, "Polaris Market")]),
        (0.06, [(0.1, "VANCOUVERBCV8P7M0")]),
        (0.10, [(0.1, "Date 02/04/2024")]),
        (0.20, [(0.1, "Totalexcl VAT"), (0.6, "8.48")]),
        (0.22, [(0.1, "GST5%"), (0.6, "0.42")]),
        (0.24, [(0.1, "Amount due"), (0.6, "CAS8.90")]),
        (0.30, [(0.1, "GST/HST843142996RT0001www.polaris-market.ca")]),
    ]
    assert values(read_receipt([page(vancouver, source="ocr")]))["currency"] == "CAD"


def test_a_diner_ticket_whose_title_shares_the_name_line_and_whose_total_lost_its_point() -> None:
    """GIVEN a photographed ticket whose name line OCR read with its title ("Thompson's Diner
    SALES RECEIPT"), and whose total lost its decimal point ("USD1247") under a subtotal in cents
    WHEN it is read
    THEN the merchant is the name without the title, not the "Ticket No." label below it, and
    the total is 12.47: a ticket printing cents prints them on its total."""
    rows = [
        (0.27, [(0.42, "Thompson's Diner SALES RECEIPT")]),
        (0.30, [(0.33, "4557 FRANKLIN WAY")]),
        (0.32, [(0.33, "AUSTIN, TX 78794")]),
        (0.37, [(0.32, "Ticket No."), (0.51, "47418")]),
        (0.39, [(0.32, "Date"), (0.51, "08/27/2023")]),
        (0.45, [(0.31, "Soup of the Day"), (0.69, "8.50")]),
        (0.47, [(0.31, "Sparkling Water"), (0.69, "2.95")]),
        (0.49, [(0.58, "Sub-total"), (0.78, "11.45")]),
        (0.51, [(0.57, "Grand total"), (0.73, "USD1247")]),
    ]
    got = values(read_receipt([page(rows, source="ocr")]))
    assert (got["merchant_name"], got["total_amount"]) == ("THOMPSON'S DINER", "12.47")


def test_a_whole_total_that_is_no_lost_decimal_point_stays_as_read() -> None:
    """GIVEN an invoice whose subtotal prints cents and whose total prints none, the total being
    a hundred times anything the subtotal allows
    THEN the total is read as printed."""
    rows = [
        (0.05, [(0.1, "ACME LTD")]),
        (0.10, [(0.1, "INVOICE")]),
        (0.30, [(0.1, "Subtotal"), (0.7, "100.00")]),
        (0.32, [(0.1, "Total"), (0.7, "120")]),
    ]
    assert values(read_receipt([page(rows, source="ocr")]))["total_amount"] == "120.00"


def test_a_currency_only_a_word_suggests_is_weakly_held() -> None:
    """GIVEN receipts that print no currency, one saying only "incl. VAT" (an English receipt
    from Munich says so too) and one with a British address line as well
    THEN both read pounds, the first at half the confidence an address gives."""
    rows = [
        (0.10, [(0.30, "FALCON FOODS")]),
        (0.20, [(0.30, "25/01/2024 20:15")]),
        (0.40, [(0.10, "TOTAL"), (0.70, "41.31")]),
        (0.44, [(0.10, "incl. VAT 7%"), (0.70, "2.70")]),
    ]
    word_only = read_receipt([page(rows, source="ocr")]).fields["currency"]
    addressed = read_receipt([page([*rows, (0.15, [(0.30, "Leeds LS6 2AB")])], source="ocr")]).fields[
        "currency"
    ]
    assert (word_only.value, addressed.value) == ("GBP", "GBP")
    assert word_only.confidence == pytest.approx(addressed.confidence / 2)


def test_a_period_and_a_due_date_are_never_the_bills_date() -> None:
    """GIVEN a water bill whose "Statement date" OCR garbled ("22Nov202o"), whose billing period
    "20/10/2026-18/11/2026" stands under a caption misread "Penod", and whose due date stands
    under its "Due date" caption
    THEN the bill's date is not read at all: the period's first day (once taken, 0.99 confident
    after calibration) and the due date are no day of issue."""
    rows = [
        (0.01, [(0.14, "York Water")]),
        (0.04, [(0.74, "Your water bill")]),
        (0.10, [(0.68, "Statementdate:22Nov202o")]),
        (0.12, [(0.12, "Service address:")]),
        (0.13, [(0.54, "Summary")]),
        (0.14, [(0.12, "CHLOE JOHN HARRIS")]),
        (0.15, [(0.12, "128 Beech Crescent")]),
        (0.16, [(0.55, "Account No."), (0.78, "486014075")]),
        (0.17, [(0.12, "YORK"), (0.55, "Penod"), (0.71, "20/10/2026-18/11/2026")]),
        (0.18, [(0.12, "YO2 0GT"), (0.55, "Due date"), (0.78, "13 Dec 2026")]),
        (0.20, [(0.55, "Balance to pay:"), (0.78, "£107.57")]),
    ]
    assert values(read_proof_of_address([page(rows, source="ocr")]))["document_date"] is None


def test_a_canadian_bills_date_that_reads_two_ways_is_left_to_a_person() -> None:
    """GIVEN a Canadian electricity bill (amounts in CAD, a country that writes both day-month
    orders) dated 10/12/2025, no other date on it settling the order
    THEN the date's order check fails, so the bill is not approved on a coin toss; a date past
    the twelfth settles it."""
    rows = [
        (0.18, [(0.17, "Mistral Energy"), (0.63, "Your electricity bill")]),
        (0.30, [(0.13, "BILL DATE"), (0.29, "TOTAL TO PAY")]),
        (0.31, [(0.13, "10/12/2025"), (0.29, "$2,901.01 CAD")]),
        (0.366, [(0.13, "Mr Connor O'Brien")]),
        (0.38, [(0.13, "2948 W Chestnut Court")]),
        (0.392, [(0.13, "Mississauga ON L0C 3M2")]),
    ]
    checks = {c.name: c.passed for c in read_proof_of_address([page(rows, source="ocr")]).checks}
    assert checks == {"date_order_settled": False}
    settled = [*rows, (0.60, [(0.13, "Paid 10/25/2025")])]
    assert read_proof_of_address([page(settled, source="ocr")]).checks == []


@pytest.mark.parametrize(
    ("read", "name"),
    [
        ("Joseph Kowalski -Wright", "JOSEPH KOWALSKI-WRIGHT"),  # a reader's space beside a hyphen
        ("Joseph Kowalski- Wright", "JOSEPH KOWALSKI-WRIGHT"),
        ("Stratford - upon", "STRATFORD - UPON"),  # spaced on both sides: a dash, kept
    ],
)
def test_a_space_on_one_side_of_a_hyphen_is_dropped(read: str, name: str) -> None:
    assert canonical_name(read) == name


def test_a_customer_number_caption_does_not_make_the_next_caption_a_customer() -> None:
    """GIVEN a Spanish invoice whose "Nº cliente" caption has its number beside it and the
    "Tel." caption under it, the customer's name in the address block on the left
    THEN the customer is the person, never "TEL.": a contact caption is no party's name."""
    rows = [
        (0.05, [(0.12, "Atlas S.L.")]),
        (0.16, [(0.12, "Atlas S.L. C/ de la Princesa, 175 - 08092 Barcelona")]),
        (0.176, [(0.59, "N factura"), (0.76, "INV-2025-7577")]),
        (0.183, [(0.12, "Elisabeth Macdonald")]),
        (0.19, [(0.59, "Fecha"), (0.76, "11-02-2025")]),
        (0.198, [(0.12, "Calle de Santa Ana, 152, 5º B")]),
        (0.21, [(0.12, "46046 Valencia")]),
        (0.205, [(0.59, "Nº cliente"), (0.76, "487625")]),
        (0.22, [(0.59, "Tel."), (0.76, "925 092 531")]),
        (0.235, [(0.59, "Email"), (0.76, "billing@atlas-s.es")]),
        (0.50, [(0.55, "Total"), (0.76, "1.210,00 €")]),
    ]
    assert read_invoice([page(rows, source="ocr")]).fields["customer_name"].value != "TEL."


def test_a_title_beside_a_name_that_ends_with_its_legal_form_is_not_joined_to_it() -> None:
    """GIVEN a scanned bill whose issuer "Marenco Energie GmbH" has its title, glued by OCR
    ("JAHRESABRECHNUNGSTROM"), a word space to its right in the same type
    THEN the issuer is the firm alone: nothing follows a legal form in a firm's name."""
    rows = [
        (0.144, [(0.18, "Marenco Energie GmbH"), (0.425, "JAHRESABRECHNUNGSTROM")]),
        (0.168, [(0.18, "An der Muhlbach 6a")]),
        (0.18, [(0.18, "45064 Essen")]),
        (0.30, [(0.18, "Frau Petra Schulz")]),
        (0.32, [(0.18, "Lindenallee 5")]),
        (0.34, [(0.18, "10115 Berlin")]),
    ]
    assert values(read_proof_of_address([page(rows, source="ocr")]))["issuer_name"] == "MARENCO ENERGIE GMBH"


def test_a_tills_caption_is_no_merchant_though_its_word_names_a_bank() -> None:
    """GIVEN an Italian restaurant's receipt that prints its till beside the table, "Cassa:
    Andrea" (CASSA names savings banks, Cassa di Risparmio, and was taken for the merchant and
    approved so on seed 95)
    THEN the merchant is the restaurant the receipt is headed by."""
    rows = [
        (0.06, [(0.26, "Ristorante Tramonto")]),
        (0.13, [(0.39, "VIA MAZZINI, 57")]),
        (0.16, [(0.35, "40123 BOLOGNA (BO)")]),
        (0.24, [(0.36, "P.IVA IT29770657908")]),
        (0.30, [(0.05, "Tavolo: 9"), (0.76, "Cassa: Andrea")]),
        (0.37, [(0.05, "6 Coperto"), (0.88, "11,70")]),
        (0.46, [(0.05, "TOTALE EURO:"), (0.83, "€ 11,70")]),
        (0.62, [(0.05, "28 marzo 2024 11:24")]),
    ]
    assert values(read_receipt([page(rows)]))["merchant_name"] == "RISTORANTE TRAMONTO"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("5647 Hz Eindhoven", ("EINDHOVEN", "5647 HZ", "NL")),  # a letter of the code read small
        ("1080XPAMSTERDAM", ("AMSTERDAM", "1080 XP", "NL")),  # the line glued, no country known
        ("1080 XPAMSTERDAM", ("AMSTERDAM", "1080 XP", "NL")),
        ("1273 Genève", ("GENÈVE", "1273", "XX")),  # a Swiss code and its city stay so
        ("1273GENEVE", ("GENEVE", "1273", "XX")),
        ("3000 Bern", ("BERN", "3000", "XX")),
    ],
)
def test_a_dutch_code_with_a_letter_read_in_lower_case_is_told_by_the_dutch_city_after_it(
    text: str, expected: tuple[str, str, str]
) -> None:
    """GIVEN a Dutch city line whose postcode's second letter OCR read in lower case ("Hz"), or
    whose code OCR glued to the city ("1080XPAMSTERDAM") on a page that names no country
    THEN the code keeps both its letters and the city is the Dutch one (once "HZ EINDHOVEN",
    5647, and "XP AMSTERDAM", 1080)."""
    parsed = parse_city_line(Line(text, 0.9, (0.1, 0.1, 0.3, 0.12), 1))
    assert parsed is not None and (parsed.city, parsed.postal_code, parsed.country) == expected


def test_an_invoice_number_under_a_header_cell_documento_is_read() -> None:
    """GIVEN an Italian invoice whose header row captions its number "DOCUMENTO" alone in its cell
    ("INTESTATARIO | DOCUMENTO | DATA") with the values in the row below
    THEN the number is read (once not found)."""
    rows: list[Row] = [
        (0.04, [(0.06, "SOLARIS IMPIANTI ELETTRICI SRL")]),
        (0.06, [(0.06, "Via Repubblica 54, 90120 Palermo (PA)")]),
        (0.10, [(0.70, "Fattura")]),
        (0.16, [(0.06, "INTESTATARIO"), (0.45, "DOCUMENTO"), (0.70, "DATA")]),
        (0.18, [(0.06, "Kestrel S.r.l."), (0.45, "3893/2024"), (0.70, "12 aprile 2024")]),
        (0.20, [(0.06, "Via IV Novembre, 92")]),
        (0.22, [(0.06, "50188 Firenze FI")]),
        (0.40, [(0.55, "Imponibile"), (0.80, "1.000,00")]),
        (0.42, [(0.55, "IVA 22%"), (0.80, "220,00")]),
        (0.44, [(0.55, "Totale documento"), (0.80, "1.220,00")]),
    ]
    got = values(read_invoice([page(rows)]))
    assert got["invoice_number"] == "3893/2024"
    assert got["invoice_date"] == "2024-04-12"


@pytest.mark.parametrize(
    ("printed", "name"),
    [
        ("Mon Sieur BJORG CHRISTODOULOPOULOS", "BJORG CHRISTODOULOPOULOS"),
        ("MADA ME ANNE DURAND", "ANNE DURAND"),
        ("Simon Sieur", "SIMON SIEUR"),  # a given name that merely ends as a title starts
    ],
)
def test_a_courtesy_title_the_space_restorer_split_is_still_no_part_of_the_name(
    printed: str, name: str
) -> None:
    """GIVEN a bank statement's addressee whose "MonSieur" (its S read as a capital) the space
    restorer split into "Mon Sieur"
    THEN the title is no part of the name (MON SIEUR BJÖRG … was once approved at 0.959)."""
    assert clean_person(printed) == name


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ("RECHNUGS-NR", False),  # "Rechnungs-Nr", its n lost: a caption beside the customer's
        ("Kunden-Nr.", False),
        ("Invoice No.", False),
        ("Factura nº", False),
        ("Kowalczyk & Schmidt GmbH", True),
        ("Nora Bruno", True),
    ],
)
def test_a_numbers_caption_is_no_name(text: str, name: bool) -> None:
    """GIVEN a caption of a number OCR misread so that no label matches it ("RECHNUGS-NR"),
    standing right of a "KUNDE" caption whose name is below
    THEN it is no name: a name never ends in "-Nr" or "No."."""
    from engines.business.names import looks_like_name

    assert looks_like_name(text) is name


def _with_heading(heading: Sequence[tuple[float, float, str]], rows: Sequence[Row]) -> PageText:
    """A page whose heading lines (y, x, text) are set twice the body's type size."""
    body = page(rows, source="ocr")
    large = [Line(text, 0.98, (x, y, min(1.0, x + 0.024 * len(text)), y + 0.03), 1) for y, x, text in heading]
    return PageText(1, tuple(sort_reading_order([*large, *body.lines])), "ocr")


RECEIPT_BODY: list[Row] = [
    (0.20, [(0.30, "Hauptstrasse 12")]),
    (0.22, [(0.30, "80331 Muenchen")]),
    (0.27, [(0.10, "12.04.2026 19:02")]),
    (0.32, [(0.10, "Schweinebraten"), (0.75, "16,90")]),
    (0.40, [(0.10, "SUMME EUR"), (0.75, "16,90")]),
]


@pytest.mark.parametrize(
    "heading, expected",
    [
        # a name wrapped onto two lines of one centred heading, its first line ending in no conjunction
        ([(0.10, 0.26, "GASTHAUS ZUM"), (0.14, 0.20, "GOLDENEN HIRSCH")], "GASTHAUS ZUM GOLDENEN HIRSCH"),
        # the line with the business word is the second: the first still belongs to the name
        ([(0.10, 0.14, "THE COPPER KETTLE COFFEE"), (0.14, 0.26, "HOUSE & BAKERY")], None),
    ],
)
def test_a_merchant_name_wrapped_over_heading_lines_is_read_whole(
    heading: list[tuple[float, float, str]], expected: str | None
) -> None:
    """GIVEN a receipt whose merchant's name is set large over two lines, centred, with the
    address in body type below
    THEN the merchant is both lines, not the one that looked most like a name."""
    got = values(read_receipt([_with_heading(heading, RECEIPT_BODY)]))["merchant_name"]
    assert got == (expected or " ".join(text for _, _, text in heading))


def test_a_wrapped_name_whose_lines_differ_in_descenders_and_sit_beside_a_logo_is_read_whole() -> None:
    """GIVEN a receipt whose name wraps over two heading lines in one type size, the first box a
    quarter taller for its descenders and accents ("Boulangerie Pâtisserie" / "du Vieux Moulin"),
    and a logo's letters ("BM") OCR read beside them, between the two lines
    THEN the merchant is both lines: their letters' pitch is the same, and the logo is beside them."""
    body = page(RECEIPT_BODY, source="ocr")
    heading = [
        Line("Boulangerie Pâtisserie", 0.98, (0.20, 0.100, 0.20 + 0.024 * 22, 0.131), 1),
        Line("BM", 0.98, (0.05, 0.115, 0.11, 0.140), 1),
        Line("du Vieux Moulin", 0.98, (0.29, 0.135, 0.29 + 0.024 * 15, 0.159), 1),
    ]
    got = values(read_receipt([PageText(1, (*heading, *body.lines), "ocr")]))["merchant_name"]
    assert got == "BOULANGERIE PÂTISSERIE DU VIEUX MOULIN"


def test_a_monogram_at_the_rows_far_end_is_no_legal_form_and_a_salutation_ends_the_letterhead() -> None:
    """GIVEN a bill whose issuer's logo is its monogram "LP" at the far right of the name's row
    (also a legal form's letters), and a letter's salutation above a bolder heading
    THEN the issuer is the name alone: the monogram is beside it, not under it, and nothing after
    "Dear ..." belongs to the letterhead."""
    rows = [
        (0.05, [(0.08, "Lakeshore Power & Light"), (0.86, "LP")]),
        (0.12, [(0.08, "Dear Dr. Lindqvist,")]),
        (0.15, [(0.08, "Electric service bill")]),
        (0.20, [(0.08, "Account number"), (0.40, "9681083596")]),
        (0.22, [(0.08, "Statement date"), (0.40, "12 March 2024")]),
        (0.24, [(0.08, "Service address"), (0.40, "18 Old Mill Rd, Albuquerque, NM 87147")]),
        (0.30, [(0.08, "Amount due"), (0.40, "$84.34")]),
    ]
    assert (
        read_proof_of_address([page(rows, source="ocr")]).fields["issuer_name"].value
        == "LAKESHORE POWER & LIGHT"
    )


def test_a_brand_line_over_the_name_it_repeats_is_not_joined_to_it() -> None:
    """GIVEN a brand ("AEON") set large over the store's name, which repeats it
    THEN the merchant is not the two run together ("AEON AEON TEBRAU CITY")."""
    heading = [(0.10, 0.30, "AEON"), (0.14, 0.20, "AEON TEBRAU CITY")]
    got = values(read_receipt([_with_heading(heading, RECEIPT_BODY)]))["merchant_name"]
    assert got in ("AEON", "AEON TEBRAU CITY")


def test_a_customer_caption_beside_another_sections_caption_takes_the_name_below_it() -> None:
    """GIVEN an invoice whose "Customer" caption heads the customer's address block while "How to
    pay", in the page's other column on the same row, heads the bank details
    THEN the customer is the name under its caption, not the other section's caption."""
    rows = [
        (0.04, [(0.08, "Northgate Legal Services")]),
        (0.08, [(0.75, "INVOICE")]),
        (0.16, [(0.09, "INVOICE #"), (0.37, "DATE")]),
        (0.18, [(0.09, "2023/7378"), (0.37, "21 Sep 2023")]),
        (0.22, [(0.08, "Customer"), (0.53, "How to pay")]),
        (0.245, [(0.08, "Ambleside IT Solutions Ltd"), (0.53, "IBAN GB86 DJGH 9425 0863 2335 13")]),
        (0.265, [(0.08, "Flat 18, 240 Kingsmere Road"), (0.53, "BIC XAJXGBXX")]),
        (0.285, [(0.08, "Reading RG8 1EX")]),
        (0.35, [(0.09, "Item"), (0.77, "Line total")]),
        (0.38, [(0.09, "Annual software licence"), (0.84, "£4,118.00")]),
        (0.46, [(0.60, "Total due"), (0.84, "£4,118.00")]),
    ]
    assert values(read_invoice([page(rows)]))["customer_name"] == "AMBLESIDE IT SOLUTIONS LTD"
