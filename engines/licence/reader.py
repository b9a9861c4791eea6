"""Read a US or Canadian driver licence: the AAMVA barcode on the back, the printed front, and
whether the two agree.

The PDF417 on the back is the reliable source (error-corrected, no OCR), so its values win. The
front, already OCR'd by the pipeline into :class:`~engines.layout.PageText` lines, is read with
the labels licences print ("4d DLN", "LN"/"FN", "DOB", "EXP", captions above values, "LABEL:")
and serves two purposes: every field it confirms is more certain, and every field it clearly
contradicts is a warning sign (a re-printed front, a borrowed back), reported as a failed
``barcode_vs_front`` check naming the fields. OCR slips (a dropped space, O for 0, a label glued
to its value) count as agreement or as "close", never as a contradiction. Without a barcode the
front alone is returned, at lower confidences.

Field values are personal data: nothing here logs them, and check details name fields only.
"""

from __future__ import annotations

import logging
import math
import re
import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path

import cv2
import numpy as np
from rapidfuzz.distance import Indel

from engines.barcode import Barcode
from engines.images import unrotate_bbox
from engines.layout import Line, PageText, rows, sort_reading_order
from engines.layout import clip_fraction as _clip
from engines.licence.aamva import CANONICAL_FIELDS, RUN_TOGETHER, AamvaRecord
from engines.licence.aamva_iin import CAN, IIN_JURISDICTIONS, JURISDICTION_NAMES, USA
from engines.licence.aamva_names import split_suffix
from engines.licence.barcode import (
    failed_parse_check,
    parsed_check,
    scan_for_aamva,
    settle_name_order,
    truncated_check,
)
from engines.types import BBox, Check, Extracted, FieldResult

logger = logging.getLogger(__name__)

# Raw confidences (calibrated later, in apps/extraction).
_BARCODE = 0.9  # decoded and parsed, nothing to compare with
_BARCODE_AGREED = 0.985  # and the front prints the same
_BARCODE_CLOSE = 0.93  # and the front prints nearly the same (OCR slips)
_BARCODE_CONTRADICTED = 0.35  # and the front prints something else
_FRONT_MAX = 0.75  # front-only values: OCR score times the method's factor, at most this
_INLINE, _BESIDE, _BELOW, _INFERRED = 0.8, 0.75, 0.7, 0.6  # how a front value was found
_HOW = {_INLINE: "inline", _BESIDE: "beside", _BELOW: "below", _INFERRED: "inferred"}
_MIN_SCORE_WITHOUT_BARCODE = 0.5  # below this, a page without an AAMVA barcode is no licence
_CONFIDENT_OCR = 0.9  # a front reading below this OCR score cannot contradict the barcode
_BARCODE_ORDER_UNSETTLED = 0.5  # a full name whose word order neither the barcode nor the front said
_BARCODE_UNSEPARATED = 0.6  # split where a scanner ran the elements together, nothing to compare with

REGION_CODES = frozenset(JURISDICTION_NAMES.values())
CANADIAN_REGIONS = frozenset(code for code, country in IIN_JURISDICTIONS.values() if country == CAN)


@dataclass(frozen=True)
class FrontValue:
    """A value read from the printed side. ``alternatives`` holds other readings of the same
    print (a date that could be MM/DD or DD/MM) that agree with a barcode just as well."""

    value: str
    confidence: float
    page: int
    bbox: BBox
    alternatives: tuple[str, ...] = field(default=())
    ocr_score: float = 1.0  # the recogniser's own score for the line(s) it came from
    # Whether the reading may contradict the barcode: a value printed right after its label may;
    # one placed by position only (a caption on a turned page, the line above the city, three
    # dates in time order) can confirm the barcode but is too easily the wrong line to accuse it.
    strong: bool = True
    how_found: str = "inline"  # "inline" | "beside" | "below" (a caption above it) | "inferred"


# --------------------------------------------------------------------------------------------
# Entry points


def read_driver_license(pages: list[PageText], images: list[np.ndarray]) -> Extracted | None:
    """Fields of a driver licence given its pages' text and images (same order, page 1 first).

    None when no page holds an AAMVA barcode and the text does not look like a licence. A page
    whose PDF417 looks like an AAMVA payload but does not parse is a licence whose barcode
    failed: the front's fields come back with a failed ``barcode_parsed`` check saying why.
    """
    scan = scan_for_aamva(images)
    if (
        scan.record is None
        and scan.failure is None
        and looks_like_driver_license(pages) < _MIN_SCORE_WITHOUT_BARCODE
    ):
        return None
    front = read_front(pages, images)
    if scan.record is None or scan.barcode is None:
        logger.info("Driver licence without a readable barcode: %d front fields", len(front))
        fields = {
            name: FieldResult(v.value, round(v.confidence, 4), v.page, v.bbox, "ocr", None)
            for name, v in front.items()
        }
        if scan.failure is not None:
            checks = [
                Check("barcode_found", True, f"PDF417 on page {scan.page}"),
                failed_parse_check(scan.failure),
            ]
        else:
            checks = [Check("barcode_found", False, "no AAMVA PDF417 barcode decoded on any page")]
        return Extracted(fields=_ordered(fields), checks=checks)
    return _merge(scan.record, scan.barcode, scan.page, front)


