"""Repairing OCR misreadings of an MRZ (engines/mrz/repair.py).

Each test takes an ICAO 9303 specimen, damages it the way OCR does, and expects the specimen
back, with the repaired characters flagged: repaired as the reader repairs its decoded lines, from
the recogniser's per-position alternatives.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from engines.mrz.checkdigit import check_digit
from engines.mrz.formats import TD3 as TD3_FORMAT
from engines.mrz.formats import format_for_shape
from engines.mrz.parse import parse_mrz
from engines.mrz.reader import Looks, closer_look, looks_like_mrz_line, shows_filler
from engines.mrz.repair import MrzRepair, normalize_line, options_from_alternatives, repair_decoded

Alternatives = tuple[tuple[str, float], ...]

TD1 = ("I<UTOD231458907<<<<<<<<<<<<<<<", "7408122F1204159UTO<<<<<<<<<<<6", "ERIKSSON<<ANNA<MARIA<<<<<<<<<<")
TD2 = ("I<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<", "D231458907UTO7408122F1204159<<<<<<<6")
TD3 = ("P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO7408122F1204159ZE184226B<<<<<10")


def damage(lines: tuple[str, ...], line: int, pos: int, text: str) -> list[str]:
    out = list(lines)
    out[line] = out[line][:pos] + text + out[line][pos + 1 :]
    return out


def repair_read(
    read: Sequence[str], evidence: dict[tuple[int, int], Alternatives] | None = None
) -> MrzRepair:
    """Repair as the reader does, for a recogniser sure of every character it read except where
    ``evidence`` gives its probabilities at (line, position)."""
    fmt = format_for_shape(len(read), len(read[0]))
    assert fmt is not None
    alternatives = [
        [(evidence or {}).get((li, pos), ((char, 1.0),)) for pos, char in enumerate(line)]
        for li, line in enumerate(read)
    ]
    return repair_decoded(fmt, read, options_from_alternatives(fmt, read, alternatives))


@pytest.mark.parametrize(
    ("truth", "line", "pos", "misread"),
    [
        (TD3, 1, 15, "O"),  # O for 0 in a birth date
        (TD3, 1, 21, "I"),  # I for 1 in an expiry date
        (TD3, 1, 26, "S"),  # S for 5
        (TD3, 1, 19, "Z"),  # Z for 2 in a check digit
        (TD1, 1, 29, "G"),  # G for 6 in the composite check digit
        (TD3, 1, 23, "D"),  # D for 0
        (TD1, 1, 10, "Q"),  # Q for 0
        (TD3, 1, 12, "0"),  # 0 for O in a nationality
        (TD1, 0, 4, "0"),  # 0 for O in an issuing state
    ],
    ids=["O-0", "I-1", "S-5", "Z-2", "G-6", "D-0", "Q-0", "0-O nationality", "0-O state"],
)
def test_lookalike_the_recogniser_was_sure_of_is_repaired(
    truth: tuple[str, ...], line: int, pos: int, misread: str
) -> None:
    repair = repair_read(damage(truth, line, pos, misread))
    assert repair.lines == truth
    assert repair.repaired[line][pos]
    assert repair.repair_count == 1
    assert not repair.ambiguous


@pytest.mark.parametrize(("pos", "misread", "truth"), [(3, "B", "8"), (5, "O", "0")], ids=["B-8", "O-0"])
def test_document_number_lookalike_is_chosen_by_its_check_digit(pos: int, misread: str, truth: str) -> None:
    # a letter in an alphanumeric field: only the check digit says it is wrong, and the
    # recogniser's runner-up says which character to change
    repair = repair_read(damage(TD3, 1, pos, misread), {(1, pos): ((misread, 0.7), (truth, 0.3))})
    assert repair.lines == TD3
    assert repair.repaired[1][pos]
    assert repair.repair_count == 1
    assert parse_mrz(repair.lines).checks_passed
    assert not repair.ambiguous


def test_equally_cheap_repairs_without_evidence_are_flagged_ambiguous() -> None:
    # B for 8 at weight 7, and the L at weight 7 a lookalike I: from the twins alone, the check
    # digit cannot tell which character was misread
    repair = repair_read(damage(TD3, 1, 3, "B"))
    assert repair.repair_count == 1
    assert "document_number" in repair.ambiguous


@pytest.mark.parametrize("stray", ["K", "X", "C"])
def test_letter_inside_the_trailing_filler_of_the_names_is_filler(stray: str) -> None:
    repair = repair_read(damage(TD3, 0, 33, stray))
    assert repair.lines == TD3
    assert repair.repaired[0][33]


def test_single_letter_given_name_after_the_separator_is_kept() -> None:
    lines = ("P<UTOERIKSSON<<K" + "<" * 28, TD3[1])
    assert repair_read(lines).lines[0] == lines[0]


@pytest.mark.parametrize("truth", [TD1, TD2, TD3], ids=["TD1", "TD2", "TD3"])
def test_a_sound_reading_is_left_alone(truth: tuple[str, ...]) -> None:
    repair = repair_read(truth)
    assert repair.lines == truth
    assert repair.repair_count == 0 and repair.cost == 0.0


def test_a_repair_the_recogniser_finds_too_unlikely_is_not_made() -> None:
    read = list(damage(TD3, 1, 15, "5"))  # a birth date digit misread, no lookalike
    options = [[[(char, 0.0)] for char in line] for line in read]
    options[1][15] = [("5", 0.0), ("0", 9.0)]  # the truth was thousands of times less likely
    repair = repair_decoded(TD3_FORMAT, read, options)
    assert repair.lines[1][13:19] == "745812"
    assert "date_of_birth" in parse_mrz(repair.lines).failed_checks


def test_recogniser_evidence_picks_the_runner_up_that_fixes_the_check() -> None:
    read = list(damage(TD3, 1, 7, "G"))
    options = [[[(char, 0.0)] for char in line] for line in read]
    # the recogniser hesitated between G and C at that position, and was sure everywhere else
    options[1][7] = [("G", 0.0), ("C", 0.4), ("O", 2.0)]
    repair = repair_decoded(TD3_FORMAT, read, options)
    assert repair.lines == TD3
    assert repair.repaired[1][7]
    assert repair.cost == pytest.approx(0.4)


def test_unknown_country_code_becomes_the_known_one_a_lookalike_away() -> None:
    read = [TD3[0][:2] + "OAT" + TD3[0][5:], TD3[1][:10] + "QAT" + TD3[1][13:]]
    options = [[[(char, 0.0)] for char in line] for line in read]
    options[0][2] = [("O", 0.0), ("Q", 2.0)]
    repair = repair_decoded(TD3_FORMAT, read, options)
    assert repair.lines[0][2:5] == "QAT"


def test_normalize_line_folds_full_width_and_filler_glyphs() -> None:
    # full-width P, full-width <, lower case, full-width A, guillemet, space, multiplication sign
    assert normalize_line("\uff30\uff1cuto\uff21\u00abB \u00d7") == "P<UTOA<<B<"


@pytest.mark.parametrize("glyph", ["\u00ab", "\u300a"], ids=["guillemet", "double angle bracket"])
def test_double_angle_glyph_reads_as_two_fillers(glyph: str) -> None:
    assert normalize_line(TD3[0].replace("ERIKSSON<<ANNA", "ERIKSSON" + glyph + "ANNA")) == TD3[0]


def test_multiplication_sign_reads_as_filler() -> None:
    assert normalize_line(TD3[0].replace("ANNA<MARIA", "ANNA\u00d7MARIA")) == TD3[0]


def test_spaces_and_lower_case_inside_lines_are_ignored() -> None:
    assert normalize_line("p<uto ERIKSSON << ANNA < MARIA" + "<" * 19) == TD3[0]
    assert normalize_line("L898902C36 UTO 7408122 F 1204159 ZE184226B<<<<<10") == TD3[1]


def test_a_repair_with_an_equally_cheap_twin_is_flagged_ambiguous() -> None:
    """Document number O58433O... read 0584330: an O at either position of weight 7 satisfies the
    check digit, so the check cannot say which 0 was an O; the repair must say it guessed."""
    number = "O584330<<"
    line = TD3[1][:0] + number + check_digit(number) + TD3[1][10:]
    composite = line[0:10] + line[13:20] + line[21:43]
    truth = (TD3[0], line[:43] + check_digit(composite))
    read = damage(truth, 1, 0, "0")
    options = [[[(char, 0.0)] for char in row] for row in read]
    options[1][0] = [("0", 0.0), ("O", 1.0)]
    options[1][6] = [("0", 0.0), ("O", 1.2)]  # the recogniser barely preferred the other twin
    repair = repair_decoded(TD3_FORMAT, read, options)
    assert repair.lines[1][:9] == number  # the cheaper guess, right this time
    assert "document_number" in repair.ambiguous


@pytest.mark.parametrize(
    ("text", "mrz_like"),
    [
        ("LOPeZ<TAMM<<GuadALuPe<GuadALuP", True),  # a widely spaced MRZ read in mixed case
        (" ACr0uw12904A5<17p6CuwZeIGr<<<< ", True),
        # the same in full-width forms, as the recogniser reads some letter-spaced MRZ fonts
        (
            " BHYM\uff10BHY\uff12\uff12C\uff21N\uff12\u04170\uff12\uff12\uff2c\uff17F6\uff10\uff10"
            "\uff14\uff11\uff2c\uff17\uff11\uff14WE\uff30SFEI\uff18\uff3a<<6\uff10 ",
            True,
        ),
        ("LOPEZ<TAMM<<GUADALUPE<GUADALUP", True),
        ("Date of issue 2026-06-13", False),
        ("Please pay within 30 days of the invoice date", False),
    ],
)
def test_an_mrz_line_is_told_by_its_characters_whatever_their_case_or_width(
    text: str, mrz_like: bool
) -> None:
    assert looks_like_mrz_line(text) is mrz_like


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        ("PDPERDOS<HAAPALAINEI", True),  # a TD3 first line the detector cut short: one '<'
        ("P<KORBANDA<<HANA<<<<", True),
        ("K\u00abHANA", True),  # a guillemet printed for '<<'
        ("Fecha de caducidad/Date of expiry", False),
        ("Ref <A-12> 2024", False),  # a '<' in prose is no filler
    ],
)
def test_filler_or_a_cut_short_mrz_line_hints_at_an_mrz(text: str, hint: bool) -> None:
    assert shows_filler(text, mrz_like=looks_like_mrz_line(text)) is hint


def test_a_turn_that_shows_filler_earns_a_closer_look_where_the_page_has_the_pixels() -> None:
    """GIVEN a passport photographed upside down, whose turned page showed '<' runs but gave no
    clear reading
    THEN the same turn is searched again at the higher detection resolution, on a photo with
    more pixels than the first look used, and not on a small scan or a turn without filler."""
    showed = Looks(vertical=False, upside_down=False, text_lines=31, long_lines=5, filler_seen=True)
    plain = Looks(vertical=False, upside_down=False, text_lines=31, long_lines=5, filler_seen=False)
    closer = closer_look(showed, 180, 1306 * 1616)
    assert closer is not None and closer[0] == 180 and closer[1] > 1306 * 1616 / 2
    assert closer_look(showed, 180, 800 * 1000) is None
    assert closer_look(plain, 180, 1306 * 1616) is None
