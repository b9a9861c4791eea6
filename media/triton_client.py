"""Calling ``doc_pipeline`` on Triton over gRPC (ARCHITECTURE §1 "infer", §3.3 ``--engine triton``).

Two clients with one contract, the same as ``engines.pipeline.read_document``:

* :class:`TritonEngineClient` — blocking, for the CLI and simple callers;
* :class:`AsyncTritonEngineClient` — asyncio, one channel shared by many concurrent documents
  behind a concurrency limit, so Triton's dynamic batcher sees full batches.

Failures come back as one of two types, so callers can decide to retry without parsing text:

* :class:`TritonUnavailableError` — retryable: the server is down, starting, overloaded or too
  slow (connection refused, UNAVAILABLE, DEADLINE_EXCEEDED), the model engine behind it is down
  (``model_unavailable``), or the model failed on this document without a verdict (a crashed
  model process). Its ``outage`` says which: an outage is waited out without spending the
  document's attempts (apps.documents.unavailability); a failure (``kind == "failed"``) is
  retried too, but counts, so a document that crashes the model on every attempt still ends;
* :class:`engines.types.EngineError` — terminal: the engine's own verdict on this document
  (``unreadable_image``, ``invalid_request``, the model engine refusing the request:
  ``model_request_refused``, ...), with the code and message it raised.

Every call has an explicit deadline (``timeout_s``). Retrying is the caller's business (the
Celery task retries with backoff, below the broker's visibility timeout); each client has a
:class:`~media.circuit_breaker.CircuitBreaker`, so while Triton is down the retries fail at once
instead of reaching (or hanging on) the server. A full Triton queue ("Exceeds maximum queue size",
UNAVAILABLE or RESOURCE_EXHAUSTED) is an ``overloaded`` unavailability, retried the same way.
"""

from __future__ import annotations

import asyncio
import os
import re
from collections.abc import Sequence
from types import TracebackType
from typing import Any, Self

import numpy as np
import tritonclient.grpc as grpcclient
import tritonclient.grpc.aio as grpcclient_aio
from tritonclient.utils import InferenceServerException

from engines.types import EngineError, EngineResult
from media.circuit_breaker import CircuitBreaker, CircuitState

URL_ENV = "DOCINTEL_TRITON_URL"
DEFAULT_URL = "127.0.0.1:8101"
# The model every document goes to. Any model with the doc_pipeline contract (§3.5) will do:
# model_repo/null and model_repo/sim_gpu answer without an engine, for benchmarks.
MODEL_ENV = "DOCINTEL_TRITON_MODEL"
MODEL_NAME = "doc_pipeline"
DEFAULT_TIMEOUT_S = 30.0  # ARCHITECTURE §4
BREAKER_FAILURES_ENV = "DOCINTEL_TRITON_BREAKER_FAILURES"
BREAKER_COOLDOWN_ENV = "DOCINTEL_TRITON_BREAKER_COOLDOWN_S"

# gRPC statuses after which the same request may well succeed later.
_RETRYABLE_STATUSES = frozenset(
    {
        "StatusCode.UNAVAILABLE",
        "StatusCode.DEADLINE_EXCEEDED",
        "StatusCode.RESOURCE_EXHAUSTED",
        "StatusCode.CANCELLED",
        "StatusCode.NOT_FOUND",  # the model is not loaded (yet): a server starting or being reconfigured
        "StatusCode.ABORTED",
    }
)
# The Gemma 4 doc_pipeline's UNAVAILABLE answer when its model engine is down (model_repo/doc_pipeline).
MODEL_UNAVAILABLE = "model_unavailable"
# doc_pipeline reports per-document errors as "<error_code>: <message>".
_ENGINE_ERROR = re.compile(r"(?P<code>[a-z][a-z0-9_]*): (?P<message>.*)", re.DOTALL)


