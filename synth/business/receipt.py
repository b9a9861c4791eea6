"""Receipts: thermal till slips (monospaced or proportional), restaurant bills, A5 and e-receipts.

Fields: merchant_name, date, currency, total_amount, tax_amount. ``tax_amount`` is left out of
the truth when the receipt prints no tax (some tills do not). Where prices include VAT (Europe,
the UK, Switzerland) the tax is the VAT contained in the total, per rate, summed and printed as
a total line whenever there is more than one rate; where tax is added (US, Canada) the receipt
prints subtotal + tax = total. Cash tenders, change, card slips and suggested tips are printed
as the distractors they are on real receipts.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date
from decimal import Decimal

import numpy as np

from synth.business import lexicon
from synth.business.common import (
    Address,
    Locale,
    canonical_text,
    chance,
    currency_mark,
    digits,
    format_date,
    format_money,
    format_number,
    money,
    number_separators,
    phone_number,
    pick,
    pick_weighted,
    random_date,
    sample_address,
    sample_locale,
    truth_amount,
    vat_id,
    web_domain,
)
from synth.business.labels import Labeler
from synth.business.layout import PT_TO_MM, Page, Pen, barcode, logo, mono_faces, sample_style, text_width
from synth.business.output import Composition

LAYOUTS = (
    ("thermal-mono", 0.34),
    ("thermal-sans", 0.2),
    ("restaurant", 0.16),
    ("wide-a5", 0.14),
    ("e-receipt", 0.16),
)


@dataclass(frozen=True)
class LineItem:
    name: str
    quantity: Decimal
    unit_price: Decimal
    total: Decimal
    rate: Decimal  # tax rate in percent
    code: str  # tax class letter printed beside the amount ("A", "B")
    by_weight: bool


@dataclass(frozen=True)
class TaxLine:
    rate: Decimal
    code: str
    net: Decimal
    tax: Decimal
    gross: Decimal


@dataclass(frozen=True)
class ReceiptData:
    locale: Locale
    merchant: str
    address: Address
    phone: str
    vat_id: str
    category: str
    day: date
    time: str
    number: str
    cashier: str
    items: tuple[LineItem, ...]
    inclusive: bool  # prices include tax (Europe) or tax is added (North America)
    subtotal: Decimal
    taxes: tuple[TaxLine, ...]
    tax_total: Decimal
    total: Decimal
    print_tax: bool
    payment: str  # "card" or "cash"
    tendered: Decimal
    card_digits: str
    table: str


def _merchant(rng: np.random.Generator, locale: Locale, category: str, city: str) -> str:
    lang = locale.language
    brand = pick(rng, lexicon.BRANDS)
    surname = pick(rng, lexicon.SURNAMES.get(lang, lexicon.SURNAMES["en"]))
    names: dict[str, dict[str, tuple[str, ...]]] = {
        "grocery": {
            "en": (f"{brand} Market", f"{brand} Foods", f"{surname}'s Grocery", f"{brand} Supermarket"),
            "de": (
                f"{brand} Markt",
                f"Supermarkt {surname}",
                f"{brand} Frischemarkt",
                f"Frischkauf {surname}",
            ),
            "fr": (f"Supermarché {brand}", f"{brand} Marché", f"Épicerie {surname}", f"Carré {brand}"),
            "es": (f"Supermercado {brand}", f"{brand} Alimentación", f"Mercado {surname}"),
            "it": (f"Supermercato {brand}", f"{brand} Alimentari", f"Market {surname}"),
            "nl": (f"{brand} Supermarkt", f"{surname} Versmarkt", f"{brand} Buurtwinkel"),
        },
        "bakery": {
            "en": (f"{surname}'s Bakery", f"{brand} Bakehouse", f"The {brand} Bakery"),
            "de": (f"Bäckerei {surname}", f"Backhaus {brand}", f"Bäckerei & Konditorei {surname}"),
            "fr": (f"Boulangerie {surname}", f"Boulangerie-Pâtisserie {brand}", f"Au Pain {brand}"),
            "es": (f"Panadería {surname}", f"Horno {brand}", f"Pastelería {brand}"),
            "it": (f"Panificio {surname}", f"Forno {brand}", f"Pasticceria {brand}"),
            "nl": (f"Bakkerij {surname}", f"Warme Bakker {brand}"),
        },
        "cafe": {
            "en": (f"Café {brand}", f"The {brand} Arms", f"{brand} Kitchen & Bar", f"{surname}'s Diner"),
            "de": (f"Café {brand}", f"Gasthaus {surname}", f"Restaurant {brand}", f"Brauhaus {brand}"),
            "fr": (f"Café {brand}", f"Brasserie {brand}", f"Chez {surname}", f"Le Bistrot {brand}"),
            "es": (f"Bar {brand}", f"Restaurante {brand}", f"Cafetería {surname}", f"Taberna {brand}"),
            "it": (
                f"Bar {brand}",
                f"Trattoria da {pick(rng, lexicon.GIVEN_NAMES['it'])}",
                f"Ristorante {brand}",
                f"Caffè {brand}",
            ),
            "nl": (f"Café {brand}", f"Eetcafé {brand}", f"Brasserie {surname}"),
        },
        "hardware": {
            "en": (f"{brand} Hardware", f"{brand} Electronics", f"{brand} DIY Store"),
            "de": (f"{brand} Baumarkt", f"Elektro {surname}", f"{brand} Technik"),
            "fr": (f"Bricolage {brand}", f"{brand} Électronique", f"Quincaillerie {surname}"),
            "es": (f"Ferretería {surname}", f"{brand} Electrónica", f"Bricolaje {brand}"),
            "it": (f"Ferramenta {surname}", f"{brand} Elettronica", f"Brico {brand}"),
            "nl": (f"{brand} Bouwmarkt", f"IJzerhandel {surname}", f"{brand} Elektronica"),
        },
        "fuel": {
            "en": (f"{brand} Fuel", f"{brand} Service Station", f"{brand} Gas & Go"),
            "de": (f"{brand} Tankstelle", f"Autohof {brand}"),
            "fr": (f"Station {brand}", f"Relais {brand}"),
            "es": (f"Estación de Servicio {brand}", f"Gasolinera {brand}"),
            "it": (f"Stazione di servizio {brand}", f"Distributore {brand}"),
            "nl": (f"Tankstation {brand}", f"{brand} Tanken"),
        },
    }
    table = names[category]
    return pick(rng, table.get(lang, table["en"]))


# Words of grocery lines that pay the standard rate (drinks with alcohol, household goods, deposits).
_STANDARD_RATED = ("soap", "tissue", "pfand", "statiegeld", "vin ", "wine", "beer", "bier", "vino")


def _price(rng: np.random.Generator, low: float, high: float, currency: str) -> Decimal:
    """A shelf price with a retail ending (.99, .49, .95, round) in the currency's scale."""
    scale = 1.5 if currency == "CHF" else (1.15 if currency in ("USD", "CAD") else 1.0)
    value = rng.uniform(low, high) * scale
    ending = pick_weighted(rng, ((0.99, 0.35), (0.49, 0.15), (0.95, 0.1), (0.0, 0.1), (0.5, 0.1), (-1, 0.2)))
    whole = int(value)
    price = money(value) if ending < 0 else money(whole + ending)
    if currency == "CHF":  # Swiss prices are in 5-centime steps
        price = money(round(float(price) * 20) / 20)
    return max(price, Decimal("0.10"))


