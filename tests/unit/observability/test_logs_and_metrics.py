"""Structured logs without content, request ids, the /metrics endpoint and the health probes."""

from __future__ import annotations

import json
import logging

import pytest

from apps.observability.context import clean_request_id, document_id_var, request_id_var
from apps.observability.logging import JsonFormatter


def _record(message: str, *args: object, exc: BaseException | None = None) -> logging.LogRecord:
    exc_info = (type(exc), exc, exc.__traceback__) if exc is not None else None
    return logging.LogRecord("docintel.test", logging.ERROR, __file__, 1, message, args, exc_info)


def test_a_json_line_carries_the_bound_ids_and_a_traceback_without_its_message() -> None:
    """GIVEN a request and a document bound to the context WHEN an exception whose text quotes
    document content is logged THEN the line has both ids and the exception type, not its text."""
    try:
        raise ValueError("surname ERIKSSON is invalid")
    except ValueError as error:
        caught = error
    request_token = request_id_var.set("req-1")
    document_token = document_id_var.set("doc-1")
    try:
        line = JsonFormatter().format(_record("prepare failed for document %s", "doc-1", exc=caught))
    finally:
        request_id_var.reset(request_token)
        document_id_var.reset(document_token)
    entry = json.loads(line)
    assert (entry["request_id"], entry["document_id"], entry["exception"]) == ("req-1", "doc-1", "ValueError")
    assert entry["frames"] and "ERIKSSON" not in line


@pytest.mark.parametrize(
    ("given", "kept"),
    [("abc-123_x.y", True), ("", False), ("a" * 65, False), ("bad id\nforged-line", False)],
)
def test_only_a_plain_token_is_kept_as_request_id(given: str, kept: bool) -> None:
    assert (clean_request_id(given) == given) is kept


@pytest.mark.django_db
def test_metrics_exposes_the_stage_histograms(client) -> None:
    from apps.observability import metrics

    metrics.stage_observe("prepare", 0.02)
    response = client.get("/metrics")
    assert response.status_code == 200
    text = response.content.decode()
    for name in ("docintel_stage_seconds_bucket", "docintel_queue_wait_seconds", "docintel_end_to_end_seconds",
                 "docintel_triton_requests_in_flight", "docintel_documents", "docintel_straight_through_ratio"):  # fmt: skip
        assert name in text
    assert 'docintel_stage_seconds_count{stage="prepare"}' in text


@pytest.mark.django_db
def test_metrics_answers_404_without_the_token_when_one_is_set(client, settings) -> None:
    settings.DOCINTEL_METRICS_TOKEN = "s3cret"
    assert client.get("/metrics").status_code == 404
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer s3cret").status_code == 200


@pytest.mark.django_db
def test_the_probes_answer_whatever_the_host_and_return_the_request_id(client) -> None:
    assert client.get("/healthz", HTTP_HOST="10.0.0.7:8000").json() == {"status": "ok"}
    ready = client.get("/readyz", HTTP_HOST="10.0.0.7:8000")
    assert ready.status_code == 200, ready.content
    answer = client.get("/login/", HTTP_X_REQUEST_ID="trace-42")
    assert answer["X-Request-ID"] == "trace-42"