# The kinds that say Triton, or the model engine behind it, could not answer at all: an outage.
OUTAGE_KINDS = frozenset({"down", "timeout", "overloaded", "circuit_open", "model_unavailable"})


class TritonUnavailableError(Exception):
    """Triton could not answer this time; the same request may succeed later (retryable).

    ``kind`` says why, for metrics and logs: ``down`` (unreachable, model not loaded), ``timeout``
    (no answer before the deadline), ``overloaded`` (Triton's queue is full), ``circuit_open``
    (not sent: the breaker is open), ``model_unavailable`` (the model engine behind
    ``doc_pipeline``, e.g. vLLM, is down or overloaded) or ``failed`` (Triton answered this
    document with an error that is no verdict: a model process crashing on it).

    ``outage``: the server (or the engine behind it) is unavailable, not this document's doing.
    A timeout is one only while the circuit breaker is open (:func:`_judge`). ``cause``: the kind
    of the failure behind it (for ``circuit_open``, the failures that opened the breaker: the
    model engine's or Triton's own)."""

    def __init__(self, message: str, kind: str = "down", cause: str = "") -> None:
        super().__init__(message)
        self.kind = kind
        self.cause = cause or kind
        self.outage = kind in OUTAGE_KINDS


class CircuitOpenError(TritonUnavailableError):
    """Not sent: the client's circuit breaker is open after repeated failures."""

    def __init__(self, url: str, cause: str = "") -> None:
        super().__init__(
            f"Triton at {url} is failing; circuit open, call not sent", kind="circuit_open", cause=cause
        )


_breakers: dict[str, CircuitBreaker] = {}


def breaker_for(url: str) -> CircuitBreaker:
    """This process's breaker for the server at ``url``, shared by every client of it (a Celery
    task makes a new client per call; the breaker must outlive it). Configured from
    ``DOCINTEL_TRITON_BREAKER_FAILURES`` (5) and ``DOCINTEL_TRITON_BREAKER_COOLDOWN_S`` (10)."""
    breaker = _breakers.get(url)
    if breaker is None:
        breaker = _breakers.setdefault(
            url,
            CircuitBreaker(
                failure_threshold=int(os.environ.get(BREAKER_FAILURES_ENV) or 5),
                cooldown_s=float(os.environ.get(BREAKER_COOLDOWN_ENV) or 10.0),
            ),
        )
    return breaker


def _outcome(breaker: CircuitBreaker, error: BaseException | None) -> None:
    """Tell the breaker how a call it allowed ended: any answer of the server is a success."""
    if error is None or isinstance(error, EngineError):
        breaker.record_success()
    elif isinstance(error, TritonUnavailableError) and error.kind != "overloaded":
        breaker.record_failure(error.kind)
    else:
        # cancelled, or "queue full": the server is up and busy, the retry's backoff is enough
        breaker.release()


def _judge(breaker: CircuitBreaker, error: BaseException | None) -> None:
    """Whether a call past its deadline was an outage, once the breaker has counted it: with the
    breaker open Triton is failing the other calls too (a hung or stopped server); with it closed
    the others are answered, so it is this document the model cannot finish in time, and the
    document's attempts pay for it (else one slow document would be retried for the whole
    unavailability window)."""
    if isinstance(error, TritonUnavailableError) and error.kind == "timeout":
        error.outage = breaker.state is not CircuitState.CLOSED


def default_url() -> str:
    return os.environ.get(URL_ENV) or DEFAULT_URL


def default_model() -> str:
    return os.environ.get(MODEL_ENV) or MODEL_NAME


def batch_capacity(config: dict[str, Any]) -> int:
    """Documents the model can work on at once: its largest batch times its instances.

    ``config`` is the model configuration as Triton returns it (``get_model_config`` as JSON).
    A client keeps about this many requests in flight so every instance always finds a full
    batch waiting; a model without batching counts 1 per instance.
    """
    max_batch = max(int(config.get("max_batch_size") or 0), 1)
    groups = config.get("instance_group") or [{"count": 1}]
    instances = sum(max(int(group.get("count") or 1), 1) for group in groups)
    return max_batch * instances


