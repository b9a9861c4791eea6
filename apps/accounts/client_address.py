"""The address a request really comes from, as django-axes locks it out (``AXES_CLIENT_IP_CALLABLE``).

Behind an ingress every request's peer (``REMOTE_ADDR``) is the ingress itself: locking out by it
locks out everyone. The client's address is in ``X-Forwarded-For``, but anyone can send that
header, so it is believed only when the peer is one of ``DOCINTEL_TRUSTED_PROXIES``. Each proxy
appends the address it received the request from; reading from the right, the first address that
is not a trusted proxy is the client (everything to its left was written by the client and proves
nothing).
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from functools import lru_cache

from django.conf import settings
from django.http import HttpRequest

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address
IPNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network


@lru_cache(maxsize=8)
def _networks(entries: tuple[str, ...]) -> tuple[IPNetwork, ...]:
    return tuple(ipaddress.ip_network(entry.strip(), strict=False) for entry in entries if entry.strip())


def trusted_proxy_networks(entries: Iterable[str] | None = None) -> tuple[IPNetwork, ...]:
    """The networks of ``DOCINTEL_TRUSTED_PROXIES`` (addresses or CIDR blocks); a bad entry raises."""
    return _networks(tuple(settings.DOCINTEL_TRUSTED_PROXIES if entries is None else entries))


def parse_address(text: str) -> IPAddress | None:
    """An address as proxies write it: ``1.2.3.4``, ``1.2.3.4:5678``, ``::1`` or ``[::1]:5678``."""
    text = text.strip()
    if text.startswith("["):
        text = text[1 : text.find("]")] if "]" in text else ""
    elif text.count(":") == 1:
        text = text.split(":", 1)[0]
    try:
        address = ipaddress.ip_address(text)
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def _trusted(address: IPAddress, networks: tuple[IPNetwork, ...]) -> bool:
    return any(address.version == network.version and address in network for network in networks)


def client_address(remote_addr: str, forwarded_for: str, networks: tuple[IPNetwork, ...]) -> str | None:
    """The client's address, given the peer, the ``X-Forwarded-For`` header and the trusted proxies."""
    peer = parse_address(remote_addr)
    if peer is None:
        return None
    current = peer
    if not _trusted(current, networks):
        return str(current)
    for hop in reversed([part for part in forwarded_for.split(",") if part.strip()]):
        address = parse_address(hop)
        if address is None:
            break  # a trusted proxy never writes this: stop at the last address it did write
        current = address
        if not _trusted(current, networks):
            break
    return str(current)


def client_ip(request: HttpRequest) -> str | None:
    """``AXES_CLIENT_IP_CALLABLE``: the request's client address (see the module's docstring)."""
    return client_address(
        request.META.get("REMOTE_ADDR", ""),
        request.META.get("HTTP_X_FORWARDED_FOR", ""),
        trusted_proxy_networks(),
    )
