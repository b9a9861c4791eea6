"""Find and read the MRZ on a page image.

1. Detect text lines on the whole page (engines.ocr) and recognise the long, thin ones, from the
   bottom of the page up (where an MRZ sits), on a copy of the page without colour (the MRZ is
   printed black; stamps and security printing over it are coloured).
2. Keep lines that look like MRZ text and group neighbours into zones.
3. For each zone and each format it could be (TD1/TD2/TD3; a line the detector missed is placed
   one pitch away), crop every line to the zone's full width and decode the recogniser's
   probabilities under the format's template (ctc.py). A line that reads poorly is cropped again
   taller, then wider, and the likeliest reading wins.
4. Repair with the check digits (repair.py), parse (parse.py), keep the likeliest hypothesis
   (log-likelihood, repair cost and passing check digits), and give each field a raw confidence
   and a page bbox.
5. Only when no clear reading is found, turn the page or look closer (see read_mrz).

Nothing here logs or returns text other than through the typed reading: values are personal data.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import itertools
import re
import time
import unicodedata
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np

from engines.images import decode_image, rotate, unrotate_bbox
from engines.mrz.countries import KNOWN_CODES
from engines.mrz.ctc import DecodedLine, decode_line
from engines.mrz.formats import ALPHABET, FILLER, FORMATS, MrzFormat
from engines.mrz.geometry import LineGeom, bbox_fraction, char_quad, crop_line
from engines.mrz.parse import MrzParse, MrzParseError, parse_mrz
from engines.mrz.repair import MrzRepair, normalize_line, options_from_alternatives, repair_decoded
from engines.ocr import DETECT_PIXELS, Ocr, get_ocr

# A detected box must be at least this many times wider than tall to be an MRZ line.
_MIN_ASPECT = 8.0
_LN10 = 2.302585
_FILLER_GLYPHS = "\u00ab\u300a\u3008"  # what recognisers print for '<<' or '<'
_BATCH = 4  # long lines recognised per step, bottom of the page first
_MAX_LINES = 16  # long lines recognised per page and orientation at most (bounds non-ID pages)
_ORIENTATION_SAMPLE = 8  # lines shown to the orientation classifier when no MRZ was found
_DETECT_PIXELS_RETRY = 2_500_000  # detection resolution of the last, high-resolution attempt
_FEW_LINES = 8  # a page with fewer long lines than this may hide a small MRZ
_GOOD_ENOUGH_REPAIR_COST = 3.0
# Log-likelihood per character of a reading (see _Hypothesis): clear MRZs on the real specimens
# and synthetic documents score -0.02 to -0.3, text that is no MRZ -1 to -3.
_CLEAR_LL_PER_CHAR = -0.4
_PLAUSIBLE_LL_PER_CHAR = -0.9
# The recogniser is sensitive to the margin around a line and to the font's width. Each line is
# cropped as detected first; while it reads poorly, taller and then widened crops are tried, and
# the reading with the highest log-likelihood wins (on the real specimens that choice picked a
# right reading whenever one of the crops gave one). (height growth, character pitch or None)
_CROP_RECIPES: tuple[tuple[float, float | None], ...] = ((1.0, None), (1.3, None), (1.0, 1.0))
_CROP_PAD = 0.5  # and half a line height more at both ends, where detection cuts characters
_GOOD_LINE_LOG_SCORE = -3.0
# Line pitch of an MRZ in character pitches (measured on the real specimens: 2.45 to 2.9 on all
# three formats), to place a line the detector missed next to the one it found.
_PITCH_IN_CHARS = (2.3, 2.6, 2.9, 3.2)
_CANONICAL = (
    "document_number",
    "surname",
    "given_names",
    "nationality",
    "date_of_birth",
    "sex",
    "date_of_expiry",
    "issuing_country",
    "personal_number",
)


_COUNTRY_FIELDS = frozenset({"nationality", "issuing_country"})


@dataclass(frozen=True)
class MrzFieldReading:
    value: str | None
    confidence: float  # raw (uncalibrated) 0..1
    bbox: tuple[float, float, float, float] | None  # page fractions of the original image
    valid: bool | None
    # per character of ``value`` (where it was read from one run of positions), what else the
    # recogniser thought it might be, with probabilities: how sure it was against another reading
    alternatives: tuple[dict[str, float], ...] = ()


@dataclass(frozen=True)
class MrzReading:
    parse: MrzParse
    repair: MrzRepair
    fields: dict[str, MrzFieldReading]
    document_type_confidence: float
    rotation: int  # degrees clockwise the page had to be turned to read the MRZ
    timings_ms: dict[str, int]


@dataclass(frozen=True)
class _Candidate:
    geom: LineGeom
    text: str  # greedy text, normalised to the MRZ alphabet


@dataclass
class _Hypothesis:
    fmt: MrzFormat
    crops: list[LineGeom]  # the (padded) line each decoded line was read from
    decoded: list[DecodedLine]
    repair: MrzRepair
    parse: MrzParse
    raw_passed: int  # check digits that passed before any repair

    @property
    def valid_dates(self) -> int:
        """Dates that are real calendar dates: six random digits make one only 1 time in 25."""
        return sum(self.parse.fields[name].value is not None for name in ("date_of_birth", "date_of_expiry"))

    @property
    def score(self) -> float:
        """Log-likelihood of the reading, less what repairs cost, plus log(10) per passing check
        digit (a wrong reading passes one only 1 time in 10) and per real calendar date."""
        passed = sum(self.parse.check_digits.values()) + self.valid_dates
        return sum(d.log_score for d in self.decoded) - self.repair.cost + _LN10 * passed

    @property
    def log_likelihood_per_char(self) -> float:
        """How well the recogniser's evidence fits this reading: about -0.1 for a clear MRZ,
        below -1 for other text forced into an MRZ's shape."""
        chars = sum(len(d.text) for d in self.decoded)
        return sum(d.log_score for d in self.decoded) / max(chars, 1)

    @property
    def good_enough(self) -> bool:
        """A clear reading whose check digits all pass, most as read: stop looking."""
        return (
            self.parse.checks_passed
            and self.valid_dates == 2
            and self.repair.cost <= _GOOD_ENOUGH_REPAIR_COST
            and self.raw_passed >= 2
            and self.log_likelihood_per_char >= _CLEAR_LL_PER_CHAR
        )


