"""The one interface ``doc_pipeline``'s Gemma 4 variant calls a model through, and its settings.

Two implementations answer it:

* ``openai`` (:mod:`engines.llm.openai_backend`): any OpenAI-compatible engine — vLLM, SGLang,
  TensorRT-LLM's ``trtllm-serve``, NVIDIA Dynamo's frontend — over async HTTP;
* ``tensorrt_llm``: the in-Triton ``llmapi`` models over BLS (it needs ``triton_python_backend_utils``,
  so it lives beside the model: ``model_repo/doc_pipeline/1/gemma4_model.py``).

Both take a :class:`ModelRequest` and return a :class:`engines.llm.pipeline.Generation` (the text,
per-token log-probabilities and character spans, and the engine's token counts), so everything the
pipeline decides is independent of the engine. A call that cannot be answered *now* (the engine
is down, overloaded or slow) raises :class:`ModelUnavailable`: the document waits and is retried,
it never fails for it; an engine that fails the call itself (HTTP 500) raises :class:`ModelFailed`,
retried as well, within the document's attempts.

Settings come from the server's environment (the stub inherits it), with the config.pbtxt
parameters as defaults; :meth:`ModelSettings.from_sources` merges them once at load. Each role has
its own engine URL (a vLLM server serves one model): ``DOCINTEL_CLASSIFY_MODEL_URL`` and
``DOCINTEL_EXTRACT_MODEL_URL``, each defaulting to ``DOCINTEL_MODEL_URL`` — one engine serving both
names, or a router in front of two.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from engines.llm.pipeline import Generation, ModelCall
from engines.llm.readiness import EngineCheck

BackendName = Literal["openai", "tensorrt_llm"]
BACKENDS: tuple[BackendName, ...] = ("openai", "tensorrt_llm")
Role = Literal["classify", "extract"]

# Per-step page budgets (Gemma 4's supported soft-token counts): the classifier needs the layout
# of page 1, the extractor the small print.
CLASSIFY_IMAGE_TOKENS = 280
EXTRACT_IMAGE_TOKENS = 1120


class ModelUnavailable(Exception):
    """The model could not answer now (down, overloaded, timed out): retry the document later."""


class ModelFailed(Exception):
    """The engine answered this call with a server error (HTTP 500): perhaps this very request
    breaks it. Retried like an unavailable engine, but the document's attempts pay for it
    (``doc_pipeline`` answers INTERNAL, not UNAVAILABLE), so a document that breaks the engine
    every time still ends instead of being retried for the whole unavailability window."""


class EngineMisconfigured(ModelUnavailable):
    """The engine answered, and is not configured as doc_pipeline needs: it does not serve the
    model asked for, or refuses the request's page budget (vLLM without
    ``--trust-request-mm-kwargs``). No document is at fault, so none fails: like an outage, the
    document waits (UNAVAILABLE) until an operator fixes the engine (:mod:`engines.llm.readiness`)."""


@dataclass(frozen=True)
class ModelRequest:
    """One model call of one document: which step, the instruction and schema, the pages."""

    role: Role
    call: ModelCall
    images: tuple[str, ...]  # data: URIs, PNG or JPEG
    image_tokens: int  # max_soft_tokens per page


@dataclass(frozen=True)
class ModelSettings:
    backend: BackendName
    classify_url: str  # openai: the /v1 base URL of the engine serving classify_model
    extract_url: str  # openai: the /v1 base URL of the engine serving extract_model
    api_key: str  # openai: sent as a bearer token when set
    classify_model: str
    extract_model: str
    classify_image_tokens: int
    extract_image_tokens: int
    max_in_flight: int  # concurrent calls per doc_pipeline instance (size it to the engine's batch)
    call_timeout_s: float  # one HTTP call, connect to last byte
    wait_s: float  # how long one call keeps retrying an engine that is down before giving up
    retry_base_s: float
    retry_max_s: float

    @classmethod
    def from_sources(
        cls, parameters: Mapping[str, str], environ: Mapping[str, str] | None = None
    ) -> ModelSettings:
        """``DOCINTEL_*`` variables win over config.pbtxt ``parameters``, which win over defaults."""
        env = os.environ if environ is None else environ

        def value(variable: str, parameter: str, default: str) -> str:
            return env.get(variable) or parameters.get(parameter) or default

        backend = value("DOCINTEL_MODEL_BACKEND", "model_backend", "openai").strip().lower()
        if backend not in BACKENDS:
            raise ValueError(f"DOCINTEL_MODEL_BACKEND must be one of {', '.join(BACKENDS)}, not {backend!r}")
        # Model names: served names on an OpenAI endpoint, Triton model names in-process.
        names = {"openai": ("gemma4-e4b", "gemma4-26b-a4b"), "tensorrt_llm": ("gemma4_e4b", "gemma4_26b_a4b")}
        classify_default, extract_default = names[backend]
        shared_url = value("DOCINTEL_MODEL_URL", "model_url", "http://127.0.0.1:8200/v1")
        settings = cls(
            backend=backend,
            classify_url=value("DOCINTEL_CLASSIFY_MODEL_URL", "classify_model_url", shared_url).rstrip("/"),
            extract_url=value("DOCINTEL_EXTRACT_MODEL_URL", "extract_model_url", shared_url).rstrip("/"),
            api_key=env.get("DOCINTEL_MODEL_API_KEY", ""),
            classify_model=value("DOCINTEL_CLASSIFY_MODEL", "classify_model", classify_default),
            extract_model=value("DOCINTEL_EXTRACT_MODEL", "extract_model", extract_default),
            classify_image_tokens=int(
                value("DOCINTEL_CLASSIFY_IMAGE_TOKENS", "classify_image_tokens", str(CLASSIFY_IMAGE_TOKENS))
            ),
            extract_image_tokens=int(
                value("DOCINTEL_EXTRACT_IMAGE_TOKENS", "extract_image_tokens", str(EXTRACT_IMAGE_TOKENS))
            ),
            max_in_flight=int(value("DOCINTEL_MODEL_MAX_IN_FLIGHT", "max_in_flight", "64")),
            call_timeout_s=float(value("DOCINTEL_MODEL_TIMEOUT_S", "call_timeout_s", "60")),
            wait_s=float(value("DOCINTEL_MODEL_WAIT_S", "wait_s", "20")),
            retry_base_s=float(value("DOCINTEL_MODEL_RETRY_BASE_S", "retry_base_s", "0.5")),
            retry_max_s=float(value("DOCINTEL_MODEL_RETRY_MAX_S", "retry_max_s", "5")),
        )
        if settings.max_in_flight < 1 or settings.call_timeout_s <= 0 or settings.wait_s < 0:
            raise ValueError("model settings: max_in_flight >= 1, call_timeout_s > 0 and wait_s >= 0")
        if (
            settings.classify_model == settings.extract_model
            and settings.classify_url != settings.extract_url
        ):
            raise ValueError(
                f"model settings: {settings.classify_model} is both models, at two URLs: "
                "give the roles different model names or one URL"
            )
        return settings

    def model_for(self, role: Role, *, simple: bool) -> str:
        """The classifier model classifies and extracts the simple types; the large one the rest."""
        return self.classify_model if role == "classify" or simple else self.extract_model

    def image_tokens_for(self, role: Role) -> int:
        return self.classify_image_tokens if role == "classify" else self.extract_image_tokens

    def engines(self) -> dict[str, str]:
        """Each served model name with the URL of the engine serving it."""
        return {self.classify_model: self.classify_url, self.extract_model: self.extract_url}

    def url_for(self, model: str) -> str:
        """The engine serving ``model`` (a name :meth:`model_for` gave)."""
        return self.engines()[model]


class ModelBackend(Protocol):
    """What doc_pipeline needs of a model engine."""

    async def generate(self, model: str, request: ModelRequest) -> Generation:
        """The model's guided answer with per-token log-probabilities; raises
        :class:`ModelUnavailable` when the engine cannot answer now."""
        ...

    async def check_ready(self, *, min_model_len: int) -> list[EngineCheck]:
        """Each engine's readiness for the models it must serve (:mod:`engines.llm.readiness`)."""
        ...

    async def close(self) -> None: ...


def describe(settings: ModelSettings) -> dict[str, Any]:
    """The settings for a log line (no key)."""
    return {
        "backend": settings.backend,
        "classify_url": settings.classify_url if settings.backend == "openai" else "-",
        "extract_url": settings.extract_url if settings.backend == "openai" else "-",
        "classify_model": settings.classify_model,
        "extract_model": settings.extract_model,
        "max_in_flight": settings.max_in_flight,
    }
