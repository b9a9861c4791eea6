"""What the CPU engine knows about languages and countries, read once from data files.

The readers in ``engines/business`` and ``engines/validators.py`` hold mechanisms (how a label is
matched through OCR's confusions, how a legal form ends a name, how a period's two dates are
joined); the words they match live here, one file per language (``lang/en.toml``…) and per
country (``country/DE.toml``…), with what no one language holds in ``common.toml``, the
categories a language file holds in ``categories.toml`` and the common names in ``names/*.txt``.
Adding a language is then a data file and its tests (docs/engine/adding-a-language.md), as
invoice2data keeps an issuer's knowledge in a template and its engine generic.

Each file is checked when it is loaded, as ``engines/spec`` checks the field spec: a category or
label key the engine does not read, a word of the wrong type, a phrase not written folded where
it is matched on folded text, a pattern that does not compile, all fail at import with the file
and the category named, never on a customer's document.

The words of all languages are merged per category: the engine reads every language on every
document (a German invoice prints English "IBAN" and "Total"), so nothing here picks a language.
Languages and countries are read in the order ``common.toml`` lists them, then any other file in
alphabetical order; the order matters only where patterns overlap (a legal form tried before a
longer one, the country a tie of votes goes to).
"""

from __future__ import annotations

import re
import tomllib
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from types import MappingProxyType
from typing import Any

KNOWLEDGE_DIR = Path(__file__).parent


class KnowledgeError(ValueError):
    """A knowledge file the engine cannot read as it is written."""


def _read(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise KnowledgeError(f"{path.name}: not valid TOML ({exc})") from exc


# What a word of a category is, so the loader can check it (categories.toml says what each means).
FOLDED, TEXT, PATTERN = "folded", "text", "pattern"
_CATEGORIES = _read(KNOWLEDGE_DIR / "categories.toml")
# Every category a language file may hold and what its words are (categories.toml says which code
# reads each).
WORD_CATEGORIES: Mapping[str, str] = MappingProxyType(_CATEGORIES["words"])
if not set(WORD_CATEGORIES.values()) <= {FOLDED, TEXT, PATTERN}:
    raise KnowledgeError(f"categories.toml: a category's words are {FOLDED}, {TEXT} or {PATTERN}")
# The keys a field's label belongs to (engines/business/labels.py), in the order the label
# matcher tries them: where two keys match the same words, the first one listed comes first.
LABEL_KEYS: tuple[str, ...] = tuple(_CATEGORIES["label_keys"])
MONTHS: tuple[str, ...] = tuple(_CATEGORIES["months"])
TABLE_CATEGORIES: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {"labels": LABEL_KEYS, "cell_labels": LABEL_KEYS, "months": MONTHS}
)
DATE_ORDERS = frozenset({"DMY", "MDY", "YMD"})


@dataclass(frozen=True)
class Language:
    """One language file: its words by category, its labels per key, its month names."""

    code: str
    name: str
    words: Mapping[str, tuple[str, ...]]
    labels: Mapping[str, tuple[str, ...]]
    cell_labels: Mapping[str, tuple[str, ...]]
    months: Mapping[str, tuple[str, ...]]
    respellings: Mapping[str, str]


@dataclass(frozen=True)
class Postcode:
    """A country's postal code: its format (``pattern``, matched on the code in upper case with
    single spaces), the numbers it issues (``range``), how many digits it has where an address
    line prints it before the city (``digits``), the country letters printed before it ("D-10115
    Berlin": ``prefixes``), and for formats with letters, the areas issued and letter pairs never
    issued."""

    pattern: str | None
    range: tuple[int, int] | None
    digits: int | None
    prefixes: tuple[str, ...]
    areas: frozenset[str]
    excluded: frozenset[str]


@dataclass(frozen=True)
class Country:
    """One country file: the defaults its documents share and the words only they print."""

    code: str
    name: str
    languages: tuple[str, ...]
    currency: str
    date_order: str
    decimal_separator: str
    regions: frozenset[str]
    words: tuple[str, ...]
    tax_number: str | None
    vat_prefix: str | None
    postcode: Postcode | None
    prints_regions: bool
    cities: tuple[str, ...]
    english_city_names: tuple[str, ...]


