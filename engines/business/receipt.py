"""Shop receipts: merchant_name, date, currency, total_amount, tax_amount (ARCHITECTURE §3.2).

A receipt prints its merchant at the top, its date near the top and several "total" lines near
the bottom (before and after rounding, in the tax summary), next to cash tendered and change.
The total is the amount the most "total" labels agree on, strongly preferred when cash minus
change (or subtotal plus tax) gives the same amount: that arithmetic is the one check a receipt
carries about itself.
"""

from __future__ import annotations

import dataclasses

from engines.business.fields import (
    ABSENT_LABEL_CONFIDENCE,
    Candidate,
    PageIndex,
    confidence,
    empty,
    field,
    has_label,
    page_source,
)
from engines.business.money import (
    MoneyFacts,
    choose_tax,
    choose_total,
    date_order_checks,
    document_currency,
    document_date,
    money_facts,
    order_unsettled,
    tax_matches_included_rate,
)
from engines.business.names import (
    organisation_at_top,
    respace_fields,
)
from engines.layout import PageText
from engines.spec import FIELDS as SPEC_FIELDS
from engines.types import Check, Extracted, FieldResult

FIELDS = SPEC_FIELDS["receipt"]


def read_receipt(pages: list[PageText]) -> Extracted:
    """Read a receipt's fields from its pages (OCR or text layer)."""
    source = page_source(pages)
    if not pages or not any(page.lines for page in pages):
        return Extracted(fields={name: empty(source) for name in FIELDS}, checks=[])
    indexes = [PageIndex(page) for page in pages]
    currency, currency_conf, currency_cand = document_currency(indexes)
    fields: dict[str, FieldResult] = {}

    merchant = organisation_at_top(indexes[0])
    if merchant is not None:
        has_suffix = bool(merchant.raw)
        base = 0.8 if has_suffix else 0.55
        if merchant.where == "unlabelled_pieces":
            base /= 2  # pieces OCR broke apart may have lost or gained a letter between them
        fields["merchant_name"] = field(merchant.value, confidence(base, merchant.score), merchant, source)
    else:
        fields["merchant_name"] = empty(source)

    date_found = document_date(indexes, currency, keys=("invoice_date",))
    fields["date"] = _date_field(date_found, source)
    unsettled = ["date"] if date_found and order_unsettled(date_found[0], indexes, currency) else []
    fields["currency"] = field(currency, currency_conf, currency_cand, source) if currency else empty(source)

    facts = money_facts(indexes)
    total, total_conf, arithmetic = choose_total(facts)
    fields["total_amount"] = (
        field(total.value, confidence(total_conf, total.score), total, source, valid=arithmetic)
        if total is not None
        else empty(source)
    )
    tax, tax_conf = choose_tax(facts, total)
    rate_agrees = tax is not None and total is not None and tax_matches_included_rate(tax, total)
    if tax is not None:
        valid = True if rate_agrees else None
        fields["tax_amount"] = field(tax.value, confidence(tax_conf, tax.score), tax, source, valid=valid)
    elif not has_label(indexes, "tax"):
        fields["tax_amount"] = FieldResult(None, ABSENT_LABEL_CONFIDENCE, 1, None, source)
    else:
        fields["tax_amount"] = empty(source)
    if rate_agrees and fields["total_amount"].valid is None:
        fields["total_amount"] = dataclasses.replace(fields["total_amount"], valid=True)
    checks = _checks(facts, total, arithmetic) + date_order_checks(unsettled)
    return Extracted(fields=respace_fields(fields, indexes), checks=checks)


def _date_field(found: tuple[Candidate, float] | None, source: str) -> FieldResult:
    if found is None:
        return empty(source)
    cand, conf = found
    return field(cand.value, confidence(conf, cand.score), cand, source, valid=True)


def _checks(facts: MoneyFacts, total: Candidate | None, arithmetic: bool | None) -> list[Check]:
    if total is None or arithmetic is None:
        return []
    detail = (
        "the total agrees with payment minus change or subtotal plus tax"
        if arithmetic
        else "neither payment minus change nor subtotal plus tax gives the total"
    )
    return [Check("totals_arithmetic", arithmetic, detail)]
