"""Is each role's engine configured the way ``doc_pipeline`` needs it? Asked at start-up, and again
while the answer is not yes.

A misconfigured engine is an operator's problem, not a document's: a vLLM serving one model
answers 404 for the other's name, one started without ``--trust-request-mm-kwargs`` answers 400
to every request that names its page budget, and taken for the engine's verdict on each document
those fail every document for good (``model_request_refused``). So before any document, for each
distinct (engine URL, model name), :func:`check_engine` asks:

1. ``GET /models``: is the model served there, and is its ``max_model_len`` (vLLM and SGLang
   report it) at least the longest call ``engines.llm.gpu_plan`` plans for;
2. one greedy one-token call shaped like ours (``response_format: json_schema`` and
   ``mm_processor_kwargs``): a 400 naming ``mm_processor_kwargs`` is a server started without
   ``--trust-request-mm-kwargs`` (vLLM 0.32 validates them before anything else:
   ``vllm/entrypoints/generate/base/protocol.py`` ``validate_request_mm_kwargs``), any other 4xx an
   engine that will not do guided decoding;
3. on vLLM (its ``/models`` says ``owned_by: vllm``) one call with a schema xgrammar cannot compile
   (a pattern with a length bound, and no ``mm_processor_kwargs``, so that the answer is about
   this alone): a server pinned to xgrammar refuses it (400); one left on
   ``auto`` accepts it, having fallen back to another backend (``vllm/sampling_params.py``) — the
   silent fallback ``deploy/serving/gemma4.toml`` pins away.

An answer of either kind is final for now (:class:`EngineCheck` ``problems``); an engine that
cannot be asked (down, still starting, 5xx) is not a configuration error (``unreachable``) and is
asked again later. What ``doc_pipeline`` does with the answer: :class:`ReadinessGate`.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import httpx

# A one-token call with our request's shape: cheap, and refused for the reasons ours would be.
PROBE_SCHEMA = {"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}
# A string with both a pattern and a length bound: xgrammar cannot compile it (vLLM's
# has_xgrammar_unsupported_json_features), guidance and outlines can.
XGRAMMAR_REFUSES = {
    "type": "object",
    "properties": {"code": {"type": "string", "pattern": "^[A-Z]+$", "maxLength": 4}},
    "required": ["code"],
}
TRUST_MM_KWARGS_HINT = "mm_processor_kwargs"  # in vLLM's message, and in the flag's name


@dataclass(frozen=True)
class EngineCheck:
    """One engine's answer for one model: ready, misconfigured (``problems``), or not asked."""

    url: str
    model: str
    problems: tuple[str, ...] = ()
    unreachable: str = ""  # why it could not be asked; asked again later

    @property
    def ready(self) -> bool:
        return not self.problems and not self.unreachable

    def describe(self) -> str:
        if self.problems:
            return f"{self.model} at {self.url}: " + "; ".join(self.problems)
        if self.unreachable:
            return f"{self.model} at {self.url}: not reachable ({self.unreachable})"
        return f"{self.model} at {self.url}: ready"


def misconfiguration(status: int, message: str) -> str | None:
    """What a refused call says about the engine's configuration, or None when it is about the
    request itself (a schema it cannot compile, a prompt too long)."""
    if status == 400 and TRUST_MM_KWARGS_HINT in message:
        return "it refuses per-request mm_processor_kwargs (start vLLM with --trust-request-mm-kwargs)"
    if status == 404:
        return "it does not serve this model (a server serves the models it was started with: give each role its URL)"
    if status in (401, 403):
        return f"it refuses our credentials (HTTP {status}: DOCINTEL_MODEL_API_KEY)"
    return None


def error_message(response: httpx.Response) -> str:
    """The engine's error text (OpenAI's ``{"error": {"message"}}``, or the body), shortened."""
    try:
        body = response.json()
    except ValueError:
        return response.text[:300]
    error = body.get("error") if isinstance(body, dict) else None
    if isinstance(error, dict):
        return str(error.get("message", ""))[:300]
    return str(error or body)[:300]


def _probe(model: str, schema: dict[str, Any], image_tokens: int | None) -> dict[str, Any]:
    body: dict[str, Any] = {
        "model": model,
        "messages": [{"role": "user", "content": [{"type": "text", "text": "Answer ok."}]}],
        "max_tokens": 1,
        "temperature": 0.0,
        "logprobs": True,
        "response_format": {"type": "json_schema", "json_schema": {"name": "probe", "schema": schema}},
    }
    if image_tokens is not None:
        body["mm_processor_kwargs"] = {"max_soft_tokens": image_tokens}
    return body


class _Unreachable(Exception):
    pass


