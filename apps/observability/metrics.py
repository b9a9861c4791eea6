"""Prometheus metrics of the pipeline (served at ``/metrics``; README "Observability").

Every process records into prometheus_client's registry. Where several processes of one host
share the work (the web server's workers, Celery workers, the dispatcher), setting
``PROMETHEUS_MULTIPROC_DIR`` before they start makes each write its values to that folder and
``/metrics`` sums them (``make up`` does this); in a cluster each worker pod serves its own
``/metrics`` on ``DOCINTEL_METRICS_PORT`` (``apps.observability.exporter``).

Recording costs a microsecond or so: no network, no database.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any, ParamSpec, TypeVar

from django.utils import timezone
from prometheus_client import Counter, Gauge, Histogram

P = ParamSpec("P")
R = TypeVar("R")

# Seconds, from a cheap pipeline step (milliseconds) to a long OCR call or a deep queue (minutes).
_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600)

STAGES = ("upload", "prepare", "infer", "validate", "decide", "advisory")

STAGE_SECONDS = Histogram(
    "docintel_stage_seconds",
    "Time a pipeline stage spent on one document (upload: accepted by the web; infer: engine call "
    "with reading the pages and storing the result; advisory: the authenticity signals, after the decision).",
    ["stage"],
    buckets=_BUCKETS,
)
QUEUE_WAIT_SECONDS = Histogram(
    "docintel_queue_wait_seconds",
    "Time a document's message waited in its queue before a worker took it, by the stage it waited for.",
    ["stage"],
    buckets=_BUCKETS,
)
END_TO_END_SECONDS = Histogram(
    "docintel_end_to_end_seconds",
    "Upload to decision (auto_approved or needs_review) of one document.",
    buckets=_BUCKETS,
)
TRITON_IN_FLIGHT = Gauge(
    "docintel_triton_requests_in_flight",
    "Requests sent to Triton and not answered yet.",
    multiprocess_mode="livesum",
)
TRITON_ERRORS = Counter(
    "docintel_triton_errors_total",
    "Failed Triton calls: unavailable (retried) or engine (the model refused the document).",
    ["kind"],
)
DOCUMENTS_DECIDED = Counter(
    "docintel_documents_decided_total",
    "Documents decided, by outcome; auto_approved / all is the straight-through rate.",
    ["outcome"],
)
DOCUMENTS_FAILED = Counter("docintel_documents_failed_total", "Documents failed, by error code.", ["code"])
CAPTURE_RESUBMISSIONS = Counter(
    "docintel_capture_resubmissions_total",
    "Documents sent back for a new photo before any inference, by capture-quality reason.",
    ["reason"],
)
AUTHENTICITY_FLAGS = Counter(
    "docintel_authenticity_flags_total",
    "Documents whose page images an advisory authenticity signal flagged, by signal.",
    ["signal"],
)
MODEL_STEPS = ("classify", "extract")
MODEL_TOKENS = Counter(
    "docintel_model_tokens_total",
    "Tokens the Gemma 4 engine read (prompt, image soft tokens included) and wrote (answer), by step.",
    ["step", "kind"],
)
MODEL_CALL_SECONDS = Histogram(
    "docintel_model_call_seconds",
    "Latency of one Gemma 4 engine call as doc_pipeline measured it, by step.",
    ["step"],
    buckets=_BUCKETS,
)


def stage_observe(stage: str, seconds: float) -> None:
    STAGE_SECONDS.labels(stage).observe(seconds)


def queue_wait_observe(stage: str, sent_at: float | None, now: float | None = None) -> None:
    """Record how long a message sent at ``sent_at`` (Unix time) waited; clocks of different hosts
    can disagree by a little, so a negative wait counts as none."""
    if sent_at is None:
        return
    QUEUE_WAIT_SECONDS.labels(stage).observe(max(0.0, (now or time.time()) - sent_at))


@contextmanager
def stage_timer(stage: str) -> Iterator[None]:
    started = time.perf_counter()
    try:
        yield
    finally:
        stage_observe(stage, time.perf_counter() - started)


@contextmanager
def triton_call() -> Iterator[None]:
    """Count a Triton request as in flight while it runs."""
    TRITON_IN_FLIGHT.inc()
    try:
        yield
    finally:
        TRITON_IN_FLIGHT.dec()


def document_transitioned(*, target: str, created_at: datetime, error_code: str = "") -> None:
    """Count a decision (with its upload-to-decision time) or a failure, once it committed."""
    if target in ("auto_approved", "needs_review"):
        DOCUMENTS_DECIDED.labels(target).inc()
        END_TO_END_SECONDS.observe(max(0.0, (timezone.now() - created_at).total_seconds()))
    elif target == "failed":
        DOCUMENTS_FAILED.labels(error_code or "internal_error").inc()


def page_checks_observe(*, checks: list[dict[str, Any]], sent_back: bool) -> None:
    """Count a document's capture-quality reasons (when it was sent back) and its flagged
    authenticity signals, from the checks the prepare step (capture) or the advisory step
    (authenticity, apps.documents.advisory) stored."""
    failed = [c for c in checks if not c.get("passed")]
    if sent_back:
        for reason in sorted({c.get("reason") or c["name"] for c in failed if c.get("kind") == "capture"}):
            CAPTURE_RESUBMISSIONS.labels(reason).inc()
    for name in sorted({c["name"] for c in failed if c.get("kind") == "authenticity"}):
        AUTHENTICITY_FLAGS.labels(name.removeprefix("authenticity_")).inc()


def stage_timed(stage: str) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Decorator: every call's duration goes to ``docintel_stage_seconds{stage=...}``."""

    def decorate(function: Callable[P, R]) -> Callable[P, R]:
        @functools.wraps(function)
        def timed(*args: P.args, **kwargs: P.kwargs) -> R:
            with stage_timer(stage):
                return function(*args, **kwargs)

        return timed

    return decorate


def model_usage_observe(timings_ms: dict[str, int]) -> None:
    """Token counts and engine latency of a model-read result (``<step>_prompt_tokens``,
    ``<step>_answer_tokens``, ``<step>_engine`` in its timings; a reference-engine result has none)."""
    for step in MODEL_STEPS:
        if f"{step}_engine" not in timings_ms:
            continue
        MODEL_CALL_SECONDS.labels(step).observe(timings_ms[f"{step}_engine"] / 1000)
        for kind in ("prompt", "answer"):
            MODEL_TOKENS.labels(step, kind).inc(max(0, int(timings_ms.get(f"{step}_{kind}_tokens", 0))))
