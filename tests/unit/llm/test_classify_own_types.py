"""The classifier offered a tenant's own types (doc_pipeline's ``document_types_json``).

GIVEN a tenant with a payslip type, WHEN the Gemma 4 path classifies one of its documents, THEN
the prompt lists the payslip with its description after the §3.2 types, the guided answer may
name it, a long name still fits the answer's budget, and a payslip named by the model is taken
(a type the request did not offer is not).
"""

from __future__ import annotations

import copy
import json
import math
from dataclasses import asdict

import jsonschema
import pytest

from engines.custom_types import SchemaInvalid, TypeCandidate, candidates_to_json, parse_candidates
from engines.llm import pipeline
from engines.llm.schemas import CLASSIFY_TYPES
from engines.types import EngineError
from tests.support.payslip import PAYSLIP_SCHEMA

PAYSLIP = TypeCandidate(
    "payslip", "A monthly payslip: employer, employee, gross and net pay", 2, PAYSLIP_SCHEMA
)


def _generation(text: str, probability: float = 0.95) -> pipeline.Generation:
    logprobs = [math.log(probability)] * len(text)
    return pipeline.Generation(text=text, logprobs=logprobs, offsets=[(i, i + 1) for i in range(len(text))])


def test_the_prompt_lists_the_tenants_types_with_their_descriptions_after_the_built_in_ones():
    call = pipeline.plan_classification(1, [PAYSLIP])
    assert "- payslip: A monthly payslip: employer, employee, gross and net pay" in call.prompt
    assert (
        call.prompt.index("- passport")
        < call.prompt.index("own document types")
        < call.prompt.index("payslip")
    )
    assert call.schema["properties"]["document_type"]["enum"] == [*CLASSIFY_TYPES, "payslip"]
    jsonschema.validate({"document_type": "payslip"}, call.schema)


def test_without_own_types_the_call_is_the_built_in_one():
    assert pipeline.plan_classification(1, []) == pipeline.plan_classification(1)
    assert "own document types" not in pipeline.plan_classification(1).prompt


def test_a_long_type_name_still_fits_the_answers_budget():
    name = "a" + "b" * 48  # the longest name a tenant may give a type
    call = pipeline.plan_classification(1, [TypeCandidate(name, "", 1, PAYSLIP_SCHEMA)])
    assert call.max_tokens >= len(f'{{"document_type":"{name}"}}')
    assert f"- {name}\n" in call.prompt  # no description: the name alone


def test_a_tenants_type_named_by_the_model_is_taken_and_one_not_offered_is_not():
    answer = _generation('{"document_type": "payslip"}')
    decision = pipeline.read_classification(answer, hint=None, own_types=["payslip"])
    assert decision.document_type == "payslip" and decision.confidence == pytest.approx(0.95)
    with pytest.raises(EngineError):
        pipeline.read_classification(answer, hint=None)


def test_the_candidates_travel_as_json_and_come_back_checked():
    assert parse_candidates(json.loads(candidates_to_json((PAYSLIP,)))) == (PAYSLIP,)


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ({"name": "passport", "version": 1}, "built-in document type"),
        ({"name": "payslip", "version": 0}, "version must be a positive integer"),
        ({"name": "payslip", "version": 1, "description": "x" * 301}, "description must be text"),
        ({"name": "payslip", "version": 1, "schema": {"type": "array"}}, 'schema must be {"type": "object"'),
    ],
)
def test_a_bad_candidate_is_refused_saying_why(entry, message):
    data = [{"description": "", "schema": copy.deepcopy(PAYSLIP_SCHEMA), **entry}]
    with pytest.raises(SchemaInvalid, match=message.replace("{", r"\{").replace("(", r"\(")):
        parse_candidates(data)


def test_too_many_candidates_are_refused():
    many = [asdict(PAYSLIP) | {"name": f"type_{i}"} for i in range(21)]
    with pytest.raises(SchemaInvalid, match="at most 20"):
        parse_candidates(many)
