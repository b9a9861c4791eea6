"""The ids a log line or a message carries: the request that uploaded a document, and the document.

Set by the web's middleware for a request and by the worker for a task (from the message's
headers), read by the JSON log formatter and by :func:`message_headers` when the next message is
sent, so one id follows a document from its upload through every worker that touches it.
"""

from __future__ import annotations

import contextvars
import time
import uuid
from typing import Any

request_id_var: contextvars.ContextVar[str] = contextvars.ContextVar("docintel_request_id", default="")
document_id_var: contextvars.ContextVar[str] = contextvars.ContextVar("docintel_document_id", default="")

# Message headers (Celery passes unknown headers through to the task's request).
SENT_AT_HEADER = "docintel_sent_at"
REQUEST_ID_HEADER = "docintel_request_id"


def new_request_id() -> str:
    return uuid.uuid4().hex


def clean_request_id(raw: str | None) -> str:
    """A caller's X-Request-ID if it is a plain token (at most 64 of [A-Za-z0-9._-]), else a new one:
    it lands in logs, so nothing else may pass through."""
    if raw and len(raw) <= 64 and all(c.isalnum() or c in "._-" for c in raw):
        return raw
    return new_request_id()


def message_headers() -> dict[str, Any]:
    """Headers for a pipeline message: when it was sent (queue wait) and the request id."""
    headers: dict[str, Any] = {SENT_AT_HEADER: time.time()}
    request_id = request_id_var.get()
    if request_id:
        headers[REQUEST_ID_HEADER] = request_id
    return headers
