"""Invoices: vendor_name, invoice_number, invoice_date, due_date, customer_name, currency, subtotal,
tax_amount, total_amount (ARCHITECTURE §3.2).

An invoice checks itself: subtotal plus tax is the total, and its item lines add up to the
subtotal. Among the amounts its labels point at, the reader prefers a (subtotal, tax, total)
triple that satisfies that equation, reports it as the ``totals_arithmetic`` check, and lowers its
confidence in all three amounts when no triple does.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal

from engines.business.address import address_blocks
from engines.business.fields import (
    ABSENT_LABEL_CONFIDENCE,
    Candidate,
    Line,
    PageIndex,
    all_dates,
    as_decimal,
    candidates,
    code_parser,
    confidence,
    date_parser,
    empty,
    field,
    find_amounts,
    has_label,
    page_source,
    repair_money_text,
    text_parser,
)
from engines.business.labels import (
    is_title,
)
from engines.business.money import (
    MIXED_DATE_ORDER,
    MoneyFacts,
    ambiguity_factor,
    choose_tax,
    choose_total,
    date_order_checks,
    date_preference,
    document_currency,
    money_facts,
    order_unsettled,
    summed_candidate,
)
from engines.business.names import (
    LEGAL_SUFFIX,
    canonical_name,
    clean_organisation,
    clean_person,
    is_boilerplate,
    legal_form_beside,
    looks_like_name,
    looks_like_street,
    organisation_at_top,
    party_name_parser,
    respace_fields,
)
from engines.layout import PageText
from engines.spec import FIELDS as SPEC_FIELDS
from engines.types import Check, Extracted, FieldResult
from engines.validators import fold

FIELDS = SPEC_FIELDS["invoice"]
_CENT = Decimal("0.01")


def read_invoice(pages: list[PageText]) -> Extracted:
    """Read an invoice's fields from its pages (OCR or text layer)."""
    source = page_source(pages)
    if not pages or not any(page.lines for page in pages):
        return Extracted(fields={name: empty(source) for name in FIELDS}, checks=[])
    indexes = [PageIndex(page) for page in pages]
    fields: dict[str, FieldResult] = {}

    customer = _customer(indexes)
    customer_conf = 0.8
    vendor, vendor_conf = _vendor(indexes, customer)
    if customer is None:
        # No "Bill to" label (DIN 5008 letters): the addressee block under the window is the customer.
        customer = _addressee(indexes[0], vendor)
        customer_conf = 0.6
        if customer is not None and _named_by_web_address(customer, indexes, vendor):
            vendor, customer = customer, vendor
            vendor_conf, customer_conf = 0.75, 0.6
    fields["customer_name"] = (
        field(customer.value, confidence(customer_conf, customer.score), customer, source)
        if customer
        else empty(source)
    )
    fields["vendor_name"] = (
        field(vendor.value, confidence(vendor_conf, vendor.score), vendor, source)
        if vendor
        else empty(source)
    )

    numbers = candidates(indexes, ("invoice_number",), code_parser)
    number = _best_number(numbers)
    fields["invoice_number"] = (
        field(number.value, confidence(0.85 * _lookalike_doubt(number.value), number.score), number, source)
        if number
        else empty(source)
    )

    currency, currency_conf, currency_cand = document_currency(indexes)
    fields["currency"] = field(currency, currency_conf, currency_cand, source) if currency else empty(source)

    issued, due = _dates(indexes, currency)
    unsettled = [
        name
        for name, found in (("invoice_date", issued), ("due_date", due))
        if found and order_unsettled(found[0], indexes, currency)
    ]
    fields["invoice_date"] = (
        field(issued[0].value, confidence(issued[1], issued[0].score), issued[0], source, valid=True)
        if issued
        else empty(source)
    )
    if due:
        fields["due_date"] = field(
            due[0].value, confidence(due[1], due[0].score), due[0], source, valid=_due_valid(issued, due)
        )
    elif not has_label(indexes, "due_date") and _dates_all_accounted_for(indexes, issued, currency):
        # no due-date label anywhere on a readable invoice: "there is none" is itself evidence
        fields["due_date"] = FieldResult(None, ABSENT_LABEL_CONFIDENCE, 1, None, source)
    else:
        fields["due_date"] = empty(source)

    facts = money_facts(indexes)
    items = _line_items_sum(indexes)
    totals = _totals(facts, items)
    for name, (cand, conf) in (
        ("subtotal", totals.subtotal),
        ("tax_amount", totals.tax),
        ("total_amount", totals.total),
    ):
        if cand is not None:
            fields[name] = field(
                cand.value, confidence(conf, cand.score), cand, source, valid=totals.arithmetic
            )
        elif name == "tax_amount" and not has_label(indexes, "tax"):
            # no tax label anywhere (an exempt or reverse-charge invoice): none is evidence
            fields[name] = FieldResult(None, ABSENT_LABEL_CONFIDENCE, 1, None, source)
        else:
            fields[name] = empty(source)
    fields = respace_fields({name: fields[name] for name in FIELDS}, indexes)
    return Extracted(fields=fields, checks=totals.checks + date_order_checks(unsettled))


