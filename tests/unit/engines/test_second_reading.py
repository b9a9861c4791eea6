"""The second reading of names and addresses: merging two OCR readings letter for letter, and
Tesseract really reading accents PP-OCR cannot (a rendered line, the real model)."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from engines.page_text import PageFrame
from engines.second_reading import (
    CHECK_NAME,
    _merged,
    confirm_fields,
    confirm_values,
    fold,
    respell_unspellable,
)
from engines.types import FieldResult

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


@pytest.mark.parametrize(
    ("first", "second", "merged"),
    [
        ("MULLER", "Müller", "MÜLLER"),
        ("HELENE MICHEL", "E: Hélène Michel", "HÉLÈNE MICHEL"),  # a label's tail before it
        ("VOLKSBANK DUSSELDORFEG", "Volksbank Düsseldorf eG", "VOLKSBANK DÜSSELDORF EG"),  # lost space
        ("MRJAMES PATEL", "Mr James Patel", "MR JAMES PATEL"),
        ("WEISSMULLER", "Weißmüller", "WEISSMÜLLER"),  # ß is SS in upper case
        ("CAFETERIA MUNOZ", "| CAFETERÍA MUÑOZ", "CAFETERÍA MUÑOZ"),
        ("16-5900 W RIVER ST", "16-5900 W RIVER ST", "16-5900 W RIVER ST"),
        ("MISTRAL NET", "MistralNet", "MISTRALNET"),  # the gap before a camel-case capital
        ("MISTRAL NET", "Mistral Net", "MISTRAL NET"),
        # an ordinal indicator PP-OCR, which has none, read as a degree sign
        ("RONDA DE LA PAZ 155 6° B", "Ronda de la Paz 155 6º B", "RONDA DE LA PAZ 155 6º B"),
        ("JAMES PATEL", "MrJames Patel", "JAMES PATEL"),  # a courtesy title glued to the name
        # the restorer's space after a monospaced capital, where Tesseract reads one word
        ("F RISCHKAUF WEBER", "frischkauf Weber", "FRISCHKAUF WEBER"),
        ("A SMITH", "ASmith", "A SMITH"),  # an initial: a capital follows it
        # ... and the restorer's space before a word's last letter (approved so on seed 89)
        ("89 MIL L CLOSE", "89 Mill Close", "89 MILL CLOSE"),
        ("PEREZ Y TORRES", "Pérez y Torres", "PÉREZ Y TORRES"),  # a word of one letter
    ],
)
def test_agreeing_readings_merge_with_accents_and_both_readers_spaces(first, second, merged):
    assert (result := _merged(first, second)) is not None and result.value == merged


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("TUNDE WEISSMILLER", "Tunde Weissmüller"),  # a different letter: no exact merge
        ("ANOUKVOS", ""),
        ("CAFE", "CAFÉ CAFE"),  # twice in the second reading: ambiguous
        ("CERIE MOREAU", "icerie Moreau"),  # PP-OCR's box cut "Épicerie": the value begins inside a word
        ("CAFE ROM", "Cafe Roma"),  # ... or ends inside one
        ("SMITH", "SMIT"),
    ],
)
def test_disagreeing_or_ambiguous_readings_do_not_merge(first, second):
    assert _merged(first, second) is None


@pytest.mark.parametrize(
    ("first", "second", "respelled"),
    [
        ("TUNDE WEISSMILLER", "Tunde Weissmüller", "TUNDE WEISSMÜLLER"),  # Ü printed as I
        ("STADTWERKE MIINSTER", "| Stadtwerke Münster", "STADTWERKE MÜNSTER"),  # Ü printed as II
        ("MINCHEN", "München", "MÜNCHEN"),
        ("DONIA LUCIA", "Doña Lucía", "DOÑA LUCÍA"),  # Ñ printed as NI
        ("MILLER", "Miller", None),  # no accented letter explains a difference: nothing to respell
        ("MILLER", "Mallor", None),  # a difference away from the accented letters
        ("SMITH", "Smyth", None),
        ("EGIE DES EAUX", "RÉGIE DES EAUX", None),  # a box that cut a word's first letters off
        ("MUNCHE", "München", None),  # or its last
    ],
)
def test_letters_pp_ocr_cannot_spell_take_the_second_readers_spelling(first, second, respelled):
    assert respell_unspellable(first, second) == respelled


def test_fold_spells_as_an_alphabet_without_accents():
    assert fold("Çelik Øster Łódź ß") == "CELIK OSTER LODZ SS"


def _line_page(text: str) -> tuple[np.ndarray, tuple[float, float, float, float]]:
    """A white page with one line of dark text, and the line's box as page fractions."""
    image = Image.new("RGB", (900, 300), "white")
    draw = ImageDraw.Draw(image)
    font = ImageFont.truetype(FONT, 34)
    draw.text((80, 120), text, fill=(20, 20, 30), font=font)
    x0, y0, x1, y1 = draw.textbbox((80, 120), text, font=font)
    bgr = np.asarray(image)[:, :, ::-1].copy()
    return bgr, (x0 / 900, (y0 - 4) / 300, x1 / 900, (y1 + 4) / 300)


