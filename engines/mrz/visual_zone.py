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
from engines.mrz.checkdigit import char_value, check_digit
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


# What OCR reads for the MRZ's filler '<' in a name: OCR-B's chevron looks like a K or a C.
_FILLER_LOOKALIKES = frozenset("<KC")
# A glued name is split only into at most this many words (the search is exponential in them).
_MAX_SPLIT_WORDS = 8
# Printed words this long may differ from the MRZ's by one letter (SCHRÖDER printed, SCHROEDER
# in the MRZ; OCR's KWAMIE for KWAME); shorter ones must match exactly.
_MIN_LOOSE_WORD = 5


def names_split_by_print(glued: str, page: PageText) -> tuple[str, str] | None:
    """(surname, given names) of a names field whose '<<' and '<' OCR read as letters
    ("SCHROEDERKKJEANKBAPTISTEKKWAMEKPIETROKK"), where the printed page shows every word.

    No check digit guards a name, and a K is a letter: only the print can tell the filler from
    the name. The field is parted as the printed words, one filler between each but for the one
    pair that parts the surname from the given names, with filler lookalikes trailing. The
    MRZ's letters are kept: a long printed word may differ by one letter (a transliteration, an
    OCR slip), the name then being "printed with a letter different" and doubted as such. Only
    a parting that needs the fewest such differences, and is the only one that does, is taken;
    anything else (a word not printed, no pair or two, two ways to part it) leaves it as read."""
    parting = _best_parting(glued.replace(" ", "<"), _printed_name_words(page))
    if parting is None:
        return None
    words, gaps = parting
    if gaps.count(2) != 1:
        return None
    cut = gaps.index(2) + 1
    return _spaced(words[:cut]), _spaced(words[cut:])


def _spaced(words: tuple[str, ...]) -> str:
    """Words joined by spaces, a filler inside one a space too: the print glued two words the
    MRZ parts ("MICHAELJAMES" printed, "MICHAEL<JAMES" in the MRZ, one letter apart)."""
    return " ".join(" ".join(part for part in word.split("<") if part) for word in words)


def name_respaced_by_print(value: str, page: PageText) -> str:
    """``value`` (a surname or given names) with each word the print does not show parted into
    printed words where OCR read the single filler between them as a K or C
    ("LEKHAAPALAINENKPETROVA" of LE HAAPALAINEN PETROVA), by the rules of
    :func:`names_split_by_print` but with no pair of fillers."""
    printed = _printed_name_words(page)
    out: list[str] = []
    for word in value.split():
        parting = None if word in printed or len(word) < 6 else _best_parting(word, printed)
        if parting is not None and len(parting[0]) > 1 and set(parting[1]) == {1}:
            out.append(_spaced(parting[0]))
        else:
            out.append(word)
    return " ".join(out)


def _printed_name_words(page: PageText) -> set[str]:
    spaced, _ = _printed_words(page)
    return {word for word in spaced.split() if len(word) >= 2 and word.isalpha()}


def _best_parting(field: str, printed: set[str]) -> tuple[tuple[str, ...], tuple[int, ...]] | None:
    """The printed words ``field`` reads as and the fillers (1 or 2) between them: the one way
    to part it with the fewest letters differing from the print, or None (no way, or two)."""
    if len(field) < 6 or not printed:
        return None
    # (differences, words, fillers between them) for every way to part the field
    partings: list[tuple[int, tuple[str, ...], tuple[int, ...]]] = []

    def walk(at: int, cost: int, words: tuple[str, ...], gaps: tuple[int, ...]) -> None:
        if len(words) > _MAX_SPLIT_WORDS:
            return
        if words and _filler_misread(field[at:]):
            partings.append((cost, words, gaps[: len(words) - 1]))
        for word, differences in _printed_prefixes(field, at, printed):
            end = at + len(word)
            if end == len(field):
                walk(end, cost + differences, (*words, word), gaps)
            for gap in (1, 2):
                if end + gap <= len(field) and all(c in _FILLER_LOOKALIKES for c in field[end : end + gap]):
                    walk(end + gap, cost + differences, (*words, word), (*gaps, gap))

    walk(0, 0, (), ())
    if not partings:
        return None
    fewest = min(cost for cost, _, _ in partings)
    best = {(words, gaps) for cost, words, gaps in partings if cost == fewest}
    return best.pop() if len(best) == 1 else None


def name_rejoined_by_print(value: str, page: PageText) -> str:
    """``value`` (a surname or given names) with two words joined where the print shows them as
    one word with a K or C between ("AGNIESZ A" of AGNIESZKA): the letter was read as the MRZ's
    filler, which no check digit catches. Words the print shows on their own stay apart."""
    spaced, _ = _printed_words(page)
    printed = set(spaced.split())
    words = value.split()
    out: list[str] = []
    for word in words:
        if out and out[-1] not in printed and word not in printed:
            joined = next(
                (f"{out[-1]}{letter}{word}" for letter in "KC" if f"{out[-1]}{letter}{word}" in printed), None
            )
            if joined is not None:
                out[-1] = joined
                continue
        out.append(word)
    return " ".join(out)