# --------------------------------------------------------------------------------------------
# Parties
# --------------------------------------------------------------------------------------------


def _customer(indexes: Sequence[PageIndex]) -> Candidate | None:
    """The name under (or after) "Bill to" / "Rechnungsempfänger" / "Facturé à" ..."""
    for cand in candidates(indexes, ("customer",), party_name_parser):
        text = _with_legal_form_beside(indexes, cand)
        if not looks_like_name(text) or looks_like_street(text) or is_title(text) or is_boilerplate(text):
            continue
        value = clean_organisation(text) if LEGAL_SUFFIX.search(text) else clean_person(text)
        if len(value) >= 2:
            return Candidate(value, text, cand.line, cand.bbox, cand.hit, cand.where)
    return None


def _with_legal_form_beside(indexes: Sequence[PageIndex], cand: Candidate) -> str:
    """A party's name as a label points at it, with the piece of its line that OCR detected
    apart and that ends it with its legal form (see :func:`legal_form_beside`)."""
    text = str(cand.raw)
    if text != cand.line.text:
        return text  # the name follows its label on the line: the line's end is the name's
    index = next((i for i in indexes if i.page.page == cand.page), None)
    beside = legal_form_beside(index, cand.line) if index is not None else None
    return text if beside is None else f"{text} {beside.text}"


def _addressee(index: PageIndex, vendor: Candidate | None) -> Candidate | None:
    """The name heading the best postal address block on the first page that is not the vendor's."""
    for block in address_blocks(index, issuer=vendor.value if vendor else None):
        if block.name is None or not block.name_text:
            continue
        text = block.name_text
        if is_boilerplate(text):
            continue
        value = clean_organisation(text) if LEGAL_SUFFIX.search(text) else clean_person(text)
        if vendor is not None and (_compact(value) == _compact(vendor.value) or block.name is vendor.line):
            continue  # the sender's own line above the window (DIN 5008), spaces lost or not
        if len(value) >= 2:
            return Candidate(value, text, block.name, block.name.bbox, None, "block")
    return None


_WEB_HOST = re.compile(r"(?:@|\bwww\.)([a-z0-9-]+)\.[a-z]{2,}", re.IGNORECASE)


def _named_by_web_address(party: Candidate, indexes: Sequence[PageIndex], other: Candidate | None) -> bool:
    """Whether the page's e-mail or web address names ``party`` ("accounts@okafor-moore.co.uk"
    for OKAFOR & MOORE LTD) and not ``other``: an invoice prints its sender's address, so the
    addressee block it names is the vendor's, read where the customer's should be."""
    hosts = {
        match.group(1).replace("-", "").lower()
        for index in indexes
        for line in index.page.lines
        for match in _WEB_HOST.finditer(line.text)
    }

    def named(candidate: Candidate | None) -> bool:
        if candidate is None:
            return False
        words = [w for w in re.findall(r"[^\W\d_]+", fold(candidate.value)) if len(w) >= 4]
        return bool(words) and any(words[0] in host for host in hosts)

    return named(party) and not named(other)


def _compact(name: str) -> str:
    """A name without its spaces and punctuation, to compare two OCR readings of it."""
    return re.sub(r"[\W_]+", "", name)


def _vendor(indexes: Sequence[PageIndex], customer: Candidate | None) -> tuple[Candidate | None, float]:
    """The name after "From" / "Lieferant", else the organisation at the top of the first page
    (never the customer's own name)."""
    for cand in candidates(indexes, ("vendor",), text_parser):
        text = _with_legal_form_beside(indexes, cand)
        if looks_like_name(text) and not looks_like_street(text):
            value = clean_organisation(text)
            if customer is None or value != customer.value:
                labelled = Candidate(value, text, cand.line, cand.bbox, cand.hit, cand.where)
                return _with_full_stop_printed_elsewhere(indexes[0], labelled), 0.8

    def skip(line: Line) -> bool:
        return customer is not None and line is customer.line

    top = organisation_at_top(indexes[0], skip=skip)
    sender = _sender_of_return_line(indexes[0])
    if sender is not None and (top is None or _compact(top.value) != _compact(sender.value)):
        # a windowed letter names its sender above the addressee: a customer whose legal form
        # outranks the letterhead's ("Vertex Logistics Inc" under "Meridian Co.") is no vendor
        return sender, 0.75
    if top is None or (customer is not None and top.value == customer.value):
        return None, 0.0
    return _with_full_stop_printed_elsewhere(indexes[0], top), 0.75 if top.raw else 0.55


