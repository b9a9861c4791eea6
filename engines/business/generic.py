"""The generic reader of a tenant's own document type: label proximity, driven by the schema.

No reader was written for a payslip or a tax assessment, but such documents print their values
beside labels as invoices do. For each field of the tenant's schema the reader looks for the
field's words on the page — its title, its name, and the phrases of its description ("Net pay,
take-home pay or amount paid") — as labels, and reads the value the label points at with the
business readers' own finder (:func:`engines.business.fields.find_value`: after the label on its
line, else to its right, else below it), parsed by the field's format.

It knows nothing of the document's layout, so its confidences are lowered (``GENERIC_FACTOR``)
and the result carries a ``generic_reader`` check saying which reader made it: a first reading for
a person to confirm, until a calibration map for the type says otherwise.

Every regular expression made of what the tenant wrote — the code patterns, the label phrases,
the enum values — is matched by RE2 on bounded text (``engines.tenant_patterns``): this runs in
the shared pipeline, where a backtracking match would stall every tenant.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from engines.business.fields import (
    Candidate,
    PageIndex,
    Parsed,
    Parser,
    amount_parser,
    code_parser,
    confidence,
    date_parser,
    empty,
    field,
    find_value,
    page_source,
    text_parser,
)
from engines.business.labels import LabelHit
from engines.custom_types import CustomField, CustomSchema
from engines.knowledge import KNOWLEDGE
from engines.layout import PageText
from engines.tenant_patterns import PatternRefused, TokenFinder, code_finder, escape, token_finder
from engines.types import Check, Extracted, FieldResult
from engines.validators import detect_currency, fold

READER_NAME = "generic-label-reader"
# A generic reading is a first reading: what a type's own reader would read at 0.9 is worth less.
GENERIC_FACTOR = 0.6
# How far the value sits from its label, as a factor of the confidence.
_WHERE = {"same_line": 1.0, "right": 0.95, "below": 0.85}
# The title names the field; its name and its description's phrases are weaker labels.
_TITLE, _ALIAS = 1.0, 0.9
# A description phrase longer than this is prose, not a label.
_MAX_PHRASE_WORDS = 4
# a description's alternatives: punctuation, or a language's "or" (engines/knowledge/lang/*.toml)
_PHRASE_SPLIT = re.compile(
    r"[,;/()]|\b(?:" + "|".join(re.escape(w) for w in KNOWLEDGE.words("alternative_words")) + r")\b",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class _Phrase:
    field: str
    regex: TokenFinder
    weight: float


def _phrase_regex(phrase: str) -> TokenFinder | None:
    """The phrase's words, in order, with any separators between, in folded text: not inside a
    longer word or number before it, not followed by a letter."""
    words = [w for w in re.split(r"[\s_\-.:]+", fold(phrase)) if w]
    if not words:
        return None
    body = r"[\s.:_\-/]*".join(escape(w) for w in words)
    return token_finder(body, before="a-z0-9", after="a-z", literal=words[0])


def label_phrases(custom: CustomSchema) -> list[_Phrase]:
    """Each field's label phrases, the title's first, longest first among the rest."""
    out: list[_Phrase] = []
    for f in custom.fields:
        seen: set[str] = set()
        candidates = [(f.title, _TITLE), (f.name.replace("_", " "), _ALIAS)]
        candidates += [(piece, _ALIAS) for piece in _PHRASE_SPLIT.split(f.description)]
        for phrase, weight in candidates:
            phrase = " ".join(phrase.split())
            key = fold(phrase)
            if not phrase or key in seen or len(phrase.split()) > _MAX_PHRASE_WORDS:
                continue
            seen.add(key)
            regex = _phrase_regex(phrase)
            if regex is not None:
                out.append(_Phrase(f.name, regex, weight))
    return out


def _cut_at_other_labels(parse: Parser, others: Sequence[TokenFinder]) -> Parser:
    """The parser on the text up to the next field's label ("Gross 3500.00  Net 2800.00")."""

    def cut(text: str) -> Parsed | None:
        folded = fold(text)
        starts = [span[0] for regex in others if (span := regex.search(folded)) and span[0] > 0]
        return parse(text[: min(starts)] if starts else text)

    return cut


def _nothing(text: str) -> Parsed | None:
    return None


