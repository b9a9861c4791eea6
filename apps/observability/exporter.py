"""/metrics, /healthz and /readyz of a worker process, on its own port (``DOCINTEL_METRICS_PORT``).

The web server answers these paths itself; a Celery worker or the inference dispatcher has no
HTTP server, so this small one runs in a daemon thread beside it. Kubernetes probes and the
Prometheus scraper reach each worker pod here (deploy/).
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from prometheus_client import CONTENT_TYPE_LATEST

from apps.observability.exposition import metrics_text
from apps.observability.metrics_auth import metrics_authorized
from apps.observability.middleware import LIVE_PATH, READY_PATH

logger = logging.getLogger(__name__)

METRICS_PATH = "/metrics"
PATHS = (METRICS_PATH, LIVE_PATH, READY_PATH)


def start_exporter(
    port: int,
    *,
    live: Callable[[], bool],
    ready: Callable[[], list[str]],
    address: str = "0.0.0.0",  # probes and the scraper come from outside the pod
) -> ThreadingHTTPServer:
    """Serve the three paths on ``port`` until the process ends; returns the server (``.server_port``)."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            if self.path == METRICS_PATH:
                if metrics_authorized(self.headers.get("Authorization")):
                    self._send(200, metrics_text(), CONTENT_TYPE_LATEST)
                else:  # the token, as the web server's /metrics asks (apps.observability.metrics_auth)
                    self._json(404, {"status": "not found"})
            elif self.path == LIVE_PATH:
                ok = live()
                self._json(200 if ok else 503, {"status": "ok" if ok else "stalled"})
            elif self.path == READY_PATH:
                problems = ready()
                body: dict[str, object] = (
                    {"status": "unavailable", "failing": problems} if problems else {"status": "ok"}
                )
                self._json(503 if problems else 200, body)
            else:
                self._json(404, {"status": "not found"})

        def _json(self, status: int, body: dict[str, object]) -> None:
            self._send(status, json.dumps(body).encode(), "application/json")

        def _send(self, status: int, body: bytes, content_type: str) -> None:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: object) -> None:
            # probes come every few seconds: no access log
            return

    server = ThreadingHTTPServer((address, port), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, name="metrics-exporter", daemon=True).start()
    logger.info("metrics and health on port %d", server.server_port)
    return server