def _with_full_stop_printed_elsewhere(index: PageIndex, vendor: Candidate) -> Candidate:
    """The vendor with the legal form's full stop where another line of the page prints the name
    with it (a letterhead's "LTD." over a "From" block's "LTD", a return line's "Ltd. · 122
    Victoria Way" under a logo's "LTD"): OCR drops a small dot far oftener than it makes one up."""
    dotted = f"{vendor.value}."
    if vendor.value.endswith(".") or not any(
        line is not vendor.line and canonical_name(line.text).startswith(dotted) for line in index.page.lines
    ):
        return vendor
    return Candidate(dotted, vendor.raw, vendor.line, vendor.bbox, vendor.hit, vendor.where)


# The return line a windowed letter (DIN 5008) prints over the addressee: the sender's name, then
# its address, parted by middle dots or bars ("Meridian Co. · 9282 S Maple Avenue · Houston TX").
_RETURN_LINE_PARTS = re.compile(r"\s*[\u00b7\u2022|]\s*")
_RETURN_LINE_SEARCH = 14  # first lines of the page


def _sender_of_return_line(index: PageIndex) -> Candidate | None:
    """The sender a windowed letter's return line names: its letterhead's line where the page
    prints the same name on its own, else the line's first part."""
    top_lines = list(index.page.lines)[:_RETURN_LINE_SEARCH]
    for line in top_lines:
        parts = _RETURN_LINE_PARTS.split(line.text)
        name = parts[0].strip()
        if (
            len(parts) < 3
            or not any(re.search(r"\d", part) for part in parts[1:])
            or re.search(r"\d", name)
            or is_title(name)
            or not looks_like_name(name)
        ):
            continue
        value = clean_organisation(name)
        for other in top_lines:
            if other is not line and _compact(clean_organisation(other.text)) == _compact(value):
                return Candidate(value, other.text, other, other.bbox, None, "top")
        start = line.text.find(name)
        return Candidate(value, name, line, line.span_bbox(start, start + len(name)), None, "top")
    return None


# A lower-case l among capitals and digits: OCR's reading of an I or a 1 ("T1l-11949" of TI-11949).
_L_AMONG_CAPITALS = re.compile(r"(?=.*[A-Z0-9])(?!.*[a-km-z]).*l")


def _lookalike_doubt(number: str) -> float:
    """How far an invoice number's reading is to be trusted for its characters alone: half where
    a lower-case l stands in a number of capitals and digits, which prints none."""
    return 0.5 if _L_AMONG_CAPITALS.match(number) else 1.0


def _best_number(found: list[Candidate]) -> Candidate | None:
    """The first invoice number found after a label that is not the page's title."""
    for cand in found:
        if cand.hit is not None and not is_title(cand.hit.line.text):
            return cand
    return found[0] if found else None


# --------------------------------------------------------------------------------------------
# Dates
# --------------------------------------------------------------------------------------------


def _dates(
    indexes: Sequence[PageIndex], currency: str | None
) -> tuple[tuple[Candidate, float] | None, tuple[Candidate, float] | None]:
    """(invoice date, due date). The invoice date is the one its label points at, else the first
    date on the page that is not the due date; the due date needs its label (or a sentence such
    as "Please pay by ...")."""
    prefer = date_preference(indexes, currency)
    parse = date_parser(prefer)
    dues = candidates(indexes, ("due_date",), parse)
    due = (dues[0], 0.85) if dues else None
    issued_cands = [
        c for c in candidates(indexes, ("invoice_date",), parse) if due is None or c.line is not due[0].line
    ]
    if issued_cands:
        issued: tuple[Candidate, float] | None = (issued_cands[0], 0.88)
    else:
        others = [c for c in all_dates(indexes[:1], prefer) if due is None or c.value != due[0].value]
        issued = (others[0], 0.6) if others else None
    if currency in MIXED_DATE_ORDER:
        issued = _with_order_doubt(issued, prefer, indexes)
        due = _with_order_doubt(due, prefer, indexes)
    return issued, due


def _dates_all_accounted_for(
    indexes: Sequence[PageIndex], issued: tuple[Candidate, float] | None, currency: str | None
) -> bool:
    """Is the invoice date read and no date after it printed? Only then does the lack of a
    due-date label say the invoice has none: a later date is likely a due date under wording no
    label names ("het bedrag vóór 27 november 2023 over te maken"), and a page whose invoice date
    went unread may have lost its due date's label too."""
    if issued is None:
        return False
    return not any(c.value > issued[0].value for c in all_dates(indexes, date_preference(indexes, currency)))


def _with_order_doubt(
    found: tuple[Candidate, float] | None, prefer: str, indexes: Sequence[PageIndex]
) -> tuple[Candidate, float] | None:
    if found is None:
        return None
    return found[0], found[1] * ambiguity_factor(found[0], prefer, indexes)