def test_a_name_read_without_accents_gets_them_back_and_is_marked_cross_checked():
    page, box = _line_page("Hélène Müller")
    fields = {
        "full_name": FieldResult("HELENE MULLER", 0.9, 1, box, "ocr"),
        "address_city": FieldResult("NOWHERE", 0.9, 1, box, "ocr"),  # the crop says otherwise
        "document_date": FieldResult("2024-01-31", 0.9, 1, box, "ocr", valid=True),  # not a name field
    }
    frame = PageFrame(turn=0, skew=0.0, width=900, height=300)
    confirmed, checks = confirm_fields(fields, [page], {1: frame})
    assert confirmed["full_name"].value == "HÉLÈNE MÜLLER" and confirmed["full_name"].valid is True
    assert confirmed["address_city"].value == "NOWHERE" and confirmed["address_city"].valid is None
    assert confirmed["address_city"].confidence == pytest.approx(0.45)  # halved: the readers disagree
    assert confirmed["document_date"] == fields["document_date"]
    assert [(c.name, c.passed) for c in checks] == [(CHECK_NAME, False)]
    assert "address_city" in checks[0].detail and "full_name" not in checks[0].detail


def test_the_crop_follows_the_reading_frame_of_a_turned_page():
    page, box = _line_page("Café Zoë")
    turned_back = np.ascontiguousarray(np.rot90(page, k=1))  # stored turned 90 degrees anticlockwise
    frame = PageFrame(turn=90, skew=0.0, width=900, height=300)
    fields = {"merchant_name": FieldResult("CAFE ZOE", 0.9, 1, box, "ocr")}
    confirmed, checks = confirm_fields(fields, [turned_back], {1: frame})
    assert confirmed["merchant_name"].value == "CAFÉ ZOË" and checks[0].passed


@pytest.mark.parametrize(
    ("first", "second", "merged"),
    [
        ("RESTAURANT PINEWOOD", "RES TAURAN T PINEWOOD", "RESTAURANT PINEWOOD"),
        ("CAFE ROMA", "C A F E ROMA", "CAFE ROMA"),
        ("DUSSELDORFEG", "DÜSSELDORF EG", "DÜSSELDORF EG"),
        ("ASMITH", "A SMITH", "A SMITH"),
        ("5714S RIVER ROAD", "5714 S RIVER ROAD", "5714 S RIVER ROAD"),
        ("147 TERCHEMINDU CHATEAU", "147 TER CHEMIN DU CHÂTEAU", "147 TER CHEMIN DU CHÂTEAU"),
        ("CAFE ROMA", "C a f e Roma", "CAFE ROMA"),
        # a conjunction of one letter, read in lower case, is a word ("Pérez y Torres")
        ("PEREZY TORRES SL", "Pérez y Torres SL", "PÉREZ Y TORRES SL"),
        ("BLUEWAVELUZY GAS S.A.", "BlueWave Luz y Gas S.A.", "BLUEWAVE LUZ Y GAS S.A."),
        ("ROSSIE FIGLI", "Rossi e Figli", "ROSSI E FIGLI"),
    ],
)
def test_tesseracts_gaps_in_a_tracked_out_heading_are_not_word_spaces(
    first: str, second: str, merged: str
) -> None:
    """A heading printed with wide letter spacing reads as letter groups in Tesseract; PP-OCR's
    whole word stands, while a single missing word space is still restored."""
    assert (result := _merged(first, second)) is not None and result.value == merged


@pytest.mark.parametrize(
    ("first", "second", "overruled"),
    [
        ("BLUEWAVELUZY GAS S.A.", "BLUEWAVE LUZ Y GAS S.A.", True),  # PP-OCR's word kept against Tesseract's
        ("RESTAURANT PINEWOOD", "RES TAURAN T PINEWOOD", True),
        ("DUSSELDORFEG", "DÜSSELDORF EG", False),  # a lost space restored: the readers agree
        ("MULLER", "Müller", False),
    ],
)
def test_a_merge_that_overrules_tesseracts_word_spaces_says_so(
    first: str, second: str, overruled: bool
) -> None:
    """Where the letter-spacing rule keeps PP-OCR's word against Tesseract's spaces, the readers
    agreed on the letters but not on the words: such a value gets no cross-check (confirm_fields)."""
    merged = _merged(first, second)
    assert merged is not None and merged.spaces_overruled is overruled


