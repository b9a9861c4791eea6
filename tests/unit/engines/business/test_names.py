"""Names on business documents (engines/business/names.py): people without their courtesy titles,
names in canonical form, and the lines (courtesy sentences, captions) that are never a name.
"""

from __future__ import annotations

import pytest

from engines.business.names import canonical_name, clean_person


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


@pytest.mark.parametrize("name", ["Rizzo & Russo S.N.C.", "Lumen Acqua S.P.A."])
def test_a_dotted_legal_form_keeps_its_full_stops_unspaced(name: str) -> None:
    """An initial's dropped space is restored ("K.JOHNSON"), but "S.N.C." is one abbreviation."""
    assert clean_person(name) == name.upper()


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
    ("read", "name"),
    [
        ("Joseph Kowalski -Wright", "JOSEPH KOWALSKI-WRIGHT"),  # a reader's space beside a hyphen
        ("Joseph Kowalski- Wright", "JOSEPH KOWALSKI-WRIGHT"),
        ("Stratford - upon", "STRATFORD - UPON"),  # spaced on both sides: a dash, kept
    ],
)
def test_a_space_on_one_side_of_a_hyphen_is_dropped(read: str, name: str) -> None:
    assert canonical_name(read) == name


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