def read_mrz(
    image: np.ndarray | bytes,
    *,
    ocr: Ocr | None = None,
    line_quads: Sequence[np.ndarray] | None = None,
    turn: int = 0,
    today: dt.date | None = None,
) -> MrzReading | None:
    """Read the MRZ of a page (BGR array or encoded PNG/JPEG), or None when it has none.

    The page is read as it comes first. Only if that gives no clear reading is it turned: by 90
    and 270 degrees when its text runs vertically, by 180 when the orientation classifier finds
    its lines upside down, all three when the page showed no text to judge by. Last, a large page
    is searched again at a higher detection resolution (a small MRZ on a big photo). The likeliest
    reading of all attempts wins.

    ``line_quads``: the page's text lines as whole-page OCR already detected them upright (page
    pixels), which spares the first attempt its own detection; a page they give no clear reading
    of is searched with the reader's own detection next. ``turn``: the degrees clockwise whole-page
    OCR turned the page by to read it, tried next: the reader's own vote on a few long lines'
    orientation misses some upside-down pages that the whole page's text settles. ``today``: the
    date two-digit years are read against (a birth year is never in the future), the clock's when
    not given.
    """
    if isinstance(image, bytes):
        image = decode_image(image)
    ocr = ocr or get_ocr()
    timer = _Timer()

    hypothesis, looks = _read_upright(image, ocr, timer, DETECT_PIXELS, line_quads, today=today)
    best = (hypothesis, 0) if hypothesis is not None else None
    page_pixels = image.shape[0] * image.shape[1]
    attempts = _further_attempts(looks, page_pixels)
    if line_quads is not None:
        # the lines as the reader's own detection finds them: on one smeared passport of seeds 42
        # and 43 only they gave its MRZ (this repeats the long lines' recognition on such pages)
        attempts.insert(0, (0, DETECT_PIXELS))
    if turn and (turn, DETECT_PIXELS) not in attempts:
        attempts.insert(0, (turn, DETECT_PIXELS))
    for degrees, pixels in attempts:  # (grows while it runs: a turn that shows filler earns a closer look)
        if best is not None and best[0].good_enough:
            break
        hypothesis, seen = _read_upright(rotate(image, degrees), ocr, timer, pixels, today=today)
        if hypothesis is not None and (best is None or hypothesis.score > best[0].score):
            best = (hypothesis, degrees)
        closer = closer_look(seen, degrees, page_pixels)
        if closer is not None and closer not in attempts:
            attempts.append(closer)
    if best is None:
        return None
    page = rotate(image, best[1])
    with timer.section("parse"):
        reading = _reading(best[0], page, best[1])
    return replace(reading, timings_ms=timer.as_ms())


