"""Which engine reads a document's pages: the CPU engine in-process, or Triton over gRPC.

Both return the same ``EngineResult``; ``manage.py extract --engine`` and the infer step pick one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from django.conf import settings

from engines.types import EngineResult

ENGINE_CHOICES = ("local", "triton")


class DocumentReader(Protocol):
    def read_document(
        self, pages: Sequence[bytes], *, document_type_hint: str | None = None
    ) -> EngineResult: ...


class LocalReader:
    """The CPU reference engine in this process (no server needed)."""

    def read_document(self, pages: Sequence[bytes], *, document_type_hint: str | None = None) -> EngineResult:
        from engines.pipeline import read_document

        return read_document(pages, document_type_hint=document_type_hint)


def reader_for(engine: str) -> DocumentReader:
    if engine == "local":
        return LocalReader()
    if engine == "triton":
        from workers.triton_client import TritonEngineClient

        return TritonEngineClient(settings.DOCINTEL_TRITON_URL, timeout_s=settings.DOCINTEL_TRITON_TIMEOUT_S)
    raise ValueError(f"unknown engine {engine!r}; choose one of {', '.join(ENGINE_CHOICES)}")
