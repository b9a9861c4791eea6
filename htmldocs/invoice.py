"""Invoices between businesses (or to private customers), in five HTML layouts.

Fields: vendor_name, invoice_number, invoice_date, due_date, customer_name, currency, subtotal,
tax_amount, total_amount. Prices are net and tax is added (US sales tax, European VAT); with two
VAT rates both lines are printed and a tax total under them, which is the ``tax_amount``. A due
date is the truth only where one is printed: terms given as "net 30 days" or "payable on
receipt" leave ``due_date`` null; an untaxed US invoice prints only its total, leaving subtotal
and tax null. Layouts: classic (letterhead left, title and meta right), sidebar (coloured column
with the vendor), letter (business letter with window address and subject line), banner (colour
band, caption-above-value cells, total box) and boxed (bordered grid with a VAT summary).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal

from htmldocs.banking import Account, sample_account
from htmldocs.data import load
from htmldocs.document import Composed, Output, complete_fields, image_output, random_date
from htmldocs.locales import Locale, cents, format_rate, sample_locale, truth_amount
from htmldocs.markup import (
    cells,
    esc,
    fill,
    head_row,
    lines,
    logo,
    page_css,
    pairs_table,
    sample_theme,
    table_rows,
)
from htmldocs.parties import (
    Organisation,
    Person,
    canonical,
    sample_address,
    sample_organisation,
    sample_person,
)

LAYOUTS = ("classic", "sidebar", "letter", "banner", "boxed")
_LAYOUT_WEIGHTS = {
    "US": (3, 3, 1, 3, 1),
    "GB": (3, 2, 2, 3, 1),
    "DE": (2, 1, 4, 2, 1),
    "FR": (2, 2, 1, 2, 3),
    "ES": (2, 2, 1, 2, 3),
    "NL": (3, 2, 2, 3, 1),
    "IT": (2, 1, 1, 2, 4),
}


@dataclass(frozen=True)
class Line:
    description: str
    quantity: int
    unit_price: Decimal
    rate: str  # the tax rate as printed ("19", "5.5"), "" without tax

    @property
    def net(self) -> Decimal:
        return cents(self.unit_price * self.quantity)


@dataclass(frozen=True)
class InvoiceData:
    locale: Locale
    vendor: Organisation
    vendor_account: Account
    customer_name: str  # printed, without a courtesy title
    customer_title: str  # printed before a person's name, "" for none or a company
    customer_lines: tuple[str, ...]  # the address (and an attention line) below the name
    number: str
    issued: date
    due: date | None  # printed due date
    terms_days: int | None  # "net N days" printed instead of a date
    lines: tuple[Line, ...]
    taxed: bool
    customer_ref: str
    order_ref: str

    @property
    def subtotal(self) -> Decimal:
        return sum((line.net for line in self.lines), Decimal("0"))

    def taxes(self) -> list[tuple[str, Decimal, Decimal]]:
        """(rate, base, tax) per rate, tax computed on each rate's base."""
        if not self.taxed:
            return []
        rates = sorted({line.rate for line in self.lines}, key=lambda r: -Decimal(r))
        out = []
        for rate in rates:
            base = sum((line.net for line in self.lines if line.rate == rate), Decimal("0"))
            out.append((rate, base, cents(base * Decimal(rate) / 100)))
        return out

    @property
    def tax_total(self) -> Decimal:
        return sum((tax for _, _, tax in self.taxes()), Decimal("0"))

    @property
    def total(self) -> Decimal:
        return self.subtotal + self.tax_total


def _invoice_number(rng: random.Random, issued: date) -> str:
    year = issued.year
    shapes = [
        f"INV-{year}-{rng.randint(1, 9999):04d}",
        f"{year}/{rng.randint(1, 9999):04d}",
        f"RE-{rng.randint(100000, 999999)}",
        f"F{year}-{rng.randint(1, 999):04d}",
        f"FA-{rng.randint(1, 999999):06d}",
        f"{rng.randint(10000, 99999)}",
        f"{year}-{rng.randint(1, 99999):05d}",
        f"FT {year}/{rng.randint(1, 999)}",
        f"{year % 100:02d}{issued.month:02d}-{rng.randint(100, 999)}",
    ]
    return rng.choice(shapes)


def _price(rng: random.Random, low: float, high: float) -> Decimal:
    """A unit price as price lists have them: round figures more often than odd cents."""
    value = rng.uniform(low, high)
    style = rng.random()
    if style < 0.4:
        return cents(round(value))
    if style < 0.7:
        return cents(round(value * 2) / 2)
    return cents(value)