@dataclass(frozen=True)
class Looks:
    """What the upright attempt saw of the page's text, to decide which turns are worth trying."""

    vertical: bool
    upside_down: bool
    text_lines: int  # text boxes detected
    long_lines: int  # of which long enough to be MRZ lines
    filler_seen: bool = False  # some long line read with '<' in it: an MRZ hint


def _further_attempts(looks: Looks, pixels: int) -> list[tuple[int, int]]:
    """(degrees clockwise, detection pixels) worth trying when the page as it came gave no clear
    reading: the likely turns, then a closer look at the likeliest orientation of a large page."""
    if looks.vertical:
        turns = [90, 270]
    elif looks.upside_down:
        turns = [180]
    elif looks.text_lines == 0:
        turns = [180, 90, 270]
    else:
        turns = []
    attempts = [(degrees, DETECT_PIXELS) for degrees in turns]
    # A closer look costs a detection at almost three times the pixels: only for pages that hint
    # at an MRZ, or show so few long lines that a small MRZ may have gone unseen (a photo of a
    # passport shows a few headings; a receipt or letter shows many lines).
    if pixels > DETECT_PIXELS and (looks.filler_seen or looks.long_lines < _FEW_LINES):
        likely = turns[:2] if looks.vertical or looks.upside_down else [0]
        attempts += [(degrees, _DETECT_PIXELS_RETRY) for degrees in likely]
    return attempts


def closer_look(seen: Looks, degrees: int, page_pixels: int) -> tuple[int, int] | None:
    """The attempt a turn of the page earns when its lines showed filler but gave no clear
    reading: the same turn detected at the higher resolution (a blurred MRZ on a large photo,
    upside down, that the first look saw only as '<' runs), where the page has the pixels."""
    if seen.filler_seen and page_pixels > DETECT_PIXELS:
        return degrees, _DETECT_PIXELS_RETRY
    return None


def _ink_crop(page: np.ndarray, line: LineGeom, *, grow: float = 1.0, stretch: float = 1.0) -> np.ndarray:
    """A line crop as the recogniser should see an MRZ: the brightest channel of each pixel.

    MRZ ink is black; security printing, stamps and guilloches over it are coloured. Taking the
    maximum over B, G and R keeps black black and turns any saturated colour light.
    """
    pixels = crop_line(page, line, pad=_CROP_PAD, grow=grow, stretch=stretch)
    if pixels.ndim == 2:
        return cv2.cvtColor(pixels, cv2.COLOR_GRAY2BGR)
    return cv2.cvtColor(pixels.max(axis=2), cv2.COLOR_GRAY2BGR)


