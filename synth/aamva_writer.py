"""A synthetic licence written as an AAMVA DL/ID payload, as real cards write theirs.

Versions 01 to 10, each with its own name layout (version 01: the whole name in DAA with commas,
dollars or spaces in either order, or DAB/DAC/DAD; 02-03: DCS and DCT; 04 and later:
DCS/DAC/DAD with truncation flags), the suffix in its own element (DCU; DAE in version 01), the
unit in the second address line (DAH) or on the street, and the header deviations cards and
scanners produce: LF where the CR belongs, a separator missing or doubled, CR LF for every LF, a
CR left after each value, "AAMVA" for "ANSI ", offsets that are zero, off by one or letters, and
(asked for only) every control character dropped, as some scanners deliver it.

    payload, meta = aamva_payload(licence, rng)                       # drawn as the generator does
    payload, meta = aamva_payload(licence, rng, PayloadStyle(header="lf-for-cr", name_layout="daa-spaces-first-last"))

Every choice of the original writer comes from ``rng`` in its original order; those added since
(header deviation, version 01 name layout) come from a generator seeded by the licence itself
(``variation``), so earlier seeds still give the same documents.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING, Any

import numpy as np

from engines.licence.aamva_iin import JURISDICTION_IINS
from synth.identity import pick, pick_weighted, random_string

if TYPE_CHECKING:
    from synth.driver_license import Licence

HEADER_STYLES = (
    "standard",
    "lf-for-cr",  # the segment terminator (header and subfile ends) is LF
    "crlf",  # a keyboard wedge turned every LF into CR LF (offsets now point short)
    "missing-separator",  # the header's record separator is missing
    "doubled-separator",  # the header's data element separator is doubled
    "value-cr",  # each value ends with a CR before the element separator
    "aamva-file-type",  # "AAMVA" instead of "ANSI "
    "controls-dropped",  # a scanner dropped every control character: the elements run together
)
# "controls-dropped" is asked for, never drawn: the drawn documents stay as they were.
HEADER_WEIGHTS = (
    ("standard", 0.82),
    ("lf-for-cr", 0.03),
    ("crlf", 0.03),
    ("missing-separator", 0.03),
    ("doubled-separator", 0.03),
    ("value-cr", 0.03),
    ("aamva-file-type", 0.03),
)
NAME_LAYOUTS_V1 = (
    "daa-commas",  # LAST,FIRST,MIDDLE[,SUFFIX]
    "daa-dollars",  # LAST$FIRST$MIDDLE[$SUFFIX]
    "daa-spaces-last-first",  # LAST FIRST MIDDLE [SUFFIX]: the order the barcode does not say
    "daa-spaces-first-last",  # FIRST MIDDLE LAST [SUFFIX]
    "dab-dac-dad",  # separate elements, suffix in DAE
)
_DIGITS = "0123456789"
_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_DES, _RS, _ST = "\n", "\x1e", "\r"


@dataclass(frozen=True)
class PayloadStyle:
    """How one payload is written; None fields are drawn."""

    header: str | None = None  # one of HEADER_STYLES
    name_layout: str | None = None  # version 01 only: one of NAME_LAYOUTS_V1
    unit_apart: bool | None = None  # the unit in DAH rather than on the street
    offsets: str | None = None  # "exact" | "zero" | "off-by-one" | "letters"


def _aamva_date(value: date, *, year_first: bool) -> str:
    return value.strftime("%Y%m%d") if year_first else value.strftime("%m%d%Y")


def _height(licence: Licence, canadian: bool) -> str:
    if canadian:
        return f"{licence.height_cm:03d} CM"
    return f"{round(licence.height_cm / 2.54):03d} IN"


def _v1_name(licence: Licence, layout: str) -> list[tuple[str, str]]:
    """Version 01's name elements in ``layout``."""
    surname, first, middle, suffix = licence.surname, licence.first_name, licence.middle_names, licence.suffix
    if layout == "dab-dac-dad":
        return [
            ("DAB", surname),
            ("DAC", first),
            *([("DAD", middle)] if middle else []),
            *([("DAE", suffix)] if suffix else []),
        ]
    if layout in ("daa-commas", "daa-dollars"):
        separator = "," if layout == "daa-commas" else "$"
        parts = [surname, first, middle, suffix] if suffix else [surname, first, middle]
        while parts and not parts[-1]:
            parts.pop()
        return [("DAA", separator.join(parts))]
    given = " ".join(part for part in (first, middle) if part)
    words = [surname, given] if layout == "daa-spaces-last-first" else [given, surname]
    return [("DAA", " ".join([*words, *([suffix] if suffix else [])]))]


