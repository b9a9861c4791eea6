"""Bank statements: one to three pages of transactions under five layouts.

Fields: the proof-of-address fields (full_name, address_*, document_date = the statement's
issue date, issuer_name = the bank) plus account_holder, iban_or_account_number (the IBAN
without spaces, or the account number's digits in the US and Canada, where no IBAN exists),
statement_period_start and statement_period_end. The account holder is the addressee; it is
printed again beside its caption, sometimes in capitals. Transactions bring dozens of other
dates, names and amounts, as real statements do.

Layouts: "classic" (window address, info block, debit/credit/balance columns), "summary"
(colour band, caption-above-value summary cells, signed amounts, zebra rows), "kontoauszug"
(German bank print-out: booking and value dates, amounts with S/H or +/-, old and new
balance), "checking" (US-style summary, then separate deposit and withdrawal tables) and
"compact" (two-line entries with references, rules only).
"""

from __future__ import annotations

import calendar
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal

import numpy as np

from synth.business import blocks, lexicon
from synth.business.blocks import Column, Organisation, Writer
from synth.business.common import (
    Account,
    Address,
    Locale,
    Person,
    canonical_text,
    chance,
    company_name,
    courtesy_title,
    digits,
    format_date,
    format_money,
    format_number,
    money,
    pick,
    pick_weighted,
    random_date,
    sample_address,
    sample_locale,
    sample_person,
    sector_name,
    short_date_style,
)
from synth.business.labels import Labeler
from synth.business.layout import Page, sample_style
from synth.business.output import Composition

LAYOUTS = (("classic", 0.25), ("summary", 0.22), ("kontoauszug", 0.18), ("checking", 0.15), ("compact", 0.2))

_TEMPLATES: dict[str, dict[str, tuple[str, ...]]] = {
    "card": {
        "en": (
            "CARD PAYMENT {merchant} {city}",
            "CONTACTLESS {merchant}",
            "POS {merchant}",
            "DEBIT CARD PURCHASE {merchant}",
        ),
        "de": ("Kartenzahlung {merchant}", "girocard {merchant} {city}", "VISA {merchant}"),
        "fr": ("PAIEMENT CB {merchant} {city}", "CB {merchant}", "ACHAT CB {merchant}"),
        "es": ("COMPRA TARJ. {merchant}", "PAGO TARJETA {merchant} {city}"),
        "it": ("PAGAMENTO POS {merchant}", "PAGAMENTO CARTA {merchant} {city}"),
        "nl": (
            "BEA {merchant} {city}",
            "Betaalpas {merchant}",
            "Pinbetaling {merchant}",
        ),
    },
    "debit": {
        "en": ("DIRECT DEBIT {org}", "DD {org}", "STANDING ORDER {org}"),
        "de": ("Lastschrift {org}", "SEPA-Lastschrift {org}", "Dauerauftrag {org}"),
        "fr": ("PRLV SEPA {org}", "PRELEVEMENT {org}"),
        "es": ("RECIBO {org}", "ADEUDO SEPA {org}"),
        "it": ("ADDEBITO SDD {org}", "ADDEBITO DIRETTO {org}"),
        "nl": ("INCASSO {org}", "SEPA Incasso {org}"),
    },
    "salary": {
        "en": ("SALARY {org}", "PAYROLL {org}", "BGC {org} SALARY"),
        "de": ("Gehalt {org}", "Lohn/Gehalt {org}"),
        "fr": ("VIR SEPA RECU {org} SALAIRE", "VIREMENT SALAIRE {org}"),
        "es": ("NÓMINA {org}", "TRANSFERENCIA NÓMINA {org}"),
        "it": ("STIPENDIO {org}", "BONIFICO STIPENDIO {org}"),
        "nl": ("SALARIS {org}", "Loon {org}"),
    },
    "out": {
        "en": ("TRANSFER TO {person}", "FASTER PAYMENT TO {person}", "ONLINE TRANSFER {person}"),
        "de": ("Überweisung an {person}", "Echtzeitüberweisung {person}"),
        "fr": ("VIR SEPA EMIS {person}", "VIREMENT A {person}"),
        "es": ("TRANSFERENCIA A {person}", "BIZUM A {person}"),
        "it": ("BONIFICO A {person}", "BONIFICO ISTANTANEO {person}"),
        "nl": ("OVERBOEKING {person}", "Betaalverzoek {person}"),
    },
    "in": {
        "en": ("TRANSFER FROM {person}", "CREDIT {person}"),
        "de": ("Gutschrift {person}", "Überweisung von {person}"),
        "fr": ("VIR RECU {person}", "VIREMENT DE {person}"),
        "es": ("TRANSFERENCIA DE {person}", "BIZUM DE {person}"),
        "it": ("BONIFICO DA {person}", "ACCREDITO {person}"),
        "nl": ("OVERBOEKING VAN {person}", "Bijschrijving {person}"),
    },
    "atm": {
        "en": ("CASH WITHDRAWAL {city}", "ATM {city}"),
        "de": ("Bargeldauszahlung {city}", "GA {city}"),
        "fr": ("RETRAIT DAB {city}",),
        "es": ("REINTEGRO CAJERO {city}",),
        "it": ("PRELIEVO BANCOMAT {city}",),
        "nl": ("GELDAUTOMAAT {city}", "GEA {city}"),
    },
    "fee": {
        "en": ("MONTHLY ACCOUNT FEE", "INTEREST PAID", "OVERDRAFT INTEREST"),
        "de": ("Kontoführungsentgelt", "Abschluss Zinsen", "Entgelt girocard"),
        "fr": ("FRAIS TENUE DE COMPTE", "COTISATION CARTE", "INTERETS CREDITEURS"),
        "es": ("COMISIÓN MANTENIMIENTO", "INTERESES"),
        "it": ("CANONE MENSILE CONTO", "IMPOSTA DI BOLLO", "COMPETENZE DI CHIUSURA"),
        "nl": ("KOSTEN BETAALPAKKET", "RENTE"),
    },
}
_KINDS = (
    ("card", 0.42),
    ("debit", 0.15),
    ("out", 0.12),
    ("in", 0.08),
    ("atm", 0.08),
    ("fee", 0.05),
    ("salary", 0.1),
)
_AMOUNTS = {
    "card": (3, 180, -1),
    "debit": (15, 250, -1),
    "out": (10, 900, -1),
    "in": (10, 600, 1),
    "atm": (20, 300, -1),
    "fee": (1, 15, -1),
    "salary": (1800, 5200, 1),
}


