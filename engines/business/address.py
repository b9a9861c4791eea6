"""Proof of address (utility bills, council tax, telecom bills): full_name, address_street,
address_city, address_region, address_postal_code, document_date, issuer_name (ARCHITECTURE §3.2).

A postal address is found from its last line, the one with the postal code, whose shape says
which country it is ("Springfield, IL 62704", "Toronto ON M5V 3L9", "1015 CJ Amsterdam",
"00184 Roma (RM)", a UK postcode on its own line); the street is the line above it in the same
column and the addressee above that. A bill prints several addresses (the issuer's, sometimes a
supply address); the addressee's block is the one headed by a person rather than a company.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from rapidfuzz.distance import Indel

from engines.business.fields import (
    Candidate,
    Line,
    PageIndex,
    Parser,
    all_dates,
    candidates,
    confidence,
    date_parser,
    empty,
    field,
    page_source,
)
from engines.business.labels import (
    is_title,
)
from engines.business.money import (
    date_order_checks,
    date_preference,
    document_currency,
    order_unsettled,
)
from engines.business.names import (
    LEGAL_SUFFIX,
    attention_prefix,
    canonical_name,
    clean_person,
    looks_like_name,
    looks_like_phone,
    looks_like_web,
    names_a_business,
    organisation_at_top,
    respace_fields,
    with_ordinal_indicators,
    with_street_type_apart,
)
from engines.business.places import CityLine, document_country, parse_city_line
from engines.knowledge import KNOWLEDGE, alternation
from engines.layout import PageText
from engines.spec import FIELDS as SPEC_FIELDS
from engines.types import BBox, Check, Extracted, FieldResult
from engines.validators import find_dates

# Countries whose address lines never carry a region (state, province, county): engines/knowledge/country.
_COUNTRIES_WITHOUT_REGIONS = frozenset(c.code for c in KNOWLEDGE.countries if not c.prints_regions)

FIELDS = SPEC_FIELDS["proof_of_address"]


@dataclass(frozen=True)
class AddressBlock:
    """An addressee, street and city line found together."""

    name: Line | None
    name_text: str
    street: Line
    street_text: str
    street_bbox: BBox
    city: CityLine
    score: float


_SAME_EDGE = 0.03  # left edges this close (page widths) are one column's edge
_MAX_GAP_OF_HEIGHTS = 6  # a gap inside a street line, in line heights; wider is another column
# a floor and door after the house number with no ordinal indicator ("164, 2 D" for "2º D")
_FLOOR_WITHOUT_INDICATOR = re.compile(r",\s*\d{1,2}\s+(?:[A-Z]|IZQ|IZDA|DCHA|DRCHA)\.?$")
_FLOOR_WITHOUT_INDICATOR_FACTOR = 0.5
# a flat's number of three digits or more with no house number after it: OCR may have glued the
# two ("FLAT 5167 BEECH ROAD" for Flat 5, 167 Beech Road), and nothing tells where they part
_FLAT_GLUED_TO_HOUSE = re.compile(r"^FLAT \d{3,} [^\d]+$")
_REPAIRED_POSTAL_CODE_FACTOR = 0.5  # raw confidence of a postcode read only after undoing a confusion


def address_blocks(
    index: PageIndex, *, issuer: str | None = None, country: str | None = None
) -> list[AddressBlock]:
    """Every address on a page, best addressee first (see module docstring for the ranking);
    ``country``: the document's (places.document_country), where a city line alone cannot tell."""
    lines = list(index.page.lines)
    blocks = []
    for line in lines:
        for city, street_text, street_bbox, street_line in _city_and_street(index, line, country):
            block = _assemble(index, city, street_text, street_bbox, street_line, issuer)
            if block is not None:
                blocks.append(block)
    blocks.sort(key=lambda b: -b.score)
    return blocks