def aamva_payload(
    licence: Licence,
    rng: np.random.Generator,
    style: PayloadStyle | None = None,
    variation: Callable[[Licence, str], np.random.Generator] | None = None,
) -> tuple[str, dict[str, Any]]:
    """The licence as an AAMVA DL/ID payload of its version, and how it was written (meta:
    version, IIN, file type, offsets, header style, name layout, and ``unit_apart``)."""
    style = style or PayloadStyle()
    extra = variation(licence, "payload") if variation else np.random.default_rng(0)
    version = licence.version
    canadian = licence.jurisdiction.country == "CAN"
    year_first = canadian or version <= 1
    iin = JURISDICTION_IINS[licence.region]
    sex_code = {"M": "1", "F": "2", "X": "9"}[licence.sex]
    postal = licence.postal_raw.ljust(11)  # fixed width, space padded
    dob = _aamva_date(licence.date_of_birth, year_first=year_first)
    doe = _aamva_date(licence.date_of_expiry, year_first=year_first)
    doi = _aamva_date(licence.date_of_issue, year_first=year_first)
    drawn_apart = bool(licence.unit) and rng.random() < 0.5
    unit_apart = bool(licence.unit) and (drawn_apart if style.unit_apart is None else style.unit_apart)
    street = licence.street if unit_apart else licence.address_street
    name_layout = ""
    elements: list[tuple[str, str]]
    if version <= 1:
        separator = pick(rng, (",", "$")) if rng.random() < 0.85 else ","
        drawn_layout = "daa-commas" if separator == "," else "daa-dollars"
        roll = extra.random()
        if roll < 0.25:
            drawn_layout = "dab-dac-dad"
        elif roll < 0.35:
            drawn_layout = pick(extra, ("daa-spaces-last-first", "daa-spaces-first-last"))
        name_layout = style.name_layout or drawn_layout
        elements = [
            ("DAQ", licence.document_number),
            *_v1_name(licence, name_layout),
            ("DAG", street),
            *([("DAH", licence.unit)] if unit_apart else []),
            ("DAI", licence.city),
            ("DAJ", licence.region),
            ("DAK", postal),
            ("DAR", licence.license_class or "NONE"),
            ("DAS", "NONE"),
            ("DAT", "NONE"),
            ("DBA", doe),
            ("DBB", dob),
            ("DBC", pick(rng, (licence.sex, sex_code))),
            ("DBD", doi),
            ("DAU", f"{round(licence.height_cm / 2.54) // 12}{round(licence.height_cm / 2.54) % 12:02d}"),
            ("DAY", licence.eyes),
        ]
    else:
        name_elements: list[tuple[str, str]]
        if version <= 3:
            given_sep = pick(rng, (",", " "))
            dct = given_sep.join(part for part in (licence.first_name, licence.middle_names) if part)
            name_elements = [("DCS", licence.surname), ("DCT", dct)]
            name_layout = "dcs-dct"
        else:
            name_elements = [
                ("DCS", licence.surname),
                ("DAC", licence.first_name),
                ("DAD", licence.middle_names or pick(rng, ("NONE", ""))),
            ]
            name_layout = "dcs-dac-dad"
        if licence.suffix:
            name_elements.append(("DCU", licence.suffix))
        elements = [
            ("DCA", licence.license_class or "NONE"),
            ("DCB", "NONE"),
            ("DCD", "NONE"),
            ("DBA", doe),
            *name_elements,
            ("DBD", doi),
            ("DBB", dob),
            ("DBC", sex_code),
            ("DAY", licence.eyes),
            ("DAU", _height(licence, canadian)),
            ("DAG", street),
            *([("DAH", licence.unit)] if unit_apart else []),
            ("DAI", licence.city),
            ("DAJ", licence.region),
            ("DAK", postal),
            ("DAQ", licence.document_number),
            ("DCF", licence.discriminator),
            ("DCG", "CAN" if canadian else "USA"),
        ]
        if version >= 4:
            elements += [("DDE", "N"), ("DDF", "N"), ("DDG", "N"), ("DAZ", licence.hair)]
        if version >= 8:
            revision = _aamva_date(date(2013 + version - 8, 1, 15), year_first=year_first)
            elements += [("DDA", pick(rng, ("F", "N"))), ("DDB", revision)]
            if rng.random() < 0.5:
                elements.append(("DDK", "1"))
        if rng.random() < 0.3:  # some issuers put the number first
            elements.insert(0, elements.pop(next(i for i, (k, _) in enumerate(elements) if k == "DAQ")))
    z_type = "Z" + licence.region[0]
    z_elements = [
        (f"{z_type}A", random_string(rng, _LETTERS, 1)),
        (f"{z_type}B", random_string(rng, _DIGITS, 3)),
    ]
    file_type = "ANSI " if version > 1 or rng.random() < 0.6 else "AAMVA"
    jurisdiction_version = f"{int(rng.integers(0, 3)):02d}" if version > 1 else ""
    drawn_offsets = pick_weighted(
        rng, (("exact", 0.8), ("zero", 0.07), ("off-by-one", 0.08), ("letters", 0.05))
    )
    offsets_style = style.offsets or drawn_offsets
    header_style = style.header or pick_weighted(extra, HEADER_WEIGHTS)
    if header_style not in HEADER_STYLES:
        raise ValueError(f"unknown header style {header_style!r}; expected one of {HEADER_STYLES}")
    if header_style == "aamva-file-type":
        file_type = "AAMVA"
    payload = _assemble(
        header_style,
        file_type + iin + f"{version:02d}" + jurisdiction_version,
        [("DL", elements), (z_type, z_elements)],
        offsets_style,
    )
    meta = {
        "aamva_version": version,
        "iin": iin,
        "aamva_file_type": file_type.strip(),
        "offsets": offsets_style,
        "header_style": header_style,
        "name_layout": name_layout,
        "unit_apart": unit_apart,
    }
    return payload, meta


