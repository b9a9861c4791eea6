"""Is a person's name as read one OCR confusion away from a common spelling?

The two OCR readers (engines.second_reading) agree on most misreadings of a name that matter:
both see "rn" as "m" in a blurred HERNÁNDEZ, both drop the dot below NGUYỆT's E. Their
agreement marks the name cross-checked, and no check digit or arithmetic guards a name, so such
a value was approved straight through. What still tells it apart is that the reading is not a
name people have, while the spelling one confusion away is (engines.knowledge.COMMON_NAMES, from engines/knowledge/names/).

A word is doubted only then: a name that is common as read, or unknown and near no common
name, is left alone (an unknown name is no evidence of a misreading). Accents are doubted only
when the reading has some and they differ from every common spelling of the same letters, or
when another word of the name has some and this one, which every common spelling accents, has
none (LEMAITRE beside FRANÇOIS): a name printed without any accents ("GONZALEZ" on an English
statement) is printed so.

A doubted word whose confusions lead to exactly one common name is also respelled to it
(LLARIA → ILARIA, a sans-serif I taken for l; HÊLÈNE → HÉLÈNE, a tilted photo's acute read as a
circumflex): the reviewer then confirms the likely name rather than retyping it. The confidence
stays doubted and the check still fails, so nobody's name is changed straight through.
"""

from __future__ import annotations

import dataclasses
import re
import unicodedata
from collections import defaultdict

from engines.knowledge import COMMON_NAMES, KNOWLEDGE, strip_accents
from engines.spec import PERSON_NAME_FIELDS, fields_in_format
from engines.types import Check, FieldResult

# The business readers' person-name fields (only OCR'd values are judged: a text layer's are exact).
NAME_FIELDS = PERSON_NAME_FIELDS & fields_in_format("text")
CHECK_NAME = "name_spelling"
_DOUBT_FACTOR = 0.5  # on the raw confidence; the calibration learns what is left
# (printed, read): letter shapes OCR takes for one another in names (engines/knowledge/common.toml)
_CONFUSIONS = KNOWLEDGE.name_confusions
_UNDECOMPOSABLE = str.maketrans({"Đ": "D", "Ł": "L", "Ø": "O", "Æ": "AE", "Œ": "OE", "Ð": "D", "Þ": "TH"})
_WORD = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)?")


def unaccented(word: str) -> str:
    """Upper case without accents, "ß" as "SS"."""
    return strip_accents(word.upper().replace("ß", "SS")).translate(_UNDECOMPOSABLE)


def _upper(text: str) -> str:
    """Upper case, composed, with Turkish dotted capital I as I (the capital of Turkish "i", no
    accent: "DEMİR" and "DEMIR" are one spelling)."""
    return unicodedata.normalize("NFC", text.upper().replace("İ", "I"))


_COMMON = frozenset(_upper(name) for name in COMMON_NAMES)


def _spellings_by_letters() -> dict[str, frozenset[str]]:
    spellings: dict[str, set[str]] = defaultdict(set)
    for name in COMMON_NAMES:
        spellings[unaccented(name)].add(_upper(name))
    return {letters: frozenset(forms) for letters, forms in spellings.items()}


_SPELLINGS = _spellings_by_letters()


def doubtful_words(value: str) -> list[str]:
    """The words of a person's name that look misread (see the module docstring)."""
    doubtful = []
    words = _WORD.findall(_upper(value))
    printed_with_accents = _printed_with_accents(words)
    for word in words:
        if len(word) < 3 or word in _COMMON:
            continue
        letters = unaccented(word)
        if letters in _SPELLINGS:
            # accents read that no common spelling has, or none where the print has them
            if letters != word or printed_with_accents:
                doubtful.append(word)
        elif any(variant in _SPELLINGS for variant in confusion_variants(letters)):
            doubtful.append(word)
    return doubtful


def _printed_with_accents(words: list[str]) -> bool:
    """Does some word of a name carry an accent? Its print writes them then, so a word of it
    without any, whose every common spelling has some (LEMAITRE beside FRANÇOIS), lost them."""
    return any(unaccented(word) != word for word in words)


def confusion_variants(letters: str) -> set[str]:
    """What ``letters`` may have been printed as, one confusion undone."""
    variants = set()
    for printed, read in _CONFUSIONS:
        start = letters.find(read)
        while start != -1:
            variants.add(letters[:start] + printed + letters[start + len(read) :])
            start = letters.find(read, start + 1)
    return variants


