"""The fixed layouts of ICAO 9303 machine-readable zones (TD1, TD2, TD3), as data
(engines/knowledge/mrz_formats.toml).

Everything that knows *where* a field sits lives there, so parsing, OCR repair and the
format-constrained decoder agree on one description. Each line has a *class template*: one
letter per character position saying which characters may appear there (``L`` the document
code's first letter, ``a`` a letter or ``<``, ``x`` a letter, digit or ``<``, ``n`` a digit,
``c`` a check digit, ``k`` a check digit or ``<``, ``s`` the sex; the data file says when each
is used).
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DIGITS = "0123456789"
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
FILLER = "<"
ALPHABET = DIGITS + LETTERS + FILLER

_DATA = tomllib.loads(
    (Path(__file__).resolve().parent.parent / "knowledge" / "mrz_formats.toml").read_text(encoding="utf-8")
)
# The characters each class allows, and the lookalikes the decoder lends them (engines/mrz/ctc.py).
CLASS_CHARS: dict[str, str] = {cls: spec["chars"] for cls, spec in _DATA["classes"].items()}
CLASS_LOOKALIKES: dict[str, str] = {cls: spec["lookalikes"] for cls, spec in _DATA["classes"].items()}


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


def _format(name: str, raw: dict[str, Any]) -> MrzFormat:
    """One format from its data: each line's fields in order, each a class template ("x9")."""
    templates: list[str] = []
    spans: dict[str, Span] = {}
    for line, fields in enumerate(raw["lines"]):
        template = ""
        for field, classes in fields.items():
            part = "".join(cls * int(count or 1) for cls, count in re.findall(r"(\D)(\d*)", classes))
            if not part or not set(part) <= set(CLASS_CHARS) or field in spans:
                raise ValueError(f"mrz_formats.toml: {name} field {field} is {classes!r}")
            spans[field] = Span(line, len(template), len(template) + len(part))
            template += part
        templates.append(template)
    if len({len(template) for template in templates}) != 1:
        raise ValueError(f"mrz_formats.toml: the lines of {name} differ in length")
    checks = tuple(
        CheckSpec(check, _joined([spans[field] for field in over]), spans[f"{check}_check"])
        for check, over in raw["checks"].items()
    )
    return MrzFormat(name, len(templates), len(templates[0]), tuple(templates), spans, checks)


def _joined(spans: list[Span]) -> tuple[Span, ...]:
    """Fields that follow each other on a line, as one span."""
    out: list[Span] = []
    for span in spans:
        if out and out[-1].line == span.line and out[-1].end == span.start:
            out[-1] = Span(span.line, out[-1].start, span.end)
        else:
            out.append(span)
    return tuple(out)


FORMATS: tuple[MrzFormat, ...] = tuple(_format(name, raw) for name, raw in _DATA["formats"].items())
TD1, TD2, TD3 = FORMATS


def format_for_shape(line_count: int, line_length: int) -> MrzFormat | None:
    """The format with exactly this many lines of exactly this length, if any."""
    for fmt in FORMATS:
        if fmt.line_count == line_count and fmt.line_length == line_length:
            return fmt
    return None