def _code_parser(pattern: str) -> Parser:
    try:
        finder = code_finder(pattern)
    except PatternRefused:  # a type stored before RE2 checked its patterns: never run by re
        return _nothing

    def parse(text: str) -> Parsed | None:
        span = finder.search(text)
        if span is None:
            return None
        start, end = span
        return Parsed(text[start:end], text[start:end], start, end)

    return parse


def _enum_parser(values: Sequence[str]) -> Parser:
    choices = sorted(values, key=len, reverse=True)

    def parse(text: str) -> Parsed | None:
        folded = fold(text)
        for value in choices:
            regex = _phrase_regex(value)
            span = regex.search(folded) if regex is not None else None
            if span is not None:
                return Parsed(value, value, span[0], span[1])
        return None

    return parse


def _currency_parser(text: str) -> Parsed | None:
    code = detect_currency(text)
    if code is None:
        return None
    return Parsed(code, code, 0, len(text.rstrip()))


def _bounded_text(limit: int | None) -> Parser:
    def parse(text: str) -> Parsed | None:
        parsed = text_parser(text)
        if parsed is None or (limit is not None and len(parsed.value) > limit):
            return None
        return parsed

    return parse


def parser_for(custom_field: CustomField) -> Parser:
    """How a value of the field's format is found in a label's text."""
    if custom_field.format == "date":
        return date_parser("dmy")
    if custom_field.format == "amount":
        return amount_parser(rightmost=False)
    if custom_field.format == "currency":
        return _currency_parser
    if custom_field.format == "code":
        return _code_parser(custom_field.pattern) if custom_field.pattern else code_parser
    if custom_field.format == "enum":
        return _enum_parser(custom_field.enum)
    return _bounded_text(custom_field.max_length)


def _hits(
    indexes: Sequence[PageIndex], phrases: Sequence[_Phrase]
) -> dict[str, list[tuple[LabelHit, float]]]:
    """Every label of every field on the pages, strongest first, then in reading order."""
    found: dict[str, list[tuple[LabelHit, float, int]]] = {}
    order = 0
    for index in indexes:
        for line in index.page.lines:
            folded = fold(line.text)
            for phrase in phrases:
                for start, end in phrase.regex.finditer(folded):
                    hit = LabelHit(f"custom:{phrase.field}", line, start, end)
                    found.setdefault(phrase.field, []).append((hit, phrase.weight, order))
                    order += 1
    return {
        name: [(hit, weight) for hit, weight, _ in sorted(hits, key=lambda h: (-h[1], -h[0].strength, h[2]))]
        for name, hits in found.items()
    }


def read_generic(pages: Sequence[PageText], custom: CustomSchema) -> Extracted:
    """The tenant's fields, in schema order, from the pages' labels."""
    indexes = [PageIndex(page) for page in pages]
    source = page_source(pages)
    phrases = label_phrases(custom)
    hits = _hits(indexes, phrases)
    index_of = {index.page.page: index for index in indexes}
    fields: dict[str, FieldResult] = {}
    for custom_field in custom.fields:
        others = [p.regex for p in phrases if p.field != custom_field.name]
        parse = _cut_at_other_labels(parser_for(custom_field), others)
        chosen: tuple[Candidate, float] | None = None
        for hit, weight in hits.get(custom_field.name, []):
            cand = find_value(index_of[hit.line.page], hit, parse)
            if cand is not None:
                chosen = (cand, weight)
                break
        if chosen is None and custom_field.format == "currency":
            code = detect_currency("\n".join(page.text for page in pages))
            fields[custom_field.name] = (
                field(code, 0.5 * GENERIC_FACTOR, None, source) if code else empty(source)
            )
            continue
        if chosen is None:
            fields[custom_field.name] = empty(source)
            continue
        cand, weight = chosen
        conf = confidence(cand.score, weight, _WHERE.get(cand.where, 0.8), GENERIC_FACTOR)
        fields[custom_field.name] = field(cand.value, conf, cand, source)
    found = sum(1 for f in fields.values() if f.value is not None)
    detail = f"{READER_NAME}: {found} of {len(fields)} fields found by their labels; a first reading"
    return Extracted(fields=fields, checks=[Check("generic_reader", True, detail)])
