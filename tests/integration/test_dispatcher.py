"""The inference dispatcher (workers/dispatcher.py) against the real Triton with sim_gpu, on the
real broker and database: many documents in flight, full batches, messages acknowledged only once
the result is stored, and a re-delivered message harmless."""

from __future__ import annotations

import asyncio
import io
import threading
import time
import uuid
from collections import Counter

import pytest
from PIL import Image

from apps.audit.models import AuditEvent
from apps.documents.models import Document, DocumentStatus

DECIDED = [DocumentStatus.AUTO_APPROVED, DocumentStatus.NEEDS_REVIEW]

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def _png(seed: int) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (32, 24), (seed % 256, 40, 90)).save(buffer, format="PNG")
    return buffer.getvalue()


@pytest.fixture(autouse=True)
def _no_capture_gate(settings) -> None:
    """The pages here are 32 x 24 colour swatches that the capture gate would send back before
    inference: these tests measure the dispatcher, not the capture (tests/unit/documents/test_capture_gate.py)."""
    settings.DOCINTEL_CAPTURE_GATE = False


@pytest.fixture
def no_pipeline_messages(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    """Pipeline messages are recorded (task name, document id) instead of sent: this test alone
    decides what is queued, so no other worker of the session can take its documents."""
    from workers import steps

    sent: list[tuple[str, str]] = []

    def record(step, document_id: str) -> None:
        sent.append((steps.STEP_TASKS[step], document_id))

    def record_each(step, document_ids) -> None:
        for document_id in document_ids:
            record(step, document_id)

    # the domain's requests (settings.DOCINTEL_STEP_SENDER names steps.steps_send), the workers' own
    monkeypatch.setattr(steps, "steps_send", record_each)
    monkeypatch.setattr(steps, "step_send", record)
    monkeypatch.setattr("workers.dispatcher.step_send", record)
    return sent


def _prepared_documents(tenant, count: int) -> list[str]:
    from apps.documents.pipeline import document_prepare
    from apps.documents.services import document_upload

    ids = []
    for i in range(count):
        document = document_upload(
            tenant=tenant, content=_png(i), original_name=f"{i}.png", uploaded_by=None
        ).document
        document_prepare(document_id=str(document.pk))
        ids.append(str(document.pk))
    return ids


def _run_dispatcher(url: str, queue: str, max_in_flight: int | None) -> tuple[threading.Thread, list]:
    from workers.dispatcher import DispatcherSettings, run

    state: list = []

    def target() -> None:
        async def main() -> None:
            stop = asyncio.Event()
            state.append((asyncio.get_running_loop(), stop))
            await run(
                DispatcherSettings(
                    url=url, model="sim_gpu", queue_name=queue, timeout_s=60, max_in_flight=max_in_flight
                ),
                stop=stop,
            )

        asyncio.run(main())

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    return thread, state


def _stop(thread: threading.Thread, state: list) -> None:
    loop, stop = state[0]
    loop.call_soon_threadsafe(stop.set)
    thread.join(timeout=60)
    assert not thread.is_alive()


def _sim_gpu_counts(url: str) -> tuple[int, int]:
    import tritonclient.grpc as grpcclient

    stats = grpcclient.InferenceServerClient(url).get_inference_statistics("sim_gpu", as_json=True)
    model = stats["model_stats"][0]
    return int(model.get("inference_count", 0)), int(model.get("execution_count", 0))


def _queue_length(queue: str) -> int:
    from config.celery import app

    with app.connection_for_read() as connection:
        return int(connection.default_channel.client.llen(queue))


def test_dispatcher_keeps_many_requests_in_flight_and_fills_sim_gpu_batches(
    triton_sim_server: str, tenant, no_pipeline_messages
) -> None:
    """GIVEN 64 prepared documents and a dispatcher sized from sim_gpu's batch capacity (32 x 1 x 4)
    WHEN their infer messages arrive THEN all 64 are extracted in a handful of batches, in about
    two batches' time (one at a time would take 64 x 152 ms), each is validated and decided in the
    same step (no validate or decide message; both state changes audited), and no message is left
    in the queue or unacknowledged."""
    from config.celery import app

    ids = _prepared_documents(tenant, 64)
    queue = f"dispatcher-test-{uuid.uuid4().hex[:8]}"
    inferences_before, executions_before = _sim_gpu_counts(triton_sim_server)
    thread, state = _run_dispatcher(triton_sim_server, queue, max_in_flight=None)
    try:
        started = time.monotonic()
        for document_id in ids:
            app.send_task("workers.tasks.infer", args=[document_id], queue=queue)
        deadline = started + 60
        while Document.objects.filter(pk__in=ids, status__in=DECIDED).count() < len(ids):
            assert time.monotonic() < deadline, "documents not extracted in time"
            time.sleep(0.05)
        elapsed = time.monotonic() - started
    finally:
        _stop(thread, state)

    inferences, executions = _sim_gpu_counts(triton_sim_server)
    assert inferences - inferences_before == 64
    assert executions - executions_before <= 6, "the batches were not full"
    assert elapsed < 64 * 0.152 / 4, f"{elapsed:.2f} s for 64 documents: not many in flight"
    assert {t for t, _ in no_pipeline_messages} == {"workers.tasks.prepare"}  # the uploads' only
    moves = Counter(
        (e.data["from"], e.data["to"])
        for e in AuditEvent.objects.filter(object_id__in=ids, action="document.status_changed")
    )
    decided = Counter(("extracted", d.status) for d in Document.objects.filter(pk__in=ids))
    steps = Counter(
        {("received", "queued"): 64, ("queued", "processing"): 64, ("processing", "extracted"): 64}
    )
    assert moves == steps + decided
    assert _queue_length(queue) == 0


def test_a_redelivered_infer_message_changes_nothing(
    triton_sim_server: str, tenant, no_pipeline_messages
) -> None:
    """GIVEN a decided document WHEN its infer message arrives again THEN it keeps its one
    extraction and its one decision, and nothing is sent."""
    from config.celery import app

    (document_id,) = _prepared_documents(tenant, 1)
    queue = f"dispatcher-test-{uuid.uuid4().hex[:8]}"
    thread, state = _run_dispatcher(triton_sim_server, queue, max_in_flight=4)
    try:
        for _ in range(2):
            app.send_task("workers.tasks.infer", args=[document_id], queue=queue)
            deadline = time.monotonic() + 30
            while not Document.objects.filter(pk=document_id, status__in=DECIDED).exists():
                assert time.monotonic() < deadline
                time.sleep(0.05)
        deadline = time.monotonic() + 10
        while _queue_length(queue) and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.3)
    finally:
        _stop(thread, state)
    document = Document.objects.get(pk=document_id)
    assert document.extractions.count() == 1
    assert AuditEvent.objects.filter(object_id=document_id, data__to=document.status).count() == 1
    assert no_pipeline_messages == [("workers.tasks.prepare", document_id)]  # the upload's


