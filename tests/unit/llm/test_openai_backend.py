"""The openai model backend's request, answer parsing, settings and retry rules.

The retry tests run against a real HTTP server on loopback that answers the way an engine does
while it starts or is overloaded (503, 429, a refused connection); the real engine (vLLM) is
exercised in tests/gemma4.
"""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from engines.llm.confidence import ALTERNATIVES
from engines.llm.model_client import ModelFailed, ModelRequest, ModelSettings, ModelUnavailable
from engines.llm.openai_backend import OpenAIBackend, chat_request, generation_from_response
from engines.llm.pipeline import ModelCall
from engines.types import EngineError

CALL = ModelCall("Which type?", {"type": "object", "properties": {"a": {"type": "string"}}}, 16)
REQUEST = ModelRequest("classify", CALL, ("data:image/png;base64,AAAA",), 280)
ANSWER = {
    "choices": [
        {
            "message": {"content": '{"a":"x"}'},
            "finish_reason": "stop",
            "logprobs": {
                "content": [
                    {"token": '{"a":"', "logprob": -0.01},
                    {"token": "x", "logprob": -0.5},
                    {"token": '"}', "logprob": -0.02},
                    {"token": "<eos>", "logprob": -0.1},
                ]
            },
        }
    ],
    "usage": {"prompt_tokens": 300, "completion_tokens": 4},
}


def _settings(url: str = "http://127.0.0.1:9/v1", **overrides: str) -> ModelSettings:
    environ = {"DOCINTEL_MODEL_URL": url, "DOCINTEL_MODEL_RETRY_BASE_S": "0.05", **overrides}
    return ModelSettings.from_sources({}, environ)


def test_the_request_asks_for_guided_json_logprobs_and_the_page_budget():
    body = chat_request("gemma4-e4b", REQUEST)
    assert body["response_format"]["type"] == "json_schema"
    assert body["response_format"]["json_schema"]["schema"] == CALL.schema
    assert body["logprobs"] is True and body["temperature"] == 0.0
    assert body["mm_processor_kwargs"] == {"max_soft_tokens": 280}
    content = body["messages"][0]["content"]
    assert content[0] == {"type": "image_url", "image_url": {"url": REQUEST.images[0]}}
    assert content[-1] == {"type": "text", "text": CALL.prompt}


def test_an_answer_becomes_a_generation_with_aligned_tokens_and_counts():
    generation = generation_from_response(ANSWER, engine_ms=12)
    assert generation.text == '{"a":"x"}'
    assert list(generation.offsets) == [(0, 6), (6, 7), (7, 9), (9, 9)]
    assert (generation.prompt_tokens, generation.answer_tokens, generation.engine_ms) == (300, 4, 12)
    assert not generation.truncated_by_length
    cut = json.loads(json.dumps(ANSWER))
    cut["choices"][0]["finish_reason"] = "length"
    assert generation_from_response(cut).truncated_by_length


def test_settings_come_from_the_environment_over_the_config_parameters():
    settings = ModelSettings.from_sources(
        {"model_url": "http://engine:1/v1/", "max_in_flight": "8"},
        {"DOCINTEL_MODEL_MAX_IN_FLIGHT": "3", "DOCINTEL_CLASSIFY_MODEL": "small"},
    )
    assert settings.classify_url == settings.extract_url == "http://engine:1/v1"
    assert settings.max_in_flight == 3
    assert settings.model_for("classify", simple=False) == "small"
    assert settings.model_for("extract", simple=True) == "small"
    assert settings.model_for("extract", simple=False) == "gemma4-26b-a4b"
    assert (settings.image_tokens_for("classify"), settings.image_tokens_for("extract")) == (280, 1120)
    trtllm = ModelSettings.from_sources({}, {"DOCINTEL_MODEL_BACKEND": "tensorrt_llm"})
    assert trtllm.model_for("extract", simple=False) == "gemma4_26b_a4b"
    with pytest.raises(ValueError, match="DOCINTEL_MODEL_BACKEND"):
        ModelSettings.from_sources({}, {"DOCINTEL_MODEL_BACKEND": "onnx"})


def test_each_role_has_its_own_engine_url_defaulting_to_the_shared_one():
    """GIVEN two vLLM servers, one per model (a vLLM server serves one model) WHEN each role's URL is
    set THEN each model's calls go to its own engine; unset, both go to DOCINTEL_MODEL_URL (one
    engine serving both names, or a router)."""
    settings = ModelSettings.from_sources(
        {"model_url": "http://router:1/v1"},
        {
            "DOCINTEL_CLASSIFY_MODEL_URL": "http://small:8000/v1/",
            "DOCINTEL_EXTRACT_MODEL_URL": "http://large:8000/v1",
        },
    )
    assert settings.url_for(settings.model_for("classify", simple=False)) == "http://small:8000/v1"
    assert settings.url_for(settings.model_for("extract", simple=True)) == "http://small:8000/v1"
    assert settings.url_for(settings.model_for("extract", simple=False)) == "http://large:8000/v1"
    shared = ModelSettings.from_sources({"model_url": "http://router:1/v1"}, {})
    assert set(shared.engines().values()) == {"http://router:1/v1"}
    with pytest.raises(ValueError, match="two URLs"):
        ModelSettings.from_sources(
            {}, {"DOCINTEL_EXTRACT_MODEL": "gemma4-e4b", "DOCINTEL_EXTRACT_MODEL_URL": "http://large:8000/v1"}
        )


