"""Parse the PDF417 payload of a North American driver licence or ID card (AAMVA DL/ID standard).

The barcode on the back of every US and Canadian licence holds the printed data as text:

    @ <DES> <RS> <ST> "ANSI " IIN(6) version(2) [jurisdiction version(2)] entries(2)
    subfile designators: type(2) offset(4) length(4), one per entry ("DL", "ID", "ZC", ...)
    subfiles: type(2) then elements "DAQ<value>" separated by <DES>, ended by <ST>

It is the most reliable source on the card (error-corrected, no OCR), but real barcodes bend the
standard: offsets and lengths that point elsewhere (or are letters), mangled headers from
keyboard-wedge scanners, "\\r\\n" instead of "\\r", versions 00/01 without a jurisdiction
version (and with "AAMVA" as file type, a full name "LAST,FIRST,MIDDLE" in DAA, CCYYMMDD dates),
dates in the other order than the country's, "NONE" for an absent middle name, Ontario's
trailing commas. This parser reads the header for what it says, then finds subfiles and
elements by their shape, so a wrong offset costs nothing.

Values are personal data: errors raised here name elements, never their contents.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date

from engines.aamva_iin import CAN, IIN_JURISDICTIONS, USA
from engines.spec import FIELDS as SPEC_FIELDS

FILE_TYPES = ("ANSI ", "ANSI", "AAMVA")
_HEADER = re.compile(r"(ANSI ?|AAMVA)(\d{6})(\d{2})")
_DESIGNATOR = re.compile(r"(DL|ID|Z[A-Z0-9])(\d{4}|[A-Za-z0-9]{4})(\d{4})")
_ELEMENT_ID = re.compile(r"[A-Z][A-Z0-9]{2}")
_DL_ELEMENT = re.compile(r"D[A-Z]{2}")
_HEADER_SEARCH = 48  # the file type sits within the first few characters, after any junk
_NO_VALUE = frozenset({"", "NONE", "UNAVL", "UNAVAIL", "UNAVAILABLE", "N/A", "NA", "UNK", "UNKNOWN"})
_SEX = {"1": "M", "M": "M", "2": "F", "F": "F", "9": "X", "X": "X"}
_CANADIAN_POSTAL = re.compile(r"([A-Z]\d[A-Z])\s*-?\s*(\d[A-Z]\d)")
_SPACES = re.compile(r"\s+")

CANONICAL_FIELDS = SPEC_FIELDS["driver_license"]


class AamvaError(ValueError):
    """The payload is not an AAMVA DL/ID barcode, or too damaged to hold a licence."""


@dataclass(frozen=True)
class Subfile:
    type: str  # "DL", "ID", "ZC", ...
    offset: int | None  # as the header declares it (None when it is not a number)
    length: int | None


@dataclass(frozen=True)
class AamvaRecord:
    """A parsed barcode. ``fields`` holds the ARCHITECTURE §3.2 driver_license fields found, in
    their canonical form; ``elements`` every raw element (DL/ID and jurisdiction Z elements).
    Both hold personal data, so they stay out of ``repr``."""

    version: int | None  # AAMVA version 0..10 (None when the header is missing)
    iin: str | None
    jurisdiction: str | None  # two-letter code of the issuer (from the IIN, else the address)
    country: str | None  # "USA" | "CAN"
    jurisdiction_version: int | None
    file_type: str  # "ANSI" | "AAMVA" | "" (no header)
    document_type: str  # "DL" | "ID"
    subfiles: tuple[Subfile, ...]
    fields: dict[str, str] = field(repr=False)
    elements: dict[str, str] = field(repr=False)
    problems: tuple[str, ...] = ()  # element ids or field names that could not be read (no values)


def parse_aamva(payload: str | bytes) -> AamvaRecord:
    """Parse an AAMVA DL/ID payload (the decoded PDF417 text, or its raw bytes).

    Raises :class:`AamvaError` when it is no AAMVA payload or holds no licence data at all.
    """
    text = payload.decode("latin-1") if isinstance(payload, bytes) else payload
    text = text.lstrip(" \t\x00")
    if not text:
        raise AamvaError("empty barcode payload")
    header = _parse_header(text)
    separators = _separators(text, header.file_type_at if header else None)
    body_start = header.end if header else 0
    subfiles = header.subfiles if header else ()
    regions = _subfile_regions(text, body_start, subfiles, separators)
    elements: dict[str, str] = {}
    document_type = ""
    for subfile_type, start, end in regions:
        if subfile_type in ("DL", "ID") and not document_type:
            document_type = subfile_type
        for element_id, value in _elements(text[start:end], separators):
            elements.setdefault(element_id, value)
    if header is None:
        known = sum(1 for key in ("DAQ", "DCS", "DAB", "DAA", "DAC", "DCT", "DBB", "DBA") if key in elements)
        if known < 3:
            raise AamvaError("no AAMVA header ('ANSI '/'AAMVA' and an IIN) and no licence elements")
    if not any(key in elements for key in ("DAQ", "DCS", "DAB", "DAA", "DBB")):
        raise AamvaError("the barcode holds no driver licence or ID card elements")

    version = header.version if header else None
    iin = header.iin if header else None
    issuer = IIN_JURISDICTIONS.get(iin or "")
    country = _country(elements.get("DCG"), issuer[1] if issuer else None, elements)
    fields, problems = _canonical(elements, version=version, country=country)
    jurisdiction = issuer[0] if issuer else (fields.get("address_region") or None)
    if jurisdiction:
        fields["issuing_region"] = jurisdiction
    return AamvaRecord(
        version=version,
        iin=iin,
        jurisdiction=jurisdiction,
        country=country,
        jurisdiction_version=header.jurisdiction_version if header else None,
        file_type=header.file_type.strip() if header else "",
        document_type=document_type or "DL",
        subfiles=subfiles,
        fields=fields,
        elements=elements,
        problems=tuple(problems),
    )


def looks_like_aamva(payload: str | bytes) -> bool:
    """Cheap test for a barcode reader choosing among several decoded symbols."""
    text = payload.decode("latin-1") if isinstance(payload, bytes) else payload
    return bool(_HEADER.search(text[:_HEADER_SEARCH])) or ("DAQ" in text and ("DCS" in text or "DAA" in text))


# --------------------------------------------------------------------------------------------
# Header


@dataclass(frozen=True)
class _Header:
    file_type: str
    file_type_at: int
    iin: str
    version: int
    jurisdiction_version: int | None
    subfiles: tuple[Subfile, ...]
    end: int  # index just after the last subfile designator


def _parse_header(text: str) -> _Header | None:
    match = _HEADER.search(text[:_HEADER_SEARCH])
    if match is None:
        return None
    file_type, iin, version = match.group(1), match.group(2), int(match.group(3))
    rest = match.end()
    # Version 01 and the pre-standard headers have no jurisdiction version; later ones do. The
    # layout whose designators parse best wins, the version's own layout on a tie.
    candidates = []
    for has_jurisdiction_version in (True, False):
        pos = rest
        jurisdiction_version = None
        if has_jurisdiction_version:
            if not text[pos : pos + 2].isdigit():
                continue
            jurisdiction_version = int(text[pos : pos + 2])
            pos += 2
        if not text[pos : pos + 2].isdigit():
            continue
        entries = int(text[pos : pos + 2])
        pos += 2
        subfiles, end = _designators(text, pos, entries)
        preferred = has_jurisdiction_version == (version >= 2)
        candidates.append((len(subfiles), preferred, jurisdiction_version, subfiles, end))
    if not candidates:
        return _Header(file_type, match.start(), iin, version, None, (), rest)
    _, _, jurisdiction_version, subfiles, end = max(candidates, key=lambda c: (c[0], c[1]))
    return _Header(file_type, match.start(), iin, version, jurisdiction_version, subfiles, end)


def _designators(text: str, pos: int, entries: int) -> tuple[tuple[Subfile, ...], int]:
    """Up to ``entries`` designators from ``pos`` (at least one is tried when it says zero)."""
    out: list[Subfile] = []
    for _ in range(max(1, min(entries, 20))):
        match = _DESIGNATOR.match(text, pos)
        if match is None:
            break
        kind, offset, length = match.groups()
        if not offset.isdigit() and _DL_ELEMENT.match(offset):
            break  # "DLDAQ...": the subfile itself, not a designator
        out.append(Subfile(kind, int(offset) if offset.isdigit() else None, int(length)))
        pos = match.end()
    return tuple(out), pos


def _separators(text: str, file_type_at: int | None) -> str:
    """Characters that end an element: the header's own data element separator and segment
    terminator, plus LF, CR and RS, which every reader in the field treats as separators."""
    chars = {"\n", "\r", "\x1e", "\x1c", "\x1d"}
    if file_type_at is not None and text.startswith("@"):
        for char in text[1:file_type_at]:
            if not char.isalnum() and char not in " @":
                chars.add(char)
    return "".join(sorted(chars))


def _subfile_regions(
    text: str, body_start: int, subfiles: tuple[Subfile, ...], separators: str
) -> list[tuple[str, int, int]]:
    """(type, start of its elements, end) of each subfile in ``text``: found by the declared
    offset when it points at the subfile's type, else by searching for the type at the start of
    an element. Without any subfile type, the whole text is read as one DL subfile."""
    starts: dict[str, int] = {}
    for subfile in subfiles:
        start = _at_offset(text, subfile, body_start)
        if start is None:
            start = _search_subfile(text, subfile.type, body_start, separators)
        if start is not None and subfile.type not in starts:
            starts[subfile.type] = start
    if not any(kind in starts for kind in ("DL", "ID")):
        for kind in ("DL", "ID"):
            found = _search_subfile(text, kind, body_start, separators)
            if found is not None:
                starts[kind] = found
                break
    if not starts:
        return [("DL", body_start, len(text))]
    ordered = sorted(starts.items(), key=lambda item: item[1])
    regions = []
    for i, (kind, start) in enumerate(ordered):
        end = ordered[i + 1][1] if i + 1 < len(ordered) else len(text)
        regions.append((kind, start + 2, end))
    return regions


def _at_offset(text: str, subfile: Subfile, body_start: int) -> int | None:
    if subfile.offset is None:
        return None
    for delta in (0, -1, 1, -2, 2):  # off by one or two: seen in the field
        start = subfile.offset + delta
        if start >= body_start and _subfile_starts_at(text, start, subfile.type):
            return start
    return None


def _subfile_starts_at(text: str, start: int, kind: str) -> bool:
    if not text.startswith(kind, start):
        return False
    after = text[start + 2 : start + 5]
    first = "D" if kind in ("DL", "ID") else "Z"
    return (after[:1] == first and bool(_ELEMENT_ID.fullmatch(after))) or after[:1] in ("\n", "\r")


def _search_subfile(text: str, kind: str, body_start: int, separators: str) -> int | None:
    """The subfile right after the designators, else one that starts an element."""
    if _subfile_starts_at(text, body_start, kind):
        return body_start
    pos = max(body_start - 1, 0)
    while True:
        found = text.find(kind, pos)
        if found < 0:
            return None
        before = text[found - 1] if found > 0 else separators[0]
        if (before in separators or before == " ") and _subfile_starts_at(text, found, kind):
            return found
        pos = found + 1


def _elements(body: str, separators: str) -> list[tuple[str, str]]:
    out = []
    for token in re.split(f"[{re.escape(separators)}]", body):
        token = token.lstrip()
        if len(token) < 3 or not _ELEMENT_ID.match(token):
            continue
        out.append((token[:3], token[3:].strip()))
    return out


# --------------------------------------------------------------------------------------------
# Elements to canonical fields


def _country(dcg: str | None, from_iin: str | None, elements: dict[str, str]) -> str | None:
    value = (dcg or "").strip().upper()
    if value in ("USA", "US"):
        return USA
    if value in ("CAN", "CDN", "CA"):
        return CAN
    if from_iin:
        return from_iin
    postal = elements.get("DAK", "")
    if _CANADIAN_POSTAL.fullmatch(postal.strip().upper()):
        return CAN
    return None


def _canonical(
    elements: dict[str, str], *, version: int | None, country: str | None
) -> tuple[dict[str, str], list[str]]:
    fields: dict[str, str] = {}
    problems: list[str] = []

    def put(name: str, value: str | None) -> None:
        if value:
            fields[name] = value

    put("document_number", clean_text(elements.get("DAQ")))
    surname, given = _names(elements)
    put("surname", surname)
    put("given_names", given)
    year_first = country == CAN or (version is not None and version <= 1)
    for name, element in (("date_of_birth", "DBB"), ("date_of_expiry", "DBA"), ("date_of_issue", "DBD")):
        raw = elements.get(element)
        if raw is None or not raw.strip() or set(raw.strip()) == {"0"}:
            continue
        parsed = parse_date(raw, year_first=year_first)
        if parsed is None:
            problems.append(name)
        else:
            put(name, parsed.isoformat())
    sex = elements.get("DBC")
    if sex is not None:
        value = _SEX.get(sex.strip().upper()[:1])
        if value is None:
            problems.append("sex")
        put("sex", value)
    street = clean_text(elements.get("DAG") or elements.get("DAL"), strip_commas=True)
    street2 = clean_text(elements.get("DAH") or elements.get("DAM"), strip_commas=True)
    put("address_street", " ".join(part for part in (street, street2) if part) or None)
    put("address_city", clean_text(elements.get("DAI") or elements.get("DAN"), strip_commas=True))
    region = clean_text(elements.get("DAJ") or elements.get("DAO"))
    put("address_region", region[:2] if region and len(region) >= 2 else None)
    postal = elements.get("DAK") or elements.get("DAP")
    if postal is not None:
        value = format_postal_code(postal)
        if value is None:
            problems.append("address_postal_code")
        put("address_postal_code", value)
    put("license_class", clean_text(elements.get("DCA") or elements.get("DAR")))
    return fields, problems


def _names(elements: dict[str, str]) -> tuple[str | None, str | None]:
    surname = clean_text(elements.get("DCS") or elements.get("DAB"), strip_commas=True)
    first = clean_text(elements.get("DAC"), strip_commas=True)
    middle = clean_text(elements.get("DAD"), strip_commas=True)
    given: str | None
    if first:
        given = " ".join(part for part in (first, middle) if part)
    else:
        # DCT (versions 2-3): "FIRST,MIDDLE" or "FIRST MIDDLE".
        dct = elements.get("DCT")
        given = clean_text(dct.replace(",", " ") if dct else None)
    full = elements.get("DAA")
    if full and (not surname or not given):
        parts = [part for part in (clean_text(piece) for piece in re.split(r"[,$]", full)) if part]
        if len(parts) == 1 and " " in parts[0]:
            words = parts[0].split(" ")  # no separator: the standard's "LAST FIRST MIDDLE" order
            parts = [words[0], " ".join(words[1:])]
        if parts:
            surname = surname or parts[0]
            given = given or (" ".join(parts[1:]) or None)
    return surname, given


def clean_text(value: str | None, *, strip_commas: bool = False) -> str | None:
    """Upper case, one space between words, padding and "NONE"-like placeholders removed."""
    if value is None:
        return None
    text = _SPACES.sub(" ", value).strip().upper()
    if strip_commas:
        text = text.strip(", ").replace(" ,", ",")
    if text in _NO_VALUE:
        return None
    return text or None


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