def looks_like_driver_license(pages: Sequence[PageText]) -> float:
    """How much the pages' text looks like a North American driver licence (0..1): the card's
    title, the labels licences print, an issuer's name; MRZ lines count against."""
    texts = [line.text.upper() for page in pages for line in page.lines]
    if not texts:
        return 0.0
    compact = [_compact(text) for text in texts]
    score = 0.0
    if any(any(title in text for title in _TITLES) for text in compact):
        score += 0.55
    labels = set()
    for text in texts:
        for name, pattern in _CLASSIFY_LABELS.items():
            if pattern.search(text):
                labels.add(name)
    score += min(0.4, 0.07 * len(labels))
    if any(_compact(name) in compact for name in JURISDICTION_NAMES):
        score += 0.1
    if any("<<<" in text for text in texts):
        score -= 0.3
    return round(min(1.0, max(0.0, score)), 3)


# --------------------------------------------------------------------------------------------
# Barcode and front together


def _merge(record: AamvaRecord, barcode: Barcode, page: int, front: dict[str, FrontValue]) -> Extracted:
    checks = [
        Check("barcode_found", True, f"AAMVA version {record.version} PDF417 on page {page}"),
        parsed_check(record),
    ]

    def agreement(name: str, coded: str, printed: str) -> int:
        verdict = compare(name, coded, replace(front[name], value=printed))
        return {"agree": 2, "close": 1}.get(verdict, 0)

    record, order_check = settle_name_order(
        record, _printed(front, "surname"), _printed(front, "given_names"), agreement
    )
    unsettled = order_check is not None and not order_check.passed
    # Elements a scanner ran together were split by their ids and forms: a value the front does
    # not confirm may end at an id inside a name ("MCDADE"), so it is not trusted alone.
    unconfirmed = _BARCODE_UNSEPARATED if RUN_TOGETHER in record.deviations else _BARCODE
    truncated = record.names.truncated if record.names else ()
    fields: dict[str, FieldResult] = {}
    agreed: list[str] = []
    contradicted: list[str] = []
    completed: list[str] = []

    def others(name: str) -> set[str]:
        return {value for other, value in record.fields.items() if other != name}

    for name in CANONICAL_FIELDS:
        coded = record.fields.get(name)
        printed = front.get("address_street" if name == "address_street_2" else name)
        if coded is None:
            if printed is not None and name != "address_street_2":
                fields[name] = FieldResult(
                    printed.value, round(printed.confidence, 4), printed.page, printed.bbox, "ocr", None
                )
            continue
        if printed is not None and name in truncated and _extends(coded, printed):
            completed.append(name)  # the issuer cut the name to fit; the front prints it whole
            fields[name] = FieldResult(
                printed.value, round(printed.confidence, 4), printed.page, printed.bbox, "ocr", True
            )
            continue
        verdict = _verdict(name, coded, printed, record.fields) if printed is not None else "none"
        if verdict == "disagree" and printed is not None and printed.value in others(name):
            verdict = "unsure"  # the front's value of another field, picked up by mistake
        if verdict in ("none", "unsure") or printed is None:
            fields[name] = FieldResult(coded, unconfirmed, page, barcode.bbox, "barcode", None)
        elif verdict == "agree":
            agreed.append(name)
            fields[name] = FieldResult(coded, _BARCODE_AGREED, printed.page, printed.bbox, "barcode", True)
        elif verdict == "close":
            agreed.append(name)
            fields[name] = FieldResult(coded, _BARCODE_CLOSE, printed.page, printed.bbox, "barcode", True)
        else:
            contradicted.append(name)
            fields[name] = FieldResult(coded, _BARCODE_CONTRADICTED, page, barcode.bbox, "barcode", False)
        if unsettled and name in ("surname", "given_names"):
            field = fields[name]
            fields[name] = replace(field, confidence=min(field.confidence, _BARCODE_ORDER_UNSETTLED))
    if record.problems:
        checks.append(
            Check("barcode_fields", False, "unreadable in the barcode: " + ", ".join(record.problems))
        )
    checks += [check for check in (order_check, truncated_check(record, completed)) if check is not None]
    if agreed or contradicted:
        detail = (
            "front disagrees on: " + ", ".join(contradicted)
            if contradicted
            else f"front agrees on {len(agreed)} field(s)"
        )
        checks.append(Check("barcode_vs_front", not contradicted, detail))
    logger.info(
        "Driver licence: %d fields, front agrees on %d, contradicts %d",
        len(fields),
        len(agreed),
        len(contradicted),
    )
    return Extracted(fields=_ordered(fields), checks=checks)


def _printed(front: dict[str, FrontValue], name: str) -> str | None:
    value = front.get(name)
    return value.value if value is not None else None


