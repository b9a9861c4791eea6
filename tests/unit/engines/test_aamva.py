"""The AAMVA DL/ID barcode parser (engines/licence/aamva.py): versions, header quirks, garbage."""

from __future__ import annotations

import pytest

from engines.licence.aamva import AamvaError, format_postal_code, parse_aamva, parse_date
from engines.licence.aamva_iin import IIN_JURISDICTIONS, JURISDICTION_IINS

# The example payload of the AAMVA DL/ID Card Design Standard (2020, version 10), Annex D: a
# Virginia licence with a jurisdiction subfile "ZV".
AAMVA_2020_SAMPLE = (
    "@\n\x1e\rANSI 636000100002DL00410278ZV03190008"
    "DLDAQT64235789\nDCSSAMPLE\nDDEN\nDACMICHAEL\nDDFN\nDADJOHN\nDDGN\nDCAD\nDCBK\nDCDPH\n"
    "DBD06062019\nDBB06061986\nDBA12102024\nDBC1\nDAU068 in\nDAYBRO\nDAG2300 WEST BROAD STREET\n"
    "DAIRICHMOND\nDAJVA\nDAK232690000  \nDCF2424244747474786102204\nDCGUSA\nDCK123456789\nDDAF\n"
    "DDB06062018\nDDC06062020\nDDD1\rZVZVA01\r"
)

# The same example as the 2013 standard (version 08) prints it, with a name suffix.
AAMVA_2013_SAMPLE = (
    "@\n\x1e\rANSI 636000080002DL00410278ZV03190008"
    "DLDAQT64235789\nDCSSAMPLE\nDDEN\nDACMICHAEL\nDDFN\nDADJOHN\nDDGN\nDCUJR\nDCAD\nDCBK\nDCDPH\n"
    "DBD06062008\nDBB06061986\nDBA12102012\nDBC1\nDAU068 in\nDAYBRO\nDAG2300 WEST BROAD STREET\n"
    "DAIRICHMOND\nDAJVA\nDAK232690000  \nDCF2424244747474786102204\nDCGUSA\nDCK123456789\nDDAM\n"
    "DDB06062008\nDDC06062009\nDDD1\rZVZVA01\r"
)


def build(
    iin: str, version: int, elements: list[tuple[str, str]], *, jurisdiction_version: bool = True
) -> str:
    """A well-formed payload with one DL subfile and correct offsets."""
    body = "DL" + "\n".join(key + value for key, value in elements) + "\r"
    header = "@\n\x1e\rANSI " + iin + f"{version:02d}" + ("00" if jurisdiction_version else "") + "01"
    offset = len(header) + 10
    return header + f"DL{offset:04d}{len(body):04d}" + body


def test_published_2020_sample_parses_to_canonical_fields() -> None:
    record = parse_aamva(AAMVA_2020_SAMPLE)
    assert (record.version, record.iin, record.jurisdiction, record.country) == (10, "636000", "VA", "USA")
    assert record.jurisdiction_version == 0
    assert [s.type for s in record.subfiles] == ["DL", "ZV"]
    assert record.fields == {
        "document_number": "T64235789",
        "surname": "SAMPLE",
        "given_names": "MICHAEL JOHN",
        "date_of_birth": "1986-06-06",
        "sex": "M",
        "date_of_expiry": "2024-12-10",
        "date_of_issue": "2019-06-06",
        "address_street": "2300 WEST BROAD STREET",
        "address_city": "RICHMOND",
        "address_region": "VA",
        "address_postal_code": "23269",
        "issuing_region": "VA",
        "license_class": "D",
    }
    assert record.elements["ZVA"] == "01"  # the jurisdiction subfile is read too
    assert record.problems == ()


def test_published_2013_sample_version_8() -> None:
    record = parse_aamva(AAMVA_2013_SAMPLE)
    assert record.version == 8
    assert record.fields["date_of_expiry"] == "2012-12-10"
    assert record.fields["given_names"] == "MICHAEL JOHN"
    assert record.elements["DCU"] == "JR"


def test_version_3_given_names_in_dct_with_comma_or_space() -> None:
    common = [("DAQ", "123456789"), ("DCS", "DE LA CRUZ"), ("DBB", "01311980"), ("DCG", "USA")]
    comma = parse_aamva(build("636015", 3, [*common, ("DCT", "ANA,MARIA")]))
    space = parse_aamva(build("636015", 3, [*common, ("DCT", "ANA MARIA")]))
    assert comma.fields["given_names"] == space.fields["given_names"] == "ANA MARIA"
    assert comma.fields["surname"] == "DE LA CRUZ"
    assert comma.jurisdiction == "TX"


def test_version_1_full_name_year_first_dates_and_no_jurisdiction_version() -> None:
    payload = build(
        "636005",
        1,
        [
            ("DAQ", "102245737"),
            ("DAA", "SMITH,JOHN,QUINCY"),
            ("DAG", "123 MAIN ST"),
            ("DAI", "COLUMBIA"),
            ("DAJ", "SC"),
            ("DAK", "29201      "),
            ("DAR", "D"),
            ("DBA", "20250515"),
            ("DBB", "19800515"),
            ("DBC", "M"),
            ("DBD", "20170301"),
        ],
        jurisdiction_version=False,
    )
    record = parse_aamva(payload)
    assert (record.version, record.jurisdiction_version, record.jurisdiction) == (1, None, "SC")
    assert record.fields["surname"] == "SMITH"
    assert record.fields["given_names"] == "JOHN QUINCY"
    assert record.fields["date_of_birth"] == "1980-05-15"
    assert record.fields["license_class"] == "D"
    assert record.fields["address_postal_code"] == "29201"


