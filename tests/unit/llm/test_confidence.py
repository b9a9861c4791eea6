"""Value-span confidences from per-token log-probabilities, with a real tokenizer.

The tokenizer is a byte-level BPE trained here on generated JSON (the ``tokenizers`` library), with
a vocabulary small enough that names, numbers and escapes split across several tokens, as they
do in Gemma's. The expected numbers are computed independently: the value's characters found by
``str.index`` and the tokens that cover them by the tokenizer's own offsets.
"""

from __future__ import annotations

import math
import random

import pytest

from engines.llm.confidence import (
    ALTERNATIVES,
    allowed_choices,
    decode_with_offsets,
    value_confidence,
    value_tokens,
)
from engines.llm.parsing import parse_model_json

tokenizers = pytest.importorskip("tokenizers")

DOCUMENT = (
    '{"surname": "ERIKSSON", "given_names": "ANNA MARIA", '
    '"note": "a \\"quoted\\" word\\\\path", "total_amount": 1234.50, "count": 7, '
    '"empty": "", "personal_number": null}'
)


def _training_text(count: int = 400) -> list[str]:
    rng = random.Random(6)
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    lines = []
    for _ in range(count):
        name = "".join(rng.choice(letters) for _ in range(rng.randint(3, 9)))
        amount = f"{rng.randint(0, 99999)}.{rng.randint(0, 99):02d}"
        lines.append(f'{{"surname": "{name}", "total": {amount}, "flag": null, "q": "\\"x\\""}}')
    return lines


@pytest.fixture(scope="module")
def tokenizer():
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=320, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False
    )
    tok.train_from_iterator(_training_text(), trainer=trainer)
    return tok


def _logprobs(n: int) -> list[float]:
    """Known, distinct log-probabilities, one per token."""
    return [-0.013 * ((7 * i) % 11 + 1) for i in range(n)]


def _expected(text: str, raw_value: str, library_offsets, logprobs):
    """Geometric mean and minimum over the tokens the library says cover the value's characters."""
    start = text.index(raw_value)
    end = start + len(raw_value)
    chosen = [lp for (a, b), lp in zip(library_offsets, logprobs, strict=True) if a < end and b > start]
    return math.exp(sum(chosen) / len(chosen)), math.exp(min(chosen)), len(chosen)


def test_decoded_offsets_match_the_tokenizers_own(tokenizer):
    encoding = tokenizer.encode(DOCUMENT)
    offsets = decode_with_offsets(encoding.ids, tokenizer.decode)[1]
    assert tokenizer.decode(encoding.ids) == DOCUMENT
    assert offsets == [tuple(o) for o in encoding.offsets]


@pytest.mark.parametrize(
    ("key", "raw_value"),
    [
        ("surname", "ERIKSSON"),  # split across tokens
        ("given_names", "ANNA MARIA"),  # a space inside
        ("note", 'a \\"quoted\\" word\\\\path'),  # escapes, scored as generated
        ("total_amount", "1234.50"),  # a number literal
        ("count", "7"),
        ("personal_number", "null"),  # the decision that there is no value
    ],
)
def test_value_confidence_is_geometric_mean_and_minimum_of_its_tokens(tokenizer, key, raw_value):
    encoding = tokenizer.encode(DOCUMENT)
    logprobs = _logprobs(len(encoding.ids))
    offsets = decode_with_offsets(encoding.ids, tokenizer.decode)[1]
    parsed = parse_model_json(DOCUMENT)

    confidence = value_confidence(parsed.spans[key], offsets, logprobs)

    mean, minimum, count = _expected(DOCUMENT, raw_value, encoding.offsets, logprobs)
    assert confidence is not None
    assert confidence.tokens == count
    assert confidence.geometric_mean == pytest.approx(mean, rel=1e-12)
    assert confidence.minimum == pytest.approx(minimum, rel=1e-12)


def test_values_really_span_several_tokens(tokenizer):
    """Guards the test above: with a too-large vocabulary every value would be one token."""
    encoding = tokenizer.encode(DOCUMENT)
    parsed = parse_model_json(DOCUMENT)
    offsets = decode_with_offsets(encoding.ids, tokenizer.decode)[1]
    counts = {
        key: value_confidence(parsed.spans[key], offsets, [0.0] * len(offsets)).tokens for key in parsed.spans
    }
    assert counts["surname"] > 1 and counts["note"] > 3 and counts["total_amount"] > 1


def test_empty_string_is_scored_by_its_quotes(tokenizer):
    encoding = tokenizer.encode(DOCUMENT)
    logprobs = _logprobs(len(encoding.ids))
    offsets = decode_with_offsets(encoding.ids, tokenizer.decode)[1]
    span = parse_model_json(DOCUMENT).spans["empty"]
    assert span.start == span.end

    confidence = value_confidence(span, offsets, logprobs)

    mean, minimum, _ = _expected(DOCUMENT, '""', encoding.offsets, logprobs)
    assert confidence is not None
    assert (confidence.geometric_mean, confidence.minimum) == pytest.approx((mean, minimum), rel=1e-12)


