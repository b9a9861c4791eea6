"""A second reader for the names and addresses OCR read: accents, lost spaces, and agreement.

PP-OCRv4's recogniser has no accented Latin letters (it reads MÜLLER as MULLER, HÉLÈNE as
HELENE) and its word spaces are restored by us, imperfectly ("ANOUKVOS"). Tesseract's LSTM model
for the Latin script knows every accent and spaces words itself, but misreads more on degraded
photos. Each is good where the other is weak, so the field's crop is read again by Tesseract and
the two readings are *merged only when they agree letter for letter once accents and spaces are
set aside*: then the letters are PP-OCR's (confirmed), the accents Tesseract's, and the spaces
both readers' (a space either one saw; a missing space is a far commoner OCR error than an
invented one), except where Tesseract reads a lower-case letter running into a capital
("MistralNet"): the capital's wider gap is what the word-space restorer took for a space. Agreement is also evidence: two different readers rarely make the same mistake, so
an agreed value is marked ``valid`` (cross-checked), as a name the MRZ and the printed page agree
on is, and the calibration learns what that is worth. Where the readings differ only at letters
Tesseract reads accented and PP-OCR printed as something else (Ü as "I": "MINCHEN"), Tesseract's
spelling is taken, not marked cross-checked: PP-OCR's letters there are no evidence. Any other
disagreement keeps PP-OCR's value, halves its raw confidence, and is listed for the reviewer.

Tesseract runs in-process (``tesserocr``) with Debian's ``tesseract-ocr-script-latn`` model,
about 8 ms a field. Where either is missing the engine runs without a second reading (and says so
once in the log): results stay correct, only fewer are confirmed.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import re
import threading
import tomllib
import unicodedata
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from engines.business.names import (
    canonical_name,
    clean_person,
    is_courtesy_title,
    with_ordinal_indicators,
    with_street_type_apart,
)
from engines.evidence import TWO_READINGS, with_evidence
from engines.images import rotate
from engines.knowledge import KNOWLEDGE
from engines.page_text import PageFrame
from engines.spec import fields_in_format, fields_of_kind
from engines.types import Check, FieldResult
from engines.validators import find_amounts, find_dates, format_amount

logger = logging.getLogger(__name__)

# Fields whose values are words OCR may misspell and no validator checks: free text in the spec.
SECOND_READ_FIELDS = fields_in_format("text")
_PERSON_FIELDS = frozenset({"full_name", "account_holder"})
CHECK_NAME = "ocr_second_reading"
TESSDATA_ENV = "DOCINTEL_TESSDATA"
_TESSDATA_CANDIDATES = ("/usr/share/tesseract-ocr/5/tessdata", "/usr/share/tesseract-ocr/4.00/tessdata")
_MODEL = "Latin"
# Letters that do not decompose into a base letter and a combining mark.
_FOLD_SPECIAL: dict[str, str] = tomllib.loads(
    (Path(__file__).resolve().parent / "knowledge" / "letters.toml").read_text(encoding="utf-8")
)["undecomposed"]
# Margins above and below the box tried in turn, as fractions of its height: an accent rises a
# quarter of a capital's height above it (a box tight on "25 ALLÉE VICTOR HUGO" of a clean scan
# cut the É's accent off, and both readers agreed on ALLEE), and nothing but descenders goes
# below the baseline; a crop reaching into the next line makes Tesseract's single-line mode read
# nothing or other letters, and the next, tighter crop is read.
_CROP_MARGINS_Y = ((0.3, 0.05), (0.05, 0.05), (0.0, 0.0))
_DISAGREEMENT_FACTOR = 0.5  # on the raw confidence; the calibration learns what is left


def fold(text: str) -> str:
    """Upper case without accents, the way PP-OCR's alphabet would spell it."""
    out = []
    for char in text.upper():
        special = _FOLD_SPECIAL.get(char)
        if special is not None:
            out.append(special)
            continue
        out.append("".join(c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c)))
    return "".join(out)


