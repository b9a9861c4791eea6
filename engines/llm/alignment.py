"""Which characters of a model's answer each generated token wrote, from the engine's token strings.

An OpenAI-compatible engine returns, per generated token, its log-probability and its text as
decoded *alone* — not character offsets. Joining those texts need not give the answer's content:

* the engine may append entries that wrote no content (vLLM's trailing ``<eos>``/``<turn|>``);
* a token holding part of a multi-byte character decodes alone to U+FFFD (or to nothing), while
  the content has the whole character once the next token completes it;
* a tokenizer may drop or add a word-leading space when decoding a token by itself.

:func:`token_spans` therefore aligns rather than concatenates: each token's text is matched at the
current position, or found a little ahead (the gap goes to the tokens that could not be placed, or
to this one if none are waiting); a token that matches nowhere waits for the next one that does.
The result has the shape of :func:`engines.llm.confidence.decode_with_offsets`' offsets — one
``(start, end)`` per token, non-decreasing — so the same span confidence applies to every engine,
including its rule that a zero-width token (vLLM's ``""`` for a token ending inside a character)
is scored with the next token that writes characters (:func:`engines.llm.confidence.value_tokens`).
"""

from __future__ import annotations

from collections.abc import Sequence

REPLACEMENT = "\ufffd"
# How far ahead (characters per token still waiting, plus a margin) a token's text is looked for.
_LOOKAHEAD_PER_WAITING = 4
_LOOKAHEAD_MARGIN = 2


def token_spans(content: str, token_texts: Sequence[str]) -> list[tuple[int, int]]:
    """Each token's ``[start, end)`` characters in ``content`` (empty spans for tokens that wrote
    nothing there). Tokens left waiting at the end share what is left of the content, if any."""
    spans: list[tuple[int, int]] = [(0, 0)] * len(token_texts)
    position = 0
    waiting: list[int] = []
    for index, text in enumerate(token_texts):
        if not text:
            spans[index] = (position, position)
            continue
        if REPLACEMENT in text:
            waiting.append(index)  # a part of a character: placed by the token that completes it
            continue
        found = _find(content, text, position, len(waiting))
        if found is None:
            waiting.append(index)
            continue
        if waiting:
            for held in waiting:
                spans[held] = (position, max(found, position))
            waiting = []
            spans[index] = (found, found + len(text))
        else:
            spans[index] = (position, found + len(text))  # a gap before it (a space) is its own
        position = found + len(text)
    for held in waiting:
        spans[held] = (position, len(content))
    return spans


def _find(content: str, text: str, position: int, waiting: int) -> int | None:
    if content.startswith(text, position):
        return position
    window = _LOOKAHEAD_MARGIN + _LOOKAHEAD_PER_WAITING * waiting
    found = content.find(text, position, position + window + len(text))
    return None if found < 0 else found
