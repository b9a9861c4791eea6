"""Pure parsers and validators for the values that business documents print: dates, amounts,
currencies, IBANs and postal codes.

The key-value readers (engines/business) find *where* a value is; these functions decide *what*
it is, in the canonical form of ARCHITECTURE §3.1 (ISO dates, decimal amounts, ISO 4217 codes).
They accept what real documents print in English, German, French, Spanish, Italian and Dutch,
and tolerate what OCR does to them (a time glued to a date, a currency code glued to an amount),
because every reader would otherwise repeat the same work. Nothing here logs values.
"""

from __future__ import annotations

import re
import tomllib
import unicodedata
from collections import Counter
from dataclasses import dataclass
from datetime import date
from decimal import Decimal, InvalidOperation
from pathlib import Path

from engines.knowledge import KNOWLEDGE, alternation

_KNOWLEDGE_DIR = Path(__file__).resolve().parent / "knowledge"

# --------------------------------------------------------------------------------------------
# Dates
# --------------------------------------------------------------------------------------------

# Month names and abbreviations of every language, accents stripped, lower case (engines/knowledge).
_MONTHS: dict[str, int] = KNOWLEDGE.months()

_MONTH_ALT = "|".join(sorted(_MONTHS, key=len, reverse=True))
_DATE_FORMATS = tomllib.loads((_KNOWLEDGE_DIR / "date_formats.toml").read_text(encoding="utf-8"))
# "{day}", "{month}", "{year}": the parts of a date the patterns share
_PARTS = {
    f"{{{name}}}": part.replace("{months}", _MONTH_ALT) for name, part in _DATE_FORMATS["parts"].items()
}


def _date_pattern(pieces: list[str]) -> re.Pattern[str]:
    pattern = "".join(pieces)
    for part, regex in _PARTS.items():
        pattern = pattern.replace(part, regex)
    return re.compile(pattern)


# The ways dates are printed, in the order they are tried (engines/knowledge/date_formats.toml).
_DATE_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (raw["kind"], _date_pattern(raw["pattern"])) for raw in _DATE_FORMATS["patterns"]
)
_NUMERIC_DATE = next(pattern for kind, pattern in _DATE_PATTERNS if kind == "num")


@dataclass(frozen=True)
class DateMatch:
    """A date found in a text: its value, where it is, and whether day and month could be swapped
    (both ≤ 12 in a numeric date), which only the document's other dates or country can settle."""

    value: date
    start: int
    end: int
    ambiguous: bool


def fold(text: str) -> str:
    """Lower case without accents, same length as the input (so match offsets stay valid)."""
    out = []
    for char in text:
        base = unicodedata.normalize("NFKD", char)
        base = "".join(c for c in base if not unicodedata.combining(c)) or char
        out.append(base[0].lower() if len(base[0].lower()) == 1 else char)
    return "".join(out)


def _year(text: str) -> int:
    text = text.lstrip("'")
    value = int(text)
    if len(text) == 2:
        value += 2000 if value < 70 else 1900
    return value


def _make_date(year: int, month: int, day: int) -> date | None:
    if not 1900 <= year <= 2099:
        return None
    try:
        return date(year, month, day)
    except ValueError:
        return None


def find_dates(text: str, *, prefer: str | None = "dmy") -> list[DateMatch]:
    """All dates in ``text``, left to right, without overlaps.

    ``prefer`` settles numeric dates whose day and month could be swapped: "dmy" (most of the
    world), "mdy" (the US), or None to skip them. A date where only one order is possible is
    always returned, whatever ``prefer`` says.
    """
    # OCR reads the "o" of "octobre" as a zero; the length stays the same, so offsets hold.
    folded = re.sub(r"(?<![\d])0(?=[a-z]{2,})|0(?=ct|kt|tt)", "o", fold(text))
    found: list[DateMatch] = []
    for kind, pattern in _DATE_PATTERNS:
        for match in pattern.finditer(folded):
            value, ambiguous = _date_from_match(kind, match, prefer)
            if value is not None:
                found.append(DateMatch(value, match.start(), match.end(), ambiguous))
    found.sort(key=lambda m: (m.start, -(m.end - m.start)))
    out: list[DateMatch] = []
    for item in found:
        if out and item.start < out[-1].end:
            continue
        out.append(item)
    return out