def _verdict(name: str, coded: str, printed: FrontValue, coded_fields: dict[str, str]) -> str:
    """The front's verdict on a barcode value. A street whose second line the barcode keeps
    apart (DAH) is printed on one line on most fronts: the street is compared with and without
    it, and the second line agrees only when street and second line together do."""
    street = coded_fields.get("address_street")
    street_2 = coded_fields.get("address_street_2")
    if name == "address_street_2":
        if street is None:
            return "none"
        verdict = compare("address_street", f"{street} {coded}", printed)
        return verdict if verdict in ("agree", "close") else "none"
    verdict = compare(name, coded, printed)
    if name == "address_street" and street_2 and verdict not in ("agree",):
        joined = compare(name, f"{coded} {street_2}", printed)
        if joined in ("agree", "close"):
            return joined
    return verdict


def _extends(coded: str, printed: FrontValue) -> bool:
    """The front prints more of a name the barcode truncated: it starts with the barcode's value,
    read with a confident OCR score."""
    a, b = _compact(coded), _compact(printed.value)
    return printed.ocr_score >= _CONFIDENT_OCR and len(b) > len(a) and b.startswith(a)


def compare(name: str, coded: str, printed: FrontValue) -> str:
    """ "agree", "close" (the same value through OCR noise), "unsure" (different, but the OCR
    reading is too weak to accuse the card) or "disagree"."""
    verdict = _compare(name, coded, printed)
    if verdict == "disagree" and (printed.ocr_score < _CONFIDENT_OCR or not printed.strong):
        return "unsure"
    return verdict


def _compare(name: str, coded: str, printed: FrontValue) -> str:
    if coded == printed.value or coded in printed.alternatives:
        return "agree"
    if name.startswith("date_"):
        differing = min(_differing_digits(coded, value) for value in (printed.value, *printed.alternatives))
        return "close" if differing <= 1 else "disagree"
    a, b = _compact(coded), _compact(printed.value)
    if not a or not b:
        return "close"
    if a == b:
        return "agree"
    if name in ("sex", "license_class", "address_region", "issuing_region"):
        return "close" if _fold(a) == _fold(b) else "disagree"
    if name == "address_postal_code" and (a.startswith(b) or b.startswith(a)) and min(len(a), len(b)) >= 5:
        return "agree"
    # A label glued to its value ("1SMITH", "8123 MAIN ST") or a character of the next field.
    if (b.endswith(a) or b.startswith(a)) and len(b) - len(a) <= 2:
        return "agree"
    if _fold(a) == _fold(b):
        return "close"
    # 2·LCS over both lengths: difflib's ratio with the optimal alignment, in C
    ratio = Indel.normalized_similarity(a, b)
    return "close" if ratio >= 0.8 else "disagree"


def _differing_digits(a: str, b: str) -> int:
    da, db = re.sub(r"\D", "", a), re.sub(r"\D", "", b)
    if len(da) != len(db):
        return 99
    return sum(1 for x, y in zip(da, db, strict=True) if x != y)


def _ordered(fields: dict[str, FieldResult]) -> dict[str, FieldResult]:
    return {name: fields[name] for name in CANONICAL_FIELDS if name in fields}


_FOLD = str.maketrans("OQDILZSBG9", "0011125866")  # 9: a 6 read upside down


def _fold(text: str) -> str:
    """Characters OCR confuses, folded together (for comparing, never for reporting)."""
    return text.translate(_FOLD)


def _compact(text: str) -> str:
    return re.sub(r"[^A-Z0-9]", "", text.upper())


# --------------------------------------------------------------------------------------------
# The printed front

_FRONT = tomllib.loads(
    (Path(__file__).resolve().parent.parent / "knowledge" / "licence_front.toml").read_text(encoding="utf-8")
)
_TITLES = tuple(_compact(title) for title in _FRONT["titles"])
_CLASSIFY_LABELS = {name: re.compile(pattern) for name, pattern in _FRONT["classify_labels"].items()}

_DATE = _FRONT["values"]["date"]
_SEP_CHARS = " \t:.,;#|()[]\uff08\uff09"  # and full-width parentheses
_SEP = "[" + re.escape(_SEP_CHARS) + "]*"


@dataclass(frozen=True)
class _Rule:
    """A label and the shape of its value (both regexes; matching ignores case)."""

    field: str
    label: str
    value: str

    def label_regex(self) -> re.Pattern[str]:
        return re.compile(rf"(?:^|(?<=[\s|:./]))(?:{self.label})", re.IGNORECASE)

    def inline_regex(self) -> re.Pattern[str]:
        """Label and value together, so that another reading of the label can be tried when
        the first leaves no value ("DLNO:123" is "DL NO" and "123", not "DLN" and "O:123")."""
        return re.compile(
            rf"(?:^|(?<=[\s|:./]))(?:{self.label}){_SEP}{self.value}(?![A-Z0-9])", re.IGNORECASE
        )

    def value_regex(self) -> re.Pattern[str]:
        return re.compile(rf"^{_SEP}{self.value}(?![A-Z0-9])", re.IGNORECASE)


