"""Where a packet's documents begin: each page's guessed type and printed cues, then the page
ranges they make. Pure and Django-free, so the rules are tested on plain pages.

A page continues the one before it only on positive evidence: a page-number cue that follows on
("Page 2 of 3" after "Page 1 of 3"), the same issuer heading at the top of both pages, or the same
confidently guessed type (never for a type that is one page, such as a passport's data page).
Everything else starts a new document, because a reviewer merging two ranges is cheaper than a
reviewer noticing that a bill was read as the second page of a statement.
"""

from __future__ import annotations

import re
import tomllib
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from engines.layout import PageText

KNOWLEDGE = Path(__file__).resolve().parent.parent / "knowledge" / "packets.toml"
PageRange = tuple[int, int]


@dataclass(frozen=True)
class PacketKnowledge:
    min_pages: int
    min_type_confidence: float
    single_page_types: frozenset[str]
    heading_lines: int
    heading_min_chars: int
    page_cue: re.Pattern[str]


@cache
def knowledge() -> PacketKnowledge:
    raw: dict[str, Any] = tomllib.loads(KNOWLEDGE.read_text(encoding="utf-8"))
    words = "|".join(re.escape(_fold(w)) for w in sorted(raw["page_words"], key=len, reverse=True))
    of = "|".join(re.escape(_fold(w)) for w in sorted(raw["of_words"], key=len, reverse=True))
    cue = re.compile(
        rf"(?:\b(?:{words})\.?\s*(\d{{1,3}})\s*(?:{of})\s*(\d{{1,3}})\b)|(?:^\s*(\d{{1,3}})\s*/\s*(\d{{1,3}})\s*$)"
    )
    return PacketKnowledge(
        min_pages=int(raw["min_pages"]),
        min_type_confidence=float(raw["min_type_confidence"]),
        single_page_types=frozenset(raw["single_page_types"]),
        heading_lines=int(raw["heading_lines"]),
        heading_min_chars=int(raw["heading_min_chars"]),
        page_cue=cue,
    )


def _fold(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).lower()


@dataclass(frozen=True)
class PageGuess:
    """What one page of a packet looks like: its guessed type, the page-number cue printed on it
    ((2, 3) for "Page 2 of 3") and its heading (the first long lines, folded), for continuity."""

    page: int
    document_type: str
    confidence: float
    cue: tuple[int, int] | None = None
    heading: tuple[str, ...] = ()


def page_cue(page: PageText) -> tuple[int, int] | None:
    """The first "page n of m" printed on the page, where it makes sense (1 <= n <= m)."""
    pattern = knowledge().page_cue
    for line in page.lines:
        for match in pattern.finditer(_fold(line.text)):
            numbers = [int(g) for g in match.groups() if g is not None]
            if len(numbers) == 2 and 1 <= numbers[0] <= numbers[1] <= 999:
                return numbers[0], numbers[1]
    return None


def page_heading(page: PageText) -> tuple[str, ...]:
    """The page's first long lines, folded, without its page-number cue: an issuer's heading."""
    known = knowledge()
    kept: list[str] = []
    for line in page.lines:
        text = " ".join(_fold(line.text).split())
        if len(text) < known.heading_min_chars or known.page_cue.search(text):
            continue
        kept.append(text)
        if len(kept) == known.heading_lines:
            break
    return tuple(kept)


def continues(previous: PageGuess, page: PageGuess) -> bool:
    """Whether ``page`` belongs to the same document as the page before it."""
    known = knowledge()
    if page.cue is not None:
        number, total = page.cue
        if number == 1:
            return False
        if previous.cue is not None:
            return previous.cue == (number - 1, total)
        return previous.document_type not in known.single_page_types
    if known.single_page_types & {previous.document_type, page.document_type}:
        return False
    if previous.cue is not None and previous.cue[0] == previous.cue[1]:
        return False  # the page before was the last of its document
    if set(previous.heading) & set(page.heading):
        return True
    confident = min(previous.confidence, page.confidence) >= known.min_type_confidence
    return confident and previous.document_type == page.document_type != "other"


def split_ranges(guesses: Sequence[PageGuess]) -> list[PageRange]:
    """The page ranges of the packet's documents, in page order, covering every page once."""
    ranges: list[PageRange] = []
    for index, guess in enumerate(guesses):
        if index and continues(guesses[index - 1], guess):
            ranges[-1] = (ranges[-1][0], guess.page)
        else:
            ranges.append((guess.page, guess.page))
    return ranges


def range_type(guesses: Sequence[PageGuess], page_range: PageRange) -> str:
    """The range's guessed type: its most confident page's, "other" when none was guessed."""
    inside = [g for g in guesses if page_range[0] <= g.page <= page_range[1] and g.document_type != "other"]
    return max(inside, key=lambda g: g.confidence).document_type if inside else "other"


def parse_ranges(text: str, total: int) -> list[PageRange]:
    """A reviewer's split, written "1 | 2 | 3-4" (or with commas or semicolons): the ranges, or
    ValueError saying what is wrong. They must cover pages 1..``total`` in order, each once."""
    ranges: list[PageRange] = []
    for part in re.split(r"[|,;]", text):
        part = part.strip()
        if not part:
            continue
        match = re.fullmatch(r"(\d{1,3})\s*(?:-\s*(\d{1,3}))?", part)
        if match is None:
            raise ValueError(f"{part!r} is not a page or a range of pages (write 3-4)")
        first = int(match.group(1))
        ranges.append((first, int(match.group(2) or first)))
    expected = 1
    for first, last in ranges:
        if first != expected or last < first:
            raise ValueError(f"the ranges must cover pages 1 to {total} in order, each once")
        expected = last + 1
    if expected != total + 1:
        raise ValueError(f"the ranges must cover pages 1 to {total} in order, each once")
    return ranges


def ranges_text(ranges: Sequence[PageRange]) -> str:
    return " | ".join(str(a) if a == b else f"{a}-{b}" for a, b in ranges)
