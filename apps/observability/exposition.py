"""The /metrics text: this process's registry, or every process's values on a multi-process host."""

from __future__ import annotations

import os

from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.multiprocess import MultiProcessCollector
from prometheus_client.registry import REGISTRY, Collector

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"


def metrics_text(extra: Collector | None = None) -> bytes:
    """Prometheus exposition of the metrics recorded on this host, plus ``extra`` (scrape-time values).

    With ``PROMETHEUS_MULTIPROC_DIR`` set, every process of the host wrote its values there, this
    one included: sum the folder. Otherwise this process's own registry is all there is.
    """
    registry = CollectorRegistry()
    directory = os.environ.get(MULTIPROC_ENV)
    if directory:
        MultiProcessCollector(registry, path=directory)
    else:
        for collector in list(REGISTRY._collector_to_names):
            registry.register(collector)
    if extra is not None:
        registry.register(extra)
    return generate_latest(registry)
