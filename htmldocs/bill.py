"""Utility bills and council tax notices (proof of address), in four HTML layouts.

Fields: full_name, address_street, address_city, address_region (US states and Italian
provinces, where printed), address_postal_code, document_date (the bill's issue date) and
issuer_name. The holder may be printed with a courtesy title, which is not part of the name.
Bills carry many other dates (billing period, due date, meter reading dates, instalments) and the
issuer's own address, which a reader must not take for the holder's. Sectors: electricity ("Power
& Light"), gas, water, telecom and council tax (or its local equivalent: US property tax, German
Grundbesitzabgaben, French taxe foncière, Spanish IBI, Dutch municipal taxes, Italian TARI).

Layouts: letter (window address, info column, summary box, charges and meter tables), panel
(header band, supply address beside an account panel, usage chart), council (municipal notice
with a crest, property details and an instalment plan) and modern (greeting, big amount,
caption-above-value cards, a tear-off payment slip repeating name and amount).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal

from htmldocs.banking import sample_account
from htmldocs.data import load
from htmldocs.document import Composed, Output, complete_fields, image_output, random_date
from htmldocs.locales import Locale, cents, format_rate, sample_locale
from htmldocs.markup import (
    barcode,
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
    Address,
    Organisation,
    Person,
    canonical,
    sample_address,
    sample_organisation,
    sample_person,
)

SECTORS = (("electricity", 0.3), ("gas", 0.18), ("water", 0.17), ("telecom", 0.2), ("council_tax", 0.15))
UNITS = {"electricity": "kWh", "gas": "m³", "water": "m³"}


@dataclass(frozen=True)
class BillData:
    locale: Locale
    sector: str
    issuer: Organisation
    person: Person
    name_printed: str  # as the address block prints it, without the title
    title: str  # courtesy title printed before the name, or ""
    address: Address
    account: str
    issued: date
    period: tuple[date, date]
    due: date
    charges: tuple[tuple[str, Decimal], ...]
    vat_rate: str  # "" where the bill prints no VAT line
    meter: tuple[str, int, int] | None  # number, previous and current reading

    @property
    def net(self) -> Decimal:
        return sum((amount for _, amount in self.charges), Decimal("0"))

    @property
    def vat(self) -> Decimal:
        return cents(self.net * Decimal(self.vat_rate) / 100) if self.vat_rate else Decimal("0")

    @property
    def total(self) -> Decimal:
        return self.net + self.vat


def _account_number(rng: random.Random) -> str:
    shapes = [
        lambda: f"{rng.randint(100, 999)} {rng.randint(100, 999)} {rng.randint(1000, 9999)}",
        lambda: f"{rng.randint(10**9, 10**10 - 1)}",
        lambda: f"{rng.randint(1000, 9999)}-{rng.randint(100000, 999999)}-{rng.randint(1, 9)}",
        lambda: f"{rng.choice('ABCKLMN')}{rng.randint(10**7, 10**8 - 1)}",
    ]
    return rng.choice(shapes)()


def sample_bill(rng: random.Random) -> BillData:
    locale = sample_locale(rng)
    country = locale.country
    sector = rng.choices([s for s, _ in SECTORS], weights=[w for _, w in SECTORS])[0]
    person = sample_person(rng, country)
    address = sample_address(rng, country)
    issuer_name = rng.choice(load("organisations")[country]["utilities"][sector])
    issuer = sample_organisation(rng, country, issuer_name, place=address.place)
    issued = random_date(rng)
    months = 12 if sector == "council_tax" else rng.choice([1, 1, 2, 3])
    end = issued - timedelta(days=rng.randint(1, 12))
    start = end - timedelta(days=round(30.4 * months) - 1)
    due = issued + timedelta(days=rng.choice([10, 14, 14, 21, 28]))
    names = load("items")["bill_charges"][locale.language][sector]
    count = rng.randint(2, len(names))
    scale = {"electricity": 45, "gas": 38, "water": 22, "telecom": 18, "council_tax": 160}[sector] * months
    charges = []
    for i, name in enumerate(names[:count]):
        share = rng.uniform(0.4, 1.0) if i == 0 else rng.uniform(0.05, 0.5)
        amount = cents(scale * share)
        if sector == "council_tax" and name in ("Single person discount", "Bonificación domiciliación"):
            amount = -cents(amount / 3)
        charges.append((name, amount))
    standard, reduced = locale.tax_rates
    vat_rate = ""
    if country != "US" and sector != "council_tax" and rng.random() < 0.85:
        vat_rate = (
            reduced[0]
            if sector in ("electricity", "gas", "water") and reduced and rng.random() < 0.5
            else standard[0]
        )
    meter = None
    if sector in UNITS:
        previous = rng.randint(1000, 90000)
        usage = {
            "electricity": rng.randint(150, 900),
            "gas": rng.randint(40, 400),
            "water": rng.randint(8, 60),
        }[sector]
        meter = (f"{rng.randint(10**6, 10**9)}", previous, previous + usage * months)
    name = person.name.upper() if rng.random() < 0.2 else person.name
    return BillData(
        locale=locale,
        sector=sector,
        issuer=issuer,
        person=person,
        name_printed=name,
        title=person.title if rng.random() < 0.5 else "",
        address=address,
        account=_account_number(rng),
        issued=issued,
        period=(start, end),
        due=due,
        charges=tuple(charges),
        vat_rate=vat_rate,
        meter=meter,
    )


def _chart(rng: random.Random, loc: Locale, end: date, unit: str) -> str:
    """A usage bar chart of the last months (CSS bars with month captions), as bills show."""
    months = load("locales")["months"][loc.language]["short"]
    bars = []
    for back in range(11, -1, -1):
        month = (end.month - 1 - back) % 12
        height = rng.randint(18, 100)
        current = " now" if back == 0 else ""
        bars.append(
            f'<div class="bar{current}"><i style="height:{height}%"></i><span>{esc(months[month][:3])}</span></div>'
        )
    return f'<div class="chart"><div class="unit">{esc(unit)}</div>{"".join(bars)}</div>'


def fragments(d: BillData, rng: random.Random, layout: str) -> dict[str, str]:
    loc = d.locale
    theme = sample_theme(rng)
    year = d.issued.year if d.issued.month >= 4 or loc.country != "GB" else d.issued.year - 1
    title = loc.caption(f"bill_title_{d.sector}", year=str(year), next=f"{(year + 1) % 100:02d}")
    period = loc.caption("period_range", start=loc.date(d.period[0]), end=loc.date(d.period[1]))
    info = [
        (loc.caption("account_number"), d.account),
        (loc.caption("bill_date"), loc.date(d.issued)),
        (loc.caption("billing_period"), period),
        (loc.caption("pay_by"), loc.date(d.due)),
    ]
    if d.sector == "council_tax":
        info = [info[1], info[0], (loc.caption("property_ref"), f"{rng.randint(10**7, 10**8 - 1)}"), info[3]]
    charge_rows = [(name, loc.money(amount)) for name, amount in d.charges]
    if d.vat_rate:
        charge_rows.append((loc.caption("tax", rate=format_rate(d.vat_rate, loc)), loc.money(d.vat)))
    amount_due = loc.caption("amount_due")
    charges_html = table_rows(charge_rows, numeric=[1]) + (
        f'<tr class="grand"><td>{esc(amount_due)}</td><td class="num">{esc(loc.money(d.total))}</td></tr>'
    )
    name_line = f"{d.title} {d.name_printed}".strip()
    meter_html = ""
    if d.meter is not None:
        number, previous, current = d.meter
        unit = UNITS[d.sector]
        head = head_row(
            [
                loc.caption("meter_number"),
                loc.caption("meter_previous"),
                loc.caption("meter_current"),
                loc.caption("usage"),
            ],
            numeric=[1, 2, 3],
        )
        row = table_rows(
            [
                [
                    number,
                    f"{previous:,}".replace(",", loc.money_style.group or ""),
                    f"{current:,}".replace(",", loc.money_style.group or ""),
                    f"{current - previous} {unit}",
                ]
            ],
            numeric=[1, 2, 3],
        )
        meter_html = f'<table class="meter"><thead>{head}</thead><tbody>{row}</tbody></table>'
    instalments = ""
    if d.sector == "council_tax":
        count = rng.choice([4, 10, 10, 12])
        each = cents(d.total / count)
        rows = []
        for i in range(count):
            when = date(
                d.due.year + (d.due.month - 1 + i) // 12, (d.due.month - 1 + i) % 12 + 1, min(d.due.day, 28)
            )
            amount = each if i < count - 1 else d.total - each * (count - 1)
            rows.append([loc.date(when), loc.money(amount)])
        instalments = (
            f'<table class="inst"><thead>{head_row([loc.caption("instalments"), ""], numeric=[1])}</thead>'
            f"<tbody>{table_rows(rows, numeric=[1])}</tbody></table>"
        )
    greeting = loc.caption(
        "greeting", first=d.person.given.split()[0], last=d.person.surname, title=d.person.title
    )
    bank = sample_account(rng, loc.country)
    contact = [
        f"{loc.caption('phone')} {d.issuer.phone}",
        d.issuer.web,
        f"IBAN {bank.iban_grouped}" if bank.iban else f"ABA {bank.sort_code}",
    ]
    return {
        "theme_css": theme.css(),
        "page_css": page_css(
            page_label=loc.caption("page"),
            first_top_mm=0 if layout in ("panel", "modern") else 12,
            numbered=False,
        ),
        "logo": logo(rng, d.issuer.name),
        "issuer_name": esc(d.issuer.name),
        "issuer_address": lines(d.issuer.address.lines),
        "issuer_oneline": esc(" · ".join([d.issuer.name, *d.issuer.address.lines])),
        "issuer_contact": lines(contact),
        "title": esc(title),
        "holder_block": lines([name_line, *d.address.lines]),
        "holder_name": esc(d.name_printed),
        "customer_caption": esc(loc.caption("customer")),
        "supply_caption": esc(loc.caption("supply_address")),
        "supply_block": lines(d.address.lines),
        "info_table": pairs_table(info, cls="info"),
        "info_cells": cells(info[:3]),
        "charges_caption": esc(loc.caption("charges")),
        "charges_rows": charges_html,
        "meter_table": meter_html,
        "chart": _chart(rng, loc, d.period[1], UNITS.get(d.sector, loc.currency))
        if d.sector != "council_tax"
        else "",
        "instalments": instalments,
        "amount_due_caption": esc(amount_due),
        "amount_due": esc(loc.money(d.total)),
        "pay_by_caption": esc(loc.caption("pay_by")),
        "pay_by": esc(loc.date(d.due)),
        "account_caption": esc(loc.caption("account_number")),
        "account": esc(d.account),
        "greeting": esc(greeting),
        "direct_debit": esc(loc.caption("direct_debit", due=loc.date(d.due))),
        "questions": esc(loc.caption("questions")),
        "barcode": barcode(rng, 48),
        "band_caption": esc(loc.caption("band")),
        "band_value": esc(
            rng.choice("ABCDEFG") if loc.country == "GB" else loc.money(cents(rng.uniform(90000, 450000)))
        ),
    }


def compose(rng: random.Random) -> Composed:
    """A utility bill or council notice addressed to a random person, with its truth."""
    d = sample_bill(rng)
    if d.sector == "council_tax":
        layout = "council" if rng.random() < 0.7 else "letter"
    else:
        layout = rng.choice(["letter", "panel", "modern"])
    html = fill(f"bill_{layout}.html", fragments(d, rng, layout))
    output = Output("pdf") if rng.random() < 0.6 else image_output(rng)
    fields = complete_fields(
        "proof_of_address",
        {
            "full_name": canonical(d.name_printed),
            **d.address.truth(),
            "document_date": d.issued.isoformat(),
            "issuer_name": canonical(d.issuer.name),
        },
    )
    return Composed(
        document_type="proof_of_address",
        layout=layout,
        html=html,
        fields=fields,
        output=output,
        printed_total=d.locale.money(d.total),
        meta={
            "country": d.locale.country,
            "language": d.locale.language,
            "sector": d.sector,
            "date_style": d.locale.date_pattern,
            "title_printed": bool(d.title),
        },
    )
