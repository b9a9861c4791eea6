"""What a page set says of its own type, as numbers for the fitted document-type model.

The words each type uses of itself ("bank statement", "amount due", "Kassenbon") are knowledge, kept
in ``engines/knowledge/doctype_cues.toml`` in three tiers of specificity per type; how much each
tier weighs is fitted (engines/doctype_model.py), never written by hand. Beside the words, a few
structures tell types apart in any language: an MRZ line the reader could not read whole, a
licence holder's description, a till's item lines, a ledger of dated rows, a payment plan, money
paid at a counter against money asked for later. Each becomes one feature; the model learns how
far each one moves which type.

Phrases are matched on word boundaries in folded text (lower case, accents dropped, "ß" as "ss",
as PP-OCR reads any page), and a phrase of several words also where OCR glued its words.
"""

from __future__ import annotations

import functools
import re
import tomllib
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from rapidfuzz import fuzz

from engines.layout import PageText
from engines.licence.aamva_data import TABLES as AAMVA
from engines.mrz.countries import is_known_code
from engines.mrz.reader import looks_like_mrz_line
from engines.validators import fold

CUES_FILE = Path(__file__).resolve().parent / "knowledge" / "doctype_cues.toml"
TIERS = ("decisive", "strong", "supporting")
_COUNT_CAP = 3  # distinct phrases of a tier counted: a fourth "total" says nothing new
_GLUED_MIN_CHARS = 10  # a glued phrase shorter than this would match inside ordinary words
# A long phrase also counts, apart, when OCR got a letter or two of it wrong ("Numero de
# tacture"): one edit in a phrase of 10 letters or more, two from 16. Shorter phrases would match
# ordinary words ("statement" is one letter from "statements" and from "settlement"). Only pages
# of up to this many letters are searched: a longer one is no blurred photo of a short bill.
_APPROXIMATE_MIN_LETTERS = 10
_APPROXIMATE_TWO_EDITS_LETTERS = 16
_APPROXIMATE_MAX_CHARS = 4000
_APPROXIMATE_TIERS = ("decisive", "strong")

AMOUNT = re.compile(r"\d[\d,. ]*[.,]\d{2}(?!\d)")
# a line that starts with a date (a statement's row): 01.11.2023, 04/04/2024, 2024-04-04, 4 Apr 2024
DATED_ROW = re.compile(
    r"\s*(?:\d{1,2}[./-]\d{1,2}[./-](?:\d{4}|\d{2})(?!\d)|\d{4}-\d{2}-\d{2}|\d{1,2} [A-Za-z]{3,9}\.? \d{4})"
)
# a row of a payment plan: a date and the instalment due then, nothing else ("07/05/2024 167,55")
_INSTALMENT_ROW = re.compile(DATED_ROW.pattern + r"\s+(?:[^\s\d]{1,3}\s?)?" + AMOUNT.pattern + r"\s*$")
# a till's item lines: a count times a unit price ("2 x 1,00"; OCR reads "2,98" as "2:98"), and an
# amount followed by the letter of its VAT rate ("8,04 B")
_COUNTED_ITEM = re.compile(r"\s*\d{1,3}\s*[x\u00d7*]\s*\d{1,5}[.,:]\d{2}(?!\d)", re.IGNORECASE)
_VAT_CLASSED_AMOUNT = re.compile(r"\d[.,]\d{2} ?[A-E]\s*$")
# a time alone, or glued to the date before it ("09.04.202507:00", as OCR reads a till's line)
_TIME_OF_DAY = re.compile(
    r"(?:(?<=(?:19|20)\d\d)|(?<=\d{4}-\d\d-\d\d)|(?<![\d:]))"
    r"(?:[01]\d|2[0-3]|(?<![\d:])\d):[0-5]\d(?::[0-5]\d)?(?![\d:])"
)
# a payment card's number as a till prints it, all but its last four digits masked
_MASKED_CARD = re.compile(r"(?:\*{2,}|x{4,})\s*\d{4}(?!\d)")
# a North American licence holder's description, its captions lost to blur: an eye colour's AAMVA
# code on a line of its own, and a height in feet and inches or in centimetres
_EYE_COLOUR_CODE = re.compile(rf"\s*(?:{'|'.join(AAMVA.eye_colours)})\s*")
_HEIGHT = re.compile(r"(?<![\d.,])(?:[4-7]\s?'\s?-?\s?(?:0\d|1[01])\s?\"?|1\d\d\s?\.?\s?cm)(?![\w])")
# a passport's first MRZ line with its fillers misread as letters: "P", a letter, a state's code
_TD3_FIRST_LINE = re.compile(r"P[A-Z<]([A-Z<]{3})[A-Z<]{35,41}")
_TD3_LINE_MIN = 40  # characters: a passport's MRZ line (44), not a card's (30, 36)
_TITLE_EDGES = re.compile(r"^[\W_]+|[\W_]+$")

