"""Which tenant schemas the guided-decoding subset accepts, and what a refusal says."""

from __future__ import annotations

import copy

import pytest

from engines.custom_types import SchemaInvalid, check_type_name, parse_schema, value_valid
from engines.llm.schemas import tenant_schema
from tests.payslip import PAYSLIP_SCHEMA


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
        (_with("ref", {"type": "string", "format": "code", "pattern": "^[A-Z]+$"}), "bound every repeat"),
        (_with("ref", {"type": "string", "format": "code", "pattern": "[A-Z]{3}"}), "anchored"),
        (
            _with("ref", {"type": "string", "format": "code", "pattern": "^([A-Z]{3}$"}),
            "not a regular expression",
        ),
        (_with("ref", {"type": "string", "format": "code"}), "needs its pattern"),
        (
            _with("ref", {"type": "string", "pattern": "^[A-Z]{3}$", "maxLength": 3}),
            "put the length in the pattern",
        ),
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
