"""Where a webhook may be sent: the guard against server-side request forgery.

A callback URL is chosen by an API client, and the delivery carries a document's personal data
from inside the bank's network. Without a guard, a client could point it at the metadata service
(169.254.169.254), at the database's admin port or at any host only DocIntel can reach. So, unless
``DOCINTEL_WEBHOOK_ALLOW_PRIVATE_NETWORKS`` is set (development, tests, an on-premises receiver):

* at upload, a URL naming ``localhost`` or a non-public IP literal is refused (a 4xx the client
  sees at once);
* at delivery, the host name is resolved and refused if *any* of its addresses is not public, and
  the connection goes to an address that was checked — so a DNS answer that changes between the
  check and the connection (DNS rebinding) cannot redirect it.

An IPv6 address that carries an IPv4 address inside it is judged by where it leads: an
IPv4-mapped (``::ffff:10.0.0.1``), NAT64 (``64:ff9b::10.0.0.1``) or 6to4 (``2002:0a00:0001::``)
address is public only if the IPv4 address inside is; the forms whose inner address a receiver
has no business in — NAT64's local-use prefix (``64:ff9b:1::/48``, where the network chooses how
the IPv4 address is embedded), Teredo (``2001::/32``, a tunnel through the client's NAT) and the
deprecated IPv4-compatible addresses (``::/96``) — are refused outright.

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


# IPv6 prefixes whose addresses embed an IPv4 address (RFC 6052, RFC 8215, RFC 4380, RFC 4291).
_NAT64 = ipaddress.IPv6Network("64:ff9b::/96")
_REFUSED_IPV6 = (
    ipaddress.IPv6Network("64:ff9b:1::/48"),  # NAT64, local use
    ipaddress.IPv6Network("2001::/32"),  # Teredo
    ipaddress.IPv6Network("::/96"),  # IPv4-compatible (and :: and ::1)
)


def _is_public(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address):
        if any(ip in network for network in _REFUSED_IPV6):
            return False
        if ip.ipv4_mapped is not None:
            ip = ip.ipv4_mapped
        elif ip in _NAT64:
            ip = ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
        elif ip.sixtofour is not None:
            ip = ip.sixtofour
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


def checked_addresses(host: str, port: int) -> list[str]:
    """Every address of ``host``, in the resolver's order, each one checked: connect to one of
    these, never by name again.

    Raises :class:`DestinationRefusedError` for a non-public address (unless private networks are
    allowed or the host is allow-listed) and :class:`OSError` when the name does not resolve (a
    retryable failure, like a refused connection)."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    addresses = list(dict.fromkeys(str(info[4][0]) for info in infos))
    if not addresses:
        raise OSError(f"no address for the callback host (port {port})")
    if _private_allowed() or _allowed_host(host):
        return addresses
    if not all(_is_public(address) for address in addresses):
        raise DestinationRefusedError(
            "the callback host resolves to a private, loopback or link-local address"
        )
    return addresses