STRUCTURE_FEATURES = (
    "mrz_passport_line",
    "mrz_card_line",
    "licence_holder_described",
    "till_lines",
    "ledger_rows",
    "payment_plan",
    "paid_at_counter",
    "billed_party",
    "time_of_day",
    "payment_demand",
    "ledger_balance",
    "amounts_4",
    "amounts_12",
    "several_pages",
)


class _FoldTable(dict[int, str]):
    """A ``str.translate`` table that folds each character once, on first sight."""

    def __missing__(self, code: int) -> str:
        folded = fold(chr(code)).replace("ß", "ss")
        self[code] = folded
        return folded


_FOLD_TABLE = _FoldTable()


def fold_cue(text: str) -> str:
    """Lower case without accents, "ß" as "ss" (what an OCR reading of "STRASSE" gives)."""
    return text.translate(_FOLD_TABLE)


def _boundary_pattern(phrases: Sequence[str]) -> re.Pattern[str] | None:
    """Any of ``phrases`` on word boundaries, except that a number may run into its letters, as
    OCR and print glue them ("Factura2025-2985", "1.234kWh"); longest first. Phrases are grouped by
    whether they start and end with a letter, so the boundary is tested once per position, not
    once per phrase (hundreds of phrases, one scan)."""
    groups: dict[tuple[bool, bool], list[str]] = {}
    for phrase in sorted(set(phrases), key=len, reverse=True):
        groups.setdefault((phrase[0].isalpha(), phrase[-1].isalpha()), []).append(re.escape(phrase))
    parts = []
    for (letter_start, letter_end), escaped in groups.items():
        start = r"(?<![^\W\d_])" if letter_start else r"(?<![\w])"
        end = r"(?![^\W\d_])" if letter_end else r"(?![\w])"
        parts.append(start + "(?:" + "|".join(escaped) + ")" + end)
    return re.compile("|".join(parts)) if parts else None


