"""The header and subfiles of an AAMVA DL/ID payload, read as the card declares them.

    @ <DES> <RS> <ST> "ANSI " IIN(6) version(2) [jurisdiction version(2)] entries(2)
    subfile designators: type(2) offset(4) length(4), one per entry ("DL", "ID", "ZC", ...)
    subfiles: type(2) then elements "DAQ<value>" separated by <DES>, ended by <ST>

The three separators are the card's own declaration: whatever characters follow the compliance
indicator end the elements. Cards and the scanners between them bend this (LF where the CR
belongs, a separator missing or doubled, CR LF for LF, ``AAMVA`` instead of ``ANSI ``, no
jurisdiction version on version 01, offsets and lengths that point elsewhere or are letters, a
CR or LF left at the end of a value), so each part is found by its shape rather than at a fixed
position, and every departure from the standard is named in ``deviations`` (never values).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engines.licence.aamva_data import ELEMENT_ID, TABLES
from engines.licence.aamva_split import (
    TRAILING,
    AmbiguousSplit,
    holds_missing_id,
    out_of_form,
    split_run_together,
)

_FILE_TYPE = "|".join(
    re.escape(t).replace(r"\ ", " ") for t in sorted(TABLES.file_types, key=len, reverse=True)
)
_HEADER = re.compile(rf"({_FILE_TYPE}) ?([0-9]{{6}})([0-9]{{2}})", re.IGNORECASE)
_DESIGNATOR = re.compile(r"(DL|ID|Z[A-Z0-9])([0-9]{4}|[A-Za-z0-9]{4})([0-9]{4})")
_DL_ELEMENT = re.compile(r"D[A-Z]{2}")
_HEADER_SEARCH = 48  # the file type sits within the first few characters, after any junk
_NAMES = {"\n": "LF", "\r": "CR", "\x1e": "RS", "\x1c": "FS", "\x1d": "GS"}


RUN_TOGETHER = "elements run together (control characters dropped)"  # the deviation's name


class HeaderError(ValueError):
    """The payload's header or body cannot be read as AAMVA (the message names the reason)."""


class RunTogether(HeaderError):
    """The elements run together: a scanner dropped every control character."""


@dataclass(frozen=True)
class Subfile:
    type: str  # "DL", "ID", "ZC", ...
    offset: int | None  # as the header declares it (None when it is not a number)
    length: int | None


@dataclass(frozen=True)
class Header:
    file_type: str  # "ANSI" | "AAMVA"
    iin: str
    version: int
    jurisdiction_version: int | None
    subfiles: tuple[Subfile, ...]
    end: int  # index just after the last subfile designator
    separators: str  # every character that ends an element on this card
    deviations: tuple[str, ...]


def parse_header(text: str) -> Header | None:
    """The header at the start of ``text`` (None when there is no file type and IIN)."""
    match = _HEADER.search(text[:_HEADER_SEARCH])
    if match is None:
        return None
    file_type, iin, version = match.group(1).upper().strip(), match.group(2), int(match.group(3))
    deviations = list(_preamble_deviations(text[: match.start()]))
    if file_type != "ANSI":
        deviations.append(f"file type {file_type}")
    elif match.group(0)[4:5] != " ":
        deviations.append("file type ANSI without its space")
    if version > TABLES.latest_version:
        deviations.append(f"version {version} newer than {TABLES.latest_version}")
    jurisdiction_version, subfiles, end = _designator_block(text, match.end(), version)
    return Header(
        file_type=file_type,
        iin=iin,
        version=version,
        jurisdiction_version=jurisdiction_version,
        subfiles=subfiles,
        end=end,
        separators=separators_of(text[: match.start()]),
        deviations=tuple(deviations),
    )


def separators_of(preamble: str) -> str:
    """The characters that end an element: those the header declares between the compliance
    indicator and the file type (any non-alphanumeric, non-space character), and the control
    characters every reader in the field treats as separators."""
    chars = set(TABLES.always_separators)
    at = preamble.find(TABLES.compliance_indicator)
    declared = preamble[at + 1 :] if at >= 0 else preamble
    chars.update(c for c in declared if not c.isalnum() and c != " ")
    return "".join(sorted(chars))


