"""Settings shared by every environment. Values that vary come from ``DOCINTEL_*`` variables."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import dj_database_url

from config.env import env_bool, env_float, env_int, env_json, env_list, env_optional, env_path, env_str

BASE_DIR = Path(__file__).resolve().parent.parent.parent
VAR_DIR = env_path("DOCINTEL_VAR_DIR", BASE_DIR / "var")

SECRET_KEY = env_str("DJANGO_SECRET_KEY", "insecure-development-key-change-me")
DEBUG = env_bool("DJANGO_DEBUG", False)
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ["127.0.0.1", "localhost", "testserver"])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "apps.tenants",
    "apps.accounts",  # logins: client address, throttle, idle sessions, single sign-on
    "apps.audit",
    "apps.documents",
    "apps.extraction",
    "apps.ingestion",
    "apps.review",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI's own files, served by the app (no CDN)
    "apps.batches",
    "apps.webhooks",
    "apps.cases",
    "apps.doctypes",
    "apps.api",
    "apps.observability",
    "workers",  # its management command only (manage.py dispatch_inference); no models
    "axes",  # login brute-force throttling (after the apps: its admin lists lockouts)
]

MIDDLEWARE = [
    # Kubernetes probes (/healthz, /readyz) are answered before host checks and HTTPS redirects.
    "apps.observability.middleware.HealthProbeMiddleware",
    "apps.observability.middleware.RequestIdMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "apps.security.headers.SecurityHeadersMiddleware",  # CSP, Permissions-Policy (apps/security)
    # Serves the UI's own CSS and JavaScript from the app (customers run closed networks: no CDN,
    # and no separate web server is required in front of Django for static files).
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "apps.accounts.idle_sessions.IdleSessionTimeoutMiddleware",  # DOCINTEL_SESSION_IDLE_TIMEOUT_S
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, as django-axes asks: answers a locked-out login attempt.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# SQLite only as the zero-setup default; tests, CI and production set DATABASE_URL to PostgreSQL.
DATABASES = {
    "default": dj_database_url.config(
        env="DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'docintel.sqlite3'}", conn_max_age=60
    )
}
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # The worker and the web server write concurrently. WAL lets readers work beside a writer;
    # IMMEDIATE transactions take the write lock up front, so SQLite waits (timeout) instead of
    # failing with "database is locked" when a read transaction later tries to write.
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 30,
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
    VAR_DIR.mkdir(parents=True, exist_ok=True)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
# Logins (apps/accounts, docs/security.md#logins). django-axes locks a user name out after
# DOCINTEL_LOGIN_FAILURE_LIMIT failed logins from any address, and an address out after its failures
# name DOCINTEL_LOGIN_SPRAY_LIMIT user names (password spraying), both for DOCINTEL_LOGIN_COOLOFF_S
# (429); a success resets the user name's count. The address is the client's, read from
# X-Forwarded-For only behind the proxies of DOCINTEL_TRUSTED_PROXIES (addresses or CIDR blocks).
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
    "apps.accounts.sso.SsoBackend",  # inert until DOCINTEL_OIDC_CLIENT_ID is set
]
AXES_HANDLER = "apps.accounts.login_throttle.LoginThrottleHandler"
AXES_FAILURE_LIMIT = env_int("DOCINTEL_LOGIN_FAILURE_LIMIT", 5)
DOCINTEL_LOGIN_SPRAY_LIMIT = env_int("DOCINTEL_LOGIN_SPRAY_LIMIT", 10)
AXES_COOLOFF_TIME = dt.timedelta(seconds=env_int("DOCINTEL_LOGIN_COOLOFF_S", 15 * 60))
AXES_LOCKOUT_PARAMETERS = ["username"]
# axes.W006 asks for "ip_address" above, which would lock a whole office's address after a few
# typos; the address is throttled by distinct user names instead (apps/accounts/login_throttle.py).
SILENCED_SYSTEM_CHECKS = ["axes.W006"]
AXES_RESET_ON_SUCCESS = True
AXES_VERBOSE = False  # its log lines name the user name tried, which may be a person's e-mail
DOCINTEL_TRUSTED_PROXIES = env_list("DOCINTEL_TRUSTED_PROXIES", [])
AXES_CLIENT_IP_CALLABLE = "apps.accounts.client_address.client_ip"
# A signed-in session ends after this long without a request (0: never; apps/accounts/idle_sessions.py).
DOCINTEL_SESSION_IDLE_TIMEOUT_S = env_int("DOCINTEL_SESSION_IDLE_TIMEOUT_S", 30 * 60)
# Single sign-on through OpenID Connect (mozilla-django-oidc; apps/accounts/sso.py), off until
# DOCINTEL_OIDC_CLIENT_ID is set. The endpoints are the provider's discovery document's
# (<issuer>/.well-known/openid-configuration); DOCINTEL_OIDC_GROUP_ROLES maps the groups claim to
# tenant roles, as JSON: {"group": {"tenant": "Acme Bank", "role": "operator"}} (or a list of those).
OIDC_RP_CLIENT_ID = env_str("DOCINTEL_OIDC_CLIENT_ID", "")
OIDC_RP_CLIENT_SECRET = env_str("DOCINTEL_OIDC_CLIENT_SECRET", "")
DOCINTEL_OIDC_ISSUER = env_str("DOCINTEL_OIDC_ISSUER", "")
OIDC_OP_AUTHORIZATION_ENDPOINT = env_str("DOCINTEL_OIDC_AUTHORIZATION_ENDPOINT", "")
OIDC_OP_TOKEN_ENDPOINT = env_str("DOCINTEL_OIDC_TOKEN_ENDPOINT", "")
OIDC_OP_USER_ENDPOINT = env_str("DOCINTEL_OIDC_USERINFO_ENDPOINT", "")
OIDC_OP_JWKS_ENDPOINT = env_str("DOCINTEL_OIDC_JWKS_ENDPOINT", "")
OIDC_RP_SIGN_ALGO = env_str("DOCINTEL_OIDC_SIGN_ALGO", "RS256")
OIDC_RP_SCOPES = env_str("DOCINTEL_OIDC_SCOPES", "openid email profile")
OIDC_USE_PKCE = True
OIDC_TIMEOUT = 10  # seconds, each call to the provider
OIDC_AUTHENTICATION_CALLBACK_URL = "oidc_authentication_callback"
LOGIN_REDIRECT_URL_FAILURE = "/login/?sso=refused"
DOCINTEL_OIDC_PROVIDER_NAME = env_str("DOCINTEL_OIDC_PROVIDER_NAME", "single sign-on")
DOCINTEL_OIDC_GROUPS_CLAIM = env_str("DOCINTEL_OIDC_GROUPS_CLAIM", "groups")
DOCINTEL_OIDC_GROUP_ROLES = env_json("DOCINTEL_OIDC_GROUP_ROLES", {})
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "ingestion:document_list"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
# WhiteNoise serves the files straight from the finders, so the UI's few files need no
# collectstatic step; set DOCINTEL_STATIC_ROOT only to collect them for a proxy in front.
WHITENOISE_USE_FINDERS = True
STATIC_ROOT = env_optional("DOCINTEL_STATIC_ROOT")

# Documents are stored encrypted through Django's storage API; this folder never holds plaintext.
STORAGES = {
    "default": {
        "BACKEND": "django.core.files.storage.FileSystemStorage",
        "OPTIONS": {"location": str(VAR_DIR / "blobs"), "base_url": None},
    },
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

# Master key (base64, 32 bytes) that wraps each document's data key. Development generates one into var/.
DOCINTEL_MASTER_KEY = env_optional("DOCINTEL_MASTER_KEY")
DOCINTEL_MASTER_KEY_FILE = VAR_DIR / "master.key"
# Rotation: make a new key DOCINTEL_MASTER_KEY and list the old one here (comma-separated, base64);
# `manage.py rotate_keys` re-wraps every data key under the new one, then the old can go.
DOCINTEL_OLD_MASTER_KEYS = env_list("DOCINTEL_OLD_MASTER_KEYS", [])

# Operating limits (ARCHITECTURE §4).
DOCINTEL_MAX_UPLOAD_BYTES = env_int("DOCINTEL_MAX_UPLOAD_BYTES", 50 * 1024 * 1024)
DOCINTEL_MAX_PAGES = env_int("DOCINTEL_MAX_PAGES", 200)
DOCINTEL_MAX_IMAGE_PIXELS = env_int("DOCINTEL_MAX_IMAGE_PIXELS", 89_000_000)
# attempt_count counts every step run and every reconciler re-send (a re-send costs two): a
# document caught inside Triton by two worker crashes uses up to 6 (tests/reliability), so the
# bound leaves room for crashes while a poison document still stops after a dozen.
DOCINTEL_MAX_ATTEMPTS = env_int("DOCINTEL_MAX_ATTEMPTS", 12)
# A document untouched this long in a non-terminal state is re-enqueued by the reconciler.
DOCINTEL_STUCK_AFTER_S = env_int("DOCINTEL_STUCK_AFTER_S", 600)
DOCINTEL_RECONCILE_EVERY_S = env_int("DOCINTEL_RECONCILE_EVERY_S", 60)
# Retention: documents (and everything made from them) are erased this many days after upload,
# unless their tenant sets its own period (0: kept until erased on request); checked every hour.
DOCINTEL_RETENTION_DAYS = env_int("DOCINTEL_RETENTION_DAYS", 365)
DOCINTEL_PURGE_EVERY_S = env_int("DOCINTEL_PURGE_EVERY_S", 3600)
# Zip uploads: every member becomes a document. Bounds against zip bombs (checked on the
# archive's directory first, then on the bytes actually inflated, which a forged header cannot hide).
DOCINTEL_ZIP_MAX_MEMBERS = env_int("DOCINTEL_ZIP_MAX_MEMBERS", 200)
DOCINTEL_ZIP_MAX_EXPANDED_BYTES = env_int("DOCINTEL_ZIP_MAX_EXPANDED_BYTES", 500 * 1024 * 1024)
DOCINTEL_ZIP_MAX_RATIO = env_int("DOCINTEL_ZIP_MAX_RATIO", 100)
# Pages are rendered/resized so that their longest side is at most this many pixels.
DOCINTEL_PAGE_MAX_SIDE = env_int("DOCINTEL_PAGE_MAX_SIDE", 2400)
# PDFium inflates a PDF's content streams whole: a stream expanding beyond this, or all of them
# together beyond the second, fails the document as a decompression bomb (media.pdf_guard).
DOCINTEL_PDF_MAX_STREAM_BYTES = env_int("DOCINTEL_PDF_MAX_STREAM_BYTES", 128 * 1024 * 1024)
DOCINTEL_PDF_MAX_DECODED_BYTES = env_int("DOCINTEL_PDF_MAX_DECODED_BYTES", 1024 * 1024 * 1024)
# Every PDF is opened and rendered in a child process with this address space and CPU time
# (media.pdf_sandbox): LZW, RunLength, JBIG2 and font bombs, parser loops and crashes end the
# child with pdf_resource_limit or pdf_render_crashed, never the worker.
DOCINTEL_PDF_SANDBOX_MEMORY_MB = env_int("DOCINTEL_PDF_SANDBOX_MEMORY_MB", 1024)
DOCINTEL_PDF_SANDBOX_CPU_S = env_int("DOCINTEL_PDF_SANDBOX_CPU_S", 120)

# Inference: "triton" (the real server over gRPC) or "local" (the CPU engine in the worker process).
DOCINTEL_ENGINE = env_str("DOCINTEL_ENGINE", "triton")
DOCINTEL_TRITON_URL = env_str("DOCINTEL_TRITON_URL", "127.0.0.1:8101")
DOCINTEL_TRITON_TIMEOUT_S = env_float("DOCINTEL_TRITON_TIMEOUT_S", 30.0)
# Triton unavailable: the dispatcher calls again up to DOCINTEL_TRITON_RETRIES times a message, waiting
# base x 2^n s (capped, with jitter; one message's budget stays below the broker's visibility timeout,
# tests/reliability), then sends the document again while the outage lasts. A per-process circuit breaker (media/circuit_breaker.py) stops sending after
# DOCINTEL_TRITON_BREAKER_FAILURES consecutive failures, for DOCINTEL_TRITON_BREAKER_COOLDOWN_S
# (read by media.triton_client from the environment).
DOCINTEL_TRITON_RETRIES = env_int("DOCINTEL_TRITON_RETRIES", 8)
DOCINTEL_TRITON_RETRY_BASE_S = env_float("DOCINTEL_TRITON_RETRY_BASE_S", 2.0)
DOCINTEL_TRITON_RETRY_MAX_S = env_float("DOCINTEL_TRITON_RETRY_MAX_S", 60.0)
# An outage (Triton, the model engine, the database, a master key this process does not hold yet) is
# never the document's failure: it waits, its attempts given back, retried with the backoff above,
# for this long after it began waiting; then it fails with unavailable_timeout
# (apps.documents.unavailability).
DOCINTEL_UNAVAILABLE_WINDOW_S = env_int("DOCINTEL_UNAVAILABLE_WINDOW_S", 24 * 3600)
# The Triton model documents go to (the doc_pipeline contract, §3.5): doc_pipeline, or the null and
# sim_gpu models of model_repo/ for benchmarks. The launcher loads DOCINTEL_TRITON_MODELS.
DOCINTEL_TRITON_MODEL = env_str("DOCINTEL_TRITON_MODEL", "doc_pipeline")
# Decision: every required field must be valid and at least this confident to skip review. Chosen
# by cross-fitting on the calibration data (fit on seed 5, decide on seed 6 and back): 0.90 kept
# 99.2 % of auto-approved documents entirely right, the same as 0.93, with more straight through;
# 0.89 fell to 98.5 %.
DOCINTEL_AUTO_APPROVE_MIN_CONFIDENCE = env_float("DOCINTEL_AUTO_APPROVE_MIN_CONFIDENCE", 0.90)
# A document whose type the engine is less sure of than this always goes to a person.
DOCINTEL_AUTO_APPROVE_MIN_TYPE_CONFIDENCE = env_float("DOCINTEL_AUTO_APPROVE_MIN_TYPE_CONFIDENCE", 0.8)
# Capture quality (media/capture_quality.py, docs/capture-quality.md): a photographed or scanned
# page that is blurred, glared, cut off, too small or too dark is sent back to the applicant
# (decision resubmission_requested) before any inference. Thresholds per document type (the
# upload's hint; "default" for all): the keys of media.capture_quality.CaptureThresholds.
DOCINTEL_CAPTURE_GATE = env_bool("DOCINTEL_CAPTURE_GATE", True)
DOCINTEL_CAPTURE_THRESHOLDS: dict[str, dict[str, float | None]] = {"default": {}}
# Authenticity signals (media/authenticity.py): advisory checks shown to reviewers, never a decline.
DOCINTEL_AUTHENTICITY_SIGNALS = env_bool("DOCINTEL_AUTHENTICITY_SIGNALS", True)
# Both measure at most this many captured pages of a document (its first ones): the edited-region
# signal costs about a second a page; a long scanned document is judged on its first pages.
DOCINTEL_CAPTURE_MAX_PAGES = env_int("DOCINTEL_CAPTURE_MAX_PAGES", 2)

# Review (apps/review). A claimed task stays with its operator this long without activity, then any
# operator's "next task" may take it. A tenant's default queue promises a decision within the SLA.
DOCINTEL_REVIEW_LEASE_S = env_int("DOCINTEL_REVIEW_LEASE_S", 15 * 60)
DOCINTEL_REVIEW_DEFAULT_SLA_S = env_int("DOCINTEL_REVIEW_DEFAULT_SLA_S", 24 * 3600)
# Share of auto-approved documents drawn for a quality audit, for queues that do not set their own.
DOCINTEL_QA_SAMPLE_RATE = env_float("DOCINTEL_QA_SAMPLE_RATE", 0.05)
# ``manage.py recalibrate`` refuses to refit on fewer operator labels than this.
DOCINTEL_RECALIBRATE_MIN_LABELS = env_int("DOCINTEL_RECALIBRATE_MIN_LABELS", 200)

# REST API (apps/api, ARCHITECTURE §3.4). Keys are per tenant (`manage.py create_api_key`); every
# key gets DOCINTEL_API_RATE_LIMIT requests per period ("N/s|min|h|d", 0 = none) unless it has its own.
DOCINTEL_API_RATE_LIMIT = env_str("DOCINTEL_API_RATE_LIMIT", "600/min")
# The rate limit counters live in Redis, shared by every API process.
DOCINTEL_API_CACHE_URL = env_str("DOCINTEL_API_CACHE_URL", "redis://127.0.0.1:6379/1")
DOCINTEL_IDEMPOTENCY_TTL_S = env_int("DOCINTEL_IDEMPOTENCY_TTL_S", 24 * 3600)
# A batch's export links are signed and open without a key for this long (apps.api.signed_urls).
DOCINTEL_SIGNED_URL_TTL_S = env_int("DOCINTEL_SIGNED_URL_TTL_S", 3600)
# A batch: at most this many files (§4), and this many bytes in one request (files held in memory).
DOCINTEL_BATCH_MAX_FILES = env_int("DOCINTEL_BATCH_MAX_FILES", 100)
# The documents of an upload batch reach the CPU workers this many to a prepare message
DOCINTEL_PREPARE_BATCH = env_int("DOCINTEL_PREPARE_BATCH", 32)
DOCINTEL_BATCH_MAX_BYTES = env_int("DOCINTEL_BATCH_MAX_BYTES", 200 * 1024 * 1024)
DATA_UPLOAD_MAX_NUMBER_FILES = DOCINTEL_BATCH_MAX_FILES
# Webhooks: POST to a document's callback_url, signed with the tenant's secret, each attempt bounded
# in total (DNS, connect, TLS, send, read) by the timeout; a failure is retried with exponential
# backoff (base x 2^n, capped, with jitter) for the retry window, then kept as a dead letter of its
# tenant until redriven (docs/webhooks.md).
DOCINTEL_WEBHOOK_TIMEOUT_S = env_float("DOCINTEL_WEBHOOK_TIMEOUT_S", 10.0)
DOCINTEL_WEBHOOK_RETRY_WINDOW_S = env_float("DOCINTEL_WEBHOOK_RETRY_WINDOW_S", 24 * 3600.0)
DOCINTEL_WEBHOOK_BACKOFF_S = env_float("DOCINTEL_WEBHOOK_BACKOFF_S", 5.0)
DOCINTEL_WEBHOOK_BACKOFF_MAX_S = env_float("DOCINTEL_WEBHOOK_BACKOFF_MAX_S", 3600.0)
# Server-side request forgery guard (apps/webhooks/destinations.py): callbacks go to public
# addresses only, unless private networks are allowed or the host is listed.
DOCINTEL_WEBHOOK_ALLOW_PRIVATE_NETWORKS = env_bool("DOCINTEL_WEBHOOK_ALLOW_PRIVATE_NETWORKS", False)
DOCINTEL_WEBHOOK_ALLOWED_HOSTS = env_list("DOCINTEL_WEBHOOK_ALLOWED_HOSTS", [])

CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "api": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": DOCINTEL_API_CACHE_URL},
}

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "apps.api.authentication.ApiKeyAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    # one table says which role or key scope each operation needs (apps/api/permissions.py)
    "DEFAULT_PERMISSION_CLASSES": ["apps.api.permissions.RoleOrScope"],
    "DEFAULT_THROTTLE_CLASSES": ["apps.api.throttling.ApiKeyRateThrottle"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["rest_framework.parsers.JSONParser"],
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "apps.api.negotiation.LenientContentNegotiation",
    "DEFAULT_METADATA_CLASS": None,  # OPTIONS answers 405: the schema describes the API
    "EXCEPTION_HANDLER": "apps.api.errors.exception_handler",
    "DEFAULT_SCHEMA_CLASS": "apps.api.schema.AccessAutoSchema",  # + each operation's role and scope
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "DocIntel API",
    "DESCRIPTION": (
        "Upload documents (one, many or a zip), follow them through extraction and review, and "
        "receive their results (ARCHITECTURE §3.1) by polling or signed webhooks. Authenticate with "
        '`Authorization: Api-Key <key>`. Every error is `{"code", "message"}`.'
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SERVE_PERMISSIONS": ["rest_framework.permissions.AllowAny"],
    "SCHEMA_PATH_PREFIX": r"/api/v1",
    "COMPONENT_SPLIT_REQUEST": True,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# Celery on Redis. Messages are JSON and carry ids only.
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL", "redis://127.0.0.1:6379/0")
CELERY_RESULT_BACKEND = None
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Workers log through LOGGING above (JSON lines with ids), not Celery's own format.
CELERY_WORKER_HIJACK_ROOT_LOGGER = False
# Keep each worker thread's database connection between tasks (Celery's Django fixup otherwise
# closes it before and after every task: a new PostgreSQL connection per task was the largest CPU
# cost of a cheap step). Broken or CONN_MAX_AGE-old connections are still replaced before each task
# (apps.observability.celery_signals).
CELERY_DB_REUSE_MAX = env_int("DOCINTEL_CELERY_DB_REUSE_MAX", 1000)
CELERY_TASK_DEFAULT_QUEUE = env_str("DOCINTEL_CELERY_QUEUE", "docintel")
# Webhook deliveries have their own queue and their own worker (`make up`, deploy/k8s), so a slow
# receiver never holds up documents.
DOCINTEL_WEBHOOK_QUEUE = env_str("DOCINTEL_WEBHOOK_QUEUE", f"{CELERY_TASK_DEFAULT_QUEUE}-webhooks")
# One queue per stage (ARCHITECTURE §5), each scaled on its own workers: preparation and the cheap
# steps on the default queue (CPU workers), inference on its own (the dispatcher,
# `manage.py dispatch_inference`, or any worker that lists it), webhooks on theirs.
DOCINTEL_INFER_QUEUE = env_str("DOCINTEL_INFER_QUEUE", f"{CELERY_TASK_DEFAULT_QUEUE}-infer")
# Advisory work after the decision (the authenticity signals, apps.documents.advisory) has its own
# queue, so seconds of image analysis never sit between a document and its decision.
DOCINTEL_ADVISORY_QUEUE = env_str("DOCINTEL_ADVISORY_QUEUE", f"{CELERY_TASK_DEFAULT_QUEUE}-advisory")
CELERY_TASK_ROUTES = {
    "workers.tasks.infer": {"queue": DOCINTEL_INFER_QUEUE},
    "workers.tasks.infer_batch": {"queue": DOCINTEL_INFER_QUEUE},
    "workers.tasks.advisory": {"queue": DOCINTEL_ADVISORY_QUEUE},
}
# How the domain's pipeline steps (apps.documents.steps) become messages: workers maps each step to
# its Celery task and sends it; apps reach it through this path, never by importing workers.
DOCINTEL_STEP_SENDER = "workers.steps.steps_send"
# The dispatcher's Triton calls in flight (0: the model's max batch size x instances x 2), and the
# threads it reads and writes the database with.
DOCINTEL_DISPATCH_MAX_IN_FLIGHT = env_int("DOCINTEL_DISPATCH_MAX_IN_FLIGHT", 0)
DOCINTEL_DISPATCH_DB_THREADS = env_int("DOCINTEL_DISPATCH_DB_THREADS", 4)
# Longer than a task can legitimately run (Triton timeout x retries), so Redis does not redeliver early.
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": env_int("DOCINTEL_VISIBILITY_TIMEOUT_S", 3600)}
CELERY_BEAT_SCHEDULE = {
    "reconcile-stuck-documents": {
        "task": "workers.tasks.reconcile",
        "schedule": float(DOCINTEL_RECONCILE_EVERY_S),
    },
    "sweep-webhook-deliveries": {"task": "apps.webhooks.tasks.sweep", "schedule": 30.0},
    "purge-idempotency-keys": {"task": "apps.api.tasks.purge_idempotency_keys", "schedule": 3600.0},
    "purge-expired-documents": {
        "task": "apps.documents.tasks.purge_expired",
        "schedule": float(DOCINTEL_PURGE_EVERY_S),
    },
}

# Observability: /metrics (Prometheus; with this token set, only "Authorization: Bearer <token>"),
# and the port a worker process serves /metrics, /healthz and /readyz on (0: none).
DOCINTEL_METRICS_TOKEN = env_optional("DOCINTEL_METRICS_TOKEN")
DOCINTEL_METRICS_PORT = env_int("DOCINTEL_METRICS_PORT", 0)

# Never log document contents or field values: log ids and error codes only. Lines are JSON
# (apps.observability.logging) with the request and document ids; DOCINTEL_LOG_FORMAT=plain for text.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"},
        "json": {"()": "apps.observability.logging.JsonFormatter"},
    },
    # request lines keep their paths only: queries hold export links' signatures and searches
    "filters": {"paths_only": {"()": "apps.observability.logging.PathsOnlyFilter"}},
    "handlers": {
        "stderr": {"class": "logging.StreamHandler", "formatter": env_str("DOCINTEL_LOG_FORMAT", "json")}
    },
    "root": {"handlers": ["stderr"], "level": env_str("DOCINTEL_LOG_LEVEL", "INFO")},
    "loggers": {
        "django.db.backends": {"level": "WARNING"},
        # the development server's request lines (`make up`); gunicorn's: config/gunicorn.py
        "django.server": {"handlers": ["stderr"], "filters": ["paths_only"], "propagate": False},
    },
}

# Uploads stay in memory: Django's default spools large files to a plaintext temporary file,
# and no plaintext document may touch the disk. Larger bodies are refused before reading.
FILE_UPLOAD_HANDLERS = ["django.core.files.uploadhandler.MemoryFileUploadHandler"]
FILE_UPLOAD_MAX_MEMORY_SIZE = DOCINTEL_MAX_UPLOAD_BYTES + 1024 * 1024
DATA_UPLOAD_MAX_MEMORY_SIZE = 2_621_440
