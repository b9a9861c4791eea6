"""synth.mrz and synth.identity: MRZ composition, names, and the holders the sampler draws.

These run without rendering, so they can afford thousands of identities: every field shape the
sampler can produce (long numbers, truncated names, the sex X, the one-letter code D) shows up.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date

import numpy as np
import pytest

from synth.identity import BIRTH_WINDOW, EXPIRY_WINDOW, IN_CIRCULATION_ON, sample_identity
from synth.mrz import (
    TD1,
    TD2,
    TD3,
    MrzData,
    NameDoesNotFit,
    compose,
    document_type,
    encode_name,
    optional_data,
    transliterate,
    truth_fields,
)
from tests.unit.synth.mrz_reference import read

ANNA = encode_name("ERIKSSON", "ANNA MARIA", 39)


def _specimen(fmt, number="D23145890", code="I<", personal=""):
    return MrzData(
        format=fmt,
        document_code=code,
        issuing_country="UTO",
        name=encode_name("ERIKSSON", "ANNA MARIA", fmt.name_width),
        document_number=number,
        nationality="UTO",
        date_of_birth=date(1974, 8, 12),
        sex="F",
        date_of_expiry=date(2012, 4, 15),
        personal_number=personal,
    )


def test_td3_composition_reproduces_the_icao_specimen():
    """GIVEN the ICAO 9303 Part 4 specimen holder WHEN composed as TD3 THEN the lines match the spec's."""
    lines = compose(_specimen(TD3, number="L898902C3", code="P<", personal="ZE184226B"))
    assert lines == (
        "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<",
        "L898902C36UTO7408122F1204159ZE184226B<<<<<10",
    )


def test_td1_composition_reproduces_the_icao_specimen():
    assert compose(_specimen(TD1)) == (
        "I<UTOD231458907<<<<<<<<<<<<<<<",
        "7408122F1204159UTO<<<<<<<<<<<6",
        "ERIKSSON<<ANNA<MARIA<<<<<<<<<<",
    )


def test_td2_composition_reproduces_the_icao_specimen():
    assert compose(_specimen(TD2)) == (
        "I<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<",
        "D231458907UTO7408122F1204159<<<<<<<6",
    )


def test_td1_long_document_number_moves_the_overflow_and_its_check_digit_to_optional_data():
    """GIVEN a 12-character number WHEN composed as TD1 THEN ICAO Part 5's example layout results."""
    lines = compose(_specimen(TD1, number="D23145890734"))
    assert lines[0] == "I<UTOD23145890<7349<<<<<<<<<<<"
    fields, errors = read(lines)
    assert errors == []
    assert fields["document_number"] == "D23145890734"


def test_sex_x_is_encoded_as_a_filler_and_read_back_as_x():
    data = replace(_specimen(TD3, code="P<"), sex="X")
    assert compose(data)[1][20] == "<"
    assert truth_fields(data)["sex"] == "X"


@pytest.mark.parametrize(
    ("printed", "mrz"),
    [
        ("O'BRIEN", "OBRIEN"),
        ("MÜLLER", "MUELLER"),
        ("JEAN-PIERRE", "JEAN<PIERRE"),
        ("DE LA CRUZ", "DE<LA<CRUZ"),
        ("ØSTERGÅRD", "OESTERGAARD"),
        ("ŁUKASZ", "LUKASZ"),
        ("ÞÓR", "THOR"),
        ("GARCÍA", "GARCIA"),
    ],
)
def test_transliteration_follows_icao(printed, mrz):
    assert transliterate(printed) == mrz


def test_a_name_that_fits_is_padded_with_fillers():
    assert ANNA.field == "ERIKSSON<<ANNA<MARIA" + "<" * 19
    assert (ANNA.surname, ANNA.given_names, ANNA.truncated) == ("ERIKSSON", "ANNA MARIA", False)


def test_a_long_name_is_cut_from_the_given_names_and_the_truth_is_what_remains():
    name = encode_name("DE LA CRUZ", "MARIA DEL CARMEN ESPERANZA", 30)
    assert name.field == "DE<LA<CRUZ<<MARIA<DEL<CARMEN<E"
    assert (name.surname, name.given_names, name.truncated) == ("DE LA CRUZ", "MARIA DEL CARMEN E", True)