def _read_upright(
    page: np.ndarray,
    ocr: Ocr,
    timer: _Timer,
    pixels: int,
    detected: Sequence[np.ndarray] | None = None,
    *,
    today: dt.date | None = None,
) -> tuple[_Hypothesis | None, Looks]:
    """The best MRZ hypothesis on an upright page, and how the page's text looked.

    Long lines are recognised from the bottom of the page up, a few at a time, because that is
    where an MRZ sits: most pages are read after recognising only their last few lines. Zones
    with a line the detector missed are tried last, when no complete zone reads cleanly.
    """
    if detected is not None:
        quads = list(detected)
    else:
        with timer.section("ocr"):
            quads = ocr.detect(page, pixels=pixels)
    geoms = [LineGeom.from_quad(q) for q in quads]
    vertical = sum(1 for q in quads if _is_vertical(q)) > len(quads) / 2
    long_lines = sorted(
        (g for g in geoms if g.height >= 4 and g.width >= _MIN_ASPECT * g.height),
        key=lambda g: -float(g.centre[1]),
    )[:_MAX_LINES]
    looks = Looks(vertical=vertical, upside_down=False, text_lines=len(quads), long_lines=len(long_lines))
    candidates: list[_Candidate] = []
    cache: dict[tuple[int, ...], np.ndarray] = {}
    best: _Hypothesis | None = None
    for start in range(0, len(long_lines), _BATCH):
        batch = long_lines[start : start + _BATCH]
        with timer.section("ocr"):
            recognised = ocr.recognize([_ink_crop(page, g) for g in batch])
        new = False
        for geom, rec in zip(batch, recognised, strict=True):
            mrz_like = looks_like_mrz_line(rec.text)
            if shows_filler(rec.text, mrz_like=mrz_like):
                looks = replace(looks, filler_seen=True)
            if mrz_like:
                candidates.append(_Candidate(geom, normalize_line(rec.text)))
                cache[_geom_key(geom)] = rec.probs
                new = True
        if not new:
            continue
        for zone in _zones(_merge_pieces(candidates)):
            # only zones with filler in them earn the extra crops (digit-heavy lines without any
            # '<' are mostly phone numbers and references, not MRZs)
            recipes = _CROP_RECIPES if any("<" in c.text for c in zone) else _CROP_RECIPES[:1]
            for fmt, layout in _layouts(zone, complete=True):
                best = _better(best, _decode(page, ocr, fmt, layout, cache, timer, recipes, today=today))
                if best is not None and best.good_enough:
                    return best, looks
    for zone in _zones(_merge_pieces(candidates)):
        if not any("<<" in c.text for c in zone):
            continue  # a lone line with no filler run is too weak a seed to search around
        for fmt, layout in _layouts(zone, complete=False):
            best = _better(
                best, _decode(page, ocr, fmt, layout, cache, timer, _CROP_RECIPES[:1], today=today)
            )
            if best is not None and best.good_enough:
                return best, looks
    if best is not None and best.good_enough:
        return best, looks
    if long_lines and not vertical:
        with timer.section("ocr"):
            votes = ocr.upside_down([crop_line(page, g) for g in long_lines[:_ORIENTATION_SAMPLE]])
        looks = replace(looks, upside_down=sum(v > 0.5 for v in votes) > len(votes) / 2)
    return (best if best is not None and _plausible(best) else None), looks


def shows_filler(text: str, *, mrz_like: bool) -> bool:
    """A hint of an MRZ: a filler run, a glyph recognisers print for one, or a single '<' in a line
    that reads like MRZ text (a zone the detector cut short: "PDPERDOS<HAAPALAINEI")."""
    return "<<" in text or any(glyph in text for glyph in _FILLER_GLYPHS) or (mrz_like and "<" in text)


def _better(best: _Hypothesis | None, other: _Hypothesis | None) -> _Hypothesis | None:
    if other is None:
        return best
    return other if best is None or other.score > best.score else best


# Small, blurred filler often reads as runs of C, K or E: in a run of three or more such letters
# mixed with real filler, they count as filler when judging whether a line is MRZ-like.
_BLURRED_FILLER = re.compile(r"[<CKEcke\u00ab\u300a\u3008]{3,}")


def _as_filler(match: re.Match[str]) -> str:
    run = match.group()
    return "<" * len(run) if "<" in run or len(run) >= 4 else run


def looks_like_mrz_line(text: str) -> bool:
    """Whether a line of OCR text could be (part of) an MRZ line: callers use it to decide if a
    page is worth the MRZ search at all.

    MRZ text: long, almost only 0-9 A-Z '<', and filler or many digits with few spaces. Case
    is no evidence: a recogniser reads a widely spaced MRZ's letters in lower case as often as
    not ("LOPeZ<TAMM<<GuadALuPe"), and some fonts' digits and letters in their full-width forms
    (U+FF10 for 0), which count as the characters they stand for."""
    text = _BLURRED_FILLER.sub(_as_filler, unicodedata.normalize("NFKC", text).strip()).upper()
    squeezed = text.replace(" ", "")
    fillers = sum(c == "<" or c in _FILLER_GLYPHS for c in squeezed)
    if len(squeezed) < 12 and not (fillers >= 5 and fillers >= 0.6 * len(squeezed)):
        return False  # short text, unless it is the tail of a line the detector split off
    normal = normalize_line(squeezed)
    in_alphabet = sum(c in ALPHABET or c in _FILLER_GLYPHS for c in squeezed) / len(squeezed)
    if fillers:
        # OCR puts stray spaces into filler runs, but prose has far more spaces than filler
        return in_alphabet >= 0.85 and (fillers >= 3 or text.count(" ") <= len(text) / 10)
    # no filler at all: only a digit-rich, unspaced, clean line (a TD1 first line, a full TD3 second)
    digits = sum(c.isdigit() for c in normal)
    return in_alphabet >= 0.95 and text.count(" ") <= 1 and digits >= 0.4 * len(normal) and len(normal) >= 25


def _is_vertical(quad: np.ndarray) -> bool:
    g = LineGeom.from_quad(quad)
    return abs(g.direction[1]) > abs(g.direction[0]) or g.height > 1.5 * g.width


