"""Capacity and cost: documents per second per GPU, GPUs for a target load, cost per 1,000 documents.

Throughput per GPU type comes from measurements in ``bench/results/*.json`` where there are any
(an object ``"gpu_throughput": {"H200": {"documents_per_s": 180, "source": "..."}}``), otherwise
from the stated assumptions below, each with where it comes from. Prices are on-demand hourly
list prices, also stated with their source; both can be overridden per run. The CPU side (web,
workers, dispatcher) is sized from the measured ``cpu_ms_per_doc`` (bench/pipeline.py).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# Gemma 4 E4B extracting one-page documents. Only the B200 figure has a source in a statement
# (issue 7: "a B200 running Gemma 4 E4B can extract a few hundred pages a second"); the others scale
# it by HBM/GDDR bandwidth, since a 4B-parameter model's decode steps are bound by memory
# bandwidth, not FLOPs (NVIDIA data sheets: B200 8 TB/s, H200 4.8 TB/s, H100 SXM 3.35 TB/s,
# RTX PRO 6000 Blackwell 1.8 TB/s). Replace them with bench/results measurements when a GPU runs.
B200_ASSUMED_DOCS_PER_S = 300.0
_BANDWIDTH_TB_S = {"B200": 8.0, "RTX PRO 6000": 1.8, "H200": 4.8, "H100": 3.35}
# On-demand prices in USD per GPU-hour, public list prices of GPU clouds (late 2025; e.g. Lambda,
# RunPod, CoreWeave published rates, rounded): indicative only, override with --price.
_PRICE_USD_PER_HOUR = {"B200": 5.99, "RTX PRO 6000": 1.79, "H200": 3.79, "H100": 2.99}
PRICE_SOURCE = "on-demand list prices of public GPU clouds, late 2025 (indicative; override with --price)"
# A general-purpose vCPU-hour for the CPU side (web, workers, dispatcher), same kind of source.
CPU_CORE_USD_PER_HOUR = 0.04
GPU_TYPES = tuple(_BANDWIDTH_TB_S)


@dataclass(frozen=True)
class GpuThroughput:
    gpu: str
    documents_per_s: float
    source: str
    measured: bool


@dataclass(frozen=True)
class CapacityRow:
    gpu: str
    documents_per_s: float
    throughput_source: str
    measured: bool
    price_usd_per_hour: float
    price_source: str
    gpus_needed: int
    gpu_cost_per_1000_docs_usd: float
    cpu_cores_needed: float
    cpu_cost_per_1000_docs_usd: float

    @property
    def cost_per_1000_docs_usd(self) -> float:
        return self.gpu_cost_per_1000_docs_usd + self.cpu_cost_per_1000_docs_usd


def assumed_throughput() -> dict[str, GpuThroughput]:
    b200_bandwidth = _BANDWIDTH_TB_S["B200"]
    rows = {}
    for gpu, bandwidth in _BANDWIDTH_TB_S.items():
        if gpu == "B200":
            source = "assumption: 'a few hundred pages a second' (issue 7), taken as 300"
        else:
            source = (
                f"assumption: B200's 300/s scaled by memory bandwidth ({bandwidth} of {b200_bandwidth} TB/s)"
            )
        rows[gpu] = GpuThroughput(gpu, B200_ASSUMED_DOCS_PER_S * bandwidth / b200_bandwidth, source, False)
    return rows


def read_results(results_dir: Path) -> tuple[dict[str, GpuThroughput], float | None, str]:
    """Measured GPU throughput and the latest ``cpu_ms_per_doc`` from ``results_dir``'s JSON files."""
    measured: dict[str, GpuThroughput] = {}
    cpu_ms: float | None = None
    cpu_source = ""
    for path in sorted(results_dir.glob("*.json")) if results_dir.is_dir() else []:
        try:
            data: Any = json.loads(path.read_text())
        except (OSError, ValueError):
            continue
        if not isinstance(data, dict):
            continue
        for gpu, row in (data.get("gpu_throughput") or {}).items():
            if isinstance(row, dict) and float(row.get("documents_per_s") or 0) > 0:
                source = f"measured: {path.name}" + (f" ({row['source']})" if row.get("source") else "")
                measured[gpu] = GpuThroughput(gpu, float(row["documents_per_s"]), source, True)
        summary: dict[str, Any] = data["summary"] if isinstance(data.get("summary"), dict) else data
        if isinstance(summary.get("cpu_ms_per_doc"), int | float):
            cpu_ms, cpu_source = float(summary["cpu_ms_per_doc"]), f"measured: {path.name}"
    return measured, cpu_ms, cpu_source


def capacity_rows(
    *,
    target_docs_per_s: float,
    results_dir: Path,
    prices: dict[str, float] | None = None,
    throughputs: dict[str, float] | None = None,
    cpu_ms_per_doc: float | None = None,
    utilisation: float = 0.7,
) -> tuple[list[CapacityRow], float, str]:
    """One row per GPU type; GPUs are sized to run at ``utilisation`` of their peak (headroom for
    bursts and a failed node). Returns the rows, the CPU cost per document used and its source."""
    if not 0 < utilisation <= 1:
        raise ValueError("utilisation must be in (0, 1]")
    table = assumed_throughput()
    measured, measured_cpu, cpu_source = read_results(results_dir)
    table.update(measured)
    for gpu, value in (throughputs or {}).items():
        table[gpu] = GpuThroughput(gpu, value, "given on the command line", False)
    if cpu_ms_per_doc is not None:
        cpu_source = "given on the command line"
    else:
        cpu_ms_per_doc = measured_cpu if measured_cpu is not None else 10.0
        cpu_source = cpu_source or "assumption: the 10 ms target of issue 7 (nothing measured)"
    overrides = prices or {}
    all_prices = {**_PRICE_USD_PER_HOUR, **overrides}
    rows = []
    for gpu, throughput in table.items():
        price = all_prices.get(gpu)
        if price is None:
            continue
        per_gpu = throughput.documents_per_s
        gpus = math.ceil(target_docs_per_s / (per_gpu * utilisation)) if target_docs_per_s > 0 else 0
        cores = target_docs_per_s * cpu_ms_per_doc / 1000 / utilisation
        rows.append(
            CapacityRow(
                gpu=gpu,
                documents_per_s=round(per_gpu, 1),
                throughput_source=throughput.source,
                measured=throughput.measured,
                price_usd_per_hour=price,
                price_source="given on the command line" if gpu in overrides else PRICE_SOURCE,
                gpus_needed=gpus,
                # cost of the GPU-seconds a document uses at the planned utilisation
                gpu_cost_per_1000_docs_usd=round(price / (per_gpu * utilisation * 3600) * 1000, 4),
                cpu_cores_needed=round(cores, 1),
                cpu_cost_per_1000_docs_usd=round(
                    CPU_CORE_USD_PER_HOUR * cpu_ms_per_doc / 1000 / utilisation / 3600 * 1000, 5
                ),
            )
        )
    return rows, cpu_ms_per_doc, cpu_source
