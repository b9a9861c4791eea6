"""Licence barcodes as real cards encode them (issue 39): every version 01-10 with the header
deviations seen in the field, every name layout, suffixes and second address lines in their own
fields, every issuer's IIN, and round trips through the generator's PDF417 rendering.

The payloads here are written from the AAMVA DL/ID standard itself (header layout per version,
element ids per version), independently of the generator's writer, so the two cannot agree on a
mistake.
"""

from __future__ import annotations

import contextlib
from dataclasses import replace
from datetime import date

import numpy as np
import pytest

from engines.barcode import read_barcodes
from engines.layout import Line, PageText
from engines.licence.aamva import AamvaError, format_postal_code, parse_aamva
from engines.licence.aamva_data import TABLES
from engines.licence.aamva_iin import IIN_JURISDICTIONS, JURISDICTION_IINS
from engines.licence.reader import read_driver_license
from synth.aamva_writer import HEADER_STYLES, NAME_LAYOUTS_V1, PayloadStyle
from synth.documents import document_rng
from synth.driver_license import aamva_payload, pdf417_image, sample_licence

# --------------------------------------------------------------------------------------------
# Payloads written from the standard

STANDARD = "@\n\x1e\r"


def payload(
    version: int,
    elements: list[tuple[str, str]],
    *,
    iin: str = "636014",
    preamble: str = STANDARD,
    file_type: str = "ANSI ",
    element_separator: str = "\n",
    terminator: str = "\r",
    offset_shift: int = 0,
    length_shift: int = 0,
) -> str:
    """One DL subfile after a header of ``version``'s layout: version 01 has no jurisdiction
    version, later ones do. ``offset_shift``/``length_shift`` make the designator lie."""
    body = "DL" + element_separator.join(key + value for key, value in elements) + terminator
    header = preamble + file_type + iin + f"{version:02d}" + ("" if version <= 1 else "00") + "01"
    offset = len(header) + 10 + offset_shift
    return header + f"DL{offset:04d}{len(body) + length_shift:04d}" + body


def elements_of_version(version: int) -> list[tuple[str, str]]:
    """A licence's elements as ``version`` of the standard names and writes them: version 01
    with its full name in DAA and CCYYMMDD dates, 02-03 with DCT given names, 04+ with
    DAC/DAD and truncation flags; each with a suffix and a second address line."""
    if version <= 1:
        return [
            ("DAQ", "D1234567"),
            ("DAA", "SMITH,JOHN,QUINCY,JR"),
            ("DAG", "123 MAIN ST"),
            ("DAH", "APT 4B"),
            ("DAI", "SACRAMENTO"),
            ("DAJ", "CA"),
            ("DAK", "958191234  "),
            ("DAR", "C"),
            ("DBA", "20300515"),
            ("DBB", "19800515"),
            ("DBC", "M"),
            ("DBD", "20220301"),
        ]
    names = [("DCS", "SMITH"), ("DCT", "JOHN,QUINCY")] if version <= 3 else [
        ("DCS", "SMITH"), ("DAC", "JOHN"), ("DAD", "QUINCY"),
    ]  # fmt: skip
    flags = [("DDE", "N"), ("DDF", "N"), ("DDG", "N")] if version >= 4 else []
    return [
        ("DCA", "C"),
        ("DCB", "NONE"),
        ("DCD", "NONE"),
        ("DBA", "05152030"),
        *names,
        ("DCU", "JR"),
        ("DBD", "03012022"),
        ("DBB", "05151980"),
        ("DBC", "1"),
        ("DAY", "BRO"),
        ("DAU", "070 IN"),
        ("DAG", "123 MAIN ST"),
        ("DAH", "APT 4B"),
        ("DAI", "SACRAMENTO"),
        ("DAJ", "CA"),
        ("DAK", "958191234  "),
        ("DAQ", "D1234567"),
        ("DCF", "83D9BN217QO983B1"),
        ("DCG", "USA"),
        *flags,
    ]


