"""The engine's knowledge as data (engines/knowledge): every language and country file loads and
is checked on load, and a new language is a data file the matchers read without a code change."""

from __future__ import annotations

import re
import shutil
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from engines import knowledge
from engines.business import labels
from engines.knowledge import KNOWLEDGE, KNOWLEDGE_DIR, KnowledgeError, alternation, load
from engines.layout import Line
from engines.validators import POSTAL_COUNTRIES, valid_postal_code

LANGUAGE_FILES = sorted((KNOWLEDGE_DIR / "lang").glob("*.toml"))
COUNTRY_FILES = sorted((KNOWLEDGE_DIR / "country").glob("*.toml"))


def _copy(tmp_path: Path) -> Path:
    """The bundled knowledge in a folder of its own, to add or break a file in."""
    folder = tmp_path / "knowledge"
    shutil.copytree(KNOWLEDGE_DIR, folder, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    return folder


def _line(text: str) -> Line:
    return Line(text, 0.98, (0.1, 0.1, 0.1 + 0.012 * len(text), 0.115), 1)


def test_every_language_file_loads_and_lists_the_same_categories() -> None:
    """GIVEN the bundled language files WHEN read as TOML THEN each lists every category the
    engine reads (empty where the language has none), so that copying one shows them all."""
    expected = {"name", "respellings", *knowledge.WORD_CATEGORIES, *knowledge.TABLE_CATEGORIES}
    assert len(LANGUAGE_FILES) >= 6
    for path in LANGUAGE_FILES:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
        assert set(raw) == expected, path.name
    assert {language.code for language in KNOWLEDGE.languages} == {path.stem for path in LANGUAGE_FILES}


def test_every_country_file_loads_with_its_defaults() -> None:
    """GIVEN the bundled country files WHEN loaded THEN each has a currency, a date order, a
    decimal separator and its languages, and the countries whose address lines print a region
    list their regions."""
    assert {country.code for country in KNOWLEDGE.countries} == {path.stem for path in COUNTRY_FILES}
    for country in KNOWLEDGE.countries:
        assert re.fullmatch(r"[A-Z]{3}", country.currency), country.code
        assert country.date_order in knowledge.DATE_ORDERS, country.code
        assert country.decimal_separator in (".", ","), country.code
        assert country.languages, country.code
    assert {"CA", "NY", "DC"} <= KNOWLEDGE.country("US").regions
    assert "QC" in KNOWLEDGE.country("CA").regions
    assert "RM" in KNOWLEDGE.country("IT").regions
    assert KNOWLEDGE.country("US").date_order == "MDY"


def test_postal_codes_are_validated_from_the_country_files() -> None:
    """The countries with a postal code format in their file are those whose codes validate."""
    with_format = {c.code for c in KNOWLEDGE.countries if c.postcode is not None and c.postcode.pattern}
    assert set(POSTAL_COUNTRIES) == with_format
    assert valid_postal_code("1012ab", "NL") == "1012 AB"
    assert valid_postal_code("1012 SA", "NL") is None  # a letter pair NL.toml says is never issued
    assert valid_postal_code("99999", "ES") is None  # past the range ES.toml gives
    assert valid_postal_code("8001", "CH") is None  # CH.toml gives its prefix and digits, no format


@pytest.mark.parametrize(
    ("addition", "message"),
    [
        ('colours = ["red"]\n', r"unknown categories \['colours'\]"),
        ('titles = "fatura"\n', r"titles: expected a list of non-empty strings"),
        ('titles = ["fatura", 3]\n', r"titles: expected a list of non-empty strings"),
        ('titles = ["Fatura"]\n', r"'Fatura' is not folded; write 'fatura'"),
        ('legal_forms = ["LDA\\\\.("]\n', r"legal_forms: 'LDA\\\\.\(' is not a regular expression"),
        ('[labels]\ntotl = ["total"]\n', r"labels: unknown keys \['totl'\]"),
        ('[labels]\ntotal = ["valor à pagar"]\n', r"write 'valor a pagar'"),
        ('[months]\njanuary = "janeiro"\n', r"months.january: expected a list"),
    ],
)
def test_a_language_file_with_an_unknown_category_or_a_wrong_value_is_refused(
    tmp_path: Path, addition: str, message: str
) -> None:
    """GIVEN a language file with a category the engine does not read, or a value of the wrong
    type WHEN loaded THEN it is refused, naming the file and what is wrong."""
    folder = _copy(tmp_path)
    (folder / "lang" / "pt.toml").write_text('name = "Português"\n' + addition, encoding="utf-8")
    with pytest.raises(KnowledgeError, match=message) as refused:
        load(folder)
    assert "lang/pt.toml" in str(refused.value)


@pytest.mark.parametrize(
    ("replace", "by", "message"),
    [
        ('currency = "EUR"', 'currency = "euro"', r"currency: expected an ISO 4217 code"),
        ('date_order = "DMY"', 'date_order = "dd/mm/yyyy"', r"date_order: expected DMY, MDY or YMD"),
        ("vat_prefix", "vat_prefx", r"unknown keys \['vat_prefx'\]"),
        ("range = [1000, 99999]", 'range = "1000-99999"', r"range: expected \[lowest, highest\]"),
        ("prints_regions = false", 'prints_regions = "no"', r"prints_regions: expected true or false"),
    ],
)
def test_a_country_file_with_a_wrong_value_is_refused(
    tmp_path: Path, replace: str, by: str, message: str
) -> None:
    folder = _copy(tmp_path)
    path = folder / "country" / "DE.toml"
    path.write_text(path.read_text(encoding="utf-8").replace(replace, by), encoding="utf-8")
    with pytest.raises(KnowledgeError, match=message):
        load(folder)


@pytest.mark.parametrize(
    ("replace", "by", "message"),
    [
        ("tax_rates = [", 'tax_rates = ["20%", ', r"tax_rates: expected a list of percentages"),
        ('["RN", "M"]', '["RN", "M", "N"]', r"name_confusions: expected a list of \[printed, read\] pairs"),
    ],
)
def test_common_toml_with_a_wrong_value_is_refused(
    tmp_path: Path, replace: str, by: str, message: str
) -> None:
    folder = _copy(tmp_path)
    path = folder / "common.toml"
    path.write_text(path.read_text(encoding="utf-8").replace(replace, by, 1), encoding="utf-8")
    with pytest.raises(KnowledgeError, match=message):
        load(folder)


def test_a_word_written_after_a_table_is_refused_as_part_of_it(tmp_path: Path) -> None:
    """TOML puts a key written under ``[labels]`` into that table: a category placed there by
    mistake is refused, not silently ignored."""
    folder = _copy(tmp_path)
    (folder / "lang" / "pt.toml").write_text(
        'name = "Português"\n[labels]\ntotal = ["total a pagar"]\ntitles = ["fatura"]\n', encoding="utf-8"
    )
    with pytest.raises(KnowledgeError, match=r"labels: unknown keys \['titles'\]"):
        load(folder)


@pytest.fixture
def fresh_label_patterns() -> Iterator[None]:
    """The label matcher's compiled patterns rebuilt before and after a test that swaps its labels."""
    labels._key_patterns.cache_clear()
    yield
    labels._key_patterns.cache_clear()


PORTUGUESE = """\
name = "Português"
titles = ["fatura", "fatura recibo"]

[labels]
total = ["total a pagar", "valor a pagar"]
invoice_number = ["fatura n", "fatura"]
invoice_date = ["data de emissao"]

[months]
march = ["marco"]
"""


def test_a_new_language_is_a_data_file_the_label_matcher_reads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fresh_label_patterns: None
) -> None:
    """GIVEN a Portuguese file dropped into lang/ (a few words, no other change) WHEN the
    knowledge is loaded from that folder THEN the label matcher finds its labels, which no
    bundled language has."""
    line = _line("Valor a pagar: 12,50 €")
    assert "total" not in {hit.key for hit in labels.label_hits(line)}

    folder = _copy(tmp_path)
    (folder / "lang" / "pt.toml").write_text(PORTUGUESE, encoding="utf-8")
    portuguese = load(folder)
    assert portuguese.languages[-1].code == "pt"  # not listed in common.toml: read after the others
    monkeypatch.setattr(labels, "LABELS", portuguese.labels())
    labels._key_patterns.cache_clear()  # the matcher compiles its labels once, at first use

    hits = labels.label_hits(line)
    assert [(hit.key, line.text[hit.start : hit.end]) for hit in hits] == [("total", "Valor a pagar")]
    number = _line("Fatura n.º FT 2026/118")
    assert [(hit.key, number.text[hit.start : hit.end]) for hit in labels.label_hits(number)][:1] == [
        ("invoice_number", "Fatura n")
    ]
    assert "marco" in portuguese.months() and portuguese.months()["marco"] == 3
    assert "fatura" in portuguese.words("titles")


def test_the_bundled_words_are_merged_across_languages() -> None:
    """A category's words come from every language (a German page prints "IBAN" and "Total"), each
    once, and a phrase two languages share is listed in both files but matched once."""
    merged = KNOWLEDGE.labels()
    assert list(merged) == list(knowledge.LABEL_KEYS)
    assert merged["total"].count("total") == 1  # English, French and Spanish all list it
    assert {"gesamtbetrag", "montant ttc", "importe total", "totale", "totaal"} <= set(merged["total"])
    assert KNOWLEDGE.months()["mrt"] == 3
    assert KNOWLEDGE.respellings() == {"CAFÈ": "CAFÉ"}


def test_alternation_tries_the_longest_word_first_and_matches_nothing_without_words() -> None:
    assert re.match(alternation(["bis", "bis zum"]), "bis zum").group() == "bis zum"  # type: ignore[union-attr]
    assert re.fullmatch(alternation(["sehr geehrte"], space=r"\s+"), "sehr   geehrte")
    assert re.fullmatch(alternation(["t/m", "c."]), "c.") and not re.fullmatch(alternation(["c."]), "cx")
    assert re.search(alternation([]), "anything") is None
