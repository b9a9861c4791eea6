"""What the business-document readers share: the page index (rows, labels, table headers), the
"value right of its label, else below it" finder, value parsers and result helpers.

A reader asks this module for every label of a field on the page (engines.business.labels) and
for the value each label points at, then chooses among the candidates with rules of its own
(arithmetic, position). OCR pages are first repaired for what RapidOCR does to them: spaces it
drops between words printed in mixed case, the "ß" it cannot read.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from decimal import Decimal

from engines.business.labels import LabelHit, is_title, label_hits
from engines.knowledge import KNOWLEDGE, alternation
from engines.layout import Line, PageText, rows
from engines.types import BBox, FieldResult
from engines.validators import AmountMatch, find_amounts, find_dates, find_iban, format_amount

# --------------------------------------------------------------------------------------------
# OCR repairs and the page index
# --------------------------------------------------------------------------------------------

_OCR_ESZETT = re.compile(
    r"(?<=[a-zäöü])B(?=(?:e|en|er|es)(?![a-z]))"  # StraBe, GroBer
    r"|(?<=[a-zäöü]{2})B(?=[A-Z][a-z]|(?![A-Za-zäöüß]))"  # WeiB, GroB KG, WeiBSanitar
)
_OCR_STRASSE = re.compile(r"(?i)(stra)(e)\b")


def repair_eszett(text: str) -> str:
    """OCR without "ß" in its alphabet reads "Straße" as "StraBe" or "Strae": put the "ß" back
    (a capital B inside a lower-case word ending in -e/-en/-er, or ending a lower-case word as in
    "WeiB", is never what was printed)."""
    return _OCR_STRASSE.sub(r"\1ß\2", _OCR_ESZETT.sub("ß", text))


_CAMEL = re.compile(
    r"(?<=[a-zß-ÿ]{2})(?=[A-ZÀ-Ý][a-zß-ÿ])"  # JonasWeber
    r"|(?<=[a-zß-ÿ]{2})(?=[A-Z]{2,}\.?$)"  # EichhornSASU, StudioLLP
    r"|(?<=[a-zß-ÿ]{2})(?=\d)"  # Aires9
    r"|(?<=\d)(?=[A-ZÀ-Ý][a-zß-ÿ]{2})"  # 77Ocean
)
# a surname's prefix glued to a capital ("McDonald", "DeVries"): no space goes after it
_CAMEL_KEEP = re.compile(rf"^({alternation(KNOWLEDGE.words('name_prefixes'))})$")


def repair_ocr_text(text: str) -> str:
    """Put back the spaces OCR drops between words printed in mixed case ("JonasWeber",
    "77OceanDrive", "Aires9") and the "ß" it cannot read. Words that are spelled with an inner
    capital ("McDonald", "GmbH") are left alone."""
    text = repair_eszett(text).replace("\uff08", "(").replace("\uff09", ")").replace("\uff1a", ":")
    out = []
    for token in text.split(" "):
        if token.endswith(("mbH", "GmbH")) or not _CAMEL.search(token):
            out.append(token)
            continue
        parts = _CAMEL.split(token)
        merged = [parts[0]]
        for part in parts[1:]:
            if _CAMEL_KEEP.match(merged[-1]):
                merged[-1] += part
            else:
                merged.append(part)
        out.append(" ".join(merged))
    return " ".join(out)


def repaired_page(page: PageText) -> PageText:
    """An OCR page with :func:`repair_ocr_text` applied to every line (text layers are exact)."""
    if page.source != "ocr":
        return page
    lines = tuple(
        Line(text=repaired, score=line.score, bbox=line.bbox, page=line.page)
        if (repaired := repair_ocr_text(line.text)) != line.text
        else line
        for line in page.lines
    )
    return PageText(page=page.page, lines=lines, source=page.source)


class PageIndex:
    """A page's rows, with each line's row number and label hits computed once (on OCR pages,
    after :func:`repair_ocr_text`)."""

    def __init__(self, page: PageText) -> None:
        page = repaired_page(page)
        self.page = page
        self.rows: list[list[Line]] = rows(page)
        self._row_of: dict[int, int] = {}
        for number, row in enumerate(self.rows):
            for line in row:
                self._row_of[id(line)] = number
        self.hits: dict[int, list[LabelHit]] = {id(line): label_hits(line) for line in page.lines}
        self.header_rows: set[int] = {
            number for number, row in enumerate(self.rows) if _is_table_header(row, self.hits)
        }

    def in_header(self, line: Line) -> bool:
        """Whether a line is a caption in an item table's header row ("Qty | Price | Total")."""
        return self.row_of(line) in self.header_rows

    def row_of(self, line: Line) -> int:
        return self._row_of[id(line)]

    def labels(self, key: str) -> list[LabelHit]:
        """Every hit of one label key on the page, in reading order."""
        return [hit for line in self.page.lines for hit in self.hits[id(line)] if hit.key == key]

    def median_height(self) -> float:
        heights = sorted(line.height for line in self.page.lines)
        return heights[len(heights) // 2] if heights else 0.02


def _is_table_header(row: list[Line], hits: dict[int, list[LabelHit]]) -> bool:
    """Two column captions in a row and nothing in it looks like a value."""
    captions = 0
    for line in row:
        own = hits[id(line)]
        if any(ch.isdigit() for ch in line.text):
            return False
        captions += sum(1 for hit in own if hit.key == "column")
    return captions >= 2


@dataclass(frozen=True)
class Parsed:
    """What a value parser found in a text: the canonical value, the parsed object, its span."""

    value: str
    raw: object
    start: int
    end: int


Parser = Callable[[str], "Parsed | None"]


@dataclass(frozen=True)
class Candidate:
    """A value the finder found for a label (or, with ``hit`` None, without one)."""

    value: str
    raw: object
    line: Line
    bbox: BBox
    hit: LabelHit | None
    where: str  # "same_line" | "right" | "below" | "unlabelled" | "unlabelled_pieces" (a line OCR broke)

    @property
    def page(self) -> int:
        return self.line.page

    @property
    def score(self) -> float:
        return self.line.score


def find_value(
    index: PageIndex, hit: LabelHit, parse: Parser, *, below_rows: int = 2, label_end: int | None = None
) -> Candidate | None:
    """The value a label points at: after it on its own line, else on a line to its right in the
    same row (nearest first), else just below it in the same column. Stops at a line that carries
    a label of its own, so one label never steals the next label's value. ``label_end`` extends
    the label over its qualifiers ("Total Sales (Inclusive of GST):")."""
    line = hit.line
    rest_start = hit.end if label_end is None else max(hit.end, label_end)
    rest = line.text[rest_start:]
    parsed = parse(rest)
    if parsed is not None:
        start, end = rest_start + parsed.start, rest_start + parsed.end
        same = Candidate(parsed.value, parsed.raw, line, line.span_bbox(start, end), hit, "same_line")
        if "%" not in rest[: parsed.start]:
            return same
        # "VAT 20% of 1,234.50" prints the base in the label: the value is in the column to the right.
        return _right_of(index, hit, line, parse) or same
    if any(other.start >= rest_start for other in index.hits[id(line)] if other.key not in _QUALIFIERS):
        return None
    if is_title(line.text):
        return None  # "INVOICE" as a document title heads the page, not a value
    return (
        _right_of(index, hit, line, parse)
        or _right_near(index, hit, line, parse)
        or _below(index, hit, line, parse, below_rows)
    )


def _right_of(index: PageIndex, hit: LabelHit, line: Line, parse: Parser) -> Candidate | None:
    row = index.rows[index.row_of(line)]
    passed_a_caption = False
    for other in sorted((o for o in row if o.x0 >= line.x1 - 0.01 and o is not line), key=lambda o: o.x0):
        if _under_other_label(index, other, line):
            continue  # it belongs to the label printed just above it ("FROM" over the vendor's name)
        own = index.hits[id(other)]
        if own and own[0].start <= 3 and not _label_is_part_of_value(own[0]):
            break
        parsed = parse(other.text)
        if parsed is None:
            passed_a_caption = passed_a_caption or _has_cell_below(index, other)
            continue
        if passed_a_caption or _another_sections_caption(index, line, other):
            # A header row of captions, each over its value, that OCR set in one row with the
            # values (rows touching): "Rechnungsdatum | Fälliger Betrag | Fällig am" over
            # "2025-03-28 | 228,49 EUR | 2025-04-11". The label's value is the one under it, not
            # the first that parses right of it, past a caption OCR misspelt ("Falig am"). So too
            # where the line right of the label heads a block of its own, as the label heads its
            # ("Customer" over the customer's address, "How to pay" over the bank details).
            under = _below(index, hit, line, parse, below_rows=1)
            if under is not None:
                return under
        return Candidate(
            parsed.value, parsed.raw, other, other.span_bbox(parsed.start, parsed.end), hit, "right"
        )
    return None


def _has_cell_below(index: PageIndex, cell: Line, *, within: float = 1.0) -> bool:
    """Is a line printed just under ``cell`` (``within`` line heights), overlapping its columns
    (a caption over its value)?"""
    return any(
        other is not cell
        and cell.y_center + 0.5 * cell.height < other.y_center
        and other.y0 - cell.y1 <= within * cell.height
        and _overlap(other.bbox, cell.bbox) > 0
        for other in index.page.lines
    )


def _another_sections_caption(index: PageIndex, label: Line, other: Line) -> bool:
    """Is ``other``, right of ``label`` in its row, the caption of another section of the page, as
    ``label`` captions its own ("Customer" over an address beside "How to pay" over bank details):
    in another column, each over a block of lines set a line or two under it?"""
    return (
        other.x0 - label.x1 > _SECTION_COLUMN_GAP
        and _has_cell_below(index, label, within=_SECTION_CAPTION_GAP)
        and _has_cell_below(index, other, within=_SECTION_CAPTION_GAP)
    )


_SECTION_CAPTION_GAP = 2.0  # line heights between a section's caption and its first line
_SECTION_COLUMN_GAP = 0.15  # of the page's width: wider than a label's gap to its value


def _right_near(index: PageIndex, hit: LabelHit, line: Line, parse: Parser) -> Candidate | None:
    """On a skewed photo a value drifts out of its label's row: the nearest line to the right
    within about a line height, unless a label of its own row claims it."""
    number = index.row_of(line)
    best: tuple[float, Line] | None = None
    for other in index.page.lines:
        if other.x0 < line.x1 - 0.01 or index.row_of(other) == number:
            continue
        dy = abs(other.y_center - line.y_center)
        if dy > 0.9 * max(line.height, other.height):
            continue
        if index.hits[id(other)] or _under_other_label(index, other, line):
            continue
        if any(
            index.hits[id(between)] and line.x1 - 0.01 <= between.x0 < other.x0
            for between in index.rows[number]
            if between is not line
        ):
            continue
        owner_row = index.rows[index.row_of(other)]
        if any(index.hits[id(o)] and o.x1 <= other.x0 + 0.01 for o in owner_row if o is not other):
            continue
        if best is None or dy < best[0]:
            best = (dy, other)
    if best is None:
        return None
    other = best[1]
    parsed = parse(other.text)
    if parsed is None:
        return None
    if any(
        line.x1 - 0.01 <= caption.x0 < other.x0 and _has_cell_below(index, caption)
        for caption in index.rows[number]
        if caption is not line
    ):
        return _below(index, hit, line, parse, below_rows=1)  # a header row over its values
    return Candidate(parsed.value, parsed.raw, other, other.span_bbox(parsed.start, parsed.end), hit, "right")


def _below(index: PageIndex, hit: LabelHit, line: Line, parse: Parser, below_rows: int) -> Candidate | None:
    """The first line under the label in its column (overlapping the label's own span), within
    about ``below_rows`` lines; a line that is a label itself ends the search."""
    label_box = line.span_bbox(hit.start, hit.end)
    limit = max(line.height, 0.005) * 2.5 * below_rows
    under = [
        other
        for other in index.page.lines
        if other.y_center > line.y_center + 0.5 * line.height
        and other.y0 - line.y1 <= limit
        and (_overlap(other.bbox, label_box) > 0 or abs(other.x0 - label_box[0]) < 0.02)
    ]
    for other in sorted(under, key=lambda o: o.y_center):
        own = index.hits[id(other)]
        if own and own[0].start == 0 and not _label_is_part_of_value(own[0]):
            return None
        parsed = parse(other.text)
        if parsed is not None:
            return Candidate(
                parsed.value, parsed.raw, other, other.span_bbox(parsed.start, parsed.end), hit, "below"
            )
    return None


_QUALIFIERS = frozenset({"excl", "incl"})


def _under_other_label(index: PageIndex, value: Line, label_line: Line) -> bool:
    """Whether a caption other than ``label_line`` (a label alone on its line, no value after it)
    heads the column ``value`` sits in, right above it."""
    for other in index.page.lines:
        if other is label_line or other is value or other.y_center >= value.y_center:
            continue
        if value.y0 - other.y1 > 1.2 * max(value.height, other.height):
            continue
        if min(other.x1, value.x1) - max(other.x0, value.x0) <= 0:
            continue
        hits = index.hits[id(other)]
        if (
            hits
            and not other.text[hits[-1].end :].strip(" :.#-")
            and hits[0].start <= 1
            and hits[0].key not in ("column", "ignore")
            and not is_title(other.text)
        ):
            return True
    return False


def _label_is_part_of_value(hit: LabelHit) -> bool:
    # A name such as "SLF CASH & CARRY" or a value "Total" is not a label when it is not at the
    # start of what could be a label cell; only "ignore" words are ever part of values.
    return hit.key == "ignore" and hit.end < len(hit.line.text) - 3


def _overlap(a: BBox, b: BBox) -> float:
    return max(0.0, min(a[2], b[2]) - max(a[0], b[0]))


def enclosing(boxes: Iterable[BBox]) -> BBox:
    """The smallest box around ``boxes`` (one value read from several lines or pieces)."""
    x0s, y0s, x1s, y1s = zip(*boxes, strict=True)
    return (min(x0s), min(y0s), max(x1s), max(y1s))


_DATE_LABELS = frozenset({"due_date", "invoice_date"})


def line_labels(index: PageIndex, line: Line) -> list[tuple[str, LabelHit, int]]:
    """The labels that head a value on a line: each with the key it finally means and where the
    label, qualifiers included, ends.

    Only the first label of a cell counts ("Total Incl. GST" is a total, not a tax) unless a
    value sits between two labels ("Subtotal 10.00 Tax 1.00"); a qualifier changes what the
    label means: a total "excl." tax is a subtotal, a subtotal "incl." tax is a total, and
    "incl. VAT" on its own is the tax.
    """
    out: list[tuple[str, LabelHit, int]] = []
    previous_end = 0
    for hit in index.hits[id(line)]:
        between = line.text[previous_end : hit.start]
        twin = bool(out) and out[-1][1].start == hit.start and out[-1][1].end == hit.end
        # a label starts afresh after a value, or when it names a date: a date label never
        # qualifies the label before it ("7 days net. Please pay by ...", "Betrag bis zum ...")
        primary = not out or twin or bool(re.search(r"\d", between)) or hit.key in _DATE_LABELS
        previous_end = hit.end
        if primary:
            key = "subtotal" if hit.key == "excl" else "ignore" if hit.key == "incl" else hit.key
            out.append((key, hit, hit.end))
            continue
        key, first, _ = out[-1]
        if first.key in ("incl", "excl") and key in ("ignore", "subtotal") and hit.key in ("tax", "total"):
            # "incl. VAT 20%" / "dont TVA" is the tax; "excl. VAT" what comes before it.
            key = ("tax" if hit.key == "tax" else "total") if first.key == "incl" else "subtotal"
        elif hit.key == "excl" and key in ("total", "tax", "subtotal"):
            key = "subtotal"
        elif hit.key == "incl" and key in ("subtotal", "total"):
            key = "total"
        out[-1] = (key, first, hit.end)
    return out


# The raw confidence that a field is truly absent when the document prints no label for it at all
# (no "Due date", no "VAT" anywhere): the calibration learns what that is worth.
ABSENT_LABEL_CONFIDENCE = 0.8


def has_label(indexes: Sequence[PageIndex], key: str) -> bool:
    """Does any line of the pages carry a label of ``key``?"""
    return any(
        found == key
        for index in indexes
        for line in index.page.lines
        for found, _, _ in line_labels(index, line)
    )


def candidates(
    indexes: Sequence[PageIndex], keys: Iterable[str], parse: Parser, *, below_rows: int = 2
) -> list[Candidate]:
    """Every value pointed at by a label of ``keys`` on any page, in reading order."""
    wanted = set(keys)
    out = []
    for index in indexes:
        for line in index.page.lines:
            header = index.in_header(line)
            for key, hit, label_end in line_labels(index, line):
                if key in wanted and not (header and key in ("total", "subtotal")):
                    found = find_value(index, hit, parse, below_rows=below_rows, label_end=label_end)
                    if found is not None:
                        out.append(found)
    return out


# --------------------------------------------------------------------------------------------
# Value parsers (text → Parsed)
# --------------------------------------------------------------------------------------------

# A caption's abbreviation before the value ("Nr. 123", "No: 123", OCR's "Ne2552439" of
# "Nº 2552439"); one a hyphen joins to the digits is the number's own prefix ("NR-77448").
_LEAD = re.compile(
    r"^[\s:;#.°º\-\u2013\u2014=>|*]*(?:(?:no|nr|n°|nº|no\.|num|number|numero|#)\b(?!-\w)[\s:.#]*"
    r"|(?-i:Ne)(?=\d))?",
    re.IGNORECASE,
)


def amount_parser(*, rightmost: bool = True, need_decimals: bool = False) -> Parser:
    """Amounts: the rightmost in the text (the money column of a row), optionally only those
    printed with decimals (so "2" in "Total Qty 2" or "6%" are never amounts)."""

    def parse(text: str) -> Parsed | None:
        repaired = repair_money_text(text)
        found = [
            a
            for a in _with_space_grouping(repaired, find_amounts(repaired))
            if a.decimals == 2 or not need_decimals
        ]
        if not found:
            return None
        pick = found[-1] if rightmost else found[0]
        return Parsed(format_amount(pick.value), pick.value, pick.start, pick.end)

    return parse


# Thousands grouped by plain spaces, decimals after a point: "8 071.00", "1 234 567.89".
_SPACE_GROUPED = re.compile(r"(?<![\d.,])\d{1,3}(?: \d{3})+\.\d{2}(?![\d%])")


def _with_space_grouping(text: str, found: list[AmountMatch]) -> list[AmountMatch]:
    """``found`` with amounts whose thousands plain spaces group read whole: "Base HT 8 071.00"
    is 8071.00, not 8 and 71.00. A labelled total, subtotal or tax has no quantity before it, so
    the digits a single space before three digits and the decimals are its thousands
    (find_amounts leaves "2 150.00" split, as an item row's quantity and price stand)."""
    out = list(found)
    for match in _SPACE_GROUPED.finditer(text):
        inside = [a for a in out if a.start < match.end() and a.end > match.start()]
        if len(inside) < 2:
            continue
        value = Decimal(match.group().replace(" ", ""))
        merged = AmountMatch(-value if inside[0].value < 0 else value, inside[0].start, match.end(), 2)
        out = [a for a in out if a not in inside]
        out.append(merged)
        out.sort(key=lambda a: a.start)
    return out


_DOLLAR_AS_S = re.compile(r"(?<![A-Za-z0-9])S(?=\d{1,6}[.,]\d\d(?!\d))")
_LETTER_IN_NUMBER = re.compile(r"(?<=[\d.,])[Oo](?=[\d.,])|(?<=RM)[OoIl](?=[\d.,])|(?<=[\d])[Oo](?=\b)")


def repair_money_text(text: str) -> str:
    """Undo what OCR does to printed money, keeping the text's length (offsets stay valid): a
    "$" read as "S" before an amount, "O" read for "0" inside digits ("RMO.02", "1O.50")."""
    text = _DOLLAR_AS_S.sub("$", text)
    return _LETTER_IN_NUMBER.sub(lambda m: "0" if m.group() in "Oo" else "1", text)


def date_parser(prefer: str | None) -> Parser:
    def parse(text: str) -> Parsed | None:
        found = find_dates(text, prefer=prefer)
        if not found:
            return None
        first = found[0]
        return Parsed(first.value.isoformat(), first.value, first.start, first.end)

    return parse


_CODE = re.compile(r"(?<![A-Za-z0-9])[A-Za-z0-9][A-Za-z0-9\-/._]*\d[A-Za-z0-9\-/._]*")


def code_parser(text: str) -> Parsed | None:
    """An identifier as printed (invoice number): the first token with a digit, after any
    "No.", "#" or colon."""
    lead = _LEAD.match(text)
    offset = lead.end() if lead else 0
    rest = text[offset:]  # searched on its own: "Ne2552439"'s number follows a letter
    match = _CODE.search(rest)
    if match is None or match.start() > 2:
        return None
    token = match.group().rstrip("._-/")
    start = match.start()
    dates = find_dates(rest, prefer="dmy")
    if any(d.start <= start < d.end for d in dates):
        return None  # a date, or the start of one ("21.Juni 2022"), is no identifier
    # a date that begins inside the token and runs on past it was glued to the number by OCR
    # ("MF-72235-26juli 2024" of "MF-72235 · 26 juli 2024"): the number ends where the date begins
    # (or that ends it: "F2023/7673-19-09-2023"), where the number left still has a digit
    glued = [d.start for d in dates if start < d.start < start + len(token) <= d.end]
    if glued and re.search(r"\d", token[: min(glued) - start]):
        token = token[: min(glued) - start].rstrip("._-/")
    if len(token) < 2:
        return None
    return Parsed(token, token, offset + start, offset + start + len(token))


def iban_parser(text: str) -> Parsed | None:
    found = find_iban(text)
    if found is None:
        return None
    return Parsed(found[0], found[0], found[1], found[2])


_ACCOUNT = re.compile(r"(?<![A-Za-z0-9])\d[\d\- ]{4,30}\d(?![A-Za-z0-9])")


def account_parser(text: str) -> Parsed | None:
    """An IBAN, else a domestic account number as printed (digits, dashes, spaces)."""
    found = iban_parser(text)
    if found is not None:
        return found
    lead = _LEAD.match(text)
    offset = lead.end() if lead else 0
    match = _ACCOUNT.search(text, offset)
    if match is None or find_dates(match.group(), prefer="dmy"):
        return None
    return Parsed(match.group(), match.group(), match.start(), match.end())


_NAME_TEXT = re.compile(r"[A-Za-zÀ-ÖØ-öø-ÿ]")


def text_parser(text: str) -> Parsed | None:
    """Free text (a name): what follows the label's colon, if it has letters."""
    lead = re.match(r"^[\s:;#\-\u2013\u2014|]*", text)
    offset = lead.end() if lead else 0
    value = text[offset:].strip()
    if len(value) < 2 or not _NAME_TEXT.search(value):
        return None
    return Parsed(value, value, offset, offset + len(value))


def confidence(*parts: float) -> float:
    """A raw confidence from independent factors in 0..1 (their product, rounded)."""
    value = 1.0
    for part in parts:
        value *= max(0.0, min(1.0, part))
    return round(value, 3)


def field(
    value: str | None, conf: float, cand: Candidate | None, source: str, valid: bool | None = None
) -> FieldResult:
    """A FieldResult for a value and the candidate it came from (no candidate: no box; no value:
    an empty field with confidence 0)."""
    if value is None:
        return FieldResult(value=None, confidence=0.0, page=1, bbox=None, source=source, valid=None)
    if cand is None:
        return FieldResult(value=value, confidence=conf, page=1, bbox=None, source=source, valid=valid)
    return FieldResult(
        value=value, confidence=conf, page=cand.page, bbox=cand.bbox, source=source, valid=valid
    )


def empty(source: str) -> FieldResult:
    return field(None, 0.0, None, source)


def page_source(pages: Sequence[PageText]) -> str:
    return pages[0].source if pages else "ocr"


def all_dates(indexes: Sequence[PageIndex], prefer: str | None) -> list[Candidate]:
    """Every date on the pages, in reading order, with no label."""
    out = []
    for index in indexes:
        for line in index.page.lines:
            for match in find_dates(line.text, prefer=prefer):
                bbox = line.span_bbox(match.start, match.end)
                out.append(Candidate(match.value.isoformat(), match.value, line, bbox, None, "unlabelled"))
    return out


def as_decimal(cand: Candidate) -> Decimal:
    assert isinstance(cand.raw, Decimal)
    return cand.raw
