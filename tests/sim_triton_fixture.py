"""pytest plugin: a second real Triton server with the simulated models (``null``, ``sim_gpu``).

They answer in milliseconds (no OCR models to load), so this server is ready in about a second;
tests of the dispatcher, the per-stage workers and /metrics use it to push many documents through
the real path quickly. The fixture yields its gRPC URL.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.support.processes import free_ports, log_tail

SIM_MODELS = ("null", "sim_gpu")
READY_TIMEOUT_S = float(os.environ.get("DOCINTEL_TEST_TRITON_READY_S", "180"))


@pytest.fixture(scope="session")
def triton_sim_server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """The gRPC URL of a running Triton with ``null`` and ``sim_gpu`` ready."""
    pytest.importorskip("tritonclient.grpc", reason="tritonclient[grpc] is not installed")
    from servers import triton_server as launcher

    try:
        launcher.find_installation()
    except FileNotFoundError as error:
        pytest.skip(f"no Triton server available: {error}")

    http_port, grpc_port, metrics_port = free_ports(3)
    log_path = tmp_path_factory.mktemp("triton-sim") / "tritonserver.log"
    process = launcher.start_background(
        http_port=http_port,
        grpc_port=grpc_port,
        metrics_port=metrics_port,
        log_path=log_path,
        models=SIM_MODELS,
        die_with_parent=True,
    )
    try:
        launcher.wait_until_ready(
            f"127.0.0.1:{http_port}", READY_TIMEOUT_S, models=SIM_MODELS, process=process
        )
    except (TimeoutError, RuntimeError) as error:
        launcher.stop(process)
        pytest.fail(f"Triton did not start: {error}\n--- {log_path} (tail) ---\n{log_tail(log_path)}")
    failed_before = request.session.testsfailed
    try:
        yield f"127.0.0.1:{grpc_port}"
    finally:
        launcher.stop(process, timeout_s=10)
        if request.session.testsfailed > failed_before:
            reporter = request.config.pluginmanager.get_plugin("terminalreporter")
            if reporter is not None:
                reporter.write_sep("-", f"tritonserver (simulated models) log (tail of {log_path})")
                reporter.write_line(log_tail(log_path))
