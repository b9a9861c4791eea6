"""doc_pipeline: classify, extract and verify one document server-side (ARCHITECTURE §1, §3.5).

One request is one document: ``pages`` (encoded images) and the optional ``text_layer``,
``document_type_hint``, ``schema_json`` and ``document_types_json`` (the tenant's own types the
classifier may choose; the Gemma 4 variant's, ignored here). One response per request: ``result_json`` (the
engine's :class:`engines.types.EngineResult` as JSON), or a per-request error whose message is
``"<error_code>: <message>"`` so the client can raise the same ``EngineError`` a local engine
would. A bad document never fails the other documents of its batch.

Logs and error messages carry error codes, counts and timings only — never document content or
field values.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import triton_python_backend_utils as pb_utils

from engines.types import EngineContext, EngineError, EngineResult

ReadDocument = Callable[..., EngineResult]


class InvalidRequest(Exception):
    """The request itself is malformed (not the document): terminal for the caller."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.code = "invalid_request"
        self.message = message


@dataclass(frozen=True)
class DocumentRequest:
    pages: list[bytes]
    text_layer: list[str] | None
    document_type_hint: str | None
    schema: dict[str, Any] | None
    # the tenant's own types the classifier may choose (engines.custom_types.TypeCandidate); the
    # CPU reference engine does not guess a tenant's type (docs/custom-document-types.md)
    candidates: tuple[Any, ...] = ()


def _single_document(request: Any, name: str) -> np.ndarray | None:
    """The input's one row (requests carry a batch dimension of 1), or None when absent."""
    tensor = pb_utils.get_input_tensor_by_name(request, name)
    if tensor is None:
        return None
    array = tensor.as_numpy()
    if array.ndim != 2 or array.shape[0] != 1:
        raise InvalidRequest(f"{name} must have shape [1, n]: one document per request")
    return array[0]


def _text(value: object, name: str) -> str:
    try:
        return value.decode("utf-8") if isinstance(value, bytes) else str(value)
    except UnicodeDecodeError:
        raise InvalidRequest(f"{name} is not UTF-8") from None


def parse_request(request: Any, *, max_pages: int) -> DocumentRequest:
    pages_row = _single_document(request, "pages")
    if pages_row is None:  # cannot happen (a required input); no pages at all is the engine's call
        raise InvalidRequest("no pages")
    if len(pages_row) > max_pages:
        raise InvalidRequest(f"{len(pages_row)} pages, at most {max_pages} allowed")
    pages = [bytes(page) for page in pages_row]

    text_row = _single_document(request, "text_layer")
    text_layer = None if text_row is None else [_text(t, "text_layer") for t in text_row]
    if text_layer is not None and len(text_layer) != len(pages):
        raise InvalidRequest(f"text_layer has {len(text_layer)} entries for {len(pages)} pages")

    hint_row = _single_document(request, "document_type_hint")
    hint = _text(hint_row[0], "document_type_hint").strip() if hint_row is not None else ""

    schema_row = _single_document(request, "schema_json")
    schema = None
    if schema_row is not None and _text(schema_row[0], "schema_json").strip():
        try:
            schema = json.loads(_text(schema_row[0], "schema_json"))
        except json.JSONDecodeError:
            raise InvalidRequest("schema_json is not valid JSON") from None
        if not isinstance(schema, dict):
            raise InvalidRequest("schema_json must be a JSON object")

    return DocumentRequest(
        pages=pages,
        text_layer=text_layer,
        document_type_hint=hint or None,
        schema=schema,
        candidates=_candidates(request),
    )


def _candidates(request: Any) -> tuple[Any, ...]:
    """``document_types_json``: the tenant's types, each with its name, description, version and
    schema, checked as a definition is; () when absent."""
    from engines.custom_types import SchemaInvalid, parse_candidates

    row = _single_document(request, "document_types_json")
    text = _text(row[0], "document_types_json").strip() if row is not None else ""
    if not text:
        return ()
    try:
        return parse_candidates(json.loads(text))
    except json.JSONDecodeError:
        raise InvalidRequest("document_types_json is not valid JSON") from None
    except SchemaInvalid as error:
        raise InvalidRequest(f"document_types_json: {error}") from None


