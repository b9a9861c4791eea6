"""Bank statements: the proof-of-address fields plus account_holder, iban_or_account_number,
statement_period_start and statement_period_end (ARCHITECTURE §3.2).

The account is the first valid IBAN printed (check digits verified), else the number after an
"Account number" label as its digits. The period is two dates on one line ("01.03.2026 -
31.03.2026", "du 1 mars 2026 au 31 mars 2026"), preferably after a period label, the first one
earlier than the second.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date
from itertools import pairwise

from engines.business.address import address_fields
from engines.business.fields import (
    Candidate,
    PageIndex,
    Parsed,
    Parser,
    account_parser,
    candidates,
    confidence,
    empty,
    enclosing,
    field,
    iban_parser,
    page_source,
)
from engines.business.money import date_preference, document_currency
from engines.business.names import (
    LEGAL_SUFFIX,
    clean_organisation,
    clean_person,
    looks_like_name,
    looks_like_street,
    party_name_parser,
    respace_fields,
)
from engines.knowledge import KNOWLEDGE, alternation
from engines.layout import Line, PageText
from engines.spec import FIELDS as SPEC_FIELDS
from engines.types import Check, Extracted, FieldResult
from engines.validators import find_dates, find_iban

FIELDS = SPEC_FIELDS["bank_statement"]
# The word or symbol between a period's two dates ("bis", "au", "tot en met", "-"), and a word
# before its first date ("du", "vom").
_JOINER = re.compile(rf"^\s*({alternation(KNOWLEDGE.words('period_joiners'))})?\s*$", re.IGNORECASE)
_OPENER = re.compile(rf"^(?:{alternation(KNOWLEDGE.words('period_openers'))})\s+", re.IGNORECASE)


def read_bank_statement(pages: list[PageText]) -> Extracted:
    """Read a bank statement's addressee, address, account and period."""
    source = page_source(pages)
    if not pages or not any(page.lines for page in pages):
        return Extracted(fields={name: empty(source) for name in FIELDS}, checks=[])
    fields = address_fields(pages)
    indexes = [PageIndex(page) for page in pages]

    holder = _holder(indexes)
    if holder is not None:
        fields["account_holder"] = field(holder.value, confidence(0.85, holder.score), holder, source)
    elif fields["full_name"].value is not None:
        name = fields["full_name"]
        fields["account_holder"] = FieldResult(
            name.value, round(name.confidence * 0.9, 3), name.page, name.bbox, name.source, name.valid
        )
    else:
        fields["account_holder"] = empty(source)
    if fields["full_name"].value is None and holder is not None:
        fields["full_name"] = fields["account_holder"]

    account, valid, account_conf = _account(indexes)
    fields["iban_or_account_number"] = (
        field(account.value, confidence(account_conf, account.score), account, source, valid=valid)
        if account is not None
        else empty(source)
    )

    currency, _, _ = document_currency(indexes)
    period = _period(indexes, date_preference(indexes, currency))
    checks: list[Check] = []
    if period is not None:
        cand, conf = period
        assert isinstance(cand.raw, tuple)
        start: date = cand.raw[0]
        end: date = cand.raw[1]
        fields["statement_period_start"] = field(
            start.isoformat(), confidence(conf, cand.score), cand, source, valid=True
        )
        fields["statement_period_end"] = field(
            end.isoformat(), confidence(conf, cand.score), cand, source, valid=True
        )
        checks.append(Check("statement_period_order", start <= end, "the period starts before it ends"))
    else:
        fields["statement_period_start"] = empty(source)
        fields["statement_period_end"] = empty(source)
    if account is not None and valid is not None:
        checks.append(
            Check("iban_checksum", valid, "IBAN check digits" + (" verified" if valid else " wrong"))
        )
    fields = respace_fields({name: fields[name] for name in FIELDS}, indexes)
    return Extracted(fields=fields, checks=checks)


def _holder(indexes: Sequence[PageIndex]) -> Candidate | None:
    for cand in candidates(indexes, ("holder",), party_name_parser):
        text = str(cand.raw)
        if not looks_like_name(text) or looks_like_street(text):
            continue
        value = clean_organisation(text) if LEGAL_SUFFIX.search(text) else clean_person(text)
        if len(value) >= 3:
            return Candidate(value, text, cand.line, cand.bbox, cand.hit, cand.where)
    return None