@dataclass(frozen=True)
class Knowledge:
    """Every language and country file, in reading order, and ``common.toml``."""

    languages: tuple[Language, ...]
    countries: tuple[Country, ...]
    common: Mapping[str, tuple[str, ...]]
    currency_codes_after_total: tuple[str, ...]
    tax_rates: tuple[float, ...]
    name_confusions: tuple[tuple[str, str], ...]

    def words(self, category: str) -> tuple[str, ...]:
        """A category's words from every language, then ``common.toml``, each once, in reading
        order (which the few order-sensitive patterns rely on)."""
        if category not in WORD_CATEGORIES:
            raise KeyError(category)
        return _unique(
            [word for language in self.languages for word in language.words[category]]
            + list(self.common.get(category, ()))
        )

    def labels(self) -> dict[str, tuple[str, ...]]:
        """Every label key's phrases from every language (the label matcher's ``LABELS``)."""
        return {
            key: _unique(w for lang in self.languages for w in lang.labels.get(key, ())) for key in LABEL_KEYS
        }

    def cell_labels(self) -> dict[str, tuple[str, ...]]:
        """The short words that are labels only alone in their cell, per key, for the keys that
        have any."""
        merged = {
            key: _unique(w for lang in self.languages for w in lang.cell_labels.get(key, ()))
            for key in LABEL_KEYS
        }
        return {key: words for key, words in merged.items() if words}

    def months(self) -> dict[str, int]:
        """Month names and abbreviations of every language, folded, to the month's number."""
        out: dict[str, int] = {}
        for number, month in enumerate(MONTHS, start=1):
            for language in self.languages:
                for name in language.months.get(month, ()):
                    out.setdefault(name, number)
        return out

    def respellings(self) -> dict[str, str]:
        """Misread spellings of one language's words, to the spelling meant ("CAFÈ": "CAFÉ")."""
        return {wrong: right for language in self.languages for wrong, right in language.respellings.items()}

    def country(self, code: str) -> Country:
        """The country of an ISO 3166 alpha-2 code (``KeyError`` when no file has it)."""
        return {country.code: country for country in self.countries}[code]


def alternation(words: Iterable[str], *, space: str | None = None) -> str:
    """``words`` as a regex alternation of literals, longest first (so "sub total" is tried
    before "total" and a match is the longest word at its place); ``space``: the pattern a space
    inside a word becomes (``r"\\s+"``), else a literal space. No words: a pattern that never
    matches, so a category a language leaves empty matches nothing, not everything."""
    ordered = sorted(_unique(words), key=len, reverse=True)
    if not ordered:
        return "(?!)"
    if space is None:
        return "|".join(re.escape(word) for word in ordered)
    return "|".join(space.join(re.escape(part) for part in word.split(" ")) for word in ordered)


