"""The address on the proof of address matches the driver licence's or the declared one.

Both are normalised first (plain ASCII, upper case, street types in one spelling, a flat or unit
number apart from the street number) and then compared part by part: the postcode and the street
number must agree, a flat number must agree when both carry one (one side often leaves it out),
and the street's name may differ by an abbreviation or an OCR slip. The words are data
(``knowledge/addresses.toml``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass

from rapidfuzz import fuzz

from apps.cases import knowledge
from apps.cases.checks.types import CaseFacts, CheckResult, Policy, usable

CHECK = "address_matches"
_ORDINAL = re.compile(r"^\d+(ST|ND|RD|TH|E|ER|EME)$")  # 1ST AVENUE, 2E RUE: part of the street's name
_UNIT_SLASH = re.compile(r"\b([0-9]+[A-Z]?)\s*/\s*([0-9]+[A-Z]?)\b")  # 2/10 HIGH ST: unit 2 of number 10


@dataclass(frozen=True)
class Address:
    number: str  # the street number with its suffix ("156TER"), "" when none
    unit: str  # the flat, apartment or unit number, "" when none
    street: str  # the street's name, normalised ("PARK TCE")
    postcode: str  # without spaces or hyphens


def _plain(text: str) -> str:
    return unicodedata.normalize("NFKD", text.upper()).encode("ascii", "ignore").decode()


def parse_address(fields: Mapping[str, str]) -> Address | None:
    """The address in a document's (or the declared data's) address fields, or None without one."""
    known = knowledge.addresses()
    line = _plain(" ".join(fields.get(f, "") for f in ("address_street", "address_street_2")))
    postcode = re.sub(r"[^A-Z0-9]", "", _plain(fields.get("address_postal_code", "")))
    if not line.strip() and not postcode:
        return None
    unit = ""
    slash = _UNIT_SLASH.search(line)
    if slash:
        unit, line = slash.group(1), line[: slash.start()] + slash.group(2) + line[slash.end() :]
    tokens = re.sub(r"[^A-Z0-9#]+", " ", line.replace("#", " # ")).split()
    number, street = "", []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        if token in known.unit_markers and index + 1 < len(tokens):
            unit = unit or tokens[index + 1]
            index += 2
            continue
        if any(c.isdigit() for c in token) and not _ORDINAL.match(token):
            if not number:
                number = token
                following = tokens[index + 1] if index + 1 < len(tokens) else ""
                if following in known.number_suffixes and index + 2 < len(tokens):
                    number += following
                    index += 1
            elif not unit:
                unit = token  # a second number: "123 MAIN ST 4B"
        elif token not in known.ignored:
            street.append(_street_word(token))
        index += 1
    return Address(number=number, unit=unit, street=" ".join(street), postcode=postcode)


def _street_word(token: str) -> str:
    """A word of a street's name with its type in the short form (ROAD → RD, HAUPTSTRASSE → HAUPTSTR)."""
    known = knowledge.addresses()
    if token in known.street_types:
        return known.street_types[token]
    for long, short in known.glued_street_types.items():
        if token.endswith(long) and len(token) > len(long):
            return token[: -len(long)] + short
    return token


def _same_postcode(a: str, b: str) -> bool:
    """Equal, or the same US ZIP code where one side adds the +4."""
    if a == b:
        return True
    return a.isdigit() and b.isdigit() and {len(a), len(b)} == {5, 9} and a[:5] == b[:5]


def address_differences(a: Address, b: Address) -> list[str]:
    """The parts in which two addresses differ, named (never their values); empty when they match."""
    differences = []
    if not a.postcode or not b.postcode or not _same_postcode(a.postcode, b.postcode):
        differences.append("address_postal_code")
    if not a.number or a.number != b.number:
        differences.append("street number")
    if a.unit and b.unit and a.unit != b.unit:
        differences.append("flat number")
    similarity = fuzz.token_sort_ratio(a.street, b.street) / 100
    if not a.street or not b.street or similarity < knowledge.addresses().street_similarity:
        differences.append("address_street")
    return differences


def address_matches(facts: CaseFacts, policy: Policy) -> CheckResult:
    proofs = [(d.label, a) for d in usable(facts, "address") if (a := parse_address(d.fields)) is not None]
    references = [
        (d.label, a)
        for d in usable(facts)
        if d.document_type == "driver_license" and (a := parse_address(d.fields)) is not None
    ]
    declared = parse_address(facts.declared)
    if declared is not None:
        references.append(("the declared address", declared))
    if not proofs or not references:
        return CheckResult(CHECK, True, "no two addresses to compare")
    problems: list[str] = []
    for label, proof in proofs:
        compared = [(ref_label, address_differences(proof, ref)) for ref_label, ref in references]
        if not any(not differences for _, differences in compared):
            problems.extend(
                f"address of {label} differs from {ref_label} in {', '.join(differences)}"
                for ref_label, differences in compared
            )
    if problems:
        return CheckResult(CHECK, False, "; ".join(problems))
    return CheckResult(CHECK, True, f"the address of {len(proofs)} proofs of address matches")
