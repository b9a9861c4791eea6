"""Fixtures for the fault-injection tests: real processes we are allowed to break.

* ``private_redis`` — a ``redis-server`` of our own on a free port, the broker of every process
  here (test process included). The machine's Redis on 6379 is shared with other test runs: it
  is never flushed or restarted; this one is.
* ``reliability_triton`` — a Triton of our own with the simulated models (``sim_rel``: a short
  batch latency, a poison type hint that crashes it; ``sim_small_queue``: a queue of 2, for
  "queue full"; ``sim_slow``: 8 documents a second, so faults find documents mid-call), from a model repository built in a temporary folder out of ``model_repo/sim_gpu``.
  It can be paused (SIGSTOP) and resumed: a hung server whose port still accepts connections.
* ``fault_stack`` — a Celery worker with the reconciler's beat, and the inference dispatcher, as
  processes the test starts, SIGKILLs and restarts, configured per test through the environment.
* ``reliability_results`` — the counts each test measured, printed at the end of the session and
  written to ``var/reliability-results.json``.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from servers.triton_server import _terminate_with_parent
from tests.support.processes import free_ports, log_tail

REPO_ROOT = Path(__file__).resolve().parents[2]
RESULTS_PATH = REPO_ROOT / "var" / "reliability-results.json"
POISON_HINT = "bank_statement"  # sim_rel crashes on every document with this type hint
SIM_MODELS = ("sim_rel", "sim_small_queue", "sim_slow")
READY_TIMEOUT_S = float(os.environ.get("DOCINTEL_TEST_TRITON_READY_S", "180"))


def wait_for(check: Callable[[], bool], what: str, timeout_s: float, interval_s: float = 0.1) -> float:
    """Poll ``check`` until true; the seconds it took. Fails the test with ``what`` on timeout."""
    started = time.monotonic()
    while not check():
        if time.monotonic() - started > timeout_s:
            raise AssertionError(f"timed out after {timeout_s:.0f} s waiting for {what}")
        time.sleep(interval_s)
    return time.monotonic() - started


# --- Redis -----------------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def private_redis(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The URL of a redis-server only these tests use (no persistence: a FLUSHALL is final)."""
    import redis

    if shutil.which("redis-server") is None:
        pytest.fail("redis-server is not installed (Debian package redis-server; make setup installs it)")
    (port,) = free_ports(1)
    folder = tmp_path_factory.mktemp("redis")
    with open(folder / "redis.log", "wb") as log:
        process = subprocess.Popen(
            ["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(folder)],
            stdout=log, stderr=subprocess.STDOUT, preexec_fn=_terminate_with_parent,
        )  # fmt: skip
    client = redis.Redis(port=port)

    def up() -> bool:
        try:
            return bool(client.ping())
        except redis.ConnectionError:
            assert process.poll() is None, (folder / "redis.log").read_text()
            return False

    wait_for(up, "the private redis-server", 20)
    try:
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        client.close()
        process.terminate()
        process.wait(timeout=10)


@pytest.fixture
def test_process_broker(private_redis: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Point this process's Celery app (the uploads' task sends) at the private Redis. Celery reads
    ``CELERY_BROKER_URL`` from the environment before its settings; the connection pools are
    dropped so the next send connects anew (the old pools stay registered and open)."""
    from config.celery import app

    def reconnect() -> None:
        app._pool = None
        app.amqp._producer_pool = None

    monkeypatch.setenv("CELERY_BROKER_URL", private_redis)
    reconnect()
    assert app.connection_for_write().as_uri().endswith(private_redis.removeprefix("redis://"))
    try:
        yield private_redis
    finally:
        monkeypatch.undo()
        reconnect()


# --- Triton ----------------------------------------------------------------------------------------


def _sim_config(
    name: str, *, batch_latency_ms: int, max_batch: int = 32, queue_size: int = 0, crash_on_hint: str = ""
) -> str:
    """model_repo/sim_gpu's config.pbtxt under another name and parameters."""
    config = (REPO_ROOT / "model_repo" / "sim_gpu" / "config.pbtxt").read_text()
    config = config.replace('name: "sim_gpu"', f'name: "{name}"')
    config = config.replace("max_batch_size: 32", f"max_batch_size: {max_batch}")
    config = config.replace('string_value: "150"', f'string_value: "{batch_latency_ms}"')
    if queue_size:
        config = config.replace(
            "max_queue_delay_microseconds: 1000",
            f"max_queue_delay_microseconds: 1000\n  default_queue_policy {{ max_queue_size: {queue_size} }}",
        )
    if crash_on_hint:
        config += (
            f'parameters: {{\n  key: "crash_on_hint"\n  value: {{ string_value: "{crash_on_hint}" }}\n}}\n'
        )
    return config


def _model_repository(folder: Path) -> Path:
    """sim_gpu's code under two configurations of our own."""
    configs = {
        "sim_rel": _sim_config("sim_rel", batch_latency_ms=40, crash_on_hint=POISON_HINT),
        "sim_small_queue": _sim_config("sim_small_queue", batch_latency_ms=40, queue_size=2),
        # slow enough (8 documents a second) that a kill finds documents inside Triton
        "sim_slow": _sim_config("sim_slow", batch_latency_ms=1000, max_batch=8),
    }
    for name, config in configs.items():
        (folder / name / "1").mkdir(parents=True)
        (folder / name / "config.pbtxt").write_text(config)
        (folder / name / "1" / "model.py").symlink_to(REPO_ROOT / "model_repo" / "sim_gpu" / "1" / "model.py")
    return folder


@dataclass
class TritonHandle:
    url: str  # gRPC host:port
    process: subprocess.Popen[bytes]
    log_path: Path

    def pause(self) -> None:
        """SIGSTOP the server: connections are accepted, nothing answers. Its Python backend stubs
        run on: stopped with it past the backend's 30 s stub timeout, the server may find them
        unhealthy on waking and keep its models down, which is another fault than a hung server."""
        os.kill(self.process.pid, signal.SIGSTOP)

    def resume(self) -> None:
        os.kill(self.process.pid, signal.SIGCONT)


@pytest.fixture(scope="session")
def reliability_triton(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TritonHandle]:
    pytest.importorskip("tritonclient.grpc", reason="tritonclient[grpc] is not installed")
    from servers import triton_server as launcher

    try:
        launcher.find_installation()
    except FileNotFoundError as error:
        pytest.skip(f"no Triton server available: {error}")
    folder = tmp_path_factory.mktemp("triton-rel")
    repository = _model_repository(folder / "model_repo")
    http_port, grpc_port, metrics_port = free_ports(3)
    log_path = folder / "tritonserver.log"
    process = launcher.start_background(
        http_port=http_port,
        grpc_port=grpc_port,
        metrics_port=metrics_port,
        model_repository=repository,
        log_path=log_path,
        models=SIM_MODELS,
        die_with_parent=True,
    )
    handle = TritonHandle(url=f"127.0.0.1:{grpc_port}", process=process, log_path=log_path)
    try:
        launcher.wait_until_ready(
            f"127.0.0.1:{http_port}", READY_TIMEOUT_S, models=SIM_MODELS, process=process
        )
    except (TimeoutError, RuntimeError) as error:
        launcher.stop(process)
        pytest.fail(f"Triton did not start: {error}\n{log_tail(log_path)}")
    try:
        yield handle
    finally:
        handle.resume()  # a failed test may have left it stopped
        launcher.stop(process, timeout_s=10)


# --- worker and dispatcher ---------------------------------------------------------------------------


@dataclass
class FaultStack:
    """The worker (with the reconciler's beat) and the dispatcher, started and killed at will."""

    env: dict[str, str]
    folder: Path
    redis_url: str
    processes: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)
    starts: int = 0
    # the queues the worker consumes, by the variable naming each (the inference queue too where no
    # dispatcher runs: the Celery ``infer`` task, one blocking call at a time)
    worker_queues: tuple[str, ...] = (
        "DOCINTEL_CELERY_QUEUE",
        "DOCINTEL_WEBHOOK_QUEUE",
        "DOCINTEL_ADVISORY_QUEUE",
    )
    worker_threads: int = 2

    def _command(self, name: str) -> list[str]:
        celery = [sys.executable, "-m", "celery", "-A", "config"]
        if name == "beat":  # its own process, as deployed: killing a worker leaves the schedule running
            return [*celery, "beat", "--loglevel", "INFO", "-s", str(self.folder / "beat-schedule")]
        if name == "worker":
            queues = ",".join(self.env[variable] for variable in self.worker_queues)
            return [
                *celery, "worker", "--pool", "threads", "--concurrency", str(self.worker_threads), "-Q", queues,
                "-n", f"rel-{self.starts}@%h", "--without-gossip", "--without-mingle",
                "--without-heartbeat", "--loglevel", "INFO",
            ]  # fmt: skip
        in_flight = self.env.get("DOCINTEL_DISPATCH_MAX_IN_FLIGHT", "32")
        return [sys.executable, "manage.py", "dispatch_inference", "--max-in-flight", in_flight]

    def log(self, name: str) -> Path:
        return self.folder / f"{name}.log"

    def log_text(self, name: str) -> str:
        path = self.log(name)
        return path.read_text(errors="replace") if path.exists() else ""

    def start(self, *names: str) -> None:
        """Start the named processes (``worker``, ``dispatcher``) and wait until they consume."""
        for name in names:
            self.starts += 1
            marker = {"worker": "ready.", "beat": "beat: Starting", "dispatcher": "dispatching"}[name]
            seen = self.log_text(name).count(marker)
            with open(self.log(name), "ab") as log:
                self.processes[name] = subprocess.Popen(
                    self._command(name),
                    cwd=REPO_ROOT,
                    env=self.env,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,  # a kill reaches its children too
                    preexec_fn=_terminate_with_parent,  # and a killed pytest leaves nothing behind
                )

            def started(name: str = name, marker: str = marker, seen: int = seen) -> bool:
                assert self.processes[name].poll() is None, f"{name} exited:\n{self.log_text(name)[-4000:]}"
                return self.log_text(name).count(marker) > seen

            wait_for(started, f"{name} to start", 90, interval_s=0.2)

    def kill(self, *names: str) -> None:
        """SIGKILL, of the process and its children: no shutdown handler runs, nothing is
        acknowledged or handed back."""
        for name in names:
            process = self.processes.pop(name)
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)

    def stop_all(self) -> None:
        for process in self.processes.values():
            process.terminate()
        for process in self.processes.values():
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=20)
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        self.processes.clear()

    def tails(self) -> str:
        names = ("worker", "dispatcher")
        return "\n".join(f"--- {name}\n{self.log_text(name)[-3000:]}" for name in names)