def _unique(words: Iterable[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(words))


def strip_accents(text: str) -> str:
    """``text`` without its accents: decomposed (NFKD), the combining marks dropped."""
    return "".join(char for char in unicodedata.normalize("NFKD", text) if not unicodedata.combining(char))


def _folded(word: str) -> str:
    """Lower case without accents: how the matchers see a page (``engines.validators.fold``)."""
    return strip_accents(word.lower())


def _word_list(where: str, value: object, kind: str) -> tuple[str, ...]:
    """A category's value checked: a list of non-empty strings, folded or compiling as its kind
    wants."""
    if not isinstance(value, list) or not all(isinstance(word, str) and word.strip() for word in value):
        raise KnowledgeError(f"{where}: expected a list of non-empty strings, got {value!r:.80}")
    for word in value:
        if kind == FOLDED and word != _folded(word):
            raise KnowledgeError(
                f"{where}: {word!r} is not folded; write {_folded(word)!r} (lower case, no accents: "
                "the page is folded before it is matched)"
            )
        if kind == PATTERN:
            try:
                re.compile(word)
            except re.error as exc:
                raise KnowledgeError(f"{where}: {word!r} is not a regular expression ({exc})") from exc
    return tuple(value)


def _only(where: str, raw: Mapping[str, object], known: Iterable[str], what: str = "keys") -> None:
    """Refuse what the engine would not read: a misspelt key would otherwise be silently ignored."""
    unknown = sorted(set(raw) - set(known))
    if unknown:
        raise KnowledgeError(f"{where}: unknown {what} {unknown}; the engine reads {', '.join(known)}")


def _table(where: str, value: object, keys: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    if not isinstance(value, dict):
        raise KnowledgeError(f"{where}: expected a table of word lists, got {type(value).__name__}")
    _only(where, value, keys)
    return {key: _word_list(f"{where}.{key}", words, FOLDED) for key, words in value.items()}


def _language(path: Path) -> Language:
    raw = _read(path)
    where = f"lang/{path.name}"
    name = raw.pop("name", None)
    if not isinstance(name, str) or not name:
        raise KnowledgeError(f"{where}: name: expected the language's name, as a string")
    respellings = raw.pop("respellings", {})
    if not isinstance(respellings, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in respellings.items()
    ):
        raise KnowledgeError(f"{where}: respellings: expected a table of misread spelling = right spelling")
    _only(where, raw, [*WORD_CATEGORIES, *TABLE_CATEGORIES], "categories")
    words = {
        category: _word_list(f"{where}: {category}", raw.get(category, []), kind)
        for category, kind in WORD_CATEGORIES.items()
    }
    tables = {
        category: _table(f"{where}: {category}", raw.get(category, {}), keys)
        for category, keys in TABLE_CATEGORIES.items()
    }
    return Language(
        code=path.stem,
        name=name,
        words=MappingProxyType(words),
        labels=MappingProxyType(tables["labels"]),
        cell_labels=MappingProxyType(tables["cell_labels"]),
        months=MappingProxyType(tables["months"]),
        respellings=MappingProxyType(dict(respellings)),
    )


# The keys a country file may hold: its Country's fields but the code (the file's name); and those
# of its [postcode]: a Postcode's fields.
_COUNTRY_KEYS = tuple(f.name for f in fields(Country) if f.name != "code")
_POSTCODE_KEYS = tuple(f.name for f in fields(Postcode))


def _string(where: str, value: object, check: str = r".+", hint: str = "a string") -> str:
    if not isinstance(value, str) or not re.fullmatch(check, value):
        raise KnowledgeError(f"{where}: expected {hint}, got {value!r}")
    return value


def _postcode(where: str, raw: object) -> Postcode:
    if not isinstance(raw, dict):
        raise KnowledgeError(f"{where}: expected a table")
    _only(where, raw, _POSTCODE_KEYS)
    pattern = raw.get("pattern")
    if pattern is not None:
        _word_list(f"{where}.pattern", [pattern], PATTERN)
    number_range = raw.get("range")
    if number_range is not None and not (
        isinstance(number_range, list)
        and len(number_range) == 2
        and all(isinstance(n, int) for n in number_range)
    ):
        raise KnowledgeError(f"{where}.range: expected [lowest, highest], got {number_range!r}")
    digits = raw.get("digits")
    if digits is not None and not isinstance(digits, int):
        raise KnowledgeError(f"{where}.digits: expected a number, got {digits!r}")
    return Postcode(
        pattern=pattern,
        range=(number_range[0], number_range[1]) if number_range is not None else None,
        digits=digits,
        prefixes=_word_list(f"{where}.prefixes", raw.get("prefixes", []), TEXT),
        areas=frozenset(_word_list(f"{where}.areas", raw.get("areas", []), TEXT)),
        excluded=frozenset(_word_list(f"{where}.excluded", raw.get("excluded", []), TEXT)),
    )


def _country(path: Path) -> Country:
    raw = _read(path)
    where = f"country/{path.name}"
    _string(where, path.stem, r"[A-Z]{2}", "a file named by its ISO 3166 alpha-2 code (DE.toml)")
    _only(where, raw, _COUNTRY_KEYS)
    for key in ("name", "languages", "currency", "date_order", "decimal_separator"):
        if key not in raw:
            raise KnowledgeError(f"{where}: {key} is missing")
    tax_number = raw.get("tax_number")
    if tax_number is not None:
        _word_list(f"{where}: tax_number", [tax_number], PATTERN)
    vat_prefix = raw.get("vat_prefix")
    prints_regions = raw.get("prints_regions", True)
    if not isinstance(prints_regions, bool):
        raise KnowledgeError(f"{where}: prints_regions: expected true or false, got {prints_regions!r}")
    return Country(
        code=path.stem,
        name=_string(f"{where}: name", raw["name"]),
        languages=_word_list(f"{where}: languages", raw["languages"], TEXT),
        currency=_string(f"{where}: currency", raw["currency"], r"[A-Z]{3}", "an ISO 4217 code (EUR)"),
        date_order=_string(
            f"{where}: date_order", raw["date_order"], "|".join(DATE_ORDERS), "DMY, MDY or YMD"
        ),
        decimal_separator=_string(
            f"{where}: decimal_separator", raw["decimal_separator"], r"[.,]", '"." or ","'
        ),
        regions=frozenset(_word_list(f"{where}: regions", raw.get("regions", []), TEXT)),
        words=_word_list(f"{where}: words", raw.get("words", []), PATTERN),
        tax_number=tax_number,
        vat_prefix=_string(f"{where}: vat_prefix", vat_prefix, r"[A-Z]{2}", "two capitals")
        if vat_prefix is not None
        else None,
        postcode=_postcode(f"{where}: postcode", raw["postcode"]) if "postcode" in raw else None,
        prints_regions=prints_regions,
        cities=_word_list(f"{where}: cities", raw.get("cities", []), TEXT),
        english_city_names=_word_list(
            f"{where}: english_city_names", raw.get("english_city_names", []), TEXT
        ),
    )


def _in_order(paths: Iterable[Path], order: tuple[str, ...]) -> list[Path]:
    """Files in the order ``common.toml`` lists them, then the others alphabetically."""
    rank = {code: position for position, code in enumerate(order)}
    return sorted(paths, key=lambda path: (rank.get(path.stem, len(rank)), path.stem))


def _common(path: Path) -> tuple[dict[str, tuple[str, ...]], dict[str, Any]]:
    """``common.toml``: the reading order, and the rest as :class:`Knowledge`'s fields."""
    raw = _read(path)
    _only(
        "common.toml", raw, ("order", "words", "currency_codes_after_total", "tax_rates", "name_confusions")
    )
    _only("common.toml: order", raw.get("order", {}), ("languages", "countries"))
    order = {
        key: _word_list(f"common.toml: order.{key}", raw.get("order", {}).get(key, []), TEXT)
        for key in ("languages", "countries")
    }
    words = raw.get("words", {})
    _only("common.toml: words", words, WORD_CATEGORIES, "categories")
    common = {category: _word_list(f"common.toml: words.{category}", v, WORD_CATEGORIES[category])
              for category, v in words.items()}  # fmt: skip
    codes = _word_list(
        "common.toml: currency_codes_after_total", raw.get("currency_codes_after_total", []), TEXT
    )
    rates = raw.get("tax_rates", [])
    if not isinstance(rates, list) or not all(type(rate) in (int, float) and rate > 0 for rate in rates):
        raise KnowledgeError(f"common.toml: tax_rates: expected a list of percentages, got {rates!r:.80}")
    pairs = raw.get("name_confusions", [])
    if not isinstance(pairs, list) or not all(isinstance(pair, list) and len(pair) == 2 for pair in pairs):
        raise KnowledgeError("common.toml: name_confusions: expected a list of [printed, read] pairs")
    confusions = tuple(tuple(_word_list("common.toml: name_confusions", pair, TEXT)) for pair in pairs)
    return order, {
        "common": MappingProxyType(common),
        "currency_codes_after_total": codes,
        "tax_rates": tuple(rates),
        "name_confusions": confusions,
    }


def load(directory: Path = KNOWLEDGE_DIR) -> Knowledge:
    """Read and check the knowledge files under ``directory`` (``common.toml``, ``lang/*.toml``,
    ``country/*.toml``): the bundled ones unless told otherwise."""
    order, rest = _common(directory / "common.toml")
    languages = tuple(
        _language(p) for p in _in_order((directory / "lang").glob("*.toml"), order["languages"])
    )
    countries = tuple(
        _country(p) for p in _in_order((directory / "country").glob("*.toml"), order["countries"])
    )
    if not languages:
        raise KnowledgeError(f"{directory}: no language file in lang/")
    return Knowledge(languages, countries, **rest)


def read_names(*paths: Path) -> frozenset[str]:
    """The names of plain word lists: whitespace-separated words, ``#`` opening a comment line."""
    names: set[str] = set()
    for path in paths:
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.lstrip().startswith("#"):
                names.update(line.split())
    return frozenset(names)


KNOWLEDGE = load()
# Common given names and surnames as their bearers print them (accents included), written by hand
# from public name-frequency knowledge. Not every name: a word missing is simply unknown; the
# list lets engines.business.name_spelling notice a reading one OCR confusion from a common name.
COMMON_NAMES: frozenset[str] = read_names(
    KNOWLEDGE_DIR / "names" / "surnames.txt", KNOWLEDGE_DIR / "names" / "given_names.txt"
)
