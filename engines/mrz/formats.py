"""The fixed layouts of ICAO 9303 machine-readable zones (TD1, TD2, TD3).

Everything that knows *where* a field sits lives here, so parsing, OCR repair and the
format-constrained decoder agree on one description. Each line has a *class template*: one
letter per character position saying which characters may appear there:

- ``L``  the first character of the document code: A, C or I on a card, P on a passport, V on
         a visa (9303 Parts 4 to 7); no other letter opens one
- ``a``  a letter or the filler ``<`` (names, country codes, document type)
- ``x``  a letter, a digit or ``<`` (document numbers, optional data)
- ``n``  a digit (dates)
- ``c``  a check digit
- ``k``  a check digit or ``<`` (the document-number check of TD1/TD2 when the number overflows,
  the TD3 personal-number check when there is no personal number)
- ``s``  sex: ``M``, ``F``, ``X`` or ``<``
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

DIGITS = "0123456789"
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
FILLER = "<"
ALPHABET = DIGITS + LETTERS + FILLER

CLASS_CHARS: dict[str, str] = {
    "L": "ACIPV",
    "a": LETTERS + FILLER,
    "x": ALPHABET,
    "n": DIGITS,
    "c": DIGITS,
    "k": DIGITS + FILLER,
    "s": "MFX" + FILLER,
}


@dataclass(frozen=True)
class Span:
    """Characters ``start:end`` of line ``line`` (0-based)."""

    line: int
    start: int
    end: int

    def read(self, lines: Sequence[str]) -> str:
        return lines[self.line][self.start : self.end]


@dataclass(frozen=True)
class CheckSpec:
    """A check digit at ``digit`` computed over the concatenation of ``data``."""

    name: str
    data: tuple[Span, ...]
    digit: Span


@dataclass(frozen=True)
class MrzFormat:
    name: str  # "TD1" | "TD2" | "TD3"
    line_count: int
    line_length: int
    templates: tuple[str, ...]  # one class template per line, see the module docstring
    spans: dict[str, Span]  # raw MRZ elements by name (before any interpretation)
    checks: tuple[CheckSpec, ...]

    def allowed(self, line: int, position: int) -> str:
        """The characters allowed at one position."""
        return CLASS_CHARS[self.templates[line][position]]


def _template(*parts: tuple[str, int]) -> str:
    return "".join(cls * count for cls, count in parts)


def _s(line: int, start: int, end: int) -> Span:
    return Span(line, start, end)


TD1 = MrzFormat(
    name="TD1",
    line_count=3,
    line_length=30,
    templates=(
        _template(("L", 1), ("a", 1), ("a", 3), ("x", 9), ("k", 1), ("x", 15)),
        _template(("n", 6), ("c", 1), ("s", 1), ("n", 6), ("c", 1), ("a", 3), ("x", 11), ("c", 1)),
        _template(("a", 30)),
    ),
    spans={
        "document_code": _s(0, 0, 2),
        "issuing_country": _s(0, 2, 5),
        "document_number": _s(0, 5, 14),
        "document_number_check": _s(0, 14, 15),
        "optional_data_1": _s(0, 15, 30),
        "date_of_birth": _s(1, 0, 6),
        "date_of_birth_check": _s(1, 6, 7),
        "sex": _s(1, 7, 8),
        "date_of_expiry": _s(1, 8, 14),
        "date_of_expiry_check": _s(1, 14, 15),
        "nationality": _s(1, 15, 18),
        "optional_data_2": _s(1, 18, 29),
        "composite_check": _s(1, 29, 30),
        "names": _s(2, 0, 30),
    },
    checks=(
        # The document-number check is special-cased in parse.py for long numbers.
        CheckSpec("document_number", (_s(0, 5, 14),), _s(0, 14, 15)),
        CheckSpec("date_of_birth", (_s(1, 0, 6),), _s(1, 6, 7)),
        CheckSpec("date_of_expiry", (_s(1, 8, 14),), _s(1, 14, 15)),
        CheckSpec("composite", (_s(0, 5, 30), _s(1, 0, 7), _s(1, 8, 15), _s(1, 18, 29)), _s(1, 29, 30)),
    ),
)

TD2 = MrzFormat(
    name="TD2",
    line_count=2,
    line_length=36,
    templates=(
        _template(("L", 1), ("a", 1), ("a", 3), ("a", 31)),
        _template(
            ("x", 9), ("k", 1), ("a", 3), ("n", 6), ("c", 1), ("s", 1), ("n", 6), ("c", 1), ("x", 7), ("c", 1)
        ),
    ),
    spans={
        "document_code": _s(0, 0, 2),
        "issuing_country": _s(0, 2, 5),
        "names": _s(0, 5, 36),
        "document_number": _s(1, 0, 9),
        "document_number_check": _s(1, 9, 10),
        "nationality": _s(1, 10, 13),
        "date_of_birth": _s(1, 13, 19),
        "date_of_birth_check": _s(1, 19, 20),
        "sex": _s(1, 20, 21),
        "date_of_expiry": _s(1, 21, 27),
        "date_of_expiry_check": _s(1, 27, 28),
        "optional_data_2": _s(1, 28, 35),
        "composite_check": _s(1, 35, 36),
    },
    checks=(
        CheckSpec("document_number", (_s(1, 0, 9),), _s(1, 9, 10)),
        CheckSpec("date_of_birth", (_s(1, 13, 19),), _s(1, 19, 20)),
        CheckSpec("date_of_expiry", (_s(1, 21, 27),), _s(1, 27, 28)),
        CheckSpec("composite", (_s(1, 0, 10), _s(1, 13, 20), _s(1, 21, 35)), _s(1, 35, 36)),
    ),
)

TD3 = MrzFormat(
    name="TD3",
    line_count=2,
    line_length=44,
    templates=(
        _template(("L", 1), ("a", 1), ("a", 3), ("a", 39)),
        _template(
            ("x", 9),
            ("c", 1),
            ("a", 3),
            ("n", 6),
            ("c", 1),
            ("s", 1),
            ("n", 6),
            ("c", 1),
            ("x", 14),
            ("k", 1),
            ("c", 1),
        ),
    ),
    spans={
        "document_code": _s(0, 0, 2),
        "issuing_country": _s(0, 2, 5),
        "names": _s(0, 5, 44),
        "document_number": _s(1, 0, 9),
        "document_number_check": _s(1, 9, 10),
        "nationality": _s(1, 10, 13),
        "date_of_birth": _s(1, 13, 19),
        "date_of_birth_check": _s(1, 19, 20),
        "sex": _s(1, 20, 21),
        "date_of_expiry": _s(1, 21, 27),
        "date_of_expiry_check": _s(1, 27, 28),
        "personal_number": _s(1, 28, 42),
        "personal_number_check": _s(1, 42, 43),
        "composite_check": _s(1, 43, 44),
    },
    checks=(
        CheckSpec("document_number", (_s(1, 0, 9),), _s(1, 9, 10)),
        CheckSpec("date_of_birth", (_s(1, 13, 19),), _s(1, 19, 20)),
        CheckSpec("date_of_expiry", (_s(1, 21, 27),), _s(1, 27, 28)),
        CheckSpec("personal_number", (_s(1, 28, 42),), _s(1, 42, 43)),
        CheckSpec("composite", (_s(1, 0, 10), _s(1, 13, 20), _s(1, 21, 43)), _s(1, 43, 44)),
    ),
)

FORMATS: tuple[MrzFormat, ...] = (TD1, TD2, TD3)


def format_for_shape(line_count: int, line_length: int) -> MrzFormat | None:
    """The format with exactly this many lines of exactly this length, if any."""
    for fmt in FORMATS:
        if fmt.line_count == line_count and fmt.line_length == line_length:
            return fmt
    return None
