"""Does the printed page say what the MRZ says?

The MRZ's check digits guard numbers and dates but not names: a misread letter in a surname
passes every check. The visual inspection zone prints the same names in large type, so a name
found there, word for word, is a second independent reading. Agreement is evidence of a right
name; absence is no evidence of a wrong one (the printed name may carry accents or a
transliteration the MRZ spells differently, or OCR may have missed it), so it only ever adds
confidence.
"""

from __future__ import annotations

import re
import unicodedata

from engines.layout import PageText
from engines.mrz.reader import looks_like_mrz_line

# Fields whose MRZ value is worth looking for among the printed words.
CROSS_CHECKED_FIELDS = ("surname", "given_names", "document_number")
_NOT_ALNUM = re.compile(r"[^A-Z0-9]+")
_MIN_GLUED_NAME = 8


def _plain(text: str) -> str:
    """Upper case, accents dropped, anything but letters and digits turned into one space."""
    decomposed = unicodedata.normalize("NFKD", text.upper())
    letters = "".join(c for c in decomposed if not unicodedata.combining(c))
    return _NOT_ALNUM.sub(" ", letters).strip()


def _printed_words(page: PageText) -> tuple[str, str]:
    """The page's words outside the MRZ (a name found in the MRZ's own OCR proves nothing),
    spaced and with every space removed (OCR often glues words of large print)."""
    lines = [line.text for line in page.lines if "<" not in line.text and not looks_like_mrz_line(line.text)]
    spaced = " ".join(_plain(text) for text in lines)
    return f" {spaced} ", spaced.replace(" ", "")


def fields_in_visual_zone(values: dict[str, str | None], page: PageText) -> set[str]:
    """The names of ``values`` (of :data:`CROSS_CHECKED_FIELDS`) printed on ``page`` too.

    A name matches word for word; its last word may be a prefix of the printed one, since the
    MRZ truncates long names. A document number matches with or without spaces.
    """
    spaced, squashed = _printed_words(page)
    found = set()
    for name in CROSS_CHECKED_FIELDS:
        value = values.get(name)
        if not value:
            continue
        plain = _plain(value)
        if len(plain.replace(" ", "")) < 2:
            continue
        if name == "document_number":
            if plain.replace(" ", "") in squashed:
                found.add(name)
        elif _name_printed(plain, spaced, squashed):
            found.add(name)
    return found


def _name_printed(name: str, spaced: str, squashed: str) -> bool:
    if re.search(rf" {re.escape(name)}[A-Z]* ", spaced):
        return True
    glued = name.replace(" ", "")
    # a name of several words that OCR printed glued together; long enough not to match by chance
    return glued != name and len(glued) >= _MIN_GLUED_NAME and glued in squashed


# Words shorter than this differ from some printed word by one letter too often by chance.
_MIN_NEAR_MISS_WORD = 4


def names_printed_differently(values: dict[str, str | None], page: PageText) -> set[str]:
    """The names of ``values`` not printed word for word, where a printed word differs from one of
    the name's words in exactly one letter (HAZS in the MRZ, HANS in print), or holds it with a
    few letters more inside or in front (BRN in the MRZ, BROWN in print).

    Two readings of one name that disagree in a letter mean one of them misread it, and no check
    digit says which. The name is not wrong for that, but it is no longer evidence-free either:
    its confidence must drop, where an unprinted name (accents, transliteration, a missed line)
    keeps its own.
    """
    spaced, squashed = _printed_words(page)
    printed = set(spaced.split())
    differing = set()
    for name in ("surname", "given_names"):
        value = values.get(name)
        if not value:
            continue
        plain = _plain(value)
        if _name_printed(plain, spaced, squashed):
            continue
        for word in plain.split():
            if word in printed:
                continue
            if (len(word) >= _MIN_NEAR_MISS_WORD and _one_letter_apart(word, printed)) or _letters_lost(
                word, printed
            ):
                differing.add(name)
                break
    return differing


# At most this many letters an MRZ name word may have lost against a printed word.
_MAX_LOST_LETTERS = 3


