"""Is a value of its kind? Plausibility from the field spec, not rules per string.

A reader that picks the wrong line on a layout it never met still returns a well-formed string:
"SUPPORT DEPARTMENT" as a bill's holder, "NOUS CONTACTER" as its issuer, "ACCOUNT REF" as an
invoice's customer. What those have in common is not their text but their kind: a department, a
heading or a form's caption is no party's name. So each field kind of engines/spec brings a test
that holds on any layout, fed by the word lists of every language (engines/knowledge/lang:
``heading_phrases``, ``department_words``, ``field_captions``, ``legal_forms``,
``business_words``) and by engines/spec/plausibility.toml (the order of a document's own dates,
the currencies without cents). A value that fails is kept, named in the ``plausible_values``
check, and never auto-approved (apps.extraction.decision).

Django-free; the check's detail names fields, never values (they are personal data).
"""

from __future__ import annotations

import datetime as dt
import re
import tomllib
from collections.abc import Mapping
from decimal import Decimal, InvalidOperation
from functools import cache
from pathlib import Path

from engines.business.labels import is_title, label_hits
from engines.knowledge import KNOWLEDGE
from engines.layout import Line
from engines.spec import CATALOGUE
from engines.types import Check, FieldResult
from engines.validators import fold

CHECK_NAME = "plausible_values"
_DATA = tomllib.loads((Path(__file__).resolve().parent / "spec" / "plausibility.toml").read_text("utf-8"))
DATE_ORDER: tuple[tuple[str, str], ...] = tuple((a, b) for a, b in _DATA["date_order"])
DATED_BEFORE_READING = frozenset(_DATA["dated_before_reading"])
FUTURE_SLACK = dt.timedelta(days=int(_DATA["future_slack_days"]))
PERSONS_ONLY = frozenset(_DATA["persons_only"])
MINOR_UNITS: Mapping[str, int] = {code: int(units) for code, units in _DATA["minor_units"].items()}

_PARTY_KINDS = frozenset({"person_name", "organisation_name"})
_WORD = re.compile(r"[^\W\d_]+(?:['\u2019-][^\W\d_]+)*")
# A value whose every letter is a label's is the label itself ("INVOICE DATE."), not a name.
_LABEL_COVER = 1.0
# What a name never begins with: the separator of a table's or a form's cells.
_SEPARATORS = frozenset("/\\|:;,-_.&")


@cache
def _words(category: str) -> frozenset[str]:
    return frozenset(fold(w) for w in KNOWLEDGE.words(category))


@cache
def _legal_form() -> re.Pattern[str]:
    return re.compile(
        r"(?<![\w])(?:" + "|".join(KNOWLEDGE.words("legal_forms")) + r")(?![\w])", re.IGNORECASE
    )


def _phrases_cover(folded_words: list[str], phrases: frozenset[str]) -> bool:
    """Do phrases of the list (one or more words each) cover every word, in order?"""
    i = 0
    longest = max((len(p.split()) for p in phrases), default=1)
    while i < len(folded_words):
        for size in range(min(longest, len(folded_words) - i), 0, -1):
            if " ".join(folded_words[i : i + size]) in phrases:
                i += size
                break
        else:
            return False
    return True


def party_reason(field_name: str, value: str) -> str | None:
    """Why a party's name (person or organisation) is not one, or None when it may be."""
    words = [fold(w) for w in _WORD.findall(value)]
    if not words:
        return "holds no word"
    if value.lstrip()[:1] in _SEPARATORS:
        return "begins with a separator"
    named = [fold(w) for w in _WORD.findall(_legal_form().sub(" ", value))]
    if not [w for w in named if w not in _words("legal_form_words")]:
        return "a legal form without a name"
    non_names = _words("field_captions") | _words("department_words") | _words("heading_phrases")
    if _phrases_cover(words, _words("heading_phrases")) or _phrases_cover(words, non_names):
        return "a heading, caption or department"
    if is_title(value):
        return "a document title"
    letters = sum(c.isalpha() for c in value)
    labelled = sum(
        sum(c.isalpha() for c in value[hit.start : hit.end])
        for hit in label_hits(Line(text=value, score=1.0, bbox=(0.0, 0.0, 1.0, 1.0), page=1))
    )
    if letters and labelled >= _LABEL_COVER * letters:
        return "a field's label"
    if field_name in PERSONS_ONLY:
        if _legal_form().search(value) or any(w.upper() in KNOWLEDGE.words("business_words") for w in words):
            return "an organisation, not a person"
        if any(w in _words("department_words") for w in words):
            return "a department, not a person"
    return None


def _date(value: str | None) -> dt.date | None:
    try:
        return dt.date.fromisoformat(value) if value else None
    except ValueError:
        return None


def implausible(fields: Mapping[str, FieldResult], *, today: dt.date) -> dict[str, str]:
    """Field name -> why its value is not of its kind (only fields that fail)."""
    out: dict[str, str] = {}
    for name, found in fields.items():
        spec = CATALOGUE.fields.get(name)
        if spec is None or found.value is None:
            continue
        if spec.kind in _PARTY_KINDS:
            reason = party_reason(name, found.value)
            if reason is not None:
                out[name] = reason
        if name in DATED_BEFORE_READING:
            stated = _date(found.value)
            if stated is not None and stated > today + FUTURE_SLACK:
                out[name] = "dated after the day it is read"
    for earlier, later in DATE_ORDER:
        first = _date(fields[earlier].value) if earlier in fields else None
        second = _date(fields[later].value) if later in fields else None
        if first is not None and second is not None and first > second:
            out.setdefault(earlier, f"after {later}")
            out.setdefault(later, f"before {earlier}")
    currency = fields["currency"].value if "currency" in fields else None
    if currency is not None and currency in MINOR_UNITS:
        for name, found in fields.items():
            spec = CATALOGUE.fields.get(name)
            if spec is not None and spec.kind == "amount" and not _fits_minor_units(found.value, currency):
                out[name] = f"decimals do not fit {currency}"
    return out


def _fits_minor_units(value: str | None, currency: str) -> bool:
    if value is None:
        return True
    try:
        amount = Decimal(value)
    except InvalidOperation:
        return True
    return amount == amount.quantize(Decimal(1).scaleb(-MINOR_UNITS[currency]))


def plausibility_check(found: Mapping[str, str]) -> Check:
    """The ``plausible_values`` check: the fields that fail and why, never their values."""
    if not found:
        return Check(CHECK_NAME, True, "")
    return Check(CHECK_NAME, False, "; ".join(f"{name}: {why}" for name, why in sorted(found.items())))
