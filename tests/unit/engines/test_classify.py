"""Document classification from page text (engines/classify.py), across languages and types."""

from __future__ import annotations

import pytest

from engines.classify import (
    DOCUMENT_TYPES,
    classify_text,
    identity_classification,
    printed_identity_type,
)
from engines.layout import Line, PageText


def _page(*texts: str, page: int = 1) -> PageText:
    lines = tuple(
        Line(text=t, score=0.95, bbox=(0.1, 0.02 + i * 0.03, 0.6, 0.04 + i * 0.03), page=page)
        for i, t in enumerate(texts)
    )
    return PageText(page=page, lines=lines, source="ocr")


CASES = {
    "receipt": _page(
        "Bakkerij van Leeuwen",
        "KWITANTIE",
        "Halfvolle melk 1L 1,50",
        "TE BETALEN EUR 6,48",
        "MAESTRO ****6105",
        "Bon nr 94944",
        "Dank u vel en tot ziens",
    ),
    "invoice": _page(
        "Müller GmbH",
        "Rechnung",
        "Rechnungsnummer: RE-2026-0042",
        "Rechnungsdatum: 03.03.2026",
        "Pos. Beschreibung Menge Einzelpreis",
        "Zwischensumme 1.234,50",
        "MwSt 19% 234,56",
        "Zahlungsziel: 30 Tage",
    ),
    "proof_of_address": _page(
        "Ashby Mobile",
        "Votre facture",
        "Date de facture: 14 mars 2025",
        "Lieu de consommation:",
        "MONSIEUR NICOLAS BERNARD",
        "Période de facturation: 13/12/2024 au 12/03/2025",
        "Forfait mensuel 24,98",
        "Total à payer: 67,66",
    ),
    "bank_statement": _page(
        "Banca Esempio",
        "Estratto conto",
        "Intestatario del conto: Mario Rossi",
        "IBAN IT60X0542811101000000123456",
        "Saldo iniziale 1.200,00",
        "01/02 Bonifico 150,00",
        "Saldo finale 1.050,00",
    ),
    "other": _page(
        "Dear Ms Smith,",
        "Thank you for your letter of 3 May.",
        "We look forward to seeing you.",
        "Yours sincerely",
    ),
}


@pytest.mark.parametrize("expected", sorted(CASES))
def test_each_type_is_recognised_by_its_words(expected: str) -> None:
    result = classify_text([CASES[expected]])
    assert result.document_type == expected, result.probabilities
    assert set(result.probabilities) == set(DOCUMENT_TYPES)
    assert sum(result.probabilities.values()) == pytest.approx(1.0, abs=0.01)


def test_a_telecom_bill_that_calls_itself_an_invoice_is_a_proof_of_address() -> None:
    """GIVEN a Dutch phone bill printed with an invoice's words (Factuurdatum, BTW, Totaal te
    betalen) and addressed to a person
    THEN its charges (calls, line) make it the bill it is, not a supplier's invoice."""
    page = _page(
        "Nova Mobiel",
        "INGRID JACOBS",
        "Factuurdatum 20-04-2023",
        "Klantnr. 56241454",
        "Rekening internet en bellen",
        "Totaal te betalen 59,81 EUR",
        "Factuurperiode 14-04-2022 t/m 08-04-2023",
        "Internet & bellen 38,46",
        "Gesprekskosten 10,97",
        "BTW 21% 10,38",
    )
    assert classify_text([page]).document_type == "proof_of_address"


def test_a_supermarket_ticket_with_an_invoices_captions_is_a_receipt() -> None:
    """GIVEN a French supermarket's ticket that prints "Prix unitaire", "Montant HT" and "Total
    TTC" as an invoice does, but bills nobody, gives the time of the sale and the card that paid
    THEN it is a receipt."""
    page = _page(
        "Supermarche Riverside",
        "TICKET",
        "67300 STRASBOURG",
        "Date 2023-07-22",
        "Heure 14:17",
        "Libelle Qte Prix unitaire Montant HT",
        "Pommes Golden 1kg 1 2,95 2,95",
        "Camembert 1 3,99 3,99",
        "Montant HT 72,99",
        "Total TTC 72,99",
        "dont TVA 20% 6,50",
        "Carte bancaire **4775 72,99",
    )
    assert classify_text([page]).document_type == "receipt"


def test_an_invoice_that_thanks_like_a_till_is_still_an_invoice() -> None:
    """GIVEN a French firm's invoice in English that calls itself a "TAX INVOICE" and ends with a
    till's "THANK YOU - PLEASE COME AGAIN", but is addressed ("INVOICE TO"), numbered ("INVOICE#",
    glued by OCR), payable on terms ("Net 30") to an IBAN
    THEN it is an invoice."""
    page = _page(
        "CALYPSO SARL",
        "TAX INVOICE",
        "INVOICE#",
        "DATEOFISSUE",
        "TOTAL TOPAY",
        "INV-2024-2408",
        "INVOICE TO",
        "Fitzgerald Legal Services SARL",
        "DETAILS",
        "QTY",
        "AMOUNT",
        "Training workshop(1 day) 474,74",
        "NET TOTAL 2839,95",
        "VAT20% 567,99",
        "TOTALAMOUNT 3407,94",
        "Terms: Net 30",
        "PLEASE PAY TO",
        "IBAN FR761125982535027810 3947 624",
        "THANK YOU-PLEASE COME AGAIN",
    )
    assert classify_text([page]).document_type == "invoice"


