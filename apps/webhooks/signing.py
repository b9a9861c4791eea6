"""How a webhook is signed, and how a receiver checks it (ARCHITECTURE §3.4).

Headers of every delivery:

``X-DocIntel-Signature: sha256=<hex>``
    HMAC-SHA256 of the raw body under the tenant's webhook secret (the contract).
``X-DocIntel-Timestamp: <unix seconds>``
    When this attempt was sent.
``X-DocIntel-Signature-Timestamped: sha256=<hex>``
    HMAC-SHA256 of ``<timestamp>.<body>``: binds the timestamp to the body, so a receiver that
    refuses timestamps older than a few minutes (and remembers ``X-DocIntel-Delivery`` ids) cannot
    be fed a recorded delivery again. :func:`verify` requires both timestamp headers.
``X-DocIntel-Event``, ``X-DocIntel-Delivery``
    The event (``document.decided``, ``document.reviewed``, ``document.failed``,
    ``case.decided``) and the delivery's id (the same on every retry and redrive of one delivery).
"""

from __future__ import annotations

import hashlib
import hmac
import time

SIGNATURE_HEADER = "X-DocIntel-Signature"
TIMESTAMP_HEADER = "X-DocIntel-Timestamp"
TIMESTAMPED_SIGNATURE_HEADER = "X-DocIntel-Signature-Timestamped"
EVENT_HEADER = "X-DocIntel-Event"
DELIVERY_HEADER = "X-DocIntel-Delivery"
DEFAULT_TOLERANCE_S = 300


def _hmac_hex(secret: str, message: bytes) -> str:
    return hmac.new(secret.encode("utf-8"), message, hashlib.sha256).hexdigest()


def sign(*, secret: str, body: bytes) -> str:
    return f"sha256={_hmac_hex(secret, body)}"


def sign_timestamped(*, secret: str, body: bytes, timestamp: int) -> str:
    return f"sha256={_hmac_hex(secret, str(timestamp).encode() + b'.' + body)}"


def signature_headers(*, secret: str, body: bytes, timestamp: int | None = None) -> dict[str, str]:
    timestamp = int(time.time()) if timestamp is None else timestamp
    return {
        SIGNATURE_HEADER: sign(secret=secret, body=body),
        TIMESTAMP_HEADER: str(timestamp),
        TIMESTAMPED_SIGNATURE_HEADER: sign_timestamped(secret=secret, body=body, timestamp=timestamp),
    }


def verify(
    *,
    secret: str,
    body: bytes,
    signature: str | None,
    timestamp: str | None,
    timestamped_signature: str | None,
    tolerance_s: int = DEFAULT_TOLERANCE_S,
    now: float | None = None,
) -> bool:
    """What a receiver does (written for receivers to copy): pass the three headers as received
    (``None`` for one that is missing). True only when the body's signature matches, the
    timestamp is within ``tolerance_s`` of now, and the timestamped signature binds that timestamp
    to this body: a request missing any of them is refused, since a signature without its time
    could be a recorded delivery sent again (a replay). Remember ``X-DocIntel-Delivery`` ids too:
    a retry of a delivery you already processed carries the same id."""
    if not signature or not timestamp or not timestamped_signature:
        return False
    if not hmac.compare_digest(signature, sign(secret=secret, body=body)):
        return False
    try:
        sent = int(timestamp)
    except ValueError:
        return False
    if abs((time.time() if now is None else now) - sent) > tolerance_s:
        return False
    expected = sign_timestamped(secret=secret, body=body, timestamp=sent)
    return hmac.compare_digest(timestamped_signature, expected)
