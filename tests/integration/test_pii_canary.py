"""No personal data in logs, task messages or error reports, on the real stack.

GIVEN canary values planted everywhere personal data enters: a document whose text holds a name
and a number the engine extracts, its file name, a refused upload's and a failed document's file
names, an operator's correction and escalation note, and a login attempt with an unknown e-mail
WHEN they go through the API, the real Celery worker and Triton, and the review screen
THEN no canary appears in any log line of this process (every logger, at DEBUG), in the worker's
and Triton's logs (every file the test session wrote), in any Celery message this process sent,
or in anything left in the broker's Redis database.
"""

from __future__ import annotations

import io
import json
import logging
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from celery.signals import before_task_publish
from django.conf import settings
from django.urls import reverse
from fpdf import FPDF
from rest_framework.test import APIClient

from apps.documents.models import Document
from apps.review.models import ReviewTask
from apps.tenants.services import api_key_create

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]
CANARIES = ("QXCANARY7731", "ZORBACANARY", "canary.person@example")
IN_FLIGHT = {"received", "queued", "processing", "extracted"}


def _invoice() -> bytes:
    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("helvetica", size=12)
    for line in (
        "ACME SUPPLIES GMBH",
        "INVOICE",
        "Invoice number: QXCANARY7731",
        "Invoice date: 2024-03-01",
        "Bill to: ZORBACANARY HOLDINGS",
        "Subtotal: 100.00 EUR",
        "VAT 19%: 19.00 EUR",  # no total: the invoice goes to a person
    ):
        pdf.cell(text=line, new_x="LMARGIN", new_y="NEXT")
    return bytes(pdf.output())


def _file(name: str, content: bytes) -> io.BytesIO:
    handle = io.BytesIO(content)
    handle.name = name
    return handle


class Capture(logging.Handler):
    """Every record of every logger of this process, formatted with its arguments and exception."""

    def __init__(self) -> None:
        super().__init__(level=logging.DEBUG)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        if record.exc_info:
            text += logging.Formatter().formatException(record.exc_info)
        self.lines.append(f"{record.name} {text} {record.__dict__}")


@pytest.fixture
def captured() -> Iterator[Capture]:
    handler, root = Capture(), logging.getLogger()
    level = root.level
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    try:
        yield handler
    finally:
        root.removeHandler(handler)
        root.setLevel(level)


@pytest.fixture
def published() -> Iterator[list[str]]:
    messages: list[str] = []

    def record(body: object = None, headers: object = None, **kwargs: object) -> None:
        messages.append(json.dumps({"body": body, "headers": headers}, default=str))

    before_task_publish.connect(record, weak=False)
    try:
        yield messages
    finally:
        before_task_publish.disconnect(record)


def _settled(document_id: str, timeout_s: float = 180) -> Document:
    deadline = time.monotonic() + timeout_s
    while True:
        document = Document.objects.get(pk=document_id)
        if document.status not in IN_FLIGHT:
            return document
        assert time.monotonic() < deadline, f"document still {document.status}"
        time.sleep(0.3)


def _found(text: str) -> list[str]:
    lowered = text.lower()
    return [c for c in CANARIES if c.lower() in lowered]


def test_canary_values_never_reach_a_log_a_task_message_or_the_broker(
    celery_worker_process, tenant, operator, client, captured, published, tmp_path_factory
):
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Api-Key {api_key_create(tenant=tenant, name='pii').raw_key}")
    # a document whose fields are canaries, under a canary file name
    accepted = api.post(
        "/api/v1/documents", {"file": _file("ZORBACANARY-invoice.pdf", _invoice())}, format="multipart"
    )
    assert accepted.status_code == 202, accepted.json()
    # a refused upload and a document that fails, both named after the canary
    refused = api.post(
        "/api/v1/documents", {"file": _file("ZORBACANARY.txt", b"plain text")}, format="multipart"
    )
    assert refused.status_code == 415
    broken = api.post(
        "/api/v1/documents",
        {"file": _file("QXCANARY7731-scan.jpg", b"\xff\xd8\xff\xe0" + b"\x13" * 2000)},
        format="multipart",
    )
    assert broken.status_code == 202
    document = _settled(accepted.json()["id"])
    assert {f.value for f in document.extractions.get().fields.all()} >= {
        "QXCANARY7731",
        "ZORBACANARY HOLDINGS",
    }
    assert _settled(broken.json()["id"]).error_code == "unreadable_image"

    # an operator corrects a field and escalates with a note naming the canary
    task = ReviewTask.objects.get(document=document)
    client.force_login(operator)
    client.post(reverse("review:task_next"))
    client.post(
        reverse("review:field_correct", args=[task.pk, "customer_name"]), {"value": "ZORBACANARY CORRECTED"}
    )
    client.post(reverse("review:task_escalate", args=[task.pk]), {"note": "call ZORBACANARY back"})
    task.refresh_from_db()
    assert task.escalation_note == "call ZORBACANARY back" and task.corrections.exists()
    client.logout()
    # a login attempt with a person's e-mail as the user name
    client.post(reverse("login"), {"username": "canary.person@example.com", "password": "x"})
    time.sleep(1.0)  # the worker's last log lines reach its file

    leaks: dict[str, list[str]] = {}
    for line in captured.lines:
        if _found(line):
            leaks.setdefault("this process's log", []).append(line[:300])
    for message in published:
        if _found(message):
            leaks.setdefault("Celery messages sent", []).append(message[:300])
    session_files = [p for p in tmp_path_factory.getbasetemp().rglob("*") if p.is_file()]
    assert Path(celery_worker_process) in session_files  # the worker's log is among them
    for path in session_files:
        found = _found(path.read_bytes().decode("utf-8", "replace"))
        if found:
            leaks.setdefault(str(path), []).extend(found)
    broker = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    for key in broker.scan_iter():
        dump = broker.dump(key) or b""
        if _found(dump.decode("latin-1")):
            leaks.setdefault("broker", []).append(key.decode())
    assert not leaks, json.dumps(leaks, indent=1)
    assert len(captured.lines) > 10 and published  # the test did watch something