class _Phrases:
    """Every type's phrases, found in one scan of the text: which (type, tier) each belongs to."""

    def __init__(self, tiers: dict[tuple[str, str], Sequence[str]]) -> None:
        self.owners: dict[str, list[tuple[str, str]]] = {}
        self.glued: dict[str, list[tuple[str, str]]] = {}
        for key, phrases in tiers.items():
            for phrase in {fold_cue(p) for p in phrases}:
                self.owners.setdefault(phrase, []).append(key)
                if " " in phrase and len(phrase) >= _GLUED_MIN_CHARS:
                    self.glued.setdefault(phrase.replace(" ", ""), []).append(key)
        self.pattern = _boundary_pattern(list(self.owners))
        self.approximate: dict[str, list[str]] = {}
        for (doc_type, tier), phrases in tiers.items():
            for phrase in (
                {fold_cue(p).replace(" ", "") for p in phrases} if tier in _APPROXIMATE_TIERS else ()
            ):
                if len(phrase) >= _APPROXIMATE_MIN_LETTERS:
                    self.approximate.setdefault(phrase, []).append(doc_type)

    def found_approximately(self, squashed: str, exact: dict[tuple[str, str], set[str]]) -> dict[str, int]:
        """Per type, its long decisive and strong phrases not found exactly but found with a letter
        or two misread (rapidfuzz's Indel alignment: a substitution is two of its edits)."""
        counts: dict[str, int] = {}
        if len(squashed) > _APPROXIMATE_MAX_CHARS:
            return counts
        seen = {phrase for found in exact.values() for phrase in found}
        for phrase, doc_types in self.approximate.items():
            if phrase in seen:
                continue
            edits = 1 if len(phrase) < _APPROXIMATE_TWO_EDITS_LETTERS else 2
            cutoff = 100.0 * (1.0 - edits / len(phrase))
            if fuzz.partial_ratio(phrase, squashed, score_cutoff=cutoff):
                for doc_type in doc_types:
                    counts[doc_type] = counts.get(doc_type, 0) + 1
        return counts

    def found(self, text: str, squashed: str) -> dict[tuple[str, str], set[str]]:
        """The distinct phrases found, by (type, tier); a phrase of several words also where OCR
        glued its words ("Date defacture"), found in the text with every space removed."""
        hits: dict[tuple[str, str], set[str]] = {}
        for match in self.pattern.finditer(text) if self.pattern else ():
            for key in self.owners[match.group(0)]:
                hits.setdefault(key, set()).add(match.group(0).replace(" ", ""))
        for glued, keys in self.glued.items():
            if glued in squashed:
                for key in keys:
                    hits.setdefault(key, set()).add(glued)
        return hits


class _Cues:
    def __init__(self, path: Path) -> None:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        self.types: tuple[str, ...] = tuple(data["types"])
        self.phrases = _Phrases(
            {(t, tier): data["types"][t].get(tier, ()) for t in self.types for tier in TIERS}
        )
        self.titles = {
            t: _title_line([fold_cue(x) for x in entry["titles"]])
            for t, entry in data["types"].items()
            if entry.get("titles")
        }
        self.evidence = {
            name: _boundary_pattern([fold_cue(p) for p in words]) for name, words in data["evidence"].items()
        }

    @property
    def feature_names(self) -> tuple[str, ...]:
        words = tuple(f"{t}:{tier}" for t in self.types for tier in TIERS)
        approximate = tuple(f"{t}:approximate" for t in self.types)
        titles = tuple(f"{t}:title" for t in self.titles)
        return words + approximate + titles + STRUCTURE_FEATURES


def _title_line(titles: Sequence[str]) -> re.Pattern[str]:
    """A line of one title, or of the same title in two or three languages, apart or as OCR
    glues them ("PASSPORT/PASSEPORT", "RECHNUNG INVOICE")."""
    one = "|".join(re.escape(t).replace(r"\ ", r"\s*") for t in sorted(titles, key=len, reverse=True))
    return re.compile(rf"(?:{one})(?:[\W_]*(?:{one})){{0,2}}")


@functools.lru_cache(maxsize=1)
def cues() -> _Cues:
    return _Cues(CUES_FILE)


def feature_names() -> tuple[str, ...]:
    """The names of :func:`cue_features`' entries, in order (recorded in the model's artefact)."""
    return cues().feature_names


def cue_features(pages: Sequence[PageText]) -> np.ndarray:
    """Per type and tier, the distinct phrases found (capped); per type, its long phrases found
    only with a letter or two misread; per titled type, whether the first page prints its title
    alone on a line; then the structures of :data:`STRUCTURE_FEATURES`."""
    table = cues()
    text = _page_words(pages)
    squashed = re.sub(r"\s+", "", text)
    found = table.phrases.found(text, squashed)
    words = [min(len(found.get((t, tier), ())), _COUNT_CAP) for t in table.types for tier in TIERS]
    near = table.phrases.found_approximately(squashed, found)
    approximate = [min(near.get(t, 0), _COUNT_CAP) for t in table.types]
    first_lines = {_TITLE_EDGES.sub("", fold_cue(line.text)) for line in pages[0].lines} if pages else set()
    titles = [float(any(p.fullmatch(line) for line in first_lines)) for p in table.titles.values()]
    return np.array(words + approximate + titles + _structures(pages, text), dtype=np.float64)