def _merge_pieces(candidates: list[_Candidate]) -> list[_Candidate]:
    """Join pieces of one line the detector split at a gap (same row, side by side)."""
    merged: list[_Candidate] = []
    for cand in sorted(candidates, key=lambda c: (float(c.geom.centre[1]), float(c.geom.left[0]))):
        for i, other in enumerate(merged):
            same_row = abs(
                float(np.dot(cand.geom.centre - other.geom.centre, other.geom.normal))
            ) < 0.5 * max(cand.geom.height, other.geom.height)
            if same_row:
                left, right = sorted((other, cand), key=lambda c: float(c.geom.left[0]))
                geom = LineGeom(left.geom.left, right.geom.right, max(left.geom.height, right.geom.height))
                merged[i] = _Candidate(geom, left.text + right.text)
                break
        else:
            merged.append(cand)
    return merged


def _zones(candidates: list[_Candidate]) -> list[list[_Candidate]]:
    """Group MRZ-like lines into zones: stacked, similar height, overlapping horizontally."""
    lines = sorted(candidates, key=lambda c: float(c.geom.centre[1]))
    zones: list[list[_Candidate]] = []
    for cand in lines:
        if zones:
            prev = zones[-1][-1]
            gap = float(np.dot(cand.geom.centre - prev.geom.centre, prev.geom.normal))
            height = max(prev.geom.height, cand.geom.height)
            if 0 < gap < 3.5 * height and _overlap(prev.geom, cand.geom) > 0.5:
                zones[-1].append(cand)
                continue
        zones.append([cand])
    return zones


def _overlap(a: LineGeom, b: LineGeom) -> float:
    u, origin = a.direction, a.left
    a0, a1 = 0.0, a.width
    b0, b1 = sorted((float(np.dot(b.left - origin, u)), float(np.dot(b.right - origin, u))))
    inter = min(a1, b1) - max(a0, b0)
    return max(inter, 0.0) / max(min(a1 - a0, b1 - b0), 1e-6)


def _layouts(zone: list[_Candidate], *, complete: bool) -> list[tuple[MrzFormat, list[LineGeom]]]:
    """Plausible (format, one geometry per format line) for a zone, most likely first.

    Formats whose line length is closest to the longest line read come first (OCR loses filler
    more often than it invents characters). ``complete`` selects zones with all their lines
    found; otherwise zones with one line missing, placed a pitch away from the others.
    """
    longest = max(len(c.text) for c in zone)
    formats = sorted(
        (f for f in FORMATS if 0.6 * f.line_length <= longest <= 1.3 * f.line_length),
        key=lambda f: abs(f.line_length - longest),
    )
    complete_layouts: list[tuple[MrzFormat, list[LineGeom]]] = []
    missing_layouts: list[tuple[MrzFormat, list[LineGeom]]] = []
    for fmt in formats:
        count = fmt.line_count
        if len(zone) >= count:
            for start in range(len(zone) - count + 1):
                lines = zone[start : start + count]
                complete_layouts.append((fmt, _extend([c.geom for c in lines])))
                stretched = _extend_to_format(lines, fmt)
                if stretched is not None:
                    complete_layouts.append((fmt, stretched))
        elif len(zone) == count - 1:
            missing_layouts.extend((fmt, g) for g in _with_missing_line([c.geom for c in zone], fmt))
    return complete_layouts if complete else missing_layouts


def _extend(geoms: list[LineGeom]) -> list[LineGeom]:
    """Stretch every line to the zone's common extent (the detector often cuts filler runs)."""
    direction = sum((g.direction for g in geoms), np.zeros(2))
    direction = direction / max(float(np.linalg.norm(direction)), 1e-6)
    origin = geoms[0].left
    starts = [float(np.dot(g.left - origin, direction)) for g in geoms]
    ends = [float(np.dot(g.right - origin, direction)) for g in geoms]
    out = []
    for g, start, end in zip(geoms, starts, ends, strict=True):
        # keep a line that already spans the zone as detected (its recognition is reused)
        close = start - min(starts) < 0.5 * g.height and max(ends) - end < 0.5 * g.height
        out.append(g if close else g.extended(min(starts), max(ends), origin, direction))
    return out