@pytest.fixture
def fault_stack(
    transactional_db: Any,
    private_redis: str,
    test_process_broker: str,
    reliability_triton: TritonHandle,
    tmp_path: Path,
    request: pytest.FixtureRequest,
) -> Iterator[Callable[..., FaultStack]]:
    """A factory: ``fault_stack(DOCINTEL_STUCK_AFTER_S="5", ...)`` gives a stack whose processes
    get those settings. The private Redis is emptied first; every process is stopped after the
    test (before its database is flushed)."""
    import redis
    from django.conf import settings

    redis.Redis.from_url(private_redis).flushall()
    db = settings.DATABASES["default"]
    stacks: list[FaultStack] = []

    def make(**overrides: str) -> FaultStack:
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "config.settings.test",
            "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
            "CELERY_BROKER_URL": private_redis,
            "DOCINTEL_CELERY_QUEUE": settings.CELERY_TASK_DEFAULT_QUEUE,
            "DOCINTEL_WEBHOOK_QUEUE": settings.DOCINTEL_WEBHOOK_QUEUE,
            "DOCINTEL_INFER_QUEUE": settings.DOCINTEL_INFER_QUEUE,
            "DOCINTEL_ADVISORY_QUEUE": settings.DOCINTEL_ADVISORY_QUEUE,
            "DOCINTEL_ENGINE": "triton",
            "DOCINTEL_TRITON_URL": reliability_triton.url,
            "DOCINTEL_TRITON_MODEL": "sim_rel",
            "DOCINTEL_TRITON_TIMEOUT_S": "5",
            "DOCINTEL_BLOB_DIR": str(settings.STORAGES["default"]["OPTIONS"]["location"]),
            "DOCINTEL_RECONCILE_EVERY_S": "1",
            "DOCINTEL_LOG_FORMAT": "plain",
            # the ledger's pages are generated swatches, not captures: these tests measure what
            # happens to documents on their way to the model, which the capture gate would stop
            "DOCINTEL_CAPTURE_GATE": "false",
            "DOCINTEL_AUTHENTICITY_SIGNALS": "false",
            "PYTHONUNBUFFERED": "1",
            **overrides,
        }
        stack = FaultStack(env=env, folder=tmp_path, redis_url=private_redis)
        stacks.append(stack)
        return stack

    failed_before = request.session.testsfailed
    try:
        yield make
    finally:
        reliability_triton.resume()
        for stack in stacks:
            stack.stop_all()
        if request.session.testsfailed > failed_before:
            for stack in stacks:
                print(stack.tails())


RESULTS: dict[str, Any] = {}


@pytest.fixture(scope="session")
def reliability_results() -> Iterator[dict[str, Any]]:
    """Each test's counts, by fault: kept in var/reliability-results.json (merged with the last
    run's other faults) and printed in the terminal summary."""
    yield RESULTS
    if not RESULTS:
        return
    RESULTS_PATH.parent.mkdir(parents=True, exist_ok=True)
    previous: dict[str, Any] = {}
    if RESULTS_PATH.exists():
        try:
            previous = json.loads(RESULTS_PATH.read_text())
        except ValueError:
            previous = {}
    RESULTS_PATH.write_text(json.dumps({**previous, **RESULTS}, indent=2, sort_keys=True) + "\n")


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if RESULTS:
        terminalreporter.write_sep("-", f"reliability: documents in flight per fault, lost ({RESULTS_PATH})")
        for fault, counts in sorted(RESULTS.items()):
            terminalreporter.write_line(f"{fault}: {json.dumps(counts, sort_keys=True)}")