def _items(
    rng: np.random.Generator, locale: Locale, category: str, rates: tuple[Decimal, ...]
) -> list[LineItem]:
    lang = locale.language
    if category in ("grocery", "bakery"):
        pool = lexicon.GROCERIES.get(lang, lexicon.GROCERIES["en"])
    elif category == "cafe":
        pool = lexicon.CAFE.get(lang, lexicon.CAFE["en"])
    else:
        pool = lexicon.HARDWARE
    count = int(rng.integers(1, 5)) if category in ("cafe", "bakery", "fuel") else int(rng.integers(2, 15))
    standard, reduced = rates[0], rates[-1]
    items: list[LineItem] = []
    if category == "fuel":
        fuel = pick(
            rng,
            {
                "de": ("Super E10", "Super E5", "Diesel"),
                "fr": ("SP95-E10", "Gazole", "SP98"),
                "es": ("Gasóleo A", "Sin Plomo 95"),
                "it": ("Benzina", "Gasolio"),
                "nl": ("Euro 95 E10", "Diesel"),
            }.get(lang, ("Unleaded", "Diesel", "Super Unleaded")),
        )
        litres = Decimal(str(round(float(rng.uniform(15, 65)), 2)))
        per_litre = Decimal(str(round(float(rng.uniform(1.45, 2.05)), 3)))
        if locale.currency == "USD":
            per_litre = Decimal(str(round(float(rng.uniform(3.0, 5.2)), 3)))  # per gallon
        items.append(LineItem(fuel, litres, per_litre, money(litres * per_litre), standard, "A", True))
        count = int(rng.integers(0, 3))
        pool = lexicon.CAFE.get(lang, lexicon.CAFE["en"])
    for _ in range(count):
        name, low, high = pick(rng, pool)
        if high <= 0:
            continue
        unit = _price(rng, low, high, locale.currency)
        by_weight = (
            category == "grocery"
            and not any(c.isdigit() for c in name)
            and not any(w in name.lower() for w in _STANDARD_RATED)
            and chance(rng, 0.15)
        )
        if by_weight:
            quantity = Decimal(str(round(float(rng.uniform(0.2, 2.5)), 3)))
        else:
            quantity = Decimal(pick_weighted(rng, ((1, 0.72), (2, 0.16), (3, 0.06), (4, 0.03), (6, 0.03))))
        food = category in ("grocery", "bakery") and not any(w in name.lower() for w in _STANDARD_RATED)
        rate = reduced if food and len(rates) > 1 else standard
        if locale.country.code == "GB" and food:
            rate = Decimal("0")
        code = "B" if rate != standard else "A"
        items.append(LineItem(name, quantity, unit, money(quantity * unit), rate, code, by_weight))
    if not items:
        name, low, high = pool[0]
        unit = _price(rng, low, max(high, low + 1), locale.currency)
        items.append(LineItem(name, Decimal(1), unit, unit, standard, "A", False))
    return items