# The MRZ's name fields: the check digits guard none of them, and OCR-B's Q, its tail small, is
# read as O ("SIDDIOUI"); only a name the printed page did not confirm is judged.
MRZ_NAME_FIELDS = PERSON_NAME_FIELDS & fields_in_format("upper_name")


def doubt_uncommon_spellings(
    fields: dict[str, FieldResult], *, names: frozenset[str] = NAME_FIELDS, source: str = "ocr"
) -> tuple[dict[str, FieldResult], list[Check]]:
    """Lower the confidence of ``source``'s names with a doubtful word, respell the words with one
    likely common spelling, and withdraw the cross-check two readers' agreement earned (they agree
    on these misreadings); one check lists them. For the MRZ (``names=MRZ_NAME_FIELDS,
    source="mrz"``), a name its printed page confirmed is left alone: the print, in another
    typeface, settles the letter."""
    doubted = sorted(
        name
        for name, f in fields.items()
        if name in names
        and f.source == source
        and f.value
        and (source != "mrz" or f.valid is None)
        and doubtful_words(f.value)
    )
    if not doubted:
        return fields, []
    out = dict(fields)
    for name in doubted:
        f = fields[name]
        out[name] = dataclasses.replace(
            f,
            value=respelled(f.value or "", plain=source == "mrz"),
            confidence=round(f.confidence * _DOUBT_FACTOR, 4),
            valid=None if f.valid is True else f.valid,
        )
    detail = "one OCR confusion from a common spelling: " + ", ".join(doubted)
    return out, [Check(CHECK_NAME, False, detail)]


def respelled(value: str, *, plain: bool = False) -> str:
    """``value`` with each misread word that one confusion takes to a single common name spelled
    as that name (``plain``: without accents, as an MRZ writes it). Only an upper-case value is
    respelled: another case would be changed by more than the letter."""
    if value != _upper(value):
        return value
    printed_with_accents = _printed_with_accents(_WORD.findall(value))

    def likely(match: re.Match[str]) -> str:
        word = match.group(0)
        if len(word) < 3 or word in _COMMON:
            return word
        letters = unaccented(word)
        if letters in _SPELLINGS:
            # the letters a common name's: only accents no common spelling has are in doubt, or
            # accents lost where the name's other words show the print has them
            if letters == word and not printed_with_accents:
                return word
            names = {letters}
        else:
            names = {v for v in confusion_variants(letters) if v in _SPELLINGS}
        if len(names) != 1:
            return word
        (name,) = names
        spellings = _SPELLINGS[name]
        if plain:
            return name
        return next(iter(spellings)) if len(spellings) == 1 else word

    return _WORD.sub(likely, value)


_NAME_PARTS = re.compile(r"[\s\-']+")


def share_spacing_of_one_name(fields: dict[str, FieldResult]) -> dict[str, FieldResult]:
    """The person-name fields that spell one name with the same letters but part it differently
    ("J EAN-LUC GAUTHIER" as addressee, where the second reader split an initial off, and
    "JEAN-LUC GAUTHIER" as holder), each in the parting whose words more common names are; where
    no parting has more, the fields lose half their raw confidence, and a person parts the name."""
    by_letters: dict[str, list[str]] = defaultdict(list)
    for name in sorted(NAME_FIELDS):  # one person's: the addressee, the holder, the customer
        f = fields.get(name)
        if f is not None and f.value and f.source == "ocr":
            by_letters[unaccented(f.value).replace(" ", "")].append(name)
    out = dict(fields)
    for names in by_letters.values():
        partings = {fields[name].value or "" for name in names}
        if len(partings) < 2:
            continue
        counts = {value: _common_parts(value) for value in partings}
        most = max(counts.values())
        best = [value for value, count in counts.items() if count == most]
        for name in names:
            f = fields[name]
            if len(best) == 1:
                out[name] = dataclasses.replace(f, value=best[0])
            else:
                out[name] = dataclasses.replace(f, confidence=round(f.confidence * _DOUBT_FACTOR, 4))
    return out


def _common_parts(value: str) -> int:
    return sum(1 for part in _NAME_PARTS.split(_upper(value)) if part in _COMMON)
