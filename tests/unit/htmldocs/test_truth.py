"""The independent family's truth, without a browser: complete, canonical, consistent, reproducible.

Composing a document costs milliseconds (only rendering needs Chromium), so these tests look at
hundreds of documents: every field the spec names is there, every value is in its canonical
format, the money adds up, IBANs pass their check digits, every layout and country is drawn, and
nothing of ``synth/`` is used.
"""

from __future__ import annotations

import ast
import json
import re
from decimal import Decimal
from pathlib import Path

import pytest

from engines.spec import FIELDS, REQUIRED_FIELDS
from engines.validators import valid_iban
from htmldocs import KINDS, is_evaluation_seed
from htmldocs.generate import compose, main

PACKAGE = Path(__file__).resolve().parents[3] / "htmldocs"
ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
AMOUNT = re.compile(r"^-?\d{1,12}\.\d{2}$")
DATE_FIELDS = {
    "invoice_date",
    "due_date",
    "date",
    "document_date",
    "statement_period_start",
    "statement_period_end",
}
AMOUNT_FIELDS = {"subtotal", "tax_amount", "total_amount"}
TEXT_FIELDS = {
    "vendor_name",
    "customer_name",
    "merchant_name",
    "full_name",
    "account_holder",
    "issuer_name",
    "address_street",
    "address_city",
}
SAMPLE = 60  # documents of each kind


@pytest.fixture(scope="module")
def documents():
    return {kind: [compose(7, i, kind) for i in range(SAMPLE)] for kind in KINDS}


def test_truth_names_every_field_of_the_spec_in_order_and_fills_the_required_ones(documents):
    for kind, docs in documents.items():
        for doc in docs:
            assert doc.document_type == kind
            assert tuple(doc.fields) == FIELDS[kind]
            for name in REQUIRED_FIELDS[kind]:
                assert doc.fields[name], f"{kind} {doc.layout} lacks required {name}"


def test_values_are_in_their_canonical_formats(documents):
    """ISO dates, "1234.50" amounts, ISO 4217 currencies, upper-case single-spaced names."""
    for docs in documents.values():
        for doc in docs:
            for name, value in doc.fields.items():
                if value is None:
                    continue
                if name in DATE_FIELDS:
                    assert ISO_DATE.match(value), (name, value)
                elif name in AMOUNT_FIELDS:
                    assert AMOUNT.match(value), (name, value)
                elif name == "currency":
                    assert value in {"USD", "GBP", "EUR"}
                elif name in TEXT_FIELDS:
                    canonical = " ".join(value.split()).upper()
                    assert value == canonical, (name, value)


def test_the_money_adds_up(documents):
    """An invoice's subtotal and tax make its total; a statement's account truth is a valid IBAN or digits."""
    for doc in documents["invoice"]:
        f = doc.fields
        if f["subtotal"] is not None:
            assert Decimal(f["subtotal"]) + Decimal(f["tax_amount"]) == Decimal(f["total_amount"])
    for doc in documents["receipt"]:
        if doc.fields["tax_amount"] is not None:
            assert Decimal(doc.fields["tax_amount"]) < Decimal(doc.fields["total_amount"])
    for doc in documents["bank_statement"]:
        account = doc.fields["iban_or_account_number"]
        assert account.isdigit() or valid_iban(account) == account, account
        assert doc.fields["full_name"] == doc.fields["account_holder"]
        assert doc.fields["statement_period_start"] < doc.fields["statement_period_end"]
        assert doc.fields["statement_period_end"] <= doc.fields["document_date"]


def test_the_printed_total_is_in_the_html(documents):
    for docs in documents.values():
        for doc in docs:
            html = doc.html.replace("&#x27;", "'").replace("&amp;", "&")
            assert doc.printed_total in html


def test_every_kind_has_at_least_four_layouts_and_every_country_appears(documents):
    for kind, docs in documents.items():
        layouts = {doc.layout for doc in docs}
        assert len(layouts) >= 4, (kind, layouts)
    countries = {doc.meta["country"] for docs in documents.values() for doc in docs}
    assert countries == {"US", "GB", "DE", "FR", "ES", "NL", "IT"}
    forms = {doc.output.form for docs in documents.values() for doc in docs}
    assert forms == {"pdf", "png", "jpeg"}


def test_truth_is_reproducible_from_the_arguments(tmp_path):
    """The same arguments give the same truth and HTML; another seed gives other documents."""
    args = ["--count", "12", "--seed", "31", "--truth-only"]
    main([str(tmp_path / "a"), *args])
    main([str(tmp_path / "b"), *args])
    main([str(tmp_path / "c"), "--count", "12", "--seed", "32", "--truth-only"])
    truth_a = (tmp_path / "a" / "truth.json").read_text()
    assert truth_a == (tmp_path / "b" / "truth.json").read_text()
    assert truth_a != (tmp_path / "c" / "truth.json").read_text()
    for html in (tmp_path / "a").glob("*.html"):
        assert html.read_text() == (tmp_path / "b" / html.name).read_text()
    names = sorted(json.loads(truth_a))
    assert [n.split(".")[0] for n in names[:4]] == [
        "00000-invoice",
        "00001-receipt",
        "00002-proof_of_address",
        "00003-bank_statement",
    ]


def test_more_documents_never_change_the_first_ones(tmp_path):
    main([str(tmp_path / "short"), "--count", "3", "--seed", "8", "--truth-only"])
    main([str(tmp_path / "long"), "--count", "9", "--seed", "8", "--truth-only"])
    short = json.loads((tmp_path / "short" / "truth.json").read_text())
    long = json.loads((tmp_path / "long" / "truth.json").read_text())
    assert short == {name: long[name] for name in short}


def test_evaluation_seeds_are_the_reserved_range():
    assert is_evaluation_seed(900_001)
    assert not is_evaluation_seed(31)


def test_the_family_uses_nothing_of_synth():
    """Independence is the point: no module of htmldocs imports synth."""
    for path in PACKAGE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                assert all(not alias.name.startswith("synth") for alias in node.names), path
            elif isinstance(node, ast.ImportFrom):
                assert not (node.module or "").startswith("synth"), path