class _Engine(BaseHTTPRequestHandler):
    statuses: list[int] = []
    bodies: list[dict] = []
    answer_after_s = 0.0  # how long a call takes (an engine working through more than its batch)
    hung = False  # the API server answers nothing at all
    model_lists = 0

    def do_GET(self) -> None:
        if type(self).hung:
            time.sleep(10)
            return
        type(self).model_lists += 1
        payload = json.dumps({"data": [{"id": "gemma4-e4b"}]}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def do_POST(self) -> None:
        length = int(self.headers["Content-Length"])
        type(self).bodies.append(json.loads(self.rfile.read(length)))
        time.sleep(10 if type(self).hung else type(self).answer_after_s)
        status = type(self).statuses.pop(0) if type(self).statuses else 200
        payload = json.dumps(ANSWER if status == 200 else {"error": "busy"}).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *_args: object) -> None:
        return None


@pytest.fixture
def engine() -> Iterator[tuple[str, type[_Engine]]]:
    handler = type("Engine", (_Engine,), {"statuses": [], "bodies": [], "model_lists": 0})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1", handler
    finally:
        server.shutdown()
        server.server_close()


def _generate(settings: ModelSettings):
    async def run():
        backend = OpenAIBackend(settings)
        try:
            return await backend.generate("gemma4-e4b", REQUEST)
        finally:
            await backend.close()

    return asyncio.run(run())


def test_an_engine_that_is_busy_is_waited_for(engine):
    url, handler = engine
    handler.statuses.extend([503, 429, 503])
    generation = _generate(_settings(url, DOCINTEL_MODEL_WAIT_S="10"))
    assert generation.text == '{"a":"x"}'
    assert len(handler.bodies) == 4


def test_a_slow_call_on_an_engine_that_is_up_is_waited_for_not_sent_again(engine):
    """GIVEN an engine whose call takes 3 timeouts' time (more calls than its batch) but whose API
    server answers WHEN the call's timeout passes THEN the engine is asked whether it is up and the
    same call is waited for: one request, answered — not abandoned and sent again, which throws
    the engine's work away and reads a busy engine as one that is down."""
    url, handler = engine
    handler.answer_after_s = 1.5
    generation = _generate(_settings(url, DOCINTEL_MODEL_TIMEOUT_S="0.5", DOCINTEL_MODEL_WAIT_S="5"))
    assert generation.text == '{"a":"x"}'
    assert len(handler.bodies) == 1 and handler.model_lists >= 2


def test_a_call_past_its_whole_deadline_or_on_a_silent_engine_is_unavailable(engine):
    url, handler = engine
    handler.answer_after_s = 3.0  # up, but slower than timeout + wait
    started = time.monotonic()
    with pytest.raises(ModelUnavailable, match="unavailable"):
        _generate(_settings(url, DOCINTEL_MODEL_TIMEOUT_S="0.4", DOCINTEL_MODEL_WAIT_S="0.6"))
    assert time.monotonic() - started < 2.5 and len(handler.bodies) == 1
    handler.hung, handler.bodies[:] = True, []  # nothing answers, not even the model list
    with pytest.raises(ModelUnavailable, match="unavailable"):
        _generate(_settings(url, DOCINTEL_MODEL_TIMEOUT_S="0.3", DOCINTEL_MODEL_WAIT_S="1"))
    assert len(handler.bodies) >= 2, "a silent engine's call is abandoned and sent again, as for an outage"


def test_an_engine_down_past_the_wait_is_unavailable_not_a_failure():
    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(ModelUnavailable, match="unavailable"):
        _generate(_settings(f"http://127.0.0.1:{port}/v1", DOCINTEL_MODEL_WAIT_S="0.3"))


def test_a_request_the_engine_refuses_fails_with_a_code(engine):
    url, handler = engine
    handler.statuses.append(400)
    with pytest.raises(EngineError) as raised:
        _generate(_settings(url))
    assert raised.value.code == "model_request_refused"
    assert len(handler.bodies) == 1


def test_an_engine_failing_the_call_is_a_failure_the_document_pays_for_not_an_outage(engine):
    """GIVEN an engine answering 500 (perhaps this very request breaks it) WHEN called THEN the
    backend does not wait for it as for a busy engine: ModelFailed at once, which doc_pipeline
    answers as INTERNAL, retried within the document's attempts instead of waited out."""
    url, handler = engine
    handler.statuses.append(500)
    with pytest.raises(ModelFailed):
        _generate(_settings(url, DOCINTEL_MODEL_WAIT_S="10"))
    assert len(handler.bodies) == 1


def test_an_answer_without_log_probabilities_is_marked_unscored():
    """``logprobs: true`` was asked for; an engine or proxy that answers ``null`` is misconfigured."""
    assert generation_from_response(ANSWER).scored
    body = json.loads(json.dumps(ANSWER))
    body["choices"][0]["logprobs"] = None
    generation = generation_from_response(body)
    assert not generation.scored and generation.logprobs == [] and generation.text == '{"a":"x"}'


def test_the_engines_alternatives_say_how_many_texts_the_grammar_left():
    assert chat_request("gemma4-e4b", REQUEST)["top_logprobs"] == ALTERNATIVES
    answer = json.loads(json.dumps(ANSWER))
    free = [{"token": chr(97 + i), "logprob": -1.0 - i} for i in range(ALTERNATIVES)]
    forced = [{"token": "x", "logprob": -0.01}, *({"token": "p", "logprob": -9999.0} for _ in free[1:])]
    for index, entry in enumerate(answer["choices"][0]["logprobs"]["content"]):
        entry["top_logprobs"] = forced if index == 1 else free
    assert list(generation_from_response(answer).choices) == [ALTERNATIVES, 1, ALTERNATIVES, ALTERNATIVES]
    # an engine that ignores top_logprobs: no alternatives, every token counted as chosen
    assert generation_from_response(ANSWER).choices is None
