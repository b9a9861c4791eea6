"""Which tenant schemas the guided-decoding subset accepts, and what a refusal says."""

from __future__ import annotations

import copy

import pytest

from engines.custom_types import SchemaInvalid, check_type_name, parse_schema, pattern_refusals, value_valid
from engines.llm import guided_grammar
from engines.llm.schemas import extraction_schema, tenant_schema
from tests.support.payslip import PAYSLIP_SCHEMA


def _with(name: str, prop: dict) -> dict:
    schema = copy.deepcopy(PAYSLIP_SCHEMA)
    schema["properties"][name] = prop
    return schema


def _problems(schema: object) -> str:
    with pytest.raises(SchemaInvalid) as raised:
        parse_schema(schema)
    return "; ".join(raised.value.problems)


def test_the_payslip_schema_is_accepted_in_order_with_its_formats_and_defaults():
    custom = parse_schema(PAYSLIP_SCHEMA)
    assert custom.names[:3] == ("employee_name", "employer_name", "employee_id")
    assert custom.required == ("employee_name", "pay_date", "net_pay")
    assert custom.field("employer_name").max_length == 120  # a name's default bound
    assert custom.field("pay_frequency").format == "enum"
    assert custom.titles["net_pay"] == "Net pay"
    assert parse_schema(custom.normalized) == custom  # the stored form reads back the same


def test_the_guided_schema_is_bounded_and_carries_no_format():
    guided = tenant_schema(parse_schema(PAYSLIP_SCHEMA).normalized)
    for name, wrapped in guided["properties"].items():
        value = wrapped["anyOf"][0]
        assert "format" not in value
        assert {"pattern", "enum", "maxLength"} & set(value), name
    assert guided["required"] == list(PAYSLIP_SCHEMA["properties"])


@pytest.mark.parametrize(
    ("schema", "message"),
    [
        ([], "must be a JSON object"),
        ({"type": "array", "items": {"type": "string"}}, '{"type": "object"'),
        ({"type": "object", "properties": {}}, "list its fields in properties"),
        (
            {
                "type": "object",
                "properties": {"a": {"$ref": "#/$defs/a"}},
                "$defs": {"a": {"type": "string"}},
            },
            "references",
        ),
        (_with("items", {"type": "array", "items": {"type": "string"}}), "nested arrays are not supported"),
        (_with("owner", {"type": "object", "properties": {}}), "nested objects are not supported"),
        (_with("count", {"type": "integer"}), 'type must be "string"'),
        (_with("Bad Name", {"type": "string"}), "lower_snake_case"),
        (
            _with("note", {"type": "string", "maxLength": 100000}),
            "maxLength must be a whole number from 1 to 500",
        ),
        (
            _with(
                "ref", {"type": "string", "format": "code", "pattern": "^[A-Z]+-[A-Z]+-[A-Z]+-[A-Z]+-[A-Z]+$"}
            ),
            "lower maxLength or bound the repeats",
        ),
        (_with("ref", {"type": "string", "format": "code", "pattern": "[A-Z]{3}"}), "anchored"),
        (
            _with("ref", {"type": "string", "format": "code", "pattern": "^([A-Z]{3}$"}),
            "not a regular expression",
        ),
        (_with("ref", {"type": "string", "format": "code"}), "needs its pattern"),
        (_with("ref", {"type": "string", "pattern": "^[A-Z]{3}$", "maxLength": 0}), "maxLength must be"),
        (_with("kind", {"type": "string", "format": "colour"}), "format 'colour' is not one of"),
        (_with("kind", {"type": "string", "enum": []}), "enum must list"),
        (_with("kind", {"type": "string", "anyOf": [{"type": "string"}]}), "keywords not supported: anyOf"),
        ({**PAYSLIP_SCHEMA, "required": ["salary"]}, "required names 'salary', which is not a field"),
    ],
)
def test_a_schema_outside_the_subset_is_refused_saying_why(schema, message):
    assert message in _problems(schema)


def test_every_problem_is_reported_at_once():
    schema = _with("count", {"type": "integer"})
    schema["properties"]["kind"] = {"type": "string", "format": "colour"}
    with pytest.raises(SchemaInvalid) as raised:
        parse_schema(schema)
    assert len(raised.value.problems) == 2


def test_a_type_name_must_not_clash_with_a_built_in_type():
    assert "built-in document type" in check_type_name("invoice")[0]
    assert check_type_name("Payslip!") and not check_type_name("payslip")


@pytest.mark.parametrize(
    ("name", "value", "valid"),
    [
        ("pay_date", "2026-03-28", True),
        ("pay_date", "2026-02-30", False),
        ("pay_date", "28/03/2026", False),
        ("net_pay", "2731.45", True),
        ("net_pay", "2,731.45", False),
        ("currency", "EUR", True),
        ("currency", "EUX", False),
        ("employee_id", "E-20417", True),
        ("employee_id", "X-20417", False),
        ("pay_frequency", "monthly", True),
        ("pay_frequency", "daily", False),
        ("employee_name", None, None),
    ],
)
def test_each_value_is_validated_by_its_format(name, value, valid):
    assert value_valid(parse_schema(PAYSLIP_SCHEMA).field(name), value) is valid


# ----------------------------------------------------------------------------------------------
# issue 50: what the model engine's own grammar compiler (xgrammar 0.2.8) lets the model write
# ----------------------------------------------------------------------------------------------


def _one_field(wrapped: dict, name: str) -> dict:
    """The object grammar of one property of a wrapped schema, as the engine compiles it."""
    prop = wrapped["properties"][name]
    return {"type": "object", "properties": {name: prop}, "required": [name], "additionalProperties": False}


def _written(name: str, json_string_body: str) -> str:
    return f'{{"{name}": "{json_string_body}"}}'


