"""The bank statement reader (engines/business/statement.py): the account holder, the IBAN or
account number, the statement's period and date, and its issuer.
"""

from __future__ import annotations

import pytest

from engines.business import read_bank_statement
from engines.layout import Line, PageText, sort_reading_order
from tests.support.business_pages import Row, page, values


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


# --------------------------------------------------------------------------------------------
# What OCR does to text
# --------------------------------------------------------------------------------------------


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
