"""Parse the PDF417 payload of a North American driver licence or ID card (AAMVA DL/ID standard).

The barcode on the back of every US and Canadian licence holds the printed data as text:

    @ <DES> <RS> <ST> "ANSI " IIN(6) version(2) [jurisdiction version(2)] entries(2)
    subfile designators: type(2) offset(4) length(4), one per entry ("DL", "ID", "ZC", ...)
    subfiles: type(2) then elements "DAQ<value>" separated by <DES>, ended by <ST>

It is the most reliable source on the card (error-corrected, no OCR), but real barcodes bend the
standard. The header is read as the card declares it, deviations and all
(:mod:`engines.licence.aamva_header`); the name in whichever layout its version uses
(:mod:`engines.licence.aamva_names`); the rest here: dates in either order, "NONE" for an absent
value, Ontario's trailing commas, ZIP+4 and Canadian postal codes, the second address line and
the suffix in their own fields, and the issuer from the IIN (:mod:`engines.licence.aamva_iin`).
What the standard says is data (``engines/knowledge/aamva.toml``).

Values are personal data: errors raised here name elements, never their contents.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date

from engines.licence.aamva_data import TABLES
from engines.licence.aamva_header import (
    RUN_TOGETHER,
    HeaderError,
    RunTogether,
    Subfile,
    parse_header,
    separators_of,
    split_payload,
    subfile_regions,
)
from engines.licence.aamva_header import elements as split_elements
from engines.licence.aamva_iin import CAN, issuer
from engines.licence.aamva_names import NameReading, clean_text, first_of, read_names
from engines.spec import FIELDS as SPEC_FIELDS

__all__ = [
    "CANONICAL_FIELDS", "RUN_TOGETHER", "AamvaError", "AamvaRecord", "Subfile", "clean_text", "format_postal_code",
    "looks_like_aamva", "parse_aamva", "parse_date",
]  # fmt: skip

_CANADIAN_POSTAL = re.compile(r"([A-Z]\d[A-Z])\s*-?\s*(\d[A-Z]\d)")

CANONICAL_FIELDS = SPEC_FIELDS["driver_license"]


class AamvaError(ValueError):
    """The payload is not an AAMVA DL/ID barcode, or too damaged to hold a licence. The message
    is the reason, in words an operator can act on, and never holds a value from the card."""


@dataclass(frozen=True)
class AamvaRecord:
    """A parsed barcode. ``fields`` holds the driver_license fields of the field spec found, in
    their canonical form; ``elements`` every raw element (DL/ID and jurisdiction Z elements).
    Both hold personal data, so they stay out of ``repr``. ``deviations`` names each way the
    payload departs from the standard that was read through (no values); ``names`` says how the
    name was laid out, whether its order is settled and which name fields were truncated."""

    version: int | None  # AAMVA version 0..10 (None when the header is missing)
    iin: str | None
    jurisdiction: str | None  # code of the issuer (from the IIN, else the card's state element)
    country: str | None  # "USA" | "CAN" | "MEX"
    jurisdiction_version: int | None
    file_type: str  # "ANSI" | "AAMVA" | "" (no header)
    document_type: str  # "DL" | "ID"
    subfiles: tuple[Subfile, ...]
    fields: dict[str, str] = field(repr=False)
    elements: dict[str, str] = field(repr=False)
    problems: tuple[str, ...] = ()  # element ids or field names that could not be read (no values)
    deviations: tuple[str, ...] = ()
    names: NameReading | None = None


def parse_aamva(payload: str | bytes) -> AamvaRecord:
    """Parse an AAMVA DL/ID payload (the decoded PDF417 text, or its raw bytes).

    Raises :class:`AamvaError`, with the reason, when it is no AAMVA payload or holds no licence
    data at all: a payload is never read as an empty licence.
    """
    text = payload.decode("latin-1") if isinstance(payload, bytes) else payload
    text = text.lstrip(" \t\x00")
    if not text:
        raise AamvaError("empty barcode payload")
    header = parse_header(text)
    separators = header.separators if header else separators_of("")
    body_start = header.end if header else 0
    subfiles = header.subfiles if header else ()
    regions, deviations = subfile_regions(text, body_start, subfiles, separators)
    version = header.version if header else None
    elements: dict[str, str] = {}
    document_type = ""
    for subfile_type, start, end in regions:
        if subfile_type in ("DL", "ID") and not document_type:
            document_type = subfile_type
        try:
            try:
                found, seen = split_elements(text[start:end], separators, version)
            except RunTogether:
                found = split_payload(text, start, subfiles, version)
                seen = [RUN_TOGETHER]
        except HeaderError as error:
            raise AamvaError(str(error)) from None
        deviations += seen
        for element_id, value in found:
            elements.setdefault(element_id, value)
        if RUN_TOGETHER in seen:
            break  # the whole rest of the payload was split
    if header is None:
        known = sum(1 for key in ("DAQ", "DCS", "DAB", "DAA", "DAC", "DCT", "DBB", "DBA") if key in elements)
        if known < 3:
            raise AamvaError("no AAMVA header ('ANSI ' or 'AAMVA' with an IIN) and too few licence elements")
        deviations = ["no header", *deviations]
    if not any(key in elements for key in TABLES.licence_elements):
        raise AamvaError("the barcode holds no driver licence or ID card elements")

    iin = header.iin if header else None
    owner = issuer(iin)
    if iin is not None and owner is None:
        deviations.append("IIN not in AAMVA's list")
    country = _country(owner[1] if owner else None, elements)
    names = read_names(elements)
    fields, problems = _canonical(elements, names, version=version, country=country)
    jurisdiction = owner[0] if owner else (fields.get("address_region") or None)
    if jurisdiction:
        fields["issuing_region"] = jurisdiction
    return AamvaRecord(
        version=version,
        iin=iin,
        jurisdiction=jurisdiction,
        country=country,
        jurisdiction_version=header.jurisdiction_version if header else None,
        file_type=header.file_type if header else "",
        document_type=document_type or "DL",
        subfiles=subfiles,
        fields={name: fields[name] for name in CANONICAL_FIELDS if name in fields},
        elements=elements,
        problems=tuple(problems),
        deviations=tuple(dict.fromkeys([*(header.deviations if header else ()), *deviations])),
        names=names,
    )


def looks_like_aamva(payload: str | bytes) -> bool:
    """Cheap test for a barcode reader choosing among several decoded symbols."""
    text = payload.decode("latin-1") if isinstance(payload, bytes) else payload
    return parse_header(text) is not None or ("DAQ" in text and ("DCS" in text or "DAA" in text))


# --------------------------------------------------------------------------------------------
# Elements to canonical fields


def _country(from_iin: str | None, elements: dict[str, str]) -> str | None:
    named = TABLES.country_codes.get((first_of(elements, "country") or "").strip().upper())
    if named or from_iin:
        return named or from_iin
    postal = elements.get("DAK", "")
    if _CANADIAN_POSTAL.fullmatch(postal.strip().upper()):
        return CAN
    return None


def _canonical(
    elements: dict[str, str], names: NameReading, *, version: int | None, country: str | None
) -> tuple[dict[str, str], list[str]]:
    fields: dict[str, str] = {}
    problems: list[str] = []

    def put(name: str, value: str | None) -> None:
        if value:
            fields[name] = value

    put("document_number", clean_text(first_of(elements, "document_number")))
    put("surname", names.surname)
    put("given_names", names.given_names)
    put("name_suffix", names.suffix)
    year_first = country == CAN or (version is not None and version <= 1)
    for name in ("date_of_birth", "date_of_expiry", "date_of_issue"):
        raw = first_of(elements, name)
        if raw is None or not raw.strip() or set(raw.strip()) == {"0"}:
            continue
        parsed = parse_date(raw, year_first=year_first)
        if parsed is None:
            problems.append(name)
        else:
            put(name, parsed.isoformat())
    sex = first_of(elements, "sex")
    if sex is not None and clean_text(sex) is not None:
        value = TABLES.sex_codes.get(sex.strip().upper()[:1])
        if value is None:
            problems.append("sex")
        put("sex", value)
    street, street2, city, region, postal = _address(elements)
    put("address_street", clean_text(street, strip_commas=True))
    put("address_street_2", clean_text(street2, strip_commas=True))
    put("address_city", clean_text(city, strip_commas=True))
    region = clean_text(region)
    put("address_region", region[:2] if region and len(region) >= 2 else None)
    if postal is not None and clean_text(postal) is not None:
        value = format_postal_code(postal)
        if value is None:
            problems.append("address_postal_code")
        put("address_postal_code", value)
    put("license_class", clean_text(first_of(elements, "license_class")))
    return fields, problems


def _address(elements: dict[str, str]) -> tuple[str | None, ...]:
    """Street, second line, city, state and postal code of the first address the card carries
    (version 01 has a mailing and a residence address): lines of one address are never mixed
    with another's."""
    for group in TABLES.address_groups:
        if any(clean_text(elements.get(element_id)) for element_id in group):
            return tuple(elements.get(element_id) for element_id in group)
    return (None, None, None, None, None)


