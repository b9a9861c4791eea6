"""What the model engine's grammar compiler can follow, asked of that compiler: xgrammar 0.2.8, the
version vLLM 0.32 pins, compiled into the app.

Guided decoding follows a JSON Schema as xgrammar compiles it, not as JSON Schema or Python's
``re`` read it, and in 0.2.8 the two differ where a tenant's value is concerned:

- ``{"type": "string", "maxLength": n}`` compiles to ``[^"\\\\\\r\\n]{0,n}``: no escape can be
  written (``ACME "X" Ltd``, a backslash, ``\\u00e9``), and at ``n`` the closing quote is forced,
  so a longer value comes back cut, looking ordinary.
- A ``pattern`` made of printable ASCII is compiled with every character match excluding ``"``,
  ``\\`` and control characters: no escape either, whatever the pattern says. A pattern holding
  any other character is expanded as written and matched against the raw JSON text between the
  quotes (``json_schema_converter.cc``, ``RegexExpression``).
- Backreferences, ``\\b``, lookbehind, ``\\p{..}`` and inline flags are refused (vLLM answers 400);
  lookahead is ignored inside a schema's pattern.

So a bounded free-text value is written as :func:`text_schema`'s pattern: the body of a JSON string
(an escape is one character), ``min`` to ``max`` characters of it, on one line. U+2028 and U+2029 are
excluded as line breaks, and being outside ASCII they also make xgrammar expand the pattern as
written, escapes included. A pattern with ``+`` or ``*`` is bounded for the engine by
:func:`bounded_pattern`, and :func:`longest` says where the grammar stops a value, so a value that
reached it can be flagged as possibly cut (``engines.llm.pipeline``).

``import xgrammar`` imports torch and transformers for its token masks and tokenizers, which the
app never uses; its grammar compiler is a C++ library behind ``tvm_ffi``. :func:`_compiler` loads
that part alone (xgrammar installed without its declared dependencies, beside ``apache-tvm-ffi``).
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import json
import re
import re._parser as sre_parse  # the stdlib's own regex parser: a pattern's shortest and longest match
import sys
import types
from typing import Any

# The body of a JSON string, one character (or escape) at a time, on one line.
_LINE_BREAKS = "\u2028\u2029"  # written as themselves: the pattern must hold non-ASCII characters
_TEXT_CHARACTER = r'(?:[^"\\\x00-\x1f' + _LINE_BREAKS + r']|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})'
_TEXT = re.compile(r"^\^" + re.escape(_TEXT_CHARACTER) + r"\{(\d+),(\d+)\}\$$")
_UNBOUNDED = re.compile(r"\{(\d+),\}")
_LOG_PREFIX = re.compile(r"^\[[\d:]+\] \S+:\d+: ")


def text_schema(max_length: int, min_length: int = 0) -> dict[str, Any]:
    """A string of ``min_length`` to ``max_length`` characters as xgrammar follows it: any
    character JSON can write, escapes included, the bound in the pattern (never ``maxLength``)."""
    return {"type": "string", "pattern": f"^{_TEXT_CHARACTER}{{{min_length},{max_length}}}$"}


def text_bounds(pattern: str) -> tuple[int, int] | None:
    """``(min_length, max_length)`` of a :func:`text_schema` pattern, None for any other pattern."""
    found = _TEXT.match(pattern)
    return (int(found[1]), int(found[2])) if found else None


def decoded_schema(schema: Any) -> Any:
    """``schema`` as a JSON Schema validator of the *parsed* answer reads it: each free text's
    pattern (which xgrammar matches on the JSON text, escapes included) becomes the lengths it
    means, so ``"a\\d"`` in the answer is the 3-character value ``a\\d``."""
    if isinstance(schema, list):
        return [decoded_schema(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    bounds = text_bounds(schema["pattern"]) if isinstance(schema.get("pattern"), str) else None
    if bounds is not None:
        return {"type": "string", "minLength": bounds[0], "maxLength": bounds[1]}
    return {key: decoded_schema(value) for key, value in schema.items()}


def bounded_pattern(pattern: str, limit: int) -> str:
    """``pattern`` with each unbounded repeat (``+``, ``*``, ``{n,}``) bounded by ``limit``: every
    value of at most ``limit`` characters it matched, it still matches (a repeat of more than
    ``limit`` non-empty pieces is longer than that), and the engine can no longer write forever."""
    out: list[str] = []
    i, size = 0, len(pattern)
    while i < size:
        char = pattern[i]
        if char == "\\":
            out.append(pattern[i : i + 2])
            i += 2
            continue
        if char == "[":  # a class: its + and * are characters
            end = i + 1
            end += pattern.startswith("^", end)
            end += pattern.startswith("]", end)
            while end < size and pattern[end] != "]":
                end += 2 if pattern[end] == "\\" else 1
            out.append(pattern[i : end + 1])
            i = end + 1
            continue
        unbounded = _UNBOUNDED.match(pattern, i) if char == "{" else None
        if char in "+*" or unbounded is not None:
            least = int(unbounded[1]) if unbounded else (1 if char == "+" else 0)
            out.append(f"{{{least},{max(least, limit)}}}")
            i = unbounded.end() if unbounded else i + 1
            i += pattern.startswith(("?", "+"), i)  # lazy or possessive: the same strings
            continue
        out.append(char)
        i += 1
    return "".join(out)


def longest(schema: dict[str, Any]) -> int | None:
    """The characters at which the grammar ends a string of ``schema``, where it could have gone
    on (a value that long may be cut); None where no bound can cut a value (an enumeration, a
    fixed width, no bound)."""
    pattern = schema.get("pattern")
    if not isinstance(pattern, str):
        return schema.get("maxLength") if isinstance(schema.get("maxLength"), int) else None
    bounds = text_bounds(pattern)
    if bounds is not None:
        return bounds[1]
    try:
        least, most = sre_parse.parse(pattern).getwidth()
    except re.error:
        return None
    return most if least < most < sre_parse.MAXREPEAT else None


# ----------------------------------------------------------------------------------------------
# the engine's compiler
# ----------------------------------------------------------------------------------------------


@functools.cache
def _compiler() -> tuple[Any, Any]:
    """xgrammar's ``Grammar`` and its C++ core, loaded without ``xgrammar/__init__.py`` (which
    imports torch): the package is registered by its path, so its submodules import as usual."""
    if "xgrammar" not in sys.modules:
        found = importlib.util.find_spec("xgrammar")
        if found is None or not found.submodule_search_locations:
            raise ImportError("xgrammar==0.2.8 is not installed (pip install --no-deps xgrammar==0.2.8)")
        package = types.ModuleType("xgrammar")
        package.__path__ = list(found.submodule_search_locations)
        sys.modules["xgrammar"] = package
        importlib.import_module("xgrammar.load_binding")
    grammar = importlib.import_module("xgrammar.grammar")
    return grammar.Grammar, importlib.import_module("xgrammar.base")._core


def _why(error: Exception) -> str:
    lines = [_LOG_PREFIX.sub("", line).strip() for line in str(error).splitlines()]
    return " ".join(line for line in lines if line) or type(error).__name__


def regex_refusal(pattern: str) -> str | None:
    """Why the engine's regex compiler refuses ``pattern``, or None when it follows it."""
    grammar, _ = _compiler()
    try:
        grammar.from_regex(pattern)
    except RuntimeError as error:
        return _why(error)
    return None


def schema_refusal(schema: dict[str, Any]) -> str | None:
    """Why the engine refuses a whole JSON Schema, compiled as vLLM compiles it, or None."""
    grammar, _ = _compiler()
    try:
        grammar.from_json_schema(json.dumps(schema))
    except RuntimeError as error:
        return _why(error)
    return None


def accepts(schema: dict[str, Any], text: str) -> bool:
    """Does the engine's grammar for ``schema`` let a model write exactly ``text``? (The check a
    test makes of a schema; no tokenizer: characters, not tokens.)"""
    grammar, core = _compiler()
    compiler = core.GrammarCompiler(core.TokenizerInfo([], 0, None, None, False), 1, False, -1)
    compiled = compiler.compile_grammar_ebnf(grammar.from_json_schema(json.dumps(schema))._handle)
    matcher = core.GrammarMatcher(compiled, None, True, -1, None)
    return bool(matcher.accept_string(text, False)) and bool(matcher.is_terminated())