# Accented capitals the documents' languages write (every language file's accented_capitals, and
# Portuguese names'): any other, and French's Û (a few common words, hardly a name), is a rare reading.
_COMMON_ACCENTED = "".join(sorted(set(KNOWLEDGE.words("accented_capitals"))))
_RARE_ACCENT = re.compile(rf"[^\W\d_A-Z{_COMMON_ACCENTED}ß]")


@dataclasses.dataclass(frozen=True)
class _Merged:
    value: str
    spaces_overruled: bool  # some of Tesseract's word spaces were taken for letter spacing


_Char = tuple[str, str, bool, bool]  # upper case, folded spelling, space before, read in lower case


def _located(first: str, second: str) -> tuple[list[_Char], int, int] | None:
    """``second``'s characters and the first and last of those that spell ``first`` (folded,
    spaces aside), or None where they do not, or twice."""
    target = fold(first).replace(" ", "")
    if not target:
        return None
    chars: list[_Char] = []
    space_before = False
    for original in " ".join(second.split()):
        if original == " ":
            space_before = True
            continue
        for char in original.upper():  # "ß" is two letters in upper case
            chars.append((char, fold(char), space_before, original.islower()))
            space_before = False
    folded = "".join(f for _, f, _, _ in chars)
    start = folded.find(target)
    if start < 0 or folded.find(target, start + 1) >= 0:
        return None
    # the window must begin and end on whole characters of ``second``
    position, first_index = 0, None
    last_index = None
    for index, (_, spelling, _, _) in enumerate(chars):
        if position == start:
            first_index = index
        position += len(spelling)
        if position == start + len(target):
            last_index = index
            break
    if first_index is None or last_index is None:
        return None
    return chars, first_index, last_index


def _merged(first: str, second: str, *, person: bool = False) -> _Merged | None:
    """``first`` (PP-OCR's value) with ``second``'s accents and both readers' spaces, when
    ``second`` contains the same letters as ``first`` once folded (it may carry stray marks
    before or after: a border read as "|", a label's tail); ``None`` when they disagree.
    ``person``: the value is a person's name, whose words all begin with a capital but for a few
    particles ("van", "de")."""
    located = _located(first, second)
    if located is None or _cut_from_a_word(*located):
        return None
    return _merged_at(first, located, person=person)


def _merged_at(first: str, located: tuple[list[_Char], int, int], *, person: bool) -> _Merged:
    """The merge of ``first`` into the characters of the second reading that spell it."""
    chars, first_index, last_index = located
    target = fold(first).replace(" ", "")
    window = chars[first_index : last_index + 1]
    first_spaces = _space_positions(first)
    # where a space goes, counted in folded letters; then Tesseract's own spaces that would
    # letter-space one of PP-OCR's words are dropped again
    spaces: set[int] = set()
    letters_seen = 0
    for offset, (_, spelling, spaced, _) in enumerate(window):
        if offset and (
            spaced
            or (
                letters_seen in first_spaces
                and not _camel_case_joint(window, offset)
                and not _lone_letter_joint(window, offset, letters_seen, first_spaces)
                and not _lone_last_letter_joint(window, offset, letters_seen + len(spelling), first_spaces)
            )
        ):
            spaces.add(letters_seen)
        letters_seen += len(spelling)
    letter_spacing = _letter_spacing(spaces - first_spaces, first_spaces, target, _one_letter_words(window))
    letter_spacing |= _gaps_inside_a_word(spaces - first_spaces, window, person=person)
    letter_spacing |= _gaps_inside_a_number(spaces - first_spaces, target)
    letter_spacing |= _gaps_after_a_camel_case_capital(spaces - first_spaces, window)
    spaces -= letter_spacing
    merged: list[str] = []
    letters_seen = 0
    for offset, (char, spelling, _, _) in enumerate(window):
        if offset and letters_seen in spaces:
            merged.append(" ")
        merged.append(char)
        letters_seen += len(spelling)
    return _Merged("".join(merged), bool(letter_spacing))


