"""What a document costs and how well the dispatcher feeds a GPU, measured side by side in one run.

    python bench/pipeline.py [--documents 2000] [--dispatch-documents 1500] [--latency-seconds 20] [--profile]

One stack (bench/stack.py: Triton, gunicorn, a CPU worker, the dispatcher, a webhook worker, each
a process of its own) and four measurements:

1. ``cpu_ms_per_doc``: ``--documents`` small JPEGs through the API, Celery and Triton with the
   ``null`` model, until every one is decided; the CPU seconds of the web, worker, dispatcher and
   Triton process trees (psutil) divided by the documents. PostgreSQL's and Redis's own CPU is
   not in it (shared servers); the benchmark's client is not either. Measured twice: uploaded
   through the batch API (``--batch-size`` files a request: how volume arrives), and one
   ``POST /api/v1/documents`` a document (``cpu_ms_per_doc_single_uploads``); and a third time,
   batches again, with the CPU worker's capture gate and authenticity signals turned off
   (``orchestration_ms_per_doc``: what the API, Celery and the database cost a document; the page
   measures themselves are timed in-process by bench/page_costs.py).
2. ``dispatch_efficiency``: ``--dispatch-documents`` prepared documents wait in the inference
   queue; the dispatcher (model ``sim_gpu``: 150 ms a batch + 2 ms a document, batches of 32)
   drains it. Documents extracted per second (first to last extraction) over sim_gpu's ideal rate.
3. The same for the one-at-a-time baseline: a prefork Celery worker, concurrency 1.
4. End-to-end latency at half the saturation rate with sim_gpu, which is the lower of the
   dispatcher's rate (2) and the whole system's (1: on one small machine the CPU side saturates
   long before the simulated GPU): uploads arrive at that constant rate for ``--latency-seconds``;
   each document's time from the start of its upload request to its decision, and the overhead beyond the simulated model (that time minus the
   Triton round trip the dispatcher measured, which holds sim_gpu's queue and batch time).

``--profile`` samples every Python process with py-spy during measurement 1 (in a separate pass,
so the sampling does not inflate the CPU figure) and prints where the CPU goes. Results go to
``--out`` (JSON) and the last line printed is that JSON's summary.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.stack import DECIDED, ROOT, Stack, machine_load, stack, tiny_jpeg

SIM_BATCH_MS, SIM_ITEM_MS, SIM_MAX_BATCH = 150.0, 2.0, 32
SIM_IDEAL_PER_S = SIM_MAX_BATCH / ((SIM_BATCH_MS + SIM_MAX_BATCH * SIM_ITEM_MS) / 1000)


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _contents(count: int, offset: int) -> list[bytes]:
    return [tiny_jpeg(offset + i) for i in range(count)]


def _accepted(uploads: list[Any]) -> list[str]:
    bad = Counter(u.status for u in uploads if u.status != 202)
    if bad:
        print(f"  refused uploads: {dict(bad)}")
    return [u.document_id for u in uploads if u.status == 202]


def measure_cpu(s: Stack, documents: int, clients: int, seed: int, batch_size: int = 1) -> dict[str, Any]:
    """``batch_size`` 1: one ``POST /api/v1/documents`` a document, ``clients`` at a time; more:
    ``POST /api/v1/batches`` with that many files, two requests at a time."""
    contents = _contents(documents, seed)
    before, started = s.cpu(), time.perf_counter()
    uploads = s.upload_batches(contents, batch_size) if batch_size > 1 else s.upload_many(contents, clients)
    ids = _accepted(uploads)
    s.wait_until(ids, DECIDED, timeout_s=900)
    wall = time.perf_counter() - started
    after = s.cpu()
    per_process = {name: round((after[name] - before.get(name, 0.0)) * 1000 / len(ids), 2) for name in after}
    failed = s.sql(
        "SELECT count(*) FROM documents_document WHERE id = ANY(%s::uuid[]) AND status = 'failed'", [ids]
    )[0][0]
    # sent back by the capture gate at the prepare step: decided without a model call
    resubmitted = s.sql(
        "SELECT count(*) FROM documents_document WHERE id = ANY(%s::uuid[]) "
        "AND status = 'resubmission_requested'",
        [ids],
    )[0][0]
    return {
        "documents": len(ids),
        "failed": failed,
        "resubmission_requested": resubmitted,
        "wall_s": round(wall, 1),
        "documents_per_s": round(len(ids) / wall, 1),
        "cpu_ms_per_doc": round(sum(per_process.values()), 2),
        "cpu_ms_per_doc_by_process": per_process,
        "document_bytes": len(contents[0]),
        "files_per_request": batch_size,
    }


# what the app costs without the page measures: the capture gate and the authenticity signals off
WITHOUT_PAGE_MEASURES = {"DOCINTEL_CAPTURE_GATE": "0", "DOCINTEL_AUTHENTICITY_SIGNALS": "0"}


def measure_orchestration(s: Stack, documents: int, seed: int, batch_size: int) -> dict[str, Any]:
    """``cpu_ms_per_doc`` with the CPU worker restarted without the capture gate and the
    authenticity signals: what the API, Celery, the database client and Triton's round trip cost
    a document (the orchestration of issue 49's budget), measured the same way as the whole."""
    s.stop("cpu-worker")
    s.start_cpu_worker(extra_env=WITHOUT_PAGE_MEASURES)
    try:
        return measure_cpu(s, documents, clients=8, seed=seed, batch_size=batch_size)
    finally:
        s.stop("cpu-worker")
        s.start_cpu_worker()


def _backlog(s: Stack, documents: int, seed: int) -> list[str]:
    """Upload ``documents`` and wait until all are prepared, their infer messages queued; the ids
    of those waiting for inference. A page the capture gate sends back is decided in the prepare
    step (``resubmission_requested``, as a failed one is ``failed``): it never reaches the model,
    so it is no part of the backlog a dispatcher drains."""
    ids = _accepted(s.upload_many(_contents(documents, seed), clients=8))
    s.wait_until(ids, ["processing", "resubmission_requested", "failed"], timeout_s=900)
    waiting = {
        str(row[0])
        for row in s.sql(
            "SELECT id FROM documents_document WHERE id = ANY(%s::uuid[]) AND status = 'processing'", [ids]
        )
    }
    if len(waiting) < len(ids):
        print(f"  decided in the prepare step (not in the backlog): {len(ids) - len(waiting)}", flush=True)
    return [i for i in ids if i in waiting]


def _extraction_rate(s: Stack, ids: list[str]) -> tuple[float, float]:
    """Documents per second between the first and the last extraction, and that span."""
    first, last = s.sql(
        "SELECT min(created_at), max(created_at) FROM documents_extraction WHERE document_id = ANY(%s::uuid[])",
        [ids],
    )[0]
    span = (last - first).total_seconds()
    return (len(ids) - 1) / span, span


def measure_dispatch(s: Stack, documents: int, seed: int) -> dict[str, Any]:
    s.stop("dispatcher")
    ids = _backlog(s, documents, seed)
    # The CPU worker (validate, decide) runs on other hosts in production; here it would take the
    # dispatcher's cores: it resumes after the backlog is drained.
    s.stop("cpu-worker")
    s.start_dispatcher("sim_gpu")
    s.wait_until(ids, ["extracted", *DECIDED], timeout_s=900)
    s.start_cpu_worker()
    rate, span = _extraction_rate(s, ids)
    return {
        "documents": len(ids),
        "span_s": round(span, 2),
        "documents_per_s": round(rate, 1),
        "ideal_per_s": round(SIM_IDEAL_PER_S, 1),
        "efficiency": round(rate / SIM_IDEAL_PER_S, 3),
    }


def measure_one_at_a_time(s: Stack, documents: int, seed: int) -> dict[str, Any]:
    s.stop("dispatcher")
    ids = _backlog(s, documents, seed)
    s.start_one_at_a_time_worker("sim_gpu")
    s.wait_until(ids, ["extracted", *DECIDED], timeout_s=900)
    s.stop("prefork-worker")
    rate, span = _extraction_rate(s, ids)
    return {
        "documents": len(ids),
        "span_s": round(span, 2),
        "documents_per_s": round(rate, 2),
        "efficiency": round(rate / SIM_IDEAL_PER_S, 3),
    }


def measure_latency(s: Stack, rate: float, seconds: float, seed: int) -> dict[str, Any]:
    """Open loop: one upload every 1/rate seconds whatever the answers, for ``seconds``."""
    if "dispatcher" not in s.processes:
        s.start_dispatcher("sim_gpu")
    # steady state, not start-up: a freshly started dispatcher subscribes to its queue and opens
    # its connections during its first second, which is no document's latency in production
    warm = _accepted(s.upload_many(_contents(20, seed + 50_000), clients=2))
    s.wait_until(warm, DECIDED, timeout_s=300)
    count = int(rate * seconds)
    contents = _contents(count, seed)
    uploads: list[Any] = [None] * count
    interval = 1.0 / rate
    threads = []
    started = time.perf_counter()
    for i in range(count):
        delay = started + i * interval - time.perf_counter()
        if delay > 0:
            time.sleep(delay)
        thread = threading.Thread(
            target=lambda i=i: uploads.__setitem__(i, s.upload(contents[i], f"lat-{i}.jpg"))
        )
        thread.start()
        threads.append(thread)
    for thread in threads:
        thread.join()
    offered = count / (time.perf_counter() - started)
    ids = _accepted(uploads)
    s.wait_until(ids, DECIDED, timeout_s=900)
    rows = s.sql(
        "SELECT d.id::text, extract(epoch FROM d.status_changed_at), e.timings_ms "
        "FROM documents_document d JOIN documents_extraction e ON e.document_id = d.id "
        "WHERE d.id = ANY(%s::uuid[]) AND d.status <> 'failed'",
        [ids],
    )
    started_at = {u.document_id: u.started for u in uploads if u.status == 202}
    e2e, overhead, overhead_model = [], [], []
    for document_id, decided_at, timings in rows:
        total_ms = (float(decided_at) - started_at[document_id]) * 1000
        e2e.append(total_ms)
        overhead.append(total_ms - float(timings.get("triton_ms", 0)))
        overhead_model.append(total_ms - float(timings.get("model", 0)))
    return {
        "target_per_s": round(rate, 1),
        "offered_per_s": round(offered, 1),
        "documents": len(e2e),
        "e2e_p50_ms": round(_percentile(e2e, 0.5), 1),
        "e2e_p95_ms": round(_percentile(e2e, 0.95), 1),
        "overhead_p50_ms": round(_percentile(overhead, 0.5), 1),
        "overhead_p95_ms": round(_percentile(overhead, 0.95), 1),
        "beyond_model_compute_p50_ms": round(_percentile(overhead_model, 0.5), 1),
        "beyond_model_compute_p95_ms": round(_percentile(overhead_model, 0.95), 1),
        "upload_p50_ms": round(statistics.median(u.seconds * 1000 for u in uploads if u.status == 202), 1),
    }


# -- profile ---------------------------------------------------------------------------------------

AREAS = (
    ("django/db", "Django ORM"),
    ("psycopg", "psycopg (PostgreSQL client)"),
    ("django/", "Django (request, templates, middleware)"),
    ("rest_framework", "Django REST framework"),
    ("celery/", "Celery"),
    ("kombu/", "Kombu (broker messages)"),
    ("redis/", "redis client"),
    ("cryptography", "AES-GCM (cryptography)"),
    ("PIL/", "Pillow (images)"),
    ("pypdfium2", "PDFium"),
    ("grpc", "gRPC"),
    ("tritonclient", "tritonclient"),
    ("gunicorn", "gunicorn"),
    ("prometheus_client", "prometheus_client"),
    ("logging/", "logging"),
    ("json/", "json"),
    ("/apps/", "DocIntel apps/"),
    ("/workers/", "DocIntel workers/"),
    ("/media/", "DocIntel media/"),
    ("asyncio", "asyncio"),
    ("threading.py", "threads (waiting)"),
)


def _area(frame: str) -> str:
    for needle, name in AREAS:
        if needle in frame:
            return name
    return "other"


def summarise_profile(path: Path, top: int = 8) -> dict[str, Any]:
    """Self time by library of the leaf frame, from py-spy's raw (collapsed) output."""
    areas: Counter[str] = Counter()
    leaves: Counter[str] = Counter()
    total = 0
    for line in path.read_text(errors="replace").splitlines():
        stack, _, count = line.rpartition(" ")
        if not count.isdigit():
            continue
        frames = stack.split(";")
        # the deepest frame in a library we name (C extensions show no frame of their own)
        named = next((f for f in reversed(frames) if _area(f) != "other"), frames[-1])
        areas[_area(named)] += int(count)
        leaves[frames[-1][:120]] += int(count)
        total += int(count)
    if not total:
        return {"samples": 0}
    return {
        "samples": total,
        "by_area_percent": {k: round(100 * v / total, 1) for k, v in areas.most_common(top + 4)},
        "top_leaf_frames_percent": {k: round(100 * v / total, 1) for k, v in leaves.most_common(top)},
    }


def profile_cpu(
    s: Stack, documents: int, clients: int, seed: int, out_dir: Path, batch_size: int = 1
) -> dict[str, Any]:
    spy = Path(sys.executable).parent / "py-spy"
    samplers = {}
    for name, process in s.processes.items():
        output = out_dir / f"profile-{name}.txt"
        command = [str(spy), "record", "-p", str(process.pid), "-r", "100", "-f", "raw", "-o", str(output),
                   "--nonblocking", "--gil"]  # fmt: skip
        command.append("--subprocesses")  # gunicorn's worker, Triton's Python stubs
        samplers[name] = (
            subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL),
            output,
        )
    time.sleep(1.0)
    measured = measure_cpu(s, documents, clients, seed, batch_size=batch_size)
    for sampler, _ in samplers.values():
        sampler.send_signal(signal.SIGINT)
    summaries = {}
    for name, (sampler, output) in samplers.items():
        try:
            sampler.wait(timeout=60)
        except subprocess.TimeoutExpired:
            sampler.kill()
        summaries[name] = summarise_profile(output) if output.exists() else {"samples": 0}
    return {"run": measured, "processes": summaries}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--documents", type=int, default=2000)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument(
        "--batch-size", type=int, default=50, help="files a batch upload carries (cpu_ms_per_doc)"
    )
    parser.add_argument("--dispatch-documents", type=int, default=1500)
    parser.add_argument("--baseline-documents", type=int, default=40)
    parser.add_argument("--latency-seconds", type=float, default=20.0)
    parser.add_argument("--profile", action="store_true", help="also sample every process with py-spy")
    parser.add_argument("--out", type=Path, default=ROOT / "var" / "bench" / "pipeline.json")
    args = parser.parse_args()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    results: dict[str, Any] = {"load_before": machine_load()}
    seed = int(time.time()) % 10_000_000 * 10_000
    with stack(args.out.parent / "pipeline-logs") as s:
        s.start_triton()
        s.start_web()
        s.start_cpu_worker()
        s.start_webhook_worker()
        s.start_dispatcher("null")
        print(f"stack up: {', '.join(f'{n} (pid {p.pid})' for n, p in s.processes.items())}", flush=True)
        warm = _accepted(s.upload_many(_contents(40, seed), args.clients))
        s.wait_until(warm, DECIDED, timeout_s=300)

        cpu = measure_cpu(s, args.documents, args.clients, seed + 100_000, batch_size=args.batch_size)
        results["cpu"] = cpu
        single = measure_cpu(s, args.documents, args.clients, seed + 200_000)
        results["cpu_single_uploads"] = single
        for name, run in ((f"batches of {args.batch_size}", cpu), ("one upload a document", single)):
            print(
                f"CPU per document, null model, {name}: {run['cpu_ms_per_doc']} ms over {run['documents']} "
                f"documents ({run['documents_per_s']} documents/s end to end; by process, ms: "
                f"{run['cpu_ms_per_doc_by_process']})",
                flush=True,
            )
        orchestration = measure_orchestration(
            s, max(args.documents // 2, 100), seed + 250_000, args.batch_size
        )
        results["orchestration"] = orchestration
        print(
            f"CPU per document without the capture gate and authenticity signals (orchestration), "
            f"batches of {args.batch_size}: {orchestration['cpu_ms_per_doc']} ms",
            flush=True,
        )
        if args.profile:
            profile = profile_cpu(
                s, min(args.documents, 600), args.clients, seed + 300_000, args.out.parent, args.batch_size
            )
            results["profile"] = profile
            for name, summary in profile["processes"].items():
                print(f"profile {name}: {json.dumps(summary.get('by_area_percent', {}))}", flush=True)

        dispatch = measure_dispatch(s, args.dispatch_documents, seed + 500_000)
        results["dispatch"] = dispatch
        print(
            f"dispatcher with sim_gpu: {dispatch['documents_per_s']} documents/s of an ideal "
            f"{dispatch['ideal_per_s']}: efficiency {dispatch['efficiency']}",
            flush=True,
        )
        baseline = measure_one_at_a_time(s, args.baseline_documents, seed + 700_000)
        results["one_at_a_time"] = baseline
        print(
            f"one-at-a-time prefork worker with sim_gpu: {baseline['documents_per_s']} documents/s: "
            f"efficiency {baseline['efficiency']}",
            flush=True,
        )
        # documents arriving one upload at a time: what each one's latency is measured on
        saturation = min(dispatch["documents_per_s"], single["documents_per_s"])
        latency = measure_latency(s, saturation / 2, args.latency_seconds, seed + 800_000)
        latency["saturation_per_s"] = saturation
        results["latency"] = latency
        print(
            f"end to end at {latency['offered_per_s']} documents/s (half of saturation), sim_gpu: "
            f"p50 {latency['e2e_p50_ms']} ms, p95 {latency['e2e_p95_ms']} ms; beyond the Triton round trip "
            f"p50 {latency['overhead_p50_ms']} ms, p95 {latency['overhead_p95_ms']} ms",
            flush=True,
        )
    results["load_after"] = machine_load()
    summary = {
        "cpu_ms_per_doc": cpu["cpu_ms_per_doc"],
        "cpu_ms_per_doc_single_uploads": single["cpu_ms_per_doc"],
        "orchestration_ms_per_doc": orchestration["cpu_ms_per_doc"],
        "pipeline_documents_per_s": cpu["documents_per_s"],
        "dispatch_documents_per_s": dispatch["documents_per_s"],
        "dispatch_efficiency": dispatch["efficiency"],
        "one_at_a_time_efficiency": baseline["efficiency"],
        "e2e_p50_ms": latency["overhead_p50_ms"],
        "e2e_p95_ms": latency["overhead_p95_ms"],
        "e2e_total_p50_ms": latency["e2e_p50_ms"],
        "e2e_total_p95_ms": latency["e2e_p95_ms"],
        "latency_rate_per_s": latency["offered_per_s"],
    }
    results["summary"] = summary
    args.out.write_text(json.dumps(results, indent=2))
    print(json.dumps(summary))


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    main()