def _preamble_deviations(preamble: str) -> list[str]:
    """How the compliance indicator and three separators differ from the standard's '@ LF RS CR'."""
    at = preamble.find(TABLES.compliance_indicator)
    if at < 0:
        return ["no compliance indicator"]
    out = ["characters before the compliance indicator"] if preamble[:at].strip() else []
    declared = preamble[at + 1 :]
    if "\r\n" in declared:
        out.append("CR LF for LF")
        declared = declared.replace("\r\n", "\n")
    squeezed = re.sub(r"(.)\1+", r"\1", declared, flags=re.DOTALL)
    if squeezed != declared:
        out.append("header separator doubled")
    expected = TABLES.standard_separators
    if len(squeezed) < 3:
        out.append("header separator missing")
    elif len(squeezed) == 3:
        roles = ("data element separator", "record separator", "segment terminator")
        for name, want, got in zip(roles, expected, squeezed, strict=True):
            if got != want:
                out.append(f"{name} {_NAMES.get(got, 'character ' + hex(ord(got)))}")
    else:
        out.append("extra characters in the header")
    return out


def _designator_block(text: str, rest: int, version: int) -> tuple[int | None, tuple[Subfile, ...], int]:
    """Jurisdiction version, designators and where they end. Version 01 and the pre-standard
    headers have no jurisdiction version; later ones do. The layout whose designators parse
    best wins, the version's own layout on a tie."""
    candidates = []
    for has_jurisdiction_version in (True, False):
        pos = rest
        jurisdiction_version = None
        if has_jurisdiction_version:
            if not _digits(text[pos : pos + 2]):
                continue
            jurisdiction_version = int(text[pos : pos + 2])
            pos += 2
        if not _digits(text[pos : pos + 2]):
            continue
        entries = int(text[pos : pos + 2])
        subfiles, end = _designators(text, pos + 2, entries)
        preferred = has_jurisdiction_version == (version >= 2)
        candidates.append((len(subfiles), preferred, jurisdiction_version, subfiles, end))
    if not candidates:
        return None, (), rest
    _, _, jurisdiction_version, subfiles, end = max(candidates, key=lambda c: (c[0], c[1]))
    return jurisdiction_version, subfiles, end


def _digits(text: str) -> bool:
    """ASCII digits only: ``str.isdigit`` also passes '²', which ``int`` refuses."""
    return text.isascii() and text.isdigit()


def _designators(text: str, pos: int, entries: int) -> tuple[tuple[Subfile, ...], int]:
    """Up to ``entries`` designators from ``pos`` (at least one is tried when it says zero)."""
    out: list[Subfile] = []
    for _ in range(max(1, min(entries, 20))):
        match = _DESIGNATOR.match(text, pos)
        if match is None:
            break
        kind, offset, length = match.groups()
        if not _digits(offset) and _DL_ELEMENT.match(offset):
            break  # "DLDAQ...": the subfile itself, not a designator
        out.append(Subfile(kind, int(offset) if _digits(offset) else None, int(length)))
        pos = match.end()
    return tuple(out), pos


# --------------------------------------------------------------------------------------------
# Subfiles and elements