def sample_receipt(rng: np.random.Generator, category: str | None = None) -> ReceiptData:
    """The content of a receipt: merchant, items, taxes, payment (``category`` drawn when None)."""
    locale = sample_locale(rng)
    if category is None:
        category = pick_weighted(
            rng, (("grocery", 0.38), ("cafe", 0.3), ("bakery", 0.1), ("hardware", 0.14), ("fuel", 0.08))
        )
    address = sample_address(rng, locale, upper=chance(rng, 0.3))
    merchant = _merchant(rng, locale, category, address.city)
    code = locale.country.code
    inclusive = code not in ("US", "CA")
    if code == "CA":
        rates: tuple[Decimal, ...] = (
            Decimal("14.975") if locale.quebec else pick(rng, (Decimal("13"), Decimal("5"), Decimal("15"))),
        )
    elif code == "US":
        rates = (pick(rng, locale.country.tax_rates),)
    else:
        rates = locale.country.tax_rates
    items = _items(rng, locale, category, rates)
    gross = sum((i.total for i in items), Decimal(0))
    taxes: list[TaxLine] = []
    if inclusive:
        for rate in sorted({i.rate for i in items}, reverse=True):
            group = sum((i.total for i in items if i.rate == rate), Decimal(0))
            tax = money(group * rate / (100 + rate))
            taxes.append(TaxLine(rate, "A" if rate == rates[0] else "B", group - tax, tax, group))
        subtotal, total = gross, gross
    else:
        subtotal = gross
        tax = money(gross * rates[0] / 100)
        taxes.append(TaxLine(rates[0], "T", gross, tax, gross + tax))
        total = gross + tax
    tax_total = sum((t.tax for t in taxes), Decimal(0))
    payment = "cash" if chance(rng, 0.35) else "card"
    if payment == "cash":
        steps = [Decimal(v) for v in (5, 10, 20, 50, 100, 200)]
        tendered = next((s for s in steps if s >= total), money(total))
        if chance(rng, 0.2):
            tendered = money(total)
    else:
        tendered = total
    english_us = code == "US"
    hour, minute = int(rng.integers(7, 22)), int(rng.integers(0, 60))
    time = (
        f"{(hour - 1) % 12 + 1}:{minute:02d} {'AM' if hour < 12 else 'PM'}"
        if english_us and chance(rng, 0.6)
        else f"{hour:02d}:{minute:02d}"
    )
    if chance(rng, 0.4):
        time += f":{int(rng.integers(0, 60)):02d}"
    return ReceiptData(
        locale=locale,
        merchant=merchant,
        address=address,
        phone=phone_number(rng, code),
        vat_id=vat_id(rng, code),
        category=category,
        day=random_date(rng, date(2023, 1, 1), date(2026, 12, 31)),
        time=time,
        number=digits(rng, int(rng.integers(4, 7))),
        cashier=pick(rng, lexicon.GIVEN_NAMES.get(locale.language, lexicon.GIVEN_NAMES["en"]))
        if chance(rng, 0.5)
        else digits(rng, 2),
        items=tuple(items),
        inclusive=inclusive,
        subtotal=subtotal,
        taxes=tuple(taxes),
        tax_total=tax_total,
        total=total,
        print_tax=chance(rng, 0.88) and tax_total > 0,
        payment=payment,
        tendered=tendered,
        card_digits=digits(rng, 4),
        table=str(int(rng.integers(1, 40))),
    )