def _assemble(
    header_style: str, identification: str, subfiles: list[tuple[str, list[tuple[str, str]]]], offsets: str
) -> str:
    """Header, designators and subfiles, with the header style's deviation applied."""
    element_separator = "\r\n" if header_style == "value-cr" else _DES
    terminator = "\n" if header_style == "lf-for-cr" else _ST
    preamble = {
        "lf-for-cr": "@" + _DES + _RS + "\n",
        "missing-separator": "@" + _DES + _ST,
        "doubled-separator": "@" + _DES + _DES + _RS + _ST,
    }.get(header_style, "@" + _DES + _RS + _ST)
    bodies = [
        kind + element_separator.join(key + value for key, value in elements) + terminator
        for kind, elements in subfiles
    ]
    header = preamble + identification + f"{len(bodies):02d}"
    offset = len(header) + 10 * len(bodies)
    designators = ""
    for index, ((kind, _), body) in enumerate(zip(subfiles, bodies, strict=True)):
        declared = offset
        if index == 0:
            declared = {"exact": offset, "zero": 0, "off-by-one": offset + 1, "letters": -1}[offsets]
        designators += f"{kind}{'abac' if declared < 0 else f'{declared:04d}'}{len(body):04d}"
        offset += len(body)
    payload = header + designators + "".join(bodies)
    if header_style == "crlf":
        payload = payload.replace("\n", "\r\n")
    if header_style == "controls-dropped":
        payload = "".join(char for char in payload if char not in (_DES, _RS, _ST))
    return payload
