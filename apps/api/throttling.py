"""Per-key rate limits: a fixed window counter per API key in Redis (the ``api`` cache), shared
by every API process. Over the limit, the request answers 429 with ``Retry-After`` (the seconds
until the window turns). A Redis outage lets requests through (logged): a rate limit protects
the service, it must not take it down.

Rates read ``N/period`` with period ``s``, ``min``, ``h`` or ``d`` (``600/min``); ``0`` turns the
limit off. A key's own ``rate_limit`` wins over ``DOCINTEL_API_RATE_LIMIT``.
"""

from __future__ import annotations

import logging
import math
import time
from typing import Any

from django.conf import settings
from django.core.cache import caches
from rest_framework.request import Request
from rest_framework.throttling import BaseThrottle

from apps.tenants.models import ApiKey

logger = logging.getLogger(__name__)

_PERIODS = {"s": 1, "sec": 1, "second": 1, "m": 60, "min": 60, "minute": 60, "h": 3600, "hour": 3600,
            "d": 86400, "day": 86400}  # fmt: skip


class RateLimitError(ValueError):
    pass


def rate_parse(rate: str) -> tuple[int, int] | None:
    """``"600/min"`` → (600, 60); ``"0"`` or ``""`` → None (no limit)."""
    rate = rate.strip()
    if rate in ("", "0"):
        return None
    count, _, period = rate.partition("/")
    try:
        requests = int(count)
    except ValueError as exc:
        raise RateLimitError(f"rate {rate!r} must read N/period, e.g. 600/min") from exc
    seconds = _PERIODS.get(period.strip().lower())
    if seconds is None or requests < 0:
        raise RateLimitError(f"rate {rate!r} must read N/period with period s, min, h or d")
    return (requests, seconds) if requests else None


class ApiKeyRateThrottle(BaseThrottle):
    cache_alias = "api"

    def __init__(self) -> None:
        self.retry_after: float | None = None

    def _identity(self, request: Request) -> tuple[str, str]:
        if isinstance(request.auth, ApiKey):
            return f"key:{request.auth.pk}", request.auth.rate_limit or settings.DOCINTEL_API_RATE_LIMIT
        if request.user is not None and request.user.is_authenticated:
            return f"user:{request.user.pk}", settings.DOCINTEL_API_RATE_LIMIT
        return f"ip:{self.get_ident(request)}", settings.DOCINTEL_API_RATE_LIMIT

    def allow_request(self, request: Request, view: Any) -> bool:
        identity, rate = self._identity(request)
        parsed = rate_parse(rate)
        if parsed is None:
            return True
        limit, period = parsed
        now = time.time()
        window = int(now // period)
        key = f"docintel:ratelimit:{identity}:{period}:{window}"
        cache = caches[self.cache_alias]
        try:
            cache.add(key, 0, timeout=period + 1)
            count = cache.incr(key)
        except Exception:
            logger.warning("rate limit store unavailable; request let through")
            return True
        if count <= limit:
            return True
        self.retry_after = max(1, math.ceil((window + 1) * period - now))
        return False

    def wait(self) -> float | None:
        return self.retry_after