EXPECTED = {
    "document_number": "D1234567",
    "surname": "SMITH",
    "given_names": "JOHN QUINCY",
    "name_suffix": "JR",
    "date_of_birth": "1980-05-15",
    "sex": "M",
    "date_of_expiry": "2030-05-15",
    "date_of_issue": "2022-03-01",
    "address_street": "123 MAIN ST",
    "address_street_2": "APT 4B",
    "address_city": "SACRAMENTO",
    "address_region": "CA",
    "address_postal_code": "95819-1234",
    "issuing_region": "CA",
    "license_class": "C",
}

# (name, how the deviation is written, the deviation the record names or None)
DEVIATIONS = {
    "standard": ({}, None),
    "lf for cr": ({"preamble": "@\n\x1e\n", "terminator": "\n"}, "segment terminator LF"),
    "missing separator": ({"preamble": "@\n\r"}, "header separator missing"),
    "doubled separator": ({"preamble": "@\n\n\x1e\r"}, "header separator doubled"),
    "aamva file type": ({"file_type": "AAMVA"}, "file type AAMVA"),
    "ansi without space": ({"file_type": "ANSI"}, "file type ANSI without its space"),
    "other declared separators": (
        {"preamble": "@|\x1c~", "element_separator": "|", "terminator": "~"},
        "data element separator character 0x7c",
    ),
    "trailing cr lf in values": ({"element_separator": "\r\n"}, None),
    "offset off": ({"offset_shift": 7}, "subfile offset"),
    "length off": ({"length_shift": -5}, "subfile length"),
}


@pytest.mark.parametrize("version", range(1, 11))
@pytest.mark.parametrize("deviation", sorted(DEVIATIONS))
def test_every_version_with_every_header_deviation(version: int, deviation: str) -> None:
    """GIVEN a payload of each version 01-10 with one deviation from the standard's header WHEN
    parsed THEN every field is read as the standard means it and the deviation is named."""
    options, named = DEVIATIONS[deviation]
    record = parse_aamva(payload(version, elements_of_version(version), **options))  # type: ignore[arg-type]
    assert record.version == version
    assert record.jurisdiction_version == (None if version <= 1 else 0)
    assert record.fields == EXPECTED
    if named is not None:
        assert named in record.deviations
    else:
        assert record.deviations == ()


def test_keyboard_wedge_crlf_for_every_lf_is_read_and_named() -> None:
    text = payload(10, elements_of_version(10)).replace("\n", "\r\n")
    record = parse_aamva(text)
    assert record.fields == EXPECTED
    assert "CR LF for LF" in record.deviations


def test_deviations_and_checks_never_hold_values() -> None:
    record = parse_aamva(payload(10, elements_of_version(10), preamble="@\n\r", offset_shift=3))
    assert not any("SMITH" in d or "D1234567" in d for d in record.deviations)
    assert "SMITH" not in repr(record) and "JOHN" not in repr(record)


# --------------------------------------------------------------------------------------------
# Names


def names_of(version: int, elements: list[tuple[str, str]]) -> tuple[str | None, str | None, str | None]:
    record = parse_aamva(payload(version, [("DAQ", "X1"), *elements, ("DBB", "05151980")]))
    fields = record.fields
    return fields.get("surname"), fields.get("given_names"), fields.get("name_suffix")


