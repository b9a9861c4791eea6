"""Reading the JSON object a model wrote, with where each value sits in the text.

Guided decoding makes the output valid JSON *unless it is cut short* (``max_tokens`` reached, the
request cancelled). So the parser keeps every member completed before the cut and drops the one
being written, and it tolerates what models put around JSON (code fences, a word before it,
anything after the closing brace) and a raw control character inside a string (which guided
decoders' string rules let through). What it cannot read — no object at all, or a syntax error in
the middle — fails with one clear error code, ``model_output_unusable``.

Each top-level value's character span in the generated text is recorded, because a value's
confidence comes from the tokens that wrote exactly those characters (``engines.llm.confidence``).
For a string the span is the raw text between the quotes (escapes included, as generated); for a
number, ``true``/``false`` or ``null`` it is the literal; for an array or object, the brackets.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from engines.types import EngineError

UNUSABLE = "model_output_unusable"

_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?")
_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}
_LITERALS = {"true": True, "false": False, "null": None}
_WHITESPACE = " \t\r\n"


@dataclass(frozen=True)
class Span:
    """Characters ``[start, end)`` of the generated text."""

    start: int
    end: int


@dataclass(frozen=True)
class ParsedOutput:
    data: dict[str, Any]  # the completed top-level members
    spans: dict[str, Span]  # key -> span of its value
    truncated: bool  # the text ended inside the object (members after the cut are missing)


class _Truncated(Exception):
    """The text ended inside a value."""


class _Invalid(Exception):
    """A syntax error that is not a cut."""


class _Parser:
    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def skip_space(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos] in _WHITESPACE:
            self.pos += 1

    def peek(self) -> str:
        self.skip_space()
        if self.pos >= len(self.text):
            raise _Truncated
        return self.text[self.pos]

    def expect(self, char: str) -> None:
        if self.peek() != char:
            raise _Invalid(f"expected {char!r} at {self.pos}")
        self.pos += 1

    def value(self) -> tuple[Any, Span]:
        char = self.peek()
        start = self.pos
        if char == '"':
            text = self.string()
            return text, Span(start + 1, self.pos - 1)
        if char == "{":
            return self.object(), Span(start, self.pos)
        if char == "[":
            return self.array(), Span(start, self.pos)
        if char == "-" or char.isdigit():
            return self.number(), Span(start, self.pos)
        for literal, parsed in _LITERALS.items():
            piece = self.text[self.pos : self.pos + len(literal)]
            if piece == literal:
                self.pos += len(literal)
                return parsed, Span(start, self.pos)
            if literal.startswith(piece) and self.pos + len(piece) == len(self.text):
                raise _Truncated
        raise _Invalid(f"unexpected {char!r} at {self.pos}")

    def number(self) -> int | float:
        match = _NUMBER.match(self.text, self.pos)
        if match is None:
            if self.pos + 1 >= len(self.text):
                raise _Truncated
            raise _Invalid(f"bad number at {self.pos}")
        self.pos = match.end()
        if self.pos >= len(self.text) or self.text[self.pos] in ".eE+-":
            raise _Truncated  # more digits may have followed
        literal = match.group()
        return float(literal) if any(c in literal for c in ".eE") else int(literal)

    def string(self) -> str:
        self.pos += 1  # the opening quote
        out: list[str] = []
        text = self.text
        while True:
            if self.pos >= len(text):
                raise _Truncated
            char = text[self.pos]
            if char == '"':
                self.pos += 1
                return "".join(out)
            if char == "\\":
                out.append(self.escape())
                continue
            if char < " ":
                # JSON forbids a raw control character in a string, but guided decoders' string
                # rules let a model write one (xgrammar, a byte-fallback token): it is no part of
                # any value a document prints, so it reads as the space it stands between words
                out.append(" ")
                self.pos += 1
                continue
            out.append(char)
            self.pos += 1

    def escape(self) -> str:
        text = self.text
        if self.pos + 1 >= len(text):
            raise _Truncated
        kind = text[self.pos + 1]
        if kind in _ESCAPES:
            self.pos += 2
            return _ESCAPES[kind]
        if kind != "u":
            raise _Invalid(f"bad escape at {self.pos}")
        code = self.hex4(self.pos + 2)
        self.pos += 6
        if 0xD800 <= code < 0xDC00 and text[self.pos : self.pos + 2] == "\\u":
            low = self.hex4(self.pos + 2)
            if 0xDC00 <= low < 0xE000:
                self.pos += 6
                return chr(0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00))
        return chr(code)

    def hex4(self, at: int) -> int:
        digits = self.text[at : at + 4]
        if len(digits) < 4 and at + len(digits) == len(self.text):
            raise _Truncated
        try:
            return int(digits, 16)
        except ValueError:
            raise _Invalid(f"bad \\u escape at {at}") from None

    def array(self) -> list[Any]:
        self.expect("[")
        items: list[Any] = []
        if self.peek() == "]":
            self.pos += 1
            return items
        while True:
            items.append(self.value()[0])
            char = self.peek()
            self.pos += 1
            if char == "]":
                return items
            if char != ",":
                raise _Invalid(f"expected ',' or ']' at {self.pos - 1}")

    def object(self, members: dict[str, tuple[Any, Span]] | None = None) -> dict[str, Any]:
        """An object; ``members`` (top level) collects each completed member as it is read."""
        self.expect("{")
        found: dict[str, tuple[Any, Span]] = {} if members is None else members
        if self.peek() == "}":
            self.pos += 1
            return {}
        while True:
            if self.peek() != '"':
                raise _Invalid(f"expected a key at {self.pos}")
            key = self.string()
            self.expect(":")
            found[key] = self.value()
            char = self.peek()
            self.pos += 1
            if char == "}":
                return {k: v for k, (v, _span) in found.items()}
            if char != ",":
                raise _Invalid(f"expected ',' or '}}' at {self.pos - 1}")


def parse_model_json(text: str) -> ParsedOutput:
    """The top-level object in ``text`` with its values' spans; see the module docstring.

    Raises ``EngineError(model_output_unusable)`` when there is no object, or a syntax error that
    is not a cut. The message says where, never what the text says.
    """
    start = text.find("{")
    if start < 0:
        raise EngineError(UNUSABLE, "the model wrote no JSON object")
    parser = _Parser(text)
    parser.pos = start
    members: dict[str, tuple[Any, Span]] = {}
    truncated = False
    try:
        parser.object(members)
    except _Truncated:
        truncated = True
    except _Invalid as error:
        raise EngineError(UNUSABLE, f"the model's JSON is malformed ({error})") from None
    return ParsedOutput(
        data={key: value for key, (value, _span) in members.items()},
        spans={key: span for key, (_value, span) in members.items()},
        truncated=truncated,
    )
