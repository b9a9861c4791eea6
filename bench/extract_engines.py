"""Accuracy and speed of ``manage.py extract`` through both engines, measured in one run.

    python bench/extract_engines.py DIR [DIR ...] [--triton-url HOST:PORT]

Runs every labelled file of each DIR (a truth.json of {file: {"document_type", "fields"}})
through the same code path as ``manage.py extract`` twice: ``--engine local`` (the CPU engine
in this process) and ``--engine triton`` (over gRPC; a server is started on free ports unless
``--triton-url`` is given). Prints exact-match field accuracy and seconds per document for each
engine, the Triton/local time ratio, and how many documents got different fields from the two
engines (the contract says: none). Wrong values are never printed, only file and field names.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import sys
import time
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.dev")


@dataclass
class Tally:
    right: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    total: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    type_right: int = 0
    documents: int = 0
    seconds: list[float] = field(default_factory=list)

    def add(self, expected: dict[str, Any], result: dict[str, Any], seconds: float) -> None:
        self.documents += 1
        self.seconds.append(seconds)
        self.type_right += result["document_type"] == expected["document_type"]
        for name, value in expected["fields"].items():
            self.total[name] += 1
            got = result["fields"].get(name, {}).get("value")
            self.right[name] += got == value

    def accuracy(self) -> float:
        return sum(self.right.values()) / max(sum(self.total.values()), 1)


def _free_ports(count: int) -> list[int]:
    sockets = [socket.socket() for _ in range(count)]
    for sock in sockets:
        sock.bind(("127.0.0.1", 0))
    ports = [sock.getsockname()[1] for sock in sockets]
    for sock in sockets:
        sock.close()
    return ports


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("dirs", nargs="+", type=Path)
    parser.add_argument("--triton-url", default=None)
    args = parser.parse_args(argv)

    import django

    django.setup()
    from django.conf import settings

    from apps.extraction.extract import extract_file
    from apps.extraction.readers import reader_for
    from servers import triton_server

    process = None
    if args.triton_url is None:
        http_port, grpc_port, metrics_port = _free_ports(3)
        process = triton_server.start_background(
            http_port=http_port, grpc_port=grpc_port, metrics_port=metrics_port
        )
        triton_server.wait_until_ready(f"127.0.0.1:{http_port}", 300, process=process)
        args.triton_url = f"127.0.0.1:{grpc_port}"
    settings.DOCINTEL_TRITON_URL = args.triton_url

    try:
        tallies = {"local": Tally(), "triton": Tally()}
        readers = {name: reader_for(name) for name in tallies}
        disagreements: list[str] = []
        for folder in args.dirs:
            truth = json.loads((folder / "truth.json").read_text())
            for name, expected in sorted(truth.items()):
                values = {}
                for engine, reader in readers.items():
                    started = time.perf_counter()
                    result = extract_file(path=folder / name, reader=reader)
                    tallies[engine].add(expected, result, time.perf_counter() - started)
                    values[engine] = {k: v["value"] for k, v in result["fields"].items()}
                if values["local"] != values["triton"]:
                    disagreements.append(f"{folder.name}/{name}")
    finally:
        if process is not None:
            triton_server.stop(process)

    fields = sorted(tallies["local"].total)
    print(f"{'field':<18} {'local':>8} {'triton':>8}")
    for name in fields:
        cells = [f"{t.right[name] / t.total[name]:8.1%}" for t in tallies.values()]
        print(f"{name:<18} {' '.join(cells)}")
    print(f"{'ALL fields':<18} {tallies['local'].accuracy():8.1%} {tallies['triton'].accuracy():8.1%}")
    for engine, tally in tallies.items():
        print(
            f"{engine:<7} document_type {tally.type_right / tally.documents:.1%}  "
            f"s/document mean {statistics.mean(tally.seconds):.2f} median {statistics.median(tally.seconds):.2f}"
        )
    ratio = statistics.median(tallies["triton"].seconds) / statistics.median(tallies["local"].seconds)
    print(f"triton/local median time ratio {ratio:.2f}")
    print(f"documents whose fields differ between engines: {len(disagreements)}")
    for name in disagreements:
        print(f"  {name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