def _error(code: str, message: str, triton_code: int) -> Any:
    return pb_utils.InferenceResponse(error=pb_utils.TritonError(f"{code}: {message}", triton_code))


def _where(error: BaseException) -> str:
    """File and line where an unexpected exception was raised (no values: they may be content)."""
    tb = error.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return f"{tb.tb_frame.f_code.co_filename}:{tb.tb_lineno}" if tb is not None else "?"


def load_engine(name: str) -> ReadDocument:
    if name == "cpu-reference":
        from engines.pipeline import read_document

        return read_document
    raise pb_utils.TritonModelException(
        f"doc_pipeline: unknown engine {name!r} (this build has cpu-reference)"
    )


def _blank_page() -> bytes:
    import cv2

    ok, png = cv2.imencode(".png", np.full((64, 64, 3), 255, dtype=np.uint8))
    if not ok:
        raise RuntimeError("OpenCV could not encode a PNG")
    return png.tobytes()


class TritonPythonModel:
    def initialize(self, args: dict[str, str]) -> None:
        config = json.loads(args["model_config"])
        parameters = {key: value["string_value"] for key, value in config.get("parameters", {}).items()}
        self.max_pages = int(parameters.get("max_pages", "200"))
        self.engine_name = parameters.get("engine", "cpu-reference")
        self.read_document = load_engine(self.engine_name)
        self.logger = pb_utils.Logger
        if parameters.get("warmup", "true").lower() == "true":
            self._warm_up()
        self.logger.log_info(f"doc_pipeline: engine {self.engine_name}, at most {self.max_pages} pages")

    def _warm_up(self) -> None:
        """Read a blank page once, so the engine loads its models before the model reports
        ready: the first real document must not spend its deadline loading them."""
        started = time.perf_counter()
        try:
            self.read_document([_blank_page()], context=EngineContext.from_environment())
        except EngineError:
            pass  # a blank page is no document; the models are loaded all the same
        except Exception as error:
            self.logger.log_warn(f"doc_pipeline: warm-up raised {type(error).__name__} at {_where(error)}")
        self.logger.log_info(f"doc_pipeline: warm-up took {(time.perf_counter() - started) * 1000:.0f} ms")

    def execute(self, requests: Sequence[Any]) -> list[Any]:
        # Documents run one after the other: on CPU the engine already uses every core.
        return [self._respond(request) for request in requests]

    def _respond(self, request: Any) -> Any:
        request_id = request.request_id() or "-"
        if request.is_cancelled():  # the client gave up (deadline) while this waited in the queue
            return _error("cancelled", "the client cancelled the request", pb_utils.TritonError.CANCELLED)
        started = time.perf_counter()
        try:
            document = parse_request(request, max_pages=self.max_pages)
            # one context per document, built here: the engine's stages read neither the environment
            # nor the clock, and a server runs for more than a day
            result = self.read_document(
                document.pages,
                document_type_hint=document.document_type_hint,
                text_layer=document.text_layer,
                context=EngineContext.from_environment(),
                # a tenant's own type: its fields read by the generic label reader
                **({"schema": document.schema} if document.schema is not None else {}),
            )
            payload = result.to_json().encode("utf-8")
        except (InvalidRequest, EngineError) as error:
            self.logger.log_info(f"doc_pipeline: request {request_id} failed: {error.code}")
            return _error(error.code, error.message, pb_utils.TritonError.INVALID_ARG)
        except Exception as error:  # an engine bug must fail this document, not the whole batch
            self.logger.log_error(
                f"doc_pipeline: request {request_id} raised {type(error).__name__} at {_where(error)}"
            )
            return _error("engine_internal_error", type(error).__name__, pb_utils.TritonError.INTERNAL)
        elapsed_ms = (time.perf_counter() - started) * 1000
        self.logger.log_verbose(
            f"doc_pipeline: request {request_id}: {len(document.pages)} pages in {elapsed_ms:.0f} ms"
        )
        output = pb_utils.Tensor("result_json", np.array([[payload]], dtype=np.object_))
        return pb_utils.InferenceResponse(output_tensors=[output])
