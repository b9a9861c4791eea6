"""Accents both OCR readers lose, put back where the language allows only one spelling.

PP-OCR's alphabet has no accents, and Tesseract, which has them, loses the small marks over
capitals on a tilted or soft photo: both then read "BACKEREI" off "BÄCKEREI", agree letter for
letter, and the value is marked cross-checked although it is misspelt. No check guards a shop's
name, but the language does: German writes an umlaut it cannot print as "ae" ("BAECKEREI"),
never as a bare "a", so "BACKEREI" is no spelling of anything, and the word's one spelling is
the accented one. Only such words are listed (``customary_accents`` in engines/knowledge/lang):
trade words of shop and company names and cities whose unaccented form is no word in any of our
languages (not "CAFE", which English writes so, nor "MARCHE", an Italian region, nor
"DUSSELDORF", as English writes it, nor French words whose only accent is on a capital, which
French print often drops: "EPICERIE").
People's names are never respelled (MULLER is a surname too): engines.business.name_spelling
doubts those instead.
"""

from __future__ import annotations

import dataclasses
import re

from engines.knowledge import KNOWLEDGE, strip_accents
from engines.types import FieldResult

# The business readers' name and address fields whose OCR'd words may have lost their accents.
ACCENTED_FIELDS = frozenset(
    {"vendor_name", "merchant_name", "issuer_name", "customer_name", "address_street", "address_city"}
)
# The words of every language file's customary_accents (engines/knowledge/lang).
_CUSTOMARY = KNOWLEDGE.words("customary_accents")


_SPELLING = {strip_accents(word): word for word in _CUSTOMARY if strip_accents(word) != word}
# Words read with an accent tilted the wrong way that no language of ours writes so ("CAFÈ":
# French and Spanish write "CAFÉ", Italian "CAFFÈ").
_SPELLING.update(KNOWLEDGE.respellings())
_WORD = re.compile(r"[^\W\d_]+")


# French writes a grave È only before a syllable with a mute e ("ÈRE", "ÈVE"), so a word that
# opens with È and a consonant before any other vowel is an acute É the reader tilted
# ("SAINT-ÈTIENNE" for SAINT-ÉTIENNE, "ÈCOLE" for ÉCOLE).
_GRAVE_FOR_ACUTE = re.compile(r"\bÈ(?=[B-DF-HJ-NP-TV-Z][AIOUYÀÂÎÔÛ])")


def with_customary_accents(value: str) -> str:
    """``value`` (upper case) with every listed word read without its accents respelled, and a
    word-initial È that French cannot write there read as É."""
    respelled = _WORD.sub(lambda match: _SPELLING.get(match.group(0), match.group(0)), value)
    return _GRAVE_FOR_ACUTE.sub("É", respelled)


def restore_customary_accents(fields: dict[str, FieldResult]) -> dict[str, FieldResult]:
    """The OCR'd name and address fields with the accents of :data:`_CUSTOMARY` words put back.
    A text layer's values are exact and stay as they are."""
    out = dict(fields)
    for name, f in fields.items():
        if name in ACCENTED_FIELDS and f.source == "ocr" and f.value:
            respelled = with_customary_accents(f.value)
            if respelled != f.value:
                out[name] = dataclasses.replace(f, value=respelled)
    return out


# Fields that name the same person on one document (a statement's addressee and its holder).
_SAME_PERSON_FIELDS = ("full_name", "account_holder", "customer_name")


def _accents(value: str) -> int:
    return sum(1 for char in value if strip_accents(char) != char)


def share_accents_of_one_name(fields: dict[str, FieldResult]) -> dict[str, FieldResult]:
    """The person-name fields that spell one name, but for accents, in the spelling with the
    most accents ("PRIYA RAMIREZ" as holder and "PRIYA RAMÍREZ" as addressee): OCR loses a
    small mark far more often than it invents one, so a mark one crop showed is the name's."""
    values = [fields[name].value for name in _SAME_PERSON_FIELDS if name in fields and fields[name].value]
    out = dict(fields)
    for name in _SAME_PERSON_FIELDS:
        f = fields.get(name)
        if f is None or not f.value or f.source != "ocr":
            continue
        same = [v for v in values if v and strip_accents(v) == strip_accents(f.value)]
        richest = max(same, key=_accents)
        if _accents(richest) > _accents(f.value):
            out[name] = dataclasses.replace(f, value=richest)
    return out