def sample_invoice(rng: random.Random) -> InvoiceData:
    locale = sample_locale(rng)
    country = locale.country
    orgs = load("organisations")[country]
    vendor_name = rng.choice(orgs["vendors"])
    vendor = sample_organisation(rng, country, vendor_name)
    if rng.random() < 0.6:
        customer_name = rng.choice([v for v in orgs["vendors"] if v != vendor_name])
        customer_title = ""
        address = sample_address(rng, country)
        extra: tuple[str, ...] = ()
        if rng.random() < 0.35:
            contact: Person = sample_person(rng, country)
            attention = {
                "en": "Attn:",
                "de": "z. Hd.",
                "fr": "À l'attention de",
                "es": "A/A",
                "nl": "T.a.v.",
                "it": "Alla c.a.",
            }
            extra = (f"{attention[locale.language]} {contact.name}",)
        customer_lines = (*extra, *address.lines)
    else:
        person = sample_person(rng, country)
        customer_name = person.name.upper() if rng.random() < 0.15 else person.name
        customer_title = person.title if rng.random() < 0.4 else ""
        customer_lines = sample_address(rng, country).lines
    issued = random_date(rng)
    terms = rng.random()
    due: date | None = None
    terms_days: int | None = None
    days = rng.choice([7, 10, 14, 15, 30, 30, 45, 60])
    if terms < 0.72:
        due = issued + timedelta(days=days)
    elif terms < 0.9:
        terms_days = days
    standard, reduced = locale.tax_rates
    taxed = not (country == "US" and rng.random() < 0.3)
    rate = rng.choice(standard)
    items = load("items")["invoice"][locale.language]
    count = rng.choice([1, 2, 2, 3, 3, 4, 5, 6])
    chosen = rng.sample(items, count)
    second_rate = reduced and count > 1 and rng.random() < 0.2
    invoice_lines = []
    for i, (name, low, high, most) in enumerate(chosen):
        quantity = 1 if most == 1 else rng.randint(1, most)
        line_rate = rate if taxed else ""
        if second_rate and i == count - 1:
            line_rate = rng.choice(reduced)
        invoice_lines.append(Line(name, quantity, _price(rng, low, high), line_rate))
    return InvoiceData(
        locale=locale,
        vendor=vendor,
        vendor_account=sample_account(rng, country),
        customer_name=customer_name,
        customer_title=customer_title,
        customer_lines=customer_lines,
        number=_invoice_number(rng, issued),
        issued=issued,
        due=due,
        terms_days=terms_days,
        lines=tuple(invoice_lines),
        taxed=taxed,
        customer_ref=f"{rng.choice(['C', 'K', 'CL', ''])}{rng.randint(1000, 99999)}",
        order_ref=f"{rng.choice(['PO-', 'B', 'ORD', ''])}{rng.randint(10000, 999999)}",
    )


def _totals(d: InvoiceData) -> list[tuple[str, str]]:
    """The totals block as printed: subtotal, one line per tax rate, a tax total with two rates, total."""
    loc = d.locale
    if not d.taxed:
        return [(loc.caption("total"), loc.money(d.total))]
    rows = [(loc.caption("subtotal"), loc.money(d.subtotal))]
    taxes = d.taxes()
    for rate, _, tax in taxes:
        rows.append((loc.caption("tax", rate=format_rate(rate, loc)), loc.money(tax)))
    if len(taxes) > 1:
        rows.append((loc.caption("tax_total"), loc.money(d.tax_total)))
    rows.append((loc.caption("total"), loc.money(d.total)))
    return rows


def _totals_html(rows: list[tuple[str, str]]) -> str:
    body = "".join(
        f'<tr class="{"grand" if i == len(rows) - 1 else ""}"><th>{esc(k)}</th><td class="num">{esc(v)}</td></tr>'
        for i, (k, v) in enumerate(rows)
    )
    return f'<table class="totals">{body}</table>'


def _terms(d: InvoiceData) -> str:
    loc = d.locale
    if d.due is not None:
        return loc.caption("terms_due", due=loc.date(d.due))
    if d.terms_days is not None:
        return loc.caption("terms_days", days=str(d.terms_days))
    return loc.caption("terms_now")


def _bank(d: InvoiceData) -> list[str]:
    loc, acc = d.locale, d.vendor_account
    if acc.iban:
        return [f"IBAN {acc.iban_grouped}", f"BIC {acc.bic}"]
    return [f"{loc.caption('st_account_number')} {acc.number}", f"ABA {acc.sort_code}"]