def _cut_from_a_word(chars: list[_Char], first: int, last: int) -> bool:
    """Does PP-OCR's value begin or end inside one of Tesseract's words? Its box then cut the word
    (Tesseract reads "icerie Moreau" where PP-OCR read "CERIE MOREAU" of "Épicerie Moreau"), and
    letters the box lost are no agreement. A courtesy title glued before a name ("MrJames") is
    the one word allowed to run into the value."""
    if last + 1 < len(chars) and not chars[last + 1][2] and chars[last + 1][0].isalpha():
        return True
    if first == 0 or chars[first][2] or not chars[first - 1][0].isalpha():
        return False
    start = first
    while start > 0 and not chars[start][2]:
        start -= 1
    return not is_courtesy_title("".join(char for char, _, _, _ in chars[start:first]))


def _letter_spacing(
    extra: set[int], first_spaces: set[int], letters: str, one_letter_words: set[int]
) -> set[int]:
    """Tesseract's spaces inside one of PP-OCR's words of letters that leave a letter alone at
    its end, or two letters alone anywhere ("RESTAURANT" read "RES TAURAN T", "C A F E" off a
    tracked-out heading): the gaps of wide letter spacing, not word spaces. Words PP-OCR ran
    together stay apart ("DUSSELDORFEG" is DÜSSELDORF EG, "TERCHEMINDU" TER CHEMIN DU), and so do
    an initial in front ("ASMITH" is A SMITH), a house number's direction ("5714S" is 5714 S) and
    a conjunction Tesseract read as a word of its own in lower case (``one_letter_words``, letter
    positions: "PEREZY" is PÉREZ y, of "Pérez y Torres")."""
    bounds = [0, *sorted(first_spaces), len(letters)]
    dropped: set[int] = set()
    for start, end in pairwise(bounds):
        inside = sorted(p for p in extra if start < p < end)
        if not inside or not letters[start:end].isalpha():
            continue
        cuts = [start, *inside, end]
        singles = sum(1 for a, b in pairwise(cuts) if b - a == 1 and a not in one_letter_words)
        if singles >= 2 or (cuts[-1] - cuts[-2] == 1 and cuts[-2] not in one_letter_words):
            dropped.update(inside)
    return dropped


def _gaps_after_a_camel_case_capital(extra: set[int], window: list[_Char]) -> set[int]:
    """Tesseract's spaces between a capital that follows a lower-case letter and a lower-case
    letter: "RiversideN et" of "RiversideNet", where a capital's wide side bearing passed for a
    word space and the piece after it ("et") is a word of its own in French."""
    dropped: set[int] = set()
    letters_seen = 0
    for offset, (char, spelling, _, lower) in enumerate(window):
        if (
            offset >= 2
            and letters_seen in extra
            and lower
            and char.isalpha()
            and not window[offset - 1][3]
            and window[offset - 1][0].isalpha()
            and window[offset - 2][3]
            and not window[offset - 1][2]
        ):
            dropped.add(letters_seen)
        letters_seen += len(spelling)
    return dropped


def _gaps_inside_a_number(extra: set[int], letters: str) -> set[int]:
    """Tesseract's spaces between two digits PP-OCR read as one number: a "1"'s wide side
    bearings leave a gap Tesseract takes for a word space ("3 1 Chapel Street" of "31 Chapel
    Street", approved so on a scanned statement of seed 74). PP-OCR's number stands, but the
    readers disagreed on it, so it earns no cross-check (a flat's number glued to the house's,
    "Flat 5167", is the rarer other case)."""
    return {p for p in extra if 0 < p < len(letters) and letters[p - 1].isdigit() and letters[p].isdigit()}


# Lower-case words of people's names: particles of surnames and conjunctions.
_NAME_PARTICLES = frozenset(KNOWLEDGE.words("name_particles"))
# ... and the lower-case words of firms' names and addresses ("Frankfurt am Main", "Bar de la
# Plaza", "Via dei Mille", "Smith and Sons"), legal forms among them ("Volksbank eG")
_LOWER_CASE_WORDS = _NAME_PARTICLES | frozenset(KNOWLEDGE.words("lower_case_words"))