@pytest.mark.parametrize(
    ("wrapped", "name", "bound"),
    [
        (extraction_schema("invoice"), "vendor_name", 200),
        (extraction_schema("bank_statement"), "iban_or_account_number", 32),
        (tenant_schema(parse_schema(PAYSLIP_SCHEMA).normalized), "employer_name", 120),
        (tenant_schema({"type": "object", "properties": {"note": {"type": "string"}}}), "note", 200),
    ],
)
def test_a_bounded_string_takes_escapes_and_refuses_one_character_past_its_bound(wrapped, name, bound):
    """GIVEN a built-in or tenant free-text field, WHEN the engine's grammar for it is asked,
    THEN a quote, a backslash and a \\u escape can be written (each one character), the bound is
    reached and one character more is refused: the value cannot run on, and is not cut short of
    what it may hold."""
    grammar = _one_field(wrapped, name)
    for body in (r"ACME \"X\" Ltd", r"C:\\files", r"Caf\u00e9 M\u00fcller", "x" * bound):
        assert guided_grammar.accepts(grammar, _written(name, body)), body
    assert guided_grammar.accepts(grammar, _written(name, r"\"" * bound))
    assert not guided_grammar.accepts(grammar, _written(name, "x" * (bound + 1)))
    assert not guided_grammar.accepts(grammar, _written(name, r"\"" * (bound + 1)))
    assert not guided_grammar.accepts(grammar, _written(name, 'ACME "X" Ltd'))  # JSON needs the escape
    assert guided_grammar.schema_refusal(wrapped) is None


@pytest.mark.parametrize(
    ("pattern", "why"),
    [
        (r"^([A-Z])\1[0-9]{2}$", "Backreference"),
        (r"^\bAB[0-9]{2}$", "Word boundary"),
        (r"^(?=A)[A-Z][0-9]{2}$", "ookahead"),
        (r"^(?<=A)[A-Z][0-9]{2}$", "ookbehind"),
        (r"^(?i:ab)[0-9]{2}$", "flag"),
    ],
)
def test_a_pattern_the_engine_cannot_follow_is_refused_at_definition_saying_why(pattern, why):
    """GIVEN a code pattern Python's ``re`` compiles, WHEN its type is defined, THEN it is refused
    with the reason RE2 or the engine's own compiler gives (``\\b`` and ``(?i:..)`` pass RE2:
    only xgrammar refuses them, as vLLM would on every document of the type)."""
    custom = parse_schema(_with("ref", {"type": "string", "format": "code", "pattern": pattern}))
    [refusal] = pattern_refusals(custom)
    assert refusal.startswith("ref: ") and why.lower() in refusal.lower(), refusal


def test_ordinary_patterns_with_repeats_and_lengths_are_accepted_bounded_for_the_engine():
    """GIVEN ``+``/``*`` patterns, one beside a maxLength and minLength, WHEN the type is defined,
    THEN it is accepted, the engine gets the repeats bounded (by maxLength, or the default), its
    compiler follows the guided schema, the values are checked against the tenant's pattern and
    lengths, and the bounds are said in words."""
    schema = _with("amount_text", {"type": "string", "pattern": r"^[0-9]+\.[0-9]{2}$"})
    schema["properties"]["ref"] = {
        "type": "string",
        "pattern": r"^[A-Z]{2}[0-9]*$",
        "maxLength": 8,
        "minLength": 4,
    }
    custom = parse_schema(schema)
    assert pattern_refusals(custom) == []
    amount, ref = custom.field("amount_text"), custom.field("ref")
    assert amount.guided_pattern == r"^[0-9]{1,120}\.[0-9]{2}$"
    assert ref.guided_pattern == r"^[A-Z]{2}[0-9]{0,8}$"
    guided = tenant_schema(custom.normalized)
    assert guided["properties"]["ref"]["anyOf"][0] == {
        "type": "string",
        "title": "Ref",
        "pattern": ref.guided_pattern,
    }
    assert guided_grammar.schema_refusal(guided) is None
    assert guided_grammar.accepts(_one_field(guided, "ref"), _written("ref", "AB123456"))
    assert not guided_grammar.accepts(_one_field(guided, "ref"), _written("ref", "AB123456789"))
    assert value_valid(ref, "AB1234") and not value_valid(ref, "AB1") and not value_valid(ref, "AB1234567")
    assert value_valid(amount, "2731.45") and not value_valid(amount, "2731.4")
    assert "default of 120" in custom.bounds["amount_text"]
    assert "its maxLength" in custom.bounds["ref"] and "length 4 to 8" in custom.bounds["ref"]
    assert parse_schema(custom.normalized) == custom


@pytest.mark.parametrize(
    "name", ["MÜLLER", "ÇELİK", "O'BRIEN-ŁUKASZ", "PĂUNESCU ȘTEFAN", "ΠΑΠΑΔΟΠΟΥΛΟΣ", "ИВАНОВ"]
)
def test_a_name_in_upper_case_is_written_in_its_own_letters(name):
    """GIVEN a passport's surname field, WHEN the engine's grammar is asked for a name with
    accents or in another script, THEN it is written as printed (not with a substitute letter),
    and the CPU engine's validation of the field accepts it."""
    from apps.extraction.validation import validate_result
    from engines.types import EngineResult, FieldResult

    grammar = _one_field(extraction_schema("passport"), "surname")
    assert guided_grammar.accepts(grammar, _written("surname", name))
    assert not guided_grammar.accepts(grammar, _written("surname", name.lower()))
    found = FieldResult(value=name, confidence=0.9, page=1, bbox=None, source="model")
    result = EngineResult("passport", 0.9, 1, {"surname": found}, [], "gemma4", "0", {})
    assert validate_result(result).fields["surname"].valid is not False
