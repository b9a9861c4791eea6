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

Token character offsets come from :func:`token_offsets`, which detokenizes growing prefixes, so
it works for any tokenizer that can decode (SentencePiece, byte-level BPE) and never splits a
multi-byte character between tokens.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engines.llm.parsing import Span

REPLACEMENT = "\ufffd"


@dataclass(frozen=True)
class ValueConfidence:
    geometric_mean: float
    minimum: float
    tokens: int  # how many tokens wrote the value


def token_offsets(token_ids: Sequence[int], decode: Callable[[list[int]], str]) -> list[tuple[int, int]]:
    """Each token's ``(start, end)`` characters in ``decode(token_ids)``.

    A token that ends inside a multi-byte character (its prefix decodes to U+FFFD at the end)
    gets an empty span at the current end; the token that completes the character gets it. The
    ends are non-decreasing and the last one is the decoded text's length.
    """
    offsets: list[tuple[int, int]] = []
    previous = 0
    for index in range(len(token_ids)):
        text = decode(list(token_ids[: index + 1]))
        end = len(text)
        if text.endswith(REPLACEMENT) and index + 1 < len(token_ids):
            end -= 1  # an incomplete character: it belongs to the token that completes it
        end = max(end, previous)
        offsets.append((previous, end))
        previous = end
    return offsets


def value_tokens(span: Span, offsets: Sequence[tuple[int, int]]) -> list[int]:
    """Indices of the tokens whose characters overlap ``span`` (an empty span: the quotes)."""
    start, end = span.start, span.end
    if start == end:  # "" : score the two quotes around it
        start, end = start - 1, end + 1
    return [i for i, (a, b) in enumerate(offsets) if a < end and b > start and b > a]


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