def _date_from_match(kind: str, match: re.Match[str], prefer: str | None) -> tuple[date | None, bool]:
    if kind == "ymd":
        return _make_date(int(match["y"]), int(match["m"]), int(match["d"])), False
    year = _year(match["y"])
    if kind in ("dmy", "mdy"):
        return _make_date(year, _MONTHS[match["m"]], int(match["d"])), False
    a, b = int(match["a"]), int(match["b"])
    dmy = _make_date(year, b, a)
    mdy = _make_date(year, a, b)
    if dmy and mdy and dmy != mdy:
        if prefer == "dmy":
            return dmy, True
        if prefer == "mdy":
            return mdy, True
        return None, True
    return dmy or mdy, False


def parse_date(text: str, *, prefer: str | None = "dmy") -> date | None:
    """The first date in ``text`` (see :func:`find_dates` for the formats and ``prefer``)."""
    matches = find_dates(text, prefer=prefer)
    return matches[0].value if matches else None


def date_order(texts: list[str]) -> str | None:
    """ "dmy" or "mdy" when some numeric date in ``texts`` can only be read one way (31/12 or 12/31),
    else None: a document prints all its dates in one order, so one unambiguous date settles the
    others."""
    votes: Counter[str] = Counter()
    for text in texts:
        for match in _NUMERIC_DATE.finditer(fold(text)):
            a, b = int(match["a"]), int(match["b"])
            if a > 12 and b <= 12:
                votes["dmy"] += 1
            elif b > 12 and a <= 12:
                votes["mdy"] += 1
    if not votes:
        return None
    return votes.most_common(1)[0][0]


# --------------------------------------------------------------------------------------------
# Amounts and currencies
# --------------------------------------------------------------------------------------------

CURRENCIES_FILE = _KNOWLEDGE_DIR / "currencies.toml"
_CURRENCIES = tomllib.loads(CURRENCIES_FILE.read_text(encoding="utf-8"))
_SYMBOLS: dict[str, str] = dict(sorted(_CURRENCIES["symbols"].items(), key=lambda kv: -len(kv[0])))
_CODES = frozenset(_CURRENCIES["codes"]["printed"])
_LOCAL: dict[str, str] = dict(_CURRENCIES["local_abbreviations"])
_SYMBOL_RE = re.compile("|".join(re.escape(s) for s in _SYMBOLS))
_CODE_RE = re.compile(r"(?<![A-Za-z])(" + "|".join(sorted(_CODES)) + r")(?![A-Za-z])")
# A major currency's code with a letter OCR read in lower case ("Balance due UsD").
_MISREAD_CODES = frozenset(_CURRENCIES["codes"]["misread_case"])
_MISREAD_CODE_RE = re.compile(r"(?<![A-Za-z])([A-Z](?=[A-Za-z]*[a-z])[A-Za-z]{2})(?![A-Za-z])")
# Case matters: "FR76..." opens a French IBAN and ".fr" ends a domain; neither is a franc.
_LOCAL_RE = re.compile(r"(?<![\w.@/\-])(RM|Rp|SFr\.?|Fr\.|zł|Kč|Ft)(?![A-Za-z])")
_NEAR_NUMBER = re.compile(r"\d")
# Words before a local currency's abbreviation that make it one ("Amount (RM)", "Jumlah RM").
_MONEY_WORDS = re.compile(rf"({alternation(KNOWLEDGE.words('money_words'))})\W*$", re.I)


