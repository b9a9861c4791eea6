"""Token spans from an OpenAI-compatible engine's token strings (engines.llm.alignment)."""

from __future__ import annotations

import math

import pytest

from engines.llm.alignment import token_spans
from engines.llm.confidence import value_confidence
from engines.llm.parsing import parse_model_json


def _texts(content: str, spans: list[tuple[int, int]]) -> list[str]:
    return [content[a:b] for a, b in spans]


def test_tokens_that_join_to_the_content_get_their_own_characters():
    content = '{"a":"xy"}'
    tokens = ['{"', "a", '":"', "x", "y", '"}']
    spans = token_spans(content, tokens)
    assert _texts(content, spans) == tokens
    assert spans[-1][1] == len(content)


def test_a_trailing_end_of_sequence_entry_writes_nothing():
    """vLLM returns the stop token (<eos>, <turn|>) as a last logprobs entry; it is not in the content."""
    content = '{"a":null}'
    spans = token_spans(content, ['{"a":', "null", "}", "<eos>"])
    assert spans[-1] == (len(content), len(content))
    assert _texts(content, spans)[:3] == ['{"a":', "null", "}"]


def test_a_character_split_across_byte_tokens_belongs_to_the_tokens_that_wrote_it():
    """Byte-fallback tokens decode alone to U+FFFD; together they are one character of the content."""
    content = '{"n":"MÜLLER"}'
    tokens = ['{"n":"', "M", "\ufffd", "\ufffd", "LLER", '"}']
    spans = token_spans(content, tokens)
    assert spans[2] == spans[3] == (7, 8)  # both halves of Ü
    assert content[spans[2][0] : spans[2][1]] == "Ü"
    assert _texts(content, spans)[4:] == ["LLER", '"}']


def test_a_dropped_leading_space_is_given_to_its_token():
    content = '{"name":"ANNA MARIA"}'
    tokens = ['{"name":"', "ANNA", "MARIA", '"}']  # the second token decoded alone without its space
    spans = token_spans(content, tokens)
    assert content[spans[2][0] : spans[2][1]] == " MARIA"


def test_spans_never_go_backwards_and_end_inside_the_content():
    content = '{"a":"1","b":"2"}'
    tokens = ["<pad>", '{"a":"', "1", '","b":"', "\ufffd", "2", '"}', "<eos>", "<eos>"]
    spans = token_spans(content, tokens)
    ends = [b for _, b in spans]
    assert ends == sorted(ends) and all(0 <= a <= b <= len(content) for a, b in spans)


@pytest.mark.parametrize(
    ("content", "tokens", "field", "expected"),
    [
        # a value split across tokens: the minimum over the two tokens that wrote it
        ('{"v":"AB"}', ['{"v":"', "A", "B", '"}', "<eos>"], "v", [-0.2, -0.3]),
        # an escaped quote inside the value
        ('{"v":"A\\"B"}', ['{"v":"', "A", '\\"', "B", '"}'], "v", [-0.2, -0.3, -0.4]),
        # a number: its own digits
        ('{"v":12.5}', ['{"v":', "12", ".5", "}"], "v", [-0.2, -0.3]),
        # an empty string: the decision to write nothing is the quotes
        ('{"v":""}', ['{"v":', '""', "}"], "v", [-0.2]),
    ],
)
def test_field_confidence_is_the_formula_over_the_tokens_that_wrote_it(content, tokens, field, expected):
    logprobs = [-0.1 * (i + 1) for i in range(len(tokens))]
    spans = token_spans(content, tokens)
    parsed = parse_model_json(content)
    confidence = value_confidence(parsed.spans[field], spans, logprobs)
    assert confidence is not None
    assert confidence.minimum == pytest.approx(2.718281828459045 ** min(expected))
    assert confidence.tokens == len(expected)


@pytest.mark.parametrize(
    "lead",
    [
        "",  # vLLM: a token that ends inside a character decodes to nothing
        "\ufffd",  # or to the replacement character
    ],
)
def test_a_lead_byte_that_wrote_no_character_still_scores_the_value(lead):
    """The doubtful lead byte of 漢 (log-probability -2.3) decides the value's score, though the
    engine put the whole character on the token that completed it."""
    content = '{"v":"漢口"}'
    tokens = ['{"v":"', lead, "漢", "口", '"}', "<eos>"]
    logprobs = [-0.01, -2.3, -0.2, -0.2, -0.01, -0.01]
    spans = token_spans(content, tokens)
    confidence = value_confidence(parse_model_json(content).spans["v"], spans, logprobs)
    assert confidence is not None
    assert confidence.tokens == 3
    assert confidence.minimum == pytest.approx(math.exp(-2.3))  # about 0.10, not exp(-0.2) = 0.82
    assert confidence.geometric_mean == pytest.approx(math.exp((-2.3 - 0.2 - 0.2) / 3))


def test_an_end_of_sequence_entry_after_the_value_scores_nothing():
    """Zero-width entries with no writing token after them belong to no value."""
    content = '{"v":"A"}'
    tokens = ['{"v":"', "A", '"}', "<eos>", ""]
    spans = token_spans(content, tokens)
    confidence = value_confidence(parse_model_json(content).spans["v"], spans, [-0.1, -0.2, -0.1, -5.0, -5.0])
    assert confidence is not None and confidence.tokens == 1
    assert confidence.minimum == pytest.approx(math.exp(-0.2))