def _inputs(
    module: Any,
    pages: Sequence[bytes],
    document_type_hint: str | None,
    text_layer: Sequence[str] | None,
    schema_json: str | None,
    document_types_json: str | None = None,
) -> list[Any]:
    """doc_pipeline's inputs for one document (batch dimension 1; optional inputs only if set)."""
    tensors: dict[str, np.ndarray] = {"pages": np.array([[bytes(page) for page in pages]], dtype=np.object_)}
    if text_layer is not None:
        tensors["text_layer"] = np.array([[text.encode("utf-8") for text in text_layer]], dtype=np.object_)
    if document_type_hint:
        tensors["document_type_hint"] = np.array([[document_type_hint.encode("utf-8")]], dtype=np.object_)
    if schema_json:
        tensors["schema_json"] = np.array([[schema_json.encode("utf-8")]], dtype=np.object_)
    if document_types_json:  # the tenant's own types the classifier may choose
        tensors["document_types_json"] = np.array([[document_types_json.encode("utf-8")]], dtype=np.object_)
    inputs = []
    for name, array in tensors.items():
        tensor = module.InferInput(name, list(array.shape), "BYTES")
        tensor.set_data_from_numpy(array)
        inputs.append(tensor)
    return inputs


def _result(response: Any) -> EngineResult:
    output = response.as_numpy("result_json")
    if output is None or output.size != 1:
        raise EngineError("invalid_response", "doc_pipeline answered without one result_json")
    return EngineResult.from_json(output.reshape(-1)[0])


def _kind(status: str, message: str) -> str:
    if status == "StatusCode.RESOURCE_EXHAUSTED" or "queue size" in message or "queue full" in message:
        return "overloaded"
    if f"{MODEL_UNAVAILABLE}:" in message:  # the Gemma 4 doc_pipeline: its model engine is down
        return "model_unavailable"
    if status == "StatusCode.DEADLINE_EXCEEDED":
        return "timeout"
    return "down"


def _translate(error: InferenceServerException) -> Exception:
    """The typed exception for a failed call: retryable, or the engine's own terminal error."""
    status = str(error.status() or "")
    message = str(error.message() or "")
    if status in _RETRYABLE_STATUSES:
        return TritonUnavailableError(
            f"Triton unavailable ({status}): {message}", kind=_kind(status, message)
        )
    match = _ENGINE_ERROR.fullmatch(message)
    if status in ("StatusCode.INVALID_ARGUMENT", "StatusCode.INTERNAL") and match:
        # The model's own per-document error (INVALID_ARGUMENT: the document; INTERNAL: an
        # engine bug this document triggers). Re-running the same document will not help.
        return EngineError(match["code"], match["message"])
    if status == "StatusCode.INVALID_ARGUMENT":
        # Triton rejected the request before the model saw it (shapes, types): a client bug.
        return EngineError("invalid_request", message)
    # Anything else (e.g. "Stub process is not healthy" while Triton restarts a model process that
    # crashed, perhaps on this very document): worth another attempt within the document's budget.
    return TritonUnavailableError(f"Triton failed ({status or 'no status'}): {message}", kind="failed")


