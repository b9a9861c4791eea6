"""Render PDFs in a child process that has a memory and CPU allowance of its own.

``media.pdf_guard`` refuses the bombs it can see coming (zlib streams that inflate past a
limit, objects nested thousands deep), but PDFium has more decoders than that check reads:
LZW, RunLength, ASCII85, JBIG2, JPEG 2000, fonts, object streams. Each can be made to expand, to
loop, or to crash a C++ parser, and a crash inside the worker takes every task it is running with
it. So every PDF is opened and rendered in a short-lived child, forked from a small server process
that has already imported PDFium (``forkserver``: never a fork of the threaded worker itself),
with ``RLIMIT_AS`` and ``RLIMIT_CPU`` set before it touches the file and a wall-clock deadline
kept by the parent. Pages come back one at a time over a pipe, so the child holds one page, not
the document. Whatever the child does, the worker survives and the document ends with a code:
``pdf_resource_limit`` (memory or time ran out) or ``pdf_render_crashed`` (the parser died).

The fork server, and so every child, is started with a scrubbed environment
(:data:`ENVIRONMENT_KEPT`): a parser bug that runs code in the child must not find the master key,
the database URL or any other secret the worker was given there, in ``os.environ`` or in the
process's own memory (the initial environment stays on its stack, ``/proc/self/environ``). The
stdlib starts its fork server with the parent's environment and no way to pass another, so its
start is done here (:func:`_server_ensure_running`), the stdlib's own steps with ``env=``.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.forkserver
import os
import resource
import secrets
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from multiprocessing import connection, resource_tracker, spawn, util
from multiprocessing.connection import Connection
from typing import Any

from engines.types import EngineError

RESOURCE_LIMIT = "pdf_resource_limit"
RENDER_CRASHED = "pdf_render_crashed"
_PRELOAD = ["media.pdf_render"]

# The only variables of the worker's environment the fork server and its children see: where
# programs are, the locale and time zone, where temporary files go, how Python finds our modules,
# where native libraries are, and the thread counts of the numeric libraries. No secret, no address
# of a service.
ENVIRONMENT_KEPT = frozenset(
    {
        "PATH",
        "LANG",
        "LANGUAGE",
        "LC_ALL",
        "LC_CTYPE",
        "TZ",
        "TMPDIR",
        "PYTHONPATH",
        "PYTHONDONTWRITEBYTECODE",
        "PYTHONUNBUFFERED",
        "OMP_NUM_THREADS",
        "OPENBLAS_NUM_THREADS",
        "OPENBLAS_CORETYPE",
        "MKL_NUM_THREADS",
        "MALLOC_ARENA_MAX",
        "LD_LIBRARY_PATH",
    }
)

_context_lock = threading.Lock()
_context: Any = None
_server_process: subprocess.Popen[bytes] | None = None  # kept: a collected Popen would reap the server


@dataclass(frozen=True)
class SandboxLimits:
    memory_bytes: int = 1024 * 1024 * 1024  # the child's address space: PDFium, its caches, one page
    cpu_seconds: int = 120  # CPU the child may use (SIGXCPU), and a wall-clock deadline of twice that


def _forget_fork_server_after_fork() -> None:
    """In a process forked after the fork server started (a pool process of a parent that had
    rendered a PDF), the server belongs to the parent: multiprocessing's handle on it would
    ``waitpid`` a process that is not our child and fail. Start afresh; close the inherited end of
    the parent's keep-alive pipe so its server still exits with it."""
    server: Any = multiprocessing.forkserver._forkserver
    if server._forkserver_alive_fd is not None:
        with contextlib.suppress(OSError):
            os.close(server._forkserver_alive_fd)
    server._forkserver_address = None
    server._forkserver_alive_fd = None
    server._forkserver_pid = None
    server._inherited_fds = None
    server._lock = threading.Lock()


os.register_at_fork(after_in_child=_forget_fork_server_after_fork)


