"""Decisions that receipts and invoices share: which amount is the total, which the tax, what
currency and which date the document is in.

Each decision gathers labelled candidates with :mod:`engines.business.fields` and lets the
document's own arithmetic settle between them: payment minus change and subtotal plus tax both
equal the total, so a candidate that takes part in such an equation is far more likely right.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from engines.business.fields import (
    Candidate,
    PageIndex,
    all_dates,
    amount_parser,
    as_decimal,
    candidates,
    date_parser,
    enclosing,
)
from engines.business.places import currency_and_evidence, currency_from_country
from engines.knowledge import KNOWLEDGE
from engines.types import BBox, Check
from engines.validators import date_order, detect_currency, find_dates

_CENT = Decimal("0.01")
_DOLLARS = frozenset({"USD", "CAD", "AUD", "NZD", "SGD", "HKD", "MXN"})


@dataclass(frozen=True)
class MoneyFacts:
    """Every labelled amount on the document, by what its label says it is."""

    totals: list[Candidate]
    subtotals: list[Candidate]
    taxes: list[Candidate]
    payments: list[Candidate]
    changes: list[Candidate]
    roundings: list[Candidate]
    # with no change label read: the amounts on the row below each payment (the change, its
    # label misread: "Rickgeld"); they count only in payment minus change, which must then give
    # a total to the cent
    unlabelled_changes: tuple[Decimal, ...] = ()
    # the amounts right of each tax label's amount in its row, and on the row below: where OCR lost
    # a rate's "%" ("TAX 7.25%" read "tax7.25"), the rate stands as the label's amount and the tax
    # sits beside or under it; they count only where subtotal + tax = total then holds to the cent
    after_taxes: tuple[Candidate, ...] = ()
    # every amount on the page that payment minus change gives, labelled or not: where OCR split
    # "TOTAL (IVA INCL.): 33,93" so that no label points at the amount, it is still the sum paid
    paid_anywhere: tuple[Candidate, ...] = ()
    # the middle amount of each row that prints net, tax and gross in that order with net + tax =
    # gross (a till's tax table, "A 21% 11,94 2,51 14,45", or a zero rate's "B 0% 1,27 0,00 1,27"):
    # the tax where its caption was lost, and the rates' taxes to add up where the table has several
    tax_table_rows: tuple[tuple[Candidate, Decimal], ...] = ()


def money_facts(indexes: Sequence[PageIndex]) -> MoneyFacts:
    """Labelled amounts (printed with two decimals when there are any such, else whole numbers
    too, for documents that print "Total: 120")."""

    def with_cents(key: str) -> list[Candidate]:
        return candidates(indexes, (key,), amount_parser(need_decimals=True))

    def gather(key: str) -> list[Candidate]:
        return with_cents(key) or candidates(
            indexes, (key,), amount_parser(need_decimals=False), below_rows=1
        )

    payments, changes, taxes = gather("payment"), gather("change"), gather("tax")
    subtotals = with_cents("subtotal")
    totals = gather("total")
    if subtotals and totals and not with_cents("total"):
        totals = _with_lost_decimal_points(totals, subtotals)
    facts = MoneyFacts(
        totals=totals,
        subtotals=subtotals or gather("subtotal"),
        taxes=taxes,
        payments=payments,
        changes=changes,
        roundings=gather("rounding"),
        unlabelled_changes=() if changes else tuple(as_decimal(c) for c in _amounts_below(indexes, payments)),
        after_taxes=_amounts_below(indexes, taxes, beside=True),
        tax_table_rows=_tax_table_rows(indexes),
    )
    if facts.totals or not changes:
        return facts
    return dataclasses.replace(facts, paid_anywhere=_amounts_equal_to(indexes, payment_targets(facts)))


def _with_lost_decimal_points(totals: list[Candidate], subtotals: list[Candidate]) -> list[Candidate]:
    """Whole totals read off a document whose subtotal prints cents ("Grand total USD1247"
    under "Sub-total 11.45"), as the amounts they are with the decimal point OCR lost (12.47):
    a document that prints cents prints them on its total too. Only where that amount is no
    less than the largest subtotal and less than twice it (tax, tip and fees never double it);
    a whole total that is not so stays as read."""
    largest = max(as_decimal(s) for s in subtotals)
    out = []
    for cand in totals:
        cents = as_decimal(cand) / 100
        if largest <= cents < 2 * largest:
            cand = dataclasses.replace(cand, value=f"{cents:.2f}", raw=cents)
        out.append(cand)
    return out


def _tax_table_rows(indexes: Sequence[PageIndex]) -> tuple[tuple[Candidate, Decimal], ...]:
    """(tax, gross) of every row whose last three amounts are net, tax and gross, net + tax =
    gross, the tax the smallest (a rate's percentage, "21%", is no amount) or nought where net
    and gross are one amount (a zero rate's row)."""
    parse = amount_parser(need_decimals=True)
    found = []
    for index in indexes:
        for row in index.rows:
            cells = []
            for line in sorted(row, key=lambda item: item.x0):
                parsed = parse(line.text)
                if parsed is not None and "%" not in line.text[parsed.end : parsed.end + 2]:
                    cells.append((line, parsed))
            if len(cells) < 3:
                continue
            (_, net), (tax_line, tax), (_, gross) = cells[-3:]
            net_v, tax_v, gross_v = (Decimal(str(p.raw)) for p in (net, tax, gross))
            if Decimal(0) <= tax_v < net_v and _close(net_v + tax_v, gross_v):
                bbox = tax_line.span_bbox(tax.start, tax.end)
                found.append((Candidate(tax.value, tax_v, tax_line, bbox, None, "unlabelled"), gross_v))
    return tuple(found)


def _amounts_equal_to(indexes: Sequence[PageIndex], targets: set[Decimal]) -> tuple[Candidate, ...]:
    """Every amount printed with decimals whose value is one of ``targets``, in reading order."""
    parse = amount_parser(need_decimals=True)
    found = []
    for index in indexes:
        for line in index.page.lines:
            parsed = parse(line.text)
            if parsed is not None and Decimal(str(parsed.raw)) in targets:
                bbox = line.span_bbox(parsed.start, parsed.end)
                found.append(
                    Candidate(parsed.value, Decimal(str(parsed.raw)), line, bbox, None, "unlabelled")
                )
    return tuple(found)


def _amounts_below(
    indexes: Sequence[PageIndex], labelled: Sequence[Candidate], *, beside: bool = False
) -> tuple[Candidate, ...]:
    """The amounts on the row right below each labelled amount's, and with ``beside`` those
    right of it in its own row too."""
    by_page = {index.page.page: index for index in indexes}
    parse = amount_parser(need_decimals=True)
    found = []
    for cand in labelled:
        index = by_page.get(cand.page)
        if index is None:
            continue
        row = index.row_of(cand.line)
        lines = list(index.rows[row + 1]) if row + 1 < len(index.rows) else []
        if beside:
            lines += [line for line in index.rows[row] if line.bbox[0] > cand.line.bbox[2]]
        for line in lines:
            parsed = parse(line.text)
            if parsed is not None:
                raw = Decimal(str(parsed.raw))
                bbox = line.span_bbox(parsed.start, parsed.end)
                found.append(Candidate(parsed.value, raw, line, bbox, cand.hit, "below"))
    return tuple(found)


def _values(cands: Sequence[Candidate]) -> set[Decimal]:
    return {as_decimal(c) for c in cands}


def _close(a: Decimal, b: Decimal) -> bool:
    return abs(a - b) <= _CENT


def payment_targets(facts: MoneyFacts) -> set[Decimal]:
    """Payment minus change, for every pair printed (the amount actually due); the payment
    itself, or minus the amount printed below it, when no change label is read."""
    changes = _values(facts.changes) or {Decimal(0), *facts.unlabelled_changes}
    return {p - c for p in _values(facts.payments) for c in changes if p > c >= 0}


def sum_targets(facts: MoneyFacts) -> set[Decimal]:
    """Subtotal plus tax, for every pair printed; and a subtotal of which a printed tax is the
    share included at its rate: where prices include tax ("incl. VAT 5.5%", "di cui IVA"), the
    "net total" or "totale imponibile" a till prints is the total itself."""
    added = {s + t for s in _values(facts.subtotals) for t in _values(facts.taxes) if s > 0 and t >= 0}
    included = {
        as_decimal(s) for s in facts.subtotals for t in facts.taxes if tax_matches_included_rate(t, s)
    }
    return added | included


_ROUNDED_TOTAL_VOTES = 3  # as many as payment minus change: it is the amount paid
_FIVE_CENTS = Decimal("0.05")


def _to_five_cents(value: Decimal) -> Decimal:
    """``value`` rounded to the nearest five cents, halves up (Malaysia's and Switzerland's cash
    rounding: 42.33 → 42.35, 7.42 → 7.40)."""
    return (value / _FIVE_CENTS).quantize(Decimal(1), rounding=ROUND_HALF_UP) * _FIVE_CENTS


def choose_total(facts: MoneyFacts) -> tuple[Candidate | None, float, bool | None]:
    """The total, a raw confidence, and whether arithmetic confirmed it (None: nothing to check).

    Votes per distinct amount: one per "total" label showing it (two for a specific label such as
    "amount due" or "total incl. GST"), three when payment minus change gives it, two when
    subtotal plus tax does, two when it is another total plus a printed rounding adjustment. Ties go to the larger amount (a total is never below its parts).
    """
    pays = payment_targets(facts)
    sums = sum_targets(facts)
    pool = [_without_a_sign_read_as_a_digit(c, facts, pays | sums) for c in facts.totals if as_decimal(c) > 0]
    if not pool:
        # No "total" label read ("ZU" and "ZAHLEN" on two lines): an amount that payment minus
        # change gives will do, or a printed amount that subtotal plus tax gives.
        pool = [
            c
            for c in [*facts.subtotals, *facts.payments, *facts.paid_anywhere]
            if as_decimal(c) > 0 and (as_decimal(c) in pays or as_decimal(c) in sums)
        ]
        if not pool:
            return None, 0.0, None
    votes: Counter[Decimal] = Counter()
    first: dict[Decimal, Candidate] = {}
    for cand in pool:
        value = as_decimal(cand)
        strong = cand.hit is not None and cand.hit.strength > 6
        votes[value] += 2 if strong else 1
        first.setdefault(value, cand)
    # A rounding line that prints the rounded total itself ("Rounding RM 42.35" under "Total
    # Sales 42.33"), a payment of it, or a second subtotal after the rounding: cash is paid to
    # the nearest five cents (sen, Rappen).
    for cand in [*facts.roundings, *facts.payments, *facts.subtotals]:
        value = as_decimal(cand)
        if value > 0 and value not in votes and any(value == _to_five_cents(v) != v for v in list(votes)):
            votes[value] += _ROUNDED_TOTAL_VOTES
            first.setdefault(value, cand)
    # Cash minus change that gives a total rounded to five cents, where the rounded total itself
    # is printed nowhere OCR could read: it is the amount paid.
    for paid in _cash_rounded_payments(facts, votes):
        votes[as_decimal(paid)] += _ROUNDED_TOTAL_VOTES
        first.setdefault(as_decimal(paid), paid)
    confirmed: dict[Decimal, bool] = {}
    roundings = {r for r in _values(facts.roundings) if r != 0}
    for value in list(votes):
        by_payment = any(_close(value, p) for p in pays)
        by_sum = any(_close(value, s) for s in sums)
        # The amount after a printed rounding adjustment is the one paid.
        rounded = any(value == other + r for other in votes for r in roundings)
        votes[value] += 3 * by_payment + 2 * by_sum + 2 * rounded
        confirmed[value] = by_payment or by_sum
    best = max(votes, key=lambda v: (votes[v], v))
    checkable = bool(pays or sums)
    arithmetic = confirmed[best] if checkable else None
    share = votes[best] / sum(votes.values())
    conf = 0.55 + 0.25 * share + (0.15 if arithmetic else 0.0) - (0.1 if arithmetic is False else 0.0)
    return first[best], min(conf, 0.97), arithmetic


def _cash_rounded_payments(facts: MoneyFacts, votes: Counter[Decimal]) -> list[Candidate]:
    """Payment minus change (its label read, else the amount under the payment), one candidate
    boxed around both, for each pair whose difference is a voted total rounded to five cents and
    not itself voted."""
    changes: list[tuple[Decimal, BBox | None]] = [(as_decimal(c), c.bbox) for c in facts.changes] or [
        (amount, None) for amount in facts.unlabelled_changes
    ]
    found: dict[Decimal, Candidate] = {}
    for payment in facts.payments:
        for change, change_box in changes:
            paid = as_decimal(payment) - change
            if paid > 0 and paid not in votes and any(paid == _to_five_cents(v) != v for v in votes):
                bbox = payment.bbox if change_box is None else enclosing((payment.bbox, change_box))
                cand = Candidate(f"{paid.quantize(_CENT):f}", paid, payment.line, bbox, None, "combined")
                found.setdefault(paid, cand)
    return list(found.values())


# What OCR reads a dollar sign glued to an amount as ("$51.70" → 851.70).
_SIGN_LOOKALIKES = frozenset("85")


def _without_a_sign_read_as_a_digit(cand: Candidate, facts: MoneyFacts, targets: set[Decimal]) -> Candidate:
    """``cand`` without its first digit where that digit is a dollar sign OCR misread ("$51.70"
    read 851.70) and the rest is what the document's arithmetic gives (subtotal plus tax, payment
    minus change, or a tax at its printed rate on the rest: "HST 15%" 6.74 on 44.96): the reading
    as printed agrees with none of it."""
    value = as_decimal(cand)
    if not cand.value or cand.value[0] not in _SIGN_LOOKALIKES or value in targets:
        return cand
    rest = cand.value[1:]
    if not re.fullmatch(r"\d+\.\d{2}", rest):
        return cand
    amount = Decimal(rest)
    if amount in targets or (
        not _taxed_at_printed_rate(value, facts.taxes) and _taxed_at_printed_rate(amount, facts.taxes)
    ):
        return dataclasses.replace(cand, value=rest, raw=amount)
    return cand


def _taxed_at_printed_rate(total: Decimal, taxes: Sequence[Candidate]) -> bool:
    """Is one of ``taxes`` the tax, at the rate its label prints, on ``total`` less that tax?"""
    for tax in taxes:
        amount = as_decimal(tax)
        for rate in _printed_rates(tax):
            if 0 < amount < total and ((total - amount) * rate / 100).quantize(_CENT) == amount:
                return True
    return False


_TAX_TABLE_CONFIDENCE = 0.8  # raw: arithmetic and the total agree, but no label says "tax"


def choose_tax(facts: MoneyFacts, total: Candidate | None) -> tuple[Candidate | None, float]:
    """The tax amount: the one that makes subtotal + tax = total when the document prints those,
    else the amount most "tax" labels show (below the total, never above it)."""
    pool = list(facts.taxes)
    if total is not None:
        limit = as_decimal(total)
        by_rate = _tax_table_sum(facts.tax_table_rows, limit)
        if by_rate is not None:
            return by_rate, 0.92
        pool = [c for c in pool if Decimal(0) <= as_decimal(c) < limit]
        subtotals = _values(facts.subtotals)
        for cand in [*pool, *facts.after_taxes]:
            if Decimal(0) <= as_decimal(cand) < limit and any(
                _close(s + as_decimal(cand), limit) for s in subtotals
            ):
                if as_decimal(cand) == 0:
                    return _instead_of_nought(cand, pool, total)
                return cand, 0.92
        # A subtotal whose qualifier OCR set apart ("Total excl." | "VAT" | "12.94") is read under
        # the tax's label, as a "total" below the total is: of two such amounts adding up to the
        # total, the tax is the smaller (no rate reaches 100 %).
        netted = _values(pool) | {v for v in _values(facts.totals) if v < limit}
        for cand in sorted(pool, key=as_decimal):
            value = as_decimal(cand)
            if any(value < s and _close(s + value, limit) for s in netted):
                return cand, 0.85
    pool = [c for c in pool if as_decimal(c) >= 0]
    if not pool:
        if total is not None:
            # no tax label read: a tax table's row whose gross is the total still says it
            for cand, gross in facts.tax_table_rows:
                if as_decimal(cand) > 0 and _close(gross, as_decimal(total)):
                    return cand, _TAX_TABLE_CONFIDENCE
        return None, 0.0
    counts = Counter(as_decimal(c) for c in pool)
    summed = _sum_of_the_others(pool) or _sum_printed_below(pool, facts.after_taxes)
    if summed is not None:
        return summed, 0.85
    best = max(pool, key=lambda c: (counts[as_decimal(c)], as_decimal(c) > 0))
    conf = 0.6 + 0.1 * min(counts[as_decimal(best)] - 1, 2)
    if sum(1 for n in counts.values() if n == counts[as_decimal(best)]) > 1:
        conf /= 2  # as often as another amount under a tax label: a guess between them
    return best, conf


def _instead_of_nought(
    nought: Candidate, pool: Sequence[Candidate], total: Candidate
) -> tuple[Candidate, float]:
    """The tax where nought balances the arithmetic: a net amount equal to the total says the
    prices include tax, so 0.00 "balances" it whatever the tax is, and a zero rate's row ("B 0%
    0.00") is the tax only where no tax label shows an amount above nought. Such an amount is
    taken, confidently where it is the tax included in the total at a common rate, else as a
    guess (one rate's tax of several, "incl. VAT 20% 1.16", with the table's other rows lost)."""
    positive = [c for c in pool if as_decimal(c) > 0]
    if not positive:
        return nought, 0.92
    included = [c for c in positive if tax_matches_included_rate(c, total)]
    return (included[0], 0.9) if included else (positive[0], 0.6)


def _tax_table_sum(rows: Sequence[tuple[Candidate, Decimal]], total: Decimal) -> Candidate | None:
    """The tax of a table with one row per rate whose grosses add up to the total: the sum of the
    rows' taxes, where at least one rate taxes something (a receipt's "A 20% 5.82 1.16 6.98" and
    "B 0% 1.27 0.00 1.27" under a total of 8.25 owe 1.16 of tax)."""
    if len(rows) < 2 or not any(as_decimal(cand) > 0 for cand, _ in rows):
        return None
    if not _close(sum((gross for _, gross in rows), Decimal(0)), total):
        return None
    return summed_candidate([cand for cand, _ in rows])


def summed_candidate(parts: Sequence[Candidate]) -> Candidate:
    """One candidate for the sum of ``parts`` (taxes printed per rate), boxed around them all so
    the review crop shows every amount that went into it."""
    value = sum((as_decimal(c) for c in parts), Decimal(0))
    first = parts[0]
    bbox = enclosing(c.bbox for c in parts)
    return Candidate(f"{value.quantize(_CENT):f}", value, first.line, bbox, first.hit, "combined")


def _sum_of_the_others(pool: Sequence[Candidate]) -> Candidate | None:
    """The amount a tax summary prints as the total of its rates' lines ("VAT 21% 0,81",
    "VAT 9% 2,83", "TAX 3,64"): one that equals the sum of the other distinct amounts."""
    distinct = sorted({as_decimal(c) for c in pool if as_decimal(c) > 0})
    if len(distinct) < 3:
        return None
    for value in distinct:
        others = [v for v in distinct if v != value]
        if _close(sum(others, Decimal(0)), value):
            return next(c for c in pool if as_decimal(c) == value)
    return None


def _sum_printed_below(pool: Sequence[Candidate], below: Sequence[Candidate]) -> Candidate | None:
    """The amount under or beside the tax lines that is the sum of their distinct amounts: one
    line per rate ("enth. Umsatzsteuer 2.6%" 1.60, "8.1%" 1.55) and their total (3.15) with its
    caption lost."""
    distinct = {as_decimal(c) for c in pool if as_decimal(c) > 0}
    if len(distinct) < 2:
        return None
    total = sum(distinct, Decimal(0))
    return next((c for c in below if as_decimal(c) == total), None)


# VAT and sales-tax rates in use where our documents come from (percent, engines/knowledge/
# common.toml); a rate printed beside the tax amount is tried first.
_COMMON_TAX_RATES = KNOWLEDGE.tax_rates
_PRINTED_RATE = re.compile(r"(\d{1,2}(?:[.,]\d{1,2})?)\s*%")


def _printed_rates(tax: Candidate) -> list[Decimal]:
    """The rates (percent) printed on a tax amount's line or its label's ("VAT 20%")."""
    texts = {tax.line.text, tax.hit.line.text if tax.hit is not None else ""}
    return [Decimal(m.replace(",", ".")) for text in texts for m in _PRINTED_RATE.findall(text)]


def tax_matches_included_rate(tax: Candidate, total: Candidate) -> bool:
    """Is ``tax`` the tax included in ``total`` at the rate printed beside it, or else at one
    common VAT rate? Receipts print prices with tax included, so this is the arithmetic they
    carry when they print no subtotal: two amounts read apart agreeing to the cent."""
    gross, amount = as_decimal(total), as_decimal(tax)
    if amount <= 0 or gross <= amount:
        return False
    rates = _printed_rates(tax) or [Decimal(str(rate)) for rate in _COMMON_TAX_RATES]
    for rate in rates:
        if rate <= 0:
            continue
        included = (gross * rate / (100 + rate)).quantize(_CENT)
        if _close(included, amount):
            return True
    return False


# Raw confidences of a currency no amount prints, from the document's country: one an address,
# IBAN or tax number (two votes or more) shows, and one a word alone suggests.
_COUNTRY_CURRENCY_CONFIDENCE = 0.6
_WORD_CURRENCY_CONFIDENCE = 0.3
_ADDRESS_VOTES = 2


def document_currency(indexes: Sequence[PageIndex]) -> tuple[str | None, float, Candidate | None]:
    """The currency the document prints (symbol or code), else the one its country suggests."""
    text = "\n".join(index.page.text for index in indexes)
    code = detect_currency(text)
    if code == "USD" and "USD" not in text and "US$" not in text:
        # A bare "$" is the dollar of wherever the document is from (CAD, AUD, SGD, ...).
        local = currency_from_country(indexes)
        if local is not None and local != "EUR" and local in _DOLLARS:
            code = local
    if code is not None:
        for index in indexes:
            for line in index.page.lines:
                if detect_currency(line.text) == code:
                    cand = Candidate(code, code, line, line.bbox, None, "unlabelled")
                    return code, 0.9, cand
        return code, 0.85, None
    code, votes = currency_and_evidence(indexes)
    if code is None:
        return None, 0.0, None
    # a word alone ("VAT" on an English receipt from Munich) is weak evidence of a country
    return (
        code,
        (_COUNTRY_CURRENCY_CONFIDENCE if votes >= _ADDRESS_VOTES else _WORD_CURRENCY_CONFIDENCE),
        None,
    )


def date_preference(indexes: Sequence[PageIndex], currency: str | None) -> str:
    """How to read 03/04/2026 on this document: as its unambiguous dates are printed, else by
    country (month first in the US), else day first."""
    order = date_order([line.text for index in indexes for line in index.page.lines])
    if order:
        return order
    return "mdy" if currency == "USD" else "dmy"


# Where both 09/05/2024 orders are in everyday use (Canada: month first in English business
# software, day first in French and in government), or the currency names no country at all:
# an ambiguous date that no other date on the document settles is a guess.
MIXED_DATE_ORDER = frozenset({None, "CAD"})


def document_date(
    indexes: Sequence[PageIndex], currency: str | None, *, keys: Sequence[str]
) -> tuple[Candidate, float] | None:
    """The date a label of ``keys`` points at, else the first date on the first page; an
    ambiguous one is doubted, twice where the currency's country writes both orders."""
    prefer = date_preference(indexes, currency)
    labelled = candidates(indexes, keys, date_parser(prefer))
    dates = labelled or all_dates(indexes[:1], prefer) or all_dates(indexes, prefer)
    if not dates:
        return None
    cand = dates[0]
    doubt = ambiguity_factor(cand, prefer, indexes)
    if currency in MIXED_DATE_ORDER:
        doubt *= ambiguity_factor(cand, prefer, indexes)
    return cand, (0.9 if labelled else 0.75) * doubt


DATE_ORDER_CHECK = "date_order_settled"


def order_unsettled(cand: Candidate, indexes: Sequence[PageIndex], currency: str | None) -> bool:
    """Is ``cand`` a date that reads two ways (07/06/2023) on a document whose currency's country
    writes both orders, and that no other date on it settles? Then the day and month are a coin
    toss no confidence expresses well: a person reads the document."""
    prefer = date_preference(indexes, currency)
    return currency in MIXED_DATE_ORDER and ambiguity_factor(cand, prefer, indexes) < 1.0


def date_order_checks(unsettled: Sequence[str]) -> list[Check]:
    """A failed check naming the date fields whose order :func:`order_unsettled` found a guess."""
    if not unsettled:
        return []
    return [Check(DATE_ORDER_CHECK, False, "day and month order unsettled: " + ", ".join(unsettled))]


def ambiguity_factor(cand: Candidate, prefer: str, indexes: Sequence[PageIndex]) -> float:
    """0.8 for a date that reads two ways (09/05/2024) when no other date on the document
    settles the order, else 1."""
    matches = find_dates(cand.line.text, prefer=prefer)
    ambiguous = any(m.ambiguous and m.value.isoformat() == cand.value for m in matches)
    if not ambiguous:
        return 1.0
    settled = date_order([line.text for index in indexes for line in index.page.lines]) is not None
    return 1.0 if settled else 0.8