# The padding after the names, read as letters, may hold other letters than K and C
# ("KXAKEKCCCKCKKEKKLKKCKAK"): at most this many in a row, and most of it K, C or '<'.
_MAX_STRAY_LETTERS = 2
_MIN_FILLER_SHARE = 0.6
_STRAY_RUN = re.compile(rf"[^<KC]{{{_MAX_STRAY_LETTERS + 1},}}")


def _filler_misread(tail: str) -> bool:
    """Can ``tail``, the end of a names field, be its filler padding as OCR read it? A run of
    three letters or more is a word (a name the print does not show), never padding."""
    if all(char in _FILLER_LOOKALIKES for char in tail):
        return True
    share = sum(char in _FILLER_LOOKALIKES for char in tail) / len(tail)
    return share >= _MIN_FILLER_SHARE and not _STRAY_RUN.search(tail)


# The shortest end of a name the MRZ's truncation leaves that is matched against the print.
_MIN_TRUNCATED_WORD = 4


def _printed_prefixes(field: str, at: int, printed: set[str]) -> set[tuple[str, int]]:
    """The stretches of ``field`` from ``at`` that read as a printed word, each with the letters
    it differs by (none, or one for a long word: one replaced, missing or extra)."""
    found = set()
    tail = field[at:]
    for word in printed:
        if field.startswith(word, at):
            found.add((word, 0))
        elif len(tail) >= _MIN_TRUNCATED_WORD and word.startswith(tail):
            found.add((tail, 0))  # the MRZ cut the last name at the line's end ("MAXIMILI")
        if len(word) < _MIN_LOOSE_WORD:
            continue
        for length in (len(word) - 1, len(word), len(word) + 1):
            stretch = field[at : at + length]
            if len(stretch) == length and stretch != word and _one_edit_apart(stretch, word):
                found.add((stretch, 1))
    return found


def _one_edit_apart(a: str, b: str) -> bool:
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b, strict=True)) == 1
    shorter, longer = sorted((a, b), key=len)
    return len(longer) - len(shorter) == 1 and any(
        longer[:i] + longer[i + 1 :] == shorter for i in range(len(longer))
    )


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
            a == b or (a.isalnum() and b.isalnum() and (char_value(a) - char_value(b)) % 10 == 0)
            for a, b in zip(token, value, strict=True)
        ):
            found.add(token)
    return found.pop() if len(found) == 1 and value not in tokens else None


# Characters OCR takes for one another in a document number, as pairs of one class each.
_LOOKALIKES = ("O0", "Q0", "D0", "I1", "L1", "S5", "B8", "Z2", "G6")


def _lookalike(a: str, b: str) -> str | None:
    """The class of a lookalike pair ("O0") that ``a`` and ``b`` form, else None."""
    return next((pair for pair in _LOOKALIKES if {a, b} == set(pair)), None)


def number_ambiguous_in_print(value: str, page: PageText) -> bool:
    """Does the printed page name a lookalike of the MRZ's document number ("OLI50EW7" printed,
    "0LI50EW7" in the MRZ) that, with one more lookalike of the same kind changed where the print
    agrees with the MRZ, passes the same check digit ("OLI5OEW7")? Two O read as 0 at weights
    that add to ten leave the check digit as it was, so the MRZ's reading and that one are equally
    likely, and the print, which backs each at one character, cannot say which: a person decides.
    A print that backs no other passing reading merely misread the number."""
    if len(value) < 6 or not value.isalnum():
        return False
    target = check_digit(value)
    for token in _printed_words(page)[0].split():
        if len(token) != len(value) or token == value:
            continue
        differing = [i for i, (a, b) in enumerate(zip(token, value, strict=True)) if a != b]
        kinds = {_lookalike(token[i], value[i]) for i in differing}
        kind = kinds.pop() if len(kinds) == 1 else None
        if kind is None:
            continue
        backed = "".join(token[i] if i in differing else c for i, c in enumerate(value))
        if check_digit(backed) == target:
            return True  # the print's own reading passes too
        for i, char in enumerate(value):
            if i in differing or char not in kind:
                continue
            other = kind[1] if char == kind[0] else kind[0]
            if check_digit(backed[:i] + other + backed[i + 1 :]) == target:
                return True
    return False


_NUMBER_FIELD_LENGTH = 9  # the document-number field of every MRZ format


def number_lengthened_in_print(value: str, page: PageText) -> bool:
    """Does the printed page name the MRZ's document number with more characters after it that
    the check digit cannot tell from the field's filler ("TJY7N9LK" printed, "TJY7N9L<" in the
    MRZ)? A K, A or U weighs a multiple of ten, as '<' weighs nothing, so the MRZ's reading and
    the print's pass alike, and a blurred K looks like a chevron: a person decides."""
    if len(value) < 6 or len(value) >= _NUMBER_FIELD_LENGTH:
        return False
    for token in _printed_words(page)[0].split():
        extra = token[len(value) :]
        if (
            token.startswith(value)
            and extra
            and len(token) <= _NUMBER_FIELD_LENGTH
            and all(char.isalnum() and char_value(char) % 10 == 0 for char in extra)
        ):
            return True
    return False
