"""``make bench``, Gemma 4 line: what DocIntel's own stack costs on top of the model engine, on CPU.

vLLM on CPU serves the tiny Gemma 4 (``.venv-vllm``, random weights; ``make vllm``), so the engine
is real and the model is nearly free: what is left to see is the stack's own overhead. At 1, 8 and
32 documents in flight it measures documents per second three ways, over the same pages:

* ``direct`` — each document's two calls (classify page 1 at 280 tokens, then extract at 1120)
  sent straight to vLLM by :class:`engines.llm.openai_backend.OpenAIBackend`, N documents at once;
* ``triton`` — the same documents through Triton's Gemma 4 ``doc_pipeline`` (the worker's single
  round trip: BLS chaining, parsing, verify), N requests at once;
* ``stack`` — uploaded through the API and carried to a decision by the whole system (web,
  PostgreSQL, Celery on Redis, the inference dispatcher with N in flight, Triton, vLLM).

The overhead ratios are ``direct / triton`` and ``direct / stack`` documents per second, measured in
the same run (1.0 = no overhead). Greedy decoding of the same pages gives the same answers on the
direct and Triton paths, so the model's work is the same; the stack's prepare step re-encodes each
page first, which may change what the random model writes. Results: ``bench/results/gemma4-stack-<date>.json``; the last
line printed is one JSON object.

    python bench/gemma4_stack.py [--documents 24] [--in-flight 1 8 32]
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import datetime as dt
import json
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import stack as bench_stack  # noqa: E402

RESULTS = ROOT / "bench" / "results"
WORK = ROOT / "var" / "bench"
DECIDED = bench_stack.DECIDED  # a resubmission request is a decision too


def pages(count: int) -> list[bytes]:
    """Distinct small JPEG pages (the API refuses an identical file twice as a duplicate)."""
    return [bench_stack.tiny_jpeg(seed, (480, 360)) for seed in range(count)]


def measure_direct(url: str, contents: list[bytes], in_flight: int) -> float:
    """Documents/s with each document's classify → extract calls sent straight to the engine."""
    from engines.llm import pipeline
    from engines.llm.model_client import ModelRequest, ModelSettings
    from engines.llm.openai_backend import OpenAIBackend
    from engines.llm.schemas import extraction_schema

    settings = ModelSettings.from_sources(
        {}, {"DOCINTEL_MODEL_URL": url, "DOCINTEL_MODEL_MAX_IN_FLIGHT": "64"}
    )
    schema = extraction_schema("receipt")

    async def document(backend: OpenAIBackend, page: bytes, slots: asyncio.Semaphore) -> None:
        uri = "data:image/jpeg;base64," + base64.b64encode(page).decode()
        async with slots:
            await backend.generate(
                settings.classify_model,
                ModelRequest(
                    "classify", pipeline.plan_classification(1), (uri,), settings.classify_image_tokens
                ),
            )
            await backend.generate(
                settings.classify_model,
                ModelRequest(
                    "extract",
                    pipeline.plan_extraction("receipt", schema, 1),
                    (uri,),
                    settings.extract_image_tokens,
                ),
            )

    async def run() -> float:
        backend = OpenAIBackend(settings)
        slots = asyncio.Semaphore(in_flight)
        started = time.perf_counter()
        try:
            await asyncio.gather(*(document(backend, page, slots) for page in contents))
        finally:
            await backend.close()
        return time.perf_counter() - started

    return len(contents) / asyncio.run(run())


def measure_triton(triton_url: str, contents: list[bytes], in_flight: int) -> float:
    from media.triton_client import TritonEngineClient

    with TritonEngineClient(triton_url, timeout_s=300) as client:
        started = time.perf_counter()
        with ThreadPoolExecutor(in_flight) as pool:
            list(pool.map(lambda page: client.read_document([page], document_type_hint="receipt"), contents))
        return len(contents) / (time.perf_counter() - started)


def measure_stack(s: bench_stack.Stack, contents: list[bytes], in_flight: int) -> float:
    s.stop("dispatcher")
    s.start_dispatcher("doc_pipeline", max_in_flight=in_flight)
    started = time.perf_counter()
    # hinted as a receipt, as the direct and Triton measurements send it: the random model would
    # otherwise pick any type, and a longer schema's answer is not the stack's overhead
    uploads = s.upload_many(contents, clients=min(8, in_flight), document_type="receipt")
    ids = [u.document_id for u in uploads if u.status == 202]
    if len(ids) != len(contents):
        raise SystemExit(f"{len(contents) - len(ids)} uploads were refused")
    s.wait_until(ids, DECIDED, timeout_s=900)
    seconds = time.perf_counter() - started
    failed = s.sql(
        "SELECT count(*) FROM documents_document WHERE id = ANY(%s::uuid[]) AND status = 'failed'", [ids]
    )
    if failed[0][0]:
        raise SystemExit(f"{failed[0][0]} documents failed; see {s.workdir}")
    return len(ids) / seconds


