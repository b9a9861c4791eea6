"""The whole system for a benchmark: Triton with the simulated models, the API (gunicorn), a CPU
worker, the inference dispatcher and a webhook worker, each a process of its own on queues of
its own, on a PostgreSQL database of its own (``DOCINTEL_BENCH_DATABASE_URL``, default
``postgres://postgres@127.0.0.1:5432/docintel_bench``, dropped and created empty for every run, so
its name must contain "bench").

Also what the benchmarks measure them with: CPU seconds of each process tree (psutil), documents
uploaded through the API, and their progress read straight from PostgreSQL.
"""

from __future__ import annotations

import base64
import concurrent.futures
import contextlib
import io
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psutil

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
PY = sys.executable
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/docintel_bench"
DEFAULT_BROKER = "redis://127.0.0.1:6379/0"
# The statuses a document ends its run in: decided (approved, for review, or sent back to the
# applicant for a new photo by the capture gate, which decides without a model call) or failed.
DECIDED = ["auto_approved", "needs_review", "resubmission_requested", "failed"]


def free_ports(count: int) -> list[int]:
    sockets = [socket.socket() for _ in range(count)]
    try:
        for sock in sockets:
            sock.bind(("127.0.0.1", 0))
        return [int(sock.getsockname()[1]) for sock in sockets]
    finally:
        for sock in sockets:
            sock.close()