_RULES = tuple(
    _Rule(field, "|".join(rule["labels"]), _FRONT["values"][rule["value"]])
    for field, rule in _FRONT["rules"].items()
)
_LABEL_ONLY = re.compile(
    r"^(?:\d{1,2}[a-d]?\s*)?(?:" + "|".join(_FRONT["caption_words"]) + r"|[\s/:.]+)*$", re.IGNORECASE
)
_NAME_CAPTION = re.compile(r"^\s*(?:NAME|NOM)(?:\s*/\s*(?:NAME|NOM))?\s*:?\s*$", re.IGNORECASE)
_NUMBERED_LABELS = re.compile(r"\b4[abd]\b|\b4[abd](?=[A-Z])", re.IGNORECASE)
_CITY_LINE = re.compile(
    r"^(?P<city>[A-Z][A-Z01 .'\-]*?)\s*,?\s*(?P<region>[A-Z]{2})\s*,?\s*"
    r"(?P<postal>\d{5}(?:\s?-?\s?\d{4})?|[A-Z]\d[A-Z]\s?-?\s?\d[A-Z]\d)$"
)
_STREET_LABEL = re.compile(r"^(?:8\s+|ADDRESS\s*:?\s*|ADRESSE\s*:?\s*|ADDR\s*:?\s*)", re.IGNORECASE)


def read_front(
    pages: Sequence[PageText], images: Sequence[np.ndarray] | None = None
) -> dict[str, FrontValue]:
    """Fields printed on the front, by label, with their boxes on the page as given.

    A photographed card is rarely level, and OCR boxes are axis-aligned: with the page's images,
    lines are first put back level (see :func:`_deskewed`). A card upside down or sideways is
    OCR'd line by line correctly (the recogniser turns each line), but its lines come in the
    wrong order: the page is read upright first and, unless that finds most fields, in the three
    other orientations; the best reading wins.
    """
    levelled = [
        _deskewed(page, images[i] if images is not None and i < len(images) else None)
        for i, page in enumerate(pages)
    ]
    best: dict[str, FrontValue] = {}
    best_turn, best_score = 0, -1.0
    for turn in (0, 180, 90, 270):
        found = _read_front_upright([_turned(page, turn) for page, _ in levelled])
        score = len(found) + (0.5 if turn == 0 else 0.0)  # turning must find more to win
        if score > best_score:
            best, best_turn, best_score = found, turn, score
        if turn == 0 and len(found) >= 12:
            break
    skews = {page.page: skew for page, skew in levelled}
    out = {}
    for name, value in best.items():
        bbox = unrotate_bbox(value.bbox, best_turn) if best_turn else value.bbox
        skew = skews.get(value.page)
        # On a page read turned or levelled, "the line under the caption" is a guess.
        tilted = best_turn != 0 or (skew is not None and abs(skew.degrees) > _TILTED_DEGREES)
        guessed = value.strong and value.how_found == "below" and tilted
        out[name] = replace(
            value, bbox=skew.to_page(bbox) if skew is not None else bbox, strong=value.strong and not guessed
        )
    return out


@dataclass(frozen=True)
class _Skew:
    """A rotation by ``degrees`` about the centre of a ``width`` x ``height`` page."""

    degrees: float
    width: int
    height: int

    def _rotate(self, x: float, y: float, degrees: float) -> tuple[float, float]:
        a = math.radians(degrees)
        cx, cy = self.width / 2, self.height / 2
        dx, dy = x - cx, y - cy
        return cx + dx * math.cos(a) - dy * math.sin(a), cy + dx * math.sin(a) + dy * math.cos(a)

    def to_page(self, bbox: BBox) -> BBox:
        """A box on the levelled page back on the page as given (fractions, clipped)."""
        x0, y0, x1, y1 = (
            bbox[0] * self.width,
            bbox[1] * self.height,
            bbox[2] * self.width,
            bbox[3] * self.height,
        )
        corners = [self._rotate(x, y, self.degrees) for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))]
        xs, ys = [c[0] for c in corners], [c[1] for c in corners]
        return (
            _clip(min(xs) / self.width),
            _clip(min(ys) / self.height),
            _clip(max(xs) / self.width),
            _clip(max(ys) / self.height),
        )


_MIN_SKEW_DEGREES = 1.5  # below this, lines are read as they are
_TILTED_DEGREES = 5.0  # above this, which line sits under a caption is a guess


def _deskewed(page: PageText, image: np.ndarray | None) -> tuple[PageText, _Skew | None]:
    """The page's lines as they would sit on the page turned level.

    OCR boxes are axis-aligned, so on a card photographed at 10 degrees a line's box is much
    taller than its text and rows run into each other. The skew is measured on the image (the
    direction of the ink inside the longest lines); each box's centre is rotated level, and its
    level width and height are solved from the tilted box: W = w cos a + h sin a,
    H = w sin a + h cos a.
    """
    if image is None or not page.lines:
        return page, None
    degrees = _skew_degrees(page, image)
    if degrees is None or abs(degrees) < _MIN_SKEW_DEGREES:
        return page, None
    height, width = image.shape[:2]
    skew = _Skew(degrees, width, height)
    a = math.radians(abs(degrees))
    c, s = math.cos(a), math.sin(a)
    det = c * c - s * s
    lines = []
    for line in page.lines:
        box_w, box_h = (line.x1 - line.x0) * width, (line.y1 - line.y0) * height
        level_w = max((c * box_w - s * box_h) / det, 0.25 * box_w)
        level_h = max((c * box_h - s * box_w) / det, 0.15 * box_h, 0.6 * level_w / max(len(line.text), 1))
        cx, cy = skew._rotate((line.x0 + line.x1) / 2 * width, (line.y0 + line.y1) / 2 * height, -degrees)
        bbox = (
            (cx - level_w / 2) / width,
            (cy - level_h / 2) / height,
            (cx + level_w / 2) / width,
            (cy + level_h / 2) / height,
        )
        lines.append(replace(line, bbox=bbox))
    return PageText(page=page.page, lines=tuple(sort_reading_order(lines)), source=page.source), skew