# An article elided before a vowel opens a word too ("Rue de l'Église", "Via dell'Orso").
_ELIDED_ARTICLE = re.compile("^(?:l|d|dell|all|dall|nell|sull|qu)['\u2019]")


def _gaps_inside_a_word(extra: set[int], window: list[_Char], *, person: bool) -> set[int]:
    """Tesseract's spaces inside one of PP-OCR's words, between two letters it read in lower
    case, where the piece after is no particle or function word ("Thom pson", "Supe rmarkt"): a
    name's words begin with a capital, so that gap is a wide letter space, not a word break
    ("Maria de Souza" and "Frankfurt am Main" are). A firm's name or an address may be printed
    all in lower case ("the coffee house"), where a lost space is the likelier error: there only
    a gap inside a word that begins with a capital counts."""
    positions: list[int] = []
    letters_seen = 0
    for _, spelling, _, _ in window:
        positions.append(letters_seen)
        letters_seen += len(spelling)
    words = _NAME_PARTICLES if person else _LOWER_CASE_WORDS
    dropped: set[int] = set()
    for offset in range(1, len(window)):
        if positions[offset] not in extra:
            continue
        before, after = window[offset - 1], window[offset]
        if not (before[3] and after[3] and before[0].isalpha() and after[0].isalpha()):
            continue
        begins = max((i for i in range(offset) if i == 0 or window[i][2]), default=0)
        if not person and window[begins][3]:
            continue  # the word begins in lower case: the name is printed so
        end = next((i for i in range(offset + 1, len(window)) if window[i][2]), len(window))
        piece = "".join(char for char, _, _, _ in window[offset:end]).lower()
        if piece not in words and not _ELIDED_ARTICLE.match(piece):
            dropped.add(positions[offset])
    return dropped


# One-letter words that join two names ("Pérez y Torres", "Rossi e Figli").
_ONE_LETTER_WORDS = frozenset(KNOWLEDGE.words("one_letter_words"))


def _one_letter_words(window: list[_Char]) -> set[int]:
    """Where Tesseract read a one-letter conjunction in lower case as a word of its own, counted in
    folded letters before it: a word, not a letter of a tracked-out heading (those are capitals)."""
    found: set[int] = set()
    letters_seen = 0
    for offset, (char, spelling, spaced, lower) in enumerate(window):
        alone_after = offset + 1 == len(window) or window[offset + 1][2]
        if offset and spaced and alone_after and lower and char.lower() in _ONE_LETTER_WORDS:
            found.add(letters_seen)
        letters_seen += len(spelling)
    return found


def _camel_case_joint(window: list[_Char], offset: int) -> bool:
    """Does Tesseract read a lower-case letter followed by a capital there, with no space
    ("MistralNet")? A capital's side bearing widens the gap before it, and the word-space
    restorer of PP-OCR's reading takes that for a space; Tesseract, which spaces words itself,
    saw one word."""
    previous, current = window[offset - 1], window[offset]
    return previous[3] and previous[0].isalpha() and current[0].isalpha() and not current[3]


def _lone_letter_joint(window: list[_Char], offset: int, position: int, first_spaces: set[int]) -> bool:
    """Does PP-OCR's space there leave one letter alone as a word ("F RISCHKAUF") where Tesseract
    reads that letter running into lower-case ones ("frischkauf")? A monospaced capital's wide
    side bearing is what the word-space restorer took for a space; a word continued in lower
    case is one word, and an initial is followed by a capital ("A Smith")."""
    previous, current = window[offset - 1], window[offset]
    starts_a_word = position - 1 == 0 or position - 1 in first_spaces or previous[2]
    return starts_a_word and previous[0].isalpha() and current[0].isalpha() and current[3]


