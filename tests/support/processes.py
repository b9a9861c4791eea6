"""Helpers for tests that start real servers (Triton, vLLM, Redis, a webhook receiver) as processes:
free local ports to listen on, and the tail of a server's log to print when it fails."""

from __future__ import annotations

import socket
from pathlib import Path

LOG_TAIL_CHARS = 6000


def free_ports(count: int) -> list[int]:
    """``count`` distinct ports on 127.0.0.1 that nothing listens on now (a dev stack keeps its own)."""
    sockets = [socket.socket(socket.AF_INET, socket.SOCK_STREAM) for _ in range(count)]
    try:
        for sock in sockets:  # all bound at once, so the ports are distinct
            sock.bind(("127.0.0.1", 0))
        return [sock.getsockname()[1] for sock in sockets]
    finally:
        for sock in sockets:
            sock.close()


def log_tail(log_path: Path) -> str:
    """The last ``LOG_TAIL_CHARS`` of a server's log, or "(no log)" when it was never written."""
    try:
        return log_path.read_text(errors="replace")[-LOG_TAIL_CHARS:]
    except OSError:
        return "(no log)"