def detect_currency(text: str) -> str | None:
    """The ISO 4217 code a text's amounts are in, or None when it prints no currency.

    Symbols and ISO codes count more than local abbreviations (``RM`` for ringgit, ``Rp`` for
    rupiah), which also spell other things ("Roma (RM)" on an Italian address): those count only
    next to a digit, in a column heading such as "Amount (RM)", or alone on a line.
    """
    votes: Counter[str] = Counter()
    for line in text.splitlines() or [text]:
        for match in _SYMBOL_RE.finditer(line):
            votes[_SYMBOLS[match.group()]] += 2 + _near_digit(line, match)
        for match in _CODE_RE.finditer(line):
            votes[match.group(1)] += 3 + _near_digit(line, match)  # "$ ... CAD": the code says which dollar
        for match in _MISREAD_CODE_RE.finditer(line):
            if match.group(1).upper() in _MISREAD_CODES:
                votes[match.group(1).upper()] += 2 + _near_digit(line, match)
        for match in _LOCAL_RE.finditer(line):
            code = _LOCAL.get(fold(match.group(1)).rstrip(".").replace("ł", "l"))
            if not code:
                continue
            if _near_digit(line, match):
                votes[code] += 2
            elif line.strip(" ()[]:.") == match.group(1) or _MONEY_WORDS.search(
                line[: match.start()].rstrip(" (")
            ):
                votes[code] += 1
    if not votes:
        return None
    return votes.most_common(1)[0][0]


def _near_digit(text: str, match: re.Match[str]) -> int:
    around = text[max(0, match.start() - 2) : match.start()] + text[match.end() : match.end() + 2]
    return 1 if _NEAR_NUMBER.search(around) else 0


_STRIP_CURRENCY = re.compile(
    "|".join(re.escape(s) for s in _SYMBOLS)
    + r"|(?<![A-Za-z])(?:"
    + "|".join(sorted(_CODES))
    + r"|RM|Rp|SFr|Fr|zł|Kč|Ft)\.?(?![A-Za-z])",
    re.IGNORECASE,
)
_NUMBER_CORE = re.compile(r"^\d[\d.,' \u00a0\u202f\u2019]*$")


def parse_amount(text: str) -> Decimal | None:
    """A money amount as a Decimal, whatever the separators: 1,234.50 / 1.234,50 / 1 234,50 /
    1'234.50; negative as -12.00, 12.00- or (12.00); currency symbols or codes on either side.

    A single separator followed by exactly three digits is a thousands separator ("1.234" is
    1234), except after a zero ("0.500"). Returns None when the text is not just an amount.
    """
    s = _STRIP_CURRENCY.sub(" ", text).strip()
    negative = False
    if s.startswith("(") and s.endswith(")"):
        negative, s = True, s[1:-1].strip()
    if s.startswith(("-", "\u2212")):
        negative, s = True, s[1:].strip()
    elif s.endswith(("-", "\u2212")):
        negative, s = True, s[:-1].strip()
    s = s.strip()
    if not s or not _NUMBER_CORE.match(s):
        return None
    s = re.sub(r"[\s\u00a0\u202f]", " ", s)
    if re.search(r"[.,' ]{2,}", s) or s[-1] in ".,' ":
        return None
    value = _number_from_separators(s)
    if value is None:
        return None
    return -value if negative else value


def _number_from_separators(s: str) -> Decimal | None:
    separators = [(i, c) for i, c in enumerate(s) if c in ".,' \u2019"]
    if not separators:
        return Decimal(s)
    last_i, last_c = separators[-1]
    tail = s[last_i + 1 :]
    decimal_sep: str | None = None
    if last_c in ".,":
        others = {c for _, c in separators[:-1]}
        if last_c in others:
            # 1.234.567 is all thousands; 6.137.99 is OCR reading 6.137,99: the last two are cents.
            decimal_sep = None if len(tail) == 3 else last_c
        elif others:
            decimal_sep = last_c  # 1.234,50 / 1,234.50 / 1 234,50
        elif len(tail) != 3:
            decimal_sep = last_c
        else:
            head = s[:last_i]
            decimal_sep = last_c if head in ("0", "") else None
    groups = [s[:last_i], tail] if decimal_sep else [s]
    integer = groups[0]
    thousands = re.split(r"[.,' \u2019]", integer)
    if len(thousands) > 1 and (
        not 1 <= len(thousands[0]) <= 3 or any(len(group) != 3 for group in thousands[1:])
    ):
        return None
    digits = "".join(thousands)
    try:
        return Decimal(digits + ("." + groups[1] if decimal_sep else ""))
    except InvalidOperation:
        return None