@pytest.mark.parametrize(
    ("version", "elements", "expected"),
    [
        (1, [("DAA", "SMITH,JOHN,QUINCY")], ("SMITH", "JOHN QUINCY", None)),
        (1, [("DAA", "SMITH,JOHN,QUINCY,III")], ("SMITH", "JOHN QUINCY", "III")),
        (1, [("DAA", "SMITH,JOHN,,V")], ("SMITH", "JOHN", "V")),  # the suffix's own position
        (1, [("DAA", "SMITH,JOHN,V")], ("SMITH", "JOHN V", None)),  # a middle initial
        (1, [("DAA", "SMITH, JOHN QUINCY")], ("SMITH", "JOHN QUINCY", None)),
        (1, [("DAA", "DE LA CRUZ$ANA$MARIA")], ("DE LA CRUZ", "ANA MARIA", None)),
        (1, [("DAA", "SMITH,JOHN Q JR.")], ("SMITH", "JOHN Q", "JR")),
        (
            1,
            [("DAB", "SMITH"), ("DAC", "JOHN"), ("DAD", "QUINCY"), ("DAE", "SR")],
            ("SMITH", "JOHN QUINCY", "SR"),
        ),
        (1, [("DAB", "SMITH"), ("DAC", "JOHN")], ("SMITH", "JOHN", None)),
        (2, [("DCS", "SMITH"), ("DCT", "JOHN QUINCY"), ("DCU", "2ND")], ("SMITH", "JOHN QUINCY", "2ND")),
        (3, [("DCS", "SMITH"), ("DCT", "JOHN,QUINCY")], ("SMITH", "JOHN QUINCY", None)),
        (5, [("DCS", "SMITH"), ("DCT", "JOHN QUINCY")], ("SMITH", "JOHN QUINCY", None)),  # DCT kept on
        (8, [("DCS", "SMITH"), ("DAC", "JOHN"), ("DAD", "NONE"), ("DCU", "NONE")], ("SMITH", "JOHN", None)),
        (9, [("DCS", "SMITH"), ("DAC", "JOHN JR")], ("SMITH", "JOHN", "JR")),  # no DCU: off the name
        (10, [("DCS", "SMITH III"), ("DAC", "JOHN")], ("SMITH", "JOHN", "III")),
        (10, [("DCS", "SMITH"), ("DAC", "JOHN"), ("DAD", "V")], ("SMITH", "JOHN V", None)),
        (10, [("DAA", "SMITH,JOHN,QUINCY")], ("SMITH", "JOHN QUINCY", None)),  # a later card with DAA
    ],
)
def test_name_layouts(
    version: int, elements: list[tuple[str, str]], expected: tuple[str | None, str | None, str | None]
) -> None:
    assert names_of(version, elements) == expected


def test_a_full_name_with_spaces_only_is_unsettled_with_every_split_kept() -> None:
    """GIVEN version 01's DAA with spaces only WHEN parsed THEN the standard's order is read, the
    reading says it is unsettled, and the issuer's other order is among the alternatives."""
    record = parse_aamva(payload(1, [("DAQ", "X1"), ("DAA", "PAUL ROBERT KOWALSKI JR"), ("DBB", "19800515")]))
    assert record.names is not None and not record.names.order_settled
    assert (record.fields["surname"], record.fields["given_names"]) == ("PAUL", "ROBERT KOWALSKI")
    assert ("KOWALSKI", "PAUL ROBERT") in record.names.alternatives
    assert record.fields["name_suffix"] == "JR"
    separated = parse_aamva(payload(1, [("DAQ", "X1"), ("DAA", "KOWALSKI,PAUL,ROBERT"), ("DBB", "19800515")]))
    assert separated.names is not None and separated.names.order_settled


@pytest.mark.parametrize(
    ("flags", "truncated"),
    [
        ({"DDE": "T"}, ("surname",)),
        ({"DDF": "T", "DDG": "T"}, ("given_names",)),
        ({"DDE": "N", "DDF": "U", "DDG": "N"}, ()),
    ],
)
def test_truncation_flags(flags: dict[str, str], truncated: tuple[str, ...]) -> None:
    elements = [("DAQ", "X1"), ("DCS", "WOLFESCHLEGELSTEINHAUSENBE"), ("DAC", "JO"), *flags.items()]
    record = parse_aamva(payload(10, elements))
    assert record.names is not None and record.names.truncated == truncated


# --------------------------------------------------------------------------------------------
# Address, postal codes, issuers


def test_second_address_line_is_its_own_field_and_comes_from_the_same_address() -> None:
    v1 = [("DAQ", "X1"), ("DAB", "ROE"), ("DAL", "9 ELM RD"), ("DAM", "UNIT 2"), ("DAN", "DOVER")]
    record = parse_aamva(payload(1, v1))
    assert (record.fields["address_street"], record.fields["address_street_2"]) == ("9 ELM RD", "UNIT 2")
    mailing = parse_aamva(payload(1, [*v1, ("DAG", "PO BOX 7"), ("DAI", "DOVER")]))
    assert mailing.fields["address_street"] == "PO BOX 7"
    assert "address_street_2" not in mailing.fields  # never the residence's second line


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("123450000  ", "12345"),
        ("12345-0000", "12345"),
        ("123456789  ", "12345-6789"),
        ("12345-6789", "12345-6789"),
        ("12345      ", "12345"),
        ("K1A0B1     ", "K1A 0B1"),
        ("k1a 0b1", "K1A 0B1"),
        ("T2P-1J9", "T2P 1J9"),
    ],
)
def test_postal_codes_keep_zip_plus_four_and_canadian_spacing(raw: str, expected: str) -> None:
    assert format_postal_code(raw) == expected


