"""``manage.py capacity_report`` — documents per second, GPUs needed and cost per 1,000 documents."""

from __future__ import annotations

import json
from argparse import ArgumentParser
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from apps.observability.capacity import capacity_rows


def _pairs(values: list[str], what: str) -> dict[str, float]:
    """``["H200=3.5", ...]`` as a dict; a malformed pair is a usage error."""
    out = {}
    for value in values:
        name, _, number = value.partition("=")
        try:
            out[name.strip()] = float(number)
        except ValueError:
            raise CommandError(f"--{what} takes GPU=NUMBER, got {value!r}") from None
    return out


class Command(BaseCommand):
    help = (
        "Documents per second per GPU (measured in bench/results/ or stated assumptions), GPUs needed "
        "for a target load, and cost per 1,000 documents, for B200, RTX PRO 6000, H200 and H100."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("--target", type=float, default=100.0, help="documents per second to serve")
        parser.add_argument("--results", type=Path, default=Path(settings.BASE_DIR) / "bench" / "results")
        parser.add_argument("--price", action="append", default=[], help="GPU=USD per hour (repeatable)")
        parser.add_argument("--throughput", action="append", default=[], help="GPU=documents/s (repeatable)")
        parser.add_argument("--cpu-ms-per-doc", type=float, help="CPU per document (default: measured)")
        parser.add_argument("--utilisation", type=float, default=0.7, help="planned share of peak (0-1]")
        parser.add_argument("--format", choices=("table", "json"), default="table")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["target"] < 0:
            raise CommandError("--target must be zero or more documents per second")
        try:
            rows, cpu_ms, cpu_source = capacity_rows(
                target_docs_per_s=options["target"],
                results_dir=options["results"],
                prices=_pairs(options["price"], "price"),
                throughputs=_pairs(options["throughput"], "throughput"),
                cpu_ms_per_doc=options["cpu_ms_per_doc"],
                utilisation=options["utilisation"],
            )
        except ValueError as error:
            raise CommandError(str(error)) from error
        if options["format"] == "json":
            payload = [{**row.__dict__, "cost_per_1000_docs_usd": row.cost_per_1000_docs_usd} for row in rows]
            self.stdout.write(json.dumps({"target_docs_per_s": options["target"], "cpu_ms_per_doc": cpu_ms,
                                          "cpu_source": cpu_source, "gpus": payload}, indent=2))  # fmt: skip
            return
        self.stdout.write(
            f"target {options['target']:g} documents/s at {options['utilisation']:.0%} of peak; "
            f"CPU {cpu_ms:g} ms a document ({cpu_source})"
        )
        header = f"{'GPU':<14}{'docs/s':>8}{'GPUs':>6}{'$/h':>7}{'$/1000 docs':>13}{'CPU cores':>11}  throughput from"
        self.stdout.write(header)
        for row in rows:
            self.stdout.write(
                f"{row.gpu:<14}{row.documents_per_s:>8.1f}{row.gpus_needed:>6}{row.price_usd_per_hour:>7.2f}"
                f"{row.cost_per_1000_docs_usd:>13.4f}{row.cpu_cores_needed:>11.1f}  {row.throughput_source}"
            )
        self.stdout.write(f"prices: {rows[0].price_source if rows else '-'}")
