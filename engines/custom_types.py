"""A tenant's own document type, as a JSON Schema of fields (ARCHITECTURE §3.2, last paragraph).

A tenant describes its type's fields in the subset of JSON Schema every guided-decoding engine
follows (xgrammar, TensorRT-LLM's guided JSON): one flat object of string properties, each with a
``title`` and ``description`` (what the CPU reader looks for on the page, what the model is told),
a ``format`` saying how the value is written, and a bounded length. :func:`parse_schema` checks a
submitted schema against that subset and answers every problem at once, in words a tenant can act
on; :attr:`CustomSchema.normalized` is the schema as stored (defaults filled in), which parses to
the same fields again, and :meth:`CustomSchema.guided` is what the model decodes against.

Formats (``format``, or implied by ``enum`` / ``pattern``):

``date``       an ISO date, ``YYYY-MM-DD``
``amount``     a decimal string with two places (``"3150.00"``); its currency is a ``currency`` field
``currency``   an ISO 4217 code (``EUR``)
``name``       a person's or an organisation's name (free text, bounded)
``address``    a postal address on one line (free text, bounded)
``code``       an identifier matching the field's ``pattern`` (a bounded regular expression, matched
               in linear time by RE2: engines.tenant_patterns)
``enum``       one of the field's ``enum`` values
``text``       any other free text (bounded)

Pure Python without Django: the API checks schemas with it, the CPU engine and the Gemma 4 path
read documents with it, and apps/extraction validates the values with it.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import re._parser as sre_parse  # the stdlib's own regex parser: is a pattern's length bounded?
from dataclasses import asdict, dataclass
from typing import Any

from engines import tenant_patterns
from engines.spec import CATALOGUE, DOCUMENT_TYPES

FORMATS = ("date", "amount", "currency", "name", "address", "code", "enum", "text")
# How each format is written, as guided decoding enforces it: §3.1's own formats (engines/spec).
_FORMAT_PATTERNS = {
    name: CATALOGUE.formats[spec_format]["pattern"]
    for name, spec_format in (("date", "date"), ("amount", "amount"), ("currency", "alpha3"))
}
DEFAULT_MAX_LENGTH = {"name": 120, "address": 200, "text": 200}
MAX_LENGTH = 500  # characters of one free-text value: longer is a paragraph, not a field
MAX_PATTERN_LENGTH = 120  # characters a code's pattern may match
MAX_FIELDS = 40
MAX_ENUM_VALUES = 50
MAX_SCHEMA_BYTES = 16_384
MAX_TITLE = 80
MAX_DESCRIPTION = 300
TYPE_NAME = re.compile(r"^[a-z][a-z0-9_]{1,48}$")
FIELD_NAME = re.compile(r"^[a-z][a-z0-9_]{0,63}$")
# Keywords of the subset. Anything else (composition, references, conditionals, nested objects)
# is refused by name: a guided decoder would ignore it or fail on it.
_FIELD_KEYWORDS = frozenset(
    {"type", "title", "description", "format", "pattern", "enum", "maxLength", "minLength", "examples"}
)
_SCHEMA_KEYWORDS = frozenset(
    {"type", "title", "description", "properties", "required", "additionalProperties", "$schema"}
)
_REFERENCES = frozenset({"$ref", "$defs", "definitions", "$dynamicRef", "$recursiveRef"})


class SchemaInvalid(ValueError):
    """A tenant's schema outside the subset; ``problems``: each one, for people."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("; ".join(problems))
        self.problems = problems


@dataclass(frozen=True)
class CustomField:
    name: str
    title: str
    description: str
    format: str
    required: bool
    max_length: int | None = None  # free text
    pattern: str | None = None  # code
    enum: tuple[str, ...] = ()

    def value_schema(self) -> dict[str, Any]:
        """The JSON Schema of the value as a guided decoder follows it (no ``format``: xgrammar
        knows few formats, and a pattern says it exactly)."""
        schema: dict[str, Any] = {"type": "string", "title": self.title}
        if self.description:
            schema["description"] = self.description
        if self.format in _FORMAT_PATTERNS:
            schema["pattern"] = _FORMAT_PATTERNS[self.format]
        elif self.format == "code":
            schema["pattern"] = self.pattern
        elif self.format == "enum":
            schema["enum"] = list(self.enum)
        else:
            schema["maxLength"] = self.max_length
        return schema

    def stored_schema(self) -> dict[str, Any]:
        """The property as stored: the tenant's, with its defaults filled in."""
        schema = {**self.value_schema(), "format": self.format}
        if self.format in _FORMAT_PATTERNS:
            del schema["pattern"]
        return schema