def _city_and_street(
    index: PageIndex, line: Line, country: str | None = None
) -> list[tuple[CityLine, str, BBox, Line]]:
    """City lines in ``line``: the whole line (street above it), or the tail of a one-line address
    ("12 Main St, Springfield, IL 62704"), whose head is the street."""
    out = []
    city = parse_city_line(line, country=country)
    if city is not None:
        above = _above(index, line)
        if (
            city.country == "GB"
            and not city.city
            and above is not None
            and not _is_street(_street_row(index, above, city.line)[0])
        ):
            # Postcode alone: the city is the line above it, the street above that (unless the
            # line above is the street: the town's line went unread, and the city with it).
            city_line = parse_city_line(above, text=f"{above.text} {city.postal_code}")
            town = canonical_name(above.text)
            if city_line is None and not re.search(r"\d", above.text):
                city = replace(city, city=town, region="", city_bbox=above.bbox, region_bbox=None)
            elif city_line is not None:
                city = replace(city, city=city_line.city, region="", city_bbox=above.bbox, region_bbox=None)
            above = _above(index, above)
        if above is not None:
            street_text, street_bbox = _street_row(index, above, city.line)
            if _is_street(street_text):
                out.append((city, street_text, street_bbox, above))
        return out
    for match in re.finditer(r",", line.text):
        tail = line.text[match.end() :]
        city = parse_city_line(line, text=tail, offset=match.end())
        if city is None:
            continue
        head = line.text[: match.start()]
        label_end = _label_end(index, line)
        street = head[label_end:].strip(" :,")
        if "," in street:
            street = street.split(",")[-1].strip() if _is_street(street.split(",")[-1]) else street
        if _is_street(street):
            start = line.text.find(street)
            out.append((city, street, line.span_bbox(start, start + len(street)), line))
            break
    return out


def _street_row(index: PageIndex, street: Line, city_line: Line) -> tuple[str, BBox]:
    """The street line's text and box, with the pieces OCR split it into at a wide gap ("Via
    della" and "Repubblica n. 84") joined: pieces on its row in the same type size, each a few
    line heights from the last, the first at the address block's left edge (the city line's)."""
    row = sorted(
        (
            other
            for other in index.page.lines
            if abs(other.y_center - street.y_center) < 0.5 * min(other.height, street.height)
            and abs(other.height - street.height) < 0.3 * street.height
            and not index.hits[id(other)]
        ),
        key=lambda line: line.x0,
    )
    start = next((n for n, line in enumerate(row) if abs(line.x0 - city_line.x0) < _SAME_EDGE), None)
    if start is None or street not in row[start:]:
        return street.text, street.bbox
    pieces = [row[start]]
    for line in row[start + 1 :]:
        if line.x0 - pieces[-1].x1 > _MAX_GAP_OF_HEIGHTS * street.height:
            break
        pieces.append(line)
    if street not in pieces:
        return street.text, street.bbox
    box = (pieces[0].x0, min(p.y0 for p in pieces), pieces[-1].x1, max(p.y1 for p in pieces))
    return " ".join(p.text for p in pieces), box


def _label_end(index: PageIndex, line: Line) -> int:
    hits = index.hits[id(line)]
    return hits[0].end if hits and hits[0].start <= 1 else 0


def _is_street(text: str) -> bool:
    text = text.strip()
    return (
        bool(re.search(r"\d", text)) and bool(re.search(r"[^\W\d_]{2,}", text)) and not looks_like_phone(text)
    )


def _above(index: PageIndex, line: Line) -> Line | None:
    """The nearest line above ``line`` in the same column (left edges or extents overlapping),
    at most about two line heights up."""
    best = None
    for other in index.page.lines:
        # Centres, not edges: on a skewed photo the boxes of consecutive lines overlap.
        if other is line or other.y_center >= line.y_center - 0.4 * min(line.height, other.height):
            continue
        overlap = min(other.x1, line.x1) - max(other.x0, line.x0)
        aligned = abs(other.x0 - line.x0) < _SAME_EDGE or abs(other.x1 - line.x1) < _SAME_EDGE
        if overlap <= 0 and not aligned:
            continue
        gap = line.y0 - other.y1
        if gap > 2.2 * max(line.height, other.height):
            continue
        if best is None or other.y_center > best.y_center:
            best = other
    return best


def _is_caption(text: str) -> bool:
    """A line that closes with a colon captions what follows it ("DIRECCIÓN DE SUMINISTRO:" over
    the supply address, its words too garbled to be known as a label): nobody's name, and the
    address it captions names nobody above it."""
    return text.rstrip().endswith(":")


