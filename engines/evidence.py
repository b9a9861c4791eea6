"""Evidence per field: what supports a value independently of its confidence score.

A calibrated score is a probability only on layouts like the ones it was fitted on; on a layout
from elsewhere a reader can pick the wrong line at 0.999. Evidence does not depend on having
seen the layout: check digits, a parsed barcode, amounts that add up, a text layer, two readers
agreeing, the value standing at its label. The kinds, their weights, which kinds count for each
field kind and how much an auto-approval needs are data (``engines/spec/evidence.toml``); this
module reads them and answers two questions: which evidence did the engine's own findings give
a field (:func:`engine_evidence`), and is a field's evidence enough (:func:`sufficient`).

Django-free: the engine's ``Evidence`` stage, the Gemma 4 path and the app's decision share it.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from types import MappingProxyType

from engines.spec import CATALOGUE, SpecError
from engines.types import Check, FieldResult

EVIDENCE_PATH = Path(__file__).resolve().parent / "spec" / "evidence.toml"

# The names of the kinds the code itself attaches (each must be in the data file).
MRZ_CHECK_DIGITS = "mrz_check_digits"
BARCODE = "barcode"
CHECKSUM = "checksum"
ARITHMETIC = "arithmetic"
EINVOICE_XML = "einvoice_xml"
TWO_READINGS = "two_readings"
TEXT_LAYER = "text_layer"
AT_LABEL = "at_label"
FAMILIAR_LAYOUT = "familiar_layout"
GROUNDED = "grounded"
ATTACHED_BY_CODE = (
    MRZ_CHECK_DIGITS,
    BARCODE,
    CHECKSUM,
    ARITHMETIC,
    EINVOICE_XML,
    TWO_READINGS,
    TEXT_LAYER,
    AT_LABEL,
    FAMILIAR_LAYOUT,
    GROUNDED,
)


@dataclass(frozen=True)
class EvidenceKind:
    name: str
    weight: float
    means: str


@dataclass(frozen=True)
class Requirement:
    """For one field kind: the evidence that counts for a value, and for a value found absent."""

    counts: frozenset[str]
    absence: frozenset[str]


@dataclass(frozen=True)
class EvidenceRules:
    needed: float
    needed_for_absence: float
    kinds: MappingProxyType[str, EvidenceKind]
    requirements: MappingProxyType[str, Requirement]
    labels: MappingProxyType[str, tuple[str, ...]]
    # per field, the fields on whose row it stands at its label (a currency beside an amount)
    row_labels: MappingProxyType[str, tuple[str, ...]]

    def requirement(self, field_name: str) -> Requirement | None:
        """The field's requirement by its kind in the field spec; None for a field outside the spec
        (a tenant's own field: :func:`sufficient` then takes any evidence)."""
        spec = CATALOGUE.fields.get(field_name)
        return None if spec is None else self.requirements.get(spec.kind)


def load(path: Path = EVIDENCE_PATH) -> EvidenceRules:
    """The rules, checked: every kind a requirement names exists, every field kind has one."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    kinds = {
        name: EvidenceKind(name, float(entry["weight"]), str(entry["means"]))
        for name, entry in data["kinds"].items()
    }
    requirements = {}
    for kind, entry in data["requirements"].items():
        counts, absence = frozenset(entry["counts"]), frozenset(entry.get("absence", ()))
        unknown = (counts | absence) - kinds.keys()
        if unknown:
            raise SpecError(f"{path.name}: requirements.{kind} names unknown evidence {sorted(unknown)}")
        requirements[kind] = Requirement(counts, absence)
    missing = {spec.kind for spec in CATALOGUE.fields.values()} - requirements.keys()
    if missing:
        raise SpecError(f"{path.name}: no requirement for field kinds {sorted(missing)}")
    undefined = set(ATTACHED_BY_CODE) - kinds.keys()
    if undefined:
        raise SpecError(f"{path.name}: evidence {sorted(undefined)} is attached by the code but not defined")
    labels = {name: tuple(keys) for name, keys in data.get("labels", {}).items()}
    return EvidenceRules(
        needed=float(data["needed"]),
        needed_for_absence=float(data["needed_for_absence"]),
        kinds=MappingProxyType(kinds),
        requirements=MappingProxyType(requirements),
        labels=MappingProxyType(labels),
        row_labels=MappingProxyType({k: tuple(v) for k, v in data.get("row_labels", {}).items()}),
    )


RULES = load()


def weight_of(field_name: str, evidence: Iterable[str], *, present: bool = True) -> float:
    """The weight of the evidence that counts for this field (each kind once)."""
    requirement = RULES.requirement(field_name)
    counted = set(evidence)
    if requirement is not None:
        counted &= requirement.counts if present else requirement.absence
    return sum(RULES.kinds[name].weight for name in counted if name in RULES.kinds)


def sufficient(field_name: str, evidence: Iterable[str], *, present: bool = True) -> bool:
    """Does the field's evidence support an automatic approval (whatever its score)?"""
    needed = RULES.needed if present else RULES.needed_for_absence
    return weight_of(field_name, evidence, present=present) >= needed - 1e-9


def with_evidence(found: FieldResult, *kinds: str) -> FieldResult:
    """The field with these kinds of evidence added (each once, in the data file's order)."""
    merged = set(found.evidence) | set(kinds)
    if merged == set(found.evidence):
        return found
    return replace(found, evidence=tuple(k for k in RULES.kinds if k in merged))


# Checks whose passing is evidence for named fields: check name -> (evidence, the fields).
_CHECK_EVIDENCE: tuple[tuple[str, str, frozenset[str]], ...] = (
    ("totals_arithmetic", ARITHMETIC, frozenset({"subtotal", "tax_amount", "total_amount"})),
    ("iban_checksum", CHECKSUM, frozenset({"iban_or_account_number"})),
)


def engine_evidence(fields: Mapping[str, FieldResult], checks: Sequence[Check]) -> dict[str, FieldResult]:
    """The evidence the reading's own findings give each field: its source (a verified MRZ, a
    parsed barcode, a text layer) and the checks that passed over it. Layout evidence
    (``at_label``) is the engine stage's (engines.stages.evidence); ``familiar_layout`` the app's."""
    passed = {c.name for c in checks if c.passed}
    failed = {c.name for c in checks if not c.passed}
    out: dict[str, FieldResult] = {}
    for name, found in fields.items():
        kinds: list[str] = []
        if found.source == "mrz" and "mrz_check_digits" in passed and found.valid is not False:
            kinds.append(MRZ_CHECK_DIGITS)
        if found.source == "barcode" and "barcode_parsed" in passed and found.valid is not False:
            kinds.append(BARCODE)
        if found.source == "text_layer" and found.value is not None:
            kinds.append(TEXT_LAYER)
        for check, kind, names in _CHECK_EVIDENCE:
            if name in names and check in passed and found.value is not None:
                kinds.append(kind)
        agreeing_zone = "mrz_matches_visual_zone" in passed or "barcode_vs_front" in passed
        if name in _ZONE_AGREEMENT_FIELDS and found.value is not None and agreeing_zone:
            kinds.append(TWO_READINGS)
        if found.source == "barcode" and "barcode_vs_front" in failed:
            kinds = [k for k in kinds if k != TWO_READINGS]
        beside = [fields[other] for other in RULES.row_labels.get(name, ()) if other in fields]
        if beside and _on_a_row_of(found, beside):
            kinds.append(AT_LABEL)
        out[name] = with_evidence(found, *kinds)
    return out


def _on_a_row_of(found: FieldResult, others: Sequence[FieldResult]) -> bool:
    """Does the value's box share a row (overlap by half its height) with one of the others'?"""
    if found.value is None or found.bbox is None:
        return False
    _, y0, _, y1 = found.bbox
    for other in others:
        if other.value is None or other.bbox is None or other.page != found.page:
            continue
        overlap = min(y1, other.bbox[3]) - max(y0, other.bbox[1])
        if overlap >= 0.5 * min(y1 - y0, other.bbox[3] - other.bbox[1]) > 0:
            return True
    return False


# Identity fields a printed page may confirm against its machine-readable zone.
_ZONE_AGREEMENT_FIELDS = frozenset(
    name for name, spec in CATALOGUE.fields.items() if spec.kind in ("person_name", "date", "number")
)
