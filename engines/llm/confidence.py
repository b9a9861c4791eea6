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

Token character offsets come from :func:`decode_with_offsets` where the token ids are at hand (the
in-Triton TensorRT-LLM model), which works for any tokenizer that can decode (SentencePiece,
byte-level BPE) and never splits a multi-byte character between tokens; an OpenAI-compatible
engine's token strings are aligned by :mod:`engines.llm.alignment` instead.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engines.llm.parsing import Span

REPLACEMENT = "\ufffd"


@dataclass(frozen=True)
class ValueConfidence:
    geometric_mean: float
    minimum: float
    tokens: int  # how many tokens wrote the value


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
    span: Span, offsets: Sequence[tuple[int, int]], logprobs: Sequence[float]
) -> ValueConfidence | None:
    """The value's geometric-mean and minimum token probability; None if no token covers it."""
    indices = value_tokens(span, offsets)
    if not indices:
        return None
    chosen = [float(logprobs[i]) for i in indices]
    return ValueConfidence(
        geometric_mean=math.exp(sum(chosen) / len(chosen)),
        minimum=math.exp(min(chosen)),
        tokens=len(chosen),
    )
