"""Business checks on an engine's result: dates that make sense, required fields, expiry.

The engine already verified what it can see (MRZ check digits); this layer adds rules that
depend on today's date and the document type, and marks each field ``valid``.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import replace

from apps.extraction.schemas import DATE_FIELDS, REQUIRED_FIELDS
from engines.types import Check, EngineResult, FieldResult


def _parse_date(value: str | None) -> dt.date | None:
    if not value:
        return None
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        return None


def _field_valid(name: str, field: FieldResult, today: dt.date) -> bool | None:
    """False when a rule rejects the value; otherwise what the engine said (None = no validator)."""
    if field.valid is False:
        return False
    if name in DATE_FIELDS and field.value is not None:
        parsed = _parse_date(field.value)
        if parsed is None:
            return False
        if name == "date_of_birth" and parsed > today:
            return False
        return True if field.valid is None else field.valid
    if name == "sex" and field.value is not None:
        return field.value in {"M", "F", "X"}
    return field.valid


def validate_result(result: EngineResult, *, today: dt.date | None = None) -> EngineResult:
    """The engine result with each field's ``valid`` settled and the business checks appended."""
    today = today or dt.date.today()
    fields = {name: replace(f, valid=_field_valid(name, f, today)) for name, f in result.fields.items()}
    checks = list(result.checks)

    required = REQUIRED_FIELDS.get(result.document_type, ())
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
