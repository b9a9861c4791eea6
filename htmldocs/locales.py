"""How a country prints money and dates, and the captions of its language.

A document keeps one money style and one date style throughout, as a billing system configured
for one market does; tables may use a compact date form beside it. Captions are chosen once per
document and then repeated, so "Amount due" is not "Total due" two lines further down.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal

from htmldocs.data import load

CENT = Decimal("0.01")


def cents(value: Decimal | float | str) -> Decimal:
    """``value`` rounded half-up to cents, the way every document here computes money."""
    return Decimal(str(value)).quantize(CENT, rounding=ROUND_HALF_UP)


def truth_amount(value: Decimal) -> str:
    """The canonical amount of the truth: two decimals, a dot, no grouping ("1234.50")."""
    return f"{cents(value):.2f}"


@dataclass(frozen=True)
class MoneyStyle:
    """A printed amount's shape: where the currency goes and which separators the number uses."""

    pattern: str  # "{n} €", "${n}", "EUR {n}"
    group: str
    decimal: str

    def number(self, value: Decimal) -> str:
        """The number alone with this style's separators: "1.234,50"."""
        value = cents(value)
        sign = "-" if value < 0 else ""
        whole, frac = f"{abs(value):.2f}".split(".")
        if self.group:
            parts: list[str] = []
            while len(whole) > 3:
                parts.insert(0, whole[-3:])
                whole = whole[:-3]
            parts.insert(0, whole)
            whole = self.group.join(parts)
        return f"{sign}{whole}{self.decimal}{frac}"

    def money(self, value: Decimal) -> str:
        """The amount with its currency as the style prints it; a minus goes in front."""
        text = self.pattern.replace("{n}", self.number(abs(value)))
        return f"-{text}" if value < 0 else text


def format_date(value: dt.date, pattern: str, language: str) -> str:
    """``value`` printed by a pattern of {D} {DD} {M} {MM} {Month} {Mon} {YYYY} {YY}."""
    months = load("locales")["months"][language]
    tokens = {
        "{DD}": f"{value.day:02d}",
        "{D}": str(value.day),
        "{MM}": f"{value.month:02d}",
        "{M}": str(value.month),
        "{Month}": months["long"][value.month - 1],
        "{Mon}": months["short"][value.month - 1],
        "{YYYY}": str(value.year),
        "{YY}": f"{value.year % 100:02d}",
    }
    return re.sub(r"\{(DD|D|MM|M|Month|Mon|YYYY|YY)\}", lambda m: tokens[m.group(0)], pattern)


@dataclass
class Locale:
    """One document's country, language, money style, date style and captions."""

    country: str  # ISO 3166 alpha-2 ("GB" for the United Kingdom)
    language: str
    currency: str  # ISO 4217
    money_style: MoneyStyle
    date_pattern: str
    table_date_pattern: str
    receipt_date_pattern: str
    rng: random.Random = field(repr=False)
    _captions: dict[str, str] = field(default_factory=dict, repr=False)

    def money(self, value: Decimal) -> str:
        return self.money_style.money(value)

    def number(self, value: Decimal) -> str:
        return self.money_style.number(value)

    def date(self, value: dt.date) -> str:
        return format_date(value, self.date_pattern, self.language)

    def table_date(self, value: dt.date) -> str:
        """The compact form of table rows; it may leave the year out, so it never prints a truth."""
        return format_date(value, self.table_date_pattern, self.language)

    def receipt_date(self, value: dt.date) -> str:
        """The numeric form tills print (two-digit years included)."""
        return format_date(value, self.receipt_date_pattern, self.language)

    def caption(self, key: str, **values: str) -> str:
        """The document's caption for ``key`` (chosen on first use, then kept), filled in."""
        if key not in self._captions:
            self._captions[key] = self.rng.choice(self.variants(key))
        text = self._captions[key]
        for name, value in values.items():
            text = text.replace("{" + name + "}", value)
        return text

    def variants(self, key: str) -> list[str]:
        """Every caption the language has for ``key`` (country overrides first)."""
        labels = load("labels")
        specific = labels.get(f"{self.language}-{self.country}", {})
        if key in specific:
            return list(specific[key])
        return list(labels[self.language][key])

    @property
    def tax_rates(self) -> tuple[list[str], list[str]]:
        """(standard rates, reduced rates) as printed percentages."""
        tax = load("locales")["countries"][self.country]["tax"]
        return list(tax["rates"]), list(tax.get("reduced", []))

    def tax_mode(self, kind: str) -> str:
        """ "added" (net prices, tax on top) or "included" (gross prices) for a document kind."""
        return str(load("locales")["countries"][self.country]["tax"][kind])


def sample_country(rng: random.Random) -> str:
    weights = load("locales")["weights"]
    codes = list(weights)
    return rng.choices(codes, weights=[weights[c] for c in codes])[0]


def sample_locale(rng: random.Random, country: str | None = None) -> Locale:
    """A country (by weight unless given) with one money style and one date style."""
    code = country or sample_country(rng)
    spec = load("locales")["countries"][code]
    money = rng.choice(spec["money"])
    return Locale(
        country=code,
        language=spec["language"],
        currency=spec["currency"],
        money_style=MoneyStyle(money["pattern"], money["group"], money["decimal"]),
        date_pattern=rng.choice(spec["dates"]),
        table_date_pattern=rng.choice(spec["table_dates"]),
        receipt_date_pattern=rng.choice(spec["receipt_dates"]),
        rng=rng,
    )


def format_rate(rate: str, locale: Locale) -> str:
    """A tax rate as the language writes it: "5.5" in English, "5,5" elsewhere."""
    return rate.replace(".", locale.money_style.decimal) if "." in rate else rate