# An initial I that OCR read as 1 or l ("1. Singh"): over a street, no list's first item.
_INITIAL_READ_AS_DIGIT = re.compile(r"^[1l|](?=\.\s*[^\W\d_]{2})")


def _assemble(
    index: PageIndex,
    city: CityLine,
    street_text: str,
    street_bbox: BBox,
    street_line: Line,
    issuer: str | None,
) -> AddressBlock | None:
    name_line = _above(index, street_line) if street_line is not city.line else None
    name_text = ""
    if street_line is city.line:
        # One-line address: the name is the line above, or after a label on a line above.
        name_line = _above(index, city.line)
    score = 0.0
    if name_line is not None:
        label_end = _label_end(index, name_line)
        candidate = _INITIAL_READ_AS_DIGIT.sub("I", name_line.text[label_end:].strip(" :"))
        attention = attention_prefix(candidate)
        further = _above(index, name_line) if attention else None
        if further is not None and looks_like_name(further.text):
            # "z. Hd. Dieter Braun" under the company: the company is the addressee
            name_line, candidate = further, further.text[_label_end(index, further) :].strip(" :")
            label_end = 0
        elif attention:
            candidate = candidate[attention:]
        if (
            not candidate
            or _is_caption(name_line.text)
            or is_title(candidate)
            or looks_like_web(candidate)
            or looks_like_phone(candidate)
        ):
            name_line = None
        elif not looks_like_name(candidate):
            # A second street line ("Flat 2", "c/o ...") or a company line: try one further up.
            further = _above(index, name_line)
            if further is not None and looks_like_name(further.text):
                name_line, candidate = further, further.text[_label_end(index, further) :].strip(" :")
            else:
                name_line = None
        if name_line is not None:
            name_text = candidate
            if label_end:
                score += 1.0
    if name_line is not None:
        has_title = clean_person(name_text) != canonical_name(name_text)
        company = bool(LEGAL_SUFFIX.search(name_text))
        score += 1.0 + (1.5 if has_title else 0.0) - (2.5 if company else 0.0)
        if issuer and _same_organisation(canonical_name(name_text), issuer):
            score -= 3.0
        above = _above(index, name_line)
        if above is not None and any(
            hit.key in ("customer", "holder", "address") for hit in index.hits[id(above)]
        ):
            score += 1.0
    if city.line.y0 < 0.5:
        score += 0.5
    return AddressBlock(name_line, name_text, street_line, street_text, street_bbox, city, score)


def _issuers_own(index: PageIndex, block: AddressBlock, issuer: str | None) -> bool:
    """Is ``block`` the issuer's letterhead: its name the issuer's, and a business's (a legal
    form, a bank's or utility's word) or the issuer's phone or web address set under it? (A page
    whose top line is the addressee, no letterhead read, has the addressee's name as its
    "issuer" too.)"""
    if issuer and not block.name_text:
        return _under_the_issuers_name(index, block, issuer)
    if not (issuer and block.name_text and _same_organisation(canonical_name(block.name_text), issuer)):
        return False
    if names_a_business(block.name_text):
        return True  # a letterhead's legal form, or its bank's or utility's word (CAJA MERIDIAN)
    last = block.city.line
    under = [
        line
        for line in index.page.lines
        if last.y1 <= line.y_center <= last.y1 + _LETTERHEAD_LINES * last.height
        and min(line.x1, last.x1) > max(line.x0, last.x0)
    ]
    return any(looks_like_phone(line.text) or looks_like_web(line.text) for line in under)


_LETTERHEAD_LINES = 3  # line heights under an address where a letterhead prints its phone, web


def _under_the_issuers_name(index: PageIndex, block: AddressBlock, issuer: str) -> bool:
    """Does the issuer's name stand right above a block read without a name (a letterhead's
    street and city under "Banca Aurora", its logo's initial beside it): the block is then the
    issuer's own address, never an addressee's the reader could not make out."""
    street = block.street
    above = [
        line
        for line in index.page.lines
        if street.y0 - _LETTERHEAD_LINES * street.height <= line.y_center < street.y0
        and min(line.x1, street.x1) > max(line.x0, street.x0)
    ]
    return any(_same_organisation(canonical_name(line.text), issuer) for line in above)


