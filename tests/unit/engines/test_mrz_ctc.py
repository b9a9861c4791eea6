"""Format-constrained CTC decoding (engines/mrz/ctc.py) on hand-made probability matrices.

The vocabulary is small and invented, like the recogniser's would be if it only knew these
characters; column 0 is the CTC blank as in PP-OCR models.
"""

from __future__ import annotations

import numpy as np

from engines.mrz.ctc import DecodedLine, decode_line
from engines.mrz.reader import with_filler_others_read

VOCABULARY = ["blank", *"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ", "<", "\u300a", "o"]


def frames(*steps: str | dict[str, float]) -> np.ndarray:
    """One row per step: a token name (probability 0.9) or a {token: probability} dict."""
    rows = []
    for step in steps:
        wanted = {step: 0.9} if isinstance(step, str) else step
        row = np.full(len(VOCABULARY), (1.0 - sum(wanted.values())) / (len(VOCABULARY) - len(wanted)))
        for token, p in wanted.items():
            row[VOCABULARY.index(token)] = p
        rows.append(row)
    return np.array(rows, dtype=np.float32)


def spell(text: str) -> list[str]:
    """Two frames per character with a blank between characters."""
    steps: list[str] = []
    for char in text:
        steps += [char, char, "blank"]
    return steps


def test_digit_position_reads_a_letter_lookalike_as_its_digit() -> None:
    decoded = decode_line(frames(*spell("74O812")), VOCABULARY, "nnnnnn")
    assert decoded is not None and decoded.text == "740812"


def test_letter_position_reads_a_digit_lookalike_as_its_letter() -> None:
    decoded = decode_line(frames(*spell("UT0")), VOCABULARY, "aaa")
    assert decoded is not None and decoded.text == "UTO"


def test_a_document_codes_first_letter_is_one_a_document_can_open_with() -> None:
    """GIVEN a card's first line whose opening I the recogniser read as H (0.6 against 0.3), as a
    crop tight on the left edge of a clean card of seed 74 did
    THEN the document code's first position reads I: only A, C, I, P and V open a code."""
    steps = [{"H": 0.6, "I": 0.3}, {"H": 0.6, "I": 0.3}, "blank", *spell("DIND")]
    decoded = decode_line(frames(*steps), VOCABULARY, "Laaaa")
    assert decoded is not None and decoded.text == "IDIND"


def test_alphanumeric_position_keeps_what_was_read() -> None:
    decoded = decode_line(frames(*spell("L8O")), VOCABULARY, "xxx")
    assert decoded is not None and decoded.text == "L8O"


def test_double_angle_glyph_lends_its_probability_to_the_filler() -> None:
    decoded = decode_line(frames(*spell("A\u300a")), VOCABULARY, "aa")
    assert decoded is not None and decoded.text == "A<"


def test_output_has_exactly_the_template_length_even_when_a_filler_was_merged() -> None:
    # the recogniser saw one long '<' where the line has three: its best guess never is a blank
    steps: list[str | dict[str, float]] = [*spell("AB"), *[{"<": 0.6, "blank": 0.35}] * 9]
    greedy_length = 3
    decoded = decode_line(frames(*steps), VOCABULARY, "aaaaa")
    assert decoded is not None
    assert len(decoded.text) == 5 > greedy_length
    assert decoded.text == "AB<<<"


def test_the_right_length_is_likelier_than_a_wrong_one() -> None:
    probs = frames(*spell("740812"))
    right = decode_line(probs, VOCABULARY, "nnnnnn")
    longer = decode_line(probs, VOCABULARY, "nnnnnnn")
    shorter = decode_line(probs, VOCABULARY, "nnnnn")
    assert right is not None and longer is not None and shorter is not None
    assert right.log_score > longer.log_score
    assert right.log_score > shorter.log_score


def test_runner_up_characters_are_reported_with_their_probabilities() -> None:
    hesitant = {"8": 0.6, "B": 0.35}
    decoded = decode_line(frames("L", "blank", hesitant, hesitant, "blank", "0"), VOCABULARY, "xxx")
    assert decoded is not None
    assert decoded.text == "L80"
    alternatives = dict(decoded.alternatives[1])
    assert alternatives["B"] > 0.3
    assert decoded.char_probs[1] < 0.7