def parse_date(raw: str, *, year_first: bool) -> date | None:
    """An AAMVA date: MMDDCCYY (USA) or CCYYMMDD (Canada, version 01). The other order is tried
    when the expected one is not a date: jurisdictions do not all follow the standard."""
    digits = re.sub(r"\D", "", raw)[:8]
    if len(digits) != 8:
        return None
    orders = ((0, 4, 6), (4, 0, 2)) if year_first else ((4, 0, 2), (0, 4, 6))
    for year_at, month_at, day_at in orders:
        year = int(digits[year_at : year_at + 4])
        month = int(digits[month_at : month_at + 2])
        day = int(digits[day_at : day_at + 2])
        if not 1900 <= year <= 2099:
            continue
        try:
            return date(year, month, day)
        except ValueError:
            continue
    return None


def format_postal_code(raw: str) -> str | None:
    """US ZIP as 5 digits, or ZIP+4 "12345-6789" when the +4 part is not 0000; Canadian codes
    as "K1A 0B1"; anything else as printed, trimmed."""
    text = raw.strip().upper()
    if not text:
        return None
    compact = re.sub(r"[\s-]", "", text)
    canadian = _CANADIAN_POSTAL.fullmatch(compact)
    if canadian:
        return f"{canadian.group(1)} {canadian.group(2)}"
    if compact.isdigit() and len(compact) >= 5:
        zip5, plus4 = compact[:5], compact[5:9]
        if len(plus4) == 4 and plus4 != "0000":
            return f"{zip5}-{plus4}"
        return zip5
    return clean_text(text)
