"""The proof-of-address reader (engines/business/address.py): the addressee's name and postal
address, the bill's date and its issuer, in each country's address format and through OCR's
mistakes.
"""

from __future__ import annotations

import pytest

from engines.business import read_proof_of_address
from engines.business.labels import is_title
from engines.layout import Line, PageText, sort_reading_order
from tests.support.business_pages import Row, page, values

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
