"""The GPU pipeline's decisions around the model calls: schemas, hints, fields, verify."""

from __future__ import annotations

import json
import math

import jsonschema
import pytest

from engines.llm import pipeline
from engines.llm.schemas import CLASSIFY_TYPES, MRZ_PROPERTY, extraction_schema, field_names, tenant_schema
from engines.spec import DOCUMENT_TYPES, FIELDS
from engines.types import EngineError

MRZ = ["P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO7408122F1204159ZE184226B<<<<<10"]


def _generation(
    text: str, probability: float = 0.9, low: dict[str, float] | None = None
) -> pipeline.Generation:
    """One token per character, each at ``probability``; ``low`` lowers the first character of a
    substring to the given probability."""
    logprobs = [math.log(probability)] * len(text)
    for piece, p in (low or {}).items():
        logprobs[text.index(piece)] = math.log(p)
    return pipeline.Generation(text=text, logprobs=logprobs, offsets=[(i, i + 1) for i in range(len(text))])


def test_every_document_type_asks_for_exactly_its_architecture_fields():
    assert set(CLASSIFY_TYPES) == set(DOCUMENT_TYPES)
    for document_type in DOCUMENT_TYPES:
        schema = extraction_schema(document_type)
        jsonschema.Draft202012Validator.check_schema(schema)
        assert field_names(schema) == list(FIELDS[document_type])


def test_a_model_answer_following_the_schema_validates():
    answer = {name: None for name in FIELDS["invoice"]} | {
        "invoice_date": "2024-03-01",
        "total_amount": "10.00",
    }
    jsonschema.validate(answer, extraction_schema("invoice"))
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(answer | {"total_amount": "10,00"}, extraction_schema("invoice"))


def test_classification_without_hint_takes_the_models_type_and_token_confidence():
    decision = pipeline.read_classification(_generation('{"document_type": "receipt"}', 0.99), hint=None)
    assert decision.document_type == "receipt"
    assert decision.confidence == pytest.approx(0.99)
    assert decision.checks == []


@pytest.mark.parametrize(("hint", "read_as"), [("invoice", "invoice"), (None, "other")])
def test_a_classification_cut_before_the_type_is_doubted_not_failed(hint, read_as):
    generation = pipeline.Generation(
        text='{"document_type": "inv',
        logprobs=[-0.1] * 3,
        offsets=[(0, 10), (10, 19), (19, 22)],
        truncated_by_length=True,
    )
    decision = pipeline.read_classification(generation, hint=hint)
    assert (decision.document_type, decision.confidence) == (read_as, 0.0)
    assert [(c.name, c.passed) for c in decision.checks] == [("model_output_complete", False)]


def test_hint_is_kept_unless_the_model_is_sure_it_is_wrong():
    unsure = _generation('{"document_type": "invoice"}', 0.95, low={"invoice": 0.6})
    decision = pipeline.read_classification(unsure, hint="receipt")
    assert decision.document_type == "receipt"
    assert not decision.checks[0].passed and "invoice" in decision.checks[0].detail

    sure = _generation('{"document_type": "invoice"}', 0.99)
    decision = pipeline.read_classification(sure, hint="receipt")
    assert decision.document_type == "invoice"
    assert decision.checks[0].name == "document_type_hint" and not decision.checks[0].passed


def _unscored_answer(content: str) -> pipeline.Generation:
    """An engine's chat completion with ``logprobs: null`` (served or proxied without them)."""
    from engines.llm.openai_backend import generation_from_response

    body = {"choices": [{"message": {"content": content}, "finish_reason": "stop", "logprobs": None}]}
    return generation_from_response(body)