def test_every_jurisdiction_has_its_iin_and_issues_without_a_state_element() -> None:
    """GIVEN a payload without a state element from each issuer AAMVA lists WHEN parsed THEN the
    issuer comes from the IIN."""
    codes = {j.code for j in TABLES.jurisdictions}
    us_states_and_dc = {
        "AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "DC", "FL", "GA", "HI", "ID", "IL", "IN", "IA",
        "KS", "KY", "LA", "ME", "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV", "NH", "NJ", "NM",
        "NY", "NC", "ND", "OH", "OK", "OR", "PA", "RI", "SC", "SD", "TN", "TX", "UT", "VT", "VA", "WA",
        "WV", "WI", "WY",
    }  # fmt: skip
    territories = {"AS", "GU", "MP", "PR", "VI"}
    canada = {"AB", "BC", "MB", "NB", "NL", "NS", "NT", "NU", "ON", "PE", "QC", "SK", "YT"}
    assert us_states_and_dc | territories | canada | {"COA", "HID"} <= codes
    for iin, (code, country) in IIN_JURISDICTIONS.items():
        record = parse_aamva(payload(10, [("DAQ", "X1"), ("DCS", "ROE"), ("DAC", "AL")], iin=iin))
        assert (record.jurisdiction, record.fields["issuing_region"], record.country) == (code, code, country)
        assert "address_region" not in record.fields
    assert IIN_JURISDICTIONS["990876"] == ("AB", "CAN") and JURISDICTION_IINS["AB"] == "604432"


def test_an_unknown_iin_is_named_and_the_state_element_issues() -> None:
    record = parse_aamva(payload(10, [("DAQ", "X1"), ("DCS", "ROE"), ("DAJ", "TX")], iin="999999"))
    assert record.jurisdiction == "TX"
    assert "IIN not in AAMVA's list" in record.deviations


# --------------------------------------------------------------------------------------------
# Elements run together: a scanner dropped the control characters


def dropped(text: str) -> str:
    return "".join(char for char in text if char not in "\n\r\x1e")


@pytest.mark.parametrize("version", range(1, 11))
def test_every_version_with_its_control_characters_dropped_is_split_by_its_ids_and_forms(
    version: int,
) -> None:
    """GIVEN a payload of each version whose every control character a scanner dropped, with a
    jurisdiction subfile after the licence's WHEN parsed THEN the elements are split where the
    version's ids leave each value in its form, every field is right and the deviation named."""
    text = payload(version, elements_of_version(version))
    z_subfile = "ZCZCAN\nZCB123\r"
    text = text.replace("01DL", "02DL", 1)  # two subfiles
    offset = int(text[text.index("DL") + 2 : text.index("DL") + 6]) + 10
    dl_length = int(text[text.index("DL") + 6 : text.index("DL") + 10])
    head, body = text[: text.index("DL")], text[text.index("DL") + 10 :]
    designators = f"DL{offset:04d}{dl_length:04d}ZC{offset + dl_length:04d}{len(z_subfile):04d}"
    record = parse_aamva(dropped(head + designators + body + z_subfile))
    assert record.fields == EXPECTED
    assert "elements run together (control characters dropped)" in record.deviations
    assert (record.elements["ZCA"], record.elements["ZCB"]) == ("N", "123")


