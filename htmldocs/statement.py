"""Bank statements in four HTML layouts, one page or several (Chromium paginates long tables).

Fields: the proof-of-address fields (full_name, address_*, document_date = the statement's issue
date, issuer_name = the bank) plus account_holder (the addressee, printed again beside its
caption), iban_or_account_number (the IBAN without spaces; where none is printed, the account
number's digits: US statements, and UK ones that print only sort code and account number),
statement_period_start and statement_period_end. Transactions bring dozens of other dates, names
and amounts, as real statements do.

Layouts: classic (window address, info block, debit/credit/balance columns), band (colour band,
summary cells, signed amounts), ledger (a German-style print-out with booking and value dates and
S/H or +/- amounts between the old and new balance) and checking (US-style summary, then
separate deposit and withdrawal tables).
"""

from __future__ import annotations

import calendar
import random
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal

from htmldocs.banking import Account, sample_account
from htmldocs.data import load
from htmldocs.document import Composed, Output, complete_fields, image_output, random_date
from htmldocs.locales import Locale, cents, sample_locale
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
    Address,
    Organisation,
    Person,
    canonical,
    sample_address,
    sample_organisation,
    sample_person,
)

LAYOUTS = ("classic", "band", "ledger", "checking")


@dataclass(frozen=True)
class Entry:
    booked: date
    text: str
    amount: Decimal  # positive: money in


@dataclass(frozen=True)
class StatementData:
    locale: Locale
    bank: Organisation
    person: Person
    name_printed: str
    title: str
    address: Address
    account: Account
    print_iban: bool
    issued: date
    start: date
    end: date
    opening: Decimal
    entries: tuple[Entry, ...]
    number: int

    @property
    def closing(self) -> Decimal:
        return self.opening + sum((e.amount for e in self.entries), Decimal("0"))

    @property
    def money_in(self) -> Decimal:
        return sum((e.amount for e in self.entries if e.amount > 0), Decimal("0"))

    @property
    def money_out(self) -> Decimal:
        return -sum((e.amount for e in self.entries if e.amount < 0), Decimal("0"))

    @property
    def account_truth(self) -> str:
        return self.account.iban if self.print_iban else self.account.number


def _period(rng: random.Random) -> tuple[date, date]:
    """A calendar month most of the time, otherwise a 28-35 day window ending on any day."""
    anchor = random_date(rng, date(2023, 1, 1), date(2026, 11, 30))
    if rng.random() < 0.7:
        last = calendar.monthrange(anchor.year, anchor.month)[1]
        return date(anchor.year, anchor.month, 1), date(anchor.year, anchor.month, last)
    return anchor - timedelta(days=rng.randint(27, 34)), anchor


def _entries(rng: random.Random, locale: Locale, start: date, end: date, count: int) -> list[Entry]:
    country = locale.country
    orgs = load("organisations")[country]
    people = load("people")[country]
    texts = load("items")["transactions"][locale.language]
    values = {
        "merchant": lambda: rng.choice(orgs["merchants"])[0],
        "utility": lambda: rng.choice(
            orgs["utilities"][rng.choice(["electricity", "gas", "water", "telecom"])]
        ).replace("{city}", rng.choice(load("places")[country]["cities"])[0]),
        "person": lambda: f"{rng.choice(people['f'] + people['m'])} {rng.choice(people['surnames'])}",
        "employer": lambda: rng.choice(orgs["vendors"]),
    }
    out = []
    days = (end - start).days
    for i in range(count):
        # the first entry is an income, so every statement has money in as well as out
        credit = i == 0 or rng.random() < 0.22
        text, low, high = rng.choice(texts["credit" if credit else "debit"][: 1 if i == 0 else None])
        for key, make in values.items():
            if "{" + key + "}" in text:
                text = text.replace("{" + key + "}", make())
        amount = cents(rng.uniform(low, high))
        if low >= 20 and high <= 300 and not credit and rng.random() < 0.5:
            amount = cents(round(amount, -1))  # cash machines pay out round sums
        out.append(Entry(start + timedelta(days=rng.randint(0, days)), text, amount if credit else -amount))
    out.sort(key=lambda e: e.booked)
    return out


