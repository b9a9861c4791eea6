"""One webhook POST, bounded in total: resolving the host, connecting, the TLS handshake, sending
and reading the answer all end within ``timeout_s`` of the start, whatever the receiver does.

``http.client``'s timeout bounds each socket operation, not the request: a receiver answering one
byte every half second keeps a 1-second request alive for as long as it likes, and with it one of
the webhook worker's threads. Here one monotonic deadline is given to every step:

* the name is resolved in a helper thread, waited for no longer than the time left
  (``getaddrinfo`` takes no timeout; a resolution that hangs keeps its helper thread, not the
  delivery);
* connecting, the TLS handshake and sending each start with the time left as the socket's timeout
  (CPython bounds each of those in total by that timeout);
* every read of the answer (status line, headers, body) sets the socket's timeout to the time
  left, and fails once none is.

Redirects are not followed (a redirect is the receiver's answer, not an instruction to send
personal data elsewhere); header names are sent as written.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import functools
import http.client
import io
import socket
import time
import urllib.parse
from dataclasses import dataclass
from typing import Any

from apps.webhooks import destinations

# Name resolutions of every delivery thread of this process; more than this many hanging at once
# only queue the next ones, which then time out at their own deadline.
_RESOLVER = concurrent.futures.ThreadPoolExecutor(max_workers=8, thread_name_prefix="webhook-dns")
# The most of the receiver's answer body read after its status line (only the status code is kept).
ANSWER_BYTES = 1024


@dataclass(frozen=True)
class PostOutcome:
    status_code: int | None  # None: no answer at all
    error: str  # "" for a 2xx; "timeout", "HTTP 503", "refused: ...", or the socket's error


class Deadline:
    """A point in monotonic time; :meth:`remaining` is what a step may still take."""

    def __init__(self, seconds: float) -> None:
        self._at = time.monotonic() + seconds

    def remaining(self) -> float:
        """Seconds left; ``TimeoutError`` once there are none."""
        left = self._at - time.monotonic()
        if left <= 0:
            raise TimeoutError("the delivery's deadline passed")
        return left


class _DeadlineReader(io.RawIOBase):
    """The socket as a stream whose every read waits at most the time left."""

    def __init__(self, sock: socket.socket, deadline: Deadline) -> None:
        super().__init__()
        self._sock = sock
        self._deadline = deadline

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        self._sock.settimeout(self._deadline.remaining())
        return self._sock.recv_into(buffer)


class _DeadlineResponse(http.client.HTTPResponse):
    """``http.client``'s response, reading the status line, headers and body through a
    :class:`_DeadlineReader` instead of the socket's own file."""

    def __init__(self, sock: socket.socket, *args: Any, deadline: Deadline, **kwargs: Any) -> None:
        super().__init__(sock, *args, **kwargs)
        self.fp.close()  # the socket's own file, not read from yet
        self.fp = io.BufferedReader(_DeadlineReader(sock, deadline))


def _connect(addresses: list[str], port: int, deadline: Deadline) -> socket.socket:
    """A connection to the first of ``addresses`` that accepts one, all within the deadline."""
    error: OSError = OSError("no address to connect to")
    for address in addresses:
        try:
            sock = socket.create_connection((address, port), timeout=deadline.remaining())
        except TimeoutError:
            raise
        except OSError as exc:  # refused, unreachable: the next address may answer
            error = exc
            continue
        sock.settimeout(deadline.remaining())  # what the TLS handshake may take
        return sock
    raise error


def post(url: str, body: bytes, headers: dict[str, str], timeout_s: float) -> PostOutcome:
    """POST ``body`` to ``url`` (checked by :mod:`apps.webhooks.destinations`), all of it within
    ``timeout_s``."""
    deadline = Deadline(timeout_s)
    parts = urllib.parse.urlsplit(url)
    https = parts.scheme == "https"
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    try:
        refusal = destinations.url_refusal(url)
        if refusal:
            raise destinations.DestinationRefusedError(f"callback URL {refusal}")
        host = parts.hostname or ""
        port = parts.port or (443 if https else 80)
        resolving = _RESOLVER.submit(destinations.checked_addresses, host, port)
        try:
            addresses = resolving.result(timeout=deadline.remaining())
        except TimeoutError:
            resolving.cancel()  # if it still waits behind resolutions that hang, it never runs
            raise
        connection_class = http.client.HTTPSConnection if https else http.client.HTTPConnection
        connection = connection_class(host, port, timeout=deadline.remaining())
        # Connect to the addresses that were checked; TLS still verifies the host name.
        connection._create_connection = (  # type: ignore[attr-defined]
            lambda target, *args: _connect(addresses, target[1], deadline)
        )
        connection.response_class = functools.partial(  # type: ignore[assignment]
            _DeadlineResponse, deadline=deadline
        )
        try:
            connection.connect()
            assert connection.sock is not None
            connection.sock.settimeout(deadline.remaining())  # sending is bounded in total by it
            connection.request("POST", path, body=body, headers=headers)
            response = connection.getresponse()
            status = response.status  # the answer: what follows it is read only to be polite
            with contextlib.suppress(TimeoutError, OSError, http.client.HTTPException):
                response.read(ANSWER_BYTES)
        finally:
            connection.close()
    except destinations.DestinationRefusedError as exc:
        return PostOutcome(None, f"refused: {exc}")
    except TimeoutError:
        return PostOutcome(None, "timeout")
    except (OSError, http.client.HTTPException, ValueError) as exc:
        return PostOutcome(None, (str(exc) or type(exc).__name__)[:200])
    return PostOutcome(status, "" if 200 <= status < 300 else f"HTTP {status}")