def _due_valid(issued: tuple[Candidate, float] | None, due: tuple[Candidate, float] | None) -> bool | None:
    if issued is None or due is None:
        return None
    return due[0].value >= issued[0].value


# --------------------------------------------------------------------------------------------
# Totals
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Totals:
    """The three amounts (candidate, raw confidence), whether arithmetic confirmed them, and the checks."""

    subtotal: tuple[Candidate | None, float]
    tax: tuple[Candidate | None, float]
    total: tuple[Candidate | None, float]
    arithmetic: bool | None
    checks: list[Check]


def _totals(facts: MoneyFacts, items: Decimal | None) -> _Totals:
    """Pick subtotal, tax and total, preferring a triple where subtotal + tax = total.

    Several tax lines (two VAT rates) may add up to the tax. A total with no printed tax line
    equals the subtotal (tax 0). The line-item sum, when the table is readable, must equal the
    subtotal too.
    """
    subs = [c for c in facts.subtotals if as_decimal(c) > 0]
    taxes = [c for c in facts.taxes if as_decimal(c) >= 0 and c.where != "below"] or [
        c for c in facts.taxes if as_decimal(c) >= 0
    ]
    totals = [c for c in facts.totals if as_decimal(c) > 0]
    combined = _combined_tax(taxes)
    if combined is not None:
        taxes = [*taxes, combined]
    best: tuple[float, Candidate, Candidate, Candidate] | None = None
    for g in totals:
        for s in subs:
            if as_decimal(s) > as_decimal(g):
                continue
            for t in taxes:
                if abs(as_decimal(s) + as_decimal(t) - as_decimal(g)) <= _CENT:
                    score = float(as_decimal(g)) + (0.5 if t.where != "below" else 0.0)
                    if best is None or score > best[0]:
                        best = (score, s, t, g)
    if best is not None:
        _, s, t, g = best
        items_ok = items is None or abs(items - as_decimal(s)) <= _CENT
        checks = [Check("totals_arithmetic", True, "subtotal plus tax equals the total")]
        if items is not None:
            checks.append(
                Check(
                    "line_items_sum",
                    items_ok,
                    "the item lines add up to the subtotal"
                    if items_ok
                    else "the item lines do not add up to the subtotal",
                )
            )
        return _Totals((s, 0.95), (t, 0.95), (g, 0.96), True, checks)

    total, total_conf, _ = choose_total(facts)
    tax, tax_conf = choose_tax(facts, total)
    subtotal = None
    if total is not None:
        below = [c for c in subs if as_decimal(c) <= as_decimal(total)]
        subtotal = below[0] if below else None
    elif subs:
        subtotal = subs[0]
    if total is None or subtotal is None or tax is None:
        checkable = total is not None and subtotal is not None and tax is None
        if (
            checkable
            and subtotal is not None
            and total is not None
            and as_decimal(subtotal) == as_decimal(total)
        ):
            return _Totals(
                (subtotal, 0.8),
                (None, 0.0),
                (total, total_conf),
                True,
                [Check("totals_arithmetic", True, "no tax printed and the subtotal equals the total")],
            )
        return _Totals((subtotal, 0.6), (tax, tax_conf), (total, total_conf), None, [])
    checks = [Check("totals_arithmetic", False, "subtotal plus tax does not equal the total")]
    return _Totals((subtotal, 0.5), (tax, min(tax_conf, 0.5)), (total, min(total_conf, 0.6)), False, checks)


def _combined_tax(taxes: list[Candidate]) -> Candidate | None:
    """Two or more tax lines printed beside each other (one per VAT rate) as one tax amount."""
    lines: dict[int, Candidate] = {}
    for cand in taxes:
        if cand.where in ("same_line", "right"):
            lines.setdefault(id(cand.line), cand)
    parts = list(lines.values())
    if len(parts) < 2:
        return None
    return summed_candidate(parts)


def _line_items_sum(indexes: Sequence[PageIndex]) -> Decimal | None:
    """The sum of the item table's amount column, when a table header is found: the rightmost
    amount of each row under the header's rightmost caption, down to the first totals label."""
    index = indexes[0]
    if not index.header_rows:
        return None
    number = min(index.header_rows)
    header = index.rows[number]
    right_edge = max(line.x1 for line in header)
    total = Decimal(0)
    count = 0
    for row in index.rows[number + 1 :]:
        keys = {hit.key for line in row for hit in index.hits[id(line)]}
        if keys & {"total", "subtotal", "tax"}:
            break
        amounts = [
            (line, found)
            for line in row
            for found in find_amounts(repair_money_text(line.text))
            if found.decimals == 2 and abs(line.x1 - right_edge) < 0.06
        ]
        if amounts:
            total += amounts[-1][1].value
            count += 1
    return total if count else None


__all__ = ["read_invoice"]
