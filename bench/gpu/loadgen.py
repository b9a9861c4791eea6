"""Load generator for the GPU doc_pipeline: pages per second and latency at fixed concurrencies.

Sends one-page documents to ``doc_pipeline`` over gRPC (``workers.triton_client``'s asyncio
client, as the Celery worker does), keeping exactly C documents in flight for each level C, and
writes what it measured to ``OUT/gpu_bench_<label>.json`` and ``.md``.

The page is a synthetic document image of 1344 x 1920 pixels: 84 x 120 patches of 16 pixels,
which Gemma 4's processor pools 3 x 3 into exactly 1120 soft tokens (``max_soft_tokens``).

    python bench/gpu/loadgen.py --url 127.0.0.1:8101 --concurrency 1 8 32 128 --out bench/results
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import platform
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
if str(REPO_ROOT) not in sys.path:
    sys.path.insert(0, str(REPO_ROOT))

PAGE_SIZE = (1344, 1920)  # width, height: 84 x 120 patches -> 1120 soft tokens


def page_image(seed: int = 0) -> bytes:
    """A white page with dark text-like bars (PNG): content the vision tower processes in full."""
    import cv2
    import numpy as np

    rng = np.random.default_rng(seed)
    width, height = PAGE_SIZE
    page = np.full((height, width, 3), 255, dtype=np.uint8)
    for y in range(80, height - 80, 48):
        x = 80
        while x < width - 200:
            length = int(rng.integers(30, 180))
            page[y : y + 18, x : x + length] = int(rng.integers(0, 90))
            x += length + int(rng.integers(12, 40))
    ok, png = cv2.imencode(".png", page)
    if not ok:
        raise RuntimeError("could not encode the page")
    return png.tobytes()


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100) of non-empty ``values``."""
    ordered = sorted(values)
    rank = max(1, min(len(ordered), math.ceil(q / 100 * len(ordered))))
    return ordered[rank - 1]


async def run_level(
    url: str, page: bytes, concurrency: int, documents: int, timeout_s: float
) -> dict[str, float]:
    """``documents`` one-page documents with ``concurrency`` always in flight."""
    from workers.triton_client import AsyncTritonEngineClient

    latencies: list[float] = []
    failures = 0
    queue: asyncio.Queue[int] = asyncio.Queue()
    for index in range(documents):
        queue.put_nowait(index)

    async with AsyncTritonEngineClient(url, timeout_s=timeout_s, max_in_flight=concurrency) as client:

        async def worker() -> None:
            nonlocal failures
            while True:
                try:
                    queue.get_nowait()
                except asyncio.QueueEmpty:
                    return
                started = time.perf_counter()
                try:
                    await client.read_document([page])
                    latencies.append(time.perf_counter() - started)
                except Exception:
                    failures += 1

        started = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        elapsed = time.perf_counter() - started
    if not latencies:
        raise RuntimeError(f"every document failed at concurrency {concurrency}")
    return {
        "concurrency": concurrency,
        "documents": documents,
        "failed": failures,
        "seconds": round(elapsed, 3),
        "pages_per_s": round(len(latencies) / elapsed, 3),
        "p50_ms": round(percentile(latencies, 50) * 1000, 1),
        "p95_ms": round(percentile(latencies, 95) * 1000, 1),
    }


def machine_description() -> str:
    """GPU and host, as nvidia-smi and the platform report them ("no GPU" where none)."""
    try:
        gpus = subprocess.run(
            ["nvidia-smi", "--query-gpu=name,memory.total,driver_version", "--format=csv,noheader"],
            capture_output=True,
            text=True,
            timeout=20,
            check=True,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        gpus = "no GPU (nvidia-smi not available)"
    return f"{gpus}; {platform.node()} {platform.machine()} {platform.processor() or ''}".strip()


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="127.0.0.1:8101", help="doc_pipeline's gRPC host:port")
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 8, 32, 128])
    parser.add_argument(
        "--documents", type=int, default=0, help="per level; default 4 x concurrency, at least 16"
    )
    parser.add_argument("--warmup", type=int, default=4, help="documents sent first and not measured")
    parser.add_argument("--timeout", type=float, default=300.0, help="seconds per document")
    parser.add_argument("--label", default="run", help="names the result files")
    parser.add_argument("--backend", default="", help="what served the models, recorded with the numbers")
    parser.add_argument("--out", type=Path, default=REPO_ROOT / "bench" / "results")
    args = parser.parse_args(argv)
    if any(c < 1 for c in args.concurrency) or args.documents < 0 or args.warmup < 0:
        parser.error("--concurrency must be >= 1, --documents and --warmup >= 0")
    return args


def write_results(out: Path, label: str, report: dict[str, object]) -> tuple[Path, Path]:
    out.mkdir(parents=True, exist_ok=True)
    json_path = out / f"gpu_bench_{label}.json"
    json_path.write_text(json.dumps(report, indent=2) + "\n")
    rows = "\n".join(
        f"| {r['concurrency']} | {r['documents']} | {r['failed']} | {r['pages_per_s']} | {r['p50_ms']} | {r['p95_ms']} |"
        for r in report["levels"]  # type: ignore[attr-defined]
    )
    md_path = out / f"gpu_bench_{label}.md"
    md_path.write_text(
        f"# GPU doc_pipeline benchmark: {label}\n\n"
        f"- machine: {report['machine']}\n- backend: {report['backend']}\n- when: {report['when']}\n"
        f"- page: {PAGE_SIZE[0]}x{PAGE_SIZE[1]} px = 1120 image tokens; extraction output fixed by the backend\n\n"
        "| concurrency | documents | failed | pages/s | p50 ms | p95 ms |\n|---|---|---|---|---|---|\n"
        f"{rows}\n"
    )
    return json_path, md_path


async def main_async(args: argparse.Namespace) -> dict[str, object]:
    page = page_image()
    if args.warmup:
        await run_level(args.url, page, min(args.warmup, 8), args.warmup, args.timeout)
    levels = []
    for concurrency in args.concurrency:
        documents = args.documents or max(16, 4 * concurrency)
        levels.append(await run_level(args.url, page, concurrency, documents, args.timeout))
        print(json.dumps(levels[-1]), flush=True)
    return {
        "machine": machine_description(),
        "backend": args.backend,
        "when": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
        "levels": levels,
    }


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    report = asyncio.run(main_async(args))
    json_path, md_path = write_results(args.out, args.label, report)
    print(f"wrote {json_path} and {md_path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
