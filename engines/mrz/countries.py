"""Codes that may appear in an MRZ's issuing-state and nationality fields.

ICAO 9303 Part 3 §5 uses ISO 3166-1 alpha-3, plus Germany's single 'D' and a few ICAO-only codes
(organisations, stateless persons, British nationality categories, the 'UTO' specimen state).
Repair uses this list to prefer a known code over an OCR misreading that is one lookalike away
(e.g. 'OAT' for 'QAT'); it never rejects an unknown code that reads cleanly.

The ISO 3166 codes come from pycountry (the ISO 3166 database as Debian's iso-codes keeps it), so a
new or withdrawn state follows a package update rather than an edit here; only the codes ICAO adds
to ISO 3166, which no ISO database holds, are written out, as data
(engines/knowledge/mrz_formats.toml).
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pycountry

ISO_ALPHA3 = frozenset(country.alpha_3 for country in pycountry.countries)

# The codes ICAO adds, as data.
_ICAO_FILE = Path(__file__).resolve().parent.parent / "knowledge" / "mrz_formats.toml"
ICAO_ONLY = frozenset(tomllib.loads(_ICAO_FILE.read_text(encoding="utf-8"))["icao_only_codes"])

KNOWN_CODES = ISO_ALPHA3 | ICAO_ONLY


def is_known_code(field: str) -> bool:
    """Whether a 3-character MRZ country field ('D<<' for Germany) holds a known code."""
    return field.replace("<", "") in KNOWN_CODES and len(field.rstrip("<")) == len(field.replace("<", ""))