@dataclass(frozen=True)
class Entry:
    booked: date
    value: date
    text: str
    reference: str
    amount: Decimal  # signed: credits positive
    balance: Decimal


@dataclass(frozen=True)
class StatementData:
    locale: Locale
    bank: Organisation
    person: Person
    title: str
    address: Address
    account: Account
    number: str
    start: date
    end: date
    issued: date
    opening: Decimal
    entries: tuple[Entry, ...]
    closing: Decimal


def _period(rng: np.random.Generator) -> tuple[date, date]:
    year, month = int(rng.integers(2022, 2027)), int(rng.integers(1, 13))
    if chance(rng, 0.75):  # a calendar month
        return date(year, month, 1), date(year, month, calendar.monthrange(year, month)[1])
    start = date(year, month, int(rng.integers(1, 29)))
    return start, start + timedelta(days=int(pick(rng, (27, 29, 30, 30, 34))))


def sample_statement(rng: np.random.Generator, pages_hint: int, density: float = 1.0) -> StatementData:
    """The content of a statement long enough for about ``pages_hint`` pages (``density``
    scales the number of entries for layouts that spend two lines on each)."""
    locale = sample_locale(rng)
    lang = locale.language
    person = sample_person(rng, lang)
    address = sample_address(rng, locale)
    bank = blocks.sample_organisation(rng, locale, sector_name(rng, locale, "bank", address.city.title()))
    start, end = _period(rng)
    low, high = {1: (8, 22), 2: (36, 62), 3: (85, 110)}[pages_hint]
    count = round(int(rng.integers(low, high)) * density)
    opening = money(rng.uniform(-400, 9000))
    employer = company_name(rng, locale)
    utility = sector_name(
        rng, locale, pick(rng, ("electricity", "telecom", "water", "gas")), address.city.title()
    )
    landlord = sample_person(rng, lang).printed
    merchants = [
        pick(rng, lexicon.BRANDS) + pick(rng, (" Market", " Café", " Store", "", " Shop", " GmbH", " SARL"))
        for _ in range(8)
    ]
    days = sorted(random_date(rng, start, end) for _ in range(count))
    balance = opening
    entries: list[Entry] = []
    payday = int(rng.integers(0, max(1, count // 2)))  # every statement sees one salary credit
    for i, day in enumerate(days):
        kind = pick_weighted(rng, _KINDS)
        if i == payday:
            kind = "salary"
        elif kind == "salary":
            kind = "card"
        low, high, sign = _AMOUNTS[kind]
        amount = money(rng.uniform(low, high)) * sign
        if kind == "atm":
            amount = Decimal(-int(pick(rng, (20, 40, 50, 60, 100, 150, 200, 250))))
        template = pick(rng, _TEMPLATES[kind].get(lang, _TEMPLATES[kind]["en"]))
        org = (
            utility
            if kind == "debit" and chance(rng, 0.6)
            else (employer if kind == "salary" else (landlord if kind == "debit" else pick(rng, merchants)))
        )
        text = template.format(
            merchant=pick(rng, merchants).upper() if chance(rng, 0.5) else pick(rng, merchants),
            city=pick(rng, lexicon.CITIES[locale.country.code])[0].upper(),
            org=org,
            person=sample_person(rng, lang).printed,
        )
        if i == 0 and chance(rng, 0.5):  # rent early in the month
            text = {
                "de": "Dauerauftrag Miete",
                "fr": "VIR PERMANENT LOYER",
                "es": "ALQUILER VIVIENDA",
                "it": "AFFITTO",
                "nl": "HUUR",
            }.get(lang, "STANDING ORDER RENT") + f" {landlord}"
            amount = -money(rng.uniform(550, 1900))
        balance += amount
        value = day + timedelta(days=int(pick(rng, (0, 0, 0, 1, 2))))
        entries.append(Entry(day, value, text, digits(rng, int(rng.integers(6, 12))), amount, balance))
    issued = end + timedelta(days=int(pick(rng, (0, 1, 1, 2, 3, 5))))
    title = courtesy_title(rng, person, lang) if chance(rng, 0.5) else ""
    return StatementData(
        locale=locale,
        bank=bank,
        person=person,
        title=title,
        address=address,
        account=bank.account,
        number=f"{int(rng.integers(1, 13))}/{end.year}"
        if chance(rng, 0.5)
        else str(int(rng.integers(1, 400))),
        start=start,
        end=end,
        issued=issued,
        opening=opening,
        entries=tuple(entries),
        closing=balance,
    )


class _Print:
    def __init__(self, d: StatementData, rng: np.random.Generator, lab: Labeler) -> None:
        self.d = d
        self.lab = lab
        self.printed: dict[str, str] = {}
        self.numeric = short_date_style(d.locale.date_style)
        if self.numeric == "iso" and chance(rng, 0.5):
            self.numeric = "dmy/" if d.locale.country.code != "US" else "mdy/"
        self.upper_holder = chance(rng, 0.4)
        self.period_sep = pick(
            rng,
            {
                "en": (" - ", " to ", " \u2013 "),
                "de": (" - ", " bis ", " \u2013 "),
                "fr": (" au ", " - "),
                "es": (" - ", " al ", " a "),
                "it": (" - ", " al "),
                "nl": (" - ", " t/m ", " tot en met "),
            }[d.locale.language],
        )
        if d.locale.country.code == "US":
            self.period_sep = pick(rng, (" through ", " - ", " to "))
        self.period_long = chance(rng, 0.4)

    def date(self, value: date, long: bool = True) -> str:
        return format_date(value, self.d.locale.date_style if long else self.numeric, self.d.locale.language)

    def num(self, value: Decimal) -> str:
        return format_number(value, self.d.locale.money_style)

    def money(self, value: Decimal) -> str:
        return format_money(value, self.d.locale.money_style)

    def statement_date(self) -> str:
        text = self.date(self.d.issued)
        self.printed["document_date"] = text
        return text

    def period(self) -> str:
        a = self.date(self.d.start, long=self.period_long)
        b = self.date(self.d.end, long=self.period_long)
        self.printed["statement_period_start"] = a
        self.printed["statement_period_end"] = b
        prefix = (
            {"fr": "du ", "es": "del ", "it": "dal "}.get(self.d.locale.language, "")
            if self.period_sep.strip() in ("au", "al", "a")
            else ""
        )
        return f"{prefix}{a}{self.period_sep}{b}"

    def addressee(self, rng: np.random.Generator) -> list[str]:
        d = self.d
        name = d.person.printed.upper() if d.address.lines[0].isupper() else d.person.printed
        self.printed["full_name"] = name
        self.printed["address_street"] = d.address.street
        self.printed["address_city"] = d.address.city
        self.printed["address_postal_code"] = d.address.postal_code
        if d.address.region:
            self.printed["address_region"] = d.address.region
        if d.title and d.locale.language == "de" and chance(rng, 0.6):
            return [d.title, name, *d.address.lines]
        return [f"{d.title} {name}".strip(), *d.address.lines]

    def holder(self) -> str:
        name = self.d.person.printed.upper() if self.upper_holder else self.d.person.printed
        self.printed["account_holder"] = name
        return name

    def account_rows(self) -> list[tuple[str, str]]:
        """IBAN and BIC, or account and routing numbers where IBANs are not used."""
        acc = self.d.account
        lab = self.lab
        if acc.iban:
            self.printed["iban_or_account_number"] = acc.iban_printed
            rows = [(lab("iban"), acc.iban_printed), (lab("bic"), acc.bic)]
            if acc.sort_code:
                rows.insert(
                    1, ("Sort code" if self.d.locale.language == "en" else lab("reference"), acc.sort_code)
                )
            return rows
        self.printed["iban_or_account_number"] = acc.number
        routing = "Routing number" if self.d.locale.country.code == "US" else "Transit/Institution"
        return [(lab("account_number"), acc.number), (routing, acc.sort_code)]

    def bank_name(self, name: str) -> None:
        self.printed["issuer_name"] = name


def _continuation(p: _Print, bank: str) -> Callable[[Writer], float]:
    """The small header of a continuation page: bank, statement title and account."""

    def header(writer: Writer) -> float:
        pen, style = writer.pen, writer.style
        m = style.margin
        pen.text(m, m, bank, style.size * 1.1, bold=True, color=style.accent)
        acc = p.d.account
        pen.text(
            writer.size[0] - m,
            m,
            f"{p.lab.title('statement')} · {acc.iban_printed or acc.number}",
            style.size * 0.85,
            color=style.muted,
            align="r",
        )
        pen.rule(m, writer.size[0] - m, m + 3, style.muted)
        return m + 14

    return header


def _transactions(
    writer: Writer,
    p: _Print,
    rng: np.random.Generator,
    y: float,
    x0: float,
    x1: float,
    mode: str,
    variant: str,
) -> float:
    """The transaction table; ``mode``: "split" (debit | credit | balance), "signed" (one signed
    amount | balance), "sh" (amount with S/H, German), "lines" (two-line entries)."""
    d, lab = p.d, p.lab
    short = lambda v: p.date(v, long=False)  # noqa: E731
    rows: list[list[str]] = []
    if mode == "split":
        cols = [
            Column(lab("booking_date").rstrip(":"), 0.14),
            Column(lab("transaction").rstrip(":"), 0.44),
            Column(lab("money_out").rstrip(":"), 0.14, "r"),
            Column(lab("money_in").rstrip(":"), 0.14, "r"),
            Column(lab("balance").rstrip(":"), 0.14, "r"),
        ]
        rows.append(["", lab.raw("opening_balance"), "", "", p.num(d.opening)])
        for e in d.entries:
            rows.append(
                [
                    short(e.booked),
                    e.text,
                    p.num(-e.amount) if e.amount < 0 else "",
                    p.num(e.amount) if e.amount > 0 else "",
                    p.num(e.balance),
                ]
            )
        rows.append(["", lab.raw("closing_balance"), "", "", p.num(d.closing)])
    elif mode == "signed":
        cols = [
            Column(lab("booking_date").rstrip(":"), 0.14),
            Column(lab("value_date").rstrip(":"), 0.14),
            Column(lab("transaction").rstrip(":"), 0.44),
            Column(lab("txn_amount").rstrip(":"), 0.14, "r"),
            Column(lab("balance").rstrip(":"), 0.14, "r"),
        ]
        for e in d.entries:
            rows.append([short(e.booked), short(e.value), e.text, p.num(e.amount), p.num(e.balance)])
    elif mode == "sh":
        cols = [
            Column(lab("booking_date").rstrip(":"), 0.13),
            Column(lab("value_date").rstrip(":"), 0.11),
            Column(lab("transaction").rstrip(":"), 0.56),
            Column(lab("txn_amount").rstrip(":"), 0.2, "r"),
        ]
        suffix = chance(rng, 0.5)
        for e in d.entries:
            amount = p.num(abs(e.amount))
            amount = (
                f"{amount} {'H' if e.amount > 0 else 'S'}"
                if suffix
                else f"{amount} {'+' if e.amount > 0 else '-'}"
            )
            rows.append(
                [
                    short(e.booked)[:6] if p.numeric == "dmy." else short(e.booked),
                    short(e.value)[:6] if p.numeric == "dmy." else short(e.value),
                    e.text,
                    amount,
                ]
            )
    else:
        cols = [
            Column(lab("booking_date").rstrip(":"), 0.16),
            Column(lab("transaction").rstrip(":"), 0.54),
            Column(lab("txn_amount").rstrip(":"), 0.15, "r"),
            Column(lab("balance").rstrip(":"), 0.15, "r"),
        ]
        for e in d.entries:
            rows.append([short(e.booked), e.text, p.num(e.amount), p.num(e.balance)])
            rows.append(["", f"{lab.raw('reference')} {e.reference}", "", ""])
    return blocks.table(writer, y, x0, x1, cols, rows, variant, size=writer.style.size * 0.9, reserve=20)


def _info_rows(p: _Print, rng: np.random.Generator) -> list[tuple[str, str]]:
    lab = p.lab
    rows = [
        (lab("statement_date"), p.statement_date()),
        (lab("account_holder"), p.holder()),
        *p.account_rows(),
    ]
    rows.insert(int(rng.integers(1, len(rows) + 1)), (lab("statement_period"), p.period()))
    if chance(rng, 0.4):
        rows.append(
            (lab.raw("statement").split()[0] + " Nr." if p.d.locale.language == "de" else "No.", p.d.number)
        )
    return rows


def _classic(d: StatementData, rng: np.random.Generator) -> tuple[list[Page], dict[str, str]]:
    style = sample_style(rng)
    lab = Labeler(d.locale.language, rng, upper=style.upper_labels, colon=style.colon)
    p = _Print(d, rng, lab)
    size = blocks.paper_size(d.locale)
    writer = Writer(style, size, lab, bottom_margin=25)
    pen = writer.pen
    m = style.margin
    right = size[0] - m
    _, name = blocks.letterhead(pen, rng, d.bank, m, m - 4, detail=chance(rng, 0.4))
    p.bank_name(name)
    writer.continuation = _continuation(p, name)
    blocks.address_block(pen, m, 58, p.addressee(rng))
    blocks.kv_rows(pen, size[0] * 0.5, 50, _info_rows(p, rng), 30, size=style.size * 0.9)
    y = 100.0
    pen.text(
        m,
        y,
        f"{lab.title('statement')} - {lab.raw('account_type')}"
        if chance(rng, 0.5)
        else lab.title("statement"),
        style.size * 1.5,
        bold=True,
        color=style.accent,
        face=style.heading,
    )
    y = _transactions(writer, p, rng, y + 10, m, right, "split", pick(rng, ("shaded", "lines", "zebra")))
    writer.number_pages(rng, top=True)
    return writer.pages, p.printed


def _summary(d: StatementData, rng: np.random.Generator) -> tuple[list[Page], dict[str, str]]:
    style = sample_style(rng)
    lab = Labeler(d.locale.language, rng, upper=chance(rng, 0.5), colon=False)
    p = _Print(d, rng, lab)
    size = blocks.paper_size(d.locale)
    writer = Writer(style, size, lab)
    pen = writer.pen
    m = style.margin
    right = size[0] - m
    band = float(rng.uniform(20, 30))
    pen.rect(0, 0, size[0], band, fill=style.accent)
    name = d.bank.name.upper() if chance(rng, 0.4) else d.bank.name
    pen.text(m, band * 0.62, name, style.size * 1.9, bold=True, color=(255, 255, 255), face=style.heading)
    pen.text(right, band * 0.62, lab.title("statement"), style.size * 1.2, color=(255, 255, 255), align="r")
    p.bank_name(name)
    writer.continuation = _continuation(p, name)
    y = band + 12
    blocks.address_block(pen, m, y, p.addressee(rng), bold_name=True)
    blocks.kv_rows(pen, size[0] * 0.5, y, _info_rows(p, rng), 30, size=style.size * 0.9)
    y += 42
    money_in = sum((e.amount for e in d.entries if e.amount > 0), Decimal(0))
    money_out = -sum((e.amount for e in d.entries if e.amount < 0), Decimal(0))
    cells = [
        (lab("opening_balance"), p.money(d.opening)),
        (lab("money_in"), p.money(money_in)),
        (lab("money_out"), p.money(money_out)),
        (lab("closing_balance"), p.money(d.closing)),
    ]
    y = blocks.kv_boxes(pen, m, y, right - m, cells, boxed=chance(rng, 0.5), fill=style.shade) + 10
    y = _transactions(writer, p, rng, y, m, right, "signed", "zebra")
    writer.number_pages(rng, top=False)
    return writer.pages, p.printed


def _kontoauszug(d: StatementData, rng: np.random.Generator) -> tuple[list[Page], dict[str, str]]:
    style = sample_style(rng, mono=chance(rng, 0.3))
    lab = Labeler(d.locale.language, rng, upper=chance(rng, 0.5), colon=True)
    p = _Print(d, rng, lab)
    size = blocks.paper_size(d.locale)
    writer = Writer(style, size, lab, bottom_margin=22)
    pen = writer.pen
    m = style.margin
    right = size[0] - m
    name = d.bank.name
    pen.text(right, m, name, style.size * 1.6, bold=True, color=style.accent, align="r", face=style.heading)
    p.bank_name(name)
    writer.continuation = _continuation(p, name)
    blocks.address_block(pen, m, 50, p.addressee(rng))
    y = 90.0
    title = f"{lab.title('statement')} {d.number}"
    pen.text(m, y, title, style.size * 1.4, bold=True)
    y += 8
    rows = _info_rows(p, rng)
    half = (len(rows) + 1) // 2
    blocks.kv_rows(pen, m, y, rows[:half], 30, size=style.size * 0.9)
    blocks.kv_rows(pen, size[0] * 0.52, y, rows[half:], 25, size=style.size * 0.9)
    y += pen.step(style.size * 0.9, 1.45) * half + 6
    pen.text(m, y, lab("opening_balance"), bold=True)
    pen.text(right, y, p.money(d.opening), bold=True, align="r")
    y = _transactions(writer, p, rng, y + 9, m, right, "sh", pick(rng, ("plain", "lines")))
    pen = writer.pen
    pen.text(m, y + 4, lab("closing_balance"), bold=True)
    pen.text(right, y + 4, p.money(d.closing), bold=True, align="r")
    writer.number_pages(rng, top=True)
    return writer.pages, p.printed


def _checking(d: StatementData, rng: np.random.Generator) -> tuple[list[Page], dict[str, str]]:
    style = sample_style(rng)
    lab = Labeler(d.locale.language, rng, upper=chance(rng, 0.4), colon=False)
    p = _Print(d, rng, lab)
    size = blocks.paper_size(d.locale)
    writer = Writer(style, size, lab)
    pen = writer.pen
    m = style.margin
    right = size[0] - m
    _, name = blocks.letterhead(pen, rng, d.bank, m, m - 4, detail=False)
    p.bank_name(name)
    writer.continuation = _continuation(p, name)
    pen.text(right, m + 4, lab.raw("account_type"), style.size * 1.3, bold=True, align="r")
    pen.text(right, m + 10, p.period(), style.size, align="r")
    y = m + 26
    blocks.address_block(pen, m, y, p.addressee(rng))
    rows = [
        (lab("account_holder"), p.holder()),
        *p.account_rows(),
        (lab("statement_date"), p.statement_date()),
    ]
    blocks.kv_rows(pen, size[0] * 0.52, y, rows, 30, size=style.size * 0.9)
    y += 34
    pen.text(m, y, lab.title("summary"), style.size * 1.2, bold=True, color=style.accent)
    y += 7
    money_in = sum((e.amount for e in d.entries if e.amount > 0), Decimal(0))
    money_out = -sum((e.amount for e in d.entries if e.amount < 0), Decimal(0))
    y = (
        blocks.kv_rows(
            pen,
            m,
            y,
            [
                (lab("opening_balance"), p.money(d.opening)),
                (lab("money_in"), p.money(money_in)),
                (lab("money_out"), p.money(-money_out)),
                (lab("closing_balance"), p.money(d.closing)),
            ],
            50,
            value_align="r",
            right=m + 110,
        )
        + 6
    )
    short = lambda v: p.date(v, long=False)  # noqa: E731
    for key, positive in (("money_in", True), ("money_out", False)):
        entries = [e for e in d.entries if (e.amount > 0) == positive]
        if not entries:
            continue
        pen = writer.pen
        if y > writer.bottom - 30:
            y = writer.next_page()
            pen = writer.pen
        pen.text(m, y, lab.raw(key), style.size * 1.1, bold=True)
        cols = [
            Column(lab("date").rstrip(":"), 0.15),
            Column(lab("transaction").rstrip(":"), 0.65),
            Column(lab("txn_amount").rstrip(":"), 0.2, "r"),
        ]
        rows_t = [[short(e.booked), e.text, p.num(abs(e.amount))] for e in entries]
        y = blocks.table(writer, y + 8, m, right, cols, rows_t, "lines", size=style.size * 0.9) + 6
    writer.number_pages(rng)
    return writer.pages, p.printed


def _compact(d: StatementData, rng: np.random.Generator) -> tuple[list[Page], dict[str, str]]:
    style = sample_style(rng)
    lab = Labeler(d.locale.language, rng, upper=style.upper_labels, colon=True)
    p = _Print(d, rng, lab)
    size = blocks.paper_size(d.locale)
    writer = Writer(style, size, lab, bottom_margin=22)
    pen = writer.pen
    m = min(style.margin, 16.0)
    right = size[0] - m
    title = lab.title("statement").upper()
    room = right - m - pen.measure(title, style.size * 1.4, bold=True, face=style.heading) - 8
    y, name = blocks.letterhead(pen, rng, d.bank, m, m - 4, detail=True, max_width=room)
    p.bank_name(name)
    writer.continuation = _continuation(p, name)
    pen.text(
        right,
        m + 2,
        title,
        style.size * 1.4,
        bold=True,
        align="r",
        face=style.heading,
    )
    y = max(y, m + 22) + 6
    pen.rect(m, y, right, y + 36, stroke=style.muted, width=0.2)
    blocks.address_block(pen, m + 3, y + 7, p.addressee(rng), size=style.size * 0.95)
    blocks.kv_rows(pen, size[0] * 0.5, y + 7, _info_rows(p, rng), 28, size=style.size * 0.85)
    y += 46
    pen.text(m, y, f"{lab('opening_balance')} {p.money(d.opening)}", bold=True)
    pen.text(right, y, f"{lab('closing_balance')} {p.money(d.closing)}", bold=True, align="r")
    y = _transactions(writer, p, rng, y + 10, m, right, "lines", "lines")
    writer.number_pages(rng, top=False)
    return writer.pages, p.printed


_LAYOUT_FUNCS = {
    "classic": _classic,
    "summary": _summary,
    "kontoauszug": _kontoauszug,
    "checking": _checking,
    "compact": _compact,
}


def compose(rng: np.random.Generator) -> Composition:
    """A bank statement of one to three pages, with its truth."""
    layout = pick_weighted(rng, LAYOUTS)
    pages_hint = pick_weighted(rng, ((1, 0.25), (2, 0.45), (3, 0.3)))
    data = sample_statement(rng, pages_hint, density=0.55 if layout == "compact" else 1.0)
    pages, printed = _LAYOUT_FUNCS[layout](data, rng)
    name = canonical_text(data.person.printed)
    fields = {
        "full_name": name,
        **data.address.truth(),
        "document_date": data.issued.isoformat(),
        "issuer_name": canonical_text(data.bank.name),
        "account_holder": name,
        "iban_or_account_number": data.account.truth,
        "statement_period_start": data.start.isoformat(),
        "statement_period_end": data.end.isoformat(),
    }
    return Composition(
        document_type="bank_statement",
        pages=pages,
        fields=fields,
        printed=printed,
        layout=layout,
        meta={
            "country": data.locale.country.code,
            "language": data.locale.language,
            "date_style": data.locale.date_style,
            "transactions": len(data.entries),
        },
        px_per_mm=(6.5, 8.0),
    )