def test_a_message_of_many_documents_is_taken_apart_and_acknowledged_once_all_are_decided(
    triton_sim_server: str, tenant, no_pipeline_messages
) -> None:
    """GIVEN 48 prepared documents sent as three infer_batch messages of 16 (what a prepare batch
    sends) WHEN the dispatcher takes them THEN every document is decided, in full sim_gpu batches,
    and each message is acknowledged (none left in the queue after the dispatcher stops, when an
    unacknowledged one would go back to it)."""
    from config.celery import app

    ids = _prepared_documents(tenant, 48)
    queue = f"dispatcher-test-{uuid.uuid4().hex[:8]}"
    inferences_before, executions_before = _sim_gpu_counts(triton_sim_server)
    thread, state = _run_dispatcher(triton_sim_server, queue, max_in_flight=None)
    try:
        for start in range(0, 48, 16):
            app.send_task("workers.tasks.infer_batch", args=[ids[start : start + 16]], queue=queue)
        deadline = time.monotonic() + 60
        while Document.objects.filter(pk__in=ids, status__in=DECIDED).count() < len(ids):
            assert time.monotonic() < deadline, "documents not decided in time"
            time.sleep(0.05)
    finally:
        _stop(thread, state)
    inferences, executions = _sim_gpu_counts(triton_sim_server)
    assert inferences - inferences_before == 48
    assert executions - executions_before <= 5, "the batches were not full"
    assert _queue_length(queue) == 0