def test_a_value_out_of_its_form_is_no_element_and_an_id_inside_a_name_is_no_split() -> None:
    """ "DCADDCBNONE" holds DDC, a date, which "BNONE" is not: DCA is "D". "ADDAMS" holds DDA
    (F or N) and "DAYTON" holds DAY (an eye colour): neither is split."""
    elements = [
        ("DAQ", "D1234567"), ("DCA", "D"), ("DCB", "NONE"), ("DCS", "ADDAMS"), ("DAC", "JOHN"),
        ("DAD", ""), ("DBB", "05151980"), ("DAI", "DAYTON"), ("DAJ", "OH"), ("DAY", "BRO"), ("DDE", "N"),
    ]  # fmt: skip
    record = parse_aamva(dropped(payload(10, elements, iin="636023")))
    assert (record.fields["surname"], record.fields["given_names"]) == ("ADDAMS", "JOHN")
    assert (record.fields["license_class"], record.fields["address_city"]) == ("D", "DAYTON")
    assert record.elements["DAD"] == ""


def test_the_declared_lengths_settle_an_id_inside_a_value() -> None:
    """GIVEN version 01's "GUADALUPE", which holds DAL (the residence street), run together WHEN
    the subfile's declared length is right THEN it says how many elements there are and the name
    stays whole; when the length lies, the most elements win and the name is cut (the reader's
    known limit, which the unconfirmed confidence sends to review)."""
    elements = [("DAQ", "X1"), ("DAA", "SMITH,ANA,GUADALUPE"), ("DBB", "19800515"), ("DAI", "DOVER")]
    record = parse_aamva(dropped(payload(1, elements)))
    assert record.fields["given_names"] == "ANA GUADALUPE"
    lying = parse_aamva(dropped(payload(1, elements, length_shift=40)))
    assert lying.fields["given_names"] != "ANA GUADALUPE"


def test_generated_licences_with_dropped_control_characters_are_read_or_refused_never_wrong() -> None:
    """GIVEN 300 generated licences of every version, every control character dropped WHEN
    parsed THEN none is read wrong (a name whose order the barcode does not say aside), and
    those that split in two ways ("LINDA" then "DADMARIA" reads as LIN + ADMARIA too) are
    refused with the reason."""
    read = refused = 0
    for index in range(300):
        rng = document_rng(3939, index)
        licence = replace(sample_licence(rng), version=index % 10 + 1)
        text, meta = aamva_payload(licence, rng, PayloadStyle(header="controls-dropped"))
        try:
            record = parse_aamva(text)
        except AamvaError as error:
            assert "more than one way" in str(error) or "twice" in str(error)
            refused += 1
            continue
        fields, truth = record.fields, licence.truth_fields(unit_apart=meta["unit_apart"])
        if record.names is not None and not record.names.order_settled:  # the front settles it
            fields, truth = (
                {k: v for k, v in d.items() if k not in ("surname", "given_names")} for d in (fields, truth)
            )
        assert fields == truth
        read += 1
    assert read >= 270, (read, refused)


def test_a_lost_separator_is_mended_where_the_value_is_out_of_its_form() -> None:
    """GIVEN one lost separator between two dates WHEN parsed THEN both are read and the
    deviation named; between two free-text values ("DCSSMITHDACJOHN" on a card with no DAC)
    nothing says where the name ends, so it is kept and named, never split."""
    elements = [(k, v) for k, v in elements_of_version(10) if k not in ("DBA", "DBB")]
    record = parse_aamva(payload(10, [*elements, ("DBB", "05151980DBA05152030")]))
    assert (record.fields["date_of_birth"], record.fields["date_of_expiry"]) == ("1980-05-15", "2030-05-15")
    assert "data element separator missing" in record.deviations
    glued = [(k, v) for k, v in elements_of_version(10) if k not in ("DAC", "DCS")]
    record = parse_aamva(payload(10, [*glued, ("DCS", "SMITHDACJOHN")]))
    assert (record.fields["surname"], record.fields["given_names"]) == ("SMITHDACJOHN", "QUINCY")
    assert "a value holds a missing element's id" in record.deviations


# --------------------------------------------------------------------------------------------
# What is refused, with the reason

