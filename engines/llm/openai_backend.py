"""The ``openai`` model backend: Gemma 4 behind any OpenAI-compatible ``/v1/chat/completions``.

vLLM, SGLang, ``trtllm-serve`` and NVIDIA Dynamo's frontend all accept the same request: pages as
``image_url`` data URIs, guided decoding with ``response_format: {"type": "json_schema"}``, the
sampled tokens' log-probabilities with ``logprobs: true``, and the page budget per request as
``mm_processor_kwargs`` (vLLM needs ``--trust-request-mm-kwargs`` to honour it).

One :class:`OpenAIBackend` per ``doc_pipeline`` instance: one pooled HTTP client (keep-alive
connections up to the in-flight limit), a semaphore holding calls to ``max_in_flight`` (sized to
the engine's batch, so the engine queues nothing we could not see), a timeout per call after
which a call is still waited for while the engine is up (:meth:`OpenAIBackend._answer`), and
retries with capped exponential backoff on 429, 502, 503, 504 and connection errors for up to
``wait_s``: then :class:`ModelUnavailable`, and the worker waits the outage out (the document's
attempts are not spent). Any other server error (a 500) is :class:`ModelFailed`: retried by the
worker too, but within the document's attempts, as it may be this request that breaks the engine.
A 4xx other than 429 is the engine refusing this very request (a prompt longer than its context, a
schema it cannot compile): the document fails with ``model_request_refused``, since asking again
cannot help.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from typing import Any

import httpx

from engines.llm.alignment import token_spans
from engines.llm.confidence import ALTERNATIVES, allowed_choices
from engines.llm.model_client import (
    EngineMisconfigured,
    ModelFailed,
    ModelRequest,
    ModelSettings,
    ModelUnavailable,
)
from engines.llm.pipeline import Generation
from engines.llm.readiness import EngineCheck, check_engine, error_message, misconfiguration
from engines.types import EngineError

RETRY_STATUSES = frozenset({429, 502, 503, 504})
SCHEMA_NAME = "docintel_fields"


def chat_request(model: str, request: ModelRequest) -> dict[str, Any]:
    """The ``/v1/chat/completions`` body of one call: greedy, guided, with log-probabilities."""
    content: list[dict[str, Any]] = [
        {"type": "image_url", "image_url": {"url": uri}} for uri in request.images
    ]
    content.append({"type": "text", "text": request.call.prompt})
    return {
        "model": model,
        "messages": [{"role": "user", "content": content}],
        "max_tokens": request.call.max_tokens,
        "temperature": 0.0,
        "seed": 0,
        "logprobs": True,
        # the top alternatives per step say how many tokens the grammar left the model
        # (engines.llm.confidence: a forced token decided nothing, a narrowed one is not scored)
        "top_logprobs": ALTERNATIVES,
        "response_format": {
            "type": "json_schema",
            "json_schema": {"name": SCHEMA_NAME, "schema": request.call.schema, "strict": True},
        },
        "mm_processor_kwargs": {"max_soft_tokens": request.image_tokens},
    }


def generation_from_response(body: dict[str, Any], *, engine_ms: int = 0) -> Generation:
    """A chat completion as a :class:`Generation` (token spans aligned to the content)."""
    try:
        choice = body["choices"][0]
        content = choice["message"].get("content") or ""
        returned = choice.get("logprobs")
        entries = (returned or {}).get("content") or []
        texts = [str(entry.get("token", "")) for entry in entries]
        logprobs = [float(entry.get("logprob", -9999.0)) for entry in entries]
        alternatives = [entry.get("top_logprobs") or [] for entry in entries]
        # every step with its alternatives, or none at all (an engine that ignores top_logprobs)
        choices = (
            [
                allowed_choices([(str(a.get("token", "")), float(a.get("logprob", -9999.0))) for a in step])
                for step in alternatives
            ]
            if entries and all(alternatives)
            else None
        )
        usage = body.get("usage") or {}
    except (KeyError, IndexError, TypeError, AttributeError, ValueError) as error:
        raise ModelUnavailable(
            f"the engine's answer is not a chat completion ({type(error).__name__})"
        ) from None
    return Generation(
        text=content,
        logprobs=logprobs,
        offsets=token_spans(content, texts),
        truncated_by_length=choice.get("finish_reason") == "length",
        prompt_tokens=int(usage.get("prompt_tokens") or 0),
        answer_tokens=int(usage.get("completion_tokens") or len(entries)),
        engine_ms=engine_ms,
        # asked for (chat_request) and not returned: an engine or proxy that drops them
        scored=bool(entries) or not content,
        choices=choices,
    )


class OpenAIBackend:
    """Calls the OpenAI-compatible engines of both roles; see the module docstring for the retry
    rules. One pooled client per distinct engine URL (``ModelSettings.engines``: one engine serving
    both models, or one each), the in-flight limit shared across them. A refusal that is the
    engine's configuration rather than the request (:func:`engines.llm.readiness.misconfiguration`:
    a model it does not serve, untrusted ``mm_processor_kwargs``, our key refused) is
    :class:`EngineMisconfigured`: the document waits for an operator instead of failing."""

    def __init__(self, settings: ModelSettings) -> None:
        self.settings = settings
        headers = {"Authorization": f"Bearer {settings.api_key}"} if settings.api_key else {}
        self._clients = {
            url: httpx.AsyncClient(
                base_url=url,
                headers=headers,
                timeout=httpx.Timeout(settings.call_timeout_s, connect=min(5.0, settings.call_timeout_s)),
                limits=httpx.Limits(
                    max_connections=settings.max_in_flight, max_keepalive_connections=settings.max_in_flight
                ),
            )
            for url in dict.fromkeys(settings.engines().values())
        }
        self._slots = asyncio.Semaphore(settings.max_in_flight)
        self._connect_s = min(5.0, settings.call_timeout_s)

    async def generate(self, model: str, request: ModelRequest) -> Generation:
        body = chat_request(model, request)
        client = self._clients[self.settings.url_for(model)]
        deadline = time.monotonic() + self.settings.wait_s
        attempt = 0
        while True:
            try:
                async with self._slots:
                    started = time.perf_counter()
                    response = await self._answer(client, body)
                    engine_ms = round((time.perf_counter() - started) * 1000)
            except (httpx.TransportError, httpx.TimeoutException) as error:
                reason = f"{type(error).__name__}"
            else:
                if response.status_code == 200:
                    try:
                        return generation_from_response(response.json(), engine_ms=engine_ms)
                    except json.JSONDecodeError:
                        raise ModelUnavailable("the engine's answer is not JSON") from None
                if 400 <= response.status_code < 500 and response.status_code not in RETRY_STATUSES:
                    problem = misconfiguration(response.status_code, error_message(response))
                    if problem is not None:
                        raise EngineMisconfigured(f"{model} at {client.base_url}: {problem}")
                    # the engine read the request and will not serve it (too long a prompt for its
                    # context, a schema it cannot compile): retrying cannot help
                    raise EngineError(
                        "model_request_refused",
                        f"the model engine refused the call (HTTP {response.status_code})",
                    )
                if response.status_code not in RETRY_STATUSES:
                    raise ModelFailed(f"the engine failed the call (HTTP {response.status_code})")
                reason = f"HTTP {response.status_code}"
            pause = min(self.settings.retry_max_s, self.settings.retry_base_s * 2**attempt)
            pause *= 0.5 + random.random() / 2  # jitter: documents waiting together do not retry together
            if time.monotonic() + pause > deadline:
                raise ModelUnavailable(f"{model} unavailable for {self.settings.wait_s:.0f} s ({reason})")
            attempt += 1
            await asyncio.sleep(pause)

    async def _answer(self, client: httpx.AsyncClient, body: dict[str, Any]) -> httpx.Response:
        """The engine's answer to one call, waited for while the engine is up.

        A call unanswered after ``call_timeout_s`` is not yet an outage: an engine holding more
        calls than its batch (vLLM on CPU at 32 in flight, a GPU engine in a burst) works through
        them in turn. Abandoning the call throws its work away (the engine aborts a request whose
        client left) and hands the document back to wait out an outage that is not one — make
        bench's Gemma 4 stack fell from 1.0 to 0.42 documents/s that way. So when ``call_timeout_s``
        passes the engine is asked whether it is up (``GET /models``, answered by its API server
        while the model computes): up, the same call is waited for again, for as long in all as a
        call could take before (``call_timeout_s`` + ``wait_s``); down or silent, the call is
        abandoned as timed out and retried as for an engine that is down."""
        call = asyncio.ensure_future(
            client.post("/chat/completions", json=body, timeout=httpx.Timeout(None, connect=self._connect_s))
        )
        give_up = time.monotonic() + self.settings.call_timeout_s + self.settings.wait_s
        try:
            wait = self.settings.call_timeout_s
            while True:
                done, _ = await asyncio.wait({call}, timeout=wait)
                if done:
                    return call.result()
                wait = min(self.settings.call_timeout_s, give_up - time.monotonic())
                if wait <= 0 or not await self._alive(client):
                    raise httpx.ReadTimeout("no answer in time, or the engine is not answering at all")
        finally:
            if not call.done():
                call.cancel()

    async def _alive(self, client: httpx.AsyncClient) -> bool:
        """Whether the engine's API server answers at once (its model list)."""
        try:
            response = await client.get("/models", timeout=self._connect_s)
        except (httpx.TransportError, httpx.TimeoutException):
            return False
        return response.status_code == 200

    async def check_ready(self, *, min_model_len: int) -> list[EngineCheck]:
        """Each (engine, model) pair asked whether it is configured as we need."""
        return [
            await check_engine(
                self._clients[url],
                model,
                min_model_len=min_model_len,
                image_tokens=self.settings.image_tokens_for(
                    "classify" if model == self.settings.classify_model else "extract"
                ),
            )
            for model, url in self.settings.engines().items()
        ]

    async def close(self) -> None:
        for client in self._clients.values():
            await client.aclose()
