"""synth.business and its wiring into synth.documents / synth.generate.

Composing a document is cheap (milliseconds); rasterising and degrading it is not, so most
tests work on compositions and only a few render whole files.
"""

from __future__ import annotations

import importlib
import io
import json
import re
import sys
import types
from decimal import Decimal

import numpy as np
import pytest
from pypdf import PdfReader
from schwifty import IBAN

from synth import business
from synth.business import common
from synth.business.output import choose_rendition, render
from synth.documents import (
    ALL_KINDS,
    BUSINESS_KINDS,
    KindUnavailable,
    available_kinds,
    document_rng,
    generate_document,
)
from synth.generate import main

MODULES = {
    "receipt": "synth.business.receipt",
    "invoice": "synth.business.invoice",
    "proof_of_address": "synth.business.address",
    "bank_statement": "synth.business.statement",
    "other": "synth.business.other",
}
ADDRESS = {"full_name", "address_street", "address_city", "address_region", "address_postal_code"}
CANONICAL = {  # ARCHITECTURE §3.2
    "receipt": {"merchant_name", "date", "currency", "total_amount", "tax_amount"},
    "invoice": {
        "vendor_name",
        "invoice_number",
        "invoice_date",
        "due_date",
        "customer_name",
        "currency",
        "subtotal",
        "tax_amount",
        "total_amount",
    },
    "proof_of_address": ADDRESS | {"document_date", "issuer_name"},
    "bank_statement": ADDRESS
    | {
        "document_date",
        "issuer_name",
        "account_holder",
        "iban_or_account_number",
        "statement_period_start",
        "statement_period_end",
    },
    "other": set(),
}
ALWAYS = {  # printed on every document of the type
    "receipt": {"merchant_name", "date", "currency", "total_amount"},
    "invoice": {"vendor_name", "invoice_number", "invoice_date", "customer_name", "currency", "total_amount"},
    "proof_of_address": CANONICAL["proof_of_address"] - {"address_region"},
    "bank_statement": CANONICAL["bank_statement"] - {"address_region"},
    "other": set(),
}
DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
AMOUNT = re.compile(r"^-?\d+\.\d{2}$")


def compose(kind: str, seed: int):
    return importlib.import_module(MODULES[kind]).compose(np.random.default_rng(seed))


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text)


@pytest.mark.parametrize("kind", BUSINESS_KINDS)
def test_each_type_produces_its_canonical_fields_in_canonical_formats(kind):
    """GIVEN 40 compositions of a type THEN the truth holds only §3.2 fields of that type, the
    ones every such document prints are always there, and dates, amounts, currencies and names
    are in the §3.1 forms."""
    for seed in range(40):
        composition = compose(kind, seed)
        fields = composition.fields
        assert composition.document_type == kind
        assert set(fields) <= CANONICAL[kind]
        assert ALWAYS[kind] <= set(fields)
        for name, value in fields.items():
            if "date" in name or name.startswith("statement_period"):
                assert DATE.match(value), (name, value)
            elif name in ("total_amount", "subtotal", "tax_amount"):
                assert AMOUNT.match(value), (name, value)
            elif name == "currency":
                assert value in {"EUR", "USD", "GBP", "CAD", "CHF"}
            elif name != "invoice_number":
                assert value == value.upper() and "  " not in value and value == value.strip(), (name, value)
            assert composition.printed[name], name  # every truth field was printed somewhere


def test_layouts_languages_and_countries_vary():
    """GIVEN 60 documents of each type THEN each type shows at least 4 layouts, and together they
    cover the six label languages and the nine countries."""
    languages, countries = set(), set()
    for kind in BUSINESS_KINDS:
        layouts = set()
        for seed in range(60):
            composition = compose(kind, seed)
            layouts.add(composition.layout)
            languages.add(composition.meta["language"])
            countries.add(composition.meta["country"])
        assert len(layouts) >= 4, (kind, layouts)
    assert languages == {"en", "de", "fr", "es", "it", "nl"}
    assert countries == {"US", "CA", "GB", "DE", "FR", "ES", "IT", "NL", "CH"}


def test_invoice_subtotal_plus_tax_equals_total_to_the_cent():
    for seed in range(80):
        fields = compose("invoice", seed).fields
        tax = Decimal(fields.get("tax_amount", "0"))
        assert Decimal(fields["subtotal"]) + tax == Decimal(fields["total_amount"]), fields


def test_receipt_tax_is_omitted_exactly_when_not_printed():
    seen = set()
    for seed in range(80):
        composition = compose("receipt", seed)
        seen.add("tax_amount" in composition.fields)
        assert ("tax_amount" in composition.fields) == ("tax_amount" in composition.printed)
        if "tax_amount" in composition.fields:
            assert Decimal(composition.fields["tax_amount"]) < Decimal(composition.fields["total_amount"])
    assert seen == {True, False}