def sample_statement(rng: random.Random, *, image: bool) -> StatementData:
    locale = sample_locale(rng)
    country = locale.country
    person = sample_person(rng, country)
    address = sample_address(rng, country)
    bank = sample_organisation(
        rng, country, rng.choice(load("organisations")[country]["banks"]), place=address.place
    )
    account = sample_account(rng, country)
    start, end = _period(rng)
    count = rng.randint(5, 11) if image else rng.randint(6, 30)
    return StatementData(
        locale=locale,
        bank=bank,
        person=person,
        name_printed=person.name.upper() if rng.random() < 0.25 else person.name,
        title=person.title if rng.random() < 0.4 else "",
        address=address,
        account=account,
        print_iban=bool(account.iban) and (country != "GB" or rng.random() < 0.5),
        issued=end + timedelta(days=rng.randint(0, 4)),
        start=start,
        end=end,
        opening=cents(rng.uniform(-300, 9000)),
        entries=tuple(_entries(rng, locale, start, end, count)),
        number=rng.randint(1, 12),
    )


def _account_pairs(d: StatementData, rng: random.Random) -> list[tuple[str, str]]:
    loc, acc = d.locale, d.account
    pairs = []
    if d.print_iban:
        pairs.append((loc.caption("iban"), acc.iban_grouped if rng.random() < 0.8 else acc.iban))
        pairs.append((loc.caption("bic"), acc.bic))
    else:
        pairs.append((loc.caption("st_account_number"), acc.number))
        if loc.country == "GB":
            pairs.append((loc.caption("sort_code"), acc.sort_code))
        elif loc.country == "US":
            pairs.append((loc.caption("routing"), acc.sort_code))
    return pairs