@pytest.mark.parametrize(
    ("hint", "read_as"), [("receipt", "receipt"), (None, "invoice"), ("invoice", "invoice")]
)
def test_a_missing_score_is_unknown_never_certain(hint, read_as):
    generation = _unscored_answer('{"document_type":"invoice"}')

    decision = pipeline.read_classification(generation, hint=hint)

    assert (decision.document_type, decision.confidence) == (read_as, 0.0)  # was ("receipt", 1.0)
    assert not generation.scored
    unscored = [c for c in decision.checks if c.name == "model_scored"]
    assert len(unscored) == 1 and not unscored[0].passed
    assert "no log-probabilities" in unscored[0].detail and "misconfigured" in unscored[0].detail


def test_an_unscored_extraction_says_so():
    text = json.dumps({name: None for name in FIELDS["receipt"]} | {"total_amount": "9.99"})
    generation = _unscored_answer(text)
    fields, _parsed = pipeline.read_extraction(generation, extraction_schema("receipt"))
    assert fields["total_amount"].confidence == 0.0
    assert [(c.name, c.passed) for c in pipeline.unscored_checks(generation)] == [(pipeline.UNSCORED, False)]
    assert pipeline.unscored_checks(_generation(text)) == []


def test_a_kept_hint_is_not_given_one_minus_the_models_probability():
    """1 - P(the model's choice) bounds P(the hint) but is not it: the hint's confidence is unknown."""
    unsure = _generation('{"document_type": "invoice"}', 0.95, low={"invoice": 0.6})
    decision = pipeline.read_classification(unsure, hint="receipt")
    assert (decision.document_type, decision.confidence) == ("receipt", 0.0)
    assert "invoice" in decision.checks[0].detail and "unknown" in decision.checks[0].detail


def test_extraction_fields_carry_the_minimum_token_probability_by_default():
    text = json.dumps(
        {name: None for name in FIELDS["receipt"]} | {"merchant_name": "ACME", "total_amount": "9.99"}
    )
    generation = _generation(text, 0.98, low={"9.99": 0.4})
    schema = extraction_schema("receipt")

    fields, _parsed = pipeline.read_extraction(generation, schema)

    assert fields["merchant_name"].value == "ACME" and fields["merchant_name"].source == "model"
    assert fields["total_amount"].confidence == pytest.approx(0.4)
    assert fields["date"].value is None and fields["date"].confidence == pytest.approx(0.98)
    geometric, _ = pipeline.read_extraction(generation, schema, statistic="geometric_mean")
    assert geometric["total_amount"].confidence == pytest.approx(
        math.exp((math.log(0.4) + 3 * math.log(0.98)) / 4)
    )


def test_cut_output_keeps_complete_fields_and_says_so():
    text = json.dumps(
        {"merchant_name": "ACME", "date": "2024-02-03", "currency": "EUR", "total_amount": "1.00"}
    )
    generation = _generation(text[: text.index("EUR") + 1])
    fields, parsed = pipeline.read_extraction(generation, extraction_schema("receipt"))
    checks = pipeline.verify("receipt", fields, parsed)
    assert fields["date"].value == "2024-02-03"
    assert fields["currency"].value is None and fields["currency"].confidence == 0.0
    assert any(c.name == "model_output_complete" and not c.passed for c in checks)


def test_verify_checks_mrz_digits_and_the_printed_fields_against_them():
    answer = {name: None for name in FIELDS["passport"]} | {
        "document_number": "L898902C3",
        "surname": "ERIKSSON",
        "given_names": "ANNA MARIA",
        "date_of_birth": "1974-08-12",
        "date_of_expiry": "2012-04-16",  # the MRZ says 2012-04-15
        MRZ_PROPERTY: MRZ,
    }
    fields, parsed = pipeline.read_extraction(_generation(json.dumps(answer)), extraction_schema("passport"))

    checks = {c.name: c for c in pipeline.verify("passport", fields, parsed)}

    assert checks["mrz_check_digits"].passed
    assert not checks["mrz_matches_visual_zone"].passed
    assert "date_of_expiry" in checks["mrz_matches_visual_zone"].detail
    assert fields["document_number"].valid is True
    assert fields["date_of_expiry"].valid is False
    assert MRZ_PROPERTY not in fields