def test_bank_statement_ibans_validate_with_schwifty_and_are_printed_grouped():
    """IBAN countries get a valid IBAN (both check digits) printed in groups of four; the US
    and Canada an account number of digits."""
    countries = set()
    for seed in range(60):
        composition = compose("bank_statement", seed)
        number = composition.fields["iban_or_account_number"]
        country = composition.meta["country"]
        countries.add(country)
        if country in ("US", "CA"):
            assert number.isdigit()
        else:
            iban = IBAN(number, validate_bban=True)
            assert str(iban.compact) == number and number[:2] == country
            assert composition.printed["iban_or_account_number"] == iban.formatted
    assert {"DE", "GB", "FR", "ES", "IT", "NL"} <= countries


def test_postal_codes_have_their_country_shape():
    shapes = {
        "US": r"\d{5}(-\d{4})?",
        "CA": r"[A-Z]\d[A-Z] \d[A-Z]\d",
        "GB": r"[A-Z]{1,2}\d[A-Z\d]? \d[A-Z]{2}",
        "DE": r"\d{5}",
        "FR": r"\d{5}",
        "ES": r"\d{5}",
        "IT": r"\d{5}",
        "NL": r"\d{4} [A-Z]{2}",
        "CH": r"\d{4}",
    }
    rng = np.random.default_rng(3)
    for code, shape in shapes.items():
        for _ in range(20):
            address = common.sample_address(rng, common.sample_locale(rng, code))
            assert re.fullmatch(shape, address.postal_code), (code, address.postal_code)
            assert address.postal_code in " ".join(address.lines)


@pytest.mark.parametrize(
    ("style", "printed"),
    [
        ("$1,234.50", "$1,234.50"),
        ("1.234,50 €", "1.234,50 €"),
        ("1 234,50 €", "1 234,50 €"),
        ("CHF 1'234.50", "CHF 1'234.50"),
        ("€ 1.234,50", "€ 1.234,50"),
        ("1,234.50 USD", "1,234.50 USD"),
    ],
)
def test_money_is_printed_in_the_locale_style_and_read_back_canonically(style, printed):
    value = Decimal("1234.5")
    assert common.format_money(common.money(value), style) == printed
    assert common.truth_amount(common.money(value)) == "1234.50"


def test_dates_are_printed_in_every_style():
    from datetime import date

    day = date(2026, 12, 31)
    assert common.format_date(day, "dmy/") == "31/12/2026"
    assert common.format_date(day, "mdy/") == "12/31/2026"
    assert common.format_date(day, "dmy.") == "31.12.2026"
    assert common.format_date(day, "iso") == "2026-12-31"
    assert common.format_date(day, "d mon y") == "31 Dec 2026"
    assert common.format_date(day, "month d, y") == "December 31, 2026"
    assert common.format_date(day, "d. month y", "de") == "31. Dezember 2026"
    assert common.format_date(day, "d month y", "fr") == "31 décembre 2026"


@pytest.mark.parametrize("kind", BUSINESS_KINDS)
def test_digital_pdf_text_layer_contains_every_printed_truth_value(kind):
    """GIVEN a composition written as a digital PDF WHEN pypdf extracts its text THEN every string
    printed for a truth field is in it."""
    rng = np.random.default_rng(21)
    composition = compose(kind, 5)
    rendered = render(composition, rng, "pdf-digital", "clean", 1.0)
    reader = PdfReader(io.BytesIO(rendered.data))
    assert len(reader.pages) == len(composition.pages)
    text = _norm(" ".join(page.extract_text() for page in reader.pages))
    assert text.strip()
    for name, printed in composition.printed.items():
        assert _norm(printed) in text, (name, printed)


def test_scanned_pdf_has_one_image_page_per_page_and_no_text():
    composition = next(c for c in (compose("bank_statement", s) for s in range(20)) if len(c.pages) >= 2)
    rendered = render(composition, np.random.default_rng(2), "pdf-image", "scan", 1.0)
    reader = PdfReader(io.BytesIO(rendered.data))
    assert rendered.extension == "pdf" and len(reader.pages) == len(composition.pages)
    assert all(not page.extract_text().strip() for page in reader.pages)
    assert all(len(page.images) == 1 for page in reader.pages)


def test_a_multi_page_document_asked_for_as_an_image_becomes_a_pdf():
    composition = next(c for c in (compose("bank_statement", s) for s in range(20)) if len(c.pages) >= 2)
    rendered = render(composition, np.random.default_rng(2), "image", "clean", 1.0)
    assert rendered.extension == "pdf" and rendered.format == "pdf-image"