def test_a_gas_bill_titled_as_an_invoice_is_a_proof_of_address() -> None:
    """GIVEN a French gas bill with an invoice's words (Facture, Date de facture, Total HT, Net à
    payer, À régler avant) whose consumption period OCR misread ("cons0mmation")
    THEN its title ("Facture de gaz") and its meter's two readings make it the bill it is."""
    page = _page(
        "Gaz de Rennes",
        "Facture de gaz",
        "Date defacture25/11/2024",
        "Lieu de consommation",
        "M.FRANCOIS BONNET",
        "67allee Emile Zola",
        "35300RENNES",
        "Periode de cons0mmation26/11/2023au19/11/2024",
        "A regler avant le 23/12/2024",
        "Net a payer 8493,34",
        "Compteur",
        "Ancien index",
        "Nouvel index Consommation (kWh)",
        "Libellé",
        "Total HT",
        "Abonnement 126,90",
        "TVA 20% 1 415,56",
    )
    assert classify_text([page]).document_type == "proof_of_address"


def test_a_brasserie_ticket_paid_by_cb_sans_contact_is_a_receipt() -> None:
    """GIVEN a French brasserie's ticket with an invoice's captions (Description, Qté, Prix unit.,
    Total HT, Total TTC), the time of the meal and "CB sans contact" over the amount it paid
    THEN it is a receipt: CB (carte bleue) and "sans contact" are means of payment."""
    page = _page(
        "Brasserie Silverline",
        "TICKET",
        "172ALLEE DES ECOLES",
        "42200SAINT-ETIENNE",
        "Date: 06/10/2026",
        "Heure: 10:06",
        "Description: Qte: Prix unit. Total HT:",
        "Steak frites 1 17,59 17,59",
        "Salade nicoise 2 11,50 23,00",
        "Total HT: 47,08",
        "Total TTC: 47,08EUR",
        "dontTVA20% 7,85",
        "CB sans contact:***1111",
        "47,08",
        "Merci de votre visite!",
    )
    assert classify_text([page]).document_type == "receipt"


def test_a_spanish_supermarket_ticket_titled_factura_is_a_receipt() -> None:
    """GIVEN a Spanish supermarket's ticket whose total says "TOTAL FACTURA", its title and its
    thanks glued by OCR ("TICKETDE COMPRA", "iGracias por su visita!"), with the cash handed over
    and the change given back
    THEN it is a receipt."""
    page = _page(
        "SUPERMERCADO HELIX",
        "C/ Nueva 16",
        "46020Valencia",
        "TICKETDE COMPRA",
        "31/05/2023",
        "Queso manchego250g 3 x 4,50 13,50",
        "Zumo de naranja 1L 2,50",
        "Total sin IVA 65,56",
        "TOTAL FACTURA 65,56",
        "Entregado 100,00",
        "Devolucion 34,44",
        "iGracias por su visita!",
    )
    assert classify_text([page]).document_type == "receipt"


def test_a_diner_ticket_paid_by_card_is_a_receipt_whatever_ocr_made_of_payment() -> None:
    """GIVEN a London diner's "TAX INVOICE" with a ticket number, the time, and "Card payert*6702"
    (OCR's "payment") over the amount paid
    THEN it is a receipt: the card and the amount beside it say it was paid at the counter."""
    page = _page(
        "JONES'S DINER",
        "TAX INVOICE",
        "173ALBERTWAY",
        "Ticket No. 74021",
        "Date 14/03/2024",
        "Time 12:46",
        "Service Quantity Rate Line total",
        "Americano 1 2.65 2.65",
        "Grand total 13.11",
        "incl.VAT20% 2.19",
        "Card payert*6702",
        "13.11",
        "Thank youforyour business!",
    )
    assert classify_text([page]).document_type == "receipt"


def test_a_dutch_invoice_with_its_title_misread_is_still_an_invoice() -> None:
    """GIVEN a Dutch invoice whose title OCR misread ("FACTUU", "Facturrr"), saying "Totaal te
    betalen" as tills do, but with a last day to pay ("Uiterste betaaldatum")
    THEN it is an invoice."""
    page = _page(
        "SmitDrukwerk BV",
        "Zuidplein116-5046HCTiburg",
        "FACTUU",
        "Datum 13september2022",
        "Uiterste betaaldatum 23september2022",
        "Totaalte betalen EUR17.367,40",
        "Aan Sem van Dijk",
        "Aantal Prljs(EUR) Totaal(EUR)",
        "Subtotaal 14.353,22",
        "Dank u voor uw opdracht",
    )
    assert classify_text([page]).document_type == "invoice"


def test_a_meetings_agenda_on_a_utilitys_letterhead_is_other() -> None:
    """GIVEN a French company's meeting agenda ("Ordre du jour", its items timed) whose letterhead
    names an electricity firm
    THEN it is none of the types: the agenda says what it is, the firm's name does not."""
    page = _page(
        "Vertex Electricite EURL",
        "Ordre du jour",
        "Date: 20/05/2022",
        "130rue des Ecoles.44100 Nantes",
        "11:00",
        "1.Accueil",
        "11:20",
        "2.Approbation du proces-verbal",
        "11:30",
        "5.Budget previsionnel",
    )
    assert classify_text([page]).document_type == "other"


def test_a_council_tax_demand_notice_photographed_badly_is_a_proof_of_address() -> None:
    """GIVEN a photo of a council tax bill of which OCR read little but the council's name and a
    title with a letter lost ("CONETL TAX DEMAND OTICE")
    THEN it is a proof of address: the title is found with the letter missing."""
    page = _page("ALPINA DISTRICT COUNCIL", "21Meg 2023", "VW5145654", "CONETL TAX DEMAND OTICE", "(1.06.95")
    assert classify_text([page]).document_type == "proof_of_address"


