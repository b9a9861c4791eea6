"""pytest plugin: the pipeline's stages as separate processes on separate queues (ARCHITECTURE §5).

* web: the API in gunicorn (uploads, /metrics, /healthz, /readyz);
* prepare: a Celery worker on the preparation queue (prepare, then validate + decide) and on the
  advisory queue (the authenticity signals after a decision);
* dispatcher: ``manage.py dispatch_inference`` on the inference queue;
* webhooks: a Celery worker on the webhook queue;

against the Triton with the simulated models (``null`` by default). The queues have names of their
own (``<test queue>-stages``...), so the session's all-in-one Celery worker never takes their
messages, and every process writes its metrics into one PROMETHEUS_MULTIPROC_DIR, which the web's
/metrics sums. Logs are JSON lines in ``logs[name]``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.support.processes import free_ports

REPO_ROOT = Path(__file__).resolve().parent.parent


@dataclass
class StageStack:
    url: str  # the web process, http://127.0.0.1:port
    queues: dict[str, str]
    logs: dict[str, Path]
    processes: dict[str, subprocess.Popen[bytes]]
    metrics_dir: Path

    def log_text(self, name: str) -> str:
        return self.logs[name].read_text(errors="replace")


def _wait(check, what: str, process: subprocess.Popen[bytes], log: Path, timeout_s: float = 60) -> None:
    deadline = time.monotonic() + timeout_s
    while not check():
        if process.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(f"{what} did not start:\n{log.read_text(errors='replace')[-4000:]}")
        time.sleep(0.2)


def _http_ok(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return bool(response.status == 200)
    except OSError:
        return False


@pytest.fixture(scope="session")
def stage_workers(
    django_db_setup, django_db_blocker, triton_sim_server: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[StageStack]:
    from django.conf import settings

    db = settings.DATABASES["default"]
    base = f"{settings.CELERY_TASK_DEFAULT_QUEUE}-stages"
    queues = {
        "prepare": base,
        "infer": f"{base}-infer",
        "webhooks": f"{base}-webhooks",
        "advisory": f"{base}-advisory",
    }
    folder = tmp_path_factory.mktemp("stages")
    metrics_dir = folder / "metrics"
    metrics_dir.mkdir()
    (web_port,) = free_ports(1)
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "CELERY_BROKER_URL": settings.CELERY_BROKER_URL,
        "DOCINTEL_CELERY_QUEUE": queues["prepare"],
        "DOCINTEL_INFER_QUEUE": queues["infer"],
        "DOCINTEL_WEBHOOK_QUEUE": queues["webhooks"],
        "DOCINTEL_ADVISORY_QUEUE": queues["advisory"],
        "DOCINTEL_ENGINE": "triton",
        "DOCINTEL_TRITON_URL": triton_sim_server,
        # the stage tests' pages are colour swatches the capture gate would send back before
        # inference: they measure the processes and queues, not the capture
        "DOCINTEL_CAPTURE_GATE": "false",
        "DOCINTEL_TRITON_MODEL": "null",
        "DOCINTEL_BLOB_DIR": str(settings.STORAGES["default"]["OPTIONS"]["location"]),
        "DOCINTEL_LOG_FORMAT": "json",
        "PROMETHEUS_MULTIPROC_DIR": str(metrics_dir),
        "PYTHONUNBUFFERED": "1",
    }
    subprocess.run(
        [sys.executable, "-m", "celery", "-A", "config", "purge", "-f", "-Q", ",".join(queues.values())],
        cwd=REPO_ROOT, env=env, capture_output=True, timeout=60, check=False,
    )  # fmt: skip
    celery = [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool", "threads",
              "--without-gossip", "--without-mingle", "--without-heartbeat", "--loglevel", "INFO"]  # fmt: skip
    commands = {
        "web": [
            sys.executable,
            "-m",
            "gunicorn",
            "config.wsgi",
            "--bind",
            f"127.0.0.1:{web_port}",
            "--workers",
            "1",
            "--threads",
            "4",
        ],
        # the CPU worker takes the advisory signals too, after each decision
        "prepare": [
            *celery,
            "--concurrency",
            "2",
            "-Q",
            f"{queues['prepare']},{queues['advisory']}",
            "-n",
            f"prepare-{web_port}@%h",
        ],
        "dispatcher": [sys.executable, "manage.py", "dispatch_inference", "--max-in-flight", "64"],
        "webhooks": [
            *celery,
            "--concurrency",
            "2",
            "-Q",
            queues["webhooks"],
            "-n",
            f"webhooks-{web_port}@%h",
        ],
    }
    processes: dict[str, subprocess.Popen[bytes]] = {}
    logs: dict[str, Path] = {}
    try:
        for name, command in commands.items():
            logs[name] = folder / f"{name}.log"
            with open(logs[name], "wb") as log:
                processes[name] = subprocess.Popen(
                    command, cwd=REPO_ROOT, env=env, stdout=log, stderr=subprocess.STDOUT
                )
        for name in ("prepare", "webhooks"):
            _wait(lambda n=name: b"ready." in logs[n].read_bytes(), name, processes[name], logs[name])
        _wait(lambda: b"dispatching" in logs["dispatcher"].read_bytes(), "dispatcher",
              processes["dispatcher"], logs["dispatcher"])  # fmt: skip
        _wait(lambda: _http_ok(f"http://127.0.0.1:{web_port}/healthz"), "web", processes["web"], logs["web"])
        yield StageStack(
            url=f"http://127.0.0.1:{web_port}",
            queues=queues,
            logs=logs,
            processes=processes,
            metrics_dir=metrics_dir,
        )
    finally:
        for process in processes.values():
            process.terminate()
        for process in processes.values():
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
