"""Production: every secret from the environment; refuse to start without them."""

import os

from django.core.exceptions import ImproperlyConfigured

from config.settings.base import *  # noqa: F403

DEBUG = False
for _required in ("DJANGO_SECRET_KEY", "DATABASE_URL", "DOCINTEL_MASTER_KEY"):
    if not os.environ.get(_required):
        raise ImproperlyConfigured(f"{_required} must be set in production")
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
SECURE_CONTENT_TYPE_NOSNIFF = True
