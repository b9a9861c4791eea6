"""A real Celery worker process on the real Redis broker, sharing the test database.

Started once per session after pytest-django created the test database; tests that use it
need ``transactional_db`` so their rows are committed and visible to the worker.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent


def _queues(env: dict[str, str]) -> str:
    """Every queue the session's worker consumes, as Celery's comma list."""
    names = (
        "DOCINTEL_CELERY_QUEUE",
        "DOCINTEL_INFER_QUEUE",
        "DOCINTEL_WEBHOOK_QUEUE",
        "DOCINTEL_ADVISORY_QUEUE",
    )
    return ",".join(env[name] for name in names)


def _purge_queue(env: dict[str, str]) -> None:
    queues = _queues(env)
    subprocess.run(
        [sys.executable, "-m", "celery", "-A", "config", "purge", "-f", "-Q", queues],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        timeout=60,
        check=False,
    )


@pytest.fixture(scope="session")
def celery_worker_process(
    django_db_setup, django_db_blocker, triton_server: str, tmp_path_factory
) -> Iterator[str]:
    from django.conf import settings

    db = settings.DATABASES["default"]
    database_url = f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "DATABASE_URL": database_url,
        "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
        "DOCINTEL_CELERY_QUEUE": settings.CELERY_TASK_DEFAULT_QUEUE,
        "DOCINTEL_WEBHOOK_QUEUE": settings.DOCINTEL_WEBHOOK_QUEUE,
        "DOCINTEL_INFER_QUEUE": settings.DOCINTEL_INFER_QUEUE,
        "DOCINTEL_ADVISORY_QUEUE": settings.DOCINTEL_ADVISORY_QUEUE,
        "DOCINTEL_ENGINE": "triton",
        "DOCINTEL_TRITON_URL": triton_server,
        "DOCINTEL_BLOB_DIR": str(settings.STORAGES["default"]["OPTIONS"]["location"]),
        "PYTHONUNBUFFERED": "1",
    }
    _purge_queue(env)
    log_path = tmp_path_factory.mktemp("celery") / "worker.log"
    with open(log_path, "wb") as log:
        process = subprocess.Popen(
            [
                sys.executable, "-m", "celery", "-A", "config", "worker",
                "--pool", "threads", "--concurrency", "4", "--loglevel", "INFO",
                "-Q", _queues(env), "--without-gossip", "--without-mingle", "--without-heartbeat",
            ],
            cwd=REPO_ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )  # fmt: skip
    # beside the log, for tests that watch the worker process itself (its memory, a signal)
    (log_path.parent / "worker.pid").write_text(str(process.pid))
    deadline = time.monotonic() + 60
    while b"ready." not in log_path.read_bytes():
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            raise RuntimeError(f"Celery worker did not start:\n{log_path.read_text()[-4000:]}")
        time.sleep(0.2)
    try:
        yield str(log_path)
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
