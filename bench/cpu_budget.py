"""The app's CPU per document split into its parts, against the budgets of ``bench/budgets.toml``.

The seed's yardstick is cost per unit of throughput: one GPU reads a few hundred pages a second
and the CPUs beside it must not be what limits it. ``make bench`` measures the parts apart
(bench/pipeline.py: the orchestration, i.e. API, Celery and database, per document with the page
measures off; bench/page_costs.py: the capture gate and each authenticity signal per page,
in-process, at the bench's page and at document photos of 1600 and 2400 px, each beside decoding
the same page) and this module puts them side by side: each part, its budget, whether it holds, and
how many CPU cores one GPU at ``gpu_pages_per_s`` then needs.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

BUDGETS = Path(__file__).resolve().parent / "budgets.toml"


def budgets() -> dict[str, float]:
    with BUDGETS.open("rb") as handle:
        return {name: float(value) for name, value in tomllib.load(handle).items()}


def _size(page_costs: dict[str, Any], name: str) -> dict[str, Any]:
    sizes: dict[str, Any] = page_costs["sizes"]
    return dict(sizes[name])


def cpu_split(orchestration_ms_per_doc: float, page_costs: dict[str, Any]) -> dict[str, Any]:
    """The split and its verdicts. ``page_costs``: bench/page_costs.py's record (``sizes`` by name:
    ``bench``, ``1600``, ``2400``, each with ``decode_ms``, ``gate_ms``, ``signals_ms`` by signal and
    ``signals_total_ms``)."""
    limits = budgets()
    bench, at_1600, at_2400 = (_size(page_costs, name) for name in ("bench", "1600", "2400"))
    gate_worst = max(bench["gate_ms"], at_2400["gate_ms"])
    parts = {
        "orchestration_ms_per_doc": orchestration_ms_per_doc,
        "gate_ms_per_page": {name: size["gate_ms"] for name, size in page_costs["sizes"].items()},
        "signals_ms_per_page": {name: size["signals_ms"] for name, size in page_costs["sizes"].items()},
        "signals_total_ms_per_page": {
            name: size["signals_total_ms"] for name, size in page_costs["sizes"].items()
        },
        "decode_ms_per_page": {name: size["decode_ms"] for name, size in page_costs["sizes"].items()},
    }
    within = {
        "orchestration": orchestration_ms_per_doc <= limits["orchestration_ms_per_doc"],
        "gate": gate_worst <= limits["gate_ms_per_page"],
        "signals_at_1600": at_1600["signals_total_ms"] <= limits["signals_ms_per_page_at_1600"],
    }
    rate = limits["gpu_pages_per_s"]
    # a page a document (the bench's case); the gate on every captured page, the signals on the
    # pages the default policy sends them (identity documents, photos of proof of address)
    per_page_gate_only = orchestration_ms_per_doc + gate_worst
    per_page_all = per_page_gate_only + at_1600["signals_total_ms"]
    return {
        **parts,
        "budgets": limits,
        "within_budget": within,
        "cores_for_one_gpu": {
            "pages_per_s": rate,
            "gate_only": round(rate * per_page_gate_only / 1000, 2),
            "gate_and_all_signals_at_1600": round(rate * per_page_all / 1000, 2),
        },
    }