def _lone_last_letter_joint(window: list[_Char], offset: int, after: int, first_spaces: set[int]) -> bool:
    """Does PP-OCR's space there leave a word's last letter alone ("89 MIL L CLOSE") where
    Tesseract reads it running on from a lower-case letter ("Mill")? A letter's side bearing,
    not a word space: a word does not end in a capital read alone after lower-case letters, but
    for a one-letter word ("Pérez y Torres"), which Tesseract would have spaced. ``after``: the
    folded letters up to and with this one."""
    previous, current = window[offset - 1], window[offset]
    ends_a_word = offset + 1 == len(window) or after in first_spaces or window[offset + 1][2]
    return (
        ends_a_word
        and previous[3]
        and current[3]
        and previous[0].isalpha()
        and current[0].isalpha()
        and current[0].lower() not in _ONE_LETTER_WORDS
    )


# What PP-OCR prints for a letter its alphabet lacks besides the bare letter: the diaeresis and
# stem read as strokes (MÜNCHEN read "MINCHEN", MÜNSTER "MIINSTER"), or the letter and its mark
# read as two (DOÑA read "DONIA").
_UNSPELLABLE_STAND_INS = r"[IL]{1,2}"


def respell_unspellable(first: str, second: str) -> str | None:
    """``second``'s spelling where it differs from ``first`` only at accented letters, each of
    which ``first`` (PP-OCR, whose alphabet has no accents) printed as a stand-in (Ü as "I" or
    "II"): there PP-OCR's letters carry no evidence against the second reader's. ``None`` when
    anything else differs, or when ``second`` has no accented letter to explain the difference."""
    target = fold(first).replace(" ", "")
    words = " ".join(second.upper().split())
    positions = [i for i, c in enumerate(words) if c != " "]
    chars = [words[i] for i in positions]
    if not target or not any(fold(c) != c for c in chars):
        return None
    found: set[str] = set()
    for start in range(len(chars)):
        if _inside_a_word(words, positions[start] - 1):
            continue  # PP-OCR's box cut the word's first letters off ("EGIE" of "RÉGIE")
        pattern = ""
        for end in range(start, min(len(chars), start + len(target))):  # a letter stands for 1+
            char = chars[end]
            base = re.escape(fold(char))
            pattern += f"(?:{base}[IL]?|{_UNSPELLABLE_STAND_INS})" if fold(char) != char else base
            if re.fullmatch(pattern, target) and not _inside_a_word(words, positions[end] + 1):
                found.add(_window_with_spaces(words, start, end))
    return found.pop() if len(found) == 1 else None


def _inside_a_word(words: str, index: int) -> bool:
    """Is ``words[index]`` a letter, so that a window next to it would split a word?"""
    return 0 <= index < len(words) and words[index].isalpha()


def _window_with_spaces(words: str, start: int, end: int) -> str:
    """Characters ``start``..``end`` (counted without spaces) of ``words``, with its spaces."""
    out: list[str] = []
    index = -1
    for char in words:
        if char == " ":
            if out and index < end:
                out.append(char)
            continue
        index += 1
        if start <= index <= end:
            out.append(char)
    return "".join(out).strip()


def _space_positions(text: str) -> set[int]:
    """Where ``text`` has a space, counted in folded letters before it."""
    positions, count = set(), 0
    for char in text.upper():
        if char == " ":
            positions.add(count)
        else:
            count += len(fold(char))
    return positions


