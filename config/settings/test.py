"""Tests run against the real PostgreSQL and Redis of the machine (ARCHITECTURE: no fakes)."""

import os

import dj_database_url

from config.settings.base import *  # noqa: F403
from config.settings.base import VAR_DIR

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/docintel"), conn_max_age=0
    )
}
# A Redis database of its own so tests never consume a developer's running stack's messages.
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL", "redis://127.0.0.1:6379/15")
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("DOCINTEL_CELERY_QUEUE", "docintel-test")
DOCINTEL_WEBHOOK_QUEUE = os.environ.get("DOCINTEL_WEBHOOK_QUEUE", f"{CELERY_TASK_DEFAULT_QUEUE}-webhooks")
DOCINTEL_INFER_QUEUE = os.environ.get("DOCINTEL_INFER_QUEUE", f"{CELERY_TASK_DEFAULT_QUEUE}-infer")
DOCINTEL_ADVISORY_QUEUE = os.environ.get("DOCINTEL_ADVISORY_QUEUE", f"{CELERY_TASK_DEFAULT_QUEUE}-advisory")
CELERY_TASK_ROUTES = {
    "workers.tasks.infer": {"queue": DOCINTEL_INFER_QUEUE},
    "workers.tasks.infer_batch": {"queue": DOCINTEL_INFER_QUEUE},
    "workers.tasks.advisory": {"queue": DOCINTEL_ADVISORY_QUEUE},
}
# Rate limits are tested on purpose (with a low rate); other tests must never meet them.
DOCINTEL_API_RATE_LIMIT = os.environ.get("DOCINTEL_API_RATE_LIMIT", "0")
CACHES = {
    **CACHES,  # noqa: F405
    "api": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": os.environ.get("DOCINTEL_API_CACHE_URL", "redis://127.0.0.1:6379/14"),
    },
}
# A webhook retry comes within seconds in tests, not minutes.
DOCINTEL_WEBHOOK_BACKOFF_S = float(os.environ.get("DOCINTEL_WEBHOOK_BACKOFF_S", "0.5"))
DOCINTEL_WEBHOOK_TIMEOUT_S = 5.0
# Receivers in tests are local HTTP servers; the guard itself is tested with this turned off.
DOCINTEL_WEBHOOK_ALLOW_PRIVATE_NETWORKS = True
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES = {
    **STORAGES,  # noqa: F405
    "default": {
        "BACKEND": "django.core.files.storage.FileSystemStorage",
        "OPTIONS": {"location": os.environ.get("DOCINTEL_BLOB_DIR", str(VAR_DIR / "test-blobs"))},
    },
}
# The test machine is small and shared with other jobs, and the browser tests send several documents
# at once: there a slow Triton call must slow a test down, not fail its document once the retries
# (each repeating the whole call) run out. Production keeps the base deadline.
DOCINTEL_TRITON_TIMEOUT_S = float(os.environ.get("DOCINTEL_TRITON_TIMEOUT_S", "120"))