_SKEW_PIXELS = 800  # the text area is measured reduced to this longest side
_SKEW_RANGE = 20.0  # degrees either way


def _skew_degrees(page: PageText, image: np.ndarray) -> float | None:
    """How far the text lines are turned from level or from upright (degrees, clockwise in image
    coordinates, -20..20), by projection profiles: turned level, ink rows (or, on a card
    standing on end, ink columns) alternate most sharply between text and gaps."""
    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    height, width = gray.shape[:2]
    x0, y0, x1, y1 = _union(page.lines)
    crop = gray[int(y0 * height) : math.ceil(y1 * height), int(x0 * width) : math.ceil(x1 * width)]
    if min(crop.shape[:2]) < 32:
        return None
    scale = min(1.0, _SKEW_PIXELS / max(crop.shape[:2]))
    crop = cv2.resize(crop, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    ink = cv2.adaptiveThreshold(crop, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY_INV, 31, 15)
    h, w = ink.shape[:2]

    def sharpness(degrees: float, axis: int) -> float:
        matrix = cv2.getRotationMatrix2D((w / 2, h / 2), degrees, 1.0)
        turned = cv2.warpAffine(ink, matrix, (w, h), flags=cv2.INTER_NEAREST)
        profile = turned.sum(axis=axis).astype(np.float64)
        return float(np.sum(np.diff(profile) ** 2))

    # Lines of several characters are wider than tall unless the card stands on end.
    long_lines = [line for line in page.lines if len(line.text) >= 6]
    upright = sum((line.y1 - line.y0) * height > (line.x1 - line.x0) * width for line in long_lines)
    axis = 0 if upright > len(long_lines) / 2 else 1  # column profile, else row profile
    coarse = max(np.arange(-_SKEW_RANGE, _SKEW_RANGE + 0.01, 1.0), key=lambda d: sharpness(float(d), axis))
    fine = max(np.arange(coarse - 1.0, coarse + 1.01, 0.2), key=lambda d: sharpness(float(d), axis))
    # OpenCV turns counter-clockwise for positive angles, so the angle that levels the text is
    # the text's own direction (clockwise, y pointing down).
    return float(fine)


def _turned(page: PageText, degrees: int) -> PageText:
    """The page's lines as they sit on the page turned clockwise by ``degrees``."""
    if degrees == 0:
        return page
    lines = [replace(line, bbox=unrotate_bbox(line.bbox, 360 - degrees)) for line in page.lines]
    return PageText(page=page.page, lines=tuple(sort_reading_order(lines)), source=page.source)


def _read_front_upright(pages: Sequence[PageText]) -> dict[str, FrontValue]:
    found: dict[str, FrontValue] = {}
    numbered = any(_NUMBERED_LABELS.search(line.text) for page in pages for line in page.lines)
    country = _front_country(pages)
    for page in pages:
        grid = rows(page)
        for row_index, row in enumerate(grid):
            for line_index in range(len(row)):
                for rule in _RULES:
                    if rule.field in found:
                        continue
                    value = _labelled(rule, grid, row_index, line_index, country)
                    if value is not None:
                        found[rule.field] = value
        _names_from_caption(grid, found)
        _numbered_names(grid, found, numbered)
        _address(grid, found, numbered)
    _unlabelled_dates(pages, found, country)
    region = _issuer_from_title(pages)
    if region is not None:
        found.setdefault("issuing_region", region)
    for name in ("surname", "given_names", "address_city"):
        if name in found:
            found[name] = replace(found[name], value=_letters(found[name].value))
    _suffix_apart(found)
    if "address_street" in found:
        found["address_street"] = replace(
            found["address_street"], value=respace_street(found["address_street"].value)
        )
    return found


def _suffix_apart(found: dict[str, FrontValue]) -> None:
    """A suffix printed after the given names or the surname ("JOHN Q JR") is its own field, as
    the barcode keeps it: taken off the name (only words no name is: JR, III, never "V")."""
    for name in ("given_names", "surname"):
        value = found.get(name)
        if value is None or "name_suffix" in found:
            continue
        rest, suffix = split_suffix(value.value)
        if suffix and rest:
            found[name] = replace(value, value=rest)
            found["name_suffix"] = replace(value, value=suffix, alternatives=())


_DATE_FIELDS = ("date_of_birth", "date_of_issue", "date_of_expiry")  # always in this order in time
_DATE_TOKEN = re.compile(rf"(?:^|(?<=[^0-9]))({_DATE[len('(?P<value>') : -1]})(?![0-9])")


def _unlabelled_dates(pages: Sequence[PageText], found: dict[str, FrontValue], country: str | None) -> None:
    """Three dates whose labels OCR lost: birth, issue and expiry are always in that order in
    time, so the dates alone say which is which."""
    if any(name in found for name in _DATE_FIELDS):
        return
    dates: dict[str, FrontValue] = {}
    for page in pages:
        for line in page.lines:
            for match in _DATE_TOKEN.finditer(line.text):
                value = _front_value("date_of_birth", match, 1, line, _INFERRED, country)
                if value is not None:
                    dates.setdefault(value.value, value)
    if len(dates) != 3:
        return
    for name, key in zip(_DATE_FIELDS, sorted(dates), strict=True):
        found[name] = replace(dates[key], strong=False, how_found="inferred")


def _labelled(
    rule: _Rule, grid: list[list[Line]], row_index: int, line_index: int, country: str | None
) -> FrontValue | None:
    """The value after ``rule``'s label on this line, else in the next line to its right, else
    under the label in the row below (captions printed above their values)."""
    line = grid[row_index][line_index]
    text = line.text.upper()
    value_regex = rule.value_regex()
    match = rule.inline_regex().search(text)
    if match is not None:
        if rule.field in ("surname", "given_names") and not text[match.end() :].strip():
            segment = _segment(grid, line)
            tail = [part for part in segment[1:] if re.fullmatch(r"[A-Z'\- ]+", part.text.upper())]
            if len(tail) == len(segment) - 1 and tail:
                found: dict[str, FrontValue] = {}
                words = " ".join([match.group("value"), *(part.text for part in tail)])
                _put_name(found, rule.field, words, segment, _INLINE)
                return found.get(rule.field)
        return _front_value(rule.field, match, "value", line, _INLINE, country)
    for label in rule.label_regex().finditer(text):
        rest = text[label.end() :]
        if rest.strip(_SEP_CHARS + "/") and not _LABEL_ONLY.match(rest.strip()):
            continue  # something else follows the label on this line
        before = text[: label.start()].strip(_SEP_CHARS)
        if before and not _LABEL_ONLY.match(before):
            continue  # a word inside other text ("PARK LN"), not a caption
        row = grid[row_index]
        if not before and line_index + 1 < len(row):
            beside = row[line_index + 1]
            match = value_regex.match(beside.text.upper())
            if match is not None:
                return _front_value(rule.field, match, "value", beside, _BESIDE, country)
        span = line.span_bbox(label.start(), label.end())
        below = _line_below(grid, row_index, span)
        if below is not None:
            below_text = below.text.upper()
            centre = (span[0] + span[2]) / 2
            options = [
                m
                for m in re.finditer(
                    rf"(?:^|(?<=[\s|]))({value_regex.pattern[1:]})", below_text, re.IGNORECASE
                )
            ]
            best = min(
                options,
                key=lambda m: abs(sum(below.span_bbox(m.start("value"), m.end("value"))[0::2]) / 2 - centre),
                default=None,
            )
            if best is not None:
                return _front_value(rule.field, best, "value", below, _BELOW, country)
    return None


def _line_below(grid: list[list[Line]], row_index: int, span: BBox) -> Line | None:
    """The line printed under ``span`` (a caption's box): it starts near the caption or reaches
    under it, within a couple of line heights. Searched on the whole page, not only the next
    row: on a photographed card, captions and values can fall into one row."""
    height = span[3] - span[1]
    centre = (span[1] + span[3]) / 2
    candidates = [
        other
        for row in grid
        for other in row
        if other.y_center > centre + 0.4 * height
        and other.y0 - span[3] < 2.5 * height
        and (abs(other.x0 - span[0]) < max(0.04, 2 * height) or other.x0 <= span[0] < other.x1)
    ]
    return min(
        candidates, key=lambda other: (other.y_center - centre) + abs(other.x0 - span[0]), default=None
    )


def _front_value(
    name: str, match: re.Match[str], group: int | str, line: Line, method: float, country: str | None
) -> FrontValue | None:
    """The value ``match`` found on ``line`` (its group ``group``) by ``method``, or None where it
    makes none (a date no calendar has)."""
    value = " ".join(match.group(group).split()).strip(" ,")
    alternatives: tuple[str, ...] = ()
    if name.startswith("date_"):
        readings = parse_front_date(value, country)
        if not readings:
            return None
        value, alternatives = readings[0], tuple(readings[1:])
    if not value:
        return None
    confidence = min(_FRONT_MAX, line.score * method)
    bbox = line.span_bbox(match.start(group), match.end(group))
    return FrontValue(
        value, confidence, line.page, bbox, alternatives, line.score, method != _INFERRED, _HOW[method]
    )


def parse_front_date(text: str, country: str | None) -> list[str]:
    """ISO readings of a printed date, likeliest first: YYYY-MM-DD, or MM/DD/YYYY (US) and
    DD/MM/YYYY when the day cannot be a month."""
    digits = re.sub(r"\D", "", text)
    if len(digits) != 8:
        return []
    if 1900 <= int(digits[:4]) <= 2099:
        orders = [(digits[:4], digits[4:6], digits[6:])]
    else:
        mdy = (digits[4:], digits[:2], digits[2:4])
        dmy = (digits[4:], digits[2:4], digits[:2])
        orders = [dmy, mdy] if country == CAN else [mdy, dmy]
    readings = []
    for year, month, day in orders:
        try:
            readings.append(date(int(year), int(month), int(day)).isoformat())
        except ValueError:
            continue
    return list(dict.fromkeys(readings))


def _names_from_caption(grid: list[list[Line]], found: dict[str, FrontValue]) -> None:
    """ "NAME" above "SURNAME," and "GIVEN NAMES" (or "SURNAME, GIVEN NAMES" on one line)."""
    if "surname" in found and "given_names" in found:
        return
    for row_index, row in enumerate(grid):
        for line in row:
            if not _NAME_CAPTION.match(line.text):
                continue
            first = _line_below(grid, row_index, line.bbox)
            if first is None:
                return
            segment = _segment(grid, first)
            text = " ".join(part.text for part in segment).upper().strip()
            if "," in text.rstrip(", "):
                surname, _, given = text.partition(",")
                _put_name(found, "surname", surname, segment)
                _put_name(found, "given_names", given, segment)
                return
            _put_name(found, "surname", text, segment)
            second = _line_below(grid, _row_of(grid, first), first.bbox)
            if second is not None and not _LABEL_ONLY.match(second.text):
                second_segment = _segment(grid, second)
                _put_name(
                    found, "given_names", " ".join(part.text for part in second_segment), second_segment
                )
            return


def _numbered_names(grid: list[list[Line]], found: dict[str, FrontValue], numbered: bool) -> None:
    """AAMVA's numbered fields: "1 SURNAME" and "2 GIVEN NAMES" (OCR often glues the number on,
    and sometimes loses it: then the name is the letters-only line above "2" or below "1")."""
    if not numbered:
        return
    where: dict[str, Line] = {}
    for row in grid:
        for line in row:
            match = re.match(r"^\s*([12])\s*([A-Z][A-Z'\- ,]*[A-Z])\s*$", line.text.upper())
            if match is None:
                continue
            name = "surname" if match.group(1) == "1" else "given_names"
            if name not in found:
                segment = _segment(grid, line)
                text = " ".join([match.group(2), *(part.text for part in segment[1:])])
                _put_name(found, name, text, segment)
                where[name] = line
    if "given_names" in where and "surname" not in found:
        above = _line_above(grid, _row_of(grid, where["given_names"]), where["given_names"])
        if above is not None:
            _put_name(found, "surname", above.text, [above], _INFERRED)
    if "surname" in where and "given_names" not in found:
        below = _line_below(grid, _row_of(grid, where["surname"]), where["surname"].bbox)
        if below is not None:
            _put_name(found, "given_names", below.text, [below], _INFERRED)


def _put_name(
    found: dict[str, FrontValue], name: str, raw: str, lines: Sequence[Line], method: float = _BELOW
) -> None:
    value = _letters(" ".join(raw.upper().replace(",", " ").split()))
    if name in found or not re.fullmatch(r"[A-Z][A-Z'\- ]*", value or "-") or _LABEL_ONLY.match(value):
        return
    score = min(line.score for line in lines)
    found[name] = FrontValue(
        value,
        min(_FRONT_MAX, score * method),
        lines[0].page,
        _union(lines),
        ocr_score=score,
        strong=method != _INFERRED,
        how_found=_HOW[method],
    )


def _segment(grid: list[list[Line]], line: Line) -> list[Line]:
    """``line`` and the lines right after it on its row while they sit close: OCR splits one
    printed value at a wide space ("VON" | "THOMAS")."""
    row = grid[_row_of(grid, line)]
    out = [line]
    for other in row[row.index(line) + 1 :]:
        if other.x0 - out[-1].x1 > 1.5 * max(line.height, other.height):
            break
        out.append(other)
    return out


def _row_of(grid: list[list[Line]], line: Line) -> int:
    return next(index for index, row in enumerate(grid) if line in row)


def _union(lines: Sequence[Line]) -> BBox:
    return (
        min(line.x0 for line in lines),
        min(line.y0 for line in lines),
        max(line.x1 for line in lines),
        max(line.y1 for line in lines),
    )


_LOOKALIKE_LETTERS = str.maketrans("0158", "OISB")


def _letters(text: str) -> str:
    """Digits OCR reads in words that have none (names, cities) back to the letters they are."""
    return text.translate(_LOOKALIKE_LETTERS)


_STREET_SUFFIXES = tuple(_FRONT["street_suffixes"])


def respace_street(text: str) -> str:
    """Put back spaces OCR dropped in a street line ("12540ORCHARDPL" -> "12540 ORCHARD PL"):
    after the house number, before a unit, and before a trailing street type in a long word."""
    text = re.sub(r"^(\d+)(?=[A-Z]{2})(?!ST|ND|RD|TH)", r"\1 ", text)
    text = re.sub(r"(?<=[A-Z])(?=(?:APT|UNIT)\s*\d)", " ", text)
    # a compass point glued to the street's name ("4714 NFRANKLIN WAY"): no English word opens
    # with N or W and a consonant (but WR, WH)
    text = re.sub(r"^(\d+ )(N|W)(?=(?![HR])[B-DF-HJ-NP-TV-XZ][A-Z]{2})", r"\1\2 ", text)
    words = []
    for word in text.split():
        if len(word) >= 7 and word.isalpha():
            for suffix in _STREET_SUFFIXES:
                if word.endswith(suffix) and len(word) - len(suffix) >= 3:
                    word = f"{word[: -len(suffix)]} {suffix}"
                    break
        words.append(word)
    return " ".join(words)


def _address(grid: list[list[Line]], found: dict[str, FrontValue], numbered: bool) -> None:
    """The "CITY, ST 12345" line, and the street line printed just above it."""
    if "address_city" in found:
        return
    for row_index, row in enumerate(grid):
        for line in row:
            segment = _segment(grid, line)
            text = " ".join(part.text for part in segment).upper().strip()
            match = _CITY_LINE.match(text)
            if match is None or match.group("region") not in REGION_CODES:
                continue
            score = min(part.score for part in segment)
            confidence = min(_FRONT_MAX, score * _INFERRED)
            for key, group in (
                ("address_city", "city"),
                ("address_region", "region"),
                ("address_postal_code", "postal"),
            ):
                # a comma before the state read as a full stop ("COLUMBUS. OH"): no city ends so
                raw = " ".join(match.group(group).split()).strip(" ,.")
                value = _postal(raw) if key == "address_postal_code" else raw
                span = (
                    line.span_bbox(match.start(group), match.end(group))
                    if len(segment) == 1
                    else _union(segment)
                )
                found.setdefault(key, FrontValue(value, confidence, line.page, span, ocr_score=score))
            above = _line_above(grid, row_index, line)
            if above is not None:
                _street(found, _segment(grid, above), numbered)
                if numbered:
                    _names_above_street(grid, found, above)
            return


def _names_above_street(grid: list[list[Line]], found: dict[str, FrontValue], street: Line) -> None:
    """On a numbered layout whose small "1" and "2" OCR lost, the given names are the letters-only
    line above the street, and the surname the one above that."""
    given = _line_above(grid, 0, street)
    if given is None or not re.fullmatch(r"[A-Z'\- ]+", given.text.upper()):
        return
    surname = _line_above(grid, 0, given)
    if surname is None or not re.fullmatch(r"[A-Z'\- ]+", surname.text.upper()):
        return
    _put_name(found, "given_names", given.text, [given], _INFERRED)
    _put_name(found, "surname", surname.text, [surname], _INFERRED)


def _street(found: dict[str, FrontValue], segment: list[Line], numbered: bool) -> None:
    text = " ".join(part.text for part in segment).upper().strip()
    label = _STREET_LABEL.match(text)
    offset = label.end() if label else 0
    if numbered and not label and text.startswith("8"):
        offset = 1  # the "8" of AAMVA's numbered address field, glued to the house number
    street = " ".join(text[offset:].split())
    if not re.match(r"^\d+[A-Z]?\s*(?:[NSEW]\s+)?[A-Z0-9]{2}", street) or _DATE_TOKEN.search(street):
        return  # a street starts with a house number and a word, and holds no date
    score = min(part.score for part in segment)
    first = segment[0]
    bbox = first.span_bbox(offset, len(text)) if len(segment) == 1 else _union(segment)
    found.setdefault(
        "address_street",
        FrontValue(
            street,
            min(_FRONT_MAX, score * _INFERRED),
            first.page,
            bbox,
            ocr_score=score,
            strong=bool(label),
            how_found="inline" if label else "inferred",
        ),
    )


def _line_above(grid: list[list[Line]], row_index: int, line: Line) -> Line | None:
    """The line printed just above ``line`` and overlapping it horizontally."""
    candidates = [
        other
        for row in grid
        for other in row
        if other.y_center < line.y_center - 0.4 * line.height
        and line.y0 - other.y1 < 2.0 * line.height
        and other.x0 < line.x1
        and other.x1 > line.x0
    ]
    return min(
        candidates, key=lambda other: (line.y_center - other.y_center) + abs(other.x0 - line.x0), default=None
    )


def _postal(raw: str) -> str:
    compact = re.sub(r"[\s-]", "", raw.upper())
    if re.fullmatch(r"[A-Z]\d[A-Z]\d[A-Z]\d", compact):
        return f"{compact[:3]} {compact[3:]}"
    if compact.isdigit() and len(compact) == 9:
        return compact[:5] if compact[5:] == "0000" else f"{compact[:5]}-{compact[5:]}"
    return compact


def _issuer_from_title(pages: Sequence[PageText]) -> FrontValue | None:
    """The issuer's name printed as a title line ("CALIFORNIA", "Ontario")."""
    names = sorted(JURISDICTION_NAMES, key=len, reverse=True)
    for page in pages:
        for line in page.lines:
            text = _compact(line.text)
            for name in names:
                if text == _compact(name):
                    return FrontValue(
                        JURISDICTION_NAMES[name],
                        min(_FRONT_MAX, line.score * _INFERRED),
                        line.page,
                        line.bbox,
                        ocr_score=line.score,
                    )
    return None


def _front_country(pages: Iterable[PageText]) -> str | None:
    """USA or CAN from the issuer's name, to read DD/MM dates the Canadian way."""
    issuer = _issuer_from_title(list(pages))
    if issuer is None:
        return None
    return CAN if issuer.value in CANADIAN_REGIONS else USA
