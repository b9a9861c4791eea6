"""The soak: the whole stack at 80 % of the capacity measured in the same run, for an hour.

    python bench/soak.py [--seconds 3600] [--load 0.8] [--window-seconds 300] [--out FILE]

What a bank's operator asks before a release: after an hour of steady traffic, does any process
grow, does latency drift, is anything lost? One stack (bench/stack.py: Triton with ``sim_gpu``,
gunicorn, a CPU worker, the inference dispatcher and a webhook worker, each a process of its own):

1. Capacity: documents uploaded one request each with their callback URL, eight clients at a time,
   until every one is decided; documents per second end to end (on a small machine the CPU side
   saturates first).
2. The soak: uploads arrive open-loop at ``--load`` times that rate for ``--seconds``, each with a
   ``callback_url`` to a receiver of this process. Per window of ``--window-seconds``: the
   resident memory (RSS) of every process tree, and the p50/p95 of each document's time from
   upload to decision.
3. The drain: every accepted document must be decided (none lost), none ``failed``, and every
   decision delivered to the receiver exactly once.

The verdicts: ``memory_growth`` (the last window's RSS over the first's, after warm-up),
``p95_drift`` (the last window's p95 over the first's), ``lost``, ``failed``, ``webhooks``. The
last line printed is the JSON summary; the whole record goes to ``--out``.
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import http.server
import json
import os
import queue
import statistics
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psutil

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.stack import DECIDED, ROOT, Stack, machine_load, stack, tiny_jpeg

RESULTS = ROOT / "bench" / "results"


class Receiver:
    """An HTTP receiver on a free local port counting what it receives by delivery id (the
    ``X-DocIntel-Delivery`` header, the same on every retry of one delivery)."""

    def __init__(self) -> None:
        self.deliveries: Counter[str] = Counter()
        self._lock = threading.Lock()
        receiver = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("Content-Length", 0)))
                with receiver._lock:
                    receiver.deliveries[self.headers.get("X-DocIntel-Delivery", "")] += 1
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()


def rss_mib(s: Stack) -> dict[str, float]:
    """Resident memory of each process tree of the stack, MiB."""
    result = {}
    for name, process in s.processes.items():
        total = 0
        with contextlib.suppress(psutil.NoSuchProcess):
            root = psutil.Process(process.pid)
            for member in [root, *root.children(recursive=True)]:
                with contextlib.suppress(psutil.NoSuchProcess):
                    total += member.memory_info().rss
        result[name] = round(total / 2**20, 1)
    return result


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] if ordered else 0.0


def measure_capacity(s: Stack, documents: int, seed: int, callback: str) -> float:
    """Documents per second end to end as the soak sends them (one upload request a document, with
    its callback URL), eight clients at a time, closed loop."""
    import concurrent.futures

    started = time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        uploads = list(
            pool.map(
                lambda i: s.upload(tiny_jpeg(seed + i), f"cap-{i}.jpg", callback_url=callback),
                range(documents),
            )
        )
    ids = [u.document_id for u in uploads if u.status == 202]
    s.wait_until(ids, DECIDED, timeout_s=900)
    return len(ids) / (time.perf_counter() - started)


def _decided_at(s: Stack, ids: list[str]) -> dict[str, float]:
    rows = s.sql(
        "SELECT id::text, extract(epoch FROM status_changed_at) FROM documents_document "
        "WHERE id = ANY(%s::uuid[]) AND status = ANY(%s)",
        [ids, DECIDED],
    )
    return {document_id: float(at) for document_id, at in rows}


def _open_loop(s: Stack, rate: float, seconds: float, seed: int, callback: str) -> Iterator[Any]:
    """Start one upload every 1/rate seconds for ``seconds``, whatever the answers (open loop);
    yields each upload as it ends, the last ones after the sending stopped."""
    finished: queue.Queue[Any] = queue.Queue()
    count = int(rate * seconds)
    interval = 1.0 / rate
    started = time.perf_counter()

    def send(i: int) -> None:
        finished.put(s.upload(tiny_jpeg(seed + i), f"soak-{i}.jpg", callback_url=callback))

    sent = received = 0
    while received < count:
        now = time.perf_counter()
        while sent < count and started + sent * interval <= now:
            threading.Thread(target=send, args=(sent,), daemon=True).start()
            sent += 1
        try:
            upload = finished.get(timeout=min(interval, 0.05) if sent < count else 300)
        except queue.Empty:
            if sent < count:
                continue
            raise SystemExit(f"{count - received} uploads never answered") from None
        received += 1
        yield upload


def soak(
    s: Stack, rate: float, seconds: float, window_s: float, seed: int, receiver: Receiver
) -> dict[str, Any]:
    windows: list[dict[str, Any]] = []
    window_ids: list[str] = []
    accepted: list[str] = []
    refused: Counter[int] = Counter()
    started_at: dict[str, float] = {}
    started = time.perf_counter()
    window_end = started + window_s

    def close_window() -> None:
        decided = _decided_at(s, window_ids)
        latencies = [(decided[i] - started_at[i]) * 1000 for i in window_ids if i in decided]
        windows.append(
            {
                "minute": round((time.perf_counter() - started) / 60, 1),
                "uploaded": len(window_ids),
                "decided_by_window_end": len(latencies),
                "e2e_p50_ms": round(_percentile(latencies, 0.5), 1),
                "e2e_p95_ms": round(_percentile(latencies, 0.95), 1),
                "rss_mib": rss_mib(s),
                "load_average": machine_load()["load_average"],
            }
        )
        print(f"  window {len(windows)}: {json.dumps(windows[-1])}", flush=True)

    for upload in _open_loop(s, rate, seconds, seed, receiver.url):
        if upload.status == 202:
            accepted.append(upload.document_id)
            window_ids.append(upload.document_id)
            started_at[upload.document_id] = upload.started
        else:
            refused[upload.status] += 1
        if time.perf_counter() >= window_end:
            time.sleep(2)  # the window's last uploads reach their decision
            close_window()
            window_ids = []
            window_end += window_s
    offered = len(accepted) / (time.perf_counter() - started)
    if window_ids:
        time.sleep(2)
        close_window()
    return {
        "windows": windows,
        "accepted": accepted,
        "refused": dict(refused),
        "offered_per_s": round(offered, 2),
    }


def _deliveries_of(s: Stack, ids: list[str]) -> dict[str, str]:
    """The webhook deliveries recorded for these documents: delivery id -> document id."""
    rows = s.sql(
        "SELECT id::text, document_id::text FROM webhooks_webhookdelivery WHERE document_id = ANY(%s::uuid[])",
        [ids],
    )
    return dict(rows)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=3600)
    parser.add_argument("--load", type=float, default=0.8, help="share of the measured capacity offered")
    parser.add_argument("--window-seconds", type=float, default=300)
    parser.add_argument("--capacity-documents", type=int, default=600)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()
    stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%SZ")
    out = args.out or RESULTS / f"soak-{stamp}.json"
    seed = int(time.time()) % 10_000_000 * 10_000
    receiver = Receiver()
    record: dict[str, Any] = {"date": stamp, "load_before": machine_load(), "seconds": args.seconds}
    with stack(
        ROOT / "var" / "bench" / "soak-logs", extra_env={"DOCINTEL_WEBHOOK_ALLOW_PRIVATE_NETWORKS": "1"}
    ) as s:
        s.start_triton()
        s.start_web()
        s.start_cpu_worker()
        s.start_webhook_worker()
        s.start_dispatcher("sim_gpu")
        warm = [u.document_id for u in s.upload_many([tiny_jpeg(seed - 1 - i) for i in range(40)], clients=4)]
        s.wait_until(warm, DECIDED, timeout_s=300)
        capacity = measure_capacity(s, args.capacity_documents, seed + 5_000_000, receiver.url)
        rate = capacity * args.load
        print(
            f"capacity {capacity:.1f} documents/s; soaking at {rate:.1f}/s for {args.seconds:.0f} s",
            flush=True,
        )
        run = soak(s, rate, args.seconds, args.window_seconds, seed, receiver)
        accepted = run.pop("accepted")
        drain_started = time.perf_counter()
        with contextlib.suppress(SystemExit):
            s.wait_until(accepted, DECIDED, timeout_s=900)
        drain_s = time.perf_counter() - drain_started
        (decided,) = s.sql(
            "SELECT count(*) FROM documents_document WHERE id = ANY(%s::uuid[]) AND status = ANY(%s)",
            [accepted, DECIDED],
        )[0]
        (failed,) = s.sql(
            "SELECT count(*) FROM documents_document WHERE id = ANY(%s::uuid[]) AND status = 'failed'",
            [accepted],
        )[0]
        # every decision's webhook arrives (the webhook worker drains its queue), each exactly once
        deliveries = _deliveries_of(s, accepted)
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline and not set(deliveries) <= set(receiver.deliveries):
            time.sleep(1)
            deliveries = _deliveries_of(s, accepted)
    receiver.close()
    windows = run["windows"]
    steady = windows[1:] if len(windows) > 2 else windows  # the first window holds the warm-up
    first_rss, last_rss = sum(steady[0]["rss_mib"].values()), sum(steady[-1]["rss_mib"].values())
    delivered = len({deliveries[d] for d in deliveries if receiver.deliveries[d] >= 1})
    duplicates = sum(receiver.deliveries[d] - 1 for d in deliveries if receiver.deliveries[d] > 1)
    summary = {
        "capacity_per_s": round(capacity, 1),
        "offered_per_s": run["offered_per_s"],
        "minutes": round(args.seconds / 60, 1),
        "documents": len(accepted),
        "refused_uploads": sum(run["refused"].values()),
        "lost": len(accepted) - int(decided),
        "failed": int(failed),
        "drain_s": round(drain_s, 1),
        "webhooks_delivered": delivered,
        "webhooks_missing": len(accepted) - delivered,
        "webhooks_duplicated": duplicates,
        "rss_first_mib": round(first_rss, 1),
        "rss_last_mib": round(last_rss, 1),
        "memory_growth": round(last_rss / first_rss, 3) if first_rss else None,
        "p95_first_ms": steady[0]["e2e_p95_ms"],
        "p95_last_ms": steady[-1]["e2e_p95_ms"],
        "p95_median_ms": round(statistics.median(w["e2e_p95_ms"] for w in steady), 1),
        "p95_drift": round(steady[-1]["e2e_p95_ms"] / steady[0]["e2e_p95_ms"], 3)
        if steady[0]["e2e_p95_ms"]
        else None,
    }
    record.update(summary=summary, windows=windows, refused=run["refused"], load_after=machine_load())
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(record, indent=2) + "\n")
    print(f"results: {out.relative_to(ROOT) if out.is_relative_to(ROOT) else out}")
    print(json.dumps(summary))


if __name__ == "__main__":
    os.environ.setdefault("PYTHONUNBUFFERED", "1")
    main()
