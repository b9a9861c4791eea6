"""Login throttling: per user name from any address, and per address across user names.

django-axes (``AXES_HANDLER``) keeps one row of failures per user name, address and browser. Its
own rule (``AXES_LOCKOUT_PARAMETERS = ["username"]``) locks a user name out after
``DOCINTEL_LOGIN_FAILURE_LIMIT`` failures from anywhere, so an attacker gains nothing by changing
address. That rule never sees password spraying, one password tried once against many user names,
so this handler adds the second: an address whose failures within the cool-off name
``DOCINTEL_LOGIN_SPRAY_LIMIT`` different user names is locked out for every user name. Counting
names rather than failures keeps an office behind one NAT address working when a few people
mistype. Single sign-on (no user name) is never held by the address rule: the identity provider
checks those passwords and throttles them itself.
"""

from __future__ import annotations

import logging
from typing import Any

from axes.attempts import get_cool_off_threshold
from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username
from axes.models import AccessAttempt
from axes.signals import user_locked_out
from django.conf import settings
from django.http import HttpRequest

logger = logging.getLogger(__name__)


class LoginThrottleHandler(AxesDatabaseHandler):
    """django-axes' database handler with the per-address rule against password spraying."""

    def is_locked(self, request: HttpRequest, credentials: dict[str, Any] | None = None) -> bool:
        if super().is_locked(request, credentials):
            return True
        return bool(get_client_username(request, credentials)) and self._spraying(request)

    def user_login_failed(
        self, sender: Any, credentials: dict[str, Any], request: HttpRequest | None = None, **kwargs: Any
    ) -> None:
        super().user_login_failed(sender, credentials, request, **kwargs)
        if request is None or getattr(request, "axes_locked_out", False):
            return
        username = get_client_username(request, credentials)
        if username and self._spraying(request):
            logger.warning("login: an address tried too many user names; locked out")
            request.axes_locked_out = True  # type: ignore[attr-defined]
            request.axes_credentials = credentials  # type: ignore[attr-defined]
            address = getattr(request, "axes_ip_address", None)
            user_locked_out.send("axes", request=request, username=username, ip_address=address)

    def _spraying(self, request: HttpRequest) -> bool:
        """Whether this request's address failed for DOCINTEL_LOGIN_SPRAY_LIMIT user names lately."""
        address = getattr(request, "axes_ip_address", None)
        limit = settings.DOCINTEL_LOGIN_SPRAY_LIMIT
        if not address or limit <= 0:
            return False
        names = (
            AccessAttempt.objects.filter(
                ip_address=address, attempt_time__gte=get_cool_off_threshold(request)
            )
            .exclude(username__isnull=True)
            .exclude(username="")
            .values("username")
            .distinct()
        )
        return names[:limit].count() >= limit
