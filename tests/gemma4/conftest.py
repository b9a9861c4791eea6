"""The Gemma 4 suite: the same stack as the main suite with ``DOCINTEL_PIPELINE_VARIANT=gemma4``.

``make test`` runs it as its own pytest session after the main one (tests/conftest.py leaves this
folder out unless the variant is gemma4), so the session fixtures of the main suite — Triton,
the Celery worker — start the Gemma 4 variant here, and behind them a real engine: vLLM on CPU
(``.venv-vllm``) serving the tiny Gemma 4 checkpoint with random weights (scripts/vllm/install.sh).

Only :func:`triton_server` is replaced: the Gemma 4 ``doc_pipeline`` pointed at :func:`vllm_engine`.
The Celery worker fixture uses it unchanged, so uploads go web/API → PostgreSQL → Celery on Redis →
Triton → vLLM → fields, as in production.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.support.processes import free_ports, log_tail
from tests.triton_server_fixture import READY_TIMEOUT_S

REPO_ROOT = Path(__file__).resolve().parents[2]
VLLM_READY_S = float(os.environ.get("DOCINTEL_TEST_VLLM_READY_S", "300"))


@dataclass
class VllmEngine:
    """A vLLM server the tests may stop and start again on the same port."""

    checkpoint: Path
    port: int
    log_path: Path
    process: subprocess.Popen[bytes] | None = field(default=None, repr=False)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self, *, wait: bool = True) -> None:
        from servers import vllm_server

        self.process = vllm_server.start_background(
            self.checkpoint, port=self.port, log_path=self.log_path, die_with_parent=True
        )
        if wait:
            self.wait_ready()

    def wait_ready(self) -> None:
        from servers import vllm_server

        try:
            vllm_server.wait_until_ready(self.port, VLLM_READY_S, process=self.process)
        except (TimeoutError, RuntimeError) as error:
            self.stop()
            pytest.fail(f"vLLM did not start: {error}\n{log_tail(self.log_path)}")

    def stop(self) -> None:
        from servers import vllm_server

        if self.process is not None:
            vllm_server.stop(self.process)
            self.process = None


def start_engine(checkpoint: Path, log_path: Path) -> VllmEngine:
    from servers import vllm_server

    if not vllm_server.python_path().exists() or not (checkpoint / "config.json").exists():
        pytest.fail(
            "the vLLM environment or the tiny Gemma 4 checkpoint is missing: run scripts/vllm/install.sh"
        )
    engine = VllmEngine(checkpoint, free_ports(1)[0], log_path)
    engine.start()
    return engine


@pytest.fixture(scope="session")
def vllm_engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[VllmEngine]:
    """vLLM serving the tiny Gemma 4 E4B-shaped checkpoint, for the whole session."""
    from servers import vllm_server

    engine = start_engine(vllm_server.DEFAULT_CHECKPOINT, tmp_path_factory.mktemp("vllm") / "vllm.log")
    try:
        yield engine
    finally:
        engine.stop()


@pytest.fixture(scope="session")
def triton_server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, vllm_engine: VllmEngine
) -> Iterator[str]:
    """Triton with the Gemma 4 ``doc_pipeline`` (openai backend) calling :func:`vllm_engine`."""
    from servers import triton_server as launcher

    http_port, grpc_port, metrics_port = free_ports(3)
    log_path = tmp_path_factory.mktemp("triton") / "tritonserver.log"
    process = launcher.start_background(
        http_port=http_port,
        grpc_port=grpc_port,
        metrics_port=metrics_port,
        log_path=log_path,
        log_verbose=1,
        die_with_parent=True,
        config_name="gemma4",
        environment={"DOCINTEL_MODEL_BACKEND": "openai", "DOCINTEL_MODEL_URL": vllm_engine.url},
    )
    try:
        launcher.wait_until_ready(f"127.0.0.1:{http_port}", READY_TIMEOUT_S, process=process)
    except (TimeoutError, RuntimeError) as error:
        launcher.stop(process)
        pytest.fail(f"Triton did not start: {error}\n{log_tail(log_path)}")
    failed_before = request.session.testsfailed
    try:
        yield f"127.0.0.1:{grpc_port}"
    finally:
        launcher.stop(process)
        if request.session.testsfailed > failed_before:
            reporter = request.config.pluginmanager.get_plugin("terminalreporter")
            if reporter is not None:
                reporter.write_sep("-", "tritonserver log (tail)")
                reporter.write_line(log_tail(log_path))
                reporter.write_sep("-", "vLLM log (tail)")
                reporter.write_line(log_tail(vllm_engine.log_path))
