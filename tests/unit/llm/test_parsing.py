"""Tolerant parsing of what a model wrote: cut-short output keeps what was complete."""

from __future__ import annotations

import pytest

from engines.llm.parsing import parse_model_json
from engines.types import EngineError

FULL = '{"surname": "ERIKSSON", "total": 12.50, "sex": "F", "tags": ["a", "b"], "none": null}'


def test_complete_object_parses_with_spans():
    parsed = parse_model_json(FULL)
    assert parsed.data == {"surname": "ERIKSSON", "total": 12.5, "sex": "F", "tags": ["a", "b"], "none": None}
    assert not parsed.truncated
    assert FULL[parsed.spans["surname"].start : parsed.spans["surname"].end] == "ERIKSSON"
    assert FULL[parsed.spans["total"].start : parsed.spans["total"].end] == "12.50"
    assert FULL[parsed.spans["tags"].start : parsed.spans["tags"].end] == '["a", "b"]'
    assert FULL[parsed.spans["none"].start : parsed.spans["none"].end] == "null"


@pytest.mark.parametrize("cut", range(1, len(FULL)))
def test_any_cut_keeps_exactly_the_members_completed_before_it(cut):
    """GIVEN the output cut after ``cut`` characters WHEN parsed THEN every member whose value
    ended before the cut is kept with its value, the rest are missing, and the cut is reported."""
    text = FULL[:cut]
    parsed = parse_model_json(text)
    full = parse_model_json(FULL)
    assert parsed.truncated
    for key, value in parsed.data.items():
        assert value == full.data[key]
        assert parsed.spans[key] == full.spans[key]
    # A member is complete once the character after its value was written (a number could grow).
    for key, span in full.spans.items():
        closing = span.end + (1 if FULL[span.start - 1] == '"' else 0)
        if closing < cut:
            assert key in parsed.data


def test_text_around_the_object_is_ignored():
    parsed = parse_model_json('Here you go:\n```json\n{"a": "b"}\n```')
    assert parsed.data == {"a": "b"} and not parsed.truncated


def test_escapes_are_decoded_and_spans_stay_raw():
    text = r'{"a": "x\"y\\z\u00e9\ud83d\ude00"}'
    parsed = parse_model_json(text)
    assert parsed.data["a"] == 'x"y\\zé\U0001f600'
    span = parsed.spans["a"]
    assert text[span.start : span.end] == r"x\"y\\z\u00e9\ud83d\ude00"


@pytest.mark.parametrize(
    "text",
    ["no json here", '{"a": "b" "c": 1}', '{"a": tru e}', "{'a': 1}"],
)
def test_unusable_output_fails_with_a_clear_code(text):
    with pytest.raises(EngineError) as raised:
        parse_model_json(text)
    assert raised.value.code == "model_output_unusable"


def test_a_raw_control_character_a_guided_decoder_let_through_reads_as_a_space():
    """GIVEN an answer whose string holds a raw control character (vLLM's guided decoding let the
    tiny model write \\x1e inside a licence's address)
    THEN the answer is read, the character as a space, the value's span still the raw text."""
    text = '{"address_city": "59\x1eSPRINGFIELD", "license_class": null}'
    parsed = parse_model_json(text)
    assert parsed.data == {"address_city": "59 SPRINGFIELD", "license_class": None}
    span = parsed.spans["address_city"]
    assert text[span.start : span.end] == "59\x1eSPRINGFIELD"
