"""The MRZ's names cross-checked against the printed page."""

from __future__ import annotations

import pytest

from engines.layout import Line, PageText
from engines.mrz.visual_zone import (
    fields_in_visual_zone,
    name_rejoined_by_print,
    name_respaced_by_print,
    names_split_by_print,
    number_lengthened_in_print,
)


def _page(*texts: str) -> PageText:
    lines = tuple(
        Line(text=t, score=0.9, bbox=(0.1, i / 10, 0.9, i / 10 + 0.05), page=1) for i, t in enumerate(texts)
    )
    return PageText(page=1, lines=lines, source="ocr")


MRZ_LINES = ("P<UTOVAN<TAMM<<LARS<<<<<<<<<<<<<<<<<<<<<<<<", "L898902C36UTO7408122F1204159ZE184226B<<<<<10")


def test_names_printed_word_for_word_agree() -> None:
    page = _page("PASSPORT", "Surname / Nom", "VAN TAMM", "Given names", "Lars", *MRZ_LINES)
    values = {"surname": "VAN TAMM", "given_names": "LARS", "document_number": "L898902C3"}
    assert fields_in_visual_zone(values, page) == {"surname", "given_names"}


def test_a_name_seen_only_in_the_mrz_does_not_count() -> None:
    page = _page("PASSPORT", "Surname", "VAN TANNK", *MRZ_LINES)
    assert fields_in_visual_zone({"surname": "VAN TAMM", "given_names": "LARS"}, page) == set()


def test_accents_truncation_glued_words_and_spaced_numbers() -> None:
    page = _page("Nom: MÜLLER-LÜDENSCHEIDT", "Prénoms: FATIMA ANNE SOPHIE", "N° L8989 02C3", "VANTAMM")
    values = {
        "surname": "MULLER LUDENSCHEIDT",
        "given_names": "FATIMA ANNE SOPH",  # the MRZ cut the last name short
        "document_number": "L898902C3",
    }
    assert fields_in_visual_zone(values, page) == {"surname", "given_names", "document_number"}
    assert fields_in_visual_zone({"surname": "VAN TAMM"}, page) == set()  # glued but too short to trust


def test_a_different_name_disagrees() -> None:
    page = _page("Surname", "FATIMA", "Given names", "ANNE")
    assert fields_in_visual_zone({"given_names": "FATINA"}, page) == set()


def test_the_printed_document_number_settles_what_the_check_digit_cannot() -> None:
    from engines.mrz.visual_zone import document_number_from_visual_zone

    page = _page("PASSPORT", "Document No. PG3010TVW", "Surname HANSEN")
    # G and 6 weigh alike in the check digit (16 and 6): the print says which it is
    assert document_number_from_visual_zone("P63010TVW", page) == "PG3010TVW"
    assert document_number_from_visual_zone("PG3010TVW", page) is None  # already as printed
    # a printed number differing by a digit is another number, not a misread
    assert document_number_from_visual_zone("PG3010TVW", _page("PG3011TVW")) is None


def test_a_name_printed_one_letter_differently_is_told_apart_from_an_unprinted_one() -> None:
    from engines.mrz.visual_zone import names_printed_differently

    page = _page("Surname", "VAN TAMM", "Given names", "HANS PETER", *MRZ_LINES)
    values = {"surname": "VAN TAMM", "given_names": "HAZS PETER"}
    assert fields_in_visual_zone(values, page) == {"surname"}
    assert names_printed_differently(values, page) == {"given_names"}
    # not printed at all, or only short words one letter apart (chance): no disagreement
    assert (
        names_printed_differently({"surname": "OKONKWO", "given_names": "ADA"}, _page("ADE", "NAME")) == set()
    )
    # the MRZ's own line never counts as print
    assert names_printed_differently({"surname": "VAN TAMN"}, _page(*MRZ_LINES)) == set()