def scrubbed_environment(environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """``environ`` (the worker's) with only the variables of :data:`ENVIRONMENT_KEPT`."""
    return {k: v for k, v in (os.environ if environ is None else environ).items() if k in ENVIRONMENT_KEPT}


def _server_ensure_running() -> None:
    """``multiprocessing.forkserver.ForkServer.ensure_running`` (Python 3.11 and 3.12), but the
    server is started with :func:`scrubbed_environment` instead of the worker's environment."""
    global _server_process
    server: Any = multiprocessing.forkserver._forkserver
    with server._lock:
        resource_tracker.ensure_running()
        if server._forkserver_pid is not None:
            pid, _ = os.waitpid(server._forkserver_pid, os.WNOHANG)
            if not pid:
                return  # still alive
            os.close(server._forkserver_alive_fd)  # dead: start it again
            server._forkserver_address = server._forkserver_alive_fd = server._forkserver_pid = None
        data: dict[str, Any] = {}
        if server._preload_modules:
            prepared = spawn.get_preparation_data("ignore")
            data = {k: v for k, v in prepared.items() if k in ("main_path", "sys_path")}
        with socket.socket(socket.AF_UNIX) as listener:
            address = connection.arbitrary_address("AF_UNIX")  # type: ignore[attr-defined]
            listener.bind(address)
            if not util.is_abstract_socket_namespace(address):
                os.chmod(address, 0o600)
            listener.listen()
            # every client holds the write end of the "alive" pipe; the server exits at its EOF
            alive_r, alive_w = os.pipe()
            try:
                command = (
                    "from multiprocessing.forkserver import main; "
                    f"main({listener.fileno()}, {alive_r}, {server._preload_modules!r}, **{data!r})"
                )
                executable = spawn.get_executable()
                flags = util._args_from_interpreter_flags()  # type: ignore[attr-defined]
                _server_process = subprocess.Popen(
                    [executable, *flags, "-c", command],
                    executable=executable,
                    pass_fds=(listener.fileno(), alive_r),
                    env=scrubbed_environment(),
                    restore_signals=False,
                )
            except BaseException:
                os.close(alive_w)
                raise
            finally:
                os.close(alive_r)
            server._forkserver_address = address
            server._forkserver_alive_fd = alive_w
            server._forkserver_pid = _server_process.pid


def _forkserver() -> Any:
    """The forkserver context, its server preloading PDFium once per worker process and started
    with a scrubbed environment (the stdlib's server object asks ``_server_ensure_running``)."""
    global _context
    with _context_lock:
        if _context is None:
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload(_PRELOAD)
            server: Any = multiprocessing.forkserver._forkserver
            server.ensure_running = _server_ensure_running
            _context = context
        return _context


Job = Callable[[bytes, Any], Iterator[Any]]


def _child(connection: Connection, job: Job, data: bytes, options: Any, limits: SandboxLimits) -> None:
    """Runs in the child: limits first, then the job, sending ("item", item) messages and one
    closing ("done",) or ("error", code, message)."""
    resource.setrlimit(resource.RLIMIT_AS, (limits.memory_bytes, limits.memory_bytes))
    resource.setrlimit(resource.RLIMIT_CPU, (limits.cpu_seconds, limits.cpu_seconds + 5))
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the worker's Ctrl-C is the worker's to handle
    try:
        for item in job(data, options):
            connection.send(("item", item))
        connection.send(("done",))
    except EngineError as exc:
        connection.send(("error", exc.code, exc.message))
    except MemoryError:
        connection.send(("error", RESOURCE_LIMIT, _memory_message(limits)))
    finally:
        connection.close()


def _memory_message(limits: SandboxLimits) -> str:
    return f"rendering the PDF needed more than {limits.memory_bytes // (1024 * 1024)} MB of memory"


def _ended(process: Any, limits: SandboxLimits) -> EngineError:
    """The error for a child that stopped without finishing its answer."""
    process.join(5)
    code = process.exitcode
    if code == -signal.SIGXCPU or code == -signal.SIGKILL:
        return EngineError(RESOURCE_LIMIT, f"rendering the PDF took more than {limits.cpu_seconds} s of CPU")
    # PDFium's allocator aborts or traps when the address-space limit refuses it memory, and a
    # parser bug segfaults: from outside these look alike, so the message names both.
    return EngineError(
        RENDER_CRASHED,
        f"the PDF renderer stopped on this file (exit {code}): a damaged or hostile PDF, or one that "
        f"needs more than {limits.memory_bytes // (1024 * 1024)} MB",
    )


def _start(process: Any) -> None:
    """Start ``process``, also from a Celery prefork pool process (billiard), which
    multiprocessing counts as daemonic and forbids children ("daemonic processes are not allowed
    to have children").
    That rule keeps a daemon's children from being orphaned when it is terminated; the render
    child is the fork server's child, not ours, and the fork server exits with us, so it does
    not apply. The flag is lifted for the call only (a pool process runs one task at a time)."""
    # keys of multiprocessing's own type: a prefork pool process inherits billiard's, which refuses
    # to be pickled for the fork server (the child's, and ours in the preparation data)
    current = multiprocessing.current_process()  # in a pool process: billiard's process object
    stdlib_key = multiprocessing.process.AuthenticationString  # type: ignore[attr-defined]
    if type(current.authkey) is not stdlib_key:
        current._config["authkey"] = stdlib_key(bytes(current.authkey))  # type: ignore[attr-defined]
    process.authkey = secrets.token_bytes(32)
    if not current.daemon:
        process.start()
        return
    current._config["daemon"] = False  # type: ignore[attr-defined]
    try:
        process.start()
    finally:
        current._config["daemon"] = True  # type: ignore[attr-defined]


def render_pages_sandboxed(data: bytes, options: Any, limits: SandboxLimits) -> Iterator[Any]:
    """Yield the pages ``media.pdf_render.render_pages(data, options)`` yields, rendered in a
    limited child process; raise ``EngineError`` for the file's own errors and for a child that
    ran out of memory or time or crashed."""
    from media.pdf_render import render_pages

    return sandboxed(render_pages, data, options, limits)


def sandboxed(job: Job, data: bytes, options: Any, limits: SandboxLimits) -> Iterator[Any]:
    """Yield what ``job(data, options)`` yields, run in a limited child process. ``job`` must be
    a module-level function of a module the fork server can import."""
    context = _forkserver()
    receiving, sending = context.Pipe(duplex=False)
    process = context.Process(target=_child, args=(sending, job, data, options, limits), daemon=True)
    _start(process)
    sending.close()
    deadline_s = 2.0 * limits.cpu_seconds  # for the whole file: a child that waits uses no CPU
    deadline = time.monotonic() + deadline_s
    try:
        while True:
            if not receiving.poll(max(0.0, deadline - time.monotonic())):
                process.kill()
                process.join(5)
                raise EngineError(RESOURCE_LIMIT, f"rendering the PDF took longer than {deadline_s:.0f} s")
            try:
                message = receiving.recv()
            except EOFError:
                raise _ended(process, limits) from None
            if message[0] == "item":
                yield message[1]
            elif message[0] == "done":
                return
            else:
                raise EngineError(message[1], message[2])
    finally:
        receiving.close()
        if process.is_alive():
            process.kill()
        process.join(5)