def test_a_cut_that_would_end_on_a_filler_is_refused():
    """ICAO: a truncated field ends with a letter, so a cut landing between words is not allowed."""
    with pytest.raises(NameDoesNotFit):
        encode_name("SMITH", "JOHN PAUL", 12)  # "SMITH<<JOHN<" would end on a filler


def test_td2_with_a_p_code_is_a_passport_and_other_codes_are_id_cards():
    assert document_type(_specimen(TD2, code="P<")) == "passport"
    assert document_type(_specimen(TD2, code="I<")) == "id_card"
    assert document_type(_specimen(TD3, code="PD")) == "passport"
    assert document_type(_specimen(TD1, code="ID")) == "id_card"


@pytest.mark.parametrize("fmt", [TD1, TD2, TD3])
def test_sampled_identities_compose_valid_mrzs_whose_truth_matches_an_independent_reading(fmt):
    """GIVEN 1500 random holders WHEN composed THEN every check digit verifies, lines have the
    format's length and the truth fields equal what a separate MRZ reader extracts."""
    rng = np.random.default_rng(20240501)
    for _ in range(1500):
        data = sample_identity(rng, fmt).mrz
        lines = compose(data)
        assert len(lines) == fmt.line_count
        assert all(len(line) == fmt.line_length for line in lines)
        fields, errors = read(lines)
        assert errors == [], lines
        assert fields == truth_fields(data), lines


def test_sampler_covers_the_hard_cases():
    """GIVEN many holders THEN truncated names, long TD1 numbers, sex X, Germany's D, personal
    numbers present and absent, multi-word names and both ends of the date windows all occur."""
    rng = np.random.default_rng(7)
    seen: set[str] = set()
    for i in range(3000):
        fmt = (TD1, TD2, TD3)[i % 3]
        identity = sample_identity(rng, fmt)
        data = identity.mrz
        cases = {
            "truncated": data.name.truncated,
            "long-number": len(data.document_number) > 9,
            "sex-x": data.sex == "X",
            "germany": data.issuing_country == "D",
            "personal": bool(data.personal_number),
            "no-personal": not data.personal_number,
            "multi-word-surname": " " in data.name.surname,
            "multi-word-given": " " in data.name.given_names,
            "born-1920s": data.date_of_birth.year < 1930,
            "born-2020s": data.date_of_birth.year >= 2020,
            "expires-2060s": data.date_of_expiry.year >= 2060,
            "diacritics": not identity.printed_surname.isascii(),
        }
        seen |= {case for case, happened in cases.items() if happened}
        assert BIRTH_WINDOW[0] <= data.date_of_birth <= BIRTH_WINDOW[1]
        assert EXPIRY_WINDOW[0] <= data.date_of_expiry <= EXPIRY_WINDOW[1]
        assert data.date_of_birth < data.date_of_expiry
        assert 6 <= len(data.document_number) <= (12 if fmt == TD1 else 9)
        if data.name.truncated:
            assert data.name.field[-1].isalpha()
    assert seen == set(cases)


def test_personal_number_is_truth_for_td3_only_and_optional_data_elsewhere():
    """ICAO defines a personal number field in TD3 only; TD1/TD2 optional data is issuer-defined."""
    td3 = _specimen(TD3, code="P<", personal="ZE184226B")
    td1 = _specimen(TD1, personal="123456789")
    assert truth_fields(td3)["personal_number"] == "ZE184226B"
    assert "personal_number" not in truth_fields(td1)
    assert optional_data(td1) == "123456789" and compose(td1)[0][15:24] == "123456789"


def test_most_documents_are_in_circulation_and_some_have_expired() -> None:
    # uploads are mostly valid documents: a generator of mostly expired ones would make every
    # evaluation's straight-through rate measure the expiry rule instead of the reading
    rng = np.random.default_rng(11)
    expiries = [sample_identity(rng, (TD1, TD2, TD3)[i % 3]).mrz.date_of_expiry for i in range(600)]
    expired = sum(expiry < IN_CIRCULATION_ON for expiry in expiries) / len(expiries)
    assert 0.03 <= expired <= 0.15
