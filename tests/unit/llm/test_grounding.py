"""The Gemma 4 path's evidence: a model value is ``grounded`` only where the page's own text holds
it (by meaning: a date as a date, an amount as an amount, text folded), and the result's fields
carry the evidence its checks give them, as the CPU engine's do."""

from __future__ import annotations

import json
import math

import pytest

from engines.evidence import ARITHMETIC, GROUNDED, MRZ_CHECK_DIGITS, RULES, TWO_READINGS
from engines.llm import pipeline
from engines.llm.grounding import found_in, ground, page_texts
from engines.llm.schemas import MRZ_PROPERTY, extraction_schema
from engines.spec import FIELDS
from engines.types import FieldResult
from tests.support.llm_pages import INVOICE_PAGE

MRZ = ["P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO7408122F1204159ZE184226B<<<<<10"]


def _generation(text: str) -> pipeline.Generation:
    return pipeline.Generation(
        text=text, logprobs=[math.log(0.99)] * len(text), offsets=[(i, i + 1) for i in range(len(text))]
    )


def _invoice(**values: str | None) -> tuple[dict[str, FieldResult], pipeline.ParsedOutput]:
    answer = {name: None for name in FIELDS["invoice"]} | values
    return pipeline.read_extraction(_generation(json.dumps(answer)), extraction_schema("invoice"))


@pytest.mark.parametrize(
    ("name", "value", "found"),
    [
        ("invoice_date", "2024-03-01", True),  # printed 01.03.2024
        ("invoice_date", "2024-01-03", True),  # the same digits read month first: the page's too
        ("due_date", "2024-03-31", False),
        ("total_amount", "1190.00", True),  # printed 1.190,00
        ("subtotal", "1000", True),
        ("tax_amount", "90.00", False),
        ("customer_name", "JURGEN MULLER", True),  # case, accents and spaces folded
        ("vendor_name", "ACME Büromöbel GmbH", True),
        ("vendor_name", "ACME Office Furniture", False),
        ("invoice_number", "RE-2024-0042", True),
        ("invoice_number", "2024", True),  # on its own, between word boundaries
        ("invoice_number", "202", False),  # not inside "2024"
        ("some_tenant_field", "2024-03-01", True),  # a tenant's field: an ISO date as a date
        ("some_tenant_field", "1190", True),  # ... a decimal number as an amount
    ],
)
def test_a_value_is_found_by_its_meaning_not_its_bytes(name, value, found):
    text = page_texts([INVOICE_PAGE])
    assert text is not None
    assert found_in(name, value, text) is found


def test_values_in_the_text_layer_are_grounded_and_the_others_fail_the_check_by_name():
    fields, parsed = _invoice(
        vendor_name="ACME Büromöbel GmbH",
        invoice_number="RE-2024-0042",
        invoice_date="2024-03-01",
        total_amount="1190.00",
        customer_name="Secret Person",  # not on the page: made up
    )
    checks = {c.name: c for c in pipeline.verify("invoice", fields, parsed, page_texts=[INVOICE_PAGE])}

    for name in ("vendor_name", "invoice_number", "invoice_date", "total_amount"):
        assert GROUNDED in fields[name].evidence, name
    assert GROUNDED not in fields["customer_name"].evidence
    assert fields["due_date"].evidence == ()  # absent: nothing to look for
    assert not checks["not_grounded"].passed
    assert checks["not_grounded"].detail == "not found in the page's text: customer_name"
    assert "Secret" not in checks["not_grounded"].detail  # names, never values


def test_every_value_found_passes_the_check():
    fields, parsed = _invoice(vendor_name="acme büromöbel gmbh", total_amount="1190.00")
    checks = {c.name: c for c in pipeline.verify("invoice", fields, parsed, page_texts=[INVOICE_PAGE])}
    assert checks["not_grounded"].passed and checks["not_grounded"].detail == ""


@pytest.mark.parametrize("texts", [None, [], ["", "  \n"]])
def test_a_scanned_document_has_no_text_so_nothing_is_grounded_and_no_check_runs(texts):
    fields, parsed = _invoice(vendor_name="ACME Büromöbel GmbH", total_amount="1190.00")
    checks = pipeline.verify("invoice", fields, parsed, page_texts=texts)
    assert "not_grounded" not in {c.name for c in checks}
    assert all(GROUNDED not in f.evidence for f in fields.values())


def test_a_value_the_mrz_vouches_for_is_not_held_against_the_model():
    """Grounding judges the model's own readings; a value the MRZ's check digits verified is the
    zone's (source ``mrz``) and gets its evidence from them."""
    fields = {
        "surname": FieldResult("ERIKSSON", 0.9, 1, None, "mrz", valid=True),
        "given_names": FieldResult("ANNA", 0.9, 1, None, "model"),
    }
    out, checks = ground(fields, ["Passport  ANNA"])
    assert checks[0].passed
    assert GROUNDED in out["given_names"].evidence and GROUNDED not in out["surname"].evidence


def test_the_result_carries_the_evidence_of_its_checks_as_the_cpu_engines_does():
    answer = {name: None for name in FIELDS["passport"]} | {
        "document_number": "L898902C3",
        "surname": "ERIKSSON",
        "date_of_birth": "1974-08-12",
        MRZ_PROPERTY: MRZ,
    }
    fields, parsed = pipeline.read_extraction(_generation(json.dumps(answer)), extraction_schema("passport"))
    checks = pipeline.verify("passport", fields, parsed)
    result = pipeline.assemble(
        pipeline.TypeDecision("passport", 0.99), fields, checks, pages=1, timings_ms={}
    )
    for name in ("document_number", "date_of_birth"):  # the zone's check digits verify them
        assert result.fields[name].source == "mrz" and MRZ_CHECK_DIGITS in result.fields[name].evidence
    # no check digit covers a name: the printed one agreeing with the zone's is two readings
    assert result.fields["surname"].source == "model" and result.fields["surname"].evidence == (TWO_READINGS,)

    fields, parsed = _invoice(subtotal="1000.00", tax_amount="190.00", total_amount="1190.00")
    checks = pipeline.verify("invoice", fields, parsed, page_texts=[INVOICE_PAGE])
    result = pipeline.assemble(pipeline.TypeDecision("invoice", 0.99), fields, checks, pages=1, timings_ms={})
    for name in ("subtotal", "tax_amount", "total_amount"):
        assert set(result.fields[name].evidence) == {ARITHMETIC, GROUNDED}, name
    # every kind attached is one the rules know, and it travels in the §3.5 result_json
    assert all(set(f.evidence) <= set(RULES.kinds) for f in result.fields.values())
    assert json.loads(result.to_json())["fields"]["total_amount"]["evidence"] == ["arithmetic", "grounded"]
