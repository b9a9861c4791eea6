"""Where a webhook may be sent: the guard against server-side request forgery.

A callback URL is chosen by an API client, and the delivery carries a document's personal data
from inside the bank's network. Without a guard, a client could point it at the metadata service
(169.254.169.254), at the database's admin port or at any host only DocIntel can reach. So, unless
``DOCINTEL_WEBHOOK_ALLOW_PRIVATE_NETWORKS`` is set (development, tests, an on-premises receiver):

* at upload, a URL naming ``localhost`` or a non-public IP literal is refused (a 4xx the client
  sees at once);
* at delivery, the host name is resolved and refused if *any* of its addresses is not public, and
  the connection goes to the address that was checked — so a DNS answer that changes between the
  check and the connection (DNS rebinding) cannot redirect it.

Hosts listed in ``DOCINTEL_WEBHOOK_ALLOWED_HOSTS`` pass whatever they resolve to (a receiver
inside the network on purpose).
"""

from __future__ import annotations

import ipaddress
import socket
import urllib.parse

from django.conf import settings

_LOCAL_NAMES = frozenset({"localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback"})


class DestinationRefusedError(Exception):
    """This URL must not receive a delivery; the message says why (no personal data in it)."""


def _private_allowed() -> bool:
    return bool(getattr(settings, "DOCINTEL_WEBHOOK_ALLOW_PRIVATE_NETWORKS", False))


def _allowed_host(host: str) -> bool:
    allowed = {name.lower().rstrip(".") for name in getattr(settings, "DOCINTEL_WEBHOOK_ALLOWED_HOSTS", [])}
    return host.lower().rstrip(".") in allowed


def _is_public(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_global and not ip.is_multicast


def url_refusal(url: str) -> str | None:
    """Why ``url`` cannot be a callback URL without resolving it (``None`` when it may be one)."""
    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("http", "https"):
        return "must be an http or https URL"
    host = (parts.hostname or "").rstrip(".")
    if not host:
        return "must name a host"
    try:
        parts.port  # noqa: B018 — raises on a port out of range
    except ValueError:
        return "has an invalid port"
    if parts.username or parts.password:
        return "must not carry credentials"
    if _private_allowed() or _allowed_host(host):
        return None
    if host.lower() in _LOCAL_NAMES or host.lower().endswith(".localhost"):
        return "must not point at this server (localhost)"
    try:
        literal = ipaddress.ip_address(host)
    except ValueError:
        return None
    if not _is_public(str(literal)):
        return "must not point at a private, loopback or link-local address"
    return None


def checked_address(host: str, port: int) -> str | None:
    """The address to connect to for ``host``, every resolved address having been checked.

    ``None`` means "connect by name" (private networks allowed, or an allow-listed host).
    Raises :class:`DestinationRefusedError` for a non-public address and :class:`OSError` when
    the name does not resolve (a retryable failure, like a refused connection)."""
    if _private_allowed() or _allowed_host(host):
        return None
    addresses = [info[4][0] for info in socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)]
    if not addresses:
        raise OSError(f"no address for the callback host (port {port})")
    if not all(_is_public(str(address)) for address in addresses):
        raise DestinationRefusedError(
            "the callback host resolves to a private, loopback or link-local address"
        )
    return str(addresses[0])
