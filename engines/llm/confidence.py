"""How sure the model was of each value it wrote, from its per-token log-probabilities.

A value's tokens are those whose characters overlap the value's span in the generated text (see
``engines.llm.parsing``): a token that carries the opening quote and the first letter counts, a
token of only punctuation around the value does not. Two numbers summarise them:

* the **geometric mean** of the tokens' probabilities, ``exp(mean(logprob))``: the per-token
  likelihood of the whole value, independent of its length;
* the **minimum** probability, ``exp(min(logprob))``: the weakest decision inside the value — one
  doubtful digit of a document number makes the value wrong however sure the rest was.

An empty string has no characters of its own; its quotes (the decision to write nothing) are
scored instead.

Both numbers are taken only over the steps where the model *chose*. Engines apply the grammar's
mask before they compute the log-probabilities they return (``engines/knowledge/model_scoring.toml``
says where, in each engine's source), so a token the grammar forced scores 1.0 and a token chosen
among a few allowed ones scores its probability renormalised over those few — inflated by the mass
the mask removed, which no engine reports. Each call therefore asks for the top
:data:`ALTERNATIVES` tokens per step, and the texts the allowed ones write
(:func:`allowed_choices`) mark a step as forced (one text, however it is cut into tokens: left out
of the score, it decided nothing) or narrowed (fewer than :data:`FEW_TEXTS` texts: the value is
:attr:`ValueConfidence.scored` False — unknown, never sure).
"""

from __future__ import annotations

import math
import os
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from engines.llm.parsing import Span

REPLACEMENT = "\ufffd"
_SCORING = tomllib.loads(
    (Path(__file__).resolve().parent.parent / "knowledge" / "model_scoring.toml").read_text(encoding="utf-8")
)
ALTERNATIVES: int = int(_SCORING["alternatives"])  # top log-probabilities asked per generated token
MASKED_AT_OR_BELOW: float = float(_SCORING["masked_at_or_below"])  # a token the grammar ruled out
FEW_TEXTS: int = int(_SCORING["few_texts"])  # a step that left 2 to FEW_TEXTS - 1 texts was narrowed
if not 2 <= FEW_TEXTS <= ALTERNATIVES:
    raise ValueError("model_scoring.toml: few_texts must be from 2 to alternatives")


@dataclass(frozen=True)
class ValueConfidence:
    geometric_mean: float
    minimum: float
    tokens: int  # how many tokens wrote the value
    forced: int = 0  # of them, tokens the grammar left no choice: not in the two numbers
    narrowed: int = 0  # of them, tokens chosen among a few texts (fewer than FEW_TEXTS)

    @property
    def scored(self) -> bool:
        """Whether the numbers rest on the model's own choices: some token was chosen, and none
        among so few allowed ones that its masked probability would stand for the model's."""
        return self.tokens > self.forced and self.narrowed == 0


def allowed_choices(alternatives: Sequence[tuple[str, float]]) -> int:
    """How many different things the grammar let the model write at one step, from the step's
    returned top alternatives (text, log-probability; the sampled token among them).

    :data:`ALTERNATIVES` where as many came back allowed: there may be more, and the step was a
    free choice. Where fewer came back allowed, the engine showed every allowed token, and tokens
    that are prefixes of another allowed one (``p``, ``po``, ``port``) are the same text cut into
    tokens differently: they count once. 1 is a forced step (one text, however tokenized)."""
    allowed = [text for text, logprob in alternatives if logprob > MASKED_AT_OR_BELOW]
    if len(allowed) >= ALTERNATIVES:
        return ALTERNATIVES
    unique = set(allowed)
    # a text that cannot be compared (a lone byte of a character) is a choice of its own
    return sum(
        1
        for text in unique
        if REPLACEMENT in text or not text or not any(o != text and o.startswith(text) for o in unique)
    )