@pytest.mark.parametrize(
    ("first", "second", "merged", "overruled"),
    [
        ("MRJOSEPH THOMPSON", "Mr Joseph Thom pson", "MR JOSEPH THOMPSON", True),  # a gap inside a word
        ("MARIADE SOUZA", "Maria de Souza", "MARIA DE SOUZA", False),  # a particle is a word
        ("LUDWIG VANBEETHOVEN", "Ludwig van Beethoven", "LUDWIG VAN BEETHOVEN", False),
    ],
)
def test_a_persons_name_splits_only_before_a_capital_or_a_particle(
    first: str, second: str, merged: str, overruled: bool
) -> None:
    """A person's name has capitalised words and a few lower-case particles: Tesseract's gap
    between two lower-case letters of one word is letter spacing, and costs the cross-check."""
    result = _merged(first, second, person=True)
    assert result is not None and (result.value, result.spaces_overruled) == (merged, overruled)


@pytest.mark.parametrize(
    ("first", "second", "merged", "overruled"),
    [
        ("SILVERLINE SUPERMARKT", "Silverline Supe rmarkt", "SILVERLINE SUPERMARKT", True),
        ("FRANKFURTAM MAIN", "Frankfurt am Main", "FRANKFURT AM MAIN", False),  # a function word
        ("RUEDEL'EGLISE 4", "Rue de l'Église 4", "RUE DE L'ÉGLISE 4", False),  # an elided article
        ("THECOFFEE HOUSE", "the coffee house", "THE COFFEE HOUSE", False),  # printed in lower case
    ],
)
def test_a_firms_word_splits_only_before_a_capital_or_a_lower_case_word(
    first: str, second: str, merged: str, overruled: bool
) -> None:
    """GIVEN a firm's name or an address that Tesseract split between two lower-case letters
    THEN the split stands only where the piece after is a word written in lower case (a particle,
    a function word, an elided article) or the whole word is printed in lower case: "Supe rmarkt"
    is wide letter spacing, and the value gets no cross-check."""
    result = _merged(first, second)
    assert result is not None and (result.value, result.spaces_overruled) == (merged, overruled)


def test_an_accent_our_languages_hardly_write_gets_no_cross_check():
    """GIVEN a city PP-OCR read DUSSELDORF and Tesseract Dûsseldorf (as it takes a soft Ü)
    WHEN the readings are merged
    THEN the value carries the accent read, but not the cross-check: one reader alone saw it,
    and a circumflex on a U is no German, Spanish, Italian or Dutch letter and hardly a French
    name's."""
    page, box = _line_page("40597 Dûsseldorf")
    fields = {"address_city": FieldResult("DUSSELDORF", 0.9, 1, box, "ocr")}
    frame = PageFrame(turn=0, skew=0.0, width=900, height=300)
    confirmed, _ = confirm_fields(fields, [page], {1: frame})
    assert confirmed["address_city"].value == "DÛSSELDORF" and confirmed["address_city"].valid is None


@pytest.mark.parametrize(
    ("first", "second", "merged"),
    [
        ("31 CHAPEL STREET", "3 1 Chapel Street", "31 CHAPEL STREET"),
        ("12546 LINCOLN RD", "1254 6 Lincoln Rd", "12546 LINCOLN RD"),
        ("FLAT 5 167 BEECH ROAD", "Flat 5 167 Beech Road", "FLAT 5 167 BEECH ROAD"),  # PP-OCR's space
    ],
)
def test_a_space_only_tesseract_reads_inside_a_number_is_no_word_space(
    first: str, second: str, merged: str
) -> None:
    """GIVEN a house number PP-OCR read whole that Tesseract split at a "1"'s wide side bearing
    THEN the number stays whole, and since the readers disagreed on it, the merge claims no
    agreement (the value earns no cross-check); a space PP-OCR read itself stands."""
    result = _merged(first, second)
    assert result is not None and result.value == merged
    assert result.spaces_overruled is (first != second.upper())