def _same_organisation(name: str, issuer: str) -> bool:
    """The issuer's name as its footer or return-address line prints it, in type small enough
    that OCR drops letters ("RIVERIDE WATER SERVIS" for RIVERSIDE WATER SERVICES)."""
    if name == issuer:
        return True
    squashed, target = name.replace(" ", ""), issuer.replace(" ", "")
    # the share of letters the two keep in common (2·LCS over both lengths): dropped letters cost
    # what they cost difflib's ratio, in C and without its greedy blocks
    return len(target) >= 8 and Indel.normalized_similarity(squashed, target) >= 0.85


_STREET_ABBREVIATIONS = alternation(KNOWLEDGE.words("street_abbreviations"))
# A Romance street type glued to the name after it ("VIAMAZZINI 37", "CALLEMAYOR 5")
_STREET_TYPE_GLUED_TO_NAME = re.compile(
    rf"^({alternation(KNOWLEDGE.words('street_types_glued'))})(?=[^\W\d_]{{4}})"
)


def _house_number_spaced(street: str) -> str:
    """OCR glues a house number to its street ("KIRCHRING177", "53TERPLACE"), or a compass point
    to the number or the name beside it ("4605S FRANKLIN PLACE", "4575 SSUNSET ST"), or a
    street type to its name ("VIAMAZZINI 37") or to the flat after it ("CTAPT 31"), or
    Italian's "n." to the number it abbreviates ("CORSO SAN FRANCESCO N.31", where the print's
    space is narrow): put the space back."""
    street = re.sub(r"(?<=[^\W\d_]{3})(?=\d{1,5}[^\W\d_]?$)", " ", street)
    street = re.sub(r"(?<=\s[Nn]\.)(?=\d{1,5}[^\W\d_]?$)", " ", street)
    # a street type's abbreviation glued to the flat or suite after it ("8717 SPRING CTAPT 31")
    street = re.sub(rf"(?<=\s)({_STREET_ABBREVIATIONS})(?=(?:APT|STE|UNIT)\.?\s*\d)", r"\1 ", street)
    # ... or to the name before it: told by case ("8950 RidgeLn"), or in capitals by an ending no
    # English word has ("8950 RIDGELN": only KILN ends so)
    street = with_street_type_apart(
        re.sub(rf"(?<=[a-z])(?=(?i:{_STREET_ABBREVIATIONS})\.?$)(?=[A-Z])", " ", street)
    )
    street = re.sub(r"^(\d{1,5})(?=[NSEW] [A-Z])", r"\1 ", street)
    street = re.sub(r"^(\d{1,5})(?=[^\W\d_]{3})", r"\1 ", street)
    street = _STREET_TYPE_GLUED_TO_NAME.sub(r"\1 ", street)
    # a compass point glued to the street's name it precedes: no street's name starts with the
    # same capital twice ("4575 SSUNSET ST" is 4575 S SUNSET ST)
    street = re.sub(r"^(\d{1,5} )([NSEW])(?=\2[A-Za-z]{2})", r"\1\2 ", street)
    # ... nor does any English word open with N or W and a consonant but H or R ("5188 WLINCOLN"),
    # nor with S and one of B, D, F, G, J, R, V, X, Z ("6763 SRIVER DR")
    street = re.sub(r"^(\d{1,5} )([NW])(?=(?![HR])[B-DF-HJ-NP-TV-XZ][A-Z]{2})", r"\1\2 ", street)
    return re.sub(r"^(\d{1,5} )(S)(?=[BDFGJRVXZ][A-Z]{2})", r"\1\2 ", street)


def read_proof_of_address(pages: list[PageText]) -> Extracted:
    """Read a bill's (or letter's) addressee, address, date and issuer."""
    source = page_source(pages)
    if not pages or not any(page.lines for page in pages):
        return Extracted(fields={name: empty(source) for name in FIELDS}, checks=[])
    fields = address_fields(pages)
    indexes = [PageIndex(page) for page in pages]
    return Extracted(
        fields=respace_fields({name: fields[name] for name in FIELDS}, indexes),
        checks=_date_order_checks(indexes),
    )


