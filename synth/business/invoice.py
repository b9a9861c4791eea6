"""Invoices: five layout families, one or two pages, in the vendor's language and habits.

Fields: vendor_name, invoice_number, invoice_date, due_date, customer_name, currency, subtotal,
tax_amount, total_amount, with subtotal + tax_amount = total_amount to the cent. ``due_date``
is left out when the invoice prints none (only "Net 30", or "due on receipt"); ``tax_amount``
when no tax line is printed (untaxed US services), and then subtotal = total. With two VAT
rates the invoice prints a VAT total, which is the truth.

Layouts: "classic" (letterhead left, title and meta right, bill-to, shaded table, totals),
"din5008" (German business letter: return line above the window address, info block, subject
line, greeting, payment terms in a sentence, footer columns), "banner" (colour band, caption-
above-value cells, bill-to and from side by side, zebra table, banded total), "minimal"
(centred or right-aligned header, captions above values, rules only) and "boxed" (bordered
cells and a gridded table, as Italian and French invoices often are).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal

import numpy as np

from engines.spec import FIELDS
from synth.business import blocks, lexicon
from synth.business.blocks import Column, Organisation, Writer
from synth.business.common import (
    Address,
    Locale,
    Person,
    canonical_text,
    chance,
    company_name,
    courtesy_title,
    currency_mark,
    digits,
    document_date,
    format_date,
    format_money,
    format_number,
    letters,
    money,
    number_separators,
    pick,
    pick_weighted,
    sample_address,
    sample_locale,
    sample_person,
    truth_amount,
)
from synth.business.labels import Labeler
from synth.business.layout import Page, Pen, sample_style
from synth.business.output import Composition

LAYOUTS = (("classic", 0.24), ("din5008", 0.2), ("banner", 0.2), ("minimal", 0.18), ("boxed", 0.18))


@dataclass(frozen=True)
class Item:
    description: str
    quantity: Decimal
    unit: str
    unit_price: Decimal
    total: Decimal
    rate: Decimal


@dataclass(frozen=True)
class InvoiceData:
    locale: Locale
    vendor: Organisation
    customer_name: str  # printed, without any courtesy title
    customer_title: str
    customer_company: bool
    customer_address: Address
    attention: str
    number: str
    issued: date
    due: date
    due_mode: str  # "meta", "terms", "both" or "none"
    terms_days: int
    customer_number: str
    order_ref: str
    items: tuple[Item, ...]
    subtotal: Decimal
    taxes: tuple[tuple[Decimal, Decimal, Decimal], ...]  # (rate, base, tax)
    tax_total: Decimal
    total: Decimal
    tax_printed: bool
    reverse_charge: bool


def invoice_number(rng: np.random.Generator, year: int) -> str:
    n = int(rng.integers(1, 99999))
    shapes = (
        f"INV-{year}-{n % 10000:04d}",
        f"{year}-{n % 10000:04d}",
        f"RE{year}{n:05d}",
        f"F{year}/{n % 10000:04d}",
        f"FA-{n:06d}",
        f"{n % 10000:04d}/{year}",
        f"{n}",
        f"{letters(rng, 2)}-{n:05d}",
        f"{year % 100}{n:05d}",
        f"{year}{int(rng.integers(1, 13)):02d}-{n % 1000:03d}",
    )
    return pick(rng, shapes)


def sample_invoice(rng: np.random.Generator, long: bool) -> InvoiceData:
    locale = sample_locale(rng)
    code = locale.country.code
    vendor = blocks.sample_organisation(rng, locale, company_name(rng, locale))
    customer_company = chance(rng, 0.6)
    title, attention = "", ""
    if customer_company:
        customer_name = company_name(rng, locale)
        if chance(rng, 0.35):
            contact = sample_person(rng, locale.language)
            attention = {
                "de": "z. Hd.",
                "fr": "À l'attention de",
                "es": "A/A",
                "it": "c.a.",
                "nl": "T.a.v.",
            }.get(locale.language, "Attn:") + f" {contact.printed}"
    else:
        person: Person = sample_person(rng, locale.language)
        customer_name = person.printed
        if chance(rng, 0.4):
            title = courtesy_title(rng, person, locale.language)
    issued = document_date(rng)
    terms_days = int(pick(rng, (7, 10, 14, 14, 21, 30, 30, 30, 45, 60)))
    due = issued + timedelta(days=terms_days)
    due_mode = pick_weighted(rng, (("meta", 0.5), ("both", 0.15), ("terms", 0.2), ("none", 0.15)))
    pool = lexicon.SERVICES.get(locale.language, lexicon.SERVICES["en"])
    count = (
        int(rng.integers(24, 42))
        if long
        else int(
            pick_weighted(
                rng, ((1, 0.1), (2, 0.2), (3, 0.2), (4, 0.15), (5, 0.12), (6, 0.1), (8, 0.08), (10, 0.05))
            )
        )
    )
    rates = locale.country.tax_rates if code not in ("US", "CA") else (locale.country.tax_rates[0],)
    two_rates = len(rates) > 1 and chance(rng, 0.12)
    units = {
        "de": ("Std.", "Stk.", "pausch."),
        "fr": ("h", "u.", "forfait"),
        "es": ("h", "ud.", ""),
        "it": ("ore", "pz", "n."),
        "nl": ("uur", "st.", ""),
    }.get(locale.language, ("hrs", "pcs", "ea"))
    items = []
    for i in range(count):
        name, low, high = pick(rng, pool)
        hourly = any(w in name.lower() for w in ("hour", "std", "heure", "hora", "ore", "uur", "(h")) or (
            high < 200 and chance(rng, 0.3)
        )
        if hourly:
            quantity = Decimal(str(round(float(rng.uniform(1, 40)) * 2) / 2))
        elif high > 150:
            quantity = Decimal(int(pick(rng, (1, 1, 1, 1, 2, 3))))
        else:
            quantity = Decimal(int(pick(rng, (1, 1, 1, 2, 3, 5, 10, 25))))
        if high < 2:  # per-piece print runs
            quantity = Decimal(int(pick(rng, (250, 500, 1000, 2500))))
        unit_price = money(rng.uniform(low, high))
        if chance(rng, 0.5):
            unit_price = money(round(float(unit_price)))
        rate = rates[-1] if two_rates and i % 3 == 2 else rates[0]
        items.append(
            Item(
                name,
                quantity,
                units[0] if hourly else pick(rng, units[1:]),
                unit_price,
                money(quantity * unit_price),
                rate,
            )
        )
    subtotal = sum((i.total for i in items), Decimal(0))
    reverse_charge = code not in ("US", "CA") and chance(rng, 0.05)
    tax_printed = not (code == "US" and chance(rng, 0.4))
    taxes: list[tuple[Decimal, Decimal, Decimal]] = []
    if tax_printed:
        for rate in sorted({i.rate for i in items}, reverse=True):
            base = sum((i.total for i in items if i.rate == rate), Decimal(0))
            taxes.append(
                (
                    Decimal(0) if reverse_charge else rate,
                    base,
                    Decimal(0) if reverse_charge else money(base * rate / 100),
                )
            )
        if reverse_charge:
            taxes = [(Decimal(0), subtotal, Decimal(0))]
    tax_total = sum((t[2] for t in taxes), Decimal(0))
    return InvoiceData(
        locale=locale,
        vendor=vendor,
        customer_name=customer_name,
        customer_title=title,
        customer_company=customer_company,
        customer_address=sample_address(rng, locale),
        attention=attention,
        number=invoice_number(rng, issued.year),
        issued=issued,
        due=due,
        due_mode=due_mode,
        terms_days=terms_days,
        customer_number=digits(rng, int(rng.integers(4, 9))),
        order_ref=f"{pick(rng, ('PO', 'BE', 'ORD', 'Auftrag', 'Cmd'))}-{digits(rng, 5)}",
        items=tuple(items),
        subtotal=subtotal,
        taxes=tuple(taxes),
        tax_total=tax_total,
        total=subtotal + tax_total,
        tax_printed=tax_printed,
        reverse_charge=reverse_charge,
    )


class _Print:
    """Formatting and the record of what was printed for each field."""

    def __init__(self, data: InvoiceData, rng: np.random.Generator, lab: Labeler) -> None:
        self.d = data
        self.lab = lab
        self.style = data.locale.money_style
        self.mark = currency_mark(self.style)
        self.currency_mode = pick(rng, ("all", "total", "header")) if self.mark else "header"
        self.printed: dict[str, str] = {}

    def date(self, value: date) -> str:
        return format_date(value, self.d.locale.date_style, self.d.locale.language)

    def num(self, value: Decimal) -> str:
        return format_number(value, self.style)

    def qty(self, value: Decimal) -> str:
        """A quantity as printed: "3", "7,5" or "7.5" (the locale's decimal separator)."""
        if value == value.to_integral_value():
            return str(int(value))
        return f"{value.normalize():f}".replace(".", number_separators(self.style)[1])

    def amount_column_title(self, key: str) -> str:
        title = self.lab(key).rstrip(":")
        return f"{title} ({self.d.locale.currency})" if self.currency_mode == "header" else title

    def invoice_number(self) -> str:
        self.printed["invoice_number"] = self.d.number
        return self.d.number

    def invoice_date(self) -> str:
        text = self.date(self.d.issued)
        self.printed["invoice_date"] = text
        return text

    def due_date(self) -> str:
        text = self.date(self.d.due)
        self.printed["due_date"] = text
        return text

    def customer_lines(self, rng: np.random.Generator) -> list[str]:
        d = self.d
        self.printed["customer_name"] = d.customer_name
        lines = []
        if d.customer_title and d.locale.language == "de" and chance(rng, 0.7):
            lines += [d.customer_title, d.customer_name]
        elif d.customer_title:
            lines.append(f"{d.customer_title} {d.customer_name}")
        else:
            lines.append(d.customer_name)
        if d.attention:
            lines.append(d.attention)
        return lines + list(d.customer_address.lines)

    def totals_rows(self, rng: np.random.Generator) -> list[tuple[str, str, bool]]:
        d = self.d
        with_mark = self.currency_mode == "all"
        fmt = (lambda v: format_money(v, self.style)) if with_mark else self.num
        rows = [(self.lab("subtotal"), fmt(d.subtotal), False)]
        self.printed["subtotal"] = self.num(d.subtotal)
        if d.tax_printed:
            name = (
                self.lab.raw("tax_name")
                if d.locale.country.code not in ("US", "CA")
                else pick(rng, ("Sales tax", "Tax"))
                if d.locale.country.code == "US"
                else "GST/HST"
            )
            decimal_sep = "," if ",50" in self.style else "."
            for rate, base, tax in d.taxes:
                caption = f"{name} {format(rate, 'g').replace('.', decimal_sep)}%"
                if d.reverse_charge:
                    caption += {
                        "de": " (Reverse Charge)",
                        "fr": " (autoliquidation)",
                        "es": " (inversión del sujeto pasivo)",
                        "it": " (inversione contabile)",
                        "nl": " (btw verlegd)",
                    }.get(d.locale.language, " (reverse charge)")
                elif len(d.taxes) > 1 or chance(rng, 0.3):
                    caption += f" {pick(rng, ('on', 'of')) if d.locale.language == 'en' else {'de': 'auf', 'fr': 'sur', 'es': 'sobre', 'it': 'su', 'nl': 'over'}[d.locale.language]} {self.num(base)}"
                rows.append((caption, fmt(tax), False))
            if len(d.taxes) > 1:
                rows.append((self.lab("tax_total"), fmt(d.tax_total), False))
            self.printed["tax_amount"] = self.num(d.tax_total)
        total_text = (
            format_money(d.total, self.style) if self.currency_mode in ("all", "total") else self.num(d.total)
        )
        total_label = self.lab("total")
        if self.currency_mode == "header":
            total_label = f"{total_label.rstrip(':')} {d.locale.currency}"
        rows.append((total_label, total_text, True))
        self.printed["total_amount"] = self.num(d.total)
        self.printed["currency"] = self.mark if self.currency_mode != "header" else d.locale.currency
        return rows

    def item_rows(self, columns: str) -> list[list[str]]:
        rows = []
        for n, item in enumerate(self.d.items, start=1):
            cells = {
                "pos": str(n),
                "desc": item.description,
                "qty": self.qty(item.quantity),
                "unit": item.unit,
                "price": self.num(item.unit_price),
                "rate": f"{format(item.rate, 'g')}%",
                "amount": self.num(item.total),
            }
            rows.append([cells[c] for c in columns.split()])
        return rows

    def columns(self, rng: np.random.Generator) -> tuple[str, list[Column]]:
        lab = self.lab
        spec = pick(
            rng,
            (
                "desc qty price amount",
                "pos desc qty unit price amount",
                "desc qty price rate amount",
                "pos desc qty price amount",
            ),
        )
        if self.d.locale.country.code in ("US", "CA") or self.d.reverse_charge:
            spec = spec.replace(" rate", "")
        widths = {
            "pos": 0.07,
            "desc": 0.45,
            "qty": 0.1,
            "unit": 0.08,
            "price": 0.16,
            "rate": 0.08,
            "amount": 0.17,
        }
        titles = {
            "pos": lab.raw("position"),
            "desc": lab("description").rstrip(":"),
            "qty": lab("quantity").rstrip(":"),
            "unit": {"de": "Einh.", "fr": "Unité", "es": "Ud.", "it": "U.M.", "nl": "Eenh."}.get(
                self.d.locale.language, "Unit"
            ),
            "price": self.amount_column_title("unit_price"),
            "rate": f"{lab.raw('tax_name')} %" if self.d.locale.country.code not in ("US", "CA") else "Tax",
            "amount": self.amount_column_title("amount"),
        }
        keys = spec.split()
        total = sum(widths[k] for k in keys)
        cols = [
            Column(
                titles[k], widths[k] / total, "r" if k in ("qty", "price", "amount", "rate", "pos") else "l"
            )
            for k in keys
        ]
        return spec, cols

    def terms(self, rng: np.random.Generator) -> str:
        d = self.d
        if d.due_mode in ("terms", "both"):
            templates = [t for t in self.lab.variants("payment_terms") if "{date}" in t]
            return pick(rng, templates).format(days=str(d.terms_days), date=self.due_date())
        templates = [t for t in self.lab.variants("payment_terms") if "{date}" not in t]
        return pick(rng, templates).format(days=str(d.terms_days))

    def bank_lines(self) -> list[str]:
        account = self.d.vendor.account
        if account.iban:
            return [f"IBAN {account.iban_printed}", f"BIC {account.bic}"]
        return [f"Routing {account.sort_code}", f"Account {account.number}"]


def _meta_rows(p: _Print, rng: np.random.Generator, include_due: bool) -> list[tuple[str, str]]:
    lab = p.lab
    rows = [(lab("invoice_number"), p.invoice_number()), (lab("invoice_date"), p.invoice_date())]
    if include_due:
        rows.append((lab("due_date"), p.due_date()))
    if chance(rng, 0.6):
        rows.append((lab("customer_number"), p.d.customer_number))
    if chance(rng, 0.3):
        rows.insert(int(rng.integers(1, len(rows) + 1)), (lab("reference"), p.d.order_ref))
    return rows


def _continuation(p: _Print, name: str) -> Callable[[Writer], float]:
    """The small header of a continuation page: vendor, invoice number and date."""

    def header(writer: Writer) -> float:
        pen, style = writer.pen, writer.style
        y = style.margin
        pen.text(style.margin, y, name, style.size * 1.1, bold=True, color=style.accent)
        pen.text(
            writer.size[0] - style.margin,
            y,
            f"{p.lab.raw('invoice')} {p.d.number} · {p.date(p.d.issued)}",
            style.size * 0.9,
            color=style.muted,
            align="r",
        )
        pen.rule(style.margin, writer.size[0] - style.margin, y + 3, style.muted)
        return y + 14

    return header


def _footer(writer: Writer, p: _Print, rng: np.random.Generator, x0: float, x1: float) -> None:
    v = p.d.vendor
    columns = [[v.name, *v.address.lines], [f"{p.lab.raw('phone')} {v.phone}", v.email, v.web]]
    columns.append([p.lab.raw("bank_details").split(":")[0], *p.bank_lines()])
    if v.registration or v.vat_id:
        columns.append([x for x in (f"{p.lab.raw('vat_id')} {v.vat_id}", v.registration) if x])
    for page in writer.pages:
        pen = Pen(page, writer.style)
        blocks.footer_columns(pen, columns, page.height - 19, x0, x1, rule=chance(rng, 0.7))


# --------------------------------------------------------------------------------------------
# Layouts


def _items_and_totals(
    writer: Writer,
    p: _Print,
    rng: np.random.Generator,
    y: float,
    x0: float,
    x1: float,
    variant: str,
    totals_variant: str,
) -> float:
    spec, columns = p.columns(rng)
    rows = p.item_rows(spec)
    totals = p.totals_rows(rng)
    reserve = 10 + len(totals) * 7
    y = blocks.table(
        writer, y + 4, x0, x1, columns, rows, variant, reserve=reserve, continued=writer.lab.text("continued")
    )
    pen = writer.pen
    label_x = x0 + (x1 - x0) * float(rng.uniform(0.5, 0.6))
    return blocks.totals_block(pen, label_x, x1, y + 4, totals, totals_variant)


def _classic(d: InvoiceData, rng: np.random.Generator) -> tuple[list[Page], dict[str, str]]:
    style = sample_style(rng)
    lab = Labeler(d.locale.language, rng, upper=style.upper_labels, colon=style.colon)
    p = _Print(d, rng, lab)
    size = blocks.paper_size(d.locale)
    writer = Writer(style, size, lab, bottom_margin=36)
    writer.continuation = _continuation(p, d.vendor.name)
    pen = writer.pen
    m = style.margin
    right = size[0] - m
    title = lab.title("invoice").upper() if chance(rng, 0.7) else lab.title("invoice")
    room = right - m - pen.measure(title, style.size * 2.4, bold=True, face=style.heading) - 8
    y, name = blocks.letterhead(pen, rng, d.vendor, m, m, max_width=room)
    p.printed["vendor_name"] = name
    pen.text(
        right,
        m + 9,
        title,
        style.size * 2.4,
        bold=True,
        color=style.accent,
        align="r",
        face=style.heading,
    )
    rows = _meta_rows(p, rng, d.due_mode in ("meta", "both"))
    meta_x = right - 75
    blocks.kv_rows(pen, meta_x, m + 20, rows, 38, value_align="r" if chance(rng, 0.5) else "l", right=right)
    y = max(y, m + 20 + 7 * len(rows)) + 8
    if chance(rng, 0.3) and d.customer_company:
        blocks.address_block(
            pen, m + 85, y, [d.customer_name, *d.customer_address.lines], caption=lab("ship_to")
        )
    y = blocks.address_block(
        pen, m, y, p.customer_lines(rng), caption=lab("bill_to"), bold_name=chance(rng, 0.5)
    )
    y = _items_and_totals(
        writer,
        p,
        rng,
        y + 6,
        m,
        right,
        pick(rng, ("shaded", "lines", "plain")),
        pick(rng, ("rules", "band", "plain", "box")),
    )
    pen = writer.pen
    y += 4
    y = pen.wrap(m, y, p.terms(rng), right - m)
    if chance(rng, 0.7):
        y += 3
        pen.text(m, y, lab("bank_details"), bold=True)
        pen.lines(m, y + pen.step(), p.bank_lines())
    _footer(writer, p, rng, m, right)
    writer.number_pages(rng)
    return writer.pages, p.printed


def _din5008(d: InvoiceData, rng: np.random.Generator) -> tuple[list[Page], dict[str, str]]:
    style = sample_style(rng)
    lab = Labeler(d.locale.language, rng, upper=False, colon=chance(rng, 0.7))
    p = _Print(d, rng, lab)
    size = blocks.paper_size(d.locale)
    writer = Writer(style, size, lab, bottom_margin=38)
    writer.continuation = _continuation(p, d.vendor.name)
    pen = writer.pen
    left, right = 25.0, size[0] - 20.0
    # letterhead top right (or centred)
    align = pick(rng, ("r", "l"))
    _, name = blocks.letterhead(
        pen, rng, d.vendor, right if align == "r" else left, 12, align=align, detail=False
    )
    p.printed["vendor_name"] = name
    blocks.sender_line(pen, d.vendor, left, 50, 85)
    blocks.address_block(pen, left, 57, p.customer_lines(rng))
    info_x = 125.0
    rows = _meta_rows(p, rng, d.due_mode in ("meta", "both"))
    if chance(rng, 0.5):
        rows += [(f"{lab.raw('phone')}", d.vendor.phone), (lab.raw("email"), d.vendor.email)]
    blocks.kv_rows(pen, info_x, 55, rows, 35, size=style.size * 0.92)
    y = 105.0
    subject = f"{lab.title('invoice').title() if lab.title('invoice').isupper() else lab.title('invoice')} {d.number}"
    if "invoice_number" not in p.printed or chance(rng, 0.3):
        subject = f"{lab.raw('invoice_number').rstrip(':')} {d.number}"
    pen.text(left, y, subject, style.size * 1.25, bold=True)
    p.printed["invoice_number"] = d.number
    y += 10
    greeting = lab.text(
        "greeting", name=d.customer_name.split()[0] if not d.customer_company else d.customer_name
    )
    pen.text(left, y, greeting)
    y = pen.wrap(left, y + pen.step(style.size, 1.6), lab.text("invoice_intro"), right - left)
    y = _items_and_totals(
        writer,
        p,
        rng,
        y + 4,
        left,
        right,
        pick(rng, ("lines", "plain", "shaded")),
        pick(rng, ("rules", "plain")),
    )
    pen = writer.pen
    y = pen.wrap(left, y + 5, p.terms(rng), right - left)
    closing = {
        "de": "Mit freundlichen Grüßen",
        "fr": "Cordialement,",
        "es": "Atentamente,",
        "it": "Cordiali saluti",
        "nl": "Met vriendelijke groet,",
    }.get(d.locale.language, "Kind regards,")
    pen.text(left, y + 5, closing)
    pen.text(
        left,
        y + 11,
        name if chance(rng, 0.5) else sample_person(rng, d.locale.language).printed,
        color=style.muted,
    )
    _footer(writer, p, rng, left, right)
    writer.number_pages(rng, top=False)
    return writer.pages, p.printed


def _banner(d: InvoiceData, rng: np.random.Generator) -> tuple[list[Page], dict[str, str]]:
    style = sample_style(rng)
    lab = Labeler(d.locale.language, rng, upper=chance(rng, 0.6), colon=False)
    p = _Print(d, rng, lab)
    size = blocks.paper_size(d.locale)
    writer = Writer(style, size, lab, bottom_margin=28)
    writer.continuation = _continuation(p, d.vendor.name)
    pen = writer.pen
    m = style.margin
    right = size[0] - m
    band = float(rng.uniform(28, 40))
    pen.rect(0, 0, size[0], band, fill=style.accent)
    upper = chance(rng, 0.4)
    name = d.vendor.name.upper() if upper else d.vendor.name
    title = lab.title("invoice").upper()
    room = right - m - pen.measure(title, style.size * 2.6, bold=True, face=style.heading) - 8
    pen.text(
        m,
        band * 0.45,
        name,
        style.size * 1.9,
        bold=True,
        color=(255, 255, 255),
        face=style.heading,
        max_width=room,
    )
    pen.text(m, band * 0.45 + 7, " · ".join(d.vendor.address.lines), style.size * 0.85, color=(235, 235, 235))
    p.printed["vendor_name"] = name
    pen.text(
        right,
        band * 0.62,
        title,
        style.size * 2.6,
        bold=True,
        color=(255, 255, 255),
        align="r",
        face=style.heading,
    )
    y = band + 8
    cells = [(lab("invoice_number"), p.invoice_number()), (lab("invoice_date"), p.invoice_date())]
    if d.due_mode in ("meta", "both"):
        cells.append((lab("due_date"), p.due_date()))
    if chance(rng, 0.6):
        cells.append((lab("amount_due"), format_money(d.total, d.locale.money_style)))
    y = (
        blocks.kv_boxes(
            pen,
            m,
            y,
            right - m,
            cells,
            boxed=chance(rng, 0.5),
            fill=style.shade if chance(rng, 0.5) else None,
        )
        + 9
    )
    left_block = blocks.address_block(
        pen, m, y, p.customer_lines(rng), caption=lab("bill_to"), bold_name=True
    )
    vendor_lines = [name, *d.vendor.address.lines, d.vendor.email]
    right_block = blocks.address_block(pen, m + (right - m) * 0.55, y, vendor_lines, caption=lab("from"))
    y = max(left_block, right_block) + 2
    y = _items_and_totals(writer, p, rng, y + 4, m, right, "zebra", pick(rng, ("band", "box")))
    pen = writer.pen
    y = pen.wrap(m, y + 5, p.terms(rng), right - m, color=style.muted)
    if chance(rng, 0.8):
        pen.lines(m, y + 3, [lab("bank_details"), *p.bank_lines()], bold_first=True)
    pen.text(size[0] / 2, size[1] - 12, lab.text("thank_you"), style.size, color=style.accent, align="c")
    writer.number_pages(rng, top=True)
    return writer.pages, p.printed


def _minimal(d: InvoiceData, rng: np.random.Generator) -> tuple[list[Page], dict[str, str]]:
    style = sample_style(rng)
    lab = Labeler(d.locale.language, rng, upper=chance(rng, 0.5), colon=False)
    p = _Print(d, rng, lab)
    size = blocks.paper_size(d.locale)
    writer = Writer(style, size, lab, bottom_margin=26)
    writer.continuation = _continuation(p, d.vendor.name)
    pen = writer.pen
    m = style.margin
    right = size[0] - m
    centred = chance(rng, 0.5)
    x, align = (size[0] / 2, "c") if centred else (right, "r")
    upper = chance(rng, 0.5)
    name = d.vendor.name.upper() if upper else d.vendor.name
    pen.text(x, m + 6, name, style.size * 1.8, bold=True, align=align, face=style.heading)
    p.printed["vendor_name"] = name
    pen.lines(
        x,
        m + 13,
        [" · ".join(d.vendor.address.lines), f"{d.vendor.email} · {d.vendor.phone}"],
        style.size * 0.85,
        color=style.muted,
        align=align,
    )
    y = m + 32
    pen.text(m, y, lab.title("invoice"), style.size * 2.0, face=style.heading)
    y += 10
    # captions above values, in two columns
    fields = [(lab("invoice_number"), p.invoice_number()), (lab("invoice_date"), p.invoice_date())]
    if d.due_mode in ("meta", "both"):
        fields.append((lab("due_date"), p.due_date()))
    col_w = (right - m) * 0.56 / 3
    for i, (caption, value) in enumerate(fields):
        cx = m + (right - m) * 0.44 + i * col_w
        pen.text(cx, y, caption, style.size * 0.8, color=style.muted)
        pen.text(cx, y + 5.5, value, style.size, bold=True)
    pen.text(m, y, lab("bill_to"), style.size * 0.8, color=style.muted)
    lines = p.customer_lines(rng)
    pen.lines(m, y + 5.5, lines, bold_first=True)
    y += 8 + pen.step() * len(lines)
    y = _items_and_totals(
        writer, p, rng, y + 4, m, right, pick(rng, ("lines", "plain")), pick(rng, ("plain", "rules"))
    )
    pen = writer.pen
    y = pen.wrap(m, y + 6, p.terms(rng), right - m, color=style.muted)
    pen.lines(m, y + 2, p.bank_lines(), color=style.muted)
    writer.number_pages(rng)
    return writer.pages, p.printed


def _boxed(d: InvoiceData, rng: np.random.Generator) -> tuple[list[Page], dict[str, str]]:
    style = sample_style(rng)
    lab = Labeler(d.locale.language, rng, upper=chance(rng, 0.7), colon=False)
    p = _Print(d, rng, lab)
    size = blocks.paper_size(d.locale)
    writer = Writer(style, size, lab, bottom_margin=36)
    writer.continuation = _continuation(p, d.vendor.name)
    pen = writer.pen
    m = min(style.margin, 16.0)
    right = size[0] - m
    mid = size[0] / 2
    # vendor box and customer box
    top = m
    y, name = blocks.letterhead(pen, rng, d.vendor, m + 2, top + 2)
    lines = [f"{lab.raw('vat_id')} {d.vendor.vat_id}"]
    y = pen.lines(m + 2, y + 3, lines, style.size * 0.85, color=style.muted)
    p.printed["vendor_name"] = name
    box_top = top + 45
    pen.rect(mid + 2, box_top - 5, right, box_top + 30, stroke=style.ink, width=0.3)
    pen.text(mid + 5, box_top, lab("bill_to"), style.size * 0.8, bold=True, color=style.muted)
    pen.lines(mid + 5, box_top + 6, p.customer_lines(rng), bold_first=True)
    y = box_top + 38
    cells = [(lab("invoice_number"), p.invoice_number()), (lab("invoice_date"), p.invoice_date())]
    if d.locale.language == "it":
        cells.insert(0, ("TIPO DOCUMENTO" if lab.upper else "Tipo documento", "TD01 Fattura"))
    if d.due_mode in ("meta", "both"):
        cells.append((lab("due_date"), p.due_date()))
    cells.append((lab("customer_number"), d.customer_number))
    y = blocks.kv_boxes(pen, m, y, right - m, cells, boxed=True) + 8
    y = _items_and_totals(writer, p, rng, y, m, right, "grid", "box")
    pen = writer.pen
    y = pen.wrap(m, y + 5, p.terms(rng), right - m)
    if chance(rng, 0.9):
        pen.rect(m, y, right, y + 16, stroke=style.muted, width=0.2)
        pen.text(m + 2, y + 5, lab("bank_details"), style.size * 0.85, bold=True)
        pen.text(m + 2, y + 11, "   ".join(p.bank_lines()), style.size * 0.9)
    _footer(writer, p, rng, m, right)
    writer.number_pages(rng)
    return writer.pages, p.printed


_LAYOUT_FUNCS = {
    "classic": _classic,
    "din5008": _din5008,
    "banner": _banner,
    "minimal": _minimal,
    "boxed": _boxed,
}


def compose(rng: np.random.Generator) -> Composition:
    """An invoice of a random vendor, customer, locale and layout, with its truth."""
    layout = pick_weighted(rng, LAYOUTS)
    data = sample_invoice(rng, long=chance(rng, 0.15))
    pages, printed = _LAYOUT_FUNCS[layout](data, rng)
    fields = {
        "vendor_name": canonical_text(data.vendor.name),
        "invoice_number": data.number,
        "invoice_date": data.issued.isoformat(),
        "customer_name": canonical_text(data.customer_name),
        "currency": data.locale.currency,
        "subtotal": truth_amount(data.subtotal),
        "total_amount": truth_amount(data.total),
    }
    if "due_date" in printed:
        fields["due_date"] = data.due.isoformat()
    if data.tax_printed:
        fields["tax_amount"] = truth_amount(data.tax_total)
    return Composition(
        document_type="invoice",
        pages=pages,
        fields=dict(sorted(fields.items(), key=lambda kv: FIELDS["invoice"].index(kv[0]))),
        printed=printed,
        layout=layout,
        meta={
            "country": data.locale.country.code,
            "language": data.locale.language,
            "money_style": data.locale.money_style,
            "date_style": data.locale.date_style,
            "items": len(data.items),
            "tax_rates": [str(t[0]) for t in data.taxes],
        },
        px_per_mm=(6.8, 8.3),
    )
