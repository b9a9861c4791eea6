"""The invoice reader (engines/business/invoice.py): vendor and customer, number, dates, currency
and the totals that must add up.

Each test builds the page text by hand (what OCR or a PDF text layer would give) and pins one
layout rule; one renders the German invoice and reads it through the real OCR.
"""

from __future__ import annotations

import pytest

from engines.business import read_invoice
from engines.business.fields import ABSENT_LABEL_CONFIDENCE
from engines.layout import Line, PageText
from tests.support.business_pages import Row, needs_font, page, render, values

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
# End to end: a rendered page through the real OCR
# --------------------------------------------------------------------------------------------


@needs_font
def test_rendered_invoice_end_to_end() -> None:
    pages = [render(GERMAN_INVOICE)]
    got = values(read_invoice(pages))
    assert got["invoice_number"] == "RE-2026-0042"
    assert (got["invoice_date"], got["due_date"]) == ("2026-03-03", "2026-04-02")
    assert (got["subtotal"], got["tax_amount"], got["total_amount"]) == ("1234.50", "234.56", "1469.06")
    assert got["currency"] == "EUR"  # OCR cannot read "€": the German legal form and address decide


# --------------------------------------------------------------------------------------------
# What OCR does to text
# --------------------------------------------------------------------------------------------


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


def test_a_letters_salutation_and_its_opening_sentence_are_not_the_customer() -> None:
    letter = [
        (0.04, [(0.50, "Moore & Clarke B.V.")]),
        (0.10, [(0.10, "Invoice number FA-084757")]),
        (0.14, [(0.10, "Dear Customer,")]),
        (0.16, [(0.10, "For the services belowwe charge asfollows:")]),  # as OCR glued it: 7 words
        (0.30, [(0.60, "Total"), (0.80, "EUR 1,200.00")]),
    ]
    assert read_invoice([page(letter)]).fields["customer_name"].value is None  # none is printed


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
