"""The cases app's knowledge, read once from the TOML files in ``knowledge/``.

Code holds mechanisms; the spellings of names and addresses, the policy's defaults and the order in
which failed checks decide a case are data, reviewed like code (STYLE.md, "knowledge as data").
Django-free, so the checks can be tested on plain dictionaries.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

KNOWLEDGE_DIR = Path(__file__).with_name("knowledge")


def _read(name: str) -> dict[str, Any]:
    return tomllib.loads((KNOWLEDGE_DIR / name).read_text(encoding="utf-8"))


@dataclass(frozen=True)
class NameKnowledge:
    transliteration: MappingProxyType[str, str]
    titles: frozenset[str]
    suffixes: frozenset[str]
    particles: frozenset[str]
    token_similarity: float
    initial_score: float


@dataclass(frozen=True)
class AddressKnowledge:
    street_types: MappingProxyType[str, str]
    glued_street_types: MappingProxyType[str, str]
    number_suffixes: frozenset[str]
    unit_markers: frozenset[str]
    ignored: frozenset[str]
    street_similarity: float


@dataclass(frozen=True)
class DecisionRule:
    check: str
    outcome: str
    waived_by: str = ""


@dataclass(frozen=True)
class RuleKnowledge:
    defaults: MappingProxyType[str, Any]
    rules: tuple[DecisionRule, ...]


@cache
def names() -> NameKnowledge:
    raw = _read("names.toml")
    words, thresholds = raw["words"], raw["thresholds"]
    return NameKnowledge(
        transliteration=MappingProxyType(dict(raw["transliteration"])),
        titles=frozenset(words["titles"]),
        suffixes=frozenset(words["suffixes"]),
        particles=frozenset(words["particles"]),
        token_similarity=float(thresholds["token_similarity"]),
        initial_score=float(thresholds["initial"]),
    )


@cache
def addresses() -> AddressKnowledge:
    raw = _read("addresses.toml")
    return AddressKnowledge(
        street_types=MappingProxyType(dict(raw["street_types"])),
        glued_street_types=MappingProxyType(dict(raw["glued_street_types"])),
        number_suffixes=frozenset(raw["numbers"]["suffixes"]),
        unit_markers=frozenset(raw["units"]["markers"]),
        ignored=frozenset(raw["ignored"]["words"]),
        street_similarity=float(raw["thresholds"]["street_similarity"]),
    )


OUTCOMES = ("rejected", "resubmission_requested", "needs_review")


@cache
def rules() -> RuleKnowledge:
    raw = _read("rules.toml")
    parsed = tuple(DecisionRule(**entry) for entry in raw["rules"])
    unknown = [r.outcome for r in parsed if r.outcome not in OUTCOMES]
    if unknown:
        raise ValueError(f"rules.toml: unknown outcomes {unknown}")
    return RuleKnowledge(defaults=MappingProxyType(dict(raw["defaults"])), rules=parsed)