# "LINDA" then "DADMARIA": DAC "LIN" and DAD "ADMARIA" fit the forms as well as "LINDA" "MARIA".
AMBIGUOUS_RUN_TOGETHER = "@ANSI 636014100001DL00310120DLDAQD1234567DCSSMITHDACLINDADADMARIADBB05151980"


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        (AMBIGUOUS_RUN_TOGETHER, "more than one way"),
        ("@ANSI 636014100001DL00310120DLDAQX1" + "DACDADDAGDAI" * 45, "more element ids than any card"),
        ("@\n\x1e\rANSI 636014100001DL00310010DLZZZ1\r", "no driver licence"),
        ("DAQ123456", "no AAMVA header"),
        ("", "empty"),
    ],
)
def test_unreadable_payloads_are_refused_with_the_reason(text: str, reason: str) -> None:
    with pytest.raises(AamvaError, match=reason):
        parse_aamva(text)


@pytest.mark.parametrize("digit", ["\u00b2", "\u0663"])  # superscript two, Arabic-Indic three
def test_a_header_with_a_digit_that_is_not_ascii_is_refused_not_raised(digit: str) -> None:
    """str.isdigit passes '²', which int() refuses: a hostile header must still end as a reason."""
    text = f"@\n\x1e\rANSI 6360141{digit}0001DL00310120DLDAQD1234567\nDCSSMITH\r"
    with pytest.raises(AamvaError):
        parse_aamva(text)
    text = f"@\n\x1e\rANSI 636014100{digit}01DL00310120DLDAQD1234567\nDCSSMITH\r"
    with contextlib.suppress(AamvaError):  # read or refused, never an uncaught ValueError
        parse_aamva(text)


# --------------------------------------------------------------------------------------------
# Round trips through the generator's PDF417 rendering


def barcode_page(text: str, seed: int = 0) -> np.ndarray:
    """The payload as the generator renders a licence's PDF417, on a white page."""
    code = pdf417_image(text, np.random.default_rng(seed), 1100, 420)
    page = np.full((code.shape[0] + 160, code.shape[1] + 160), 255, np.uint8)
    page[80 : 80 + code.shape[0], 80 : 80 + code.shape[1]] = code
    return page


def decoded(text: str) -> str:
    symbols = read_barcodes(barcode_page(text))
    assert len(symbols) == 1
    return symbols[0].text


@pytest.mark.parametrize("version", range(1, 11))
def test_generator_payloads_of_every_version_round_trip_through_pdf417(version: int) -> None:
    """GIVEN the generator's payload of each version in each header style (and, for version 01,
    each name layout) WHEN rendered as its PDF417, decoded and parsed THEN the fields are the
    licence's."""
    rng = document_rng(39, version)
    licence = replace(sample_licence(rng), version=version, suffix="III", unit="APT 12")
    layouts = NAME_LAYOUTS_V1 if version <= 1 else (None,)
    for index, header in enumerate(HEADER_STYLES):
        layout = layouts[index % len(layouts)]
        if layout is not None and layout.startswith("daa-spaces"):
            layout = "daa-commas"  # the unsettled layouts are settled by the front: tested below
        style = PayloadStyle(header=header, name_layout=layout, unit_apart=index % 2 == 0)
        text, meta = aamva_payload(licence, rng, style)
        record = parse_aamva(decoded(text))
        assert record.fields == licence.truth_fields(unit_apart=meta["unit_apart"]), (header, layout)
        assert record.version == version


# --------------------------------------------------------------------------------------------
# The reader: barcode and front together


def front_page(texts: list[str]) -> PageText:
    lines = [Line(text, 0.99, (0.1, 0.05 + 0.07 * i, 0.8, 0.1 + 0.07 * i), 1) for i, text in enumerate(texts)]
    return PageText(1, tuple(lines), "ocr")


V1_SPACES = [
    ("DAQ", "K1234567"),
    ("DAA", "PAUL ROBERT KOWALSKI"),
    ("DAG", "55 OAK AVE"),
    ("DAH", "APT 7"),
    ("DAI", "PEORIA"),
    ("DAJ", "IL"),
    ("DAK", "616040000"),
    ("DBB", "19750704"),
    ("DBA", "20290704"),
]


