"""Production: every secret from the environment; refuse to start without them."""

import os

from django.core.exceptions import ImproperlyConfigured

from config.env import env_bool, env_int
from config.settings.base import *  # noqa: F403

DEBUG = False
for _required in ("DJANGO_SECRET_KEY", "DATABASE_URL", "DOCINTEL_MASTER_KEY"):
    if not os.environ.get(_required):
        raise ImproperlyConfigured(f"{_required} must be set in production")
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
SECURE_CONTENT_TYPE_NOSNIFF = True
# HTTPS only (manage.py check --deploy is clean): behind a TLS-terminating proxy that sets
# X-Forwarded-Proto, set DOCINTEL_BEHIND_PROXY=1. The probes (/healthz, /readyz) are answered before
# the redirect; Prometheus scrapes /metrics inside the cluster, over plain HTTP.
SECURE_SSL_REDIRECT = env_bool("DOCINTEL_SSL_REDIRECT", True)
SECURE_REDIRECT_EXEMPT = [r"^metrics$"]
if env_bool("DOCINTEL_BEHIND_PROXY", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_HSTS_SECONDS = env_int("DOCINTEL_HSTS_SECONDS", 365 * 24 * 3600)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DOCINTEL_HSTS_INCLUDE_SUBDOMAINS", True)
SECURE_HSTS_PRELOAD = env_bool("DOCINTEL_HSTS_PRELOAD", True)
SESSION_COOKIE_HTTPONLY = True