def test_pre_standard_aamva_file_type_and_dollar_separated_name() -> None:
    payload = build("636010", 1, [("DAQ", "S123456789010"), ("DAA", "DOE$JANE$ANN"), ("DBB", "19750704")])
    payload = payload.replace("ANSI ", "AAMVA")
    record = parse_aamva(payload)
    assert record.file_type == "AAMVA"
    assert (record.fields["surname"], record.fields["given_names"]) == ("DOE", "JANE ANN")
    assert record.fields["date_of_birth"] == "1975-07-04"
    assert record.jurisdiction == "FL"


def test_canadian_licence_year_first_dates_padding_and_postal_code() -> None:
    payload = (
        "@\n\x1e\rANSI 636012030001DL00000367DLDCAG   \nDCBNONE      \nDBA20300603\n"
        "DCSTREMBLAY,                          \nDCTMARIE,ANNE      \nDBD20250607\nDBB19960603\nDBC2\n"
        "DAU170 CM\nDAG123 ST GEORGE ST E,           \nDAIFERGUS          \nDAJON\nDAKN1M3J6     \n"
        "DAQT1234-56789-01234\nDCGCAN\r"
    )
    record = parse_aamva(payload)
    assert (record.country, record.jurisdiction) == ("CAN", "ON")
    assert record.fields == {
        "document_number": "T1234-56789-01234",
        "surname": "TREMBLAY",
        "given_names": "MARIE ANNE",
        "date_of_birth": "1996-06-03",
        "sex": "F",
        "date_of_expiry": "2030-06-03",
        "date_of_issue": "2025-06-07",
        "address_street": "123 ST GEORGE ST E",
        "address_city": "FERGUS",
        "address_region": "ON",
        "address_postal_code": "N1M 3J6",
        "issuing_region": "ON",
        "license_class": "G",
    }


@pytest.mark.parametrize("declared", ["0000", "abac", "0042", "0039"])
def test_wrong_subfile_offsets_are_tolerated(declared: str) -> None:
    payload = build("636014", 9, [("DAQ", "D1234567"), ("DCS", "LEE"), ("DAC", "AMY"), ("DBB", "02291992")])
    payload = payload[:23] + declared + payload[27:]  # the DL designator's offset
    record = parse_aamva(payload)
    assert record.fields["document_number"] == "D1234567"
    assert record.fields["date_of_birth"] == "1992-02-29"


def test_keyboard_wedge_header_and_crlf_separators() -> None:
    payload = AAMVA_2020_SAMPLE.replace("@\n\x1e\r", "  @\r\n\x1e\r").replace("\n", "\r\n")
    record = parse_aamva(payload)
    assert record.fields["surname"] == "SAMPLE"
    assert record.fields["address_postal_code"] == "23269"


def test_bytes_payload_is_read_as_latin1() -> None:
    record = parse_aamva(build("636001", 10, [("DAQ", "123456789"), ("DCS", "MÜLLER")]).encode("latin-1"))
    assert record.fields["surname"] == "MÜLLER"


@pytest.mark.parametrize(("code", "sex"), [("1", "M"), ("2", "F"), ("9", "X"), ("M", "M"), ("F", "F")])
def test_sex_codes(code: str, sex: str) -> None:
    record = parse_aamva(build("636020", 10, [("DAQ", "123456789"), ("DCS", "KIM"), ("DBC", code)]))
    assert record.fields["sex"] == sex


def test_placeholders_are_not_values() -> None:
    record = parse_aamva(build("636020", 10, [("DAQ", "1"), ("DCS", "KIM"), ("DAC", "JO"), ("DAD", "NONE")]))
    assert record.fields["given_names"] == "JO"


def test_dates_in_the_other_order_than_the_country_are_still_read() -> None:
    # Some US jurisdictions write CCYYMMDD despite the standard.
    record = parse_aamva(build("636060", 4, [("DAQ", "123"), ("DCS", "ROE"), ("DBB", "19700131")]))
    assert record.fields["date_of_birth"] == "1970-01-31"
    assert parse_date("13131970", year_first=False) is None
    assert parse_date("00000000", year_first=True) is None


def test_postal_codes() -> None:
    assert format_postal_code("232690000  ") == "23269"
    assert format_postal_code("232691234  ") == "23269-1234"
    assert format_postal_code("23269      ") == "23269"
    assert format_postal_code("K1A0B1     ") == "K1A 0B1"
    assert format_postal_code("k1a 0b1") == "K1A 0B1"


@pytest.mark.parametrize(
    "payload",
    [
        "",
        "   ",
        "https://example.com/not-a-licence",
        "hello world, this is no barcode payload at all",
        "@\n\x1e\rANSI 636000100001DL00310000\r",  # a header and nothing else
        "\x00\x01\x02\xff" * 20,
    ],
)
def test_garbage_raises_a_value_error(payload: str) -> None:
    with pytest.raises(AamvaError) as raised:
        parse_aamva(payload)
    assert isinstance(raised.value, ValueError)


def test_repr_and_errors_never_show_values() -> None:
    record = parse_aamva(AAMVA_2020_SAMPLE)
    assert "SAMPLE" not in repr(record)
    assert "T64235789" not in repr(record)


def test_iin_table_round_trips_for_every_jurisdiction() -> None:
    assert IIN_JURISDICTIONS["636014"] == ("CA", "USA")
    assert IIN_JURISDICTIONS["636012"] == ("ON", "CAN")
    assert IIN_JURISDICTIONS["604428"] == ("QC", "CAN")
    for code, iin in JURISDICTION_IINS.items():
        assert IIN_JURISDICTIONS[iin][0] == code
    assert (
        len({code for code, _ in IIN_JURISDICTIONS.values()}) >= 60
    )  # 50 states, DC, territories, provinces
