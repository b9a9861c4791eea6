"""Helpers for the integration tests on the real stack (PostgreSQL, Redis, a Celery worker, Triton):
the samples' truth, uploads through the API and the web view, and waiting for a document or a
resource to settle."""

from __future__ import annotations

import io
import json
import time
from collections.abc import Callable
from typing import Any

from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from apps.documents.models import Document
from apps.documents.state import IN_FLIGHT as IN_FLIGHT_STATES
from tests.conftest import SAMPLES
from tests.support.uploads import upload

TRUTH = json.loads((SAMPLES / "truth.json").read_text())
# a document's statuses, as the API writes them, while the pipeline still owes it a decision
IN_FLIGHT = {"received", "queued", "processing", "extracted"}


def sample_file(name: str, content: bytes | None = None) -> io.BytesIO:
    """An upload named ``name`` holding ``content``, else the bytes of samples/``name``."""
    handle = io.BytesIO(content if content is not None else (SAMPLES / name).read_bytes())
    handle.name = name
    return handle


def poll(api: APIClient, url: str, done: Callable[[Any], bool], timeout_s: float = 180) -> dict[str, Any]:
    """GET ``url`` every half second until ``done`` holds for its JSON body; fail after ``timeout_s``."""
    deadline = time.monotonic() + timeout_s
    while True:
        body = api.get(url).json()
        if done(body):
            return body
        if time.monotonic() > deadline:
            raise AssertionError(f"not done after {timeout_s} s: {body}")
        time.sleep(0.5)


def web_upload(client: Client, content: bytes, name: str) -> Document:
    """``content`` uploaded through the operators' web form by a logged-in ``client``."""
    response = client.post(reverse("ingestion:upload"), {"file": upload(content, name)})
    assert response.status_code == 302, response.content[:500]
    return Document.objects.get(pk=response["Location"].rstrip("/").split("/")[-1])


def wait_until_settled(document: Document, timeout_s: float = 120) -> Document:
    """``document`` reread until the pipeline no longer holds it; fail after ``timeout_s``."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        document.refresh_from_db()
        if document.status not in IN_FLIGHT_STATES:
            return document
        time.sleep(0.25)
    raise AssertionError(f"document still {document.status} after {timeout_s} s")