def address_fields(pages: Sequence[PageText]) -> dict[str, FieldResult]:
    """The proof-of-address fields of a document (shared with bank statements)."""
    source = page_source(pages)
    indexes = [PageIndex(page) for page in pages]
    fields: dict[str, FieldResult] = {}
    top = organisation_at_top(indexes[0])
    issuer_name = top.value if top else None
    blocks = address_blocks(indexes[0], issuer=issuer_name, country=document_country(indexes))
    # the issuer's own address is never the addressee's: where only it was read, there is none
    block = next((b for b in blocks if not _issuers_own(indexes[0], b, issuer_name)), None)

    if block is not None and block.name is not None and block.name_text:
        name_cand = Candidate(
            clean_person(block.name_text), block.name_text, block.name, block.name.bbox, None, "block"
        )
        fields["full_name"] = field(name_cand.value, confidence(0.8, block.name.score), name_cand, source)
    else:
        fields["full_name"] = empty(source)
    if block is not None:
        city = block.city
        street_text = _house_number_spaced(block.street_text) if source == "ocr" else block.street_text
        street = Candidate(
            canonical_name(with_ordinal_indicators(street_text)),
            None,
            block.street,
            block.street_bbox,
            None,
            "block",
        )
        base = 0.85 if block.name is not None else 0.6
        # a floor and door after the house number with no ordinal indicator ("164, 2 D"): the
        # small º is what a photo's OCR loses, so the street may be missing it; and a flat's
        # number that may hold the house's
        floor_doubt = (
            _FLOOR_WITHOUT_INDICATOR_FACTOR
            if _FLOOR_WITHOUT_INDICATOR.search(street.value) or _FLAT_GLUED_TO_HOUSE.match(street.value)
            else 1.0
        )
        fields["address_street"] = field(
            street.value, confidence(base, block.street.score, floor_doubt), street, source
        )
        city_cand = Candidate(city.city, None, city.line, city.city_bbox, None, "block")
        fields["address_city"] = (
            field(city.city, confidence(base, city.line.score), city_cand, source)
            if city.city
            else empty(source)
        )
        region_cand = Candidate(
            city.region, None, city.line, city.region_bbox or city.line.bbox, None, "block"
        )
        if city.region:
            fields["address_region"] = field(
                city.region, confidence(base, city.line.score), region_cand, source, valid=True
            )
        elif city.country in _COUNTRIES_WITHOUT_REGIONS:
            # "no region" read off a city line whose country never prints one is itself evidence
            fields["address_region"] = FieldResult(
                None, confidence(base, city.line.score), city_cand.page, None, source
            )
        else:
            fields["address_region"] = empty(source)
        postal_cand = Candidate(city.postal_code, None, city.line, city.postal_bbox, None, "block")
        postal_doubt = _REPAIRED_POSTAL_CODE_FACTOR if city.postal_code_repaired else 1.0
        fields["address_postal_code"] = field(
            city.postal_code,
            confidence(base + 0.05, city.line.score, postal_doubt),
            postal_cand,
            source,
            valid=True,
        )
    else:
        for name in ("address_street", "address_city", "address_region", "address_postal_code"):
            fields[name] = empty(source)

    fields["document_date"] = _document_date(indexes)
    used = {id(block.name)} if block is not None and block.name is not None else set()
    issuer = (
        top
        if top is not None
        and id(top.line) not in used
        and (block is None or top.value != clean_person(block.name_text))
        else None
    )
    fields["issuer_name"] = (
        field(issuer.value, confidence(0.75 if issuer.raw else 0.55, issuer.score), issuer, source)
        if issuer is not None
        else empty(source)
    )
    return fields


_LEDGER_DATES = 3  # dates under a "Date" caption that make it a ledger's column, not a header's


