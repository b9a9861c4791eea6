"""The AAMVA DL/ID standard's tables (``engines/knowledge/aamva.toml``), read and checked once.

The barcode parser, the licence reader and the generator share these tables: which element ids
carry which field in which version, the separators a header may declare, the name suffixes, and
every issuer's IIN. They are data so that a newly listed IIN or an issuer's own placeholder is a
line in a file, not a change to the parser; the file is checked on load (codes unique, IINs six
digits, every element id three characters), so a typo fails at import, not on a customer's card.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

AAMVA_PATH = Path(__file__).resolve().parent.parent / "knowledge" / "aamva.toml"
ELEMENT_ID = re.compile(r"[A-Z][A-Z0-9]{2}")
_COUNTRIES = frozenset({"USA", "CAN", "MEX"})


class AamvaDataError(ValueError):
    """The AAMVA knowledge file contradicts itself."""


@dataclass(frozen=True)
class Jurisdiction:
    """An issuer: its state/province code, country, IINs (the ISO one first) and front titles."""

    code: str
    country: str
    iins: tuple[str, ...]
    front_names: tuple[str, ...]


@dataclass(frozen=True)
class AamvaTables:
    compliance_indicator: str
    standard_separators: tuple[str, str, str]
    file_types: tuple[str, ...]
    always_separators: str
    latest_version: int
    elements: MappingProxyType[str, tuple[str, ...]]
    address_groups: tuple[tuple[str, str, str, str, str], ...]
    truncation: MappingProxyType[str, str]
    licence_elements: tuple[str, ...]
    placeholders: frozenset[str]
    sex_codes: MappingProxyType[str, str]
    country_codes: MappingProxyType[str, str]
    truncated_codes: frozenset[str]
    eye_colours: tuple[str, ...]
    suffixes: frozenset[str]
    suffixes_in_names: frozenset[str]
    full_name_separators: str
    jurisdictions: tuple[Jurisdiction, ...]
    ids_by_edition: MappingProxyType[int, frozenset[str]]  # first version of an edition -> ids
    mandatory_by_edition: MappingProxyType[int, frozenset[str]]
    element_forms: MappingProxyType[str, re.Pattern[str]]  # element id -> its value's form
    may_be_empty: frozenset[str]  # free-text elements an issuer may leave empty

    def edition(self, version: int | None) -> int | None:
        """The first version of the edition ``version`` belongs to (None: unknown or pre-2000)."""
        if version is None or version < 1:
            return None
        return max(first for first in self.ids_by_edition if first <= version)

    def element_ids(self, version: int | None) -> frozenset[str]:
        """The element ids a card of ``version`` may carry (every edition's when unknown)."""
        edition = self.edition(version)
        if edition is None:
            return frozenset().union(*self.ids_by_edition.values())
        return self.ids_by_edition[edition]

    def mandatory_ids(self, version: int | None) -> frozenset[str]:
        edition = self.edition(version)
        return self.mandatory_by_edition[edition] if edition is not None else frozenset()


def _ids(where: str, values: Any) -> tuple[str, ...]:
    if not isinstance(values, list) or not all(
        isinstance(v, str) and ELEMENT_ID.fullmatch(v) for v in values
    ):
        raise AamvaDataError(f"{where}: expected a list of three-character element ids")
    return tuple(values)


def _jurisdictions(raw: list[dict[str, Any]]) -> tuple[Jurisdiction, ...]:
    out: list[Jurisdiction] = []
    seen_codes: set[str] = set()
    seen_iins: set[str] = set()
    for entry in raw:
        code, country = entry["code"], entry["country"]
        iins = tuple(entry["iins"])
        if code in seen_codes or not re.fullmatch(r"[A-Z]{2,3}", code):
            raise AamvaDataError(f"jurisdiction {code!r}: not a new two- or three-letter code")
        if country not in _COUNTRIES:
            raise AamvaDataError(f"jurisdiction {code}: unknown country {country!r}")
        if not iins or any(not re.fullmatch(r"\d{6}", iin) or iin in seen_iins for iin in iins):
            raise AamvaDataError(f"jurisdiction {code}: IINs must be new six-digit numbers")
        seen_codes.add(code)
        seen_iins.update(iins)
        names = tuple(name.upper() for name in entry.get("front_names", ()))
        out.append(Jurisdiction(code, country, iins, names))
    return tuple(out)


def _editions(raw: dict[str, Any], prefix: str) -> dict[int, frozenset[str]]:
    return {
        int(key.removeprefix(prefix).removeprefix("v")): frozenset(_ids(f"elements_by_version.{key}", ids))
        for key, ids in raw.items()
        if key.startswith(f"{prefix}v")
    }


def _forms(raw: dict[str, Any]) -> dict[str, re.Pattern[str]]:
    patterns = raw["forms"]
    out = {}
    for element_id, form in raw.items():
        if element_id in ("forms", "may_be_empty"):
            continue
        _ids("element_forms", [element_id])
        if form not in patterns:
            raise AamvaDataError(f"element_forms.{element_id}: unknown form {form!r}")
        out[element_id] = re.compile(patterns[form])
    return out


def load(path: Path = AAMVA_PATH) -> AamvaTables:
    """Read and check the AAMVA tables (the bundled file unless told otherwise)."""
    raw = tomllib.loads(path.read_text(encoding="utf-8"))
    header, elements, values, names = raw["header"], raw["elements"], raw["values"], raw["names"]
    separators = tuple(header["standard_separators"])
    if len(separators) != 3 or any(len(s) != 1 for s in separators):
        raise AamvaDataError("header.standard_separators: three single characters")
    groups = tuple(tuple(_ids("elements.address_groups", group)) for group in elements["address_groups"])
    if any(len(group) != 5 for group in groups):
        raise AamvaDataError("elements.address_groups: street, street 2, city, state, postal code")
    fields = {
        key: _ids(f"elements.{key}", value)
        for key, value in elements.items()
        if key not in ("address_groups", "truncation", "licence_elements")
    }
    truncation = elements["truncation"]
    _ids("elements.truncation", list(truncation))
    suffixes = frozenset(names["suffixes"])
    in_names = frozenset(names["suffixes_in_names"])
    if not in_names <= suffixes:
        raise AamvaDataError("names.suffixes_in_names: every one must be in names.suffixes")
    ids_by_edition = _editions(raw["elements_by_version"], "")
    mandatory = _editions(raw["elements_by_version"], "mandatory_")
    if set(mandatory) != set(ids_by_edition) or any(mandatory[e] - ids_by_edition[e] for e in mandatory):
        raise AamvaDataError("elements_by_version: each edition's mandatory ids must be among its ids")
    if not set(values["country_codes"].values()) <= _COUNTRIES:
        raise AamvaDataError("values.country_codes: every code must name USA, CAN or MEX")
    return AamvaTables(
        compliance_indicator=header["compliance_indicator"],
        standard_separators=(separators[0], separators[1], separators[2]),
        file_types=tuple(header["file_types"]),
        always_separators="".join(header["always_separators"]),
        latest_version=int(header["latest_version"]),
        elements=MappingProxyType(fields),
        address_groups=groups,  # type: ignore[arg-type]
        truncation=MappingProxyType(dict(truncation)),
        licence_elements=_ids("elements.licence_elements", elements["licence_elements"]),
        placeholders=frozenset(values["placeholders"]),
        sex_codes=MappingProxyType(dict(values["sex_codes"])),
        country_codes=MappingProxyType(dict(values["country_codes"])),
        truncated_codes=frozenset(values["truncated"]),
        eye_colours=tuple(values["eye_colours"]),
        suffixes=suffixes,
        suffixes_in_names=in_names,
        full_name_separators="".join(names["full_name_separators"]),
        jurisdictions=_jurisdictions(raw["issuers"]["jurisdictions"]),
        ids_by_edition=MappingProxyType(ids_by_edition),
        mandatory_by_edition=MappingProxyType(mandatory),
        element_forms=MappingProxyType(_forms(raw["element_forms"])),
        may_be_empty=frozenset(_ids("element_forms.may_be_empty", raw["element_forms"]["may_be_empty"])),
    )


TABLES = load()
