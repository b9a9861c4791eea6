"""Codes that may appear in an MRZ's issuing-state and nationality fields.

ICAO 9303 Part 3 §5 uses ISO 3166-1 alpha-3, plus Germany's single 'D' and a few ICAO-only codes
(organisations, stateless persons, British nationality categories, the 'UTO' specimen state).
Repair uses this list to prefer a known code over an OCR misreading that is one lookalike away
(e.g. 'OAT' for 'QAT'); it never rejects an unknown code that reads cleanly.

The ISO 3166 codes come from pycountry (the ISO 3166 database as Debian's iso-codes keeps it), so a
new or withdrawn state follows a package update rather than an edit here; only the codes ICAO adds
to ISO 3166, which no ISO database holds, are written out below.
"""

from __future__ import annotations

import pycountry

ISO_ALPHA3 = frozenset(country.alpha_3 for country in pycountry.countries)

# ICAO 9303 Part 3 §5 and its annexes: Germany's one-letter code, the EU and UN organisations,
# Kosovo (RKS), the British nationality categories, stateless persons and refugees (XXA to XXC),
# an unspecified nationality (XXX), the specimen state Utopia, and the other organisations' X codes.
ICAO_ONLY = frozenset(
    """
    D EUE GBD GBN GBO GBP GBS RKS UNA UNK UNO UTO XBA XCC XCE XCO XDC XEC XES XIM XMP XOM
    XPO XXA XXB XXC XXX
    """.split()  # noqa: SIM905 (a word list reads better than quoted strings)
)

KNOWN_CODES = ISO_ALPHA3 | ICAO_ONLY


def is_known_code(field: str) -> bool:
    """Whether a 3-character MRZ country field ('D<<' for Germany) holds a known code."""
    return field.replace("<", "") in KNOWN_CODES and len(field.rstrip("<")) == len(field.replace("<", ""))
