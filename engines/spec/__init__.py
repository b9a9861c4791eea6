"""The document types and fields of ARCHITECTURE §3.2, read once from ``document_types.toml``.

This is the one definition every part of DocIntel reads — the app's validation, decision and
pages, the Gemma 4 schemas and prompts, the CPU engine's readers, the generator and the
evaluation — so a field is added, renamed or made required in one place, as data. The file is
checked when it is loaded (every name a type lists is a field, every field's kind and format
exist), so a typo fails at import, not on a customer's document.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from engines.llm.guided_grammar import text_schema

SPEC_PATH = Path(__file__).with_name("document_types.toml")


class SpecError(ValueError):
    """The field specification file contradicts itself."""


@dataclass(frozen=True)
class FieldSpec:
    """One canonical field: what its value is (``kind``), how it is written (``format``), the
    calibration family it is fitted with, the validators it gets and what a model is told."""

    name: str
    kind: str
    family: str
    format: str
    validators: tuple[str, ...]
    hint: str | None


@dataclass(frozen=True)
class DocumentTypeSpec:
    """One document type: its fields in reading order, those a decision needs, and the
    machine-readable identity zone (``mrz``, ``pdf417``) that documents of the type carry."""

    name: str
    family: str
    description: str
    fields: tuple[str, ...]
    required: tuple[str, ...]
    identity_zone: str | None


@dataclass(frozen=True)
class FieldCatalogue:
    """The whole specification, checked."""

    formats: MappingProxyType[str, dict[str, Any]]
    fields: MappingProxyType[str, FieldSpec]
    types: MappingProxyType[str, DocumentTypeSpec]


def load(path: Path = SPEC_PATH) -> FieldCatalogue:
    """Read and check a specification file (the bundled one unless told otherwise)."""
    raw = tomllib.loads(path.read_text(encoding="utf-8"))
    formats: dict[str, dict[str, Any]] = raw["formats"]
    kinds: dict[str, dict[str, Any]] = raw["kinds"]
    fields: dict[str, FieldSpec] = {}
    for name, entry in raw["fields"].items():
        kind = kinds.get(entry["kind"])
        if kind is None:
            raise SpecError(f"field {name}: unknown kind {entry['kind']!r}")
        value_format = entry.get("format", kind["format"])
        if value_format not in formats:
            raise SpecError(f"field {name}: unknown format {value_format!r}")
        fields[name] = FieldSpec(
            name=name,
            kind=entry["kind"],
            family=kind["family"],
            format=value_format,
            validators=(*kind.get("validators", ()), *entry.get("validators", ())),
            hint=entry.get("hint"),
        )
    types: dict[str, DocumentTypeSpec] = {}
    for name, entry in raw["types"].items():
        listed = tuple(entry["fields"])
        required = tuple(entry["required"])
        unknown = [f for f in listed if f not in fields]
        if unknown:
            raise SpecError(f"type {name}: unknown fields {unknown}")
        if not set(required) <= set(listed):
            raise SpecError(f"type {name}: required fields it does not list")
        types[name] = DocumentTypeSpec(
            name=name,
            family=entry["family"],
            description=entry["description"],
            fields=listed,
            required=required,
            identity_zone=entry.get("identity_zone"),
        )
    return FieldCatalogue(MappingProxyType(formats), MappingProxyType(fields), MappingProxyType(types))


CATALOGUE = load()

DOCUMENT_TYPES: tuple[str, ...] = tuple(CATALOGUE.types)
FIELDS: dict[str, tuple[str, ...]] = {name: spec.fields for name, spec in CATALOGUE.types.items()}
# Fields without which a document of the type cannot be approved without a human.
REQUIRED_FIELDS: dict[str, tuple[str, ...]] = {
    name: spec.required for name, spec in CATALOGUE.types.items() if spec.required
}
WITH_MRZ = frozenset(name for name, spec in CATALOGUE.types.items() if spec.identity_zone == "mrz")


def fields_of_kind(*kinds: str) -> frozenset[str]:
    """The canonical fields whose values are of one of ``kinds`` (``"date"``, ``"person_name"``…)."""
    return frozenset(name for name, spec in CATALOGUE.fields.items() if spec.kind in kinds)


def fields_in_format(value_format: str) -> frozenset[str]:
    """The canonical fields written in ``value_format`` (``"text"``: free words no validator checks)."""
    return frozenset(name for name, spec in CATALOGUE.fields.items() if spec.format == value_format)


def field_family(name: str) -> str:
    """The calibration family of a field name ("other" for a tenant's own fields).

    The family groups fields whose values fail in the same way (a name misread is not a date
    misread), so calibration fits one map per family and source instead of one per field name: a
    family has enough labelled examples to fit, a single rare field would not.
    """
    spec = CATALOGUE.fields.get(name)
    return spec.family if spec else "other"


def value_schema(name: str) -> dict[str, Any]:
    """The JSON Schema of a canonical field's value as guided decoding follows it (a copy: callers
    may wrap it). A ``maxLength`` becomes the bound of a pattern, because xgrammar writes no escape
    in a string bounded by ``maxLength`` (engines.llm.guided_grammar)."""
    schema = dict(CATALOGUE.formats[CATALOGUE.fields[name].format])
    if "maxLength" in schema and "pattern" not in schema:
        return text_schema(schema["maxLength"], schema.get("minLength", 0))
    return schema


DATE_FIELDS = fields_of_kind("date")
AMOUNT_FIELDS = fields_of_kind("amount")
PERSON_NAME_FIELDS = fields_of_kind("person_name")