def test_an_agenda_with_times_under_their_own_word_is_no_receipt() -> None:
    page = _page(
        "Tagesordnung",
        "Projektbesprechung Nord",
        "Uhrzeit Thema",
        "11:00 Begrüßung",
        "13:00 Mittagessen",
        "14:30 Ausblick",
    )
    assert classify_text([page]).document_type == "other"


@pytest.mark.parametrize(
    ("mrz_line", "expected"),
    [
        ("BIN<IVANOV<<JEAN<BAPTISTE<<<<<", "id_card"),  # a card's 30 characters
        ("P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "passport"),  # a passport's 44
    ],
)
def test_an_mrz_line_the_reader_could_not_read_whole_still_says_identity_document(
    mrz_line: str, expected: str
) -> None:
    """GIVEN a photo of a small card upside down beside its other side, whose words OCR mangled
    ("PERMSODERESOENCARESDEACEPENMT") and whose MRZ the reader could not read whole
    THEN the MRZ line OCR did read makes it an identity document, by its length."""
    page = _page("2018-10.31", "SINGANORE", "PERMSODERESOENCARESDEACEPENMT", "REYKIAVIK", mrz_line)
    assert classify_text([page]).document_type == expected


def test_a_letter_that_says_thank_you_twice_is_no_receipt() -> None:
    page = _page(
        "Dear Mr Evans,",
        "Thank you for your letter of 3 May about the community hall.",
        "We look forward to seeing you at the meeting.",
        "Thankyou again,",
        "Yours sincerely",
    )
    assert classify_text([page]).document_type == "other"


def test_cues_match_whole_words_only() -> None:
    # "gas" inside "Vegas", "tva" inside "TVAL" are not cues
    result = classify_text([_page("Welcome to Las Vegas", "TVAL park", "See you soon")])
    assert result.document_type == "other"


def test_empty_document_is_other_and_unsure() -> None:
    result = classify_text([PageText(page=1, lines=(), source="ocr")])
    assert result.document_type == "other" and result.confidence < 0.5


def test_identity_classification_puts_the_rest_of_the_mass_elsewhere() -> None:
    result = identity_classification("passport", 0.97)
    assert result.document_type == "passport" and result.probabilities["passport"] == 0.97
    assert sum(result.probabilities.values()) == pytest.approx(1.0)


def test_a_statement_listing_card_payments_is_a_bank_statement_not_a_receipt() -> None:
    """A German current account statement lists "Kartenzahlung" and "girocard" lines, which are
    receipt words; its own words (holder, balances, booking text) must outweigh them."""
    payments = [f"{day:02d}.08.2026 Kartenzahlung SHOP {day} 12,{day:02d}" for day in range(1, 9)]
    page = _page(
        "SPARKASSE HANNOVER",
        "Privatkonto",
        "Kontoinhaberin Jonas Koch",
        "IBAN DE98 5759 0012 3501 2287 51",
        "Saldo neu 9.913,56 €",
        "Datum Buchungstext Betrag",
        "02.08.2026 Dauerauftrag Verdant Gas GmbH 174,44",
        "09.08.2026 girocard HORIZON GMBH LEIPZIG 162,35",
        *payments,
    )
    assert classify_text([page]).document_type == "bank_statement"


def test_cues_spelled_with_accents_match_an_ocr_reading_without_them() -> None:
    """PP-OCR's alphabet has no accented letters: a German invoice photographed reads
    "RECHNUNGSEMPFANGER" and "Fallig"; the cue must still count, or a receipt's words win."""
    page = _page(
        "Marenco UG (haftungsbeschrankt)",
        "RECHNUNGSEMPFANGER",
        "Hoffmann & Hartmann UG",
        "ARTIKEL MENGE EINZELPREIS BETRAG",
        "NETTOBETRAG 8.873,76",
        "MwSt. 19% 1.686,01",
        "ENDBETRAG 10.559,77",
        "Fallig am 05.06.2024",
    )
    assert classify_text([page]).document_type == "invoice"


@pytest.mark.parametrize(
    "lines",
    [
        # a water bill with the payer's account details ("Kontoinhaberin" is a statement word too)
        (
            "Wasserverband Brisa",
            "WASSERRECHNUNG",
            "KONTOINHABERIN Marie Hofmann",
            "ZAHLER-NR. ANFANGSSTAND ENDSTAND",
            "VERBRAUCH (m³) 40",
            "Arbeitspreis 154,00",
            "Grundpreis 6,87",
            "IBAN DE25 7039 5514 0573 5790 00",
        ),
        # a municipal fee notice for a property
        (
            "Stadt Bremen",
            "SABINE WOLF",
            "ABGABENBESCHEID ABFALL UND STRASSENREINIGUNG",
            "Anschlussadresse: Hauptstr. 143, 28917 Bremen",
            "Zu zahlender Betrag: EUR 2.878,92",
        ),
        # a Dutch telecom bill: "factuur" is an invoice word, the connection address is not
        (
            "Zenith Telecom",
            "Uw factuur",
            "AANSLUITADRES",
            "Mevr. Sophie Vos",
            "Maandabonnement 27,04",
            "BTW 21% 5,68",
            "TOTAAL TE BETALEN 32,72 EUR",
        ),
    ],
)
def test_bills_for_a_home_are_proof_of_address(lines: tuple[str, ...]) -> None:
    assert classify_text([_page(*lines)]).document_type == "proof_of_address"


def test_an_eszett_cue_matches_its_ocr_reading_in_double_s() -> None:
    """ "Straßenreinigung" upper-cased by the printer and read by OCR is "STRASSENREINIGUNG"."""
    lines = ("Stadt Bremen", "Bescheid", "SABINE WOLF", "Zu zahlender Betrag: EUR 2.878,92")
    without = classify_text([_page(*lines)]).probabilities["proof_of_address"]
    with_cue = classify_text([_page(*lines, "ABFALL UND STRASSENREINIGUNG")]).probabilities[
        "proof_of_address"
    ]
    assert with_cue > without


def test_a_till_receipt_calling_itself_a_tax_invoice_is_a_receipt() -> None:
    """Malaysian tills print "TAX INVOICE" and "Invoice #" on every receipt (SROIE); the receipt
    says how it was paid and at what time, and bills nobody."""
    page = _page(
        "UNIHAKKA INTERNATIONAL SDN BHD",
        "27 Mar 2018 18:46",
        "TAX INVOICE",
        "Invoice #: OR18032702170334",
        "Fried Noodle (S) $2.00",
        "Total Amount: $6.90",
        "GST @6%: $0.39",
        "CASH $6.90",
        "Change $0.00",
    )
    result = classify_text([page])
    assert result.document_type == "receipt", result.probabilities


def test_an_invoice_that_bills_a_customer_stays_an_invoice_though_paid_in_cash() -> None:
    page = _page(
        "Blue River Supply Inc.",
        "TAX INVOICE",
        "Invoice #: 10442",
        "Date: 03/04/2026",
        "Bill To: Acme Plumbing LLC",
        "Due Date: 04/03/2026",
        "Payment terms: cash on delivery",
        "Total $1,284.00",
    )
    assert classify_text([page]).document_type == "invoice"


def test_a_letter_about_a_change_is_not_a_receipt() -> None:
    """ "Change" and "Thank you" are till words only beside money; a letter that merely ties a
    type with "other" stays "other"."""
    page = _page(
        "Bluewave Vereniging",
        "Norwich, 11/09/2024",
        "Change of opening hours",
        "Dear Chloe Jackson,",
        "Thankyou for your letter of last week regarding the community hall.",
    )
    assert classify_text([page]).document_type == "other"


def test_a_swiss_invoice_asking_for_a_transfer_is_an_invoice() -> None:
    page = _page(
        "Helixworks GmbH",
        "Rechnung Nr. 94945",
        "Datum 2025-07-13",
        "Vielen Dank für Ihren Auftrag. Wir stellen Ihnen folgende Leistungen in Rechnung:",
        "Pos. Bezeichnung Anzahl Preis/Einheit (CHF)",
        "Nettobetrag 1'186.02",
        "Summe MwSt. 96.07",
        "Zu zahlen CHF 1'282.09",
        "Bitte überweisen Sie den Betrag bis zum 2025-08-12.",
        "Zahlungsinformationen",
    )
    assert classify_text([page]).document_type == "invoice"


def test_a_german_till_receipt_with_its_time_glued_to_the_date_is_a_receipt() -> None:
    page = _page(
        "Frischkauf Weber",
        "Waldgasse 13",
        "81997 Munchen",
        "09.04.202507:00",
        "Bon94715",
        "Apfel Elstar 1kg 2,95B",
        "Butter 250g 6,00B",
        "Rechnungsbetrag 19,85",
        "Netto 16,68",
        "Vielen Dank",
    )
    assert classify_text([page]).document_type == "receipt", classify_text([page]).probabilities


def test_an_italian_ricevuta_with_an_invoice_like_item_table_is_a_receipt() -> None:
    """GIVEN a shop's "Ricevuta" whose item table prints quantity, unit price and amount, and
    "Totale documento", paid by credit card (its number masked to the last four digits)
    THEN it is a receipt: it names how it was paid, and nobody it bills."""
    page = _page(
        "Levante Alimentari",
        "Ricevuta",
        "Piazza Roma,138",
        "90173Palermo (PA)",
        "Doc.n.",
        "8431",
        "Data:",
        "19.05.2024",
        "Ora:",
        "20:26",
        "Articolo:",
        "Quantita:",
        "Prezzo unitario:",
        "Importo:",
        "Banane 2 1,99 3,98",
        "Totale netto:",
        "23,23",
        "Totale documento:",
        "23,23",
        "di cui IVA10%",
        "2,11",
        "Carta di credito: **3565",
        "23.23",
        "Grazie per la visita!",
    )
    assert classify_text([page]).document_type == "receipt", classify_text([page]).probabilities


def test_a_blurred_photo_of_a_bill_misreading_its_cues_by_a_letter_is_still_a_bill() -> None:
    """A phone photo read "Montily plan" and "AECOUNT NUMBER": each cue one letter off."""
    page = _page(
        "MARENCO FIBRE",
        "Monthly Statement",
        "AECOUNT NUMBER",
        "0060-806543",
        "DUE DATF",
        "Montily plan",
        "68.35",
        "TOTAL AMOUNT DUE:",
        "68.35CAD",
    )
    assert classify_text([page]).document_type == "proof_of_address", classify_text([page]).probabilities


def test_a_french_invoice_is_told_by_its_totals_and_terms_when_its_title_is_misread() -> None:
    page = _page(
        "Brightline EURL",
        "FACFURE2022-00H17",
        "Quantite Prx unitaife(Euf)",
        "Hebergement 12mois 1 195,00 195,00",
        "Total HT 34130.32",
        "Montant TTC EUR 39361,76",
        "Conditions depalement:30jours",
    )
    assert classify_text([page]).document_type == "invoice", classify_text([page]).probabilities


def test_a_council_that_bills_an_occupier_issues_a_proof_of_address() -> None:
    page = _page("ORION DISTRICT COUNCIL", "Demand notice 2026/27", "TOTAL AMOUNT DUE", "GBP3791.61")
    assert classify_text([page]).document_type == "proof_of_address"


def test_a_short_word_one_letter_from_a_cue_is_no_cue() -> None:
    """Approximate matching is for long phrases: "settlement" is not "statement"."""
    page = _page("Notice of settlement", "Dear Sir,", "Please find the settlement attached.")
    assert classify_text([page]).document_type == "other"


def test_a_statement_whose_movements_pay_utilities_is_a_bank_statement() -> None:
    """Its rows name gas, electricity and a monthly fee ("canone"): a ledger of dated movements
    is a statement, not the utility's bill."""
    rows = [
        "01/04/2024 ADDEBITO DIRETTO Alpina Luce e Gas S.p.A. 99,74",
        "02/04/2024 CANONE MENSILE CONTO 13,36",
        "02/04/2024 PAGAMENTO POS Greenfield Market 145,45",
        "04/04/2024 STIPENDIO Fjordline S.r.l. 1.875,24",
        "08/04/2024 BONIFICO DA Alessia Bruno 413,16",
        "10/04/2024 ACCREDITO Lorenzo Barbieri 117,31",
        "16/04/2024 PAGAMENTO CARTA Brightline Shop 118,82",
        "20/04/2024 ADDEBITO SDD Alpina Luce e Gas S.p.A. 201,72",
        "27/04/2024 PRELIEVO BANCOMAT ROMA 250,00",
    ]
    page = _page("Banca Popolare Redfern", "Estratto conto corrente", "IBAN IT75 X316 1390 9122", *rows)
    assert classify_text([page]).document_type == "bank_statement", classify_text([page]).probabilities


def test_a_diner_receipt_paid_by_card_is_a_receipt_though_its_total_says_balance_due() -> None:
    """GIVEN a photographed till receipt whose amounts stand in a column of their own, so the card
    is followed only by its masked number, whose total reads "BALANCE DUE", and whose time OCR
    glued to the date
    WHEN it is classified
    THEN the masked card and the time of day, with nobody billed, make it a receipt."""
    page = _page(
        "Taylor's Diner",
        "21-5154 Main Avenue",
        "GST/HST #503214696 RT0001",
        "2026-02-0209:14",
        "Trans #34593",
        "Tea Earl Grey",
        "3.24",
        "TOTAL EXCL. VAT",
        "33.18",
        "HST15%",
        "4.98",
        "BALANCE DUE",
        "38.16 CAD",
        "CONTACTLESS",
        "****6299",
        "38.16",
        "Thank you for your business!",
    )
    result = classify_text([page])
    assert result.document_type == "receipt", result.probabilities


def test_a_numbered_receipt_printed_on_a_page_is_a_receipt_though_titled_tax_invoice() -> None:
    page = _page(
        "Alpina Service Station",
        "TAX INVOICE",
        "Receipt # 5831",
        "Date: 2026-12-27",
        "Time: 08:49",
        "Description: Quantity: Unit price: Line total:",
        "Super Unleaded 53.290 2.00 106.85",
        "Total excl. VAT: 117.25",
        "Total: £ 117.25",
        "incl. VAT 20% 19.54",
        "Cash: 117.25",
        "Thank you for your business!",
    )
    result = classify_text([page])
    assert result.document_type == "receipt", result.probabilities


def test_the_printed_title_tells_a_passport_from_an_identity_card() -> None:
    """A TD2's MRZ is a passport's or a card's by its code's first letter alone; where OCR misread
    that letter, the title printed above says which, and words both print ("Nationality") do not."""
    passport = _page("REPUBLIKA HRVATSKA", "PUTOVNICA / PASSPORT", "Nationality HRV", "Surname KARAPETYAN")
    card = _page("BUNDESREPUBLIK DEUTSCHLAND", "PERSONALAUSWEIS", "Nationality DEU")
    assert printed_identity_type([passport]) == "passport"
    assert printed_identity_type([card]) == "id_card"
    assert printed_identity_type([_page("Nationality HRV", "Surname KARAPETYAN")]) is None
    # the fields both print, however many, name neither: a Danish identity certificate
    certificate = _page(
        "DANMARK",
        "IDENTITY CERTIFICATE/ CERTIFICAT D'IDENTITE",
        "6. Nationality/Nationalie",
        "9.Place of birth /Lieu de naissance",
        "12. Date of expiry /Date dexpiration",
    )
    assert printed_identity_type([certificate]) is None


@pytest.mark.parametrize(
    "lines",
    [
        # a Swiss internet box's bill, OCR gluing its title, with the slip to pay it
        (
            "Greenfield Mobile",
            "FactureBoxInternet",
            "Titulaire",
            "Facture du 2025-12-08",
            "Léa Martin",
            "Période 2025-10-30 au 2025-11-28",
            "Net à payer CHF 50.77",
            "Libellé Montant",
            "Abonnement Box 46.97",
            "TVA 8.1% 3.80",
            "Talon de paiement",
            "IBAN CH4510434700167277433",
        ),
        # a German phone bill: its tariff, its connections and the transfer slip
        (
            "Sterlingnet GmbH",
            "IhreRechnung",
            "Kontoinhaber",
            "Rechnungsdatum 03.04.2023",
            "Frau Monika Schulz",
            "Zeitraum 28.02.2023-29.03.2023",
            "Rechnungsbetrag 95,65",
            "Leistung Betrag",
            "Tarif 61,92",
            "Verbindungen 18,46",
            "MwSt 19% 15,27",
            "Überweisungsträger",
            "Kontoinhaber Monika Schulz",
            "IBAN DE08769177861033171033",
        ),
        # a Spanish town hall's property tax as OCR read it, its instalments dated like a ledger's rows
        (
            "a",
            "ayuntamiento de valladolid",
            "paseo del sol 13619 izq. ·14016cordoba",
            "jose sanchez vazquez",
            "fecha:",
            "07-11-2022",
            "plaza de atocha24,89b",
            "referencia:",
            "386971 060",
            "47082valladolid",
            "recibo ibi",
            "direccion de suministro: plaza de atocha24,89b,47082valladolid",
            "articulo",
            "importe",
            "1.766,40",
            "banda",
            "1.766,40 eur",
            "importe a pagar:",
            "plazos",
            "27-11-2022 176,64",
            "27-05-2023 176,64",
            "27-12-2022 176.64",
            "27-06-2023 176,64",
            "27-01-2023 176,64",
            "27-07-2023 176,64",
            "27-02-2023 176,64",
            "27-08-2023 176,64",
            "27-03-2023 176,64",
            "27-04-2023176,64",
            "pag. 1/1",
        ),
        # an Italian town hall's waste tax photographed: "Data fattura" as on any invoice, the
        # council's name glued and the supply address misread; its instalments say bill
        (
            "COMUNEDIPALERMO",
            "Corso deiMile 145-42181 ReggioEmilia (RE)",
            "Data fattura:",
            "17/04/2024",
            "Sig.raAnnaGiulia Lombardi",
            "VIAMAZZINI37",
            "90121PALERMO(PA)",
            "AVVISO DI PAGAMENTO TARI",
            "Indirizo di formitura: VIA MAZZINI37,90121PALERMO (PA)",
            "Totale",
            "Descrizione",
            "1.408,30",
            "Importo da pagare:",
            "1.675,50",
            "Rate",
            "07/05/2024 167.55",
            "07/11/2024 167,55",
            "07/06/2024 167,55",
            "07/12/2024 167,55",
            "07/07/2024 167,55",
            "07/01/2025 167,55",
        ),
    ],
)
def test_bills_to_a_home_with_invoice_and_payment_words_are_proof_of_address(lines: tuple[str, ...]) -> None:
    result = classify_text([_page(*lines)])
    assert result.document_type == "proof_of_address", result.probabilities


def test_a_telecom_bill_naming_its_installation_address_is_a_proof_of_address() -> None:
    """GIVEN a broadband bill whose text says "invoice date", "VAT" and "line total" like any
    invoice, and names the line's installation address (OCR glued its words)
    THEN it is a proof of address: an installation address is where the customer lives."""
    page = _page(
        "LINDQVISTTELECOM",
        "Monthly Statement",
        "INVOICE DATE08/01/2022",
        "INSTALLATIONADDRESS",
        "Ms Patricia Clarke",
        "ACCOUNT NUMBER KA15192890",
        "Schillerallee164",
        "01692Dresden",
        "DUEBY 05/02/2022",
        "TOTALTO PAY 40,89",
        "DESCRIPTION LINETOTAL",
        "Broadband & calls package 27,06",
        "VAT19% 6,53",
    )
    assert classify_text([page]).document_type == "proof_of_address", classify_text([page]).probabilities


def test_a_dutch_invoice_titled_by_its_number_alone_is_an_invoice() -> None:
    """GIVEN a Dutch invoice that prints no "Factuur" title, only "Factuurnr.", "Klantnr." and
    "Totaal incl. btw" (it once read as `other`)
    THEN it is an invoice."""
    page = _page(
        "SUMMIT INGENIEURSBUREAU BV",
        "Factuurnr.",
        "INV-2023-2524",
        "Mevr. Sanne Hendriks",
        "Datum 13/02/2023",
        "Klantnr. 9901",
        "Beschrijving Aantal Prijs btw % Bedrag",
        "Netto bedrag 14.283,00 EUR",
        "Totaal incl. btw 17.282,43 EUR",
        "BTW-nr. NL817726742B02",
        "IBAN NL46 RRZP 9971 9309 51",
    )
    assert classify_text([page]).document_type == "invoice"


def test_an_invitation_that_thanks_for_a_letter_is_other() -> None:
    page = _page(
        "Groß & Wolf SA",
        "Lausanne, 27.07.2024",
        "Einladung zur Jahresversammlung",
        "Sehr geehrte Damen und Herren,",
        "vielen Dank für Ihr Schreiben vom vergangenen Monat",
        "vielen Dank für Ihr Schreiben vom vergangenen Monat",
        "vielen Dank für Ihr Schreiben vom vergangenen Monat",
        "Mit freundlichen Grüßen",
    )
    assert classify_text([page]).document_type == "other"


def test_a_products_data_sheet_from_an_electricians_firm_is_other() -> None:
    """GIVEN a French data sheet from "Ashby Electricité EURL" listing a device's power draw
    ("Consommation 12W") and closing with its maker's address line
    THEN it is other: once read as a proof of address for its maker's and its words."""
    page = _page(
        "Ashby Electricite EURL",
        "Fiche technique",
        "Mistral Pro40",
        "Caracteristique",
        "Valeur",
        "Dimensions 120x80x35mm",
        "Tension de service 230V AC",
        "Consommation 12W",
        "Indice de protection IP54",
        "Ashby ElectricitéEURL ·161ALLEE NATIONALE ·33300BORDEAUX",
    )
    assert classify_text([page]).document_type == "other"


def test_a_cue_glued_to_the_number_it_captions_still_counts() -> None:
    """GIVEN a blurred Spanish invoice whose OCR glued its title to its number ("Factura2025-2985")
    and read little else but its totals (it once read as `other`)
    THEN it is an invoice."""
    page = _page(
        "Valmont S.L.",
        "2025-2965",
        "29-06-2025",
        "CALLE MAYORB1",
        "Factura2025-2985",
        "Hoia Pable",
        "Uds.Ud",
        "Precio",
        "imperte",
        "Subtotal",
        "(379.89",
        "INA 21% s0e 379.89",
        "79.78",
        "importe total:",
        "459,67",
    )
    assert classify_text([page]).document_type == "invoice", classify_text([page]).probabilities


def test_a_page_titled_invoice_over_a_total_is_an_invoice_though_blur_hid_the_rest() -> None:
    """GIVEN a photo of an invoice so small and blurred that OCR read only its title, its number
    and its total (it once tied with `other`, which wins ties)
    THEN the title, a line of its own, makes it an invoice."""
    page = _page("INVOICE", "RE32522326", "SUAORA", "HOHISOFCI SUMUSLC", "e", "300", "TOTAL", "S3828.44")
    assert classify_text([page]).document_type == "invoice", classify_text([page]).probabilities


def test_a_letter_mentioning_an_invoice_in_passing_is_not_titled_by_it() -> None:
    """The word inside a sentence is no title: a letter stays `other`."""
    page = _page(
        "Dear Mr Smith,",
        "thank you for your letter about the invoice of last year.",
        "We will reply shortly.",
        "Yours sincerely,",
    )
    assert classify_text([page]).document_type == "other", classify_text([page]).probabilities


def test_a_unit_glued_to_its_quantity_is_a_cue() -> None:
    """GIVEN a blurred electricity bill whose only cues are its consumption, printed "1.234kWh"
    and "Verbrauch3.421kWh" with no space
    THEN it is a proof of address."""
    page = _page("Nord GmbH", "Verbrauch3.421kWh", "Stand 1.234kWh", "Betrag 45,20 EUR")
    assert classify_text([page]).document_type == "proof_of_address", classify_text([page]).probabilities


def test_a_till_slip_is_told_by_its_item_lines_when_its_words_are_misread() -> None:
    """GIVEN a shaken photo of a French grocery receipt, deblurred, whose cue words OCR misread
    ("BBPECES" for ESPÈCES) and whose many amounts look like a ledger's (it once read as `other`)
    THEN its item lines, counts times prices and amounts tagged with their VAT rate's letter,
    make it a receipt."""
    page = _page(
        "Epicerie Martin",
        "A7 hia chesin des Roses",
        "42200SAIN-ETENNE",
        "Transaction 45s548",
        "Rananes",
        "8,04B",
        "3\u00d72:98",
        "4.49B",
        "m250g",
        "1,35B",
        "Lait dem-erme1l",
        "Banates",
        "Tomates grappe",
        "2\u00d71.00",
        "Vin A0c75c]",
        "13,58A",
        "TOTALHT",
        "43.26",
        "MONTANT TOTAL TTC EUR",
        "43,29",
        "BBPECES",
        "58,40",
        "TA20%",
        "2:26",
    )
    assert classify_text([page]).document_type == "receipt", classify_text([page]).probabilities


def test_an_invoice_table_with_quantities_in_their_own_column_is_no_till_slip() -> None:
    page = _page(
        "RECHNUNG",
        "Rechnungsnummer 2024-118",
        "Pos. Menge Einzelpreis Betrag",
        "1 2 120,00 240,00",
        "2 1 80,00 80,00",
        "3 4 12,50 50,00",
        "Nettobetrag 370,00",
        "MwSt 19 % 70,30",
        "Gesamtbetrag 440,30",
    )
    assert classify_text([page]).document_type == "invoice", classify_text([page]).probabilities


def test_a_telecom_bill_calling_itself_a_monthly_statement_is_a_proof_of_address() -> None:
    """GIVEN a fibre provider's bill headed "Monthly Statement" with a "STATEMENT DATE", which
    asks to be paid ("Please pay by") and keeps no ledger
    THEN it is a proof of address, not a bank statement (once read as one, at 0.37)."""
    page = _page(
        "Sonnental Fibre",
        "MR ANNE-SOPHIE REYES",
        "STATEMENT DATE",
        "2022-01-03",
        "7019 Sunset Avenue",
        "ACCOUNT NUMBER",
        "737 833 463",
        "Phoenix, AZ 85005",
        "FOR THE PERIOD",
        "2021-09-26 - 2021-12-24",
        "Monthly Statement",
        "TOTAL TO PAY",
        "USD 30.80",
        "Please pay by 2022-01-17.",
        "SERVICE",
        "AMOUNT",
        "Monthly plan",
        "30.80",
    )
    assert classify_text([page]).document_type == "proof_of_address", classify_text([page]).probabilities


def test_a_statement_that_reports_a_balance_owed_stays_a_bank_statement() -> None:
    """GIVEN a bank statement that also says what is due on a loan ("Amount due") beside its
    balances carried over
    THEN the demand for payment does not make it a bill."""
    page = _page(
        "Bank Statement",
        "Statement date 2024-05-31",
        "Opening balance 1.250,00",
        "Amount due on loan 120,00",
        "Closing balance 980,00",
    )
    assert classify_text([page]).document_type == "bank_statement", classify_text([page]).probabilities


def test_a_french_tax_notice_with_an_invoices_captions_is_a_proof_of_address() -> None:
    """GIVEN a town hall's "AVIS D'IMPOT TAXE D'HABITATION" printing invoice captions
    ("Désignation", "Montant HT", "Net à payer") and a payment plan ("Echéancier")
    THEN it is a proof of address, not an invoice."""
    page = _page(
        "MAIRIE DE AIX-EN-PROVENCE",
        "MANON THOMAS",
        "96 ter chemin Pasteur",
        "13100 Aix-en-Provence",
        "AVIS D'IMPOT TAXE D'HABITATION",
        "Designation",
        "Montant HT",
        "Net a payer:",
        "2.462,86",
        "Echeancier",
        "2023-08-16 1.231,43",
        "2023-09-16 1.231,43",
    )
    assert classify_text([page]).document_type == "proof_of_address", classify_text([page]).probabilities


def test_a_smeared_passport_whose_title_and_mrz_ocr_glued_is_still_a_passport() -> None:
    """GIVEN a shaken photo of a passport where OCR glued its bilingual title
    ("PASSPORTPASSEPORT") and read every filler of its first MRZ line as a K
    THEN it is a passport (once "other", at 0.32)."""
    page = _page(
        "KINGDOI GFSAUDARABLA",
        "PASSPORTPASSEPORT",
        "3213843",
        "BIN ABERG",
        "PKSAUBIHKAABERGCKWOJLTECHKERIKLSOERENKOSCARK",
    )
    assert classify_text([page]).document_type == "passport", classify_text([page]).probabilities


@pytest.mark.parametrize(
    "line",
    [
        "PKSAUBIHKAABERGCKWOJLTECHKERIKLSOERENKOSCARK",
        "P<UTOERIKSSONKKANNAKMARIAKKKKKKKKKKKKKKKKKKK",
    ],
)
def test_a_passports_first_mrz_line_with_its_fillers_misread_says_passport(line: str) -> None:
    assert classify_text([_page(line)]).document_type == "passport"


@pytest.mark.parametrize(
    "line",
    [
        "PNEUMONOULTRAMICROSCOPICSILICOVOLCANOCONIOSIS",  # a word, no state's code after "PN"
        "PXQZABCDEFGHIJKLMNOPQRSTUVWXYZ",  # too short for a passport's line
    ],
)
def test_a_long_capital_word_is_no_passports_mrz_line(line: str) -> None:
    assert classify_text([_page(line)]).document_type != "passport"


def test_a_licence_whose_captions_a_smear_took_is_known_by_its_holders_eyes_and_height() -> None:
    """GIVEN a shaken photo of an Alberta licence where OCR read values but no caption: the eye
    colour's AAMVA code alone on its line ("BRO") and a height ("170.cm")
    THEN it is a driver's licence (once "other")."""
    page = _page(
        "Alperta",
        "796896-555",
        "2031/09/06",
        "LE CAMPBELL",
        "REBECCA",
        "891Z PARK WAY APT 1728",
        "EDMONTONAETIK0X9",
        "0,1941/09/06",
        "170.cm",
        "2024/05/27",
        "BRO",
        "NONE",
    )
    assert classify_text([page]).document_type == "driver_license", classify_text([page]).probabilities


def test_a_height_without_an_eye_colour_code_says_no_licence() -> None:
    page = _page("Product sheet", "Height 170 cm", "Colour: BROWN", "Weight 12 kg")
    assert classify_text([page]).document_type != "driver_license"


def test_a_german_letter_thanking_for_a_letter_is_no_receipt() -> None:
    """GIVEN an association's letter that thanks, three times, for the reader's letter
    ("Vielen Dank für Ihr Schreiben"), which a till's "Vielen Dank" once made a receipt
    THEN it is "other"."""
    page = _page(
        "PINEWOOD ASSOCIAZIONE",
        "Rosenweg 122",
        "12713 Berlin",
        "Berlin, 06.02.2023",
        "Sanierung des Gemeindehauses",
        "Guten Tag Petra Müller,",
        "vielen Dank für Ihr Schreiben vom vergangenen Monat bezüglich der Sanierung.",
        "vielen Dank für Ihr Schreiben vom vergangenen Monat bezüglich der Sanierung.",
        "vielen Dank für Ihr Schreiben vom vergangenen Monat bezüglich der Sanierung.",
        "Mit freundlichen Grüßen",
        "Leon Müller",
    )
    assert classify_text([page]).document_type == "other", classify_text([page]).probabilities


def test_a_telecom_bill_that_names_its_usage_period_is_proof_of_address() -> None:
    """GIVEN a Dutch mobile bill that calls itself "Uw factuur" under a "Factuurdatum" and asks
    to be paid ("Gelieve te betalen vóór"), as a supplier's invoice does, but names the period
    whose use it charges ("Verbruiksperiode") beside a monthly plan and call charges
    THEN it is proof of address, not an invoice."""
    page = _page(
        "Brightline Mobiel",
        "Zoë Castillo",
        "Wilhelminastraat 64",
        "2039 RN Haarlem",
        "Factuurdatum 16/06/2025",
        "Klantnummer 985 252 503",
        "Verbruiksperiode 14/03/2025 t/m 11/06/2025",
        "Uw factuur",
        "Totaal te betalen €53,13",
        "Gelieve te betalen vóór 07/07/2025.",
        "Omschrijving Totaal",
        "Maandabonnement 29,75",
        "Gesprekskosten 14,16",
        "BTW 21% 9,22",
        "Totaal te betalen €53,13",
        "IBAN NL82 SPFV 7686 7088 29",
    )
    assert classify_text([page]).document_type == "proof_of_address", classify_text([page]).probabilities
