"""Which engine reads a document's pages: the CPU engine in-process, or Triton over gRPC.

Both return the same ``EngineResult``; ``manage.py extract --engine`` and the infer step pick one.
"""

from __future__ import annotations

import atexit
import functools
import json
from collections.abc import Sequence
from typing import Protocol

from django.conf import settings

from engines.types import EngineContext, EngineResult

ENGINE_CHOICES = ("local", "triton")


class DocumentReader(Protocol):
    def read_document(
        self,
        pages: Sequence[bytes],
        *,
        document_type_hint: str | None = None,
        text_layer: Sequence[str] | None = None,
        schema_json: str | None = None,
        document_types_json: str | None = None,
    ) -> EngineResult: ...


class LocalReader:
    """The CPU reference engine in this process (no server needed). ``context``: the engine's
    context for every document (a fixed date, other settings); by default one is built from the
    environment per document, as the Triton model builds one per request."""

    def __init__(self, context: EngineContext | None = None) -> None:
        self.context = context

    def read_document(
        self,
        pages: Sequence[bytes],
        *,
        document_type_hint: str | None = None,
        text_layer: Sequence[str] | None = None,
        schema_json: str | None = None,
        document_types_json: str | None = None,
    ) -> EngineResult:
        # document_types_json (the tenant's types a classifier may choose) is the Gemma 4 path's:
        # the CPU engine reads a tenant's type only when the upload names it
        from engines.pipeline import read_document

        context = self.context if self.context is not None else EngineContext.from_environment()
        return read_document(
            pages,
            document_type_hint=document_type_hint,
            text_layer=text_layer,
            context=context,
            schema=json.loads(schema_json) if schema_json else None,
        )


@functools.lru_cache(maxsize=4)
def _triton_client(url: str, timeout_s: float, model: str) -> DocumentReader:
    """One gRPC channel per server and process, shared by every task (channels are thread-safe)."""
    from media.triton_client import TritonEngineClient

    return TritonEngineClient(url, timeout_s=timeout_s, model=model)


# Drop the cached clients while gRPC is still importable: their __del__ fails at interpreter teardown.
atexit.register(_triton_client.cache_clear)


def reader_for(engine: str) -> DocumentReader:
    if engine == "local":
        return LocalReader()
    if engine == "triton":
        return _triton_client(
            settings.DOCINTEL_TRITON_URL, settings.DOCINTEL_TRITON_TIMEOUT_S, settings.DOCINTEL_TRITON_MODEL
        )
    raise ValueError(f"unknown engine {engine!r}; choose one of {', '.join(ENGINE_CHOICES)}")