def test_verify_runs_the_iban_arithmetic_and_date_rules():
    answer = {name: None for name in FIELDS["bank_statement"]} | {
        "iban_or_account_number": "DE89370400440532013001",  # one digit off
        "statement_period_start": "2024-02-01",
        "statement_period_end": "2024-01-31",
        "document_date": "2024-02-30",
    }
    fields, parsed = pipeline.read_extraction(
        _generation(json.dumps(answer)), extraction_schema("bank_statement")
    )
    checks = {c.name: c for c in pipeline.verify("bank_statement", fields, parsed)}
    assert not checks["iban_checksum"].passed and fields["iban_or_account_number"].valid is False
    assert not checks["statement_period_order"].passed
    assert fields["document_date"].valid is False

    invoice = {name: None for name in FIELDS["invoice"]} | {
        "subtotal": "10.00",
        "tax_amount": "1.90",
        "total_amount": "11.90",
    }
    fields, parsed = pipeline.read_extraction(_generation(json.dumps(invoice)), extraction_schema("invoice"))
    assert {c.name: c.passed for c in pipeline.verify("invoice", fields, parsed)}["totals_arithmetic"]


def test_tenant_schema_is_wrapped_and_bad_ones_refused():
    schema = tenant_schema({"type": "object", "properties": {"policy_number": {"type": "string"}}})
    assert schema["required"] == ["policy_number"] and schema["additionalProperties"] is False
    for bad in (
        {"type": "array"},
        {"type": "object", "properties": {"Bad Name": {"type": "string"}}},
        {"type": "object", "properties": {"a": {"type": 5}}},
    ):
        with pytest.raises(EngineError) as raised:
            tenant_schema(bad)
        assert raised.value.code == "invalid_schema"


def test_mismatched_logprobs_and_offsets_are_refused():
    with pytest.raises(EngineError):
        pipeline.Generation(text="{}", logprobs=[0.0], offsets=[])


def _with_choices(text: str, choices: dict[str, int]) -> pipeline.Generation:
    """One token per character at 0.9; ``choices``: how many texts the grammar left at the first
    character of each substring (every other step: a free choice)."""
    steps = [5] * len(text)
    for piece, count in choices.items():
        steps[text.index(piece)] = count
    plain = _generation(text)
    return pipeline.Generation(text=text, logprobs=plain.logprobs, offsets=plain.offsets, choices=steps)


def test_a_value_chosen_among_few_texts_is_unscored_and_named():
    schema = tenant_schema(
        {"type": "object", "properties": {"grade": {"enum": ["YES", "NO"]}, "note": {"type": "string"}}}
    )
    generation = _with_choices('{"grade":"YES","note":"fine"}', {"YES": 2})
    fields, parsed = pipeline.read_extraction(generation, schema)
    assert fields["grade"].confidence == 0.0 and fields["note"].confidence == pytest.approx(0.9)
    [check] = pipeline.unscored_checks(generation, parsed)
    assert (check.name, check.passed) == (pipeline.UNSCORED, False) and check.detail.endswith(": grade")


def test_a_type_the_grammar_narrowed_to_a_few_is_an_unknown_confidence():
    text = '{"document_type":"receipt"}'
    decision = pipeline.read_classification(_with_choices(text, {"receipt": 3}), hint=None)
    assert decision.document_type == "receipt" and decision.confidence == 0.0
    assert [(c.name, c.passed) for c in decision.checks] == [(pipeline.UNSCORED, False)]
    # the rest of the name forced (one text, however tokenized): scored on the step that chose it
    steps = [5] * len(text)
    for offset in range(text.index("receipt") + 1, text.index("receipt") + 7):
        steps[offset] = 1
    plain = _generation(text, low={"receipt": 0.6})
    chosen = pipeline.Generation(text=text, logprobs=plain.logprobs, offsets=plain.offsets, choices=steps)
    assert pipeline.read_classification(chosen, hint=None).confidence == pytest.approx(0.6)
