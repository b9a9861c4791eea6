"""pytest plugin: the real Triton server over model_repo/, started once per test session.

It listens on free ports (a dev stack on 8100-8102 keeps running undisturbed) and the fixture
yields its gRPC URL (``host:port``), the value ``DOCINTEL_TRITON_URL`` takes. The server log is
printed when the server fails to start or when any test of the session failed.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.support.processes import free_ports, log_tail

# Loading the Python backend and the OCR models takes a while on a small, shared CPU machine.
READY_TIMEOUT_S = float(os.environ.get("DOCINTEL_TEST_TRITON_READY_S", "180"))


@pytest.fixture(scope="session")
def triton_server(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The gRPC URL of a running Triton with ``doc_pipeline`` ready."""
    pytest.importorskip("tritonclient.grpc", reason="tritonclient[grpc] is not installed")
    from servers import triton_server as launcher

    try:
        launcher.find_installation()
    except FileNotFoundError as error:
        pytest.skip(f"no Triton server available: {error}")

    http_port, grpc_port, metrics_port = free_ports(3)
    log_path = tmp_path_factory.mktemp("triton") / "tritonserver.log"
    process = launcher.start_background(
        http_port=http_port,
        grpc_port=grpc_port,
        metrics_port=metrics_port,
        log_path=log_path,
        log_verbose=1,
        die_with_parent=True,
    )
    try:
        launcher.wait_until_ready(f"127.0.0.1:{http_port}", READY_TIMEOUT_S, process=process)
    except (TimeoutError, RuntimeError) as error:
        launcher.stop(process)
        pytest.fail(f"Triton did not start: {error}\n--- {log_path} (tail) ---\n{log_tail(log_path)}")

    failed_before = request.session.testsfailed
    try:
        yield f"127.0.0.1:{grpc_port}"
    finally:
        launcher.stop(process)
        if request.session.testsfailed > failed_before:
            reporter = request.config.pluginmanager.get_plugin("terminalreporter")
            if reporter is not None:
                reporter.write_sep("-", f"tritonserver log (tail of {log_path})")
                reporter.write_line(log_tail(log_path))