def test_a_name_that_lost_letters_the_print_shows_is_printed_differently() -> None:
    """GIVEN a TD3 passport's MRZ read as a TD2 zone, which lost letters of the names (BRN<<AME
    for BROWN<<KWAME), every check digit passing
    THEN both names are printed differently: the print holds each with letters more inside it or
    in front. A printed name that merely continues the MRZ's (a truncated name) is no loss."""
    from engines.mrz.visual_zone import names_printed_differently

    page = _page("Surname", "BROWN", "Given names", "KWAME", *MRZ_LINES)
    assert names_printed_differently({"surname": "BRN", "given_names": "AME"}, page) == {
        "surname",
        "given_names",
    }
    truncated = _page("Surname", "BROWN", "Given names", "KWAMENKRUMAH")
    assert names_printed_differently({"surname": "BROWN", "given_names": "KWAMENKRU"}, truncated) == set()


def test_a_print_that_backs_another_passing_reading_of_the_number_puts_it_in_doubt() -> None:
    """GIVEN an MRZ number read 0LI50EW7 (two O read as 0, at weights 7 and 3 that leave the check
    digit as it was) and the print read OLI50EW7
    WHEN the two are compared
    THEN OLI5OEW7, which the print backs at its first letter, passes the same check digit: the
    number is in doubt. A print that backs no passing reading, or repeats the MRZ, is no doubt."""
    from engines.mrz.visual_zone import number_ambiguous_in_print

    printed = _page("IDENTITY CARD", "Document OLI50EW7", "Surname JANSEN")
    assert number_ambiguous_in_print("0LI50EW7", printed)
    assert not number_ambiguous_in_print("0LI50EW7", _page("Document 0LI50EW7"))
    assert not number_ambiguous_in_print("A01275", _page("Document AO1275"))  # no O/0 to cancel it
    assert not number_ambiguous_in_print("0LI50EW7", _page("Document 0LI5XEW7"))  # no lookalike


@pytest.mark.parametrize(
    ("glued", "printed", "parted"),
    [
        # '<<' and '<' read as K: the print shows every word, so the filler is where it parts them
        (
            "SCHROEDERKKJEANKBAPTISTEKKWAMEKPIETROKK",
            ("SCHROEDER", "JEAN BAPTISTE KWAME PIETRO"),
            ("SCHROEDER", "JEAN BAPTISTE KWAME PIETRO"),
        ),
        # a surname of three words, C for filler too; the print transliterates and OCR slips a
        # letter in long words, and the MRZ's letters are kept
        (
            "BINKSATOKOKAFORCCJOERGKVIKRAMKKWAMEKKKCC",
            ("BIN SATO OKAFOR", "JOERG VIKRAM KWAMIE"),
            ("BIN SATO OKAFOR", "JOERG VIKRAM KWAME"),
        ),
        ("HAKKINENKKMIKA", ("Häkkinen", "Mika"), ("HAKKINEN", "MIKA")),  # a name's own KK stays
        ("HAKKINENKKMIKA", ("HA", "INEN", "HAKKINEN", "MIKA"), None),  # two ways to part it
        ("SCHROEDERKJEANKPIETRO", ("SCHROEDER", "JEAN PIETRO"), None),  # no pair: which is the surname?
        ("SCHROEDERKKJEANKKPIETRO", ("SCHROEDER", "JEAN PIETRO"), None),  # two pairs
        ("SCHROEDERKKJEANKPIETRO", ("SCHROEDER", "JEAN"), None),  # a word the print does not show
        ("SMITHKK", ("SMITH",), None),  # no given names to part
        # the padding read as letters, mostly K and C: padding all the same
        ("KOWALSKIKKHAMISHKXAKEKCCCKCKKEKKLKKCKAK", ("KOWALSKI", "HAMISH"), ("KOWALSKI", "HAMISH")),
        # ... but a word after the printed ones is a name the print does not show
        ("SMITHKKJOHNKKPAULKKKKKKKK", ("SMITH", "JOHN"), None),
        # two given names the print glued ("MICHAELJAMES"), a filler apart in the MRZ: parted
        # by a space, never left as "MICHAEL<JAMES"
        (
            "ALKSHARMAKMWANGIKKMICHAEL<JAMESKPIETROKK",
            ("AL SHARMA MWANGI", "MICHAELJAMES PIETRO"),
            ("AL SHARMA MWANGI", "MICHAEL JAMES PIETRO"),
        ),
        # the MRZ cut the last given name at the line's end (MAXIMILIAN printed, MAXIMILI in it)
        (
            "ADEYEMIKKHANKKMICHAELKMAXIMILI",
            ("ADEYEMI", "KHAN", "MICHAEL", "MAXIMILIAN"),
            ("ADEYEMI KHAN", "MICHAEL MAXIMILI"),
        ),
        ("SMITHKKJOHNKPAU", ("SMITH", "JOHN", "PAUL"), None),  # three letters: too short to tell
    ],
)
def test_a_names_field_read_without_its_filler_is_parted_as_the_print_parts_it(
    glued: str, printed: tuple[str, ...], parted: tuple[str, str] | None
) -> None:
    """GIVEN an MRZ names field whose fillers OCR read as K or C, and the page's printed names
    WHEN the field is parted by the print
    THEN it parts only where exactly one best reading puts printed words between fillers."""
    assert names_split_by_print(glued, _page("PASSPORT", *printed, *MRZ_LINES)) == parted