@dataclass(frozen=True)
class AmountMatch:
    """An amount found inside a longer text, and where it is."""

    value: Decimal
    start: int
    end: int
    decimals: int  # digits after the decimal separator (0 for "12")


_AMOUNT_IN_TEXT = re.compile(
    # A letter may touch the amount: OCR drops the space in "Total 12.50" and "TOTAL:12.50"; a
    # colon after a digit is a time's ("15:14:00"), never an amount's start.
    r"(?<![\d.,/\-])(?<!\d:)"
    r"(?P<neg>[-\u2212(])?\s?"
    r"(?P<num>\d{1,3}(?:[,.'\u2019\u00a0\u202f]\d{3})+(?:[.,]\d{1,2})?"
    r"|\d{1,3}(?: \d{3})+,\d{2}"
    r"|\d+(?:[.,]\d{1,2})?)"
    r"(?P<trail>-(?!\d))?"
    r"(?![\d%]|[.,:/]\d)"
)


def find_amounts(text: str) -> list[AmountMatch]:
    """All amounts in a line of text, left to right. Currency symbols or codes glued in front
    ("RM12.00", "$8.20", "EUR 5,00") are allowed; percentages, dates and times are not amounts."""
    cleaned = _STRIP_CURRENCY.sub(lambda m: " " * len(m.group()), text)
    out = []
    for match in _AMOUNT_IN_TEXT.finditer(cleaned):
        raw = match.group("num")
        value = parse_amount(raw)
        if value is None:
            continue
        if match.group("neg") in ("-", "\u2212", "(") or match.group("trail"):
            value = -value
        tail = re.search(r"[.,](\d{1,2})$", raw)
        out.append(AmountMatch(value, match.start(), match.end(), len(tail.group(1)) if tail else 0))
    return out


def format_amount(value: Decimal) -> str:
    """The canonical amount string of ARCHITECTURE §3.1: exactly two decimals, no separators."""
    return f"{value.quantize(Decimal('0.01')):f}"


# --------------------------------------------------------------------------------------------
# IBAN
# --------------------------------------------------------------------------------------------

_IBAN_CHARS = re.compile(r"[^A-Z0-9]")


def valid_iban(text: str) -> str | None:
    """The IBAN in ``text`` without spaces, upper case, when its country format and check digits
    are right (schwifty), else None."""
    from schwifty import IBAN
    from schwifty.exceptions import SchwiftyException

    compact = _IBAN_CHARS.sub("", text.upper())
    if compact.startswith("IBAN"):
        compact = compact[4:]
    if not 15 <= len(compact) <= 34:
        return None
    try:
        return str(IBAN(compact).compact)
    except (SchwiftyException, ValueError):
        return None


_IBAN_IN_TEXT = re.compile(r"(?<![A-Z0-9])[A-Z]{2}\d{2}(?:[ ]?[A-Z0-9]){11,30}", re.IGNORECASE)


# What OCR reads for a letter where a digit belongs, and for a digit where a letter belongs.
_AS_DIGIT = {"O": "0", "D": "0", "Q": "0", "I": "1", "L": "1", "Z": "2", "S": "5", "G": "6", "B": "8"}
_AS_LETTER = {"0": "O", "1": "I", "2": "Z", "5": "S", "6": "G", "8": "B"}
_BBAN_PART = re.compile(r"(\d+)!([anc])")