def test_a_profile_narrows_the_forms_drawn():
    rng = np.random.default_rng(0)
    for kind in BUSINESS_KINDS:
        for _ in range(20):
            assert choose_rendition(rng, kind, "photo")[1] == "photo"
            assert choose_rendition(rng, kind, "clean") in {("pdf-digital", "clean"), ("image", "clean")}
            assert choose_rendition(rng, kind, "scan")[1] == "scan"


@pytest.mark.parametrize(("kind", "profile"), [("receipt", "photo"), ("invoice", "clean"), ("other", "scan")])
def test_the_same_generator_state_gives_the_same_bytes(kind, profile):
    first = generate_document(document_rng(5, 1), kind=kind, profile=profile)
    second = generate_document(document_rng(5, 1), kind=kind, profile=profile)
    assert first.image == second.image and first.extension == second.extension
    assert first.truth.to_json() == second.truth.to_json()


def test_digital_pdfs_are_byte_for_byte_reproducible():
    composition_a, composition_b = compose("invoice", 9), compose("invoice", 9)
    a = render(composition_a, np.random.default_rng(1), "pdf-digital", "clean", 1.0).data
    b = render(composition_b, np.random.default_rng(1), "pdf-digital", "clean", 1.0).data
    assert a == b and a.startswith(b"%PDF")


def test_business_truth_json_has_no_mrz_and_the_contract_keys():
    doc = generate_document(document_rng(1, 0), kind="proof_of_address", profile="clean")
    entry = doc.truth.to_json()
    assert set(entry) == {"document_type", "fields", "meta"}
    assert entry["document_type"] == "proof_of_address"
    assert entry["meta"]["format"] in {"image", "pdf-digital", "pdf-image"}
    assert doc.identity is None and doc.profile == "clean"


def test_cli_writes_business_documents_with_their_extensions(tmp_path):
    assert (
        main([str(tmp_path), "--count", "4", "--seed", "3", "--kinds", "receipt,other", "--profile", "clean"])
        == 0
    )
    truth = json.loads((tmp_path / "truth.json").read_text())
    assert [name.split(".")[0] for name in sorted(truth)] == [
        "00000-receipt",
        "00001-other",
        "00002-receipt",
        "00003-other",
    ]
    for name, entry in truth.items():
        data = (tmp_path / name).read_bytes()
        assert name.endswith((".png", ".jpg", ".pdf"))
        assert data.startswith(b"%PDF") == name.endswith(".pdf")
        assert "mrz" not in entry and entry["document_type"] in {"receipt", "other"}


def test_default_kinds_are_every_available_kind():
    kinds = available_kinds()
    assert set(BUSINESS_KINDS) <= set(kinds) and {"passport", "id_card", "td2"} <= set(kinds)
    assert set(kinds) <= set(ALL_KINDS)


def test_without_its_module_driver_license_is_unavailable_with_a_clear_error(monkeypatch, tmp_path, capsys):
    """GIVEN synth.driver_license cannot be imported THEN the default kinds leave it out, and
    asking for it fails with a message that says why (the other kinds keep working)."""
    monkeypatch.setitem(sys.modules, "synth.driver_license", None)
    assert "driver_license" not in available_kinds()
    with pytest.raises(KindUnavailable, match="driver_license is unavailable"):
        generate_document(document_rng(0, 0), kind="driver_license")
    with pytest.raises(SystemExit) as exit_info:
        main([str(tmp_path), "--count", "1", "--kinds", "driver_license"])
    assert exit_info.value.code == 2
    assert "driver_license is unavailable" in capsys.readouterr().err


def test_driver_license_documents_come_from_its_module(monkeypatch):
    """GIVEN a synth.driver_license with the agreed generate(rng, profile, severity) THEN its
    bytes, extension and truth come through, with "mixed" resolved to a concrete profile."""
    calls = []

    def fake_generate(rng, profile, severity):
        calls.append(profile)
        fields = {"document_number": "D1234567", "surname": "SMITH"}
        return (
            b"%PDF-fake",
            "pdf",
            {"document_type": "driver_license", "fields": fields, "meta": {"layout": "x"}},
        )

    monkeypatch.setitem(sys.modules, "synth.driver_license", types.SimpleNamespace(generate=fake_generate))
    doc = generate_document(document_rng(0, 0), kind="driver_license", profile="mixed")
    assert calls and calls[0] in {"clean", "scan", "photo"}
    assert doc.image == b"%PDF-fake" and doc.extension == "pdf"
    assert doc.truth.to_json()["fields"] == {"document_number": "D1234567", "surname": "SMITH"}
    assert doc.truth.meta["layout"] == "x" and "mrz" not in doc.truth.to_json()


def test_business_generate_rejects_unknown_kinds():
    with pytest.raises(ValueError, match="unknown business kind"):
        business.generate(np.random.default_rng(0), "passport")
