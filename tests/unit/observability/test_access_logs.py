"""Access logs keep paths only: the web servers as they are deployed (gunicorn with the command of
deploy/k8s/web.yaml; Django's development server, which `make up` runs) are started for real and
sent an export link with its signature and a search for a name; their logs name the paths and
hold neither the signature nor the name."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path

import pytest
import yaml

pytestmark = [pytest.mark.slow, pytest.mark.django_db]
REPO_ROOT = Path(__file__).resolve().parents[3]
SIGNATURE = "5ec2e7deadbeef" * 4
NAME = "ERIKSSON"
BATCH = uuid.uuid4()
EXPORT_PATH = f"/api/v1/batches/{BATCH}/results.csv"
REQUESTS = [
    f"{EXPORT_PATH}?tenant={uuid.uuid4()}&expires=4102444800&signature={SIGNATURE}",
    f"/?q={NAME}",
    f"/healthz?q={NAME}",
]


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _environment() -> dict[str, str]:
    from django.conf import settings

    db = settings.DATABASES["default"]
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.test",
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "PYTHONUNBUFFERED": "1",
    }


def _serve_and_request(command: list[str], port: int, log: Path) -> str:
    """Start ``command``, wait until it answers on ``port``, send every request, stop it: its log."""
    with open(log, "wb") as out:
        process = subprocess.Popen(
            command, cwd=REPO_ROOT, env=_environment(), stdout=out, stderr=subprocess.STDOUT
        )
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=5).close()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(f"the server did not start:\n{log.read_text()[-3000:]}") from None
                time.sleep(0.3)
        for path in REQUESTS:
            # the signature is not valid, and the list needs a login: the lines are what counts
            with contextlib.suppress(urllib.error.HTTPError):
                urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=30).close()
        time.sleep(0.5)  # the last access line is written after the answer
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
    return log.read_text()


def _web_command(port: int) -> list[str]:
    """The web pods' command from deploy/k8s/web.yaml, on a local port with one worker."""
    documents = yaml.safe_load_all((REPO_ROOT / "deploy" / "k8s" / "web.yaml").read_text())
    deployment = next(d for d in documents if d and d["kind"] == "Deployment")
    command = list(deployment["spec"]["template"]["spec"]["containers"][0]["command"])
    command[command.index("--bind") + 1] = f"127.0.0.1:{port}"
    command[command.index("--workers") + 1] = "1"
    assert command[0] == "gunicorn"
    return [sys.executable, "-m", "gunicorn", *command[1:]]


def _assert_paths_only(log: str) -> None:
    assert EXPORT_PATH in log and "GET / HTTP/1.1" in log, log  # the requests were logged
    assert SIGNATURE not in log and "signature=" not in log, log
    assert NAME not in log, log


def test_gunicorn_as_deployed_logs_paths_without_their_queries(tmp_path) -> None:
    """GIVEN the web pods' gunicorn WHEN an export link and a search are requested THEN its access
    log names their paths, without the signature or the name searched for."""
    port = _free_port()
    _assert_paths_only(_serve_and_request(_web_command(port), port, tmp_path / "gunicorn.log"))


def test_the_development_server_logs_paths_without_their_queries(tmp_path) -> None:
    """GIVEN the development server `make up` runs WHEN the same requests arrive THEN its request
    lines name the paths only."""
    port = _free_port()
    command = [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload", "--skip-checks"]
    _assert_paths_only(_serve_and_request(command, port, tmp_path / "runserver.log"))