async def _send(client: httpx.AsyncClient, method: str, path: str, **kwargs: Any) -> httpx.Response:
    try:
        response = await client.request(method, path, **kwargs)
    except (httpx.TransportError, httpx.TimeoutException) as error:
        raise _Unreachable(type(error).__name__) from None
    if response.status_code in (429,) or response.status_code >= 500:
        raise _Unreachable(f"HTTP {response.status_code}")
    return response


async def check_engine(
    client: httpx.AsyncClient, model: str, *, min_model_len: int, image_tokens: int
) -> EngineCheck:
    """The three questions of the module docstring, asked of the engine ``client`` points at."""
    url = str(client.base_url).rstrip("/")
    problems: list[str] = []
    try:
        listing = await _send(client, "GET", "/models")
        if listing.status_code != 200:
            problem = misconfiguration(listing.status_code, error_message(listing))
            problems.append(
                problem or f"GET /models answered HTTP {listing.status_code}: not an OpenAI-compatible engine"
            )
            return EngineCheck(url, model, tuple(problems))
        cards = {str(card.get("id")): card for card in listing.json().get("data", [])}
        card = cards.get(model)
        if card is None:
            served = ", ".join(sorted(cards)) or "nothing"
            problems.append(f"it does not serve {model} (it serves {served}): give each role its URL")
            return EngineCheck(url, model, tuple(problems))
        length = card.get("max_model_len")
        if isinstance(length, int) and length < min_model_len:
            problems.append(
                f"its max_model_len {length} is below the {min_model_len} tokens of the longest call "
                "(engines.llm.gpu_plan; deploy/serving/gemma4.toml)"
            )
        answer = await _send(
            client, "POST", "/chat/completions", json=_probe(model, PROBE_SCHEMA, image_tokens)
        )
        if answer.status_code != 200:
            message = error_message(answer)
            problems.append(
                misconfiguration(answer.status_code, message)
                or f"it refuses guided decoding (HTTP {answer.status_code}: {message})"
            )
        if card.get("owned_by") == "vllm":
            # asked without mm_processor_kwargs: a question of its own, whatever the answer above
            fallback = await _send(
                client, "POST", "/chat/completions", json=_probe(model, XGRAMMAR_REFUSES, None)
            )
            if fallback.status_code == 200:
                problems.append(
                    "its structured outputs fall back from xgrammar to another backend (started with "
                    "backend auto?): start it with deploy/serving/gemma4.toml's --structured-outputs-config"
                )
    except _Unreachable as error:
        return EngineCheck(url, model, tuple(problems), unreachable=str(error))
    except ValueError:  # /models answered something that is not JSON
        problems.append("GET /models did not answer JSON: not an OpenAI-compatible engine")
    return EngineCheck(url, model, tuple(problems))


class ReadinessGate:
    """What ``doc_pipeline`` does with the checks: asked at start-up, and again at most every
    ``recheck_s`` while not every engine is ready; once they all are, never again (a later
    misconfiguration — an engine restarted without a flag — shows as the call's own refusal, which
    the backend reads as :class:`engines.llm.model_client.EngineMisconfigured`).

    While an engine is misconfigured, :meth:`blocking_problem` names it and ``doc_pipeline`` answers
    every document UNAVAILABLE: the documents wait, none fails, and nothing is sent to an engine
    that would refuse it. An engine not reachable blocks nothing: the calls themselves wait for it
    (the backend's retries, then the worker's)."""

    def __init__(
        self,
        check: Callable[[], Awaitable[list[EngineCheck]]],
        *,
        recheck_s: float,
        log_error: Callable[[str], None],
        log_info: Callable[[str], None],
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._check, self._recheck_s = check, recheck_s
        self._log_error, self._log_info, self._clock = log_error, log_info, clock
        self._next_check = 0.0
        self._ready = False
        self.problem = ""

    def recheck(self) -> None:
        """Ask again on the next batch: a call was refused for the engine's configuration."""
        self._ready, self._next_check = False, 0.0

    async def blocking_problem(self) -> str:
        """The configuration error documents must wait out, or "" (ready, or not known yet)."""
        if self._ready or self._clock() < self._next_check:
            return self.problem
        checks = await self._check()
        self._next_check = self._clock() + self._recheck_s
        problem = " | ".join(c.describe() for c in checks if c.problems)
        if problem and problem != self.problem:
            self._log_error(f"configuration error: {problem}; documents wait until it is fixed")
        elif not problem and self.problem:
            self._log_info("engine configuration fixed: documents proceed")
        self.problem = problem
        self._ready = all(c.ready for c in checks)
        if self._ready:
            self._log_info("engines ready: " + "; ".join(c.describe() for c in checks))
        elif not problem:
            waiting = "; ".join(c.describe() for c in checks if c.unreachable)
            self._log_info(f"engines not checked yet: {waiting}; asking again in {self._recheck_s:.0f} s")
        return self.problem
