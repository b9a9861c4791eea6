"""A value the grammar ended at its length bound is flagged, not passed off as whole (issue 50).

GIVEN a bank statement whose account number the model wrote to the 32 characters its schema
allows (the grammar then forces the closing quote, so a 33-character number on the page comes back
cut, at an ordinary score), WHEN the answer is read and verified, THEN the field is not valid and a
failed check names it, so the document goes to review; one character shorter is an ordinary value.
"""

from __future__ import annotations

import json
import math

import pytest

from engines.llm import pipeline
from engines.llm.schemas import extraction_schema, tenant_schema
from tests.support.payslip import PAYSLIP_SCHEMA


def _read(schema: dict, answer: dict) -> tuple[dict, list]:
    text = json.dumps(answer)
    generation = pipeline.Generation(
        text=text, logprobs=[math.log(0.99)] * len(text), offsets=[(i, i + 1) for i in range(len(text))]
    )
    fields, parsed = pipeline.read_extraction(generation, schema)
    return fields, pipeline.verify("bank_statement", fields, parsed)


@pytest.mark.parametrize(("length", "flagged"), [(32, True), (31, False)])
def test_an_account_number_at_its_bound_is_not_valid_and_named(length, flagged):
    schema = extraction_schema("bank_statement")
    number = "1234567890" * 3 + "12"
    fields, checks = _read(schema, {"iban_or_account_number": number[:length], "account_holder": "ANNA"})
    assert (fields["iban_or_account_number"].valid is False) is flagged
    assert fields["account_holder"].valid is None
    failed = {c.name: c.detail for c in checks if not c.passed}
    assert ("value_within_length_bound" in failed) is flagged
    if flagged:
        assert failed["value_within_length_bound"].endswith(": iban_or_account_number")


def test_a_tenant_value_at_its_bound_is_flagged_and_an_escape_counts_one_character():
    schema = tenant_schema({"type": "object", "properties": {"note": {"type": "string", "maxLength": 5}}})
    fields, checks = _read(schema, {"note": 'a"b"c'})  # written a\"b\"c: five characters
    assert fields["note"].valid is False
    assert any(c.name == "value_within_length_bound" and not c.passed for c in checks)
    fields, _ = _read(tenant_schema(PAYSLIP_SCHEMA), {"employee_name": "Jane Doe", "pay_date": "2026-03-28"})
    assert fields["employee_name"].valid is None and fields["pay_date"].valid is None  # a date never