def _heads_a_ledger_column(index: PageIndex, cand: Candidate, parse: Parser) -> bool:
    """Is ``cand`` the first row of a ledger read under its "Date" column caption? A statement's
    own date sits beside its label or alone under it; a column of dates under the caption is the
    movements' (the first movement's date was once taken for the statement's). On a page scanned
    askew, the first movement's value date can even stand level with the caption, read "right" of
    it: that is a ledger too when the caption stands in a row of column captions and the value
    heads a column of dates of its own."""
    if cand.hit is None or cand.where not in ("below", "right"):
        return False
    if cand.where == "right" and not (
        _heads_columns(index, cand.hit.line) and _dates_under(index, cand.line, parse)
    ):
        return False  # "Date: 12/13/2025" in the header, over a ledger whose dates run below it
    return _dates_under(index, cand.hit.line, parse)


def _heads_columns(index: PageIndex, caption: Line) -> bool:
    """Does ``caption`` stand in a row of column captions (two more, without digits, beside it)?
    A colon ends a label whose value follows it in the row ("Date d'arrêté: 01/09/2024 | Code
    BIC: OJWNFRZV" heads no column, whatever ledger runs below), never a column's caption."""
    if _is_keyed_label(caption):
        return False
    row = index.rows[index.row_of(caption)]
    return (
        sum(
            1
            for line in row
            if line is not caption and not _is_keyed_label(line) and not any(ch.isdigit() for ch in line.text)
        )
        >= 2
    )


def _is_keyed_label(line: Line) -> bool:
    return line.text.rstrip().endswith(":")


def _dates_under(index: PageIndex, top: Line, parse: Parser) -> bool:
    """Whether a column of dates stands under ``top`` (lines below it that overlap it across)."""
    below = [
        line
        for line in index.page.lines
        if line.y0 > top.y1 and line.x0 < top.x1 and line.x1 > top.x0 and parse(line.text)
    ]
    return len(below) >= _LEDGER_DATES


def _document_date(indexes: Sequence[PageIndex]) -> FieldResult:
    source = page_source([index.page for index in indexes])
    found = _document_date_candidate(indexes)
    if found is None:
        return empty(source)
    cand, base = found
    return field(cand.value, confidence(base, cand.score), cand, source, valid=True)


def _document_date_candidate(indexes: Sequence[PageIndex]) -> tuple[Candidate, float] | None:
    """The bill's date and a raw confidence: the one its label points at, else the first date
    on the first page that no period or due-date label claims."""
    currency, _, _ = document_currency(indexes)
    prefer = date_preference(indexes, currency)
    parse = date_parser(prefer)
    labelled = [
        cand
        for cand in candidates(indexes, ("invoice_date",), parse)
        if not _heads_a_ledger_column(indexes[cand.line.page - 1], cand, parse)
        and not (cand.hit is not None and cand.line is not cand.hit.line and _is_a_period(cand, prefer))
    ]
    if labelled:
        return labelled[0], 0.88
    excluded = {
        id(hit.line)
        for index in indexes
        for line in index.page.lines
        for hit in index.hits[id(line)]
        if hit.key in ("period", "due_date")
    } | {id(cand.line) for cand in candidates(indexes, ("period", "due_date"), parse)}
    for cand in all_dates(indexes[:1], prefer):
        if id(cand.line) not in excluded and not _is_a_period(cand, prefer):
            return cand, 0.6
    return None


def _is_a_period(cand: Candidate, prefer: str | None) -> bool:
    """Does ``cand`` stand on a line of two dates, a period ("20/10/2026-18/11/2026" beside a
    caption OCR misread "Penod")? That is never the day a bill was issued, though a statement
    date's label whose own date OCR garbled ("22Nov202o") points at it below."""
    return len(find_dates(cand.line.text, prefer=prefer)) >= 2


def _date_order_checks(indexes: Sequence[PageIndex]) -> list[Check]:
    """The failed check of a bill's date that reads two ways (10/12/2025) where its country
    writes both orders and no other date settles which (a Canadian bill): a person reads it."""
    found = _document_date_candidate(indexes)
    currency, _, _ = document_currency(indexes)
    unsettled = found is not None and order_unsettled(found[0], indexes, currency)
    return date_order_checks(["document_date"] if unsettled else [])


__all__ = [
    "AddressBlock",
    "CityLine",
    "address_blocks",
    "address_fields",
    "parse_city_line",
    "read_proof_of_address",
]
