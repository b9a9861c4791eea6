"""An engine that goes away under load loses no document.

GIVEN documents in flight through Celery → Triton → vLLM, WHEN vLLM is stopped for 60 s and then
started again, THEN every document waits (doc_pipeline retries the engine, then hands the document
back as UNAVAILABLE and the worker retries it with backoff) and all of them reach a decision once
the engine is back: none is ``failed``.
"""

from __future__ import annotations

import io
import time

import pytest
from rest_framework.test import APIClient

pytestmark = [pytest.mark.integration, pytest.mark.slow, pytest.mark.django_db(transaction=True)]
IN_FLIGHT = {"received", "queued", "processing", "extracted"}
DOCUMENTS = 10
OUTAGE_S = 60


def _page(index: int) -> bytes:
    from PIL import Image, ImageDraw, ImageFont

    # print large enough to pass the capture gate (media/capture_quality.py): a page it sent back
    # would never wait for the engine
    image = Image.new("RGB", (700, 900), "white")
    font = ImageFont.load_default(size=28)
    draw = ImageDraw.Draw(image)
    for line, text in enumerate(("CORNER SHOP", f"RECEIPT {index}", f"TOTAL {index}.50 EUR")):
        draw.text((40, 60 + 60 * line + 20 * index), text, fill="black", font=font)
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


def test_documents_wait_for_a_stopped_engine_and_all_complete(tenant, celery_worker_process, vllm_engine):
    from apps.tenants.services import api_key_create

    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Api-Key {api_key_create(tenant=tenant, name='outage').raw_key}")
    urls = []
    for index in range(DOCUMENTS):
        handle = io.BytesIO(_page(index))
        handle.name = f"receipt-{index}.png"
        response = api.post(
            "/api/v1/documents", {"file": handle, "document_type": "receipt"}, format="multipart"
        )
        assert response.status_code == 202, response.content[:300]
        urls.append(response.json()["url"])

    vllm_engine.stop()
    stopped_at = time.monotonic()
    while time.monotonic() - stopped_at < OUTAGE_S:
        statuses = [api.get(url).json()["status"] for url in urls]
        assert "failed" not in statuses, "a document failed while the engine was down"
        time.sleep(2)
    waiting = sum(status in IN_FLIGHT for status in statuses)
    vllm_engine.start()

    deadline = time.monotonic() + 300
    results = {}
    while len(results) < len(urls) and time.monotonic() < deadline:
        for url in urls:
            body = api.get(url).json()
            if body["status"] not in IN_FLIGHT:
                results[url] = body
        time.sleep(1)
    assert len(results) == len(urls), f"{len(urls) - len(results)} documents never completed"
    assert waiting > 0, "the outage began after every document had been read"
    assert {body["status"] for body in results.values()} == {"needs_review"}, [
        body.get("error") for body in results.values()
    ]
