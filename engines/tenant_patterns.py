"""Regular expressions a tenant wrote, matched in linear time (RE2), on bounded text.

A tenant's type brings regular expressions of its own into the shared pipeline: each ``code``
field's ``pattern``, and the label phrases and enum values the generic reader looks for
(``engines.business.generic``). Python's ``re`` backtracks: ``^(a{1,9}){1,12}$`` on a run of 37
``a`` took 42 s inside Triton's ``doc_pipeline``, and every tenant's documents waited behind it.
Everything a tenant wrote is therefore matched here, with RE2 (google-re2): an automaton whose
time is linear in the text, whatever the pattern, so nested quantifiers cost nothing more.

Each match is bounded in time as well as in kind: a compiled pattern may use at most
``MAX_PROGRAM_BYTES`` (a larger one is refused when it is defined), and it is run on at most
``MAX_TEXT`` characters, so one match costs at most (program size times text length) steps — measured in
docs/custom-document-types.md (``bench/tenant_patterns.py``).

RE2 refuses what needs backtracking: backreferences (``\\1``), lookahead and lookbehind
(``(?=``, ``(?!``, ``(?<=``, ``(?<!``), possessive and atomic groups, ``\\Z`` (write ``$``).
:func:`pattern_refusal` says so when a type is defined, in words a tenant can act on. RE2's
``\\d``, ``\\w`` and ``\\s`` are ASCII, as an identifier's pattern means them.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator

import re2

# Memory RE2 may use for one compiled pattern (program and matching cache); a pattern that needs
# more (huge counted repeats of large classes) is refused when its type is defined.
MAX_PROGRAM_BYTES = 1 << 20
# Characters of text one search reads (a page's line, the text beside a label): a longer text is
# read up to here. A value longer than this is no value a bounded pattern matches.
MAX_TEXT = 1_000
# Compiled patterns kept per process (each at most MAX_PROGRAM_BYTES).
CACHE_SIZE = 256

Span = tuple[int, int]


class PatternRefused(ValueError):
    """A regular expression RE2 cannot run; the message says why, for the tenant."""


def _options() -> re2.Options:
    options = re2.Options()
    options.max_mem = MAX_PROGRAM_BYTES
    options.log_errors = False  # a refusal is answered to the tenant, not printed to stderr
    return options


def _why(error: re2.error) -> str:
    detail = error.args[0] if error.args else error
    text = detail.decode("utf-8", "replace") if isinstance(detail, bytes) else str(detail)
    if "too large" in text or "repetition size" in text:
        return f"pattern is too large for the linear-time matcher ({text}): use smaller repeats or classes"
    return (
        f"pattern cannot be matched in linear time ({text}); lookahead/lookbehind ((?=, (?!, (?<=, "
        "(?<!), backreferences (\\1), atomic groups and \\Z are not supported"
    )


@functools.lru_cache(maxsize=CACHE_SIZE)
def _compiled(regex: str) -> re2._Regexp:
    try:
        return re2.compile(regex, _options())
    except re2.error as error:
        raise PatternRefused(_why(error)) from None


def _token_regex(body: str, before: str, after: str) -> str:
    """``body`` standing alone: preceded by the start of the text or a character outside
    ``before``, followed by the end or a character outside ``after`` (RE2 has no lookaround, so
    the boundary characters are consumed and the body is group 1)."""
    return rf"(?:^|[^{before}])({body})(?:[^{after}]|$)"


class TokenFinder:
    """A tenant's regular expression found as a token in text (``before``/``after``: the
    character classes, as ``a-z0-9``, that may not touch it on either side; ``literal``: text
    every match contains, looked for first — most lines hold no label, and ``in`` costs far less
    than a call into RE2)."""

    __slots__ = ("_after", "_literal", "_regex")

    def __init__(self, body: str, *, before: str, after: str, literal: str = "") -> None:
        self._regex = _compiled(_token_regex(body, before, after))
        self._after = _compiled(f"[{after}]")
        self._literal = literal

    def search(self, text: str, pos: int = 0) -> Span | None:
        """The first token at or after ``pos`` within the first ``MAX_TEXT`` characters."""
        bounded = text[:MAX_TEXT]
        if self._literal and self._literal not in bounded:
            return None
        match = self._regex.search(bounded, pos)
        if match is None:
            return None
        start, end = match.span(1)
        if end == len(bounded) < len(text) and self._after.match(text, end) is not None:
            return None  # the text was cut inside a longer token
        return start, end

    def finditer(self, text: str) -> Iterator[Span]:
        """Every token, left to right, none overlapping (as ``re.finditer`` with lookaround)."""
        pos = 0
        while (span := self.search(text, pos)) is not None:
            yield span
            # the token's last character may be the next one's leading boundary
            pos = max(span[1] - 1, span[0] + 1, pos + 1)


@functools.lru_cache(maxsize=CACHE_SIZE)
def token_finder(body: str, *, before: str, after: str, literal: str = "") -> TokenFinder:
    """The cached :class:`TokenFinder`; :class:`PatternRefused` when RE2 cannot run ``body``."""
    return TokenFinder(body, before=before, after=after, literal=literal)


def code_finder(pattern: str) -> TokenFinder:
    """A ``code`` field's anchored pattern (``^…$``) found as a token of letters and digits in a
    label's text: not inside a longer run of them."""
    body = pattern.removeprefix("^").removesuffix("$")
    return token_finder(body, before="A-Za-z0-9", after="A-Za-z0-9")


def fullmatch(pattern: str, value: str) -> bool:
    """Does the whole of ``value`` match ``pattern``? (A value longer than ``MAX_TEXT`` does not:
    a tenant's pattern matches at most a bounded length.) False for a pattern RE2 refuses."""
    if len(value) > MAX_TEXT:
        return False
    try:
        return _compiled(pattern).fullmatch(value) is not None
    except PatternRefused:
        return False


def escape(text: str) -> str:
    """``text`` as a literal in a pattern RE2 reads."""
    return str(re2.escape(text))


def pattern_refusal(pattern: str) -> str | None:
    """Why RE2 cannot run a code field's ``pattern`` (as validated, and as the reader looks for
    it), or None when it can."""
    try:
        _compiled(pattern)
        code_finder(pattern)
    except PatternRefused as refused:
        return str(refused)
    return None