def _extend_to_format(lines: list[_Candidate], fmt: MrzFormat) -> list[LineGeom] | None:
    """The zone stretched rightwards to the full line length of ``fmt``, judged by the character
    pitch of its best-read line, when the detector saw clearly less than that (it often misses
    a filler run at the end of a line, and no other piece tells where the line ends)."""
    extended = _extend([c.geom for c in lines])
    best = max(lines, key=lambda c: len(c.text))
    pitch = best.geom.width / max(len(best.text), 1)
    direction = extended[0].direction
    origin = extended[0].left
    start = min(float(np.dot(g.left - origin, direction)) for g in extended)
    end = max(float(np.dot(g.right - origin, direction)) for g in extended)
    expected = pitch * fmt.line_length
    if expected < 1.1 * (end - start):
        return None
    return [g.extended(start, start + expected, origin, direction) for g in extended]


def _with_missing_line(geoms: list[LineGeom], fmt: MrzFormat) -> list[list[LineGeom]]:
    """Zones with one line more than detected, the missing one placed a line pitch away."""
    extended = _extend(geoms)
    if len(extended) >= 2:
        pitches = [float(np.dot(b.centre - a.centre, a.normal)) for a, b in itertools.pairwise(extended)]
        steps = [sum(pitches) / len(pitches)]
    else:
        char_pitch = extended[0].width / fmt.line_length
        steps = [k * char_pitch for k in _PITCH_IN_CHARS]
    layouts = []
    for step in steps:
        for missing in range(len(extended) + 1):
            lines = list(extended)
            if missing == 0:
                lines.insert(0, extended[0].shifted(-step))
            elif missing == len(extended):
                lines.append(extended[-1].shifted(step))
            else:
                continue  # a gap in the middle of a zone would have split it
            layouts.append(lines)
    return layouts


def _decode(
    page: np.ndarray,
    ocr: Ocr,
    fmt: MrzFormat,
    geoms: list[LineGeom],
    cache: dict[tuple[int, ...], np.ndarray],
    timer: _Timer,
    recipes: tuple[tuple[float, float | None], ...],
    *,
    today: dt.date | None = None,
) -> _Hypothesis | None:
    """Recognise each line of one layout (cached: layouts share lines) and decode it as ``fmt``."""
    decoded: list[DecodedLine] = []
    for index, geom in enumerate(geoms):
        line: DecodedLine | None = None
        attempts: list[DecodedLine] = []
        for grow, pitch in recipes:
            # pitch: wanted character pitch in line heights; the line holds fmt.line_length characters
            stretch = 1.0 if pitch is None else pitch * geom.height * fmt.line_length / max(geom.width, 1.0)
            key = _geom_key(geom, grow, stretch)
            if key not in cache:
                crop = _ink_crop(page, geom, grow=grow, stretch=stretch)
                with timer.section("ocr"):
                    cache[key] = ocr.recognize([crop])[0].probs
            with timer.section("parse"):
                attempt = decode_line(cache[key], ocr.vocabulary, fmt.templates[index])
            if attempt is not None:
                attempts.append(attempt)
                if line is None or attempt.log_score > line.log_score:
                    line = attempt
            if line is not None and line.log_score >= _GOOD_LINE_LOG_SCORE:
                break
        if line is None:
            return None
        names = fmt.spans["names"]
        separators = range(names.start, names.end) if names.line == index else range(0)
        padded_ends = {
            span.end for name, span in fmt.spans.items() if span.line == index and name in _PADDED_FIELDS
        }
        decoded.append(with_filler_others_read(line, attempts, separators=separators, field_ends=padded_ends))
    with timer.section("parse"):
        texts = [d.text for d in decoded]
        options = options_from_alternatives(fmt, texts, [d.alternatives for d in decoded])
        repair = repair_decoded(fmt, texts, options)
        try:
            raw_passed = sum(parse_mrz(texts, today=today).check_digits.values())
            parsed = parse_mrz(repair.lines, today=today)
        except MrzParseError:
            return None
    crops = [geom.padded(_CROP_PAD) for geom in geoms]
    return _Hypothesis(fmt, crops, decoded, repair, parsed, raw_passed)


# Letters a smeared or widened '<' is read as. A crop stretched to the MRZ's pitch reads letters
# and digits better than the line as detected, but turns chevrons into K: one crop of a shaken
# card read KORHONENKKAHNAD where the unstretched crop read KORHONEN<<AHNAD. A K and a '<' weigh
# alike in every check digit (20 and 0, both 0 mod 10), so no check can tell them apart.
_FILLER_LOOKALIKES = frozenset("KC")
# Fields an MRZ pads with filler to their full length.
_PADDED_FIELDS = frozenset({"document_number", "optional_data_1", "optional_data_2", "personal_number"})
# Two readings of one line are aligned (the same characters at the same positions) when they agree
# on at least this share of the positions that hold something other than filler in either.
_ALIGNED_AGREEMENT = 0.8


