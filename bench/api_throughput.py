"""Documents per second one API process accepts: ``POST /api/v1/documents`` from many threads.

    python bench/api_throughput.py [--documents 300] [--clients 8] [--threads 8] [--url URL --key KEY]

Without ``--url`` it starts one API process itself (gunicorn, one worker process with
``--threads`` threads, DEBUG off, no rate limit) on a PostgreSQL database of its own
(``DOCINTEL_BENCH_DATABASE_URL``, default ``postgres://postgres@127.0.0.1:5432/docintel_bench``,
created and migrated when missing), makes a tenant and an API key, and stops the server at the
end. Each request uploads a distinct copy of a sample passport photo (its bytes made unique by
a trailing counter, so content deduplication never answers instead of the upload path). Every
accepted document is sniffed, encrypted, stored, audited and enqueued exactly as in production;
the queue it goes to (``docintel-bench``) is purged at the end, since no worker is measured here.

Prints the documents accepted (202), the wall time, documents per second and the latency
percentiles. On a 2-core machine shared with other work, the client's threads compete with the
server for the same cores: the number is a floor.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import os
import secrets
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
SAMPLE = ROOT / "samples" / "00000-passport.jpg"
DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/docintel_bench"
QUEUE = "docintel-bench"


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _ensure_database(url: str) -> None:
    import psycopg

    name = url.rsplit("/", 1)[1]
    admin = url.rsplit("/", 1)[0] + "/postgres"
    with psycopg.connect(admin, autocommit=True) as connection:
        if not connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
            connection.execute(f'CREATE DATABASE "{name}"')


def _manage(env: dict[str, str], *args: str) -> str:
    done = subprocess.run(
        [PY, "manage.py", *args], cwd=ROOT, env=env, check=True, capture_output=True, text=True, timeout=600
    )
    return done.stdout


def _multipart(content: bytes, name: str) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    head = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{name}"\r\n'
        "Content-Type: image/jpeg\r\n\r\n"
    ).encode()
    return head + content + f"\r\n--{boundary}--\r\n".encode(), f"multipart/form-data; boundary={boundary}"


def _post(url: str, key: str, content: bytes, name: str) -> tuple[int, float]:
    body, content_type = _multipart(content, name)
    request = urllib.request.Request(
        f"{url}/api/v1/documents",
        data=body,
        method="POST",
        headers={"Authorization": f"Api-Key {key}", "Content-Type": content_type},
    )
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            response.read()
            status = response.status
    except urllib.error.HTTPError as exc:
        status = exc.code
    return status, time.perf_counter() - started


def _wait_ready(url: str, process: subprocess.Popen[bytes] | None, timeout_s: float = 120) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise SystemExit("the API process exited; see var/log/bench-api.log")
        try:
            urllib.request.urlopen(f"{url}/api/v1/schema", timeout=5).read()
            return
        except OSError:
            time.sleep(0.5)
    raise SystemExit("the API process did not become ready")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--documents", type=int, default=300)
    parser.add_argument("--clients", type=int, default=8, help="concurrent client threads")
    parser.add_argument("--threads", type=int, default=8, help="threads of the one gunicorn worker process")
    parser.add_argument("--url", help="an API already running (then --key is needed)")
    parser.add_argument("--key", help="an API key of that server")
    args = parser.parse_args()

    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.dev",
        "DJANGO_DEBUG": "0",
        "DATABASE_URL": os.environ.get("DOCINTEL_BENCH_DATABASE_URL", DEFAULT_DB),
        "DOCINTEL_CELERY_QUEUE": QUEUE,
        "DOCINTEL_API_RATE_LIMIT": "0",
        "DOCINTEL_LOG_LEVEL": "WARNING",
    }
    process = None
    url, key = args.url, args.key
    if url is None:
        _ensure_database(env["DATABASE_URL"])
        _manage(env, "migrate", "--noinput")
        tenant = f"bench-{secrets.token_hex(3)}"
        _manage(env, "create_tenant", tenant)
        key = _manage(env, "create_api_key", "--tenant", tenant, "--name", "bench").strip().splitlines()[-1]
        port = _free_port()
        url = f"http://127.0.0.1:{port}"
        log = open(ROOT / "var" / "log" / "bench-api.log", "ab")  # noqa: SIM115 — lives as long as the server
        process = subprocess.Popen(
            [PY, "-m", "gunicorn", "config.wsgi:application", "--workers", "1", "--threads", str(args.threads),
             "--bind", f"127.0.0.1:{port}", "--access-logfile", "-"],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
    if key is None:
        raise SystemExit("--key is needed with --url")
    try:
        _wait_ready(url, process)
        sample = SAMPLE.read_bytes()
        run = secrets.token_hex(4).encode()
        payloads = [sample + b"\n" + run + str(i).encode() for i in range(args.documents)]
        _post(url, key, sample + b"\nwarm-up" + run, "warm-up.jpg")  # connections, imports, caches
        started = time.perf_counter()
        with concurrent.futures.ThreadPoolExecutor(args.clients) as pool:
            results = list(
                pool.map(lambda i: _post(url, key, payloads[i], f"doc-{i}.jpg"), range(args.documents))
            )
        wall = time.perf_counter() - started
    finally:
        if process is not None:
            process.terminate()
            process.wait(timeout=30)
            subprocess.run(
                [PY, "-m", "celery", "-A", "config", "purge", "-f", "-Q", QUEUE],
                cwd=ROOT, env=env, capture_output=True, timeout=120, check=False,
            )  # fmt: skip
    accepted = [seconds for status, seconds in results if status == 202]
    others = sorted({status for status, _ in results if status != 202})
    latencies = sorted(seconds for _, seconds in results)
    print(f"one API process (gunicorn, 1 worker x {args.threads} threads), {args.clients} concurrent clients")
    print(
        f"documents: {len(results)} posted, {len(accepted)} accepted (202)"
        + (f", other statuses {others}" if others else "")
    )
    print(f"document size: {len(sample) / 1024:.0f} KiB; wall time {wall:.1f} s")
    print(f"accepted documents per second: {len(accepted) / wall:.1f}")
    print(
        f"latency: median {statistics.median(latencies) * 1000:.0f} ms, "
        f"p95 {latencies[int(0.95 * (len(latencies) - 1))] * 1000:.0f} ms"
    )


if __name__ == "__main__":
    main()
