"""Structured logs: one JSON object per line, with the request and document ids of the context.

Lines carry what the code logged (ids, error codes, counts, timings: never document content or
field values) plus the ids bound in :mod:`apps.observability.context`, so the lines of one upload
can be found in the web's and every worker's logs by one ``request_id``. A traceback is reduced to
its exception type and frames (file, line, function): exception messages can quote content.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import re
import traceback
from typing import Any

from apps.observability.context import document_id_var, request_id_var


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "ts": dt.datetime.fromtimestamp(record.created, tz=dt.UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        request_id = getattr(record, "request_id", None) or request_id_var.get()
        document_id = getattr(record, "document_id", None) or document_id_var.get()
        if request_id:
            entry["request_id"] = request_id
        if document_id:
            entry["document_id"] = document_id
        if record.exc_info and record.exc_info[0] is not None:
            exc_type, _exc, tb = record.exc_info
            entry["exception"] = exc_type.__name__
            entry["frames"] = [
                f"{frame.filename}:{frame.lineno}:{frame.name}" for frame in traceback.extract_tb(tb)[-8:]
            ]
        return json.dumps(entry, ensure_ascii=False, default=str)


# A path (or URL) and the query string after it: `/api/v1/batches/…/results.csv?…&signature=…`.
_QUERY = re.compile(r"(?P<path>(?:https?://[^\s/?#\"]+)?/[^\s?#\"]*)\?[^\s#\"]*")


def path_only(text: str) -> str:
    """``text`` with every URL's query string cut off, its path kept."""
    return _QUERY.sub(r"\g<path>", text)


class PathsOnlyFilter(logging.Filter):
    """Keeps the path of every URL a request line logs and drops its query string.

    Queries carry what access logs must not keep: the signature of an expiring export link
    (``apps.api.signed_urls``: whoever reads the log could download the batch until it expires)
    and what operators search for (``?q=`` a name or a document number). Set on the loggers
    that write request lines: Django's development server (``django.server``, LOGGING) and
    gunicorn's access and error logs (``config/gunicorn.py``)."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        cleaned = path_only(message)
        if cleaned != message:
            record.msg, record.args = cleaned, ()
        return True
