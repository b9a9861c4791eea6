"""Issuer Identification Numbers of AAMVA members: which jurisdiction issued a DL/ID barcode.

The six-digit IIN in an AAMVA barcode header names the issuer more reliably than the address
inside (people move; the address state is where they live, not who issued the card), and it is
there when the card's own state element is not. The table is AAMVA's public IIN list, every US
state, DC, the territories, the US Department of State, the Canadian provinces and territories
and the Mexican states AAMVA lists, kept as data in ``engines/knowledge/aamva.toml``; the value
is the issuer's code and its ISO 3166 alpha-3 country. Alberta appears twice: its older cards
carry a non-ISO IIN.
"""

from __future__ import annotations

from engines.licence.aamva_data import TABLES

USA = "USA"
CAN = "CAN"

IIN_JURISDICTIONS: dict[str, tuple[str, str]] = {
    iin: (jurisdiction.code, jurisdiction.country)
    for jurisdiction in TABLES.jurisdictions
    for iin in jurisdiction.iins
}

# The other way round, for writers (the synthetic generator): the ISO IIN of each jurisdiction.
JURISDICTION_IINS: dict[str, str] = {
    jurisdiction.code: jurisdiction.iins[0] for jurisdiction in TABLES.jurisdictions
}

# The issuer's name as a front prints it (its title line), to its code: US and Canadian issuers.
JURISDICTION_NAMES: dict[str, str] = {
    name: jurisdiction.code for jurisdiction in TABLES.jurisdictions for name in jurisdiction.front_names
}


def issuer(iin: str | None) -> tuple[str, str] | None:
    """(code, country) of the jurisdiction that owns ``iin``, None for an IIN AAMVA does not list."""
    return IIN_JURISDICTIONS.get(iin or "")
