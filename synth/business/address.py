"""Proofs of address: electricity, gas, water, phone/internet bills and council tax notices.

Fields: full_name, address_street, address_city, address_region (only where the address
prints one), address_postal_code, document_date (the bill's issue date) and issuer_name.
The holder's name is printed with or without a courtesy title ("Mr", "Frau", "Mme"), which is
not part of ``full_name``. Bills are full of other dates (billing period, meter readings, due
date) and of the issuer's own address, which a reader must not take for the holder's.

Layouts: "letter" (window address, info column, summary box, charges table, usage chart),
"panel" (header band, supply address beside an account summary panel), "council" (municipal
notice with a crest, property band and instalment dates), "modern" (greeting, big amount,
caption-above-value cards) and "form" (bordered caption-above-value grid with a tear-off
payment slip that repeats name and amount).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal

import numpy as np

from synth.business import blocks
from synth.business.blocks import Column, Organisation, Writer
from synth.business.common import (
    Address,
    Locale,
    Person,
    canonical_text,
    chance,
    courtesy_title,
    digits,
    document_date,
    format_date,
    format_money,
    format_number,
    letters,
    money,
    pick,
    pick_weighted,
    sample_address,
    sample_locale,
    sample_person,
    sector_name,
    short_date_style,
)
from synth.business.labels import BILL_TITLES, Labeler
from synth.business.layout import Page, Pen, logo, sample_style
from synth.business.output import Composition

LAYOUTS = (("letter", 0.26), ("panel", 0.22), ("council", 0.14), ("modern", 0.2), ("form", 0.18))
UTILITIES = (("electricity", 0.3), ("gas", 0.18), ("water", 0.17), ("telecom", 0.23), ("council_tax", 0.12))


@dataclass(frozen=True)
class BillData:
    locale: Locale
    utility: str
    issuer: Organisation
    person: Person
    title: str  # courtesy title printed before the name, or ""
    address: Address
    account: str
    customer_number: str
    meter: str
    issued: date
    period: tuple[date, date]
    due: date
    previous: int
    current: int
    unit_price: Decimal
    standing: Decimal
    charges: tuple[tuple[str, Decimal], ...]  # (caption, amount) before tax
    tax_rate: Decimal
    tax: Decimal
    total: Decimal


def _unit(utility: str) -> str:
    return {"electricity": "kWh", "gas": "kWh", "water": "m³"}.get(utility, "")


def sample_bill(rng: np.random.Generator, utility: str, locale: Locale) -> BillData:
    code = locale.country.code
    person = sample_person(rng, locale.language)
    address = sample_address(rng, locale)
    issuer = blocks.sample_organisation(rng, locale, sector_name(rng, locale, utility, address.city.title()))
    issued = document_date(rng)
    months = int(pick(rng, (1, 1, 2, 3, 12))) if utility != "council_tax" else 12
    end = issued - timedelta(days=int(rng.integers(2, 15)))
    start = end - timedelta(days=30 * months - 1)
    usage = {"electricity": (150, 900), "gas": (300, 2500), "water": (8, 60)}.get(utility, (0, 0))
    previous = int(rng.integers(1000, 90000))
    consumed = int(rng.integers(*usage)) * months if usage[1] else 0
    unit_price = money(rng.uniform(0.18, 0.42)) if utility != "water" else money(rng.uniform(1.5, 4.5))
    standing = money(rng.uniform(0.2, 0.6) * 30 * months) if utility != "telecom" else money(0)
    lab = Labeler(locale.language, rng)
    charges: list[tuple[str, Decimal]] = []
    if utility in ("electricity", "gas", "water"):
        charges.append((lab.raw("unit_rate"), money(consumed * unit_price)))
        charges.append((lab.raw("standing_charge"), standing))
    elif utility == "telecom":
        charges.append((lab.raw("monthly_plan"), money(rng.uniform(19.99, 69.99))))
        if chance(rng, 0.7):
            charges.append((lab.raw("calls"), money(rng.uniform(0, 25))))
    else:
        band = pick(rng, "ABCDEFGH")
        charges.append((f"Band {band}", money(rng.uniform(900, 3200))))
        if chance(rng, 0.6):
            charges.append(
                (
                    "Adult social care precept" if locale.language == "en" else "Sonstiges",
                    money(rng.uniform(50, 300)),
                )
            )
    net = sum((c[1] for c in charges), Decimal(0))
    tax_rate = (
        Decimal(0)
        if utility == "council_tax" or code in ("US", "CA")
        else (Decimal("5") if code == "GB" and utility != "telecom" else locale.country.tax_rates[0])
    )
    tax = money(net * tax_rate / 100)
    title = courtesy_title(rng, person, locale.language) if chance(rng, 0.55) else ""
    return BillData(
        locale=locale,
        utility=utility,
        issuer=issuer,
        person=person,
        title=title,
        address=address,
        account=pick(
            rng,
            (
                digits(rng, 10),
                f"{digits(rng, 3)} {digits(rng, 3)} {digits(rng, 3)}",
                f"{letters(rng, 2)}{digits(rng, 8)}",
                f"{digits(rng, 4)}-{digits(rng, 6)}",
            ),
        ),
        customer_number=digits(rng, 8),
        meter=f"{letters(rng, 1)}{digits(rng, 2)}{letters(rng, 1)} {digits(rng, 5)}",
        issued=issued,
        period=(start, end),
        due=issued + timedelta(days=int(pick(rng, (10, 14, 14, 21, 28)))),
        previous=previous,
        current=previous + consumed,
        unit_price=unit_price,
        standing=standing,
        charges=tuple(charges),
        tax_rate=tax_rate,
        tax=tax,
        total=net + tax,
    )


class _Print:
    def __init__(self, d: BillData, rng: np.random.Generator, lab: Labeler) -> None:
        self.d = d
        self.lab = lab
        self.printed: dict[str, str] = {}
        self.upper_name = chance(rng, 0.3)
        self.numeric = short_date_style(d.locale.date_style)

    def date(self, value: date, long: bool = True) -> str:
        return format_date(value, self.d.locale.date_style if long else self.numeric, self.d.locale.language)

    def money(self, value: Decimal) -> str:
        return format_money(value, self.d.locale.money_style)

    def num(self, value: Decimal) -> str:
        return format_number(value, self.d.locale.money_style)

    def bill_date(self) -> str:
        text = self.date(self.d.issued)
        self.printed["document_date"] = text
        return text

    def name(self, with_title: bool = True) -> str:
        name = self.d.person.printed
        if self.upper_name:
            name = name.upper()
        self.printed["full_name"] = name
        if with_title and self.d.title:
            title = self.d.title.upper() if self.upper_name else self.d.title
            return f"{title} {name}"
        return name

    def addressee(self, rng: np.random.Generator) -> list[str]:
        """Name (and title) and address lines as printed in the window."""
        if self.d.title and self.d.locale.language == "de" and chance(rng, 0.6):
            title = self.d.title.upper() if self.upper_name else self.d.title
            lines = [title, self.name(with_title=False)]
        else:
            lines = [self.name()]
        self.printed["address_street"] = self.d.address.street
        self.printed["address_city"] = self.d.address.city
        self.printed["address_postal_code"] = self.d.address.postal_code
        if self.d.address.region:
            self.printed["address_region"] = self.d.address.region
        return lines + list(self.d.address.lines)

    def issuer(self, upper: bool = False) -> str:
        name = self.d.issuer.name.upper() if upper else self.d.issuer.name
        self.printed["issuer_name"] = name
        return name

    def title(self) -> str:
        return self.lab.title(self.d.utility, BILL_TITLES)

    def period(self) -> str:
        a, b = self.d.period
        sep = pick_sep(self.d.locale.language)
        return f"{self.date(a, long=False)}{sep}{self.date(b, long=False)}"

    def charge_rows(self) -> list[list[str]]:
        rows = []
        unit = _unit(self.d.utility)
        for caption, amount in self.d.charges:
            detail = ""
            if caption == self.lab.raw("unit_rate") and unit:
                detail = f"{self.d.current - self.d.previous} {unit} x {self.num(self.d.unit_price)}"
            rows.append([caption, detail, self.num(amount)])
        if self.d.tax_rate:
            rows.append(
                [f"{self.lab.raw('tax_name')} {format(self.d.tax_rate, 'g')}%", "", self.num(self.d.tax)]
            )
        return rows

    def amount_due(self) -> str:
        return self.money(self.d.total)


def pick_sep(language: str) -> str:
    return {"en": " - ", "de": " - ", "fr": " au ", "es": " - ", "it": " - ", "nl": " t/m "}.get(
        language, " - "
    )


def _readings_table(writer: Writer, p: _Print, y: float, x0: float, x1: float, variant: str) -> float:
    d = p.d
    unit = _unit(d.utility)
    if not unit:
        return y
    lab = p.lab
    columns = [
        Column(lab("meter_number").rstrip(":"), 0.25),
        Column(lab("previous_reading").rstrip(":"), 0.25, "r"),
        Column(lab("current_reading").rstrip(":"), 0.25, "r"),
        Column(f"{lab('consumption').rstrip(':')} ({unit})", 0.25, "r"),
    ]
    rows = [[d.meter, f"{d.previous}", f"{d.current}", f"{d.current - d.previous}"]]
    return blocks.table(writer, y, x0, x1, columns, rows, variant)


def _charges_table(writer: Writer, p: _Print, y: float, x0: float, x1: float, variant: str) -> float:
    lab = p.lab
    columns = [
        Column(lab("description").rstrip(":"), 0.45),
        Column("", 0.33),
        Column(lab("amount").rstrip(":"), 0.22, "r"),
    ]
    y = blocks.table(writer, y, x0, x1, columns, p.charge_rows(), variant)
    pen = writer.pen
    s = pen.style.size * 1.15
    pen.text(x0 + (x1 - x0) * 0.45, y + 3, lab("amount_due"), s, bold=True)
    pen.text(x1 - 1.5, y + 3, p.amount_due(), s, bold=True, align="r")
    return y + 10


def _usage_chart(
    pen: Pen, rng: np.random.Generator, x: float, y: float, w: float, h: float, language: str
) -> None:
    """Monthly usage bars, with month initials below (bills love them)."""
    bars = 12
    values = rng.uniform(0.3, 1.0, size=bars)
    gap = w / bars
    pen.rule(x, x + w, y + h, pen.style.muted)
    months = {
        "de": "JFMAMJJASOND",
        "fr": "JFMAMJJASOND",
        "es": "EFMAMJJASOND",
        "it": "GFMAMGLASOND",
        "nl": "JFMAMJJASOND",
    }.get(language, "JFMAMJJASOND")
    for i, v in enumerate(values):
        bx = x + i * gap + gap * 0.2
        pen.rect(
            bx,
            y + h * (1 - float(v)),
            bx + gap * 0.6,
            y + h,
            fill=pen.style.accent if i == bars - 1 else pen.style.shade,
        )
        pen.text(bx + gap * 0.3, y + h + 4, months[i], pen.style.size * 0.7, color=pen.style.muted, align="c")


def _letter(d: BillData, rng: np.random.Generator) -> tuple[list[Page], dict[str, str]]:
    style = sample_style(rng)
    lab = Labeler(d.locale.language, rng, upper=style.upper_labels, colon=style.colon)
    p = _Print(d, rng, lab)
    size = blocks.paper_size(d.locale)
    writer = Writer(style, size, lab, bottom_margin=30)
    pen = writer.pen
    m = style.margin
    right = size[0] - m
    on_right = chance(rng, 0.4)
    _, issuer = blocks.letterhead(
        pen, rng, d.issuer, right if on_right else m, m - 4, align="r" if on_right else "l", detail=False
    )
    p.printed["issuer_name"] = issuer
    if chance(rng, 0.6):
        blocks.sender_line(pen, d.issuer, m, 47, 85)
    blocks.address_block(pen, m, 55, p.addressee(rng), bold_name=chance(rng, 0.3))
    rows = [
        (lab("bill_date"), p.bill_date()),
        (lab("account_number"), d.account),
        (lab("customer_number"), d.customer_number),
    ]
    period_in_rows = chance(rng, 0.5)
    if period_in_rows:
        rows.append((lab("billing_period"), p.period()))
    blocks.kv_rows(pen, size[0] * 0.56, 55, rows, 30, size=style.size * 0.92)
    y = 100.0
    pen.text(m, y, p.title(), style.size * 1.7, bold=True, color=style.accent, face=style.heading)
    y += 10
    box_h = 22.0
    pen.rect(m, y, right, y + box_h, fill=style.shade)
    pen.text(m + 4, y + 8, lab("amount_due"), style.size * 1.1)
    pen.text(right - 4, y + 9, p.amount_due(), style.size * 1.8, bold=True, align="r")
    pen.text(
        m + 4, y + 16, lab.text("direct_debit_note", date=p.date(d.due)), style.size * 0.85, color=style.muted
    )
    y += box_h + 10
    if not period_in_rows:
        pen.text(m, y, f"{lab('billing_period')} {p.period()}", style.size)
        y += 8
    y = _readings_table(writer, p, y, m, right, pick(rng, ("shaded", "lines", "grid")))
    y = _charges_table(writer, p, y + 4, m, right, pick(rng, ("lines", "plain", "shaded")))
    if _unit(d.utility) and chance(rng, 0.7) and y < size[1] - 80:
        pen.text(m, y + 6, lab("consumption"), style.size, bold=True)
        _usage_chart(pen, rng, m, y + 10, (right - m) * 0.6, 28, d.locale.language)
    org = d.issuer
    columns = [[org.name, *org.address.lines], [f"{lab.raw('phone')} {org.phone}", org.email, org.web]]
    if org.account.iban:
        columns.append(["IBAN " + org.account.iban_printed, "BIC " + org.account.bic])
    blocks.footer_columns(pen, columns, size[1] - 20, m, right)
    writer.number_pages(rng)
    return writer.pages, p.printed


def _panel(d: BillData, rng: np.random.Generator) -> tuple[list[Page], dict[str, str]]:
    style = sample_style(rng)
    lab = Labeler(d.locale.language, rng, upper=chance(rng, 0.5), colon=chance(rng, 0.3))
    p = _Print(d, rng, lab)
    size = blocks.paper_size(d.locale)
    writer = Writer(style, size, lab)
    pen = writer.pen
    m = style.margin
    right = size[0] - m
    band = float(rng.uniform(22, 32))
    pen.rect(0, 0, size[0], band, fill=style.accent)
    pen.text(
        m,
        band * 0.6,
        p.issuer(chance(rng, 0.4)),
        style.size * 2.0,
        bold=True,
        color=(255, 255, 255),
        face=style.heading,
    )
    pen.text(right, band * 0.6, p.title(), style.size * 1.3, color=(255, 255, 255), align="r")
    y = band + 10
    pen.text(right, y, f"{lab('bill_date')} {p.bill_date()}", style.size, align="r")
    y += 10
    left_bottom = blocks.address_block(
        pen, m, y, p.addressee(rng), caption=lab("supply_address"), bold_name=True
    )
    px = size[0] * 0.52
    pen.rect(px, y - 7, right, y + 45, stroke=style.accent, width=0.4)
    pen.text(px + 4, y, lab.title("summary"), style.size * 1.1, bold=True, color=style.accent)
    rows = [
        (lab("account_number"), d.account),
        (lab("billing_period"), p.period()),
        (lab("due_date"), p.date(d.due)),
    ]
    yy = blocks.kv_rows(pen, px + 4, y + 8, rows, 30, value_align="r", right=right - 4, size=style.size * 0.9)
    pen.rule(px + 4, right - 4, yy - 3, style.muted)
    pen.text(px + 4, yy + 4, lab("amount_due"), style.size * 1.1, bold=True)
    pen.text(right - 4, yy + 4, p.amount_due(), style.size * 1.4, bold=True, align="r")
    y = max(left_bottom, y + 50) + 8
    y = _readings_table(writer, p, y, m, right, "zebra")
    y = _charges_table(writer, p, y + 6, m, right, pick(rng, ("zebra", "lines")))
    pen.wrap(m, y + 6, lab.text("direct_debit_note", date=p.date(d.due)), right - m, color=style.muted)
    org = d.issuer
    pen.text(
        size[0] / 2,
        size[1] - 12,
        f"{org.name} · {' · '.join(org.address.lines)} · {org.web}",
        style.size * 0.75,
        color=style.muted,
        align="c",
        max_width=size[0] - 2 * m,
    )
    writer.number_pages(rng, top=False)
    return writer.pages, p.printed


def _council(d: BillData, rng: np.random.Generator) -> tuple[list[Page], dict[str, str]]:
    style = sample_style(rng)
    lab = Labeler(d.locale.language, rng, upper=style.upper_labels, colon=True)
    p = _Print(d, rng, lab)
    size = blocks.paper_size(d.locale)
    writer = Writer(style, size, lab)
    pen = writer.pen
    m = style.margin
    right = size[0] - m
    crest = 18.0
    logo(pen, rng, size[0] / 2 - crest / 2, m - 6, crest, d.issuer.name, style.accent)
    pen.text(
        size[0] / 2,
        m + crest + 2,
        p.issuer(chance(rng, 0.6)),
        style.size * 1.6,
        bold=True,
        align="c",
        face=style.heading,
    )
    pen.text(
        size[0] / 2,
        m + crest + 8,
        " · ".join(d.issuer.address.lines),
        style.size * 0.8,
        color=style.muted,
        align="c",
    )
    y = m + crest + 22
    blocks.address_block(pen, m, y, p.addressee(rng))
    rows = [(lab("bill_date"), p.bill_date()), (lab("reference"), d.account)]
    blocks.kv_rows(pen, size[0] * 0.55, y, rows, 30)
    y += 36
    pen.rect(m, y - 6, right, y + 4, fill=style.accent)
    pen.text(m + 3, y + 1, p.title().upper(), style.size * 1.2, bold=True, color=(255, 255, 255))
    y += 13
    label = lab("supply_address")
    pen.text(m, y, label, bold=True)
    pen.text(m + pen.measure(label, bold=True) + 4, y, ", ".join(d.address.lines))
    y += 10
    charge_columns = [
        Column(lab("description").rstrip(":"), 0.6),
        Column(lab("amount").rstrip(":"), 0.4, "r"),
    ]
    rows_c = [[c, p.num(a)] for c, a in d.charges]
    y = blocks.table(writer, y, m, right, charge_columns, rows_c, "grid")
    pen.text(m, y + 3, lab("amount_due"), style.size * 1.2, bold=True)
    pen.text(right - 1.5, y + 3, p.amount_due(), style.size * 1.2, bold=True, align="r")
    y += 14
    instalments = int(pick(rng, (10, 10, 12, 2)))
    pen.text(
        m,
        y,
        {
            "en": "Instalments",
            "de": "Fälligkeiten",
            "fr": "Échéancier",
            "es": "Plazos",
            "it": "Rate",
            "nl": "Termijnen",
        }.get(d.locale.language, "Instalments"),
        bold=True,
    )
    y += 6
    each = money(d.total / instalments)
    first = d.issued + timedelta(days=20)
    for i in range(min(instalments, 12)):
        due = date(
            first.year + (first.month - 1 + i) // 12, (first.month - 1 + i) % 12 + 1, min(first.day, 28)
        )
        col, row = divmod(i, 6)
        pen.text(
            m + col * 80,
            y + row * 5.5,
            f"{p.date(due, long=False)}   {p.num(each if i else d.total - each * (instalments - 1))}",
            style.size * 0.9,
        )
    writer.number_pages(rng)
    return writer.pages, p.printed


def _modern(d: BillData, rng: np.random.Generator) -> tuple[list[Page], dict[str, str]]:
    style = sample_style(rng)
    lab = Labeler(d.locale.language, rng, upper=chance(rng, 0.6), colon=False)
    p = _Print(d, rng, lab)
    size = blocks.paper_size(d.locale)
    writer = Writer(style, size, lab)
    pen = writer.pen
    m = style.margin
    right = size[0] - m
    w = logo(pen, rng, m, m - 5, 11, d.issuer.name, style.accent)
    pen.text(
        m + w + 3, m + 3, p.issuer(), style.size * 1.4, bold=True, color=style.accent, face=style.heading
    )
    pen.text(right, m + 3, p.title(), style.size * 1.1, color=style.muted, align="r")
    y = m + 20
    hello = {"en": "Hi", "de": "Hallo", "fr": "Bonjour", "es": "Hola", "it": "Ciao", "nl": "Hallo"}.get(
        d.locale.language, "Hi"
    )
    pen.text(m, y, f"{hello} {d.person.given.split()[0]},", style.size * 1.6, face=style.heading)
    y += 14
    cells = [
        (lab("bill_date"), p.bill_date()),
        (lab("amount_due"), p.amount_due()),
        (lab("due_date"), p.date(d.due)),
        (lab("account_number"), d.account),
    ]
    y = blocks.kv_boxes(pen, m, y, right - m, cells, boxed=False, fill=style.shade) + 10
    pen.text(m, y, lab("supply_address"), style.size * 0.85, color=style.muted)
    y = pen.lines(m, y + 6, p.addressee(rng), bold_first=True)
    pen.text(size[0] * 0.55, y - 20, lab("billing_period"), style.size * 0.85, color=style.muted)
    pen.text(size[0] * 0.55, y - 14, p.period(), style.size)
    y += 6
    y = _readings_table(writer, p, y, m, right, "lines")
    y = _charges_table(writer, p, y + 4, m, right, "lines")
    if _unit(d.utility) and y < size[1] - 70:
        _usage_chart(pen, rng, m, y + 8, right - m, 30, d.locale.language)
    org = d.issuer
    blocks.footer_columns(
        pen,
        [[org.name, *org.address.lines], [org.web, org.email, org.phone]],
        size[1] - 18,
        m,
        right,
        rule=False,
    )
    return writer.pages, p.printed


def _form(d: BillData, rng: np.random.Generator) -> tuple[list[Page], dict[str, str]]:
    style = sample_style(rng)
    lab = Labeler(d.locale.language, rng, upper=True, colon=False)
    p = _Print(d, rng, lab)
    size = blocks.paper_size(d.locale)
    writer = Writer(style, size, lab)
    pen = writer.pen
    m = min(style.margin, 15.0)
    right = size[0] - m
    title = p.title().upper()
    room = right - m - pen.measure(title, style.size * 1.3, bold=True) - 8
    y, issuer = blocks.letterhead(pen, rng, d.issuer, m, m - 3, detail=True, max_width=room)
    p.printed["issuer_name"] = issuer
    pen.text(right, m + 6, title, style.size * 1.3, bold=True, align="r")
    y += 6
    name_lines = p.addressee(rng)
    half = (right - m) / 2
    pen.rect(m, y, m + half - 2, y + 32, stroke=style.muted)
    pen.text(m + 2, y + 4, lab("account_holder"), style.size * 0.75, color=style.muted)
    pen.lines(m + 2, y + 10, name_lines, style.size * 0.95)
    cells = [
        (lab("bill_date"), p.bill_date()),
        (lab("account_number"), d.account),
        (lab("billing_period"), p.period()),
        (lab("amount_due"), p.amount_due()),
    ]
    cy = y
    for i, (caption, value) in enumerate(cells):
        cx = m + half + 2 + (i % 2) * (half / 2 - 1)
        ry = cy + (i // 2) * 16
        pen.rect(cx, ry, cx + half / 2 - 3, ry + 14, stroke=style.muted)
        pen.text(cx + 2, ry + 4, caption, style.size * 0.7, color=style.muted, max_width=half / 2 - 7)
        pen.text(cx + 2, ry + 10.5, value, style.size * 0.95, bold=True, max_width=half / 2 - 7)
    y += 42
    y = _readings_table(writer, p, y, m, right, "grid")
    y = _charges_table(writer, p, y + 4, m, right, "grid")
    # tear-off payment slip
    slip = size[1] - 70
    if y < slip - 5:
        dash_x = m
        while dash_x < right:
            pen.rule(dash_x, min(dash_x + 3, right), slip, style.muted, 0.3)
            dash_x += 5
        pen.text(
            m,
            slip + 8,
            {
                "en": "PAYMENT SLIP",
                "de": "ÜBERWEISUNGSTRÄGER",
                "fr": "TALON DE PAIEMENT",
                "es": "RESGUARDO DE PAGO",
                "it": "BOLLETTINO",
                "nl": "ACCEPTGIRO",
            }.get(d.locale.language, "PAYMENT SLIP"),
            style.size,
            bold=True,
        )
        rows = [
            (lab("account_holder"), p.name(with_title=False)),
            (lab("account_number"), d.account),
            (lab("amount_due"), p.amount_due()),
        ]
        if d.issuer.account.iban:
            rows.append(("IBAN", d.issuer.account.iban_printed))
        blocks.kv_rows(pen, m, slip + 16, rows, 40)
    return writer.pages, p.printed


_LAYOUT_FUNCS = {"letter": _letter, "panel": _panel, "council": _council, "modern": _modern, "form": _form}


def compose(rng: np.random.Generator) -> Composition:
    """A utility bill or council notice addressed to a random person, with its truth."""
    layout = pick_weighted(rng, LAYOUTS)
    utility = "council_tax" if layout == "council" else pick_weighted(rng, UTILITIES)
    locale = sample_locale(rng, "GB" if utility == "council_tax" and chance(rng, 0.6) else None)
    if layout != "council" and utility == "council_tax":
        utility = "water"
    data = sample_bill(rng, utility, locale)
    pages, printed = _LAYOUT_FUNCS[layout](data, rng)
    fields = {
        "full_name": canonical_text(data.person.printed),
        **data.address.truth(),
        "document_date": data.issued.isoformat(),
        "issuer_name": canonical_text(data.issuer.name),
    }
    return Composition(
        document_type="proof_of_address",
        pages=pages,
        fields=fields,
        printed=printed,
        layout=layout,
        meta={
            "country": locale.country.code,
            "language": locale.language,
            "utility": utility,
            "date_style": locale.date_style,
            "title_printed": bool(data.title),
        },
        px_per_mm=(6.8, 8.3),
    )
