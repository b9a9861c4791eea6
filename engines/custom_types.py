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
``code``       an identifier matching the field's ``pattern`` (a regular expression, matched in
               linear time by RE2: engines.tenant_patterns; its ``+`` and ``*`` are bounded for
               the model by the field's ``maxLength``, or ``MAX_PATTERN_LENGTH``)
``enum``       one of the field's ``enum`` values
``text``       any other free text (bounded)

Every pattern must also be one the model engine's grammar compiler follows (xgrammar:
engines.llm.guided_grammar), asked when a type is defined (:func:`pattern_refusals`); a length
bound is written into the pattern the model decodes with, and :attr:`CustomSchema.bounds` says
in words what was bounded.

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
from engines.llm import guided_grammar
from engines.spec import CATALOGUE, DOCUMENT_TYPES

FORMATS = ("date", "amount", "currency", "name", "address", "code", "enum", "text")
# How each format is written, as guided decoding enforces it: §3.1's own formats (engines/spec).
_FORMAT_PATTERNS = {
    name: CATALOGUE.formats[spec_format]["pattern"]
    for name, spec_format in (("date", "date"), ("amount", "amount"), ("currency", "alpha3"))
}
DEFAULT_MAX_LENGTH = {"name": 120, "address": 200, "text": 200}
MAX_LENGTH = 500  # characters of one free-text value: longer is a paragraph, not a field
MAX_PATTERN_LENGTH = 120  # characters of a code whose pattern has + or * and no maxLength
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
    max_length: int | None = None  # free text; a code's when the tenant gave one
    pattern: str | None = None  # code
    enum: tuple[str, ...] = ()
    min_length: int = 0

    @property
    def guided_pattern(self) -> str | None:
        """A code's pattern as the model decodes with it: its unbounded repeats bounded."""
        if self.pattern is None:
            return None
        return guided_grammar.bounded_pattern(self.pattern, self.max_length or MAX_PATTERN_LENGTH)

    def value_schema(self) -> dict[str, Any]:
        """The JSON Schema of the value as a guided decoder follows it (no ``format``: xgrammar
        knows few formats, and a pattern says it exactly; no ``maxLength``: it is in the pattern)."""
        schema: dict[str, Any] = {"type": "string", "title": self.title}
        if self.description:
            schema["description"] = self.description
        if self.format in _FORMAT_PATTERNS:
            schema["pattern"] = _FORMAT_PATTERNS[self.format]
        elif self.format == "code":
            schema["pattern"] = self.guided_pattern
        elif self.format == "enum":
            schema["enum"] = list(self.enum)
        else:
            schema.update(guided_grammar.text_schema(self.max_length or MAX_LENGTH, self.min_length))
        return schema

    def stored_schema(self) -> dict[str, Any]:
        """The property as stored: the tenant's, with its defaults filled in."""
        schema: dict[str, Any] = {"type": "string", "title": self.title}
        if self.description:
            schema["description"] = self.description
        if self.format == "code":
            schema["pattern"] = self.pattern
        elif self.format == "enum":
            schema["enum"] = list(self.enum)
        if self.max_length is not None:
            schema["maxLength"] = self.max_length
        if self.min_length:
            schema["minLength"] = self.min_length
        return {**schema, "format": self.format}

    def bound(self) -> str | None:
        """What bounds the model's value, in words, where a bound was written for it (a free
        text's length, a code's repeats); None where the format fixes it."""
        if self.format in DEFAULT_MAX_LENGTH:
            return f"at most {self.max_length} characters (written into the pattern the model follows)"
        if self.pattern is None:
            return None
        notes = []
        if self.guided_pattern != self.pattern:
            limit = self.max_length or MAX_PATTERN_LENGTH
            source = "its maxLength" if self.max_length else f"the default of {MAX_PATTERN_LENGTH} characters"
            notes.append(
                f"+ and * bounded to {limit} repeats ({source}) for the model: {self.guided_pattern}"
            )
        if self.max_length is not None or self.min_length:
            notes.append(
                f"length {self.min_length} to {self.max_length or MAX_LENGTH} checked on the value read"
            )
        return "; ".join(notes) or None


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

    @property
    def bounds(self) -> dict[str, str]:
        """Each field's bound, in words (:meth:`CustomField.bound`): what the type's detail says."""
        return {f.name: note for f in self.fields if (note := f.bound()) is not None}

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
    pattern, enum, max_length, min_length = None, (), None, 0
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
            pattern = None
    elif "pattern" in prop:
        problems.append(f"{name}: pattern goes with format code")
    if value_format in DEFAULT_MAX_LENGTH or value_format == "code":
        max_length = prop.get("maxLength", DEFAULT_MAX_LENGTH.get(value_format))
        min_length = prop.get("minLength", 0)
        if max_length is not None and not _whole(max_length, 1, MAX_LENGTH):
            problems.append(f"{name}: maxLength must be a whole number from 1 to {MAX_LENGTH}")
        elif not _whole(min_length, 0, max_length or MAX_LENGTH):
            problems.append(f"{name}: minLength must be a whole number from 0 to maxLength")
        elif isinstance(pattern, str):
            problems.extend(f"{name}: {p}" for p in _pattern_problems(pattern, max_length))
    elif {"maxLength", "minLength"} & set(prop):
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
        min_length=min_length,
    ), []


