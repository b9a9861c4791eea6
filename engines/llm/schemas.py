"""JSON Schemas the Gemma 4 models decode against (guided decoding, xgrammar), one per document type.

The field names are ARCHITECTURE §3.2's; the value formats are §3.1's (ISO dates, decimal-string
amounts, ``M``/``F``/``X``, alpha-3 countries and currencies), so what the model writes is already
in the shape the validators and the API expect. Every field is required and nullable: the model
writes each key once, in schema order, with ``null`` for a value the document does not show. That
keeps the output short, its order fixed, and "absent" an explicit, scored decision.

A tenant's own document type brings its JSON Schema (§3.2, last paragraph); :func:`tenant_schema`
checks it and wraps it the same way.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Sequence
from typing import Any

from engines.custom_types import FIELD_NAME, MAX_FIELDS, MAX_SCHEMA_BYTES, SchemaInvalid, parse_schema
from engines.llm.guided_grammar import bounded_pattern, longest, text_schema
from engines.spec import CATALOGUE, DOCUMENT_TYPES, WITH_MRZ, value_schema
from engines.types import EngineError

# The classifier answers with one of the §3.2 types (engines/spec), never a new list — or with one
# of the tenant's own types the request lists (document_types_json).
CLASSIFY_TYPES = DOCUMENT_TYPES

# Auxiliary output for identity documents: the machine-readable zone as printed, so the verify
# step can check its digits with the CPU engine's ICAO 9303 parser. Not a §3.2 field.
MRZ_PROPERTY = "mrz_lines"
_MRZ = {
    "type": "array",
    "items": {"type": "string", "pattern": r"^[A-Z0-9<]{30,44}$"},
    "minItems": 2,
    "maxItems": 3,
}

# Each type's fields in the spec's order, each value in its §3.1 format (a free string's length
# bound written into its pattern: engines.spec.value_schema).
FIELD_SCHEMAS: dict[str, dict[str, dict[str, Any]]] = {
    name: {field: value_schema(field) for field in spec.fields} for name, spec in CATALOGUE.types.items()
}

MAX_FREE_TEXT = 200  # characters of a tenant string (or pattern repeat) that names no bound


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    return {"anyOf": [schema, {"type": "null"}]}


def _object(properties: dict[str, dict[str, Any]]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {name: _nullable(schema) for name, schema in properties.items()},
        "required": list(properties),
        "additionalProperties": False,
    }


def classification_schema(own_types: Sequence[str] = ()) -> dict[str, Any]:
    """The classifier's answer: one §3.2 document type, or one of ``own_types`` (the tenant's)."""
    return {
        "type": "object",
        "properties": {"document_type": {"type": "string", "enum": [*CLASSIFY_TYPES, *own_types]}},
        "required": ["document_type"],
        "additionalProperties": False,
    }


def extraction_schema(document_type: str) -> dict[str, Any]:
    """The guided-decoding schema of a §3.2 type (identity documents also carry their MRZ)."""
    if document_type not in FIELD_SCHEMAS:
        raise EngineError("invalid_request", f"no extraction schema for document type {document_type!r}")
    properties = dict(FIELD_SCHEMAS[document_type])
    if document_type in WITH_MRZ:
        properties[MRZ_PROPERTY] = _MRZ
    return _object(properties)


def field_names(schema: dict[str, Any]) -> list[str]:
    """The document fields a wrapped schema asks for (auxiliary outputs excluded)."""
    return [name for name in schema.get("properties", {}) if name != MRZ_PROPERTY]


def length_bound(schema: dict[str, Any], name: str) -> int | None:
    """The characters at which the grammar of a wrapped schema ends field ``name``'s value where
    it could have gone on (a value that long may have been cut); None where no bound can cut it."""
    prop = schema.get("properties", {}).get(name, {})
    branches = [b for b in prop.get("anyOf", [prop]) if isinstance(b, dict) and b.get("type") == "string"]
    return next((bound for b in branches if (bound := longest(b)) is not None), None)


def tenant_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """A tenant's JSON Schema of fields, checked and wrapped like the built-in ones.

    Raises ``EngineError("invalid_schema", ...)`` for anything a guided decoder could not use or
    that would blow up the output: not an object schema, too large, odd field names.
    """
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import SchemaError

    # a tenant's type as apps.doctypes stores it: its formats become the patterns they mean (any
    # other schema_json is checked as it is, below)
    with contextlib.suppress(SchemaInvalid):
        schema = parse_schema(schema).guided()
    if len(json.dumps(schema)) > MAX_SCHEMA_BYTES:
        raise EngineError("invalid_schema", f"schema_json is over {MAX_SCHEMA_BYTES} bytes")
    try:
        Draft202012Validator.check_schema(schema)
    except SchemaError as error:
        raise EngineError(
            "invalid_schema", f"schema_json is not a valid JSON Schema: {error.message}"
        ) from None
    properties = schema.get("properties")
    if schema.get("type") != "object" or not isinstance(properties, dict) or not properties:
        raise EngineError("invalid_schema", "schema_json must be an object schema with properties")
    if len(properties) > MAX_FIELDS:
        raise EngineError("invalid_schema", f"schema_json has over {MAX_FIELDS} fields")
    bad = [name for name in properties if not FIELD_NAME.match(str(name))]
    if bad:
        raise EngineError("invalid_schema", f"{len(bad)} field names are not lower_snake_case")
    if not all(isinstance(value, dict) for value in properties.values()):
        raise EngineError("invalid_schema", "every property of schema_json must be a schema object")
    return _object({name: _bounded(value) for name, value in properties.items()})


def _bounded(schema: dict[str, Any]) -> dict[str, Any]:
    """A tenant's string property as xgrammar follows it, its output bounded (a random or confused
    model would otherwise write until ``max_tokens``): its length, or ``MAX_FREE_TEXT``, becomes
    the bound of a pattern that lets the value hold escapes, or of its own pattern's ``+`` and
    ``*`` (xgrammar refuses a pattern beside a length, and writes no escape in a string bounded by
    ``maxLength``: engines.llm.guided_grammar). The lengths are the tenant's to check on the value."""
    if schema.get("type") != "string" or {"enum", "const", "format"} & set(schema):
        return schema
    rest = {key: value for key, value in schema.items() if key not in ("minLength", "maxLength")}
    limit = schema.get("maxLength", MAX_FREE_TEXT)
    if "pattern" in schema:
        return {**rest, "pattern": bounded_pattern(schema["pattern"], limit)}
    return {**rest, **text_schema(limit, schema.get("minLength", 0))}