def repaired_iban(text: str) -> str | None:
    """The IBAN in ``text`` once the characters OCR put in the wrong class are put back where the
    country's format wants a letter or a digit ("IT54 1045..." for IT54 I045, the Italian CIN
    being a letter), when exactly one such repair passes the mod-97 check; else None. Only
    characters the format rules out are changed, so the check digits verify one or two
    candidates, not a search (a wrong value passes mod 97 once in 97)."""
    from itertools import product

    from schwifty import registry
    from schwifty.exceptions import SchwiftyException

    compact = _IBAN_CHARS.sub("", text.upper())
    try:
        spec = registry.get_iban_spec(compact[:2])
    except (SchwiftyException, KeyError, ValueError):
        return None
    if len(compact) != spec.iban_length:
        return None
    classes = "aann" + "".join(kind * int(count) for count, kind in _BBAN_PART.findall(spec.bban_spec))
    if len(classes) != len(compact):
        return None
    options = []
    for char, kind in zip(compact, classes, strict=True):
        if kind == "n" and not char.isdigit():
            options.append([_AS_DIGIT[char]] if char in _AS_DIGIT else [])
        elif kind == "a" and not char.isalpha():
            options.append([_AS_LETTER[char]] if char in _AS_LETTER else [])
        else:
            options.append([char])
    if all(len(o) == 1 and o[0] == c for o, c in zip(options, compact, strict=True)):
        return None  # nothing out of place: a wrong digit, which no class tells
    passing = {v for chars in product(*options) if (v := valid_iban("".join(chars))) is not None}
    return passing.pop() if len(passing) == 1 else None


def find_iban(text: str, *, repair: bool = False) -> tuple[str, int, int] | None:
    """The first valid IBAN printed in ``text`` (grouped by four or not), with its span;
    ``repair``: one that :func:`repaired_iban` makes valid."""
    check = repaired_iban if repair else valid_iban
    for match in _IBAN_IN_TEXT.finditer(text):
        candidate = match.group()
        # Try the longest prefix first: what follows the IBAN on the line may be alphanumeric too.
        for end in range(len(candidate), 14, -1):
            if candidate[end - 1] == " ":
                continue
            value = check(candidate[:end])
            if value:
                return value, match.start(), match.start() + end
    return None


# --------------------------------------------------------------------------------------------
# Postal codes
# --------------------------------------------------------------------------------------------

# Each country's postal code (engines/knowledge/country): its format, the numbers issued, the
# areas issued (the UK's outward code opens with one, so OCR's "BI0 7YG" for B10 is no postcode)
# and the letter pairs never issued (the Netherlands).
_POSTCODES = {
    country.code: country.postcode
    for country in KNOWLEDGE.countries
    if country.postcode is not None and country.postcode.pattern is not None
}
_POSTCODE_PATTERNS = {code: re.compile(postcode.pattern or "") for code, postcode in _POSTCODES.items()}
UK_POSTCODE_AREAS = _POSTCODES["GB"].areas
_COUNTRY_ALIASES = {"UK": "GB"}


def valid_postal_code(text: str, country: str) -> str | None:
    """``text`` as ``country``'s (ISO alpha-2) canonical postal code ("sw1a1aa" → "SW1A 1AA",
    "1012ab" → "1012 AB"), or None when it does not have that country's format. The formats are
    data; the canonical forms of the US, Canada, the UK and the Netherlands are written here, any
    other country's code is its text."""
    s = re.sub(r"\s+", " ", text.strip().upper())
    country = _COUNTRY_ALIASES.get(country.upper(), country.upper())
    pattern = _POSTCODE_PATTERNS.get(country)
    m = pattern.match(s) if pattern is not None else None
    if m is None:
        return None
    postcode = _POSTCODES[country]
    if country == "US":
        return m.group(1) + (f"-{m.group(2)}" if m.group(2) else "")
    if country == "CA":
        # Digits sit at fixed places in "A1A 1A1": an "O" there is OCR's zero.
        first, second = m.group(1), m.group(2)
        first = first[0] + first[1].replace("O", "0") + first[2]
        second = second[0].replace("O", "0") + second[1] + second[2].replace("O", "0")
        return f"{first} {second}"
    if country == "GB":
        return f"{m.group(1)}{m.group(2)} {m.group(3)}" if m.group(1) in postcode.areas else None
    if country == "NL":
        return f"{m.group(1)} {m.group(2)}" if m.group(2) not in postcode.excluded else None
    if postcode.range is not None:
        low, high = postcode.range
        return s if low <= int(s) <= high else None
    return s


POSTAL_COUNTRIES = tuple(_POSTCODE_PATTERNS)
