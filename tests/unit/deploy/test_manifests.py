"""deploy/k8s: the manifests parse, every long-running process has probes, and every probe points
at an endpoint that really answers on the port the process serves."""

from __future__ import annotations

import urllib.request
from pathlib import Path
from typing import Any

import pytest
import yaml

REPO_ROOT = Path(__file__).resolve().parents[3]
K8S = REPO_ROOT / "deploy" / "k8s"
TRITON_HEALTH = {"/v2/health/live", "/v2/health/ready"}


def _documents() -> list[dict[str, Any]]:
    docs = []
    for path in sorted(K8S.glob("*.yaml")):
        docs.extend(doc for doc in yaml.safe_load_all(path.read_text()) if doc)
    return docs


def _deployments() -> dict[str, dict[str, Any]]:
    return {doc["metadata"]["name"]: doc for doc in _documents() if doc["kind"] == "Deployment"}


def _container(deployment: dict[str, Any]) -> dict[str, Any]:
    (container,) = deployment["spec"]["template"]["spec"]["containers"]
    return container


def _port(container: dict[str, Any], name_or_number: str | int) -> int:
    if isinstance(name_or_number, int):
        return name_or_number
    return next(p["containerPort"] for p in container["ports"] if p["name"] == name_or_number)


def _config() -> dict[str, str]:
    return next(doc["data"] for doc in _documents() if doc["kind"] == "ConfigMap")


def test_manifests_parse_and_the_kustomization_lists_every_file() -> None:
    kustomization = yaml.safe_load((K8S / "kustomization.yaml").read_text())
    files = {p.name for p in K8S.glob("*.yaml")} - {"kustomization.yaml"}
    assert set(kustomization["resources"]) == files
    assert {
        "web",
        "worker-prepare",
        "dispatcher",
        "worker-webhooks",
        "worker-advisory",
        "beat",
        "triton",
    } <= set(_deployments())


def test_each_stage_worker_consumes_its_own_queue() -> None:
    config, deployments = _config(), _deployments()
    names = (
        "DOCINTEL_CELERY_QUEUE",
        "DOCINTEL_INFER_QUEUE",
        "DOCINTEL_WEBHOOK_QUEUE",
        "DOCINTEL_ADVISORY_QUEUE",
    )
    assert len({config[k] for k in names}) == 4
    expected = {
        "worker-prepare": "$(DOCINTEL_CELERY_QUEUE)",
        "worker-webhooks": "$(DOCINTEL_WEBHOOK_QUEUE)",
        "worker-advisory": "$(DOCINTEL_ADVISORY_QUEUE)",
        "dispatcher": "$(DOCINTEL_INFER_QUEUE)",
    }
    for name, queue in expected.items():
        command = _container(deployments[name])["command"]
        flag = "-Q" if "-Q" in command else "--queue"
        assert command[command.index(flag) + 1] == queue, name


def test_every_process_but_beat_has_liveness_and_readiness_probes() -> None:
    for name, deployment in _deployments().items():
        container = _container(deployment)
        if name == "beat":
            assert "livenessProbe" not in container  # no HTTP server: see beat.yaml
            continue
        assert "livenessProbe" in container and "readinessProbe" in container, name


@pytest.mark.django_db
def test_web_probes_answer_on_the_django_app_whatever_the_host(client) -> None:
    container = _container(_deployments()["web"])
    for probe in ("livenessProbe", "readinessProbe"):
        path = container[probe]["httpGet"]["path"]
        assert client.get(path, HTTP_HOST="10.12.0.5:8000").status_code == 200, path


@pytest.mark.django_db(transaction=True)
def test_worker_probes_answer_on_the_exporter_of_the_metrics_port() -> None:
    """The workers' and the dispatcher's probes go to DOCINTEL_METRICS_PORT, where
    apps.observability.exporter answers them (started here on a free port)."""
    from apps.observability.exporter import start_exporter
    from apps.observability.health import readiness_problems

    server = start_exporter(0, live=lambda: True, ready=readiness_problems, address="127.0.0.1")
    try:
        metrics_port = int(_config()["DOCINTEL_METRICS_PORT"])
        for name in ("worker-prepare", "dispatcher", "worker-webhooks", "worker-advisory"):
            container = _container(_deployments()[name])
            for probe in ("livenessProbe", "readinessProbe"):
                http = container[probe]["httpGet"]
                assert _port(container, http["port"]) == metrics_port, name
                url = f"http://127.0.0.1:{server.server_port}{http['path']}"
                with urllib.request.urlopen(url, timeout=10) as response:
                    assert response.status == 200, (name, http["path"])
        with urllib.request.urlopen(f"http://127.0.0.1:{server.server_port}/metrics", timeout=10) as response:
            assert b"docintel_stage_seconds" in response.read()
    finally:
        server.shutdown()


def test_triton_runs_on_the_gpu_pool_with_its_own_health_endpoints() -> None:
    from servers.triton_server import main  # noqa: F401 — the command the manifest runs exists

    deployment = _deployments()["triton"]
    spec = deployment["spec"]["template"]["spec"]
    container = _container(deployment)
    assert container["resources"]["limits"]["nvidia.com/gpu"] == 1
    assert spec["nodeSelector"] and spec["tolerations"]
    command = container["command"]
    http_port = int(command[command.index("--http-port") + 1])
    for probe in ("startupProbe", "livenessProbe", "readinessProbe"):
        http = container[probe]["httpGet"]
        assert http["path"] in TRITON_HEALTH
        assert _port(container, http["port"]) == http_port
    grpc_port = int(command[command.index("--grpc-port") + 1])
    assert _config()["DOCINTEL_TRITON_URL"] == f"triton:{grpc_port}"
