"""Till receipts, restaurant bills, supermarket slips and e-receipts as narrow HTML strips.

Fields: merchant_name, date, currency, total_amount, tax_amount. In Europe and the UK prices
include VAT: the tax is the VAT the total contains, per rate, summed (a VAT table lists each rate;
with two rates a total VAT line follows). In the US tax is added: subtotal + sales tax = total.
``tax_amount`` is null where the slip prints no tax. The merchant's name is printed as its shop
sign has it, sometimes in capitals and, on a narrow slip, wrapped onto two lines: the truth is the
name with single spaces. Cash tendered, change and suggested tips are printed as the distractors
they are on real receipts.

Layouts: till (monospaced thermal slip with dashed rules and a VAT-class table), bistro
(proportional restaurant bill with table and server), market (supermarket slip with VAT letters,
card-terminal block and fiscal lines) and ereceipt (wider e-mail style receipt, often a PDF).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date, time
from decimal import Decimal

from htmldocs.data import load
from htmldocs.document import Composed, Output, complete_fields, image_output, random_date
from htmldocs.locales import Locale, cents, format_rate, sample_locale, truth_amount
from htmldocs.markup import barcode, esc, fill, lines, logo, sample_theme
from htmldocs.parties import Organisation, canonical, sample_organisation

LAYOUTS = ("till", "bistro", "market", "ereceipt")
_WIDTHS = {"till": (270, 320), "bistro": (290, 350), "market": (280, 330), "ereceipt": (420, 480)}


@dataclass(frozen=True)
class Item:
    name: str
    quantity: int
    unit_price: Decimal  # gross in Europe and the UK, net in the US
    rate: str

    @property
    def amount(self) -> Decimal:
        return cents(self.unit_price * self.quantity)


@dataclass(frozen=True)
class ReceiptData:
    locale: Locale
    merchant: Organisation
    category: str
    day: date
    at: time
    items: tuple[Item, ...]
    inclusive: bool  # prices include the tax (Europe, UK)
    us_rate: str  # the sales-tax rate where tax is added, "" where none is charged
    tax_printed: bool
    cash: bool
    number: str
    cashier: str

    @property
    def item_total(self) -> Decimal:
        return sum((item.amount for item in self.items), Decimal("0"))

    def vat(self) -> list[tuple[str, Decimal, Decimal, Decimal]]:
        """(rate, net, tax, gross) per rate of an inclusive receipt: the tax each gross contains."""
        out = []
        for rate in sorted({item.rate for item in self.items}, key=lambda r: -Decimal(r)):
            gross = sum((item.amount for item in self.items if item.rate == rate), Decimal("0"))
            tax = cents(gross * Decimal(rate) / (100 + Decimal(rate)))
            out.append((rate, gross - tax, tax, gross))
        return out

    @property
    def tax_total(self) -> Decimal:
        if self.inclusive:
            return sum((tax for _, _, tax, _ in self.vat()), Decimal("0"))
        if not self.us_rate:
            return Decimal("0")
        return cents(self.item_total * Decimal(self.us_rate) / 100)

    @property
    def total(self) -> Decimal:
        return self.item_total if self.inclusive else self.item_total + self.tax_total


def sample_receipt(rng: random.Random) -> ReceiptData:
    locale = sample_locale(rng)
    country = locale.country
    name, category = rng.choice(load("organisations")[country]["merchants"])
    merchant = sample_organisation(rng, country, name)
    catalogue = load("items")["receipt"][locale.language][category]
    count = rng.randint(1, min(8, len(catalogue)))
    standard, reduced = locale.tax_rates
    inclusive = locale.tax_mode("receipt") == "included"
    items = []
    for entry in rng.sample(catalogue, count):
        item_name, low, high = entry
        quantity = rng.choice([1, 1, 1, 1, 2, 2, 3]) if category in ("grocery", "cafe", "hardware") else 1
        rate = standard[0]
        if (
            inclusive
            and reduced
            and category in ("grocery", "books", "pharmacy", "cafe")
            and rng.random() < 0.7
        ):
            rate = reduced[0]
        items.append(Item(item_name, quantity, cents(rng.uniform(low, high)), rate))
    us_rate = "" if inclusive or rng.random() < 0.1 else rng.choice(standard)
    return ReceiptData(
        locale=locale,
        merchant=merchant,
        category=category,
        day=random_date(rng),
        at=time(rng.randint(7, 21), rng.randrange(60), rng.randrange(60)),
        items=tuple(items),
        inclusive=inclusive,
        us_rate=us_rate,
        tax_printed=bool(us_rate) or (inclusive and rng.random() < 0.85),
        cash=rng.random() < 0.35,
        number=str(rng.randint(1000, 999999)),
        cashier=rng.choice([str(rng.randint(1, 40)), rng.choice(load("people")[country]["f"])]),
    )


def _merchant_html(rng: random.Random, name: str, *, upper: bool) -> str:
    """The shop's name as its header prints it; a long one is sometimes broken onto two lines."""
    printed = name.upper() if upper else name
    words = printed.split()
    if len(printed) > 18 and len(words) > 2 and rng.random() < 0.6:
        cut = max(1, len(words) // 2)
        return f"{esc(' '.join(words[:cut]))}<br>{esc(' '.join(words[cut:]))}"
    return esc(printed)


def _row(label: str, value: str, cls: str = "") -> str:
    return f'<tr class="{cls}"><td>{esc(label)}</td><td class="num">{esc(value)}</td></tr>'


def fragments(d: ReceiptData, rng: random.Random, layout: str, width: int) -> dict[str, str]:
    loc = d.locale
    mono = layout == "till" or (layout == "market" and rng.random() < 0.5)
    theme = sample_theme(rng, families=("mono",) if mono else ("sans", "serif"), size=(8.0, 9.5))
    upper = layout in ("till", "market") or rng.random() < 0.3
    classes = {
        rate: "ABCD"[i] for i, rate in enumerate(sorted({i.rate for i in d.items}, key=lambda r: -Decimal(r)))
    }
    money = loc.number if rng.random() < 0.6 else loc.money
    item_rows = []
    for item in d.items:
        name = item.name.upper() if upper else item.name
        suffix = f" {classes[item.rate]}" if d.inclusive and layout in ("till", "market") else ""
        if item.quantity > 1:
            if layout == "bistro":
                item_rows.append(_row(f"{item.quantity} {name}", money(item.amount) + suffix))
                continue
            item_rows.append(_row(name, ""))
            item_rows.append(
                _row(
                    f"  {item.quantity} x {loc.number(item.unit_price)}",
                    money(item.amount) + suffix,
                    "detail",
                )
            )
        else:
            item_rows.append(_row(name, money(item.amount) + suffix))
    totals = []
    if not d.inclusive and d.tax_printed:
        totals.append(_row(loc.caption("r_subtotal"), money(d.item_total)))
        totals.append(_row(loc.caption("r_tax", rate=d.us_rate), money(d.tax_total)))
    totals.append(_row(loc.caption("r_total"), loc.money(d.total), "grand"))
    payment = []
    if d.cash:
        step = Decimal(rng.choice([5, 10, 20, 50]))
        tendered = (d.total / step).to_integral_value(rounding="ROUND_CEILING") * step
        if tendered == d.total:
            tendered += step
        payment.append(_row(loc.caption("cash"), money(tendered)))
        payment.append(_row(loc.caption("change"), money(tendered - d.total)))
    else:
        payment.append(_row(loc.caption("card"), money(d.total)))
    if loc.country == "US" and d.category in ("restaurant", "cafe") and rng.random() < 0.6:
        tips = "".join(
            _row(f"{loc.caption('tip')} {pct}%", money(cents(d.item_total * pct / 100)))
            for pct in (15, 18, 20)
        )
        payment.append(f'<tr class="tips"><td colspan="2">&nbsp;</td></tr>{tips}')
    vat_rows = ""
    if d.inclusive and d.tax_printed:
        vat_rows = "".join(
            "<tr>"
            + (f"<td>{classes[rate]}</td>" if layout in ("till", "market") else "")
            + f"<td>{esc(format_rate(rate, loc))}%</td><td class='num'>{esc(loc.number(net))}</td>"
            f"<td class='num'>{esc(loc.number(tax))}</td><td class='num'>{esc(loc.number(gross))}</td></tr>"
            for rate, net, tax, gross in d.vat()
        )
        if len(d.vat()) > 1:
            span = 3 if layout in ("till", "market") else 2
            vat_rows += (
                f"<tr class='vattotal'><td colspan='{span}'>{esc(loc.caption('vat_total'))}</td>"
                f"<td class='num'>{esc(loc.number(d.tax_total))}</td><td></td></tr>"
            )
    vat_head = (
        "<tr>"
        + ("<th></th>" if layout in ("till", "market") else "")
        + "".join(
            f"<th{' class=num' if i else ''}>{esc(loc.caption(k))}</th>"
            for i, k in enumerate(("vat_rate", "vat_net", "vat_tax", "vat_gross"))
        )
        + "</tr>"
    )
    when = f"{loc.receipt_date(d.day)} {d.at.strftime('%H:%M' if rng.random() < 0.6 else '%H:%M:%S')}"
    if loc.country == "US" and rng.random() < 0.5:
        when = f"{loc.receipt_date(d.day)} {d.at.strftime('%I:%M %p').lstrip('0')}"
    card_lines = [
        f"**** **** **** {rng.randint(1000, 9999)}",
        f"AUTH {rng.randint(100000, 999999)}  TID {rng.randint(10000000, 99999999)}",
        rng.choice(["A0000000031010", "A0000000041010", "A0000000043060"]),
    ]
    fiscal = {
        "DE": [
            f"TSE-Transaktion: {rng.randint(10000, 99999)}",
            f"TSE-Signaturzähler: {rng.randint(100000, 999999)}",
        ],
        "IT": [
            "DOCUMENTO COMMERCIALE",
            "di vendita o prestazione",
            f"RT {rng.randint(10, 99)}EYA{rng.randint(100000, 999999)}",
        ],
        "FR": [
            f"SIRET {rng.randint(100, 999)} {rng.randint(100, 999)} {rng.randint(100, 999)} 000{rng.randint(10, 99)}"
        ],
        "ES": [f"NIF {d.merchant.tax_id}"],
        "NL": [f"BTW {d.merchant.tax_id}"],
        "GB": [f"VAT No. {d.merchant.tax_id}"],
        "US": [f"Store #{rng.randint(100, 9999)}"],
    }[loc.country]
    count_line = f"{loc.caption('items_count')}: {sum(item.quantity for item in d.items)}"
    table_line = (
        f"{loc.caption('table')} {rng.randint(1, 40)} · {loc.caption('cashier')} {d.cashier} · {rng.randint(1, 6)} pax"
        if layout == "bistro" and d.category in ("restaurant", "cafe")
        else f"{loc.caption('cashier')} {d.cashier}"
    )
    return {
        "theme_css": theme.css(),
        "width": str(width),
        "logo": logo(rng, d.merchant.name),
        "merchant_name": _merchant_html(rng, d.merchant.name, upper=upper),
        "merchant_address": lines(d.merchant.address.lines),
        "merchant_contact": lines(
            [f"{loc.caption('phone')} {d.merchant.phone}", d.merchant.web if rng.random() < 0.5 else ""]
        ),
        "when": esc(when),
        "date_caption": esc(loc.caption("date")),
        "receipt_no": esc(f"{loc.caption('receipt_no')} {d.number}"),
        "table_line": esc(table_line),
        "items_rows": "".join(item_rows),
        "totals_rows": "".join(totals),
        "payment_rows": "".join(payment),
        "vat_head": vat_head,
        "vat_rows": vat_rows,
        "vat_class": "" if vat_rows else "hidden",
        "card_lines": lines(card_lines) if not d.cash else "",
        "card_class": "hidden" if d.cash else "",
        "fiscal": lines(fiscal),
        "count_line": esc(count_line),
        "thanks": esc(loc.caption("r_thanks")),
        "barcode": barcode(rng) if rng.random() < 0.7 else "",
        "e_title": esc(loc.caption("e_title")),
        "order_no": esc(f"#{d.number}"),
    }


def compose(rng: random.Random) -> Composed:
    """A receipt of a random shop, locale and layout, with its truth."""
    d = sample_receipt(rng)
    layout = rng.choices(LAYOUTS, weights=(4, 3, 3, 2))[0]
    if d.category == "restaurant" and layout == "market":
        layout = "bistro"
    width = rng.randint(*_WIDTHS[layout])
    html = fill(f"receipt_{layout}.html", fragments(d, rng, layout, width))
    if layout == "ereceipt" and rng.random() < 0.6:
        output = Output("pdf", page="strip", width_px=width)
    else:
        output = image_output(rng, page="strip", width_px=width, photo=0.35 if layout != "ereceipt" else 0.0)
    fields = complete_fields(
        "receipt",
        {
            "merchant_name": canonical(d.merchant.name),
            "date": d.day.isoformat(),
            "currency": d.locale.currency,
            "total_amount": truth_amount(d.total),
            "tax_amount": truth_amount(d.tax_total) if d.tax_printed else None,
        },
    )
    return Composed(
        document_type="receipt",
        layout=layout,
        html=html,
        fields=fields,
        output=output,
        printed_total=d.locale.money(d.total),
        meta={
            "country": d.locale.country,
            "language": d.locale.language,
            "category": d.category,
            "money_style": d.locale.money_style.pattern,
            "date_style": d.locale.receipt_date_pattern,
            "items": len(d.items),
            "tax_included": d.inclusive,
        },
    )