@dataclass(frozen=True)
class CustomSchema:
    fields: tuple[CustomField, ...]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.fields)

    @property
    def required(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.fields if f.required)

    @property
    def titles(self) -> dict[str, str]:
        return {f.name: f.title for f in self.fields}

    def field(self, name: str) -> CustomField | None:
        return next((f for f in self.fields if f.name == name), None)

    @property
    def normalized(self) -> dict[str, Any]:
        """The schema as stored: parses back to these fields."""
        return {
            "type": "object",
            "properties": {f.name: f.stored_schema() for f in self.fields},
            "required": list(self.required),
            "additionalProperties": False,
        }

    def guided(self) -> dict[str, Any]:
        """The flat object the model decodes against (``engines.llm.schemas.tenant_schema`` wraps
        it: every key written once, in this order, null where the page shows none)."""
        return {
            "type": "object",
            "properties": {f.name: f.value_schema() for f in self.fields},
            "required": list(self.required),
        }

    def to_json(self) -> str:
        return json.dumps(self.normalized, separators=(",", ":"))


def check_type_name(name: Any) -> list[str]:
    """Problems with a type's name: lower_snake_case, and not one of the built-in §3.2 types."""
    if not isinstance(name, str) or not TYPE_NAME.match(name):
        return ["name must be 2 to 49 characters of lower-case letters, digits and _, starting with a letter"]
    if name in DOCUMENT_TYPES:
        return [f"name {name!r} is a built-in document type; choose another"]
    return []


def parse_schema(schema: Any) -> CustomSchema:
    """The fields of a tenant's schema, or :class:`SchemaInvalid` listing every problem."""
    if not isinstance(schema, dict):
        raise SchemaInvalid(["schema must be a JSON object"])
    if len(json.dumps(schema)) > MAX_SCHEMA_BYTES:
        raise SchemaInvalid([f"schema is over {MAX_SCHEMA_BYTES} bytes"])
    problems: list[str] = []
    if _REFERENCES & _all_keys(schema):
        problems.append("schema must not use references ($ref, $defs): write every field out")
    if schema.get("type") != "object":
        problems.append('schema must be {"type": "object", "properties": {...}}')
    unknown = sorted(set(schema) - _SCHEMA_KEYWORDS - _REFERENCES)
    if unknown:
        problems.append(f"schema keywords not supported: {', '.join(unknown)}")
    if schema.get("additionalProperties", False) is not False:
        problems.append("additionalProperties must be false (or left out)")
    properties = schema.get("properties")
    if not isinstance(properties, dict) or not properties:
        problems.append("schema must list its fields in properties")
        raise SchemaInvalid(problems)
    if len(properties) > MAX_FIELDS:
        problems.append(f"schema has {len(properties)} fields; at most {MAX_FIELDS}")
    required = schema.get("required", [])
    if not isinstance(required, list) or not all(isinstance(r, str) for r in required):
        problems.append("required must be a list of field names")
        required = []
    for name in required:
        if name not in properties:
            problems.append(f"required names {name!r}, which is not a field")
    fields = []
    for name, prop in properties.items():
        field, field_problems = _parse_field(str(name), prop, name in required)
        problems.extend(field_problems)
        if field is not None:
            fields.append(field)
    if problems:
        raise SchemaInvalid(problems)
    return CustomSchema(tuple(fields))


def _all_keys(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in _all_keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in _all_keys(v)}
    return set()


