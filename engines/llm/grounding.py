"""Grounding: is a value the model wrote printed in the page's own text?

A generative model can write a plausible value that is on no page — a total it computed, a name
from a neighbouring line, a date in another format it made up — at a token probability as high
as a value it copied. Its confidence cannot tell the two apart; the page's text can. A value
found in it is ``grounded`` (engines/spec/evidence.toml); one that is not fails the ``not_grounded``
check, which names the fields (never their values).

The page's text is what the Gemma 4 path has of it: the text layer of a digital PDF. A scanned
page has none, so nothing on it is grounded and no check runs (there was nothing to look in).

Matching is by meaning, not by bytes, because the model writes canonical values (ARCHITECTURE
§3.1) while the page prints them its own way: a date is compared as a date with every date
:func:`engines.validators.find_dates` reads in the text, an amount as a number with every amount
:func:`engines.validators.find_amounts` reads, and text folded (case, accents) with its
whitespace collapsed, on word boundaries so that "12" is not found inside "2012".
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from engines.evidence import GROUNDED, with_evidence
from engines.spec import CATALOGUE
from engines.types import Check, FieldResult
from engines.validators import find_amounts, find_dates, fold

CHECK_NAME = "not_grounded"
# Field kinds (engines/spec/document_types.toml) compared by meaning rather than as text.
DATE_KINDS = frozenset({"date"})
AMOUNT_KINDS = frozenset({"amount"})
# Numeric dates whose day and month could be swapped are read both ways: the page's own order
# is unknown here, and either reading the model made of it is the page's.
DATE_ORDERS = ("dmy", "mdy")

_ISO_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_DECIMAL = re.compile(r"^-?\d+(?:\.\d+)?$")


@dataclass(frozen=True)
class PageTexts:
    """The document's text, read once for every field looked up in it."""

    folded: str  # folded (lower case, no accents), whitespace collapsed
    dates: frozenset[dt.date]
    amounts: frozenset[Decimal]


def page_texts(texts: Sequence[str] | None) -> PageTexts | None:
    """The pages' text ready for lookups; None when there is none (a scanned document)."""
    pages = [t for t in texts or () if t and t.strip()]
    if not pages:
        return None
    lines = [line for page in pages for line in page.splitlines() if line.strip()]
    dates = {m.value for line in lines for order in DATE_ORDERS for m in find_dates(line, prefer=order)}
    amounts = {m.value for line in lines for m in find_amounts(line)}
    return PageTexts(
        folded=_collapsed(fold("\n".join(pages))), dates=frozenset(dates), amounts=frozenset(amounts)
    )


def _collapsed(text: str) -> str:
    return " ".join(text.split())


def _as_date(value: str) -> dt.date | None:
    if not _ISO_DATE.match(value):
        return None
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        return None


def _as_amount(value: str) -> Decimal | None:
    if not _DECIMAL.match(value):
        return None
    try:
        return Decimal(value)
    except InvalidOperation:
        return None


def _in_text(value: str, text: PageTexts) -> bool:
    needle = _collapsed(fold(value))
    if not needle:
        return False
    return re.search(rf"(?<![0-9a-z]){re.escape(needle)}(?![0-9a-z])", text.folded) is not None


def found_in(name: str, value: str, text: PageTexts) -> bool:
    """Is ``value`` (canonical, as the model wrote it for field ``name``) in the page's text?
    A field of the §3.2 catalogue is compared by its kind; a tenant's own field by its value's
    shape (an ISO date as a date, a decimal number as an amount or as printed)."""
    spec = CATALOGUE.fields.get(name)
    kind = spec.kind if spec is not None else None
    if kind in DATE_KINDS or (kind is None and _as_date(value) is not None):
        day = _as_date(value)
        return (day is not None and day in text.dates) or _in_text(value, text)
    if kind in AMOUNT_KINDS or (kind is None and _as_amount(value) is not None):
        amount = _as_amount(value)
        return (amount is not None and amount in text.amounts) or _in_text(value, text)
    return _in_text(value, text)


def ground(
    fields: Mapping[str, FieldResult], texts: Sequence[str] | None
) -> tuple[dict[str, FieldResult], list[Check]]:
    """The fields, each value found in the page's text with ``grounded`` evidence, and the
    ``grounded`` check over the model's own values (a value the MRZ's check digits vouch for is
    the zone's, not the model's): failed, naming the fields, when any is not in the text. No text
    (a scanned document): the fields as they are and no check."""
    text = page_texts(texts)
    if text is None or not fields:
        return dict(fields), []
    out: dict[str, FieldResult] = {}
    missing: list[str] = []
    for name, found in fields.items():
        if found.value is None or not found.value.strip():
            out[name] = found
        elif found_in(name, found.value, text):
            out[name] = with_evidence(found, GROUNDED)
        else:
            out[name] = found
            if found.source == "model":
                missing.append(name)
    detail = "" if not missing else "not found in the page's text: " + ", ".join(sorted(missing))
    return out, [Check(CHECK_NAME, not missing, detail)]