@pytest.mark.parametrize(
    ("first", "second", "merged", "overruled"),
    [
        ("RIVERSIDENET", "RiversideN et", "RIVERSIDENET", True),
        ("MCDONALD", "McD onald", "MCDONALD", True),
        ("DUPONT ET FILS", "DUPONT et FILS", "DUPONT ET FILS", False),  # a capital word, then "et"
    ],
)
def test_a_space_after_a_camel_case_capital_is_no_word_space(
    first: str, second: str, merged: str, overruled: bool
) -> None:
    """GIVEN a camel-case name PP-OCR read whole ("RiversideNet") that Tesseract parted after its
    capital N ("RiversideN et": "et" is a French word, so the space once stood, and was approved)
    THEN the name stays whole, unconfirmed; a lower-case word after a word in capitals stays apart."""
    result = _merged(first, second)
    assert result is not None and (result.value, result.spaces_overruled) == (merged, overruled)


def test_an_accent_over_a_capital_above_a_box_tight_on_the_line_is_read():
    """GIVEN a street printed in capitals whose box PP-OCR drew tight on the capitals, the acute
    over "ALLÉE"'s É above it (both readers once agreed on ALLEE there, and it was approved)
    THEN the second reader's crop reaches above the box, reads the accent, and the street gets it."""
    image = Image.new("RGB", (900, 300), "white")
    draw = ImageDraw.Draw(image)
    font = ImageFont.truetype(FONT, 34)
    text = "25 ALLÉE VICTOR HUGO"
    draw.text((80, 120), text, fill=(20, 20, 30), font=font)
    x0, _, x1, y1 = draw.textbbox((80, 120), "25 ALLEE VICTOR HUGO", font=font)
    cap_top = draw.textbbox((80, 120), "A", font=font)[1]
    page = np.asarray(image)[:, :, ::-1].copy()
    box = (x0 / 900, cap_top / 300, x1 / 900, (y1 + 1) / 300)
    fields = {"address_street": FieldResult("25 ALLEE VICTOR HUGO", 0.9, 1, box, "ocr")}
    confirmed, _ = confirm_fields(fields, [page], {1: PageFrame(turn=0, skew=0.0, width=900, height=300)})
    assert confirmed["address_street"].value == "25 ALLÉE VICTOR HUGO"


def test_letters_a_box_cut_off_the_start_of_a_name_are_seen_by_the_second_reader():
    """GIVEN an issuer "RÉGIE DES EAUX" on a wide page whose box PP-OCR started after the R (both
    readers once read EGIE DES EAUX there, and it was approved)
    THEN the second reader's crop reaches a letter's width past the box, sees the word was cut,
    and the value loses the cross-check and half its confidence."""
    image = Image.new("RGB", (2400, 300), "white")
    draw = ImageDraw.Draw(image)
    font = ImageFont.truetype(FONT, 34)
    draw.text((300, 120), "RÉGIE DES EAUX", fill=(20, 20, 30), font=font)
    cut_at = draw.textbbox((300, 120), "R", font=font)[2] + 2
    _, top, x1, y1 = draw.textbbox((300, 120), "RÉGIE DES EAUX", font=font)
    page = np.asarray(image)[:, :, ::-1].copy()
    box = (cut_at / 2400, top / 300, x1 / 2400, (y1 + 1) / 300)
    fields = {"issuer_name": FieldResult("EGIE DES EAUX", 0.9, 1, box, "ocr")}
    confirmed, checks = confirm_fields(
        fields, [page], {1: PageFrame(turn=0, skew=0.0, width=2400, height=300)}
    )
    assert confirmed["issuer_name"].confidence == pytest.approx(0.45)
    assert confirmed["issuer_name"].valid is not True
    assert checks[0].passed is False


@pytest.mark.parametrize(
    ("printed", "field", "value", "agrees"),
    [
        ("27/03/2018", "date", "2018-03-27", True),
        ("03/27/2018", "date", "2018-03-27", True),  # the order is the first reader's call
        ("27/03/2018", "date", "2018-03-21", False),  # a digit the first reader misread
        ("RM 1,234.50", "total_amount", "1234.50", True),
        ("RM 1,234.50", "total_amount", "234.50", False),  # a lost digit is not confirmed
    ],
)
def test_a_date_or_amount_the_second_reader_reads_alike_gains_two_readings(
    printed: str, field: str, value: str, agrees: bool
) -> None:
    page, box = _line_page(printed)
    fields = {field: FieldResult(value, 0.9, 1, box, "ocr", valid=True)}
    confirmed = confirm_values(fields, [page], {1: PageFrame(turn=0, skew=0.0, width=900, height=300)})
    assert ("two_readings" in confirmed[field].evidence) is agrees
    assert confirmed[field].value == value and confirmed[field].confidence == 0.9  # evidence, never a mend
