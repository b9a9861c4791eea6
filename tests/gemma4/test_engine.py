"""The openai backend against a real engine: vLLM on CPU serving the tiny Gemma 4.

GIVEN vLLM with the tiny Gemma 4 checkpoint (random weights, so its answers are noise that only
guided decoding keeps in shape), WHEN doc_pipeline's model calls go to it through
:class:`engines.llm.openai_backend.OpenAIBackend`, THEN every answer parses and fits its schema,
each field's confidence is the formula over the log-probabilities vLLM returned, a cut-short
answer is flagged, and the page costs the image tokens its budget says.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import math

import httpx
import jsonschema
import pytest

from engines.llm import pipeline
from engines.llm.confidence import ALTERNATIVES, FEW_TEXTS
from engines.llm.guided_grammar import decoded_schema
from engines.llm.model_client import ModelRequest, ModelSettings
from engines.llm.openai_backend import OpenAIBackend, chat_request, generation_from_response
from engines.llm.page_budget import image_soft_tokens
from engines.llm.parsing import parse_model_json
from engines.llm.schemas import CLASSIFY_TYPES, extraction_schema, tenant_schema
from tests.support.gemma4_engine import invoice_page_url

pytestmark = pytest.mark.integration

TENANT_SCHEMA = {
    "type": "object",
    "properties": {
        "employee_name": {"type": "string", "title": "Employee"},
        "gross_pay": {"type": "number", "maximum": 1000000},
        "pay_date": {"type": "string", "pattern": r"^\d{4}-\d{2}-\d{2}$"},
        "tax_code": {"type": "string", "enum": ["1257L", "BR", "D0"]},
    },
}


def _post(url: str, body: dict) -> dict:
    response = httpx.post(f"{url}/chat/completions", json=body, timeout=120)
    assert response.status_code == 200, response.text[:500]
    return response.json()


def _schemas() -> list[tuple[str, dict]]:
    typed = [(t, extraction_schema(t)) for t in CLASSIFY_TYPES if t != "other"]
    return [*typed, ("payslip", tenant_schema(TENANT_SCHEMA))]


@pytest.mark.parametrize(("document_type", "schema"), _schemas(), ids=[t for t, _ in _schemas()])
def test_guided_answers_always_parse_and_fit_their_schema(vllm_engine, document_type, schema):
    call = pipeline.plan_extraction(document_type, schema, 1)
    body = _post(
        vllm_engine.url, chat_request("gemma4-e4b", ModelRequest("extract", call, (invoice_page_url(),), 280))
    )
    generation = generation_from_response(body)
    assert not generation.truncated_by_length, "the tiny model's answers end (bounded schemas, closing bias)"
    answer = json.loads(generation.text)
    jsonschema.validate(answer, decoded_schema(schema))  # the answer's values, escapes decoded
    fields, parsed = pipeline.read_extraction(generation, schema)
    assert not parsed.truncated and set(fields) == set(pipeline.field_names(schema))
    assert all(f.source == "model" and 0.0 <= f.confidence <= 1.0 for f in fields.values())


def _characters_of_tokens(body: dict) -> list[tuple[int, int]]:
    """The obvious alignment, valid when the token strings join to the content plus a stop token."""
    choice = body["choices"][0]
    tokens = [entry["token"] for entry in choice["logprobs"]["content"]]
    content = choice["message"]["content"]
    assert "".join(tokens[:-1]) == content and tokens[-1] not in content
    ends = [0]
    for token in tokens[:-1]:
        ends.append(ends[-1] + len(token))
    return [*itertools.pairwise(ends), (len(content), len(content))]


def _texts_left(entry: dict) -> int:
    """How many texts a step's allowed alternatives write, prefixes of another counted once; as
    many as were asked for where every alternative came back allowed (there may be more)."""
    allowed = [a["token"] for a in entry["top_logprobs"] if a["logprob"] > -1000]
    if len(allowed) == ALTERNATIVES:
        return ALTERNATIVES
    return len({t for t in allowed if not any(o != t and o.startswith(t) for o in allowed)})


def test_each_fields_confidence_is_the_formula_over_vllms_logprobs(vllm_engine):
    """min of exp(logprob) over the tokens that wrote the value and that the grammar did not force
    (one text allowed, seen among vLLM's own alternatives), from vLLM's own numbers."""
    schema = tenant_schema(TENANT_SCHEMA)
    call = pipeline.plan_extraction("payslip", schema, 1)
    multi_token_values = 0
    for page in (invoice_page_url(), invoice_page_url(640, 900)):
        body = _post(vllm_engine.url, chat_request("gemma4-e4b", ModelRequest("extract", call, (page,), 280)))
        entries = body["choices"][0]["logprobs"]["content"]
        assert all(len(e["top_logprobs"]) == ALTERNATIVES for e in entries), (
            "vLLM returns the alternatives asked"
        )
        offsets = _characters_of_tokens(body)
        content = body["choices"][0]["message"]["content"]
        fields, _ = pipeline.read_extraction(generation_from_response(body), schema)
        for name, span in parse_model_json(content).spans.items():
            start, end = (span.start, span.end) if span.end > span.start else (span.start - 1, span.end + 1)
            covering = [i for i, (a, b) in enumerate(offsets) if a < end and b > start and b > a]
            multi_token_values += len(covering) > 1
            chosen = [i for i in covering if _texts_left(entries[i]) > 1]
            if chosen and all(_texts_left(entries[i]) >= FEW_TEXTS for i in chosen):
                expected = math.exp(min(entries[i]["logprob"] for i in chosen))
            else:
                expected = 0.0
            assert fields[name].confidence == pytest.approx(expected, abs=1e-6)
    assert multi_token_values > 0, "some values were written by several tokens"


def test_a_value_the_grammar_narrowed_to_a_few_texts_is_unscored_not_sure(vllm_engine):
    """vLLM scores a sampled token after the grammar's mask: picking one of two enum values comes
    back as that value's share of the two, however much the model wanted something else. Its
    alternatives show the step left two texts, so the value is unscored (0.0) and named."""
    for options in (["YES", "NO"], ["ALPHA", "BRAVO", "CHARLIE"]):
        schema = {
            "type": "object",
            "properties": {
                "answer": {"type": "string", "enum": options},
                "note": {"type": "string", "maxLength": 20},
            },
            "required": ["answer", "note"],
            "additionalProperties": False,
        }
        call = pipeline.plan_extraction("probe", schema, 1)
        body = _post(
            vllm_engine.url,
            chat_request("gemma4-e4b", ModelRequest("extract", call, (invoice_page_url(),), 280)),
        )
        generation = generation_from_response(body)
        fields, parsed = pipeline.read_extraction(generation, schema)
        assert fields["answer"].value in options and fields["answer"].confidence == 0.0
        checks = pipeline.unscored_checks(generation, parsed)
        assert [(c.name, c.passed) for c in checks] == [(pipeline.UNSCORED, False)]
        assert checks[0].detail.endswith(": answer"), "the free-text note was scored"


@pytest.mark.parametrize("hint", ["receipt", None])
def test_an_engine_answer_without_logprobs_is_unknown_not_certain(vllm_engine, hint):
    """vLLM asked without ``logprobs`` answers ``"logprobs": null``, as a proxy or an engine
    configured without them does: the type's confidence is unknown (0.0, a failed check naming the
    misconfiguration), never the 1.0 that ``1 - 0.0`` gave a hint the model did not choose."""
    call = pipeline.plan_classification(1)
    body = chat_request("gemma4-e4b", ModelRequest("classify", call, (invoice_page_url(),), 280))
    body["logprobs"] = False
    del body["top_logprobs"]
    answer = _post(vllm_engine.url, body)
    assert answer["choices"][0]["logprobs"] is None
    generation = generation_from_response(answer)

    decision = pipeline.read_classification(generation, hint=hint)

    assert decision.confidence == 0.0
    assert [c.name for c in decision.checks if not c.passed][-1] == "model_scored"
    if hint is not None and decision.document_type != json.loads(generation.text)["document_type"]:
        assert decision.document_type == hint


def test_a_cut_short_answer_fails_model_output_complete_and_goes_to_review(vllm_engine):
    from apps.extraction.services import result_assess

    schema = extraction_schema("invoice")
    call = pipeline.ModelCall(pipeline.plan_extraction("invoice", schema, 1).prompt, schema, max_tokens=6)
    body = _post(
        vllm_engine.url, chat_request("gemma4-e4b", ModelRequest("extract", call, (invoice_page_url(),), 280))
    )
    generation = generation_from_response(body)
    assert generation.truncated_by_length
    fields, parsed = pipeline.read_extraction(generation, schema)
    checks = pipeline.verify("invoice", fields, parsed)
    assert {c.name: c.passed for c in checks}["model_output_complete"] is False
    decision = pipeline.TypeDecision("invoice", 0.99)
    result = pipeline.assemble(decision, fields, checks, pages=1, timings_ms={})
    assessment = result_assess(result=result)
    assert assessment.decision.outcome == "needs_review"
    assert "check model_output_complete failed" in assessment.decision.reasons


@pytest.mark.parametrize(("width", "height"), [(800, 600), (1240, 1754)])
def test_a_page_costs_the_image_tokens_of_the_budget_asked_for(vllm_engine, width, height):
    call = pipeline.plan_classification(1)
    page = invoice_page_url(width, height)
    text_only = _post(
        vllm_engine.url, {**chat_request("gemma4-e4b", ModelRequest("classify", call, (), 280))}
    )
    base = text_only["usage"]["prompt_tokens"]
    for budget in (280, 1120):
        body = _post(
            vllm_engine.url, chat_request("gemma4-e4b", ModelRequest("classify", call, (page,), budget))
        )
        image_tokens = body["usage"]["prompt_tokens"] - base
        expected = image_soft_tokens(width, height, budget)
        assert expected <= budget
        # the soft tokens, the two around them and the tab the chat template puts before an image
        assert image_tokens - expected in range(2, 5), (budget, image_tokens, expected)


def test_the_backend_keeps_calls_in_flight_together(vllm_engine):
    """Eight documents' calls through one backend, concurrently: all answered, all schema-valid."""
    settings = ModelSettings.from_sources(
        {}, {"DOCINTEL_MODEL_URL": vllm_engine.url, "DOCINTEL_MODEL_MAX_IN_FLIGHT": "8"}
    )
    schema = extraction_schema("receipt")
    call = pipeline.plan_extraction("receipt", schema, 1)

    async def run() -> list[pipeline.Generation]:
        backend = OpenAIBackend(settings)
        try:
            requests = [
                ModelRequest("extract", call, (invoice_page_url(700 + 10 * i, 500),), 280) for i in range(8)
            ]
            return await asyncio.gather(*(backend.generate("gemma4-e4b", r) for r in requests))
        finally:
            await backend.close()

    for generation in asyncio.run(run()):
        jsonschema.validate(json.loads(generation.text), schema)
        assert generation.prompt_tokens > 200 and generation.engine_ms > 0