def with_filler_others_read(
    line: DecodedLine,
    attempts: Sequence[DecodedLine],
    *,
    separators: Sequence[int] = (),
    field_ends: Collection[int] = (),
) -> DecodedLine:
    """``line`` with '<' wherever it read a filler lookalike (K, C) and another crop of the same
    line read '<', where the filler run that makes is one an MRZ has: a run that only check
    digits or the line's end follow (a line's trailing filler), one that pads a field to its end
    (``field_ends``: where the document number and optional data end, 9SH8DNDZ<), or the '<<'
    between surname and given names (``separators``: the names' positions). A K inside a word or
    a number stays, whatever another crop read: crops do read a real K as '<' (KHAN as <HAN), and
    no check digit can tell (K and '<' weigh alike)."""
    others = [other for other in attempts if other is not line and _aligned(line.text, other.text)]
    seen = {
        pos: next(o for o in others if o.text[pos] == FILLER)
        for pos, char in enumerate(line.text)
        if char in _FILLER_LOOKALIKES and any(o.text[pos] == FILLER for o in others)
    }
    if not seen:
        return line
    proposed = "".join(FILLER if pos in seen else char for pos, char in enumerate(line.text))
    taken: list[int] = []
    for run in re.finditer(f"{FILLER}+", proposed):
        inside = [pos for pos in range(run.start(), run.end()) if pos in seen]
        after = proposed[run.end() :]
        trailing = not re.search("[A-Z]{2}", after)  # a lone letter after it is filler misread too
        name_break = (
            run.end() - run.start() == 2
            and run.start() > 0
            and proposed[run.start() - 1].isalpha()
            and after[:1].isalpha()
            and all(pos in separators for pos in range(run.start(), run.end()))
        )
        if inside and (trailing or name_break or run.end() in field_ends):
            taken.extend(inside)
    if not taken:
        return line
    text, char_probs, alternatives = list(line.text), list(line.char_probs), list(line.alternatives)
    for pos in taken:
        text[pos] = FILLER
        char_probs[pos] = seen[pos].char_probs[pos]
        alternatives[pos] = seen[pos].alternatives[pos]
    return replace(line, text="".join(text), char_probs=tuple(char_probs), alternatives=tuple(alternatives))


def _aligned(text: str, other: str) -> bool:
    """Do two readings of a line put the same characters at the same positions? Filler runs agree
    in any two readings of an MRZ line, however shifted, so only the other positions count, and
    a filler read as a lookalike in one of them is the question asked, not a disagreement."""
    if len(text) != len(other):
        return False
    compared = [
        a == b
        for a, b in zip(text, other, strict=True)
        if not ({a, b} <= {FILLER} | _FILLER_LOOKALIKES and FILLER in (a, b))
    ]
    return bool(compared) and sum(compared) >= _ALIGNED_AGREEMENT * len(compared)


def _geom_key(geom: LineGeom, grow: float = 1.0, stretch: float = 1.0) -> tuple[int, ...]:
    corners = (round(float(v)) for v in (*geom.left, *geom.right, geom.height))
    return (*corners, round(grow * 100), round(stretch * 100))


def _plausible(h: _Hypothesis) -> bool:
    """Is this an MRZ at all? Other text forced into an MRZ's shape fits the recogniser's
    evidence badly, passes a check digit as read only 1 time in 10 (repairs can make anything
    pass, so they are no evidence) and seldom holds a real calendar date."""
    ll = h.log_likelihood_per_char
    evidence = (h.raw_passed >= 2 and ll >= _PLAUSIBLE_LL_PER_CHAR) or (
        h.raw_passed >= 1 and ll >= _CLEAR_LL_PER_CHAR
    )
    return evidence and h.valid_dates >= 1