def subfile_regions(
    text: str, body_start: int, subfiles: tuple[Subfile, ...], separators: str
) -> tuple[list[tuple[str, int, int]], list[str]]:
    """(type, start of its elements, end) of each subfile in ``text``, and the deviations seen:
    a subfile is found by its declared offset when that points at its type, else by searching
    for the type at the start of an element. Without any subfile type, the whole text is read as
    one DL subfile."""
    deviations: list[str] = []
    starts: dict[str, int] = {}
    for subfile in subfiles:
        start = _at_offset(text, subfile, body_start)
        if start is None:
            start = _search_subfile(text, subfile.type, body_start, separators)
            if start is not None:
                deviations.append("subfile offset")
        if start is not None and subfile.type not in starts:
            starts[subfile.type] = start
    if not any(kind in starts for kind in ("DL", "ID")):
        for kind in ("DL", "ID"):
            found = _search_subfile(text, kind, body_start, separators)
            if found is not None:
                starts[kind] = found
                break
    if not starts:
        return [("DL", body_start, len(text))], ["no subfile type"]
    ordered = sorted(starts.items(), key=lambda item: item[1])
    regions = []
    for i, (kind, start) in enumerate(ordered):
        end = ordered[i + 1][1] if i + 1 < len(ordered) else len(text)
        regions.append((kind, start + 2, end))
    declared = {s.type: s.length for s in subfiles}
    if any(declared.get(kind) not in (None, end - start + 2) for kind, start, end in regions):
        deviations.append("subfile length")
    return regions, sorted(set(deviations))


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
    return (after[:1] == first and bool(ELEMENT_ID.fullmatch(after))) or after[:1] in ("\n", "\r")


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


def elements(body: str, separators: str, version: int | None) -> tuple[list[tuple[str, str]], list[str]]:
    """(id, value) of each element of a subfile body, values trimmed of padding and of any CR or
    LF an issuer left at their end, and the deviations seen.

    A value that lost the separator before the next element and is out of its form is split
    where the standard's ids leave every value in form (:mod:`engines.licence.aamva_split`).

    Raises :class:`RunTogether` when the elements run together (a scanner dropped the control
    characters): :func:`split_payload` splits the whole payload then.
    """
    out = []
    for token in re.split(f"[{re.escape(separators)}]", body):
        token = token.lstrip()
        if len(token) < 3 or not ELEMENT_ID.match(token):
            continue
        out.append((token[:3], token[3:].strip()))
    if len(out) <= 2 and any(_runs_together(value) for _, value in out):
        raise RunTogether("the elements run together without separators (control characters dropped)")
    return _mend(out, version)


def split_payload(
    text: str, start: int, subfiles: tuple[Subfile, ...], version: int | None
) -> list[tuple[str, str]]:
    """The elements of a payload that lost every control character, from its first subfile's
    elements (``start``) to the end, jurisdiction subfiles included. Each element lost one
    separator, so the subfiles' declared lengths less what is left say how many there are.

    Raises :class:`HeaderError` when they split in no way or in several."""
    lengths = [subfile.length for subfile in subfiles if subfile.length is not None]
    kept = len(text[start - 2 :].rstrip(TRAILING))
    expected = sum(lengths) - kept if lengths else None
    try:
        return split_run_together(text[start:], version, expected=expected)
    except AmbiguousSplit as error:
        raise HeaderError(f"the elements run together and {error}") from None


def _mend(found: list[tuple[str, str]], version: int | None) -> tuple[list[tuple[str, str]], list[str]]:
    """Values that ran into the next element split off where that leaves both in form; values
    holding the id of a mandatory element the card lacks named (see
    :mod:`engines.licence.aamva_split`)."""
    present = {element_id for element_id, _ in found}
    out: list[tuple[str, str]] = []
    deviations: set[str] = set()
    for element_id, value in found:
        if element_id in TABLES.element_forms and out_of_form(element_id, value):
            try:
                parts = split_run_together(element_id + value, version, present=present - {element_id})
            except AmbiguousSplit:
                parts = []
            if len(parts) > 1:
                out.extend(parts)
                present.update(part_id for part_id, _ in parts)
                deviations.add("data element separator missing")
                continue
        out.append((element_id, value))
    if any(holds_missing_id(value, version, present) for _, value in out):
        deviations.add("a value holds a missing element's id")
    return out, sorted(deviations)


_KNOWN_IDS = frozenset(
    [*(i for ids in TABLES.elements.values() for i in ids), *(i for g in TABLES.address_groups for i in g)]
)


def _runs_together(value: str) -> bool:
    """A value that holds several more licence element ids: elements glued together."""
    return sum(1 for element_id in _KNOWN_IDS if element_id in value) >= 3