def test_calls_slower_than_their_timeout_are_waited_for_while_vllm_is_up(vllm_engine):
    """Eight pages at once through a timeout shorter than vLLM on CPU takes to answer them (more
    calls than it can serve at once): vLLM's API server answers while it computes, so every call is
    waited for and answered, none abandoned and sent again (which would throw its work away)."""
    settings = ModelSettings.from_sources(
        {},
        {
            "DOCINTEL_MODEL_URL": vllm_engine.url,
            "DOCINTEL_MODEL_TIMEOUT_S": "0.2",
            "DOCINTEL_MODEL_WAIT_S": "60",
            "DOCINTEL_MODEL_RETRY_BASE_S": "5",  # a call sent again would wait this long first
        },
    )
    call = pipeline.plan_extraction("receipt", extraction_schema("receipt"), 1)

    async def run() -> list[pipeline.Generation]:
        backend = OpenAIBackend(settings)
        try:
            requests = [
                ModelRequest("extract", call, (invoice_page_url(900 + 10 * i, 1200),), 1120) for i in range(8)
            ]
            return await asyncio.gather(*(backend.generate("gemma4-e4b", r) for r in requests))
        finally:
            await backend.close()

    generations = asyncio.run(run())  # before: every call abandoned at 0.2 s, until unavailable
    assert max(g.engine_ms for g in generations) > 200, "the calls outlived their timeout, answered"
    assert all(json.loads(g.text) is not None for g in generations)