def decode_with_offsets(
    token_ids: Sequence[int], decode: Callable[[list[int]], str]
) -> tuple[str, list[tuple[int, int]]]:
    """The decoded text and each token's ``[start, end)`` characters in it, in one pass.

    A token that ends inside a multi-byte character gets an empty span at the current end and the
    token that completes the character gets it (:func:`value_tokens` scores the two together); the
    ends are non-decreasing and the last one is the text's length. No prefix decodes (O(n²) for n
    tokens): Each step decodes a short window only — the tokens of the previous emitted span plus
    the pending ones — and keeps what the new token added, so a tokenizer that decodes a leading
    piece differently from the same piece mid-text (SentencePiece's word marker) gives the same
    text as decoding everything at once.
    """
    text: list[str] = []
    length = 0
    offsets: list[tuple[int, int]] = []
    start = 0  # first token of the window: the previous emitted span
    ready = 0  # tokens before this are in ``text``
    for index in range(len(token_ids)):
        decoded = decode(list(token_ids[start : index + 1]))
        if decoded.endswith(REPLACEMENT) and index + 1 < len(token_ids):
            offsets.append((length, length))  # an incomplete character: wait for the rest
            continue
        before = decode(list(token_ids[start:ready])) if ready > start else ""
        # What the new tokens added; a tokenizer that rewrites the previous span's end in context
        # (a clean-up of spaces) keeps the text already emitted, which the offsets index.
        added = decoded[len(os.path.commonprefix([before, decoded])) :]  # noqa: RUF071 (text, not paths)
        text.append(added)
        offsets.append((length, length + len(added)))
        length += len(added)
        start, ready = ready, index + 1
    return "".join(text), offsets


def value_tokens(span: Span, offsets: Sequence[tuple[int, int]]) -> list[int]:
    """Indices of the tokens whose characters overlap ``span`` (an empty span: the quotes), each
    with the zero-width tokens just before it.

    A token that wrote no character of its own — the lead bytes of a character the next token
    completes, which :func:`decode_with_offsets` and an OpenAI engine's ``""`` leave zero-width —
    still chose part of what follows: it belongs to the next token that writes characters, so
    "漢" written as a doubtful lead byte and a sure completion scores as doubtful. Zero-width
    tokens with no writing token after them (a trailing ``<eos>``) belong to no value."""
    start, end = span.start, span.end
    if start == end:  # "" : score the two quotes around it
        start, end = start - 1, end + 1
    chosen: list[int] = []
    pending: list[int] = []  # zero-width tokens waiting for the next token that writes characters
    for index, (a, b) in enumerate(offsets):
        if b <= a:
            pending.append(index)
            continue
        if a < end and b > start:
            chosen.extend(pending)
            chosen.append(index)
        pending = []
    return chosen


def value_confidence(
    span: Span,
    offsets: Sequence[tuple[int, int]],
    logprobs: Sequence[float],
    choices: Sequence[int] | None = None,
) -> ValueConfidence | None:
    """The value's geometric-mean and minimum token probability over the tokens the model chose;
    None if no token covers it. ``choices``: per token, how many tokens the grammar allowed at
    that step (:func:`allowed_choices`), None where the engine did not say — every token then
    counts as chosen, as before the engines were asked."""
    indices = value_tokens(span, offsets)
    if not indices:
        return None
    decided = [i for i in indices if choices is None or choices[i] != 1]
    narrowed = sum(1 for i in decided if choices is not None and choices[i] < FEW_TEXTS)
    chosen = [float(logprobs[i]) for i in decided]
    if not chosen:  # the grammar wrote every token: the model decided nothing here
        return ValueConfidence(0.0, 0.0, tokens=len(indices), forced=len(indices))
    return ValueConfidence(
        geometric_mean=math.exp(sum(chosen) / len(chosen)),
        minimum=math.exp(min(chosen)),
        tokens=len(indices),
        forced=len(indices) - len(decided),
        narrowed=narrowed,
    )
