"""The one field specification (engines/spec): checked on load, and read by every part that names
a field, so the parts cannot drift apart."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from apps.extraction import validation
from apps.extraction.validation import validate_result
from engines import spec
from engines.llm.prompts import classification_prompt, extraction_prompt
from engines.llm.schemas import extraction_schema, field_names
from engines.types import EngineResult, FieldResult


def _write(tmp_path: Path, text: str) -> Path:
    bundled = spec.SPEC_PATH.read_text(encoding="utf-8")
    path = tmp_path / "spec.toml"
    path.write_text(bundled + text, encoding="utf-8")
    return path


def test_a_type_listing_an_unknown_field_is_refused_on_load(tmp_path: Path) -> None:
    """GIVEN a type that lists a field the file does not define WHEN loaded THEN it names the field."""
    path = _write(
        tmp_path,
        '\n[types.payslip]\nfamily = "business"\ndescription = "x"\nfields = ["net_pay"]\nrequired = []\n',
    )
    with pytest.raises(spec.SpecError, match="net_pay"):
        spec.load(path)


def test_a_required_field_the_type_does_not_list_is_refused(tmp_path: Path) -> None:
    path = _write(
        tmp_path,
        '\n[types.payslip]\nfamily = "business"\ndescription = "x"\n'
        'fields = ["date"]\nrequired = ["total_amount"]\n',
    )
    with pytest.raises(spec.SpecError, match="payslip"):
        spec.load(path)


def test_a_field_of_an_unknown_kind_is_refused(tmp_path: Path) -> None:
    path = _write(tmp_path, '\n[fields.net_pay]\nkind = "salary"\n')
    with pytest.raises(spec.SpecError, match="salary"):
        spec.load(path)


def test_every_named_validator_exists() -> None:
    named = {v for field in spec.CATALOGUE.fields.values() for v in field.validators}
    assert named <= set(validation._VALIDATORS)


@pytest.mark.parametrize("document_type", [t for t in spec.DOCUMENT_TYPES if t != "other"])
def test_the_model_schema_and_prompt_follow_the_spec(document_type: str) -> None:
    schema = extraction_schema(document_type)
    assert field_names(schema) == list(spec.FIELDS[document_type])
    for name in spec.FIELDS[document_type]:
        assert schema["properties"][name]["anyOf"][0] == spec.value_schema(name)
    prompt = extraction_prompt(document_type, schema, 1)
    for name in spec.FIELDS[document_type]:
        hint = spec.CATALOGUE.fields[name].hint
        assert f"- {name}: {hint}" in prompt if hint else f"- {name}\n" in prompt


def test_the_classifier_prompt_lists_every_type_with_its_description() -> None:
    prompt = classification_prompt(1)
    for name, entry in spec.CATALOGUE.types.items():
        assert f"- {name}: {entry.description}" in prompt


def test_validation_applies_the_spec_validators() -> None:
    """GIVEN a birth date in the future, a sex outside the format's enumeration and an unparseable
    expiry WHEN validated THEN each is invalid; a plain past date stays valid."""
    today = dt.date(2026, 12, 5)
    fields = {
        "date_of_birth": FieldResult("2030-01-01", 0.9, 1, None, "ocr"),
        "sex": FieldResult("Q", 0.9, 1, None, "ocr"),
        "date_of_expiry": FieldResult("31.12.2030", 0.9, 1, None, "ocr"),
        "date_of_issue": FieldResult("2020-01-01", 0.9, 1, None, "ocr"),
    }
    result = EngineResult(document_type="passport", document_type_confidence=0.9, pages=1, fields=fields)
    valid = {name: f.valid for name, f in validate_result(result, today=today).fields.items()}
    assert valid == {"date_of_birth": False, "sex": False, "date_of_expiry": False, "date_of_issue": True}


def test_families_come_from_kinds() -> None:
    assert spec.field_family("surname") == spec.field_family("merchant_name") == "name"
    assert spec.field_family("address_postal_code") == "address"
    assert spec.field_family("address_region") == "code"
    assert spec.field_family("net_pay") == "other"