def confirm_fields(
    fields: dict[str, FieldResult], images: list[np.ndarray], frames: dict[int, PageFrame]
) -> tuple[dict[str, FieldResult], list[Check]]:
    """Read every OCR'd name and address field again (boxes in the pages' reading frames) and
    merge or confirm it; a check lists the fields the two readers disagree on."""
    eligible = [
        name
        for name, f in fields.items()
        if name in SECOND_READ_FIELDS and f.source == "ocr" and f.value and f.bbox and f.page in frames
    ]
    if not eligible:
        return fields, []
    reader = _reader()
    if reader is None:
        return fields, []
    out = dict(fields)
    disagreed: list[str] = []
    straightened: dict[int, np.ndarray] = {}
    for name in eligible:
        f = fields[name]
        assert f.value is not None and f.bbox is not None
        if f.page not in straightened:
            straightened[f.page] = reading_frame_image(images[f.page - 1], frames[f.page])
        merged = None
        seconds = []
        for margins in _CROP_MARGINS_Y:
            second = reader.read_line(_crop(straightened[f.page], f.bbox, margins))
            seconds.append(second)
            located = _located(f.value, second) if second else None
            if located is None:
                continue
            if _cut_from_a_word(*located):
                break  # the box lost letters of a word, whatever a narrower crop shows
            merged = _merged_at(f.value, located, person=name in _PERSON_FIELDS)
            break
        if merged is None:
            respelled = next(
                (r for r in (respell_unspellable(f.value, x) for x in seconds if x) if r is not None), None
            )
            if respelled is not None:
                # the letters agree but for the ones PP-OCR cannot spell: take their spelling,
                # without claiming the cross-check an exact agreement earns
                value = clean_person(respelled) if name in _PERSON_FIELDS else canonical_name(respelled)
                out[name] = dataclasses.replace(f, value=value)
                continue
            # a second reader that cannot find the same letters there is evidence against them
            disagreed.append(name)
            out[name] = dataclasses.replace(f, confidence=round(f.confidence * _DISAGREEMENT_FACTOR, 4))
            continue
        value = clean_person(merged.value) if name in _PERSON_FIELDS else canonical_name(merged.value)
        if name == "address_street":
            value = with_street_type_apart(with_ordinal_indicators(value))
        if not (fold(value).replace(" ", "") and value):
            continue
        # The readers agree on the letters; where PP-OCR's word was kept against Tesseract's
        # spaces ("BLUEWAVELUZY" against "BLUEWAVE LUZ Y"), they did not agree on the words, and
        # the value takes the accents without the cross-check.
        # Nor where Tesseract put on a letter an accent our languages hardly ever write there: it
        # takes Ü for Û and É for Ė on a soft scan, and PP-OCR, without accents, cannot object.
        agreed = not merged.spaces_overruled and not _RARE_ACCENT.search(value)
        out[name] = dataclasses.replace(f, value=value, valid=True if f.valid is None and agreed else f.valid)
        if agreed:
            out[name] = with_evidence(out[name], TWO_READINGS)
    detail = "" if not disagreed else "not confirmed by a second reading: " + ", ".join(sorted(disagreed))
    return out, [Check(CHECK_NAME, not disagreed, detail)]


# Dates and amounts: values whose risk is their characters, read again to confirm (never to mend).
CONFIRMED_KINDS = ("date", "amount")
_VALUE_FIELDS = fields_of_kind(*CONFIRMED_KINDS)


def confirm_values(
    fields: dict[str, FieldResult], images: list[np.ndarray], frames: dict[int, PageFrame]
) -> dict[str, FieldResult]:
    """Read every OCR'd date and amount again with the other OCR, in its box: where the second
    reading holds the same date or amount, the field gains ``two_readings`` evidence. Nothing
    else changes: a second reader that cannot read a cramped box is no evidence against it."""
    eligible = [
        name
        for name, f in fields.items()
        if name in _VALUE_FIELDS and f.source == "ocr" and f.value and f.bbox and f.page in frames
    ]
    reader = _reader() if eligible else None
    if reader is None:
        return fields
    out = dict(fields)
    straightened: dict[int, np.ndarray] = {}
    for name in eligible:
        f = fields[name]
        assert f.value is not None and f.bbox is not None
        if f.page not in straightened:
            straightened[f.page] = reading_frame_image(images[f.page - 1], frames[f.page])
        second = reader.read_line(_crop(straightened[f.page], f.bbox, (0.15, 0.1)))
        if second and f.value in _values_in(second, date_kind=name in _DATE_FIELDS):
            out[name] = with_evidence(f, TWO_READINGS)
    return out