def _reading(h: _Hypothesis, page: np.ndarray, degrees: int) -> MrzReading:
    height, width = page.shape[:2]
    char_probs = _char_probs(h)
    fields: dict[str, MrzFieldReading] = {}
    for name in _CANONICAL:
        field = h.parse.fields.get(name)
        if field is None:
            continue
        positions = [(s.line, p) for s in field.spans for p in range(s.start, s.end)]
        if field.check is not None:
            positions.append((field.check.line, field.check.start))
        quads = [
            _char_quad(h, li, p) for s in field.spans for li, p in [(s.line, s.start), (s.line, s.end - 1)]
        ]
        bbox = unrotate_bbox(bbox_fraction(quads, width, height), degrees) if quads else None
        # a check digit that chose between two near-equal repairs verified neither of them
        valid = False if field.valid and name in h.repair.ambiguous else field.valid
        if name in _COUNTRY_FIELDS and field.value and field.value not in KNOWN_CODES:
            valid = False  # no state has this code ("RLZ" for IRL): repair found no known one near it
        fields[name] = MrzFieldReading(
            value=field.value,
            confidence=_confidence(valid, positions, char_probs, h.repair),
            bbox=bbox,
            valid=valid,
            alternatives=_value_alternatives(h, field.value, positions) if name == "document_number" else (),
        )
    code_probs = [char_probs[0][0], char_probs[0][1]]
    type_conf = 0.5 + 0.5 * min(1.0, sum(h.parse.check_digits.values()) / len(h.parse.check_digits))
    type_conf = round(type_conf * min(code_probs) if h.fmt.name == "TD2" else type_conf, 4)
    return MrzReading(
        parse=h.parse,
        repair=h.repair,
        fields=fields,
        document_type_confidence=type_conf,
        rotation=degrees,
        timings_ms={},
    )


def _char_probs(h: _Hypothesis) -> list[list[float]]:
    """Per character: the recogniser's probability of the character finally kept."""
    probs = []
    for li, decoded in enumerate(h.decoded):
        row = []
        for pos, char in enumerate(h.repair.lines[li]):
            alternatives = dict(decoded.alternatives[pos])
            row.append(decoded.char_probs[pos] if char == decoded.text[pos] else alternatives.get(char, 0.02))
        probs.append(row)
    return probs


def _value_alternatives(
    h: _Hypothesis, value: str | None, positions: list[tuple[int, int]]
) -> tuple[dict[str, float], ...]:
    """The recogniser's probabilities at each character of ``value``, or () where the value is
    not simply its positions' characters without filler (a number run on into optional data)."""
    kept = [(li, p) for li, p in positions if h.repair.lines[li][p] != "<"]
    if not value or "".join(h.repair.lines[li][p] for li, p in kept[: len(value)]) != value:
        return ()
    return tuple(dict(h.decoded[li].alternatives[p]) for li, p in kept[: len(value)])


def _char_quad(h: _Hypothesis, line: int, pos: int) -> np.ndarray:
    """Where character ``pos`` of a line sits: MRZ characters have a fixed pitch, so the span
    from the first character's first frame to the last one's last frame is cut into equal cells
    (single frames would be too narrow and too jittery for a box)."""
    decoded = h.decoded[line]
    first, last = decoded.frame_spans[0][0], decoded.frame_spans[-1][1]
    pitch = (last - first) / len(decoded.text)
    start, end = first + pos * pitch, first + (pos + 1) * pitch
    return char_quad(h.crops[line], start / decoded.frames, end / decoded.frames)


def _confidence(
    valid: bool | None,
    positions: list[tuple[int, int]],
    char_probs: list[list[float]],
    repair: MrzRepair,
) -> float:
    """A raw confidence: the weakest character's probability, lifted by a passing check digit
    (a wrong value passes one only 1 time in 10), cut by a failing one or by repairs."""
    weakest = min((char_probs[li][p] for li, p in positions), default=0.0)
    repaired = any(repair.repaired[li][p] for li, p in positions)
    if valid is True:
        conf = 1.0 - 0.1 * (1.0 - weakest)
        if repaired:
            conf *= 0.9
    elif valid is False:
        conf = 0.3 * weakest
    else:
        conf = weakest * (0.8 if repaired else 1.0)
    return round(max(0.0, min(conf, 1.0)), 4)


class _Timer:
    """Accumulates wall time per named section, in milliseconds."""

    def __init__(self) -> None:
        self._totals: dict[str, float] = {}

    @contextlib.contextmanager
    def section(self, name: str) -> Iterator[None]:
        started = time.perf_counter()
        try:
            yield
        finally:
            self._totals[name] = self._totals.get(name, 0.0) + (time.perf_counter() - started)

    def as_ms(self) -> dict[str, int]:
        return {k: round(v * 1000) for k, v in self._totals.items()}
