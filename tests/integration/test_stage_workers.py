"""The stages as separate processes on separate queues (ARCHITECTURE §5): the web takes uploads,
a CPU worker prepares (and validates + decides), the dispatcher infers, a third worker would send
webhooks; one request id follows each document through all of them, and the web's /metrics
shows every stage. Runs against the null model: the pipeline's own work, no OCR."""

from __future__ import annotations

import io
import json
import re
import time
import urllib.request
import uuid

import pytest
from PIL import Image

from apps.documents.models import Document

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]

IN_FLIGHT = {"received", "queued", "processing", "extracted"}


def _jpeg(seed: int) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (64, 48), (seed % 256, (seed * 7) % 256, 90)).save(buffer, format="JPEG")
    return buffer.getvalue()


def _upload(url: str, key: str, content: bytes, name: str, request_id: str) -> dict:
    boundary = uuid.uuid4().hex
    body = (
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{name}"\r\n'
            "Content-Type: image/jpeg\r\n\r\n"
        ).encode()
        + content
        + f"\r\n--{boundary}--\r\n".encode()
    )
    request = urllib.request.Request(
        f"{url}/api/v1/documents",
        data=body,
        method="POST",
        headers={
            "Authorization": f"Api-Key {key}",
            "Content-Type": f"multipart/form-data; boundary={boundary}",
            "X-Request-ID": request_id,
        },
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        assert response.headers["X-Request-ID"] == request_id
        return json.loads(response.read())


def _settled(ids: list[str], stack, timeout_s: float = 90) -> list[Document]:
    deadline = time.monotonic() + timeout_s
    while True:
        documents = list(Document.objects.filter(pk__in=ids))
        if len(documents) == len(ids) and all(d.status not in IN_FLIGHT for d in documents):
            return documents
        if time.monotonic() > deadline:
            tails = "\n".join(f"--- {name}\n{stack.log_text(name)[-3000:]}" for name in stack.logs)
            raise AssertionError(f"not settled: {sorted(d.status for d in documents)}\n{tails}")
        time.sleep(0.3)


def _metric(text: str, name: str, **labels: str) -> float:
    """The value of one sample of the exposition ``text`` (labels not named may have any value)."""
    from prometheus_client.parser import text_string_to_metric_families

    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == name and all(sample.labels.get(k) == v for k, v in labels.items()):
                return float(sample.value)
    raise AssertionError(f"{name}{labels} not in /metrics:\n{text[-3000:]}")


def test_stages_run_as_separate_processes_on_separate_queues(stage_workers, tenant) -> None:
    """GIVEN web, prepare worker, dispatcher and webhook worker as separate processes
    WHEN ten documents are uploaded through the API
    THEN each is decided; prepare ran in the prepare worker only, inference, validation and the
    decision in the dispatcher only; the upload's request id shows in both workers' JSON logs beside the document id;
    no log holds the file name; and the web's /metrics counts every stage."""
    from apps.tenants.services import api_key_create

    key = api_key_create(tenant=tenant, name="stages").raw_key
    request_id = f"stages-{uuid.uuid4().hex[:12]}"
    ids = [
        _upload(stage_workers.url, key, _jpeg(i), f"Jane-Doe-passport-{i}.jpg", request_id)["id"]
        for i in range(10)
    ]

    documents = _settled(ids, stage_workers)
    assert {d.status for d in documents} == {"needs_review"}, [(d.status, d.error_code) for d in documents]
    assert all(d.extractions.get().engine_name == "null" for d in documents)

    prepare_log = stage_workers.log_text("prepare")
    dispatcher_log = stage_workers.log_text("dispatcher")
    ran = re.compile(r"Task (workers\.tasks\.\w+)\[[^]]+\] succeeded")
    assert set(ran.findall(prepare_log)) == {"workers.tasks.prepare"}
    assert not ran.findall(stage_workers.log_text("webhooks"))
    assert "dispatching " + stage_workers.queues["infer"] in dispatcher_log
    for log in (prepare_log, dispatcher_log):
        lines = [json.loads(line) for line in log.splitlines() if line.startswith("{")]
        tagged = {line.get("document_id") for line in lines if line.get("request_id") == request_id}
        assert tagged & set(ids), "the upload's request id did not reach this worker's logs"
    for name in ("web", "prepare", "dispatcher", "webhooks"):
        assert "Jane-Doe" not in stage_workers.log_text(name)

    with urllib.request.urlopen(f"{stage_workers.url}/metrics", timeout=30) as response:
        text = response.read().decode()
    for stage in ("upload", "prepare", "infer", "validate", "decide"):
        assert _metric(text, "docintel_stage_seconds_count", stage=stage) >= 10, stage
    for stage in ("prepare", "infer"):
        assert _metric(text, "docintel_queue_wait_seconds_count", stage=stage) >= 10, stage
    assert _metric(text, "docintel_end_to_end_seconds_count") >= 10
    assert _metric(text, "docintel_documents_decided_total", outcome="needs_review") >= 10
    assert _metric(text, "docintel_queue_depth", stage="infer", queue=stage_workers.queues["infer"]) == 0
    assert "docintel_triton_requests_in_flight" in text
    assert "docintel_straight_through_ratio" in text


def test_health_probes_of_the_web_answer_without_an_allowed_host(stage_workers) -> None:
    """Kubernetes probes come with the pod's IP as Host: /healthz and /readyz answer them anyway."""
    for path in ("/healthz", "/readyz"):
        request = urllib.request.Request(f"{stage_workers.url}{path}", headers={"Host": "10.1.2.3:8000"})
        with urllib.request.urlopen(request, timeout=10) as response:
            assert response.status == 200
            assert json.loads(response.read())["status"] == "ok"