_DATE_FIELDS = fields_of_kind("date")


def _values_in(text: str, *, date_kind: bool) -> set[str]:
    """The canonical dates (in either day-month order) or amounts a reading holds."""
    if date_kind:
        return {m.value.isoformat() for prefer in ("dmy", "mdy") for m in find_dates(text, prefer=prefer)}
    return {format_amount(abs(m.value)) for m in find_amounts(text)}


def reading_frame_image(image: np.ndarray, frame: PageFrame) -> np.ndarray:
    """The page's pixels as OCR's lines lie in its reading frame: cropped, turned, straightened."""
    if frame.crop is not None:
        height, width = image.shape[:2]
        x0, y0, x1, y1 = frame.crop
        image = image[round(y0 * height) : round(y1 * height), round(x0 * width) : round(x1 * width)]
    image = rotate(image, frame.turn)
    if frame.skew:
        height, width = image.shape[:2]
        # the lines were straightened by turning their points -skew degrees (clockwise positive);
        # OpenCV's positive angle turns counter-clockwise, the same motion
        matrix = cv2.getRotationMatrix2D((width / 2, height / 2), frame.skew, 1.0)
        image = cv2.warpAffine(image, matrix, (width, height), borderMode=cv2.BORDER_REPLICATE)
    return image


def _crop(
    image: np.ndarray, bbox: tuple[float, float, float, float], margins: tuple[float, float]
) -> np.ndarray:
    """The box's pixels with ``margins`` (above, below; fractions of its height) and a letter's
    width or more at either end: a box that starts inside a word ("EGIE" of "RÉGIE") is then
    seen to have cut it, where a margin of a hundredth of a wide page still missed the R."""
    height, width = image.shape[:2]
    x0, y0, x1, y1 = bbox
    box_height = (y1 - y0) * height
    margin_x = max(0.01 * width, box_height)
    top = max(0, int(y0 * height - box_height * margins[0]))
    bottom = min(height, int(y1 * height + box_height * margins[1]) + 1)
    left, right = max(0, int(x0 * width - margin_x)), min(width, int(x1 * width + margin_x) + 1)
    return image[top:bottom, left:right]


class _TesseractLineReader:
    """One Tesseract instance per process (loading the model costs ~0.3 s), calls serialised."""

    def __init__(self, tessdata: str) -> None:
        import tesserocr

        self._api: Any = tesserocr.PyTessBaseAPI(path=tessdata, lang=_MODEL, psm=tesserocr.PSM.SINGLE_LINE)
        self._lock = threading.Lock()

    def read_line(self, crop: np.ndarray) -> str:
        if crop.size == 0 or min(crop.shape[:2]) < 4:
            return ""
        from PIL import Image

        gray = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY) if crop.ndim == 3 else crop
        with self._lock:
            self._api.SetImage(Image.fromarray(gray))
            text: str = self._api.GetUTF8Text()
        return " ".join(text.split())


_reader_lock = threading.Lock()
_reader_instance: _TesseractLineReader | None = None
_reader_failed = False


def _tessdata_dirs() -> Iterator[str]:
    configured = os.environ.get(TESSDATA_ENV, "").strip()
    if configured:
        yield configured
    yield from _TESSDATA_CANDIDATES


def _reader() -> _TesseractLineReader | None:
    global _reader_instance, _reader_failed
    with _reader_lock:
        if _reader_instance is None and not _reader_failed:
            folder = next(
                (d for d in _tessdata_dirs() if (Path(d) / f"{_MODEL}.traineddata").is_file()), None
            )
            try:
                if folder is None:
                    raise FileNotFoundError(f"{_MODEL}.traineddata (Debian: tesseract-ocr-script-latn)")
                _reader_instance = _TesseractLineReader(folder)
            except (ImportError, OSError, RuntimeError) as exc:
                _reader_failed = True
                logger.warning("no second reading of names and addresses: %s", type(exc).__name__)
        return _reader_instance