def test_multibyte_character_belongs_to_the_token_that_completes_it(tokenizer):
    """Byte-level tokens can end inside a UTF-8 character; its characters go to one token only."""
    text = '{"city": "Göteborg Malmö"}'
    ids = tokenizer.encode(text).ids
    offsets = decode_with_offsets(ids, tokenizer.decode)[1]
    assert tokenizer.decode(ids) == text
    assert offsets[-1][1] == len(text)
    assert all(a <= b for a, b in offsets)
    assert all(offsets[i][1] == offsets[i + 1][0] for i in range(len(offsets) - 1))
    span = parse_model_json(text).spans["city"]
    confidence = value_confidence(span, offsets, [math.log(0.5)] * len(ids))
    assert confidence is not None and confidence.minimum == pytest.approx(0.5)


def test_no_covering_token_gives_no_confidence():
    parsed = parse_model_json('{"a": "x"}')
    assert value_confidence(parsed.spans["a"], [(0, 1)], [-0.1]) is None


def test_a_doubtful_lead_byte_lowers_the_value_it_began(tokenizer):
    """TensorRT-LLM's offsets (decode_with_offsets) leave a token that ends inside a character
    zero-width; its log-probability still counts for the value the completing token writes."""
    text = '{"city": "漢口"}'
    ids = tokenizer.encode(text).ids
    text_out, offsets = decode_with_offsets(ids, tokenizer.decode)
    assert text_out == text
    span = parse_model_json(text).spans["city"]
    lead = next(i for i, (a, b) in enumerate(offsets) if a == b == span.start)  # 漢's first byte
    logprobs = [-0.2] * len(ids)
    logprobs[lead] = -2.3

    confidence = value_confidence(span, offsets, logprobs)

    assert confidence is not None
    assert confidence.minimum == pytest.approx(math.exp(-2.3))  # about 0.10, not 0.82
    assert lead in value_tokens(span, offsets)


# --- steps the grammar decided (engines/knowledge/model_scoring.toml) --------------------------

MASKED = -9999.0  # what an OpenAI-compatible engine returns for a token the grammar ruled out


def _masked(count: int) -> list[tuple[str, float]]:
    return [(f"m{i}", MASKED) for i in range(count)]


@pytest.mark.parametrize(
    ("alternatives", "choices"),
    [
        # as many allowed as were asked for: there may be more, a free choice
        ([(str(i), -1.0 - i / 10) for i in range(ALTERNATIVES)], ALTERNATIVES),
        # every allowed one shown: the texts they write, prefixes counted once
        ([("1", -1.0), ("2", -1.2), ("19", -2.0), ("3", -2.5), *_masked(ALTERNATIVES - 4)], 3),
        # one text cut into tokens differently: forced
        ([("port", -0.1), ("p", -3.0), ("po", -4.0), *_masked(ALTERNATIVES - 3)], 1),
        ([("}", 0.0), *_masked(ALTERNATIVES - 1)], 1),
        # a nullable enum of two, as vLLM shows the step (two tokens can write the same '"')
        ([('":"Y', -1.5), ('":null', -2.1), ('"', -2.1), ('":"N', -2.2), ('"', -2.3), *_masked(5)], 3),
        # a lone byte of a character is a choice of its own
        ([("\ufffd", -0.2), ("A", -2.0), *_masked(ALTERNATIVES - 2)], 2),
    ],
)
def test_allowed_choices_count_the_texts_the_grammar_left(alternatives, choices):
    assert allowed_choices(alternatives) == choices


def test_forced_tokens_leave_the_score_and_a_value_the_grammar_wrote_is_unscored():
    text = '{"a":"ACME"}'
    span = parse_model_json(text).spans["a"]
    offsets = [(0, 6), (6, 7), (7, 8), (8, 10), (10, 12)]  # {"a":"  A  C  ME  "}
    logprobs = [-0.1, -2.0, -0.3, -0.2, -0.1]
    # A chosen among many, then C and ME forced: the value scores A alone
    scored = value_confidence(span, offsets, logprobs, [5, 5, 1, 1, 1])
    assert scored is not None and scored.scored and scored.forced == 2
    assert scored.minimum == pytest.approx(math.exp(-2.0)) and scored.geometric_mean == pytest.approx(
        math.exp(-2.0)
    )
    # every token forced: the grammar wrote it, the model decided nothing
    written = value_confidence(span, offsets, logprobs, [5, 1, 1, 1, 1])
    assert written is not None and not written.scored and written.forced == 3
    # one step among two allowed texts: its masked probability is not the model's, unscored
    narrowed = value_confidence(span, offsets, logprobs, [5, 5, 2, 1, 1])
    assert narrowed is not None and not narrowed.scored and narrowed.narrowed == 1
    # an engine that returned no alternatives: every token counts as chosen, as before
    unknown = value_confidence(span, offsets, logprobs, None)
    assert unknown is not None and unknown.scored and unknown.minimum == pytest.approx(math.exp(-2.0))
    assert unknown.geometric_mean == pytest.approx(math.exp((-2.0 - 0.3 - 0.2) / 3))