@pytest.mark.parametrize(
    ("value", "printed", "mended"),
    [
        ("AGNIESZ A", ("KOWALSKA", "AGNIESZKA"), "AGNIESZKA"),  # its K read as filler
        ("ANNA MARIA", ("ANNA MARIA",), "ANNA MARIA"),  # both words printed on their own
        ("ANNA MARIA", ("ANNAKMARIA", "ANNA"), "ANNA MARIA"),  # one word printed on its own
        ("JEAN PAUL", ("JEANPAUL",), "JEAN PAUL"),  # no letter between: OCR glued the print
    ],
)
def test_a_name_letter_read_as_filler_is_joined_back_where_the_print_shows_one_word(
    value: str, printed: tuple[str, ...], mended: str
) -> None:
    assert name_rejoined_by_print(value, _page("PASSPORT", *printed, *MRZ_LINES)) == mended


@pytest.mark.parametrize(
    ("value", "printed", "mended"),
    [
        ("LEKHAAPALAINENKPETROVA", ("LE HAAPALAINEN PETROVA",), "LE HAAPALAINEN PETROVA"),
        ("AISHA RINKCOSTA", ("AISHA", "RIN COSTA"), "AISHA RIN COSTA"),
        ("HAKKINEN", ("Häkkinen",), "HAKKINEN"),  # printed whole: a name's own K stays
        ("JOHNKPAUL", ("JOHN",), "JOHNKPAUL"),  # PAUL is not printed
    ],
)
def test_a_filler_read_as_k_between_printed_words_is_parted_back(
    value: str, printed: tuple[str, ...], mended: str
) -> None:
    assert name_respaced_by_print(value, _page("ID CARD", *printed, *MRZ_LINES)) == mended


@pytest.mark.parametrize(
    ("printed", "lengthened"),
    [
        ("TJY7N9LK", True),  # a K the MRZ read as its filler: both weigh 0 mod 10
        ("TJY7N9LA", True),
        ("TJY7N9LB", False),  # a B would fail the check digit the MRZ's reading passes
        ("TJY7N9L", False),  # the print agrees
        ("TJY7N9LKKK", False),  # longer than the number's field
    ],
)
def test_a_number_printed_longer_by_what_the_check_digit_reads_as_filler_is_in_doubt(
    printed: str, lengthened: bool
) -> None:
    """GIVEN a passport whose MRZ number reads TJY7N9L (its last K read as filler, and approved)
    THEN a print showing a character after it that weighs as the filler does puts it in doubt."""
    page = _page("PASSPORT", "Passport No.", printed, "P<UTOERIKSSON<<ANNA<<<<<<<<<<<<<<<<<<<<<<<<<<")
    assert number_lengthened_in_print("TJY7N9L", page) is lengthened