def _page_words(pages: Sequence[PageText]) -> str:
    # "THANKYOU", as OCR glues it, is the phrase "thank you"
    return re.sub(r"(?<![\w])thankyou(?![\w])", "thank you", fold_cue("\n".join(p.text for p in pages)))


def _structures(pages: Sequence[PageText], text: str) -> list[float]:
    lines = [line.text for page in pages for line in page.lines]
    evidence = cues().evidence
    dated = sum(1 for line in lines if DATED_ROW.match(line))
    instalments = sum(1 for line in lines if _INSTALMENT_ROW.match(line))
    tilled = sum(1 for line in lines if _COUNTED_ITEM.match(line) or _VAT_CLASSED_AMOUNT.search(line))
    amounts = len(AMOUNT.findall(text))
    mrz = mrz_line_type(pages)
    return [
        float(mrz == "passport"),
        float(mrz == "id_card"),
        float(licence_holder_described(pages)),
        float(tilled >= 3),
        float(dated >= 8),
        float(instalments >= 4 and instalments * 2 > dated),
        float(_paid_at_counter(text, evidence["payment_means"])),
        float(_has(evidence["billed_party"], text)),
        float(_TIME_OF_DAY.search(text) is not None),
        float(_has(evidence["payment_demand"], text)),
        float(_has(evidence["ledger_balance"], text)),
        float(amounts >= 4),
        float(amounts >= 12),
        float(len(pages) >= 2),
    ]


def _has(pattern: re.Pattern[str] | None, text: str) -> bool:
    return pattern is not None and pattern.search(text) is not None


def _paid_at_counter(text: str, means: re.Pattern[str] | None) -> bool:
    """A means of payment with the amount it paid on its line or the next ("CASH $6.90"), or with
    the masked number of the card that paid: the word alone is prose ("Change of opening hours")."""
    lines = text.split("\n")
    return any(
        _has(means, line)
        and any(AMOUNT.search(near) or _MASKED_CARD.search(near) for near in lines[i : i + 2])
        for i, line in enumerate(lines)
    )


def mrz_line_type(pages: Sequence[PageText]) -> str | None:
    """ "passport" or "id_card" where a line of an MRZ, fillers and all, is on the pages though the
    MRZ reader could not read it whole (a card photographed upside down): a passport's lines run to
    44 characters, a card's to 30 or 36."""
    lengths = [
        len(line.text.replace(" ", ""))
        for page in pages
        for line in page.lines
        if ("<<" in line.text and looks_like_mrz_line(line.text)) or _passport_mrz_first_line(line.text)
    ]
    if not lengths:
        return None
    return "passport" if max(lengths) >= _TD3_LINE_MIN else "id_card"


def _passport_mrz_first_line(text: str) -> bool:
    """No word of prose runs to 40 capitals without a space, and none opens with "P", one letter
    and a state's code: a passport's first MRZ line, though not one "<" of it was read."""
    match = _TD3_FIRST_LINE.fullmatch(text.replace(" ", ""))
    return match is not None and is_known_code(match.group(1))


def licence_holder_described(pages: Sequence[PageText]) -> bool:
    """An eye colour's AAMVA code alone on a line and a height: a North American licence, whatever
    of its captions ("EYES", "HGT") a smear took."""
    lines = [line.text for page in pages for line in page.lines]
    return any(_EYE_COLOUR_CODE.fullmatch(t) for t in lines) and any(_HEIGHT.search(t) for t in lines)


def names_itself(pages: Sequence[PageText], document_type: str) -> bool:
    """Whether the pages print one of the type's decisive phrases (its name: "PASSPORT",
    "PERSONALAUSWEIS")."""
    text = _page_words(pages)
    return bool(cues().phrases.found(text, re.sub(r"\s+", "", text)).get((document_type, "decisive")))
