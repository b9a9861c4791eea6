"""Issuer Identification Numbers of AAMVA members: which jurisdiction issued a DL/ID barcode.

The six-digit IIN in an AAMVA barcode header names the issuer more reliably than the address
inside (people move; the address state is where they live, not who issued the card). The list
is AAMVA's public IIN table (https://www.aamva.org/identity/issuer-identification-numbers-(iin)),
restricted to US states, territories and Canadian provinces; the value is the two-letter postal
code and the ISO 3166 alpha-3 country. Alberta appears twice: its older cards carry a non-ISO IIN.
"""

from __future__ import annotations

USA = "USA"
CAN = "CAN"

IIN_JURISDICTIONS: dict[str, tuple[str, str]] = {
    # United States and territories
    "636000": ("VA", USA),
    "636001": ("NY", USA),
    "636002": ("MA", USA),
    "636003": ("MD", USA),
    "636004": ("NC", USA),
    "636005": ("SC", USA),
    "636006": ("CT", USA),
    "636007": ("LA", USA),
    "636008": ("MT", USA),
    "636009": ("NM", USA),
    "636010": ("FL", USA),
    "636011": ("DE", USA),
    "636014": ("CA", USA),
    "636015": ("TX", USA),
    "636018": ("IA", USA),
    "636019": ("GU", USA),
    "636020": ("CO", USA),
    "636021": ("AR", USA),
    "636022": ("KS", USA),
    "636023": ("OH", USA),
    "636024": ("VT", USA),
    "636025": ("PA", USA),
    "636026": ("AZ", USA),
    "636029": ("OR", USA),
    "636030": ("MO", USA),
    "636031": ("WI", USA),
    "636032": ("MI", USA),
    "636033": ("AL", USA),
    "636034": ("ND", USA),
    "636035": ("IL", USA),
    "636036": ("NJ", USA),
    "636037": ("IN", USA),
    "636038": ("MN", USA),
    "636039": ("NH", USA),
    "636040": ("UT", USA),
    "636041": ("ME", USA),
    "636042": ("SD", USA),
    "636043": ("DC", USA),
    "636045": ("WA", USA),
    "636046": ("KY", USA),
    "636047": ("HI", USA),
    "636049": ("NV", USA),
    "636050": ("ID", USA),
    "636051": ("MS", USA),
    "636052": ("RI", USA),
    "636053": ("TN", USA),
    "636054": ("NE", USA),
    "636055": ("GA", USA),
    "636058": ("OK", USA),
    "636059": ("AK", USA),
    "636060": ("WY", USA),
    "636061": ("WV", USA),
    "636062": ("VI", USA),
    "604427": ("AS", USA),
    "604430": ("MP", USA),
    "604431": ("PR", USA),
    # Canada
    "636012": ("ON", CAN),
    "636013": ("NS", CAN),
    "636016": ("NL", CAN),
    "636017": ("NB", CAN),
    "636028": ("BC", CAN),
    "636044": ("SK", CAN),
    "636048": ("MB", CAN),
    "604426": ("PE", CAN),
    "604428": ("QC", CAN),
    "604429": ("YT", CAN),
    "604432": ("AB", CAN),
    "604433": ("NU", CAN),
    "604434": ("NT", CAN),
    "990876": ("AB", CAN),
}

# The other way round, for writers (the synthetic generator): the ISO IIN of each jurisdiction.
JURISDICTION_IINS: dict[str, str] = {
    code: iin for iin, (code, _) in IIN_JURISDICTIONS.items() if iin != "990876"
}

CANADIAN_PROVINCES = frozenset(code for code, country in IIN_JURISDICTIONS.values() if country == CAN)