_IBAN_VERIFIED = 0.95  # raw confidence of an IBAN whose check digits pass as read
_IBAN_REPAIRED = 0.8  # ... once a letter read as a digit (or back) was put where the format wants it
_ACCOUNT_NUMBER = 0.7  # ... of a domestic account number, which nothing verifies
# an IBAN's country and check digits: an account "number" read off such a line is a broken IBAN
_IBAN_START = re.compile(r"(?<![A-Za-z0-9])[A-Z]{2}\d{2}")


def _account(indexes: Sequence[PageIndex]) -> tuple[Candidate | None, bool | None, float]:
    """(account, whether it is a verified IBAN, raw confidence). A labelled IBAN first, then any
    valid IBAN on the pages, then one a class repair makes valid, then a labelled account number
    (its digits), which is invalid where its line starts like an IBAN that failed its check."""
    labelled = candidates(indexes, ("iban",), iban_parser)
    if labelled:
        return labelled[0], True, _IBAN_VERIFIED
    for repair, conf in ((False, _IBAN_VERIFIED), (True, _IBAN_REPAIRED)):
        for index in indexes:
            for line in index.page.lines:
                found = find_iban(line.text, repair=repair)
                if found is not None:
                    value, start, end = found
                    bbox = line.span_bbox(start, end)
                    return Candidate(value, value, line, bbox, None, "unlabelled"), True, conf
    for cand in candidates(indexes, ("account_number",), account_parser):
        digits = re.sub(r"\D", "", cand.value)
        if len(digits) >= 6:
            broken_iban = _IBAN_START.search(cand.line.text) is not None
            account = Candidate(digits, cand.raw, cand.line, cand.bbox, cand.hit, cand.where)
            return account, False if broken_iban else None, _ACCOUNT_NUMBER
    return None, None, _ACCOUNT_NUMBER


_MISREAD_JOINER = re.compile(r"^[^\W\d_]{1,8}$")


def period_parser(prefer: str | None, *, joined: bool = False) -> Parser:
    """Two dates joined by a dash or a word ("to", "bis", "au", "al", "tot"), the first earlier: a
    day joined to itself is a ledger row's booking and value dates ("27.11.2026 27.11.2026"),
    never a statement's period. ``joined``: the dates must be joined by a dash or a word, not
    by space alone (a row no period label points at: a ledger row's two dates are spaced)."""

    def parse(text: str) -> Parsed | None:
        found = find_dates(text, prefer=prefer)
        for first, second in pairwise(found):
            # a joiner is a word: a digit in it is a letter OCR misread ("01/11/2026t0 30/11/2026")
            between = text[first.end : second.start].strip().replace("0", "o")
            joiner = _OPENER.sub("", between)
            # after a period's label, any short word joins its two dates: OCR's "rough" of
            # "through" too
            known = _JOINER.match(joiner) or (not joined and _MISREAD_JOINER.match(joiner))
            if not known or (joined and not joiner) or first.value >= second.value:
                continue
            value = f"{first.value.isoformat()}/{second.value.isoformat()}"
            raw: tuple[date, date] = (first.value, second.value)
            return Parsed(value, raw, first.start, second.end)
        return None

    return parse


def _period(indexes: Sequence[PageIndex], prefer: str) -> tuple[Candidate, float] | None:
    """The statement period: after a period label (on its line, to its right or below it), else
    the first row of the pages that holds two joined dates. OCR may split "01.03.2026 - 31.03.2026"
    into several boxes, so rows are also read as one text."""
    parse = period_parser(prefer)
    labelled = candidates(indexes, ("period",), parse)
    if labelled:
        return labelled[0], 0.9
    parse_joined = period_parser(prefer, joined=True)
    found: list[tuple[Candidate, float]] = []
    for index in indexes:
        for number, row in enumerate(index.rows):
            text = " ".join(line.text for line in row)
            # joined dates only: a ledger row's spaced booking and value dates may share the row
            # with a period label's word ("TRANSFER FROM"), which points at no date before it
            parsed = parse_joined(text)
            if parsed is None:
                continue
            keys = {hit.key for line in row for hit in index.hits[id(line)]}
            bbox = enclosing(x.bbox for x in row)
            line = Line(text=text, score=min(x.score for x in row), bbox=bbox, page=row[0].page)
            conf = 0.85 if "period" in keys else 0.65
            found.append((Candidate(parsed.value, parsed.raw, line, bbox, None, f"row{number}"), conf))
    if not found:
        return None
    return max(found, key=lambda item: item[1])