# --------------------------------------------------------------------------------------------
# Shared printing helpers


class _Printer:
    """What every layout prints the same way: money, dates, tax captions; and the truth strings."""

    def __init__(self, data: ReceiptData, rng: np.random.Generator, lab: Labeler) -> None:
        self.data = data
        self.lab = lab
        locale = data.locale
        self.mark = currency_mark(locale.money_style)
        short = {"mdy/": "mdy/ short", "dmy/": "dmy/ short", "dmy.": "dmy. short"}
        style = locale.date_style
        numeric = {
            "month d, y": "mdy/",
            "mon d, y": "mdy/",
            "d. month y": "dmy.",
            "d de month de y": "dmy/",
        }.get(style, style)
        if numeric in ("d mon y", "d month y"):
            numeric = "dmy/" if chance(rng, 0.7) else numeric
        if numeric in short and chance(rng, 0.3):
            numeric = short[numeric]
        self.date_text = format_date(data.day, numeric, locale.language)
        self.printed: dict[str, str] = {}

    def amount(self, value: Decimal) -> str:
        return format_number(value, self.data.locale.money_style)

    def money(self, value: Decimal) -> str:
        return format_money(value, self.data.locale.money_style)

    def three_decimals(self, value: Decimal, places: int = 3) -> str:
        """A quantity or a fuel price with more than two decimals, in the locale's separator."""
        decimal_sep = number_separators(self.data.locale.money_style)[1]
        return f"{value:.{places}f}".replace(".", decimal_sep)

    def total_label(self, with_mark: bool = True) -> str:
        """The total's caption; it carries the currency code when the amount has no sign."""
        label = self.lab("total")
        if not (self.mark and with_mark):  # bare numbers: the caption names the currency ("TOTALE EUR")
            label = f"{label.rstrip(':')} {self.data.locale.currency}" + (":" if self.lab.colon else "")
        return label

    def total_text(self, with_mark: bool = True) -> str:
        text = self.money(self.data.total) if (with_mark and self.mark) else self.amount(self.data.total)
        self.printed["total_amount"] = self.amount(self.data.total)
        self.printed["currency"] = self.mark if (with_mark and self.mark) else self.data.locale.currency
        return text

    def tax_caption(self, tax: TaxLine) -> str:
        name = self.lab.raw("tax_name")
        code = self.data.locale.country.code
        if code == "US":
            name = pick_label(("Sales Tax", "Tax", "SALES TAX"), self.data.number)
        elif code == "CA":
            name = (
                "TPS+TVQ"
                if self.data.locale.quebec
                else {"13": "HST", "15": "HST", "5": "GST"}.get(f"{tax.rate:g}", "Tax")
            )
        rate = f"{tax.rate:g}".replace(".", "," if self.data.locale.money_style.find(",50") > 0 else ".")
        return f"{name} {rate}%"

    def vat_caption(self) -> str:
        """The tax-registration caption (Canada prints its GST/HST number, not a VAT number)."""
        if self.data.locale.country.code == "CA":
            return "TPS/TVQ" if self.data.locale.quebec else "GST/HST #"
        return self.lab.raw("vat_id")

    def date_time(self) -> str:
        self.printed["date"] = self.date_text
        return f"{self.date_text} {self.data.time}"

    def merchant(self, upper: bool) -> str:
        text = self.data.merchant.upper() if upper else self.data.merchant
        self.printed["merchant_name"] = text
        return text


def pick_label(options: tuple[str, ...], seed_text: str) -> str:
    """A stable choice among ``options`` derived from a document's own text (no extra draw)."""
    return options[sum(map(ord, seed_text)) % len(options)]


def _tax_rows(p: _Printer) -> list[tuple[str, str]]:
    """Caption/amount rows for the tax part of a receipt; the last row prints the tax total."""
    d = p.data
    rows: list[tuple[str, str]] = []
    if d.inclusive:
        prefix = {"en": "incl. ", "de": "enth. ", "fr": "dont ", "es": "", "it": "di cui ", "nl": "incl. "}[
            d.locale.language
        ]
        for t in d.taxes:
            if t.tax > 0 or len(d.taxes) == 1:
                rows.append((f"{prefix}{p.tax_caption(t)}", p.amount(t.tax)))
        if len(rows) > 1:
            rows.append((p.lab("tax_total"), p.amount(d.tax_total)))
    else:
        rows.append((p.tax_caption(d.taxes[0]), p.amount(d.tax_total)))
    p.printed["tax_amount"] = p.amount(d.tax_total)
    return rows


