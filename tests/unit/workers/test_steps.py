"""workers.steps: the Celery task of each pipeline step, and the domain's requests reaching it
through ``settings.DOCINTEL_STEP_SENDER``. The task names are pinned here: messages already queued,
the routes in the settings and the dispatcher all name them."""

from __future__ import annotations

from typing import Any

import pytest

from apps.documents.steps import PipelineStep, steps_request
from config.celery import app
from workers import steps


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, list[Any]]]:
    calls: list[tuple[str, list[Any]]] = []

    def send_task(name: str, args: list[Any], headers: dict[str, Any]) -> None:
        assert "docintel_sent_at" in headers
        calls.append((name, args))

    monkeypatch.setattr(app, "send_task", send_task)
    return calls


def test_every_step_has_a_registered_task() -> None:
    import workers.tasks  # noqa: F401 — registers the tasks with the app

    assert set(steps.STEP_TASKS) == set(PipelineStep)
    for name in [*steps.STEP_TASKS.values(), *steps.STEP_BATCH_TASKS.values()]:
        assert name in app.tasks, name


def test_the_domain_requests_steps_through_the_setting(sent: list[tuple[str, list[Any]]]) -> None:
    """One document: the step's task; several: the batch task where the step has one, else one each."""
    steps_request(PipelineStep.PREPARE, ["a"])
    steps_request(PipelineStep.PREPARE, ["a", "b"])
    steps_request(PipelineStep.INFER, ["c", "d"])
    steps_request(PipelineStep.VALIDATE, ["e", "f"])
    steps_request(PipelineStep.DECIDE, [])
    assert sent == [
        ("workers.tasks.prepare", ["a"]),
        ("workers.tasks.prepare_batch", [["a", "b"]]),
        ("workers.tasks.infer_batch", [["c", "d"]]),
        ("workers.tasks.validate", ["e"]),
        ("workers.tasks.validate", ["f"]),
    ]


def test_a_broker_outage_is_logged_not_raised(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def down(*args: Any, **kwargs: Any) -> None:
        raise ConnectionError("broker unreachable")

    monkeypatch.setattr(app, "send_task", down)
    steps.steps_send(PipelineStep.INFER, ["a", "b"])
    steps.step_send(PipelineStep.DECIDE, "c")
    assert "could not enqueue workers.tasks.infer for 2 documents" in caplog.text
    assert "could not enqueue workers.tasks.decide for document c" in caplog.text