def test_frame_spans_locate_each_character() -> None:
    decoded = decode_line(frames(*spell("123")), VOCABULARY, "nnn")
    assert decoded is not None
    assert decoded.frame_spans == ((0, 2), (3, 5), (6, 8))


def test_too_few_frames_for_the_line_gives_no_reading() -> None:
    assert decode_line(frames("1", "2"), VOCABULARY, "nnn") is None


def _names_line(text: str) -> DecodedLine:
    decoded = decode_line(frames(*spell(text)), VOCABULARY, "a" * len(text))
    assert decoded is not None
    return decoded


def test_a_filler_another_crop_read_replaces_the_k_a_stretched_crop_read() -> None:
    """GIVEN a names line whose pitch-stretched crop widened the chevrons into K (and scored best),
    and whose crop as detected read them as '<'
    THEN the line keeps the stretched crop's letters and the plain crop's filler where an MRZ has
    filler runs (the '<<' between surname and given names, the trailing run); a lone '<' between
    two letters is left as read (K), since crops read a real K as '<' too."""
    stretched = _names_line("KORHONENKKAHMADKWOJCIECHKK<KKK")
    plain = _names_line("KORHONEN<<AHNAD<WOJCIECH<<<<<K")
    merged = with_filler_others_read(stretched, [plain, stretched], separators=range(30))
    assert merged.text == "KORHONEN<<AHMADKWOJCIECH<<<<<K"
    assert len(merged.alternatives) == len(merged.char_probs) == 30
    assert merged.alternatives[8][0][0] == "<"


def test_a_reading_of_the_line_shifted_by_a_character_lends_no_filler() -> None:
    """GIVEN a second crop whose reading is not aligned with the first (a character dropped)
    THEN its '<' positions say nothing about the first reading's, which stays as read."""
    stretched = _names_line("KORHONENKKAHMADKWOJCIECHKK<KKK")
    shifted = _names_line("ORHONEN<<AHMAD<WOJCIECH<<<<<<<")
    assert with_filler_others_read(stretched, [shifted]).text == stretched.text


def test_a_lone_filler_another_crop_read_inside_a_document_number_is_no_filler() -> None:
    """GIVEN a document number read HZKMCLBB by the best crop and HZ<MCLBB by another
    THEN the K stays: a lone '<' inside a number is unlikely, and its check digit cannot refute
    it (K and '<' weigh alike), while the filler run after the number is taken."""
    best = _names_line("HZKMCLBBK<K")
    other = _names_line("HZ<MCLBB<<<")
    assert with_filler_others_read(best, [other]).text == "HZKMCLBB<<<"


def test_a_k_another_crop_read_as_filler_at_a_names_start_stays() -> None:
    """GIVEN a TD3 names field KHAN<<THOR that another crop read <HAN<<THOR
    THEN KHAN stays: a lone '<' cannot open the names, and a K before a word is no filler run."""
    best = _names_line("P<SVNKHAN<<THOR<JUN<<<<<")
    other = _names_line("P<SVN<HAN<<THOR<JUN<<<<<")
    assert with_filler_others_read(best, [other], separators=range(5, 24)).text == best.text


def test_a_filler_another_crop_read_where_a_document_number_ends_pads_it() -> None:
    """GIVEN a document number of eight characters, its ninth position the filler that pads it,
    read K by the best crop and '<' by another
    THEN the number ends in filler (9SH8DNDZ<): the filler pads a field to its end, and K and '<'
    weigh alike in its check digit."""

    def number_line(text: str) -> DecodedLine:
        decoded = decode_line(frames(*spell(text)), VOCABULARY, "x" * len(text))
        assert decoded is not None
        return decoded

    best = number_line("9SH8DNDZK8IRL")
    other = number_line("9SH8DNDZ<8IRL")
    assert with_filler_others_read(best, [other], field_ends={9}).text == "9SH8DNDZ<8IRL"
    assert with_filler_others_read(best, [other]).text == best.text