def _payment_rows(p: _Printer) -> list[tuple[str, str]]:
    d = p.data
    if d.payment == "cash":
        rows = [(p.lab("cash"), p.amount(d.tendered))]
        if d.tendered > d.total:
            rows.append((p.lab("change"), p.amount(d.tendered - d.total)))
        return rows
    return [(f"{p.lab('card')} **** {d.card_digits}", p.amount(d.total))]


def _item_rows(p: _Printer, with_codes: bool) -> list[tuple[str, str, str]]:
    """(description, optional detail line, amount) per item."""
    rows = []
    for item in p.data.items:
        detail = ""
        if item.by_weight:
            fuel = p.data.category == "fuel" and item is p.data.items[0]
            unit = ("gal" if p.data.locale.currency == "USD" else "l") if fuel else "kg"
            price = p.three_decimals(item.unit_price) if fuel else p.amount(item.unit_price)
            detail = f"{p.three_decimals(item.quantity, 2 if fuel else 3)} {unit} x {price}/{unit}"
        elif item.quantity > 1:
            detail = f"{item.quantity} x {p.amount(item.unit_price)}"
        amount = p.amount(item.total) + (f" {item.code}" if with_codes else "")
        rows.append((item.name, detail, amount))
    return rows


# --------------------------------------------------------------------------------------------
# Layouts


