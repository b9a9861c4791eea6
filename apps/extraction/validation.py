"""Business checks on an engine's result: dates that make sense, required fields, expiry.

The engine already verified what it can see (MRZ check digits); this layer adds rules that
depend on today's date and the document type, and marks each field ``valid``.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import replace

from engines.custom_types import CustomSchema, value_valid
from engines.spec import CATALOGUE, REQUIRED_FIELDS, value_schema
from engines.types import Check, EngineResult, FieldResult


def _parse_date(value: str | None) -> dt.date | None:
    if not value:
        return None
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        return None


def _iso_date(value: str, field_name: str, today: dt.date) -> bool:
    return _parse_date(value) is not None


def _not_in_future(value: str, field_name: str, today: dt.date) -> bool:
    parsed = _parse_date(value)
    return parsed is not None and parsed <= today


def _format_enum(value: str, field_name: str, today: dt.date) -> bool:
    allowed = value_schema(field_name).get("enum")
    return allowed is None or value in allowed


# The validators the field spec (engines/spec) names, by name: (value, field name, today) -> valid.
_VALIDATORS: dict[str, Callable[[str, str, dt.date], bool]] = {
    "iso_date": _iso_date,
    "not_in_future": _not_in_future,
    "format_enum": _format_enum,
}


def _field_valid(name: str, field: FieldResult, today: dt.date) -> bool | None:
    """False when a validator of the field's spec rejects the value; otherwise what the engine said
    (None = no validator applies)."""
    if field.valid is False:
        return False
    spec = CATALOGUE.fields.get(name)
    if spec is None or not spec.validators or field.value is None:
        return field.valid
    if not all(_VALIDATORS[validator](field.value, name, today) for validator in spec.validators):
        return False
    return True if field.valid is None else field.valid


def _custom_valid(custom: CustomSchema, name: str, field: FieldResult) -> bool | None:
    """A tenant's field: its value written as its format says (engines.custom_types)."""
    spec = custom.field(name)
    if field.valid is False or spec is None:
        return field.valid
    return value_valid(spec, field.value)


def validate_result(
    result: EngineResult, *, today: dt.date | None = None, custom: CustomSchema | None = None
) -> EngineResult:
    """The engine result with each field's ``valid`` settled and the business checks appended.
    ``custom``: the schema of the tenant's own type the document was read as (apps.doctypes)."""
    today = today or dt.date.today()
    if custom is not None:
        fields = {name: replace(f, valid=_custom_valid(custom, name, f)) for name, f in result.fields.items()}
    else:
        fields = {name: replace(f, valid=_field_valid(name, f, today)) for name, f in result.fields.items()}
    checks = list(result.checks)

    required = custom.required if custom is not None else REQUIRED_FIELDS.get(result.document_type, ())
    missing = [name for name in required if not (fields.get(name) and fields[name].value)]
    if required:
        checks.append(
            Check("required_fields_present", not missing, f"missing: {', '.join(missing)}" if missing else "")
        )
    expiry = _parse_date(fields["date_of_expiry"].value) if "date_of_expiry" in fields else None
    if expiry is not None:
        checks.append(Check("document_not_expired", expiry >= today, "" if expiry >= today else "expired"))
    invalid = sorted(name for name, f in fields.items() if f.valid is False)
    checks.append(Check("fields_valid", not invalid, f"invalid: {', '.join(invalid)}" if invalid else ""))
    return replace(result, fields=fields, checks=checks)