def fresh_database(url: str) -> None:
    """An empty database for this run: every run measures on the same, empty tables, not on the
    rows of every run before it (indexes and the audit chain grow with them)."""
    import psycopg

    name = url.rsplit("/", 1)[1]
    if "bench" not in name:
        raise SystemExit(f"refusing to drop database {name!r}: a benchmark database's name contains 'bench'")
    admin = url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{name}"')


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a process and all its descendants, alive now."""
    try:
        root = psutil.Process(pid)
        total = 0.0
        for process in [root, *root.children(recursive=True)]:
            with contextlib.suppress(psutil.NoSuchProcess):
                times = process.cpu_times()
                total += times.user + times.system
        return total
    except psutil.NoSuchProcess:
        return 0.0


def machine_load() -> dict[str, Any]:
    load1, load5, load15 = os.getloadavg()
    return {"cpus": os.cpu_count(), "load_average": [round(load1, 2), round(load5, 2), round(load15, 2)]}


def tiny_jpeg(seed: int, size: tuple[int, int] = (320, 240)) -> bytes:
    """A small, distinct photo-like JPEG (distinct bytes: content deduplication never answers)."""
    from PIL import Image, ImageDraw

    image = Image.new("RGB", size, (200 + seed % 50, 190, 180))
    draw = ImageDraw.Draw(image)
    draw.rectangle((10, 10, size[0] - 10, size[1] // 3), outline=(20, 20, 20), width=2)
    draw.text((20, 20), f"DOC {seed:08d}", fill=(0, 0, 0))
    buffer = io.BytesIO()
    image.save(buffer, format="JPEG", quality=85)
    return buffer.getvalue()


def _multipart(
    content: bytes, name: str, callback_url: str = "", document_type: str = ""
) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    fields = {"callback_url": callback_url, "document_type": document_type}
    given = "".join(
        f'--{boundary}\r\nContent-Disposition: form-data; name="{key}"\r\n\r\n{value}\r\n'
        for key, value in fields.items()
        if value
    )
    head = (
        given + f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{name}"\r\n'
        "Content-Type: image/jpeg\r\n\r\n"
    ).encode()
    return head + content + f"\r\n--{boundary}--\r\n".encode(), f"multipart/form-data; boundary={boundary}"


def _multipart_files(contents: Sequence[bytes], names: Sequence[str]) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    parts = [
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="files"; filename="{name}"\r\n'
            "Content-Type: image/jpeg\r\n\r\n"
        ).encode()
        + content
        + b"\r\n"
        for content, name in zip(contents, names, strict=True)
    ]
    return b"".join(parts) + f"--{boundary}--\r\n".encode(), f"multipart/form-data; boundary={boundary}"


@dataclass
class Upload:
    document_id: str
    started: float  # time.time() when the request began
    seconds: float
    status: int


@dataclass
class Stack:
    """Processes by name; ``start``/``stop`` one of them; the API's URL and key; the queues."""

    env: dict[str, str]
    workdir: Path
    triton_url: str = ""
    web_url: str = ""
    api_key: str = ""
    processes: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)

    @property
    def queues(self) -> list[str]:
        return [
            self.env[name]
            for name in (
                "DOCINTEL_CELERY_QUEUE",
                "DOCINTEL_INFER_QUEUE",
                "DOCINTEL_WEBHOOK_QUEUE",
                "DOCINTEL_ADVISORY_QUEUE",
            )
        ]

    def start(self, name: str, command: Sequence[str], extra_env: dict[str, str] | None = None) -> int:
        log = open(self.workdir / f"{name}.log", "ab")  # noqa: SIM115 — open as long as the process
        self.processes[name] = subprocess.Popen(
            list(command),
            cwd=ROOT,
            env={**self.env, **(extra_env or {})},
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        return self.processes[name].pid

    def stop(self, name: str) -> None:
        process = self.processes.pop(name, None)
        if process is None or process.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=40)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()

    def wait_for_log(self, name: str, text: str, timeout_s: float = 120) -> None:
        deadline = time.monotonic() + timeout_s
        path = self.workdir / f"{name}.log"
        while text.encode() not in path.read_bytes():
            process = self.processes[name]
            if process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"{name} did not start; see {path}")
            time.sleep(0.2)

    def cpu(self) -> dict[str, float]:
        return {name: cpu_seconds(process.pid) for name, process in self.processes.items()}

    # -- the processes -------------------------------------------------------------------------

    def start_triton(self) -> None:
        from servers import triton_server as launcher

        http, grpc, metrics = free_ports(3)
        models = ("null", "sim_gpu")
        self.start(
            "triton",
            [PY, "-m", "servers.triton_server", "--http-port", str(http), "--grpc-port", str(grpc),
             "--metrics-port", str(metrics), *(arg for m in models for arg in ("--model", m))],
        )  # fmt: skip
        launcher.wait_until_ready(f"127.0.0.1:{http}", 180, models=models, process=self.processes["triton"])
        self.triton_url = f"127.0.0.1:{grpc}"
        self.env["DOCINTEL_TRITON_URL"] = self.triton_url

    def start_web(self, threads: int = 8) -> None:
        (port,) = free_ports(1)
        self.start(
            "web",
            [PY, "-m", "gunicorn", "config.wsgi:application", "--workers", "1", "--threads", str(threads),
             "--bind", f"127.0.0.1:{port}"],
        )  # fmt: skip
        self.web_url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"{self.web_url}/healthz", timeout=2).read()
                return
            except OSError:
                if time.monotonic() > deadline or self.processes["web"].poll() is not None:
                    raise SystemExit(
                        f"the web server did not start; see {self.workdir / 'web.log'}"
                    ) from None
                time.sleep(0.3)

    def start_cpu_worker(self, concurrency: int = 4, extra_env: dict[str, str] | None = None) -> None:
        self.start(
            "cpu-worker",
            [PY, "-m", "celery", "-A", "config", "worker", "--pool", "threads", "--concurrency", str(concurrency),
             "-Q", f"{self.env['DOCINTEL_CELERY_QUEUE']},{self.env['DOCINTEL_ADVISORY_QUEUE']}",
             "-n", f"cpu-{os.getpid()}@%h",
             "--without-gossip", "--without-mingle", "--without-heartbeat", "--loglevel", "INFO"],
            extra_env,
        )  # fmt: skip
        self.wait_for_log("cpu-worker", "ready.")

    def start_webhook_worker(self) -> None:
        self.start(
            "webhook-worker",
            [PY, "-m", "celery", "-A", "config", "worker", "--pool", "threads", "--concurrency", "2",
             "-Q", self.env["DOCINTEL_WEBHOOK_QUEUE"], "-n", f"webhooks-{os.getpid()}@%h",
             "--without-gossip", "--without-mingle", "--without-heartbeat", "--loglevel", "INFO"],
        )  # fmt: skip
        self.wait_for_log("webhook-worker", "ready.")

    def start_dispatcher(self, model: str, max_in_flight: int | None = None) -> None:
        command = [PY, "manage.py", "dispatch_inference", "--model", model]
        if max_in_flight:
            command += ["--max-in-flight", str(max_in_flight)]
        self.start("dispatcher", command, {"DOCINTEL_LOG_LEVEL": "INFO"})
        self.wait_for_log("dispatcher", "dispatching")

    def start_one_at_a_time_worker(self, model: str) -> None:
        """The baseline: a prefork Celery worker, one process, one blocking call at a time."""
        self.start(
            "prefork-worker",
            [PY, "-m", "celery", "-A", "config", "worker", "--pool", "prefork", "--concurrency", "1",
             "-Q", self.env["DOCINTEL_INFER_QUEUE"], "-n", f"prefork-{os.getpid()}@%h",
             "--without-gossip", "--without-mingle", "--without-heartbeat", "--loglevel", "INFO"],
            {"DOCINTEL_TRITON_MODEL": model},
        )  # fmt: skip
        self.wait_for_log("prefork-worker", "ready.", timeout_s=120)

    # -- documents -----------------------------------------------------------------------------

    def _post(self, path: str, body: bytes, content_type: str) -> tuple[dict[str, Any], int, float, float]:
        """The API's JSON answer and status, when the request began (time.time()) and its seconds."""
        import json

        request = urllib.request.Request(
            f"{self.web_url}{path}",
            data=body,
            method="POST",
            headers={"Authorization": f"Api-Key {self.api_key}", "Content-Type": content_type},
        )
        started_wall, started = time.time(), time.perf_counter()
        try:
            with urllib.request.urlopen(request, timeout=300) as response:
                payload, status = json.loads(response.read()), response.status
        except urllib.error.HTTPError as exc:
            payload, status = {}, exc.code
        return payload, status, started_wall, time.perf_counter() - started

    def upload(self, content: bytes, name: str, callback_url: str = "", document_type: str = "") -> Upload:
        """One ``POST /api/v1/documents``; ``document_type``: the upload's type hint, if any."""
        payload, status, started, seconds = self._post(
            "/api/v1/documents", *_multipart(content, name, callback_url, document_type)
        )
        return Upload(payload.get("id", ""), started, seconds, status)

    def upload_batch(self, contents: Sequence[bytes], names: Sequence[str]) -> list[Upload]:
        """One ``POST /api/v1/batches`` with every file; an Upload per document made."""
        payload, status, started, seconds = self._post("/api/v1/batches", *_multipart_files(contents, names))
        if status != 202:
            return [Upload("", started, seconds, status)]
        return [Upload(d["id"], started, seconds, status) for d in payload.get("documents", [])]

    def upload_batches(self, contents: Sequence[bytes], batch_size: int, clients: int = 2) -> list[Upload]:
        """``contents`` in batches of ``batch_size`` files, ``clients`` requests at a time."""
        chunks = [range(i, min(i + batch_size, len(contents))) for i in range(0, len(contents), batch_size)]
        with concurrent.futures.ThreadPoolExecutor(clients) as pool:
            answers = pool.map(
                lambda chunk: self.upload_batch(
                    [contents[i] for i in chunk], [f"bench-{i}.jpg" for i in chunk]
                ),
                chunks,
            )
            return [upload for answer in answers for upload in answer]

    def upload_many(
        self, contents: Sequence[bytes], clients: int = 8, document_type: str = ""
    ) -> list[Upload]:
        with concurrent.futures.ThreadPoolExecutor(clients) as pool:
            return list(
                pool.map(
                    lambda i: self.upload(contents[i], f"bench-{i}.jpg", document_type=document_type),
                    range(len(contents)),
                )
            )

    def sql(self, query: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        import psycopg

        with psycopg.connect(self.env["DATABASE_URL"], autocommit=True) as connection:
            return list(connection.execute(query, params).fetchall())

    def wait_until(self, ids: Sequence[str], statuses: Sequence[str], timeout_s: float) -> float:
        """Seconds until every document in ``ids`` is in one of ``statuses`` (SystemExit on timeout)."""
        started = time.perf_counter()
        deadline = time.monotonic() + timeout_s
        while True:
            (count,) = self.sql(
                "SELECT count(*) FROM documents_document WHERE id = ANY(%s::uuid[]) AND status = ANY(%s)",
                [list(ids), list(statuses)],
            )[0]
            if count >= len(ids):
                return time.perf_counter() - started
            if time.monotonic() > deadline:
                raise SystemExit(
                    f"only {count} of {len(ids)} documents reached {statuses} in {timeout_s:.0f} s"
                )
            time.sleep(0.25)

    def close(self) -> None:
        for name in list(self.processes)[::-1]:
            self.stop(name)
        subprocess.run(
            [PY, "-m", "celery", "-A", "config", "purge", "-f", "-Q", ",".join(self.queues)],
            cwd=ROOT, env=self.env, capture_output=True, timeout=120, check=False,
        )  # fmt: skip
        shutil.rmtree(self.workdir / "blobs", ignore_errors=True)


@contextlib.contextmanager
def stack(
    log_dir: Path, *, log_level: str = "INFO", extra_env: dict[str, str] | None = None
) -> Iterator[Stack]:
    """A tenant with an API key on the bench database, and nothing running yet; stops everything."""
    run = secrets.token_hex(3)
    queue = f"docintel-bench-{run}"
    workdir = log_dir / f"stack-{run}"
    workdir.mkdir(parents=True, exist_ok=True)
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.dev",
        # blobs (encrypted under a key of this run's own) in this run's folder, removed at the end
        "DOCINTEL_VAR_DIR": str(workdir),
        "DOCINTEL_MASTER_KEY": base64.b64encode(secrets.token_bytes(32)).decode(),
        "DATABASE_URL": os.environ.get("DOCINTEL_BENCH_DATABASE_URL", DEFAULT_DB),
        "CELERY_BROKER_URL": os.environ.get("DOCINTEL_BENCH_BROKER_URL", DEFAULT_BROKER),
        "DOCINTEL_CELERY_QUEUE": queue,
        "DOCINTEL_INFER_QUEUE": f"{queue}-infer",
        "DOCINTEL_WEBHOOK_QUEUE": f"{queue}-webhooks",
        "DOCINTEL_ADVISORY_QUEUE": f"{queue}-advisory",
        "DOCINTEL_TRITON_MODEL": "null",
        "DOCINTEL_API_RATE_LIMIT": "0",
        "DOCINTEL_LOG_LEVEL": log_level,
        "DJANGO_DEBUG": "0",
        "PYTHONUNBUFFERED": "1",
        **(extra_env or {}),
    }
    env.pop("PROMETHEUS_MULTIPROC_DIR", None)
    fresh_database(env["DATABASE_URL"])

    def manage(*args: str) -> str:
        return subprocess.run(
            [PY, "manage.py", *args],
            cwd=ROOT,
            env=env,
            check=True,
            capture_output=True,
            text=True,
            timeout=900,
        ).stdout

    manage("migrate", "--noinput")
    tenant = f"bench-{run}"
    manage("create_tenant", tenant)
    result = Stack(env=env, workdir=workdir)
    result.api_key = manage("create_api_key", "--tenant", tenant, "--name", "bench").strip().splitlines()[-1]
    try:
        yield result
    finally:
        result.close()