def start_engines(s: bench_stack.Stack) -> str:
    """vLLM on the tiny Gemma 4 and Triton's Gemma 4 doc_pipeline on it; returns vLLM's /v1 URL."""
    from servers import triton_server as launcher
    from servers import vllm_server

    (port,) = bench_stack.free_ports(1)
    s.processes["vllm"] = vllm_server.start_background(port=port, log_path=s.workdir / "vllm.log")
    vllm_server.wait_until_ready(port, 300, process=s.processes["vllm"])
    url = f"http://127.0.0.1:{port}/v1"
    http, grpc, metrics = bench_stack.free_ports(3)
    s.start(
        "triton",
        [bench_stack.PY, "-m", "servers.triton_server", "--http-port", str(http), "--grpc-port", str(grpc),
         "--metrics-port", str(metrics)],
        # vLLM on 2 CPU cores answers a call in tens of seconds at 32 documents in flight (64 calls):
        # a call is waited for while the engine is up for timeout + wait in all (openai_backend), set
        # here under the worker's Triton deadline below (120 s) as a CPU deployment would set it
        {"DOCINTEL_PIPELINE_VARIANT": "gemma4", "DOCINTEL_MODEL_URL": url, "DOCINTEL_MODEL_WAIT_S": "90"},
    )  # fmt: skip
    launcher.wait_until_ready(f"127.0.0.1:{http}", 180, process=s.processes["triton"])
    s.triton_url = f"127.0.0.1:{grpc}"
    s.env["DOCINTEL_TRITON_URL"] = s.triton_url
    s.env["DOCINTEL_TRITON_MODEL"] = "doc_pipeline"
    s.env["DOCINTEL_TRITON_TIMEOUT_S"] = "120"
    return url


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--documents", type=int, default=24, help="documents per measurement")
    parser.add_argument("--in-flight", type=int, nargs="+", default=[1, 8, 32])
    args = parser.parse_args()
    stamp = dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%SZ")
    WORK.mkdir(parents=True, exist_ok=True)
    rows: list[dict[str, Any]] = []
    with bench_stack.stack(WORK) as s:
        url = start_engines(s)
        s.start_web()
        s.start_cpu_worker()
        measure_direct(url, pages(4), 4)  # warm-up: the engine compiles each schema's grammar once
        for index, in_flight in enumerate(args.in_flight):
            contents = pages(args.documents * (index + 2))[args.documents * (index + 1) :]
            direct = measure_direct(url, contents, in_flight)
            triton = measure_triton(s.triton_url, contents, in_flight)
            whole = measure_stack(s, contents, in_flight)
            rows.append(
                {
                    "in_flight": in_flight,
                    "documents": args.documents,
                    "direct_documents_per_s": round(direct, 3),
                    "triton_documents_per_s": round(triton, 3),
                    "stack_documents_per_s": round(whole, 3),
                    "triton_overhead_ratio": round(direct / triton, 3),
                    "stack_overhead_ratio": round(direct / whole, 3),
                }
            )
            print(json.dumps(rows[-1]), flush=True)
    record = {
        "date": stamp,
        "machine": bench_stack.machine_load(),
        "engine": "vLLM 0.32.0 on CPU, tiny Gemma 4 (E4B shape, random weights), bfloat16",
        "definitions": {
            "direct": "classify (page 1, 280 soft tokens) then extract (1120) per document, straight to vLLM",
            "triton": "the same documents through Triton's Gemma 4 doc_pipeline (TritonEngineClient)",
            "stack": "the same documents uploaded through the API to a decision (dispatcher with N in "
            "flight; prepare re-encodes the pages)",
            "overhead_ratio": "direct documents/s over the path's documents/s, same run",
        },
        "rows": rows,
    }
    RESULTS.mkdir(parents=True, exist_ok=True)
    name = f"gemma4-stack-{stamp}.json"
    (RESULTS / name).write_text(json.dumps(record, indent=2) + "\n")
    print(f"results: bench/results/{name}")
    print(json.dumps({"gemma4_cpu": rows}))


if __name__ == "__main__":
    main()