def _parse_field(name: str, prop: Any, required: bool) -> tuple[CustomField | None, list[str]]:
    if not FIELD_NAME.match(name):
        return None, [f"{name}: field names are lower_snake_case (a-z, 0-9, _), starting with a letter"]
    if not isinstance(prop, dict):
        return None, [f"{name}: must be a schema object"]
    problems = []
    kind = prop.get("type", "string")
    if kind in ("object", "array"):
        return None, [f"{name}: nested {kind}s are not supported; fields are flat strings"]
    if kind != "string":
        return None, [f'{name}: type must be "string" (amounts are strings too: format "amount")']
    unknown = sorted(set(prop) - _FIELD_KEYWORDS)
    if unknown:
        problems.append(f"{name}: keywords not supported: {', '.join(unknown)}")
    title = prop.get("title", name.replace("_", " ").capitalize())
    description = prop.get("description", "")
    if not isinstance(title, str) or not title.strip() or len(title) > MAX_TITLE:
        problems.append(f"{name}: title must be text of 1 to {MAX_TITLE} characters")
        title = name
    if not isinstance(description, str) or len(description) > MAX_DESCRIPTION:
        problems.append(f"{name}: description must be text of at most {MAX_DESCRIPTION} characters")
        description = ""
    value_format = prop.get("format") or (
        "enum" if "enum" in prop else "code" if "pattern" in prop else "text"
    )
    if value_format not in FORMATS:
        problems.append(f"{name}: format {value_format!r} is not one of {', '.join(FORMATS)}")
        return None, problems
    pattern, enum, max_length = None, (), None
    if value_format == "enum":
        values = prop.get("enum")
        if (
            not isinstance(values, list)
            or not values
            or len(values) > MAX_ENUM_VALUES
            or not all(isinstance(v, str) and 0 < len(v) <= MAX_TITLE for v in values)
        ):
            problems.append(f"{name}: enum must list 1 to {MAX_ENUM_VALUES} strings")
        else:
            enum = tuple(values)
    elif "enum" in prop:
        problems.append(f"{name}: enum goes with format enum")
    if value_format == "code":
        pattern = prop.get("pattern")
        if not isinstance(pattern, str):
            problems.append(f"{name}: a code needs its pattern (a regular expression)")
        else:
            problems.extend(f"{name}: {p}" for p in _pattern_problems(pattern))
            if {"maxLength", "minLength"} & set(prop):
                problems.append(
                    f"{name}: a pattern with minLength/maxLength cannot be guided; put the length in the pattern"
                )
    elif "pattern" in prop:
        problems.append(f"{name}: pattern goes with format code")
    if value_format in DEFAULT_MAX_LENGTH:
        max_length = prop.get("maxLength", DEFAULT_MAX_LENGTH[value_format])
        if (
            not isinstance(max_length, int)
            or isinstance(max_length, bool)
            or not 1 <= max_length <= MAX_LENGTH
        ):
            problems.append(f"{name}: maxLength must be a whole number from 1 to {MAX_LENGTH}")
    elif value_format != "code" and {"maxLength", "minLength"} & set(prop):
        problems.append(f"{name}: format {value_format} has its own length; drop maxLength/minLength")
    if problems:
        return None, problems
    return CustomField(
        name=name,
        title=title.strip(),
        description=description.strip(),
        format=value_format,
        required=required,
        max_length=max_length,
        pattern=pattern,
        enum=enum,
    ), []


def _pattern_problems(pattern: str) -> list[str]:
    """A code's pattern must compile, be anchored, and match strings of bounded length (an
    unbounded ``+`` or ``*`` lets a confused model write until its token budget). Whether RE2 runs
    it is asked when a type is defined: :func:`pattern_refusals`."""
    if len(pattern) > 300:
        return ["pattern is over 300 characters"]
    try:
        parsed = sre_parse.parse(pattern)  # parsing only, for its length: nothing is matched here
    except re.error as error:
        return [f"pattern is not a regular expression ({error})"]
    problems = []
    if not (pattern.startswith("^") and pattern.endswith("$")):
        problems.append("pattern must be anchored: ^...$")
    longest = parsed.getwidth()[1]
    if longest >= sre_parse.MAXREPEAT or longest > MAX_PATTERN_LENGTH:
        problems.append(
            f"pattern must match at most {MAX_PATTERN_LENGTH} characters: bound every repeat "
            "({1,20} instead of + or *)"
        )
    return problems