def _thermal(
    data: ReceiptData, rng: np.random.Generator, mono: bool, restaurant: bool
) -> tuple[Page, dict[str, str], str]:
    style = sample_style(rng, mono=mono)
    paper_width = pick_weighted(rng, ((80.0, 0.7), (58.0, 0.2), (76.0, 0.1)))
    margin = float(rng.uniform(3.0, 5.5))
    paper = (int(rng.integers(238, 252)), int(rng.integers(238, 252)), int(rng.integers(232, 248)))
    page = Page(paper_width, 1000.0, paper=paper, thermal=chance(rng, 0.75))
    ink = (int(rng.integers(20, 80)),) * 3
    style = replace(style, ink=ink, muted=ink, accent=ink)
    pen = Pen(page, style)
    lab = Labeler(data.locale.language, rng, upper=chance(rng, 0.45), colon=chance(rng, 0.3))
    p = _Printer(data, rng, lab)
    left, right, center = margin, paper_width - margin, paper_width / 2
    width = right - left
    if mono:
        columns = int(rng.integers(30, 36)) if paper_width < 70 else int(rng.integers(40, 49))
        size = width / (columns * text_width(style.body.regular, 1.0, "0"))
    else:
        size = float(rng.uniform(7.5, 9.0)) if paper_width > 70 else float(rng.uniform(6.5, 7.5))
    pen.style = replace(pen.style, size=size)
    line_h = pen.step(size, 1.25)
    y = float(rng.uniform(6, 12))

    def sep() -> None:
        nonlocal y
        if mono and chance(rng, 0.7):
            char = pick(rng, ("-", "=", "*", "."))
            count = int(width / text_width(style.body.regular, size, char))
            pen.text(left, y, char * count, size)
        else:
            pen.rule(left, right, y - line_h * 0.35, ink, 0.2)
        y += line_h

    if chance(rng, 0.3):
        logo(pen, rng, center - 6, y - 3, 12, data.merchant, ink)
        y += 13
    upper_name = chance(rng, 0.6)
    name_size = size * float(rng.uniform(1.3, 2.0))
    pen.text(
        center,
        y + name_size * PT_TO_MM * 0.4,
        p.merchant(upper_name),
        name_size,
        bold=True,
        align="c",
        face=style.heading,
        max_width=width,
    )
    y += name_size * PT_TO_MM * 1.4
    header_lines = list(data.address.lines)
    if chance(rng, 0.7):
        header_lines.append(f"{lab.raw('phone')} {data.phone}")
    if chance(rng, 0.6) and data.locale.country.code not in ("US",):
        header_lines.append(f"{p.vat_caption()} {data.vat_id}")
    for line in header_lines:
        pen.text(center, y, line, size, align="c", max_width=width)
        y += line_h
    y += line_h * 0.5
    date_on_top = chance(rng, 0.55)
    if chance(rng, 0.4):
        pen.text(center, y, lab.title("receipt").upper(), size * 1.15, bold=True, align="c")
        y += line_h * 1.3
    if restaurant:
        pen.text(left, y, f"{lab('table')} {data.table}", size)
        pen.text(right, y, f"{lab('cashier')} {data.cashier}", size, align="r")
        y += line_h
    if date_on_top:
        y = _date_and_number(pen, p, left, right, y, size, line_h)
    sep()
    for name, detail, amount in _item_rows(p, with_codes=data.inclusive and mono and chance(rng, 0.7)):
        if restaurant and detail and chance(rng, 0.5):
            name, detail = f"{detail.split(' x ')[0]} {name}", ""
        amount_w = pen.measure(amount, size)
        pen.text(left, y, name, size, max_width=width - amount_w - 2)
        if detail:
            y += line_h
            pen.text(left + 4, y, detail, size)
        pen.text(right, y, amount, size, align="r")
        y += line_h
    sep()
    if not data.inclusive or chance(rng, 0.3):
        pen.text(left, y, lab("subtotal"), size)
        pen.text(right, y, p.amount(data.subtotal), size, align="r")
        y += line_h
    if data.print_tax and not data.inclusive:
        for caption, amount in _tax_rows(p):
            pen.text(left, y, caption, size)
            pen.text(right, y, amount, size, align="r")
            y += line_h
    big = size * float(rng.uniform(1.2, 1.8))
    y += line_h * 0.3
    with_mark = chance(rng, 0.7)
    total_text = p.total_text(with_mark)
    room = width - pen.measure(total_text, big, bold=True) - 2
    pen.text(left, y + big * PT_TO_MM * 0.2, p.total_label(with_mark), big, bold=True, max_width=room)
    pen.text(right, y + big * PT_TO_MM * 0.2, total_text, big, bold=True, align="r")
    y += big * PT_TO_MM * 1.5
    if restaurant and data.locale.country.code in ("US", "CA"):
        for pct in (15, 18, 20):
            pen.text(left, y, f"{lab('tip')} {pct}%", size)
            pen.text(right, y, p.amount(money(data.total * pct / 100)), size, align="r")
            y += line_h
        pen.text(left, y, f"{lab.raw('tip')}: ______   {lab.raw('total')}: ______", size)
        y += line_h
    for caption, amount in _payment_rows(p):
        pen.text(left, y, caption, size)
        pen.text(right, y, amount, size, align="r")
        y += line_h
    if data.print_tax and data.inclusive:
        y += line_h * 0.4
        rows = _tax_rows(p)
        if mono and chance(rng, 0.5) and len(data.taxes) >= 1:
            net, gross = lab.raw("net"), lab.raw("gross")
            name = lab.raw("tax_name")
            cols = (left, left + width * 0.3, left + width * 0.62, right)
            pen.text(cols[0], y, "%", size)
            pen.text(cols[1], y, net, size)
            pen.text(cols[2], y, name, size)
            pen.text(cols[3], y, gross, size, align="r")
            y += line_h
            for t in data.taxes:
                pen.text(cols[0], y, f"{t.code} {t.rate:g}%", size)
                pen.text(cols[1], y, p.amount(t.net), size)
                pen.text(cols[2], y, p.amount(t.tax), size)
                pen.text(cols[3], y, p.amount(t.gross), size, align="r")
                y += line_h
            if len(data.taxes) > 1:
                pen.text(left, y, rows[-1][0], size)
                pen.text(right, y, rows[-1][1], size, align="r")
                y += line_h
        else:
            for caption, amount in rows:
                pen.text(left, y, caption, size)
                pen.text(right, y, amount, size, align="r")
                y += line_h
    if chance(rng, 0.4):
        count = sum(1 if i.by_weight else int(i.quantity) for i in data.items)
        pen.text(left, y, f"{lab('items_count')} {count}", size)
        y += line_h
    y += line_h * 0.5
    if not date_on_top:
        y = _date_and_number(pen, p, left, right, y, size, line_h)
        if chance(rng, 0.5):
            pen.text(left, y, f"{lab('cashier')} {data.cashier}", size)
            y += line_h
    if data.payment == "card" and chance(rng, 0.5):
        for line in (f"AID A00000000{digits(rng, 5)}", f"AUTH {digits(rng, 6)}", f"TID {digits(rng, 8)}"):
            pen.text(left, y, line, size * 0.9)
            y += line_h * 0.9
    y += line_h * 0.6
    pen.text(center, y, lab.text("thank_you"), size, align="c", max_width=width)
    y += line_h
    if chance(rng, 0.5):
        pen.text(
            center,
            y,
            f"www.{web_domain(data.merchant, data.locale.country.code)}",
            size,
            align="c",
            max_width=width,
        )
        y += line_h
    if chance(rng, 0.45):
        barcode(pen, rng, left + width * 0.15, y, width * 0.7, 9)
        y += 11
        pen.text(center, y, digits(rng, 13), size * 0.9, align="c")
        y += line_h
    page.height = y + float(rng.uniform(6, 14))
    layout = "restaurant" if restaurant else ("thermal-mono" if mono else "thermal-sans")
    return page, p.printed, layout


