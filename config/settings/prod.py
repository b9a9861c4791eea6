"""Production, the default of every entry point (manage.py, WSGI, Celery, the image): every secret
from the environment, and no start without them. Development is opt-in
(``DJANGO_SETTINGS_MODULE=config.settings.dev``), so a process that was told nothing never runs
with DEBUG on, a known secret key (forgeable signed links) or a master key made beside the blobs."""

import base64
import binascii
import os

from django.core.exceptions import ImproperlyConfigured

from config.env import env_bool, env_int
from config.settings.base import *  # noqa: F403

# DOCINTEL_METRICS_TOKEN: /metrics (queue depths, documents by status and tenant) is served by the
# same web server as the pages; without a token anyone who reaches the ingress could read it.
REQUIRED = ("DJANGO_SECRET_KEY", "DATABASE_URL", "DOCINTEL_MASTER_KEY", "DOCINTEL_METRICS_TOKEN")
# The secret key the code falls back to when none is set: public, so never a production one.
KNOWN_SECRET_KEYS = frozenset({"insecure-development-key-change-me"})

DEBUG = False
_missing = [name for name in REQUIRED if not os.environ.get(name, "").strip()]
if _missing:
    raise ImproperlyConfigured(
        f"{', '.join(_missing)} must be set in production (config.settings.prod, the default "
        "settings); on a development machine set DJANGO_SETTINGS_MODULE=config.settings.dev"
    )
if SECRET_KEY in KNOWN_SECRET_KEYS:  # noqa: F405
    raise ImproperlyConfigured("DJANGO_SECRET_KEY is the development key: set a secret one in production")
try:
    _master_key = base64.b64decode(DOCINTEL_MASTER_KEY or "", validate=True)  # noqa: F405
except binascii.Error:
    _master_key = b""
if len(_master_key) != 32:
    raise ImproperlyConfigured("DOCINTEL_MASTER_KEY must be 32 random bytes, base64-encoded")
del _master_key
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
