"""The PDF sandbox's child sees none of the worker's secrets (media.pdf_sandbox, issue 48 item 8).

GIVEN a worker whose environment holds the master key, the database URL and the secret key
WHEN a PDF job runs in the sandbox child
THEN neither the child's environment nor the environment its process started with (which stays in
its memory: ``/proc/self/environ``), nor that of the fork server it was forked from, holds any of
them: only the allow-listed variables reach it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from media.pdf_sandbox import ENVIRONMENT_KEPT
from tests.conftest import REPO_ROOT

CANARY = "canary-7f3e9c"
SECRETS = {
    "DOCINTEL_MASTER_KEY": f"{CANARY}-master-key",
    "DATABASE_URL": f"postgres://docintel:{CANARY}@db.internal:5432/docintel",
    "DJANGO_SECRET_KEY": f"{CANARY}-secret-key",
    "DOCINTEL_METRICS_TOKEN": f"{CANARY}-metrics",
}
# Run in a fresh interpreter so its fork server starts with these variables in its parent.
SCRIPT = """
import json
from media.pdf_sandbox import SandboxLimits, sandboxed
from tests.unit.media.test_pdf_sandbox_environment import environment_probe
(report,) = sandboxed(environment_probe, b"", None, SandboxLimits())
print(json.dumps(report))
"""


def _initial_environment(pid: int | str) -> dict[str, str]:
    raw = Path(f"/proc/{pid}/environ").read_bytes()
    pairs = (entry.decode(errors="replace").partition("=") for entry in raw.split(b"\0") if entry)
    return {name: value for name, _, value in pairs}


def environment_probe(data: bytes, options: Any) -> Iterator[dict[str, Any]]:
    """A sandbox job (runs in the child): what the child and its fork server can read."""
    yield {
        "environ": dict(os.environ),
        "initial": _initial_environment("self"),
        "server": _initial_environment(os.getppid()),
    }


def test_the_sandbox_child_and_its_fork_server_hold_no_secret_of_the_worker():
    environment = {**os.environ, **SECRETS, "LANG": "C.UTF-8"}
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        cwd=REPO_ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    for where in ("initial", "server"):  # what each process was started with: the allow-list only
        extra = set(report[where]) - ENVIRONMENT_KEPT
        assert not extra, f"{where}: {sorted(extra)}"
    for where in ("environ", "initial", "server"):  # (libraries may add their own at import)
        assert not set(SECRETS) & set(report[where]), where
        assert CANARY not in json.dumps(report[where]), where
    # what the child needs still reaches it
    assert report["environ"]["PATH"] == environment["PATH"]
    assert report["environ"]["LANG"] == "C.UTF-8"