def fragments(d: InvoiceData, rng: random.Random, layout: str) -> dict[str, str]:
    """Every fragment the invoice templates use; each template takes the ones its layout needs."""
    loc = d.locale
    theme = sample_theme(rng, families=("sans", "serif") if layout != "boxed" else ("sans",))
    meta = [(loc.caption("invoice_number"), d.number), (loc.caption("invoice_date"), loc.date(d.issued))]
    if d.due is not None:
        meta.append((loc.caption("due_date"), loc.date(d.due)))
    if rng.random() < 0.6:
        meta.append((loc.caption("customer_no"), d.customer_ref))
    if rng.random() < 0.3:
        meta.append((loc.caption("reference"), d.order_ref))
    with_symbol = rng.random() < 0.4
    money = loc.money if with_symbol else loc.number
    show_rate = d.taxed and len({line.rate for line in d.lines}) > 1
    head = [loc.caption("description"), loc.caption("qty"), loc.caption("unit_price")]
    if show_rate:
        head.append("%")
    head.append(loc.caption("line_total"))
    numbered = layout in ("letter", "boxed") and rng.random() < 0.7
    if numbered:
        head.insert(0, "#" if loc.language == "en" else "Pos.")
    rows = []
    for i, line in enumerate(d.lines, start=1):
        row = [line.description, str(line.quantity), money(line.unit_price)]
        if show_rate:
            row.append(format_rate(line.rate, loc))
        row.append(money(line.net))
        if numbered:
            row.insert(0, str(i))
        rows.append(row)
    offset = 1 if numbered else 0
    numeric = [offset + 1, offset + 2, offset + 3] + ([offset + 4] if show_rate else [])
    totals = _totals(d)
    customer_caption = loc.caption("bill_to")
    name_line = f"{d.customer_title} {d.customer_name}".strip()
    vendor_contact = [
        f"{loc.caption('phone')} {d.vendor.phone}",
        d.vendor.web,
        f"{loc.caption('vat_id')} {d.vendor.tax_id}",
    ]
    tax_rows = "".join(
        f"<tr><td>{esc(format_rate(rate, loc))} %</td><td class='num'>{esc(loc.number(base))}</td>"
        f"<td class='num'>{esc(loc.number(tax))}</td></tr>"
        for rate, base, tax in d.taxes()
    )
    title = loc.caption("invoice_title")
    return {
        "theme_css": theme.css(),
        "page_css": page_css(
            page_label=loc.caption("page"),
            first_top_mm=0 if layout in ("sidebar", "banner") else 14,
            numbered=rng.random() < 0.6,
        ),
        "logo": logo(rng, d.vendor.name),
        "vendor_name": esc(d.vendor.name),
        "vendor_address": lines(d.vendor.address.lines),
        "vendor_oneline": esc(" · ".join([d.vendor.name, *d.vendor.address.lines])),
        "vendor_contact": lines(vendor_contact),
        "title": esc(title),
        "subject": esc(f"{title} {d.number}"),
        "customer_caption": esc(customer_caption),
        "customer_block": lines([name_line, *d.customer_lines]),
        "meta_table": pairs_table(meta, cls="meta"),
        "meta_cells": cells(meta),
        "items_head": head_row(head, numeric=numeric),
        "items_rows": table_rows(rows, numeric=numeric),
        "totals_table": _totals_html(totals),
        "tax_rows": tax_rows,
        "tax_head": head_row(
            [loc.caption("vat_rate"), loc.caption("vat_net"), loc.caption("vat_tax")], numeric=[1, 2]
        ),
        "has_tax_summary": "" if d.taxed else "hidden",
        "total_caption": esc(totals[-1][0]),
        "total_value": esc(totals[-1][1]),
        "terms": esc(_terms(d)),
        "thanks": esc(loc.caption("thanks")),
        "bank_caption": esc(loc.caption("bank_details")),
        "bank_block": lines(_bank(d)),
        "currency_note": esc(f"{d.locale.currency}" if not with_symbol else ""),
    }


def compose(rng: random.Random) -> Composed:
    """An invoice of a random vendor, customer, locale and layout, with its truth."""
    d = sample_invoice(rng)
    layout = rng.choices(LAYOUTS, weights=_LAYOUT_WEIGHTS[d.locale.country])[0]
    html = fill(f"invoice_{layout}.html", fragments(d, rng, layout))
    form = rng.random()
    output = Output("pdf") if form < 0.75 else image_output(rng)
    fields = complete_fields(
        "invoice",
        {
            "vendor_name": canonical(d.vendor.name),
            "invoice_number": d.number,
            "invoice_date": d.issued.isoformat(),
            "due_date": d.due.isoformat() if d.due else None,
            "customer_name": canonical(d.customer_name),
            "currency": d.locale.currency,
            "subtotal": truth_amount(d.subtotal) if d.taxed else None,
            "tax_amount": truth_amount(d.tax_total) if d.taxed else None,
            "total_amount": truth_amount(d.total),
        },
    )
    return Composed(
        document_type="invoice",
        layout=layout,
        html=html,
        fields=fields,
        output=output,
        printed_total=d.locale.money(d.total),
        meta={
            "country": d.locale.country,
            "language": d.locale.language,
            "money_style": d.locale.money_style.pattern,
            "date_style": d.locale.date_pattern,
            "lines": len(d.lines),
            "tax_rates": [rate for rate, _, _ in d.taxes()],
        },
    )
