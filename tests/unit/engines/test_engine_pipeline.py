"""The engine entry point, read_document (engines/pipeline.py), on pages made on the spot.

Pages are drawn with an installed monospaced font (OCR-B where present), so these tests need
no binary fixtures; the real specimen images are read in test_mrz_reader_real.py.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from mrz_pages import blank_page, mrz_font, render_page

from engines import ENGINE_NAME, ENGINE_VERSION
from engines.images import decode_image
from engines.layout import Line, PageText, page_from_ocr
from engines.mrz.reader import MrzReading, read_mrz
from engines.pipeline import read_document
from engines.stages.identity import doubt_states_a_letter_apart, identity_result, may_hold_mrz
from engines.stages.second_look import reads_better, unverified_where_readings_differ
from engines.types import Check, EngineContext, EngineError, EngineResult, FieldResult

pytestmark = pytest.mark.skipif(mrz_font() is None, reason="no monospaced font installed to draw an MRZ")

TD3 = ("P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO7408122F1204159ZE184226B<<<<<10")
TD1 = ("I<UTOD231458907<<<<<<<<<<<<<<<", "7408122F1204159UTO<<<<<<<<<<<6", "ERIKSSON<<ANNA<MARIA<<<<<<<<<<")
SPECIMEN = {
    "surname": "ERIKSSON",
    "given_names": "ANNA MARIA",
    "nationality": "UTO",
    "issuing_country": "UTO",
    "date_of_birth": "1974-08-12",
    "sex": "F",
    "date_of_expiry": "2012-04-15",
}


@pytest.fixture(scope="module")
def passport_page() -> bytes:
    return render_page(TD3)


def test_passport_page_gives_every_mrz_field_with_its_source_page_and_validity(passport_page: bytes) -> None:
    result = read_document([passport_page])
    assert result.document_type == "passport"
    assert {k: f.value for k, f in result.fields.items()} == {
        **SPECIMEN,
        "document_number": "L898902C3",
        "personal_number": "ZE184226B",
    }
    for name, field in result.fields.items():
        assert field.source == "mrz" and field.page == 1, name
        assert 0.0 <= field.confidence <= 1.0, name
    assert result.fields["date_of_birth"].valid is True
    assert result.fields["surname"].valid is None
    checks = {c.name: c.passed for c in result.checks}
    assert checks["mrz_check_digits"]
    # the page prints no visual zone: the names stay unchecked, and the check says so
    assert checks["mrz_matches_visual_zone"] is False
    assert result.engine_name == ENGINE_NAME and result.engine_version == ENGINE_VERSION
    assert {"ocr", "parse"} <= result.timings_ms.keys()


def test_field_boxes_lie_on_the_mrz_lines_at_the_bottom_of_the_page(passport_page: bytes) -> None:
    fields = read_document([passport_page]).fields
    for name, field in fields.items():
        assert field.bbox is not None, name
        x0, y0, x1, y1 = field.bbox
        assert 0 <= x0 < x1 <= 1 and 0 <= y0 < y1 <= 1, name
        assert y0 > 0.5, name  # the MRZ is drawn in the lower half
    # line 1 holds the names, line 2 the numbers; the surname starts left of the given names
    assert fields["surname"].bbox[1] < fields["document_number"].bbox[1]  # type: ignore[index]
    assert fields["surname"].bbox[0] < fields["given_names"].bbox[0]  # type: ignore[index]


def test_td1_card_is_an_id_card() -> None:
    result = read_document([render_page(TD1, image_format="JPEG")])
    assert result.document_type == "id_card"
    assert {k: f.value for k, f in result.fields.items()} == {**SPECIMEN, "document_number": "D23145890"}


def test_failed_check_digit_is_reported_by_name_without_any_value() -> None:
    wrong_birth_check = (TD3[0], TD3[1][:19] + "3" + TD3[1][20:])
    result = read_document([render_page(wrong_birth_check)])
    check = next(c for c in result.checks if c.name == "mrz_check_digits")
    assert not check.passed
    assert "date_of_birth" in check.detail
    values = {str(f.value) for f in result.fields.values()} | {"740812", "7408122", "3"}
    for value in values:
        assert value not in check.detail
    birth = result.fields["date_of_birth"]
    assert birth.valid is False
    assert birth.confidence < result.fields["date_of_expiry"].confidence


def test_page_without_mrz_is_classified_by_its_words() -> None:
    result = read_document([blank_page()])  # "INVOICE 2024-117 TOTAL 12.50 EUR", no MRZ
    assert result.document_type == "invoice"
    assert not any(f.source == "mrz" for f in result.fields.values())
    assert "mrz_found" not in {c.name for c in result.checks}


def test_mrz_on_the_second_page_is_reported_on_page_two(passport_page: bytes) -> None:
    result = read_document([blank_page(), passport_page])
    assert result.pages == 2
    assert result.fields["document_number"].page == 2


def test_undecodable_page_is_refused() -> None:
    with pytest.raises(EngineError) as error:
        read_document([b"%PDF-1.7 not an image"])
    assert error.value.code == "unreadable_image"


def test_no_pages_is_refused() -> None:
    with pytest.raises(EngineError):
        read_document([])


def test_result_survives_its_json_round_trip(passport_page: bytes) -> None:
    from engines.types import EngineResult

    result = read_document([passport_page])
    assert EngineResult.from_json(result.to_json()) == result


@pytest.mark.parametrize("degrees", [90, 180])
def test_page_turned_sideways_or_upside_down_is_still_read(passport_page: bytes, degrees: int) -> None:
    import io

    from PIL import Image

    turned = io.BytesIO()
    Image.open(io.BytesIO(passport_page)).rotate(degrees, expand=True).save(turned, format="PNG")
    upright = read_document([passport_page]).fields["surname"].bbox
    result = read_document([turned.getvalue()])
    assert result.fields["document_number"].value == "L898902C3"
    assert result.fields["surname"].value == "ERIKSSON"
    # the box is on the turned page where the surname is (PIL turns counter-clockwise)
    assert upright is not None
    x0, y0, x1, y1 = upright
    expected = (y0, 1 - x1, y1, 1 - x0) if degrees == 90 else (1 - x1, 1 - y1, 1 - x0, 1 - y0)
    assert result.fields["surname"].bbox == pytest.approx(expected, abs=0.02)


def _dense_page(*extra: str) -> PageText:
    """A page of 14 invoice rows and the ``extra`` lines below them, as whole-page OCR gives it."""
    rows = [f"Item {n}  Consulting hours  {n * 3}.00 EUR" for n in range(1, 15)] + list(extra)
    lines = []
    for i, text in enumerate(rows):
        top = 20.0 * i
        lines.append(
            (text, 0.99, np.array([[0, top], [400, top], [400, top + 15], [0, top + 15]], np.float32))
        )
    return page_from_ocr(lines, width=500, height=400, page=1)


def test_an_iban_on_a_dense_page_is_no_reason_for_the_mrz_search() -> None:
    """IBANs are as digit-rich and unspaced as MRZ lines, and stand on most invoices: the search
    (a second detection and recognition of the page) runs for MRZ-like lines that are no IBAN."""
    assert not may_hold_mrz(_dense_page())
    assert not may_hold_mrz(_dense_page("IBAN FR7630006000011234567890189"))
    assert not may_hold_mrz(_dense_page("FR76 3000 6000 0112 3456 7890 189"))
    assert may_hold_mrz(_dense_page(*TD3))


def _reading(document_number: str, *, surname: str = "LI HASSAN") -> EngineResult:
    fields = {
        "document_number": FieldResult(document_number, 0.99, 1, None, "mrz", True),
        "surname": FieldResult(surname, 0.9, 1, None, "mrz", None),
    }
    return EngineResult("id_card", 0.99, 1, fields, [Check("mrz_check_digits", True)])


def test_a_value_two_readings_verify_differently_is_verified_by_neither() -> None:
    """GIVEN a shaken photo read as taken (JW38750) and deblurred (JM38750), the check digit
    passing both times, since it weighs M and W alike
    WHEN the readings are reconciled
    THEN the kept document number is invalid and a failed check names it for the reviewer."""
    kept = unverified_where_readings_differ(_reading("JM38750"), _reading("JW38750"))
    assert kept.fields["document_number"].valid is False
    assert kept.fields["surname"].valid is None
    failed = [c for c in kept.checks if not c.passed]
    assert [(c.name, c.detail.endswith("document_number")) for c in failed] == [("readings_agree", True)]


def test_readings_that_differ_only_where_nothing_verified_them_are_left_alone() -> None:
    """A name no check digit guards may differ between a blurred and a deblurred reading: the
    better reading is kept as it is (its own confidence and checks speak for it)."""
    kept = _reading("JM38750", surname="LI HASSAN")
    assert unverified_where_readings_differ(kept, _reading("JM38750", surname="LI HASSAM")) == kept


def _business_reading(document_type: str, confidence: float, fields: int) -> EngineResult:
    values = {f"field_{i}": FieldResult(f"value {i}", 0.95, 1, None, "ocr", None) for i in range(fields)}
    return EngineResult(document_type, confidence, 1, values, [])


def test_readings_of_different_types_are_weighed_by_their_classification() -> None:
    """GIVEN a scan taken for a shaken photo, read as taken (an invoice, surely: 9 fields) and
    deblurred (a statement, barely: 11 fields)
    WHEN the two readings are weighed
    THEN the surer classification wins, not the schema with more fields; readings of one type
    are still weighed by their fields."""
    invoice = _business_reading("invoice", 0.9, 9)
    statement = _business_reading("bank_statement", 0.36, 11)
    assert not reads_better(statement, invoice)
    assert reads_better(invoice, statement)
    assert reads_better(_business_reading("invoice", 0.5, 9), _business_reading("invoice", 0.9, 5))
    assert reads_better(_business_reading("invoice", 0.5, 1), _business_reading("other", 0.9, 0))


def test_an_mrz_surname_one_ocr_confusion_from_a_common_name_is_doubted(passport_page: bytes) -> None:
    """GIVEN a passport whose MRZ reads SIDDIOUI (OCR-B's Q, its tail small, read as O), a
    spelling no one has one confusion from SIDDIQUI, and a page that does not print it
    WHEN the document is read
    THEN the surname is respelled SIDDIQUI but keeps half the confidence a common name gets,
    and the failed check name_spelling sends it to a person; the common ERIKSSON is left alone."""
    doubted_line = "P<UTOSIDDIOUI<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<"
    doubted = read_document([render_page((doubted_line, TD3[1]))])
    plain = read_document([passport_page])
    assert doubted.fields["surname"].value == "SIDDIQUI"
    assert doubted.fields["surname"].confidence < 0.6 * plain.fields["surname"].confidence
    assert [c.passed for c in doubted.checks if c.name == "name_spelling"] == [False]
    assert not [c for c in plain.checks if c.name == "name_spelling"]


def _unsure_number_reading(passport_page: bytes) -> MrzReading:
    """The passport's MRZ reading with its document number's OCR unsure (a repaired character)."""
    reading = read_mrz(decode_image(passport_page))
    assert reading is not None
    number = replace(reading.fields["document_number"], confidence=0.82)
    return replace(reading, fields={**reading.fields, "document_number": number})


def test_a_verified_mrz_number_its_print_repeats_is_confirmed(passport_page: bytes) -> None:
    """GIVEN an MRZ number the check digit verified though its OCR was unsure (0.82)
    WHEN the printed page repeats it character for character, or prints another number
    THEN two readings in two typefaces agree and the number's raw confidence rises to 0.98;
    without the print it stays as the MRZ's OCR said."""
    reading = _unsure_number_reading(passport_page)

    def number(*printed: str) -> FieldResult:
        lines = tuple(
            Line(t, 0.95, (0.1, 0.1 + i / 20, 0.6, 0.14 + i / 20), 1) for i, t in enumerate(printed)
        )
        result = identity_result(
            reading, PageText(1, lines, "ocr"), pages=1, hint=None, ctx=EngineContext.from_environment()
        )
        return result.fields["document_number"]

    assert number("PASSPORT", "Document No. L898902C3").confidence == 0.98
    assert number("PASSPORT", "Document No. X123456").confidence == 0.82
    assert number("PASSPORT").confidence == 0.82


def _number_reading(passport_page: bytes, probabilities: dict[str, float]) -> MrzReading:
    """The passport's MRZ reading (number L898902C3) with what the recogniser thought of its
    sixth character, the 0 that the check digit cannot tell from an A, K or U (all weigh 0)."""
    reading = read_mrz(decode_image(passport_page))
    assert reading is not None
    number = reading.fields["document_number"]
    assert number.value == "L898902C3"
    alternatives = tuple(probabilities if i == 5 else {c: 0.99} for i, c in enumerate(number.value))
    return replace(
        reading, fields={**reading.fields, "document_number": replace(number, alternatives=alternatives)}
    )


@pytest.mark.parametrize(
    ("probabilities", "value", "valid"),
    [
        ({"0": 0.994, "U": 0.005}, "L898902C3", False),  # the MRZ was sure: a person decides
        ({"0": 0.80, "U": 0.19}, "L8989U2C3", True),  # the MRZ was unsure: the print settles it
    ],
)
def test_the_print_overrules_the_mrz_number_only_where_its_recogniser_was_unsure(
    passport_page: bytes, probabilities: dict[str, float], value: str, valid: bool
) -> None:
    """GIVEN an MRZ number whose print, read in another typeface, differs at a character the
    check digit cannot tell apart (0 and U weigh alike)
    WHEN the MRZ's recogniser gave the printed character almost no chance, or a fair one
    THEN a sure MRZ keeps its reading, doubted, with a failed check; an unsure one takes the
    print's (an OCR-B G read at 0.994 was once overruled by the print's 6 and approved)."""
    reading = _number_reading(passport_page, probabilities)
    lines = (
        Line("PASSPORT", 0.95, (0.1, 0.1, 0.6, 0.14), 1),
        Line("No. L8989U2C3", 0.95, (0.1, 0.2, 0.6, 0.24), 1),
    )
    result = identity_result(
        reading, PageText(1, lines, "ocr"), pages=1, hint=None, ctx=EngineContext.from_environment()
    )
    number = result.fields["document_number"]
    assert (number.value, number.valid) == (value, valid)
    assert [c.passed for c in result.checks if c.name == "mrz_check_digits"] == [valid]


def test_an_mrz_nationality_no_state_has_is_invalid() -> None:
    """GIVEN a passport whose MRZ gives a nationality no state or organisation has (JJB), which
    repair finds no known code near
    THEN the nationality is read as printed but invalid, so a person looks at it (a shifted line
    read IRL as RLZ and it was once taken at full confidence)."""
    line2 = "L898902C36JJB7408122F1204159ZE184226B<<<<<10"
    result = read_document([render_page((TD3[0], line2))])
    nationality = result.fields["nationality"]
    assert (nationality.value, nationality.valid) == ("JJB", False)
    assert result.fields["issuing_country"].valid is not False  # UTO, the specimen state, is known


@pytest.mark.parametrize("number", ["OO105523", "00105523"])
def test_a_number_opening_with_two_o_or_zeros_goes_to_a_person(number: str) -> None:
    """GIVEN a passport whose document number opens with two letters O, or two zeros, which OCR
    reads alike (a generated OO105523 was read 00105523 and approved at 0.993)
    THEN the number is not verified whichever way it is read: O weighs 24 and 0 nothing, and at
    weights 7 and 3 two swaps leave the check digit as it was."""
    from engines.mrz.checkdigit import check_digit

    field = f"{number}<"
    composite = f"{field}{check_digit(field)}UTO7408122F1204159ZE184226B<<<<<1"
    line2 = composite + check_digit(composite[0:10] + composite[13:20] + composite[21:43])
    result = read_document([render_page((TD3[0], line2))])
    read = result.fields["document_number"]
    assert read.value is not None and read.value.replace("O", "0") == "00105523"
    assert read.valid is False
    assert [c.detail for c in result.checks if c.name == "mrz_check_digits"] == [
        "the document_number opens with two characters each O or 0, which the check digit cannot tell"
    ]
    clean = read_document([render_page(TD3)]).fields["document_number"]
    assert clean.valid is True  # a number opening otherwise keeps its verification


def test_an_issuing_state_page_ocr_reads_as_another_state_goes_to_a_person(passport_page: bytes) -> None:
    """GIVEN a passport whose MRZ reader read the issuing state UTO, and a page whose own OCR read
    the MRZ's first line with URY (Uruguay) there, or with UTO
    THEN a state two readers read as two real states is invalid with a failed check (a clean card
    of seed 74 read HND for IND was once approved); an agreeing page leaves it alone."""
    reading = read_mrz(decode_image(passport_page))
    assert reading is not None

    def result(first_line: str) -> EngineResult:
        lines = (
            Line("PASSPORT", 0.95, (0.1, 0.1, 0.6, 0.14), 1),
            Line(first_line, 0.9, (0.1, 0.8, 0.9, 0.84), 1),
        )
        return identity_result(
            reading, PageText(1, lines, "ocr"), pages=1, hint=None, ctx=EngineContext.from_environment()
        )

    disputed = result("P<URYERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<")
    assert (disputed.fields["issuing_country"].value, disputed.fields["issuing_country"].valid) == (
        "UTO",
        False,
    )
    assert [c.passed for c in disputed.checks if c.name == "mrz_read_alike_by_page_ocr"] == [False]
    agreeing = result(TD3[0])
    assert agreeing.fields["issuing_country"].valid is not False
    assert [c.passed for c in agreeing.checks if c.name == "mrz_read_alike_by_page_ocr"] == [True]


def test_a_photo_whose_small_print_nothing_classifies_is_read_again_enlarged(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """GIVEN a generated phone photo of a water bill (blurred, downscaled to half, its captions in
    small grey print) whose first reading classifies as nothing (the first Classify stage made to
    answer "other", as it does where OCR at the usual size made out no word: the fitted model
    reads this photo at once)
    WHEN the document is read
    THEN it is read a second time enlarged, and the fitted model names that reading a proof of
    address."""
    from engines.classify import Classification
    from engines.spec import DOCUMENT_TYPES
    from engines.stages import document_type
    from synth.documents import document_rng, generate_document

    unsure = Classification("other", 0.2, dict.fromkeys(DOCUMENT_TYPES, 0.1) | {"other": 0.2})
    monkeypatch.setattr(document_type, "classify_text", lambda pages: unsure)
    doc = generate_document(document_rng(27, 96), kind="proof_of_address", profile="mixed", severity=1.0)
    result = read_document([doc.image])
    assert result.document_type == "proof_of_address"
    assert result.document_type_confidence > unsure.confidence


def test_a_receipt_of_several_pages_is_in_doubt_as_one() -> None:
    """GIVEN a till receipt's text, once as one page and once followed by a second page (as an
    invoice whose first page went unread leaves its item table and totals to be read)
    THEN both read as receipts, but the type of the two-page one is in doubt: a till's receipt
    is one slip."""
    import io

    from PIL import Image

    from engines.layout import Line, text_layer_payload
    from engines.pipeline import read_document

    texts = [
        "GREENFIELD MARKET", "12 High Street, Leeds", "Date: 14/03/2024 Time: 10:42",
        "Milk 2L 1.25", "Bread 1.10", "SUBTOTAL 2.35", "VAT 0.00", "TOTAL 2.35",
        "CASH 5.00", "CHANGE 2.65", "Thank you for shopping with us",
    ]  # fmt: skip
    layer = text_layer_payload(
        [Line(t, 1.0, (0.1, 0.05 + 0.05 * i, 0.6, 0.08 + 0.05 * i), 1) for i, t in enumerate(texts)]
    )
    blank = io.BytesIO()
    Image.new("RGB", (400, 600), (255, 255, 255)).save(blank, format="PNG")
    one = read_document([blank.getvalue()], text_layer=[layer])
    two = read_document([blank.getvalue()] * 2, text_layer=[layer, layer])
    assert one.document_type == two.document_type == "receipt"
    assert one.document_type_confidence > 0.8
    assert two.document_type_confidence <= 0.5


@pytest.mark.parametrize(
    ("nationality", "issuer", "doubted"),
    [
        ("MLI", "MLT", "nationality"),  # a T read as I: Mali for Malta
        ("DEU", "DFU", "issuing_country"),  # the less sure of the two is the one in doubt
        ("SYR", "DEU", None),  # a Syrian's German travel document: codes wholly different
        ("MLT", "MLT", None),
    ],
)
def test_nationality_and_issuer_a_letter_apart_are_in_doubt(
    nationality: str, issuer: str, doubted: str | None
) -> None:
    """GIVEN an MRZ whose nationality and issuing state differ by one letter (both real codes, no
    check digit guarding either)
    THEN the less sure of the two is no longer valid, so a person looks; wholly different codes
    are a real case and stay as read."""
    fields = {
        "nationality": FieldResult(
            nationality, 0.64 if doubted == "nationality" else 0.97, 1, None, "mrz", True
        ),
        "issuing_country": FieldResult(
            issuer, 0.6 if doubted == "issuing_country" else 0.96, 1, None, "mrz", True
        ),
    }
    out = doubt_states_a_letter_apart(fields)
    assert {name for name, f in out.items() if f.valid is False} == ({doubted} if doubted else set())