def fragments(d: StatementData, rng: random.Random, layout: str) -> dict[str, str]:
    loc = d.locale
    theme = sample_theme(rng, families=("sans", "serif") if layout != "ledger" else ("sans", "mono"))
    period = loc.caption("period_range", start=loc.date(d.start), end=loc.date(d.end))
    holder_pairs = [(loc.caption("account_holder"), d.name_printed)]
    info = [(loc.caption("st_date"), loc.date(d.issued)), (loc.caption("st_period"), period)]
    account_pairs = _account_pairs(d, rng)
    money = loc.number if rng.random() < 0.7 else loc.money
    day = loc.table_date
    balance = d.opening
    classic_rows, signed_rows, ledger_rows = [], [], []
    sh = rng.random() < 0.5
    for entry in d.entries:
        balance += entry.amount
        debit = money(-entry.amount) if entry.amount < 0 else ""
        credit = money(entry.amount) if entry.amount > 0 else ""
        classic_rows.append([day(entry.booked), entry.text, debit, credit, money(balance)])
        signed = ("+" if entry.amount > 0 else "") + money(entry.amount)
        signed_rows.append([day(entry.booked), entry.text, signed, money(balance)])
        value_day = entry.booked + timedelta(days=rng.choice([0, 0, 0, 1, 2]))
        mark = (" H" if entry.amount > 0 else " S") if sh else ""
        amount_text = (
            money(abs(entry.amount)) + mark if sh else ("+" if entry.amount > 0 else "") + money(entry.amount)
        )
        ledger_rows.append([day(entry.booked), day(value_day), entry.text, amount_text])
    opening_caption, closing_caption = loc.caption("opening"), loc.caption("closing")
    first_day, last_day = loc.date(d.start), loc.date(d.end)
    deposits = [[day(e.booked), e.text, money(e.amount)] for e in d.entries if e.amount > 0]
    withdrawals = [[day(e.booked), e.text, money(-e.amount)] for e in d.entries if e.amount < 0]
    summary = [
        (opening_caption, loc.money(d.opening)),
        (loc.caption("money_in"), loc.money(d.money_in)),
        (loc.caption("money_out"), loc.money(d.money_out)),
        (closing_caption, loc.money(d.closing)),
    ]
    name_line = f"{d.title} {d.name_printed}".strip()
    return {
        "theme_css": theme.css(),
        "page_css": page_css(
            page_label=loc.caption("page"),
            first_top_mm=0 if layout == "band" else 12,
            numbered=rng.random() < 0.8,
        ),
        "logo": logo(rng, d.bank.name),
        "bank_name": esc(d.bank.name),
        "bank_address": lines(d.bank.address.lines),
        "bank_oneline": esc(" · ".join([d.bank.name, *d.bank.address.lines])),
        "bank_contact": lines([f"{loc.caption('help_line')} {d.bank.phone}", d.bank.web]),
        "title": esc(loc.caption("st_title")),
        "number": esc(f"{d.number}/{d.end.year}"),
        "holder_block": lines([name_line, *d.address.lines]),
        "holder_table": pairs_table(holder_pairs + account_pairs, cls="acct"),
        "info_table": pairs_table(info + holder_pairs + account_pairs, cls="info"),
        "dates_table": pairs_table(info, cls="info"),
        "summary_cells": cells(summary),
        "summary_table": pairs_table(summary, cls="summary"),
        "classic_head": head_row(
            [
                loc.caption("txn_date"),
                loc.caption("details"),
                loc.caption("money_out"),
                loc.caption("money_in"),
                loc.caption("balance"),
            ],
            numeric=[2, 3, 4],
        ),
        "classic_rows": table_rows(classic_rows, numeric=[2, 3, 4]),
        "signed_head": head_row(
            [loc.caption("txn_date"), loc.caption("details"), loc.caption("amount"), loc.caption("balance")],
            numeric=[2, 3],
        ),
        "signed_rows": table_rows(signed_rows, numeric=[2, 3]),
        "ledger_head": head_row(
            [
                loc.caption("txn_date"),
                loc.caption("value_date"),
                loc.caption("details"),
                loc.caption("amount"),
            ],
            numeric=[3],
        ),
        "ledger_rows": table_rows(ledger_rows, numeric=[3]),
        "opening_row": f'<tr class="bal"><td colspan="2">{esc(first_day)}</td><td>{esc(opening_caption)}</td>'
        f'<td class="num">{esc(loc.money(d.opening))}</td></tr>',
        "closing_row": f'<tr class="bal"><td colspan="2">{esc(last_day)}</td><td>{esc(closing_caption)}</td>'
        f'<td class="num">{esc(loc.money(d.closing))}</td></tr>',
        "opening_caption": esc(opening_caption),
        "opening": esc(loc.money(d.opening)),
        "closing_caption": esc(closing_caption),
        "closing": esc(loc.money(d.closing)),
        "deposits_caption": esc(loc.caption("money_in")),
        "withdrawals_caption": esc(loc.caption("money_out")),
        "deposits_rows": table_rows(deposits, numeric=[2]),
        "withdrawals_rows": table_rows(withdrawals, numeric=[2]),
        "three_head": head_row(
            [loc.caption("txn_date"), loc.caption("details"), loc.caption("amount")], numeric=[2]
        ),
        "summary_caption": esc(loc.caption("summary")),
        "branch_caption": esc(loc.caption("branch")),
    }


def compose(rng: random.Random) -> Composed:
    """A bank statement of a random bank, holder, locale and layout, with its truth."""
    image = rng.random() < 0.25
    d = sample_statement(rng, image=image)
    weights = (3, 3, 3 if d.locale.country in ("DE", "NL") else 1, 3 if d.locale.country == "US" else 1)
    layout = rng.choices(LAYOUTS, weights=weights)[0]
    html = fill(f"statement_{layout}.html", fragments(d, rng, layout))
    output = image_output(rng) if image else Output("pdf")
    name = canonical(d.name_printed)
    fields = complete_fields(
        "bank_statement",
        {
            "full_name": name,
            **d.address.truth(),
            "document_date": d.issued.isoformat(),
            "issuer_name": canonical(d.bank.name),
            "account_holder": name,
            "iban_or_account_number": d.account_truth,
            "statement_period_start": d.start.isoformat(),
            "statement_period_end": d.end.isoformat(),
        },
    )
    return Composed(
        document_type="bank_statement",
        layout=layout,
        html=html,
        fields=fields,
        output=output,
        printed_total=d.locale.money(d.closing),
        meta={
            "country": d.locale.country,
            "language": d.locale.language,
            "date_style": d.locale.date_pattern,
            "transactions": len(d.entries),
            "iban_printed": d.print_iban,
        },
    )