def _date_and_number(
    pen: Pen, p: _Printer, left: float, right: float, y: float, size: float, step: float
) -> float:
    """Date, time and receipt number on one line, or on two where the slip is too narrow."""
    when = p.date_time()
    number = f"{p.lab.raw('receipt_number')} {p.data.number}"
    pen.text(left, y, when, size)
    if pen.measure(when, size) + pen.measure(number, size) + 3 > right - left:
        y += step
    pen.text(right, y, number, size, align="r")
    return y + step


def _header_block(
    pen: Pen, rng: np.random.Generator, data: ReceiptData, p: _Printer, x: float, y: float, width: float
) -> float:
    """Merchant letterhead at top-left within ``width`` mm: logo, name, address, phone.
    Returns the y below it."""
    style = pen.style
    if chance(rng, 0.6):
        w = logo(pen, rng, x, y, 12, data.merchant, style.accent)
        name_x = x + w + 4
    else:
        name_x = x
    pen.text(
        name_x,
        y + 8,
        p.merchant(chance(rng, 0.3)),
        style.size * 1.7,
        bold=True,
        color=style.accent,
        face=style.heading,
        max_width=width - (name_x - x),
    )
    y += 17
    lines = [*data.address.lines, f"{p.lab.raw('phone')} {data.phone}"]
    return pen.lines(x, y, lines, style.size * 0.95, color=style.muted)