def pattern_refusals(custom: CustomSchema) -> list[str]:
    """The code patterns RE2 cannot run, each with why: refused when a type is defined
    (apps.doctypes). Every match of a tenant's pattern is RE2's (engines.tenant_patterns: linear
    time, however its quantifiers nest); a type stored before this check with such a pattern is
    still read, its field never found and its value never valid — nothing falls back to ``re``."""
    return [
        f"{f.name}: {why}"
        for f in custom.fields
        if f.pattern is not None and (why := tenant_patterns.pattern_refusal(f.pattern)) is not None
    ]


# ----------------------------------------------------------------------------------------------
# the types a classifier may choose
# ----------------------------------------------------------------------------------------------

MAX_CANDIDATES = 20  # of a tenant's types listed to the classifier (its prompt stays short)


@dataclass(frozen=True)
class TypeCandidate:
    """One of the tenant's own types the classifier may choose beside the §3.2 types: the latest
    version's schema travels with it, so a document classified into it is extracted with that
    schema in the same round trip (doc_pipeline's ``document_types_json``, ARCHITECTURE §3.5)."""

    name: str
    description: str
    version: int
    schema: dict[str, Any]  # the version's stored schema (CustomSchema.normalized)


def candidates_to_json(candidates: tuple[TypeCandidate, ...]) -> str:
    return json.dumps([asdict(c) for c in candidates], separators=(",", ":"))


def parse_candidates(data: Any) -> tuple[TypeCandidate, ...]:
    """``document_types_json`` as sent, every entry checked as a definition is (a name, a bounded
    description, a schema of the subset), or :class:`SchemaInvalid` saying what is wrong."""
    if not isinstance(data, list):
        raise SchemaInvalid(["document_types_json must be a JSON list"])
    if len(data) > MAX_CANDIDATES:
        raise SchemaInvalid([f"document_types_json lists {len(data)} types; at most {MAX_CANDIDATES}"])
    candidates: list[TypeCandidate] = []
    for entry in data:
        if not isinstance(entry, dict):
            raise SchemaInvalid(["each entry of document_types_json must be an object"])
        name, description, version = entry.get("name"), entry.get("description", ""), entry.get("version")
        problems = check_type_name(name)
        if not isinstance(description, str) or len(description) > MAX_DESCRIPTION:
            problems.append(f"{name}: description must be text of at most {MAX_DESCRIPTION} characters")
        if not isinstance(version, int) or isinstance(version, bool) or version < 1:
            problems.append(f"{name}: version must be a positive integer")
        if any(c.name == name for c in candidates):
            problems.append(f"{name}: listed twice")
        try:
            parse_schema(entry.get("schema"))
        except SchemaInvalid as error:
            problems.extend(f"{name}: {p}" for p in error.problems)
        if problems:
            raise SchemaInvalid(problems)
        candidates.append(TypeCandidate(str(name), str(description), int(entry["version"]), entry["schema"]))
    return tuple(candidates)


# ----------------------------------------------------------------------------------------------
# values
# ----------------------------------------------------------------------------------------------


def _currency_known(code: str) -> bool:
    import pycountry

    return pycountry.currencies.get(alpha_3=code) is not None


def value_valid(field: CustomField, value: str | None) -> bool | None:
    """Is ``value`` written as the field's format says (None: no value to judge)?"""
    if value is None:
        return None
    if field.format == "date":
        try:
            dt.date.fromisoformat(value)
        except ValueError:
            return False
        return re.fullmatch(_FORMAT_PATTERNS["date"], value) is not None
    if field.format == "amount":  # the pattern admits only what Decimal reads
        return re.fullmatch(_FORMAT_PATTERNS["amount"], value) is not None
    if field.format == "currency":
        return bool(re.fullmatch(_FORMAT_PATTERNS["currency"], value)) and _currency_known(value)
    if field.format == "code":
        return field.pattern is not None and tenant_patterns.fullmatch(field.pattern, value)
    if field.format == "enum":
        return value in field.enum
    return len(value) <= (field.max_length or MAX_LENGTH)