def _whole(value: Any, least: int, most: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and least <= value <= most


def _pattern_problems(pattern: str, max_length: int | None) -> list[str]:
    """A code's pattern must compile and be anchored, and bounded for the model (its ``+`` and
    ``*`` at ``max_length`` or ``MAX_PATTERN_LENGTH``) match at most ``MAX_LENGTH`` characters: a
    confused model must not write until its token budget. Whether RE2 and the engine's grammar
    compiler follow it is asked when a type is defined: :func:`pattern_refusals`."""
    if len(pattern) > 300:
        return ["pattern is over 300 characters"]
    try:
        sre_parse.parse(pattern)  # parsing only: nothing is matched here
    except re.error as error:
        return [f"pattern is not a regular expression ({error})"]
    problems = []
    if not (pattern.startswith("^") and pattern.endswith("$")):
        problems.append("pattern must be anchored: ^...$")
    guided = guided_grammar.bounded_pattern(pattern, max_length or MAX_PATTERN_LENGTH)
    try:
        longest = sre_parse.parse(guided).getwidth()[1]
    except re.error:  # a repeat bounded below its own minimum: the pattern itself says too much
        longest = sre_parse.MAXREPEAT
    if longest > MAX_LENGTH:
        problems.append(
            f"pattern must match at most {MAX_LENGTH} characters (its + and * count as "
            f"{max_length or MAX_PATTERN_LENGTH}): lower maxLength or bound the repeats"
        )
    return problems


def pattern_refusals(custom: CustomSchema) -> list[str]:
    """What RE2 or the model engine cannot follow, each with why: refused when a type is defined
    (apps.doctypes). Every match of a tenant's pattern is RE2's (engines.tenant_patterns: linear
    time, however its quantifiers nest), and the model decodes with the field's schema as the
    engine's own grammar compiler builds it (xgrammar: no backreference, ``\\b`` or lookaround,
    engines.llm.guided_grammar); vLLM would answer every document of such a type 400. A type
    stored before these checks with such a pattern is still read by the CPU engine, its field
    never found and its value never valid — nothing falls back to ``re``."""
    refusals = []
    for f in custom.fields:
        why = tenant_patterns.pattern_refusal(f.pattern) if f.pattern is not None else None
        if why is None and f.guided_pattern is not None:
            why = _engine_refusal(guided_grammar.regex_refusal(f.guided_pattern))
        if why is None:
            why = _engine_refusal(guided_grammar.schema_refusal(f.value_schema()))
        if why is not None:
            refusals.append(f"{f.name}: {why}")
    return refusals


def _engine_refusal(why: str | None) -> str | None:
    if why is None:
        return None
    return (
        f"the model engine's grammar compiler (xgrammar) cannot follow this pattern ({why}); "
        "backreferences (\\1), \\b, lookahead/lookbehind, \\p{..} and inline flags are not supported"
    )


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
    within = field.min_length <= len(value) <= (field.max_length or MAX_LENGTH)
    if field.format == "code":
        return within and field.pattern is not None and tenant_patterns.fullmatch(field.pattern, value)
    if field.format == "enum":
        return value in field.enum
    return within