def _letters_lost(word: str, printed: set[str]) -> bool:
    """Is ``word`` a printed word with a few letters lost inside it or at its start (BRN of
    BROWN, AME of KWAME)? A TD3 zone read as a TD2 one, 36 characters a line where 44 are
    printed, loses letters of the names, and no check digit guards them. A printed word that
    merely continues the name (the MRZ truncates long names) is no such loss."""
    if len(word) < 3:
        return False
    for other in printed:
        extra = len(other) - len(word)
        if 0 < extra <= _MAX_LOST_LETTERS and not other.startswith(word) and _is_subsequence(word, other):
            return True
    return False


def _is_subsequence(word: str, other: str) -> bool:
    letters = iter(other)
    return all(char in letters for char in word)


def _one_letter_apart(word: str, printed: set[str]) -> bool:
    return any(
        len(other) == len(word) and sum(a != b for a, b in zip(word, other, strict=True)) == 1
        for other in printed
    )


def _check_value(char: str) -> int:
    """A character's value in an ICAO 9303 check digit (digits as such, A=10 ... Z=35)."""
    return int(char) if char.isdigit() else ord(char) - ord("A") + 10


def document_number_from_visual_zone(value: str, page: PageText) -> str | None:
    """The printed document number, where the MRZ's reading differs from it only in characters
    its check digit cannot tell apart (G and 6, O and 0... any two whose values differ by a
    multiple of ten, since every weight 7, 3, 1 is prime to ten), so both satisfy the check digit
    and the printed page, read in another typeface, settles which is right. None otherwise."""
    if len(value) < 6:
        return None
    tokens = _printed_words(page)[0].split()
    found = set()
    for token in tokens:
        if len(token) != len(value) or token == value:
            continue
        if all(
            a == b or (a.isalnum() and b.isalnum() and (_check_value(a) - _check_value(b)) % 10 == 0)
            for a, b in zip(token, value, strict=True)
        ):
            found.add(token)
    return found.pop() if len(found) == 1 and value not in tokens else None


# Characters OCR takes for one another in a document number, as pairs of one class each.
_LOOKALIKES = ("O0", "Q0", "D0", "I1", "L1", "S5", "B8", "Z2", "G6")
_WEIGHTS = (7, 3, 1)


def _lookalike(a: str, b: str) -> str | None:
    """The class of a lookalike pair ("O0") that ``a`` and ``b`` form, else None."""
    return next((pair for pair in _LOOKALIKES if {a, b} == set(pair)), None)


def _weighted(value: str) -> int:
    return sum(_WEIGHTS[i % 3] * _check_value(c) for i, c in enumerate(value))


def number_ambiguous_in_print(value: str, page: PageText) -> bool:
    """Does the printed page name a lookalike of the MRZ's document number ("OLI50EW7" printed,
    "0LI50EW7" in the MRZ) that, with one more lookalike of the same kind changed where the print
    agrees with the MRZ, passes the same check digit ("OLI5OEW7")? Two O read as 0 at weights
    that add to ten leave the check digit as it was, so the MRZ's reading and that one are equally
    likely, and the print, which backs each at one character, cannot say which: a person decides.
    A print that backs no other passing reading merely misread the number."""
    if len(value) < 6 or not value.isalnum():
        return False
    target = _weighted(value) % 10
    for token in _printed_words(page)[0].split():
        if len(token) != len(value) or token == value:
            continue
        differing = [i for i, (a, b) in enumerate(zip(token, value, strict=True)) if a != b]
        kinds = {_lookalike(token[i], value[i]) for i in differing}
        kind = kinds.pop() if len(kinds) == 1 else None
        if kind is None:
            continue
        backed = "".join(token[i] if i in differing else c for i, c in enumerate(value))
        if _weighted(backed) % 10 == target:
            return True  # the print's own reading passes too
        for i, char in enumerate(value):
            if i in differing or char not in kind:
                continue
            other = kind[1] if char == kind[0] else kind[0]
            if _weighted(backed[:i] + other + backed[i + 1 :]) % 10 == target:
                return True
    return False