def test_the_front_settles_a_full_name_whose_order_the_barcode_does_not_say() -> None:
    """GIVEN a version 01 barcode with "FIRST MIDDLE LAST" in DAA and a front printing LN/FN WHEN
    read THEN the split the front confirms is the one returned, with a passed order check."""
    front = front_page(
        ["ILLINOIS", "DRIVER LICENSE", "DL K1234567", "LN KOWALSKI", "FN PAUL ROBERT", "55 OAK AVE APT 7"]
    )
    result = read_driver_license([front], [barcode_page(payload(1, V1_SPACES, iin="636035"))])
    assert result is not None
    assert (result.fields["surname"].value, result.fields["given_names"].value) == ("KOWALSKI", "PAUL ROBERT")
    checks = {check.name: check for check in result.checks}
    assert checks["barcode_parsed"].passed
    assert checks["barcode_name_order"].passed
    assert checks["barcode_vs_front"].passed
    assert result.fields["surname"].confidence > 0.9


def test_without_a_front_the_order_check_fails_and_the_names_are_not_trusted() -> None:
    result = read_driver_license([front_page([])], [barcode_page(payload(1, V1_SPACES, iin="636035"))])
    assert result is not None
    checks = {check.name: check for check in result.checks}
    assert not checks["barcode_name_order"].passed
    assert "KOWALSKI" not in checks["barcode_name_order"].detail
    assert result.fields["surname"].confidence <= 0.5 and result.fields["given_names"].confidence <= 0.5
    assert result.fields["address_street_2"].value == "APT 7"


def test_street_two_and_suffix_agree_with_a_front_that_prints_them_inline() -> None:
    """GIVEN a barcode with DAH and DCU and a front printing "123 MAIN ST APT 4B" and "JOHN Q JR"
    WHEN read THEN street, second line and suffix are the barcode's, confirmed by the front."""
    elements = [
        ("DAQ", "D1234567"), ("DCS", "SMITH"), ("DAC", "JOHN"), ("DAD", "Q"), ("DCU", "JR"),
        ("DBB", "05151980"), ("DBA", "05152030"), ("DAG", "123 MAIN ST"), ("DAH", "APT 4B"),
        ("DAI", "SACRAMENTO"), ("DAJ", "CA"), ("DAK", "958191234"), ("DCG", "USA"),
    ]  # fmt: skip
    front = front_page(
        ["CALIFORNIA", "DRIVER LICENSE", "DL D1234567", "LN SMITH", "FN JOHN Q JR", "123 MAIN ST APT 4B",
         "SACRAMENTO, CA 95819-1234"]
    )  # fmt: skip
    result = read_driver_license([front], [barcode_page(payload(10, elements))])
    assert result is not None
    values = {name: field.value for name, field in result.fields.items()}
    assert values["given_names"] == "JOHN Q" and values["name_suffix"] == "JR"
    assert (values["address_street"], values["address_street_2"]) == ("123 MAIN ST", "APT 4B")
    for name in ("given_names", "name_suffix", "address_street", "address_street_2"):
        assert result.fields[name].valid is True, name
    assert next(check for check in result.checks if check.name == "barcode_vs_front").passed


def test_a_truncated_name_is_marked_and_the_front_gives_the_whole() -> None:
    elements = [
        ("DAQ", "D1234567"), ("DCS", "WOLFESCHLEGELSTEIN"), ("DDE", "T"), ("DAC", "HUBERT"), ("DDF", "N"),
        ("DBB", "05151980"), ("DAJ", "CA"),
    ]  # fmt: skip
    front = front_page(["CALIFORNIA", "DRIVER LICENSE", "LN WOLFESCHLEGELSTEINHAUSEN", "FN HUBERT"])
    result = read_driver_license([front], [barcode_page(payload(10, elements))])
    assert result is not None
    check = next(check for check in result.checks if check.name == "barcode_name_truncated")
    assert not check.passed and "surname" in check.detail and "WOLF" not in check.detail
    assert result.fields["surname"].value == "WOLFESCHLEGELSTEINHAUSEN"
    assert result.fields["surname"].source == "ocr"
    alone = read_driver_license([front_page([])], [barcode_page(payload(10, elements))])
    assert alone is not None and alone.fields["surname"].value == "WOLFESCHLEGELSTEIN"
    assert not next(c for c in alone.checks if c.name == "barcode_name_truncated").passed


