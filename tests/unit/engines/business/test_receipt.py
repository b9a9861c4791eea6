"""The receipt reader (engines/business/receipt.py): merchant, date, currency, total and tax.

Each test builds the page text by hand (what OCR or a PDF text layer would give) and pins one
layout rule; one renders a receipt and reads it through the real OCR, and one reads real scanned
receipts (SROIE) from the shared real-data folder.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import pytest

from engines.business import read_receipt
from engines.business.fields import ABSENT_LABEL_CONFIDENCE
from engines.layout import Line, PageText, page_from_ocr, sort_reading_order
from engines.types import Extracted
from tests.conftest import REALDATA
from tests.support.business_pages import Row, needs_font, page, render, values


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
# End to end: a rendered page through the real OCR
# --------------------------------------------------------------------------------------------


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
    got = values(read_receipt([render(rows, width=700, height=1000)]))
    assert got == {
        "merchant_name": "CORNER MARKET",
        "date": "2026-07-15",
        "currency": "USD",
        "total_amount": "10.40",
        "tax_amount": "0.68",
    }


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


PINE_BOULEVARD_BODY = [
    (0.10, [(0.30, "12 Pine Boulevard")]),
    (0.14, [(0.30, "TAX INVOICE")]),
    (0.18, [(0.10, "10/21/24 8:12 PM")]),
    (0.22, [(0.10, "Club Sandwich"), (0.70, "27.98")]),
    (0.30, [(0.10, "Total"), (0.70, "27.98")]),
]


def test_a_merchant_name_ocr_broke_in_pieces_is_joined_and_trusted_less() -> None:
    whole = read_receipt([page([(0.05, [(0.30, "The Sonnental Arms")]), *PINE_BOULEVARD_BODY], source="ocr")])
    pieces = read_receipt(
        [page([(0.05, [(0.25, "THE"), (0.30, "SONNENTAL ARMS")]), *PINE_BOULEVARD_BODY], source="ocr")]
    )
    assert whole.fields["merchant_name"].value == pieces.fields["merchant_name"].value == "THE SONNENTAL ARMS"
    assert pieces.fields["merchant_name"].confidence == pytest.approx(
        whole.fields["merchant_name"].confidence / 2, abs=0.01
    )


def test_a_title_ocr_read_into_the_merchants_line_is_cut_off() -> None:
    rows = [(0.05, [(0.30, "Supermercado Nordlicht FACTURA SIMPLIFICADA")]), *PINE_BOULEVARD_BODY[1:]]
    assert read_receipt([page(rows, source="ocr")]).fields["merchant_name"].value == "SUPERMERCADO NORDLICHT"


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


def test_a_brand_line_over_the_name_it_repeats_is_not_joined_to_it() -> None:
    """GIVEN a brand ("AEON") set large over the store's name, which repeats it
    THEN the merchant is not the two run together ("AEON AEON TEBRAU CITY")."""
    heading = [(0.10, 0.30, "AEON"), (0.14, 0.20, "AEON TEBRAU CITY")]
    got = values(read_receipt([_with_heading(heading, RECEIPT_BODY)]))["merchant_name"]
    assert got in ("AEON", "AEON TEBRAU CITY")