def _wide(data: ReceiptData, rng: np.random.Generator, e_receipt: bool) -> tuple[Page, dict[str, str], str]:
    style = sample_style(rng)
    if e_receipt:
        width, height = (215.9, 279.4) if data.locale.country.code in ("US", "CA") else (210.0, 297.0)
    else:
        width, height = 148.0, 210.0
    page = Page(width, height)
    pen = Pen(page, style)
    lab = Labeler(data.locale.language, rng, upper=style.upper_labels, colon=style.colon)
    p = _Printer(data, rng, lab)
    m = style.margin * (0.7 if not e_receipt else 1.0)
    left, right = m, width - m
    size = style.size * (0.9 if not e_receipt else 1.0)
    y = m
    if e_receipt and chance(rng, 0.6):
        band = 24.0
        pen.rect(0, 0, width, band, fill=style.accent)
        pen.text(
            left,
            band * 0.62,
            p.merchant(chance(rng, 0.4)),
            size * 2.0,
            bold=True,
            color=(255, 255, 255),
            face=style.heading,
        )
        pen.text(right, band * 0.62, lab.title("receipt"), size * 1.4, color=(255, 255, 255), align="r")
        y = band + 12
        y = pen.lines(left, y, list(data.address.lines), size * 0.95, color=style.muted)
    else:
        title = lab.title("receipt").upper()
        room = right - left - pen.measure(title, size * 1.8, bold=True, face=style.heading) - 6
        y = _header_block(pen, rng, data, p, left, y, room)
        pen.text(
            right,
            m + 8,
            title,
            size * 1.8,
            bold=True,
            color=style.accent,
            align="r",
            face=style.heading,
        )
    y += 6
    meta = [(lab("receipt_number"), data.number), (lab("date"), p.date_text), (lab("time"), data.time)]
    p.printed["date"] = p.date_text
    if data.payment == "card":
        meta.append((lab("card").rstrip(":"), f"**** {data.card_digits}"))
    value_x = left + max(40.0, max(pen.measure(c, size, style.bold_labels) for c, _ in meta) + 4)
    for caption, value in meta:
        pen.text(left, y, caption, size, bold=style.bold_labels, color=style.muted)
        pen.text(value_x, y, value, size)
        y += pen.step(size, 1.4)
    y += 5
    # items table
    cols = (left, left + (right - left) * 0.55, left + (right - left) * 0.72, right)
    header = (lab("description"), lab("quantity"), lab("unit_price"), lab("amount"))
    pen.rect(left, y - pen.step(size, 1.0), right, y + pen.step(size, 0.45), fill=style.shade)
    pen.text(cols[0] + 1.5, y, header[0], size, bold=True, max_width=cols[1] - cols[0] - 3)
    pen.text(cols[1], y, header[1], size, bold=True, max_width=cols[2] - cols[1] - 2)
    pen.text(cols[2], y, header[2], size, bold=True, max_width=(cols[3] - cols[2]) * 0.55)
    pen.text(cols[3] - 1.5, y, header[3], size, bold=True, align="r", max_width=(cols[3] - cols[2]) * 0.4)
    y += pen.step(size, 1.6)
    for item in data.items:
        qty = p.three_decimals(item.quantity) if item.by_weight else f"{item.quantity}"
        pen.text(cols[0] + 1.5, y, item.name, size, max_width=cols[1] - cols[0] - 4)
        pen.text(cols[1], y, qty, size)
        pen.text(cols[2], y, p.amount(item.unit_price), size)
        pen.text(cols[3] - 1.5, y, p.amount(item.total), size, align="r")
        y += pen.step(size, 1.45)
    pen.rule(left, right, y - pen.step(size, 0.8))
    y += 3
    label_x = left + (right - left) * 0.5
    rows: list[tuple[str, str, bool]] = []
    if not data.inclusive or chance(rng, 0.5):
        rows.append((lab("subtotal"), p.amount(data.subtotal), False))
    if data.print_tax and not data.inclusive:
        rows += [(c, a, False) for c, a in _tax_rows(p)]
    rows.append((p.total_label(), p.total_text(with_mark=True), True))
    if data.print_tax and data.inclusive:
        rows += [(c, a, False) for c, a in _tax_rows(p)]
    for caption, amount, strong in rows:
        s = size * (1.25 if strong else 1.0)
        if strong:
            pen.rect(label_x - 2, y - pen.step(s, 0.95), right, y + pen.step(s, 0.4), fill=style.shade)
        pen.text(label_x, y, caption, s, bold=strong)
        pen.text(right - 1.5, y, amount, s, bold=strong, align="r")
        y += pen.step(s, 1.5)
    y += 4
    for caption, amount in _payment_rows(p):
        pen.text(label_x, y, caption, size, color=style.muted)
        pen.text(right - 1.5, y, amount, size, color=style.muted, align="r")
        y += pen.step(size, 1.4)
    footer_y = height - m * 0.8
    pen.text(width / 2, footer_y - 6, lab.text("thank_you"), size, align="c")
    if data.locale.country.code != "US":
        pen.text(
            width / 2,
            footer_y,
            f"{p.vat_caption()} {data.vat_id} · www.{web_domain(data.merchant, data.locale.country.code)}",
            size * 0.85,
            color=style.muted,
            align="c",
        )
    return page, p.printed, "e-receipt" if e_receipt else "wide-a5"


def compose(rng: np.random.Generator) -> Composition:
    """A receipt of a random merchant, locale and layout, with its truth."""
    layout = pick_weighted(rng, LAYOUTS)
    data = sample_receipt(rng, category="cafe" if layout == "restaurant" else None)
    if layout in ("thermal-mono", "thermal-sans", "restaurant"):
        restaurant = layout == "restaurant" or (data.category == "cafe" and chance(rng, 0.3))
        mono = layout == "thermal-mono" or (layout == "restaurant" and chance(rng, 0.4))
        page, printed, layout = _thermal(data, rng, mono=mono and bool(mono_faces()), restaurant=restaurant)
        resolution = (8.0, 11.0)
    else:
        page, printed, layout = _wide(data, rng, e_receipt=layout == "e-receipt")
        resolution = (6.8, 8.5) if layout == "e-receipt" else (8.0, 10.0)
    fields = {
        "merchant_name": canonical_text(data.merchant),
        "date": data.day.isoformat(),
        "currency": data.locale.currency,
        "total_amount": truth_amount(data.total),
    }
    if "tax_amount" in printed:
        fields["tax_amount"] = truth_amount(data.tax_total)
    return Composition(
        document_type="receipt",
        pages=[page],
        fields=fields,
        printed=printed,
        layout=layout,
        meta={
            "country": data.locale.country.code,
            "language": data.locale.language,
            "category": data.category,
            "money_style": data.locale.money_style,
            "items": len(data.items),
            "tax_included": data.inclusive,
        },
        px_per_mm=resolution,
    )