def test_an_unparseable_aamva_barcode_is_a_failed_check_with_the_reason() -> None:
    """GIVEN a PDF417 that announces an AAMVA payload whose elements a scanner ran together in a
    way that splits two ways WHEN the licence is read THEN the result says the barcode failed
    and why, instead of nothing."""
    result = read_driver_license([front_page(["DL D1234567"])], [barcode_page(AMBIGUOUS_RUN_TOGETHER)])
    assert result is not None
    checks = {check.name: check for check in result.checks}
    assert checks["barcode_found"].passed
    assert not checks["barcode_parsed"].passed
    assert "more than one way" in checks["barcode_parsed"].detail
    assert "SMITH" not in checks["barcode_parsed"].detail and "LINDA" not in checks["barcode_parsed"].detail
    assert all(field.source == "ocr" for field in result.fields.values())


def test_a_parsed_barcode_reports_its_version_and_deviations() -> None:
    text = payload(8, elements_of_version(8), preamble="@\n\x1e\n", terminator="\n", file_type="AAMVA")
    result = read_driver_license([front_page([])], [barcode_page(text)])
    assert result is not None
    check = next(check for check in result.checks if check.name == "barcode_parsed")
    assert check.passed
    assert "version 8" in check.detail and "segment terminator LF" in check.detail
    assert "file type AAMVA" in check.detail
    assert date.fromisoformat(result.fields["date_of_birth"].value or "") == date(1980, 5, 15)


def test_a_generated_card_with_an_issuer_ordered_full_name_is_settled_by_its_printed_front() -> None:
    """GIVEN the generator's clean photocopy of a version 01 card whose DAA reads "FIRST MIDDLE
    LAST SUFFIX" WHEN its OCR'd front and barcode are read THEN every field is the truth and the
    order check passed."""
    import cv2

    from engines.layout import page_from_ocr
    from engines.ocr import get_ocr
    from synth.driver_license import compose

    rng = document_rng(39, 100)
    licence = replace(sample_licence(rng), version=1, suffix="JR", middle_names="LEE")
    style = PayloadStyle(header="lf-for-cr", name_layout="daa-spaces-first-last", unit_apart=True)
    data, _, truth = compose(
        licence, rng, "clean", 0.0, layout="colon", container="stacked", payload_style=style
    )
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    lines = get_ocr().read_page(image)
    page = page_from_ocr(
        [(line.text, line.score, line.quad) for line in lines],
        width=image.shape[1],
        height=image.shape[0],
        page=1,
    )
    result = read_driver_license([page], [image])
    assert result is not None
    assert {name: field.value for name, field in result.fields.items()} == truth["fields"]
    checks = {check.name: check for check in result.checks}
    assert checks["barcode_name_order"].passed
    assert "segment terminator LF" in checks["barcode_parsed"].detail


def test_a_run_together_barcode_is_trusted_where_the_front_confirms_it() -> None:
    """GIVEN a barcode whose control characters were dropped WHEN read without a front THEN its
    values come back below the barcode's usual confidence (a split may have cut a name at an id
    inside it); WHEN the front prints the same THEN those fields are confirmed as usual."""
    text = dropped(payload(10, elements_of_version(10)))
    alone = read_driver_license([front_page([])], [barcode_page(text)])
    assert alone is not None and alone.fields["surname"].value == "SMITH"
    assert max(field.confidence for field in alone.fields.values()) <= 0.6
    assert "elements run together" in next(c for c in alone.checks if c.name == "barcode_parsed").detail
    front = front_page(["CALIFORNIA", "DRIVER LICENSE", "DL D1234567", "LN SMITH", "FN JOHN QUINCY"])
    confirmed = read_driver_license([front], [barcode_page(text)])
    assert confirmed is not None
    assert (
        confirmed.fields["surname"].confidence > 0.9 and confirmed.fields["document_number"].confidence > 0.9
    )
    assert confirmed.fields["address_city"].confidence <= 0.6
