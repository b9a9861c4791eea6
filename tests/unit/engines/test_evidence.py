"""Evidence per field (issue 47): what the engine attaches, and what an approval needs."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from engines.evidence import RULES, engine_evidence, sufficient, weight_of
from engines.layout import Line, PageText
from engines.pipeline import read_document
from engines.plausibility import implausible, party_reason
from engines.spec import CATALOGUE
from engines.stages.base import DocumentState
from engines.stages.evidence import Evidence
from engines.types import Check, EngineContext, EngineResult, FieldResult
from media.preprocessing import PageLimits, prepare_pages

SAMPLES = Path(__file__).resolve().parents[3] / "samples"

TODAY = dt.date(2026, 12, 7)


def _field(value: str | None, source: str = "ocr", bbox=(0.6, 0.5, 0.8, 0.53), valid=None) -> FieldResult:
    return FieldResult(value, 0.99, 1, bbox, source, valid)


def test_every_field_kind_has_a_requirement_and_every_kind_a_weight() -> None:
    kinds = {spec.kind for spec in CATALOGUE.fields.values()}
    assert kinds <= set(RULES.requirements)
    assert all(kind.weight > 0 for kind in RULES.kinds.values())


def test_a_score_alone_is_no_evidence() -> None:
    assert not sufficient("total_amount", ())
    assert not sufficient("merchant_name", ("text_layer",)), (
        "a text layer spells a name, it does not choose it"
    )
    assert sufficient("total_amount", ("arithmetic",))
    assert sufficient("surname", ("mrz_check_digits",))
    assert sufficient("merchant_name", ("two_readings", "familiar_layout"))
    assert not sufficient("merchant_name", ("two_readings",))


def test_an_absent_value_needs_evidence_of_its_absence() -> None:
    assert not sufficient("subtotal", ("at_label",), present=False)
    assert sufficient("subtotal", ("familiar_layout",), present=False), "one piece of evidence of absence"
    assert not sufficient("subtotal", (), present=False)
    assert weight_of("personal_number", ("mrz_check_digits",), present=False) >= RULES.needed


def test_engine_evidence_follows_sources_and_passing_checks() -> None:
    fields = {
        "document_number": _field("L898902C3", source="mrz", valid=True),
        "total_amount": _field("12.00"),
        "subtotal": _field("10.00"),
        "iban_or_account_number": _field("DE89370400440532013000", source="text_layer"),
    }
    checks = [
        Check("mrz_check_digits", True),
        Check("totals_arithmetic", True),
        Check("iban_checksum", False),
    ]
    found = engine_evidence(fields, checks)
    assert found["document_number"].evidence == ("mrz_check_digits",)
    assert "arithmetic" in found["total_amount"].evidence
    assert found["iban_or_account_number"].evidence == ("text_layer",), "a failed checksum is no evidence"
    failed = engine_evidence(fields, [Check("mrz_check_digits", False), Check("totals_arithmetic", False)])
    assert failed["document_number"].evidence == () and failed["total_amount"].evidence == ()


def _state(lines: list[Line], fields: dict[str, FieldResult]) -> DocumentState:
    result = EngineResult("invoice", 0.99, 1, fields)
    return DocumentState(pages=(b"",), texts=(PageText(1, tuple(lines), "ocr"),), result=result)


def test_a_value_right_of_or_under_its_label_is_at_label_and_one_elsewhere_is_not() -> None:
    line = Line("Total due: 12.00", 0.99, (0.50, 0.50, 0.80, 0.53), 1)
    caption = Line("Bill to", 0.99, (0.10, 0.20, 0.25, 0.23), 1)
    name = Line("MARIA LOPEZ", 0.99, (0.10, 0.235, 0.30, 0.265), 1)
    far = Line("NOT A NAME", 0.99, (0.10, 0.40, 0.30, 0.43), 1)
    fields = {
        "total_amount": _field("12.00", bbox=line.span_bbox(11, 16)),
        "customer_name": _field("MARIA LOPEZ", bbox=name.bbox),
        "vendor_name": _field("NOT A NAME", bbox=far.bbox),
    }
    state = Evidence().run(_state([caption, name, line, far], fields), EngineContext(today=TODAY))
    assert state.result is not None
    assert "at_label" in state.result.fields["total_amount"].evidence
    assert "at_label" in state.result.fields["customer_name"].evidence
    assert "at_label" not in state.result.fields["vendor_name"].evidence


def test_a_value_three_lines_under_a_caption_is_not_at_it() -> None:
    caption = Line("Bill to", 0.99, (0.10, 0.20, 0.25, 0.23), 1)
    value = Line("MARIA LOPEZ", 0.99, (0.10, 0.32, 0.30, 0.35), 1)
    fields = {"customer_name": _field("MARIA LOPEZ", bbox=value.bbox)}
    state = Evidence().run(_state([caption, value], fields), EngineContext(today=TODAY))
    assert state.result is not None and state.result.fields["customer_name"].evidence == ()


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("full_name", "SUPPORT DEPARTMENT"),
        ("issuer_name", "NOUS CONTACTER"),
        ("customer_name", "ACCOUNT REF"),
        ("vendor_name", "INVOICE DATE."),
        ("vendor_name", "GMBH & CO. KG"),
        ("account_holder", "ACME TRADING LTD"),
        ("customer_name", "/ COMPANY"),
    ],
)
def test_what_is_no_party_is_implausible(field: str, value: str) -> None:
    assert party_reason(field, value) is not None


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("full_name", "MICHAEL WHITE"),
        ("issuer_name", "FJORDLINE WATER SERVICES"),
        ("vendor_name", "LIEFERANT GMBH & CO. KG"),
        ("merchant_name", "HOME MASTER HARDWARE & ELECTRICAL"),
        ("customer_name", "ACME TRADING LTD"),
    ],
)
def test_names_of_parties_are_plausible(field: str, value: str) -> None:
    assert party_reason(field, value) is None


def test_dates_out_of_their_order_and_cents_of_a_currency_without_them_are_implausible() -> None:
    fields = {
        "invoice_date": _field("2026-05-02"),
        "due_date": _field("2026-04-01"),
        "currency": _field("JPY"),
        "total_amount": _field("1200.50"),
        "subtotal": _field("1000.00"),
    }
    found = implausible(fields, today=TODAY)
    assert set(found) == {"invoice_date", "due_date", "total_amount"}
    assert implausible({"document_date": _field("2027-01-01")}, today=TODAY) == {
        "document_date": "dated after the day it is read"
    }


def test_the_reference_engine_attaches_evidence_to_a_digital_invoice() -> None:
    pages = prepare_pages(
        (SAMPLES / "00006-invoice.pdf").read_bytes(),
        "application/pdf",
        PageLimits(max_pages=5, max_image_pixels=40_000_000, max_side=2400),
    )
    layers = [page.text_layer for page in pages]
    result = read_document([p.image for p in pages], text_layer=layers, context=EngineContext(today=TODAY))
    total = result.fields["total_amount"]
    assert total.value is not None
    assert {"text_layer", "arithmetic"} <= set(total.evidence)


def test_a_currency_printed_on_the_totals_row_is_at_its_label() -> None:
    fields = {
        "currency": _field("EUR", bbox=(0.55, 0.70, 0.60, 0.72)),
        "total_amount": _field("12.00", bbox=(0.62, 0.695, 0.75, 0.725)),
        "tax_amount": _field("2.00", bbox=(0.62, 0.60, 0.75, 0.63)),
    }
    assert "at_label" in engine_evidence(fields, [])["currency"].evidence
    elsewhere = {**fields, "currency": _field("EUR", bbox=(0.55, 0.10, 0.60, 0.12))}
    assert "at_label" not in engine_evidence(elsewhere, [])["currency"].evidence
