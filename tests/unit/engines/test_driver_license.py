"""Driver licences (engines/licence/reader.py): barcode and front read together, cross-checked.

OCR costs about a second a page, so each synthetic licence is rendered and OCR'd once per module.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from typing import Any

import cv2
import numpy as np
import pytest

from engines.images import unrotate_bbox
from engines.layout import Line, PageText, page_from_ocr, sort_reading_order
from engines.licence.reader import (
    FrontValue,
    compare,
    looks_like_driver_license,
    parse_front_date,
    read_driver_license,
    read_front,
    respace_street,
)
from engines.ocr import get_ocr
from synth.documents import document_rng
from synth.driver_license import compose, sample_licence

Document = tuple[list[PageText], list[np.ndarray], dict[str, Any]]


def ocr(data: bytes) -> Document:
    image = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    lines = get_ocr().read_page(image)
    page = page_from_ocr(
        [(line.text, line.score, line.quad) for line in lines],
        width=image.shape[1],
        height=image.shape[0],
        page=1,
    )
    return [page], [image], {}


def licence_document(seed: int, layout: str, **changes: Any) -> Document:
    rng = document_rng(seed, 0)
    licence = sample_licence(rng)
    printed = replace(licence, **changes) if changes else None
    data, _, truth = compose(licence, rng, "clean", 0.0, printed=printed, layout=layout, container="stacked")
    pages, images, _ = ocr(data)
    return pages, images, truth


@pytest.fixture(scope="module")
def licences() -> dict[str, Document]:
    return {layout: licence_document(31, layout) for layout in ("colon", "captions")}


@pytest.mark.parametrize("layout", ["colon", "captions"])
def test_barcode_fields_are_read_and_the_front_agrees(licences: dict[str, Document], layout: str) -> None:
    """GIVEN a clean photocopy of both sides WHEN it is read THEN every field is the barcode's,
    confirmed by the front, with a box on the page."""
    pages, images, truth = licences[layout]
    result = read_driver_license(pages, images)
    assert result is not None
    assert {name: field.value for name, field in result.fields.items()} == truth["fields"]
    checks = {check.name: check for check in result.checks}
    assert checks["barcode_found"].passed
    assert checks["barcode_vs_front"].passed
    for field in result.fields.values():
        assert field.source == "barcode"
        assert field.page == 1
        assert field.bbox is not None and all(0.0 <= v <= 1.0 for v in field.bbox)
        assert field.bbox[0] < field.bbox[2] and field.bbox[1] < field.bbox[3]
    confirmed = [field for field in result.fields.values() if field.valid]
    assert len(confirmed) >= 10  # the front printed (and OCR read) most of them
    assert all(field.confidence > 0.95 for field in confirmed)


def test_front_alone_gives_ocr_fields_at_lower_confidence(licences: dict[str, Document]) -> None:
    """GIVEN no page image to decode a barcode from WHEN the text is read THEN the front's own
    fields come back, from OCR, less certain than barcode ones."""
    pages, _, truth = licences["colon"]
    result = read_driver_license(pages, [])
    assert result is not None
    checks = {check.name: check for check in result.checks}
    assert not checks["barcode_found"].passed
    assert all(field.source == "ocr" and field.confidence <= 0.75 for field in result.fields.values())
    for name in ("date_of_birth", "date_of_expiry", "document_number", "issuing_region", "sex"):
        assert result.fields[name].value == truth["fields"][name]


def test_a_front_that_contradicts_the_barcode_fails_the_cross_check() -> None:
    """GIVEN a card whose printed surname and birth date differ from its barcode WHEN it is read
    THEN the cross-check fails naming those fields (never their values)."""
    pages, images, truth = licence_document(
        32, "colon", surname="QUIGLEYWORTH", date_of_birth=date(1931, 11, 23), sex="X"
    )
    result = read_driver_license(pages, images)
    assert result is not None
    check = next(check for check in result.checks if check.name == "barcode_vs_front")
    assert not check.passed
    assert "surname" in check.detail and "date_of_birth" in check.detail
    assert "QUIGLEYWORTH" not in check.detail and "1931" not in check.detail
    assert result.fields["surname"].value == truth["fields"]["surname"]  # the barcode's value
    assert result.fields["surname"].valid is False
    assert result.fields["surname"].confidence < 0.5
    assert result.fields["document_number"].valid is True


def test_pages_that_are_no_licence_give_none() -> None:
    page = text_page(["ACME SUPPLIES LTD", "INVOICE NO 2024-118", "TOTAL DUE 1,240.00 USD", "THANK YOU"])
    assert read_driver_license([page], [np.full((600, 800, 3), 255, np.uint8)]) is None
    assert looks_like_driver_license([page]) < 0.2


def test_licence_text_looks_like_a_licence() -> None:
    page = text_page(
        ["CALIFORNIA", "DRIVER LICENSE", "DL D1234567", "EXP 08/31/2029", "LN SMITH", "DOB 08/31/1977"]
    )
    assert looks_like_driver_license([page]) >= 0.8
    passport = text_page(["PASSPORT", "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<"])
    assert looks_like_driver_license([passport]) == 0.0


def test_an_upside_down_front_is_read_in_the_right_order() -> None:
    """GIVEN the OCR lines of a card photographed upside down WHEN the front is read THEN the
    labels still find their values, and boxes point at the page as given."""
    texts = [
        ("TEXAS", 0.05),
        ("DRIVER LICENSE", 0.12),
        ("DL 12345678", 0.25),
        ("LN GARCIA", 0.35),
        ("FN MARIA ELENA", 0.45),
        ("DOB 02/14/1990", 0.55),
        ("EXP 02/14/2030", 0.65),
        ("SEX F", 0.75),
    ]
    upright = [Line(text, 0.99, (0.1, y, 0.1 + 0.03 * len(text), y + 0.05), 1) for text, y in texts]
    upside_down = [replace(line, bbox=unrotate_bbox(line.bbox, 180)) for line in upright]
    page = PageText(1, tuple(sort_reading_order(upside_down)), "ocr")
    front = read_front([page])
    assert front["surname"].value == "GARCIA"
    assert front["given_names"].value == "MARIA ELENA"
    assert front["date_of_birth"].value == "1990-02-14"
    assert front["issuing_region"].value == "TX"
    assert front["surname"].bbox[1] > 0.5  # "LN GARCIA" sits in the lower half of the turned page


def test_captions_above_values() -> None:
    rows = [
        [("NUMBER", 0.1), ("CLASS", 0.5)],
        [("A1234567", 0.1), ("D", 0.5)],
        [("DOB", 0.1), ("ISS", 0.35), ("EXP", 0.6)],
        [("2001/07/30", 0.1), ("2021/01/02", 0.35), ("2029/07/30", 0.6)],
    ]
    lines = [
        Line(text, 0.98, (x, 0.2 + 0.06 * r, x + 0.02 * len(text), 0.24 + 0.06 * r), 1)
        for r, row in enumerate(rows)
        for text, x in row
    ]
    front = read_front([PageText(1, tuple(sort_reading_order(lines)), "ocr")])
    assert front["document_number"].value == "A1234567"
    assert front["license_class"].value == "D"
    assert (front["date_of_birth"].value, front["date_of_issue"].value, front["date_of_expiry"].value) == (
        "2001-07-30",
        "2021-01-02",
        "2029-07-30",
    )


def test_compare_forgives_ocr_slips_but_not_other_values() -> None:
    def printed(value: str, *alternatives: str, score: float = 0.99) -> FrontValue:
        return FrontValue(value, 0.7, 1, (0, 0, 1, 1), alternatives, score)

    assert compare("surname", "VON THOMAS", printed("VONTHOMAS")) == "agree"  # a dropped space
    assert compare("surname", "SMITH", printed("1SMITH")) == "agree"  # a glued label
    assert compare("document_number", "D1234567", printed("D12345G7")) == "close"  # 6 read as G
    assert compare("date_of_birth", "1990-02-03", printed("1990-03-02", "1990-02-03")) == "agree"
    assert compare("date_of_birth", "1990-02-03", printed("1990-02-08")) == "close"
    assert compare("date_of_birth", "1990-02-03", printed("1961-11-23")) == "disagree"
    assert compare("date_of_birth", "1990-02-03", printed("1961-11-23", score=0.7)) == "unsure"
    assert compare("surname", "SMITH", printed("JOHNSON")) == "disagree"
    assert compare("license_class", "6", printed("9")) == "close"  # upside down


def test_front_dates_and_streets() -> None:
    assert parse_front_date("08/31/1977", "USA") == ["1977-08-31"]
    assert parse_front_date("1977-08-31", "CAN") == ["1977-08-31"]
    assert parse_front_date("03/04/2020", "USA") == ["2020-03-04", "2020-04-03"]
    assert parse_front_date("31 08 1977", None) == ["1977-08-31"]
    assert parse_front_date("2020", None) == []
    assert respace_street("12540ORCHARDPL") == "12540 ORCHARD PL"
    assert respace_street("123 MAIN ST") == "123 MAIN ST"
    assert respace_street("5500 3RD BLVD #173A") == "5500 3RD BLVD #173A"
    assert respace_street("4714 NFRANKLIN WAY") == "4714 N FRANKLIN WAY"
    assert respace_street("4714WMAIN ST") == "4714 W MAIN ST"
    assert respace_street("12 WRIGHT AVE") == "12 WRIGHT AVE"
    assert respace_street("12 NORTH ST") == "12 NORTH ST"


def text_page(texts: list[str]) -> PageText:
    lines = [Line(text, 0.99, (0.1, 0.05 + 0.08 * i, 0.8, 0.1 + 0.08 * i), 1) for i, text in enumerate(texts)]
    return PageText(1, tuple(lines), "ocr")


def test_a_comma_read_as_a_full_stop_stays_out_of_the_city() -> None:
    """GIVEN a front whose address line OCR read "COLUMBUS. OH 43289-9233" THEN the city is
    COLUMBUS: no city ends with a full stop, and the comma before the state was read as one."""
    page = text_page(
        [
            "OHIO",
            "DRIVER LICENSE",
            "DL SB593920",
            "LN JONES",
            "8 4714 N FRANKLIN WAY",
            "COLUMBUS. OH 43289-9233",
        ]
    )
    front = read_front([page])
    assert (front["address_city"].value, front["address_region"].value) == ("COLUMBUS", "OH")
