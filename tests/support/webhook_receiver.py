"""An integrator's webhook endpoint for tests: a real HTTP server on 127.0.0.1 that keeps every POST
it is sent and answers each with the next of the statuses it was given (200 once they run out)."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class Receiver:
    """A real HTTP server on 127.0.0.1 answering each POST with the next of ``statuses``."""

    def __init__(self, statuses: list[int] | None = None, *, path: str = "/hook") -> None:
        self.statuses = list(statuses or [])
        self.received: list[tuple[Any, bytes]] = []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["Content-Length"]))
                receiver.received.append((self.headers, body))
                self.send_response(receiver.statuses.pop(0) if receiver.statuses else 200)
                self.end_headers()

            def log_message(self, *args: object) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}{path}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