class TritonEngineClient:
    """Blocking client: ``read_document`` has the same contract as the local engine's."""

    def __init__(
        self,
        url: str | None = None,
        timeout_s: float = DEFAULT_TIMEOUT_S,
        model: str | None = None,
        breaker: CircuitBreaker | None = None,
    ) -> None:
        self.url = url or default_url()
        self.timeout_s = timeout_s
        self.model = model or default_model()
        self.breaker = breaker or breaker_for(self.url)
        self._client = grpcclient.InferenceServerClient(self.url)

    def read_document(
        self,
        pages: Sequence[bytes],
        *,
        document_type_hint: str | None = None,
        text_layer: Sequence[str] | None = None,
        schema_json: str | None = None,
        document_types_json: str | None = None,
        request_id: str = "",
    ) -> EngineResult:
        """One document through ``doc_pipeline``; ``request_id`` shows in the server's logs."""
        inputs = _inputs(grpcclient, pages, document_type_hint, text_layer, schema_json, document_types_json)
        if not self.breaker.allow():
            raise CircuitOpenError(self.url, self.breaker.last_failure)
        failure: BaseException | None = None
        try:
            response = self._client.infer(
                self.model,
                inputs,
                outputs=[grpcclient.InferRequestedOutput("result_json")],
                request_id=request_id,
                client_timeout=self.timeout_s,
            )
            return _result(response)
        except InferenceServerException as error:
            failure = _translate(error)
            raise failure from error
        except BaseException as error:
            failure = error
            raise
        finally:
            _outcome(self.breaker, failure)
            _judge(self.breaker, failure)

    def is_ready(self) -> bool:
        """Whether the server and the model are ready (False when unreachable)."""
        try:
            return bool(self._client.is_model_ready(self.model, client_timeout=self.timeout_s))
        except InferenceServerException:
            return False

    def close(self) -> None:
        self._client.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


class AsyncTritonEngineClient:
    """Asyncio client for workers: many documents in flight on one channel, at most
    ``max_in_flight`` at a time (the rest wait here rather than in Triton's queue, where they
    could outlive their deadline).

    Create and use it inside one running event loop (gRPC aio channels belong to their loop).
    """

    def __init__(
        self,
        url: str | None = None,
        timeout_s: float = DEFAULT_TIMEOUT_S,
        max_in_flight: int = 16,
        model: str | None = None,
        breaker: CircuitBreaker | None = None,
    ) -> None:
        self.url = url or default_url()
        self.timeout_s = timeout_s
        self.model = model or default_model()
        self.max_in_flight = max_in_flight
        self.breaker = breaker or breaker_for(self.url)
        self._client = grpcclient_aio.InferenceServerClient(self.url)
        self._slots = asyncio.Semaphore(max_in_flight)

    async def read_document(
        self,
        pages: Sequence[bytes],
        *,
        document_type_hint: str | None = None,
        text_layer: Sequence[str] | None = None,
        schema_json: str | None = None,
        document_types_json: str | None = None,
        request_id: str = "",
    ) -> EngineResult:
        """One document through ``doc_pipeline``. The deadline starts once a slot is free."""
        inputs = _inputs(
            grpcclient_aio, pages, document_type_hint, text_layer, schema_json, document_types_json
        )
        async with self._slots:
            if not self.breaker.allow():
                raise CircuitOpenError(self.url, self.breaker.last_failure)
            failure: BaseException | None = None
            try:
                response = await self._client.infer(
                    self.model,
                    inputs,
                    outputs=[grpcclient_aio.InferRequestedOutput("result_json")],
                    request_id=request_id,
                    client_timeout=self.timeout_s,
                )
                return _result(response)
            except InferenceServerException as error:
                failure = _translate(error)
                raise failure from error
            except BaseException as error:
                failure = error
                raise
            finally:
                _outcome(self.breaker, failure)
                _judge(self.breaker, failure)

    async def is_ready(self) -> bool:
        try:
            return bool(await self._client.is_model_ready(self.model, client_timeout=self.timeout_s))
        except InferenceServerException:
            return False

    async def batch_capacity(self) -> int:
        """The model's largest batch times its instances (see :func:`batch_capacity`)."""
        try:
            config = await self._client.get_model_config(
                self.model, as_json=True, client_timeout=self.timeout_s
            )
        except InferenceServerException as error:
            raise _translate(error) from error
        return batch_capacity(config.get("config", config))

    async def close(self) -> None:
        await self._client.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()
