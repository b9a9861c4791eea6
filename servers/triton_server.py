"""Start Triton Inference Server over ``model_repo/`` (ARCHITECTURE §3.3 ``serve_models``, ``make up``).

Two installations are supported, and the first found wins:

* a system ``tritonserver`` on ``PATH`` — the GPU production case (NGC container), used as it is;
* the ``tritonserver`` 2.51 that ships inside the ``nvidia-pytriton`` wheel — the CPU case.

The bundled server needs three things its wheel does not arrange by itself, and this module
arranges them without touching site-packages:

1. A backend directory where the Python backend stub sits beside ``libtriton_python.so`` (the
   wheel keeps one stub per Python version elsewhere). We build it under ``var/triton/backends``
   from symlinks, and put the wheel's ``nvidia_pytriton.libs`` on ``LD_LIBRARY_PATH`` because
   the backend's ``$ORIGIN`` RPATH does not resolve through the symlink.
2. The stub links the distribution's ``libpython3.x``; when the running interpreter is another
   build (pyenv) its standard library does not match that ``libpython``. Putting the running
   interpreter's own ``LIBDIR`` first on ``LD_LIBRARY_PATH`` makes the stub embed the same
   Python we run.
3. The stub's interpreter must import the virtual environment's packages and ``engines``. It
   runs *isolated* (``PYTHONPATH`` is ignored), so: it finds the virtual environment by the
   ``python3`` it meets first on ``PATH`` (its ``pyvenv.cfg``), hence this interpreter's
   directory goes first on ``PATH``; and it imports the project from its working directory
   (``''`` is on its ``sys.path``), hence the server runs in the repository root. A project
   installed into the environment (``pip install -e .``) works from anywhere.

No Django here: ``manage.py serve_models`` is a thin command over :func:`serve`.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import os
import shutil
import signal
import subprocess
import sys
import sysconfig
import time
import urllib.error
import urllib.request
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import FrameType

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_MODEL_REPOSITORY = REPO_ROOT / "model_repo"
BACKEND_DIRECTORY = REPO_ROOT / "var" / "triton" / "backends"

# ARCHITECTURE §3.3: Triton's own defaults (8000-8002) are not used, 8000 is the web server's.
DEFAULT_HTTP_PORT = 8100
DEFAULT_GRPC_PORT = 8101
DEFAULT_METRICS_PORT = 8102
# Models loaded at start-up. The repository also holds GPU-only models, which a CPU machine
# must not try to load, so the server runs in explicit model-control mode with this list.
DEFAULT_MODELS = ("doc_pipeline",)
# Comma-separated models to load instead (e.g. "null,sim_gpu" for the benchmarks' simulated models).
MODELS_ENV = "DOCINTEL_TRITON_MODELS"
# Which doc_pipeline Triton loads is one setting (ARCHITECTURE §3.5, same name and contract):
# "reference" (config.pbtxt: the CPU reference engine) or "gemma4" (configs/gemma4.pbtxt, chosen
# with --model-config-name: BLS over Gemma 4). "cpu" and "gpu" are their older names. With the
# tensorrt_llm model backend the in-Triton Gemma 4 models are loaded first; with openai (the
# default) the engine is a separate server (scripts/stack.sh starts vLLM on CPU).
PIPELINE_VARIANT_ENV = "DOCINTEL_PIPELINE_VARIANT"
MODEL_BACKEND_ENV = "DOCINTEL_MODEL_BACKEND"
PIPELINE_VARIANT_ALIASES = {"cpu": "reference", "gpu": "gemma4"}
PIPELINE_VARIANTS = ("reference", "gemma4")
TENSORRT_LLM_MODELS = ("gemma4_e4b", "gemma4_26b_a4b")

PYTHON_BACKEND_FILES = ("libtriton_python.so", "triton_python_backend_utils.py")
STUB_NAME = "triton_python_backend_stub"
SHM_PREFIX_OPTION = "shm-region-prefix-name="
SHARED_MEMORY = Path("/dev/shm")


@dataclass(frozen=True)
class TritonInstallation:
    """Where the server binary is and what its process needs to find its libraries."""

    binary: Path
    bundled: bool  # True: the nvidia-pytriton wheel's server (CPU); False: a system install
    backend_directory: Path | None  # None: the installation's own default
    library_path: tuple[str, ...] = ()  # prepended to LD_LIBRARY_PATH, in order


def _pytriton_root() -> Path | None:
    spec = importlib.util.find_spec("pytriton")
    if spec is None or spec.origin is None:
        return None
    return Path(spec.origin).parent


def _running_libpython_dir() -> str | None:
    """The directory holding this interpreter's shared ``libpython``, if it was built shared."""
    libdir = sysconfig.get_config_var("LIBDIR")
    soname = sysconfig.get_config_var("INSTSONAME")
    if libdir and soname and (Path(libdir) / soname).exists():
        return str(libdir)
    return None


def prepare_backend_directory(pytriton_root: Path, target: Path = BACKEND_DIRECTORY) -> Path:
    """Lay out ``target/python/`` with the wheel's Python backend and this Python's stub.

    Symlinks, refreshed on every start, so a rebuilt virtual environment never leaves a stale
    copy behind. Returns ``target`` (the value for ``--backend-directory``).
    """
    source = pytriton_root / "tritonserver"
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    links = {name: source / "backends" / "python" / name for name in PYTHON_BACKEND_FILES}
    links[STUB_NAME] = source / "python_backend_stubs" / version / STUB_NAME
    python_dir = target / "python"
    python_dir.mkdir(parents=True, exist_ok=True)
    for name, real in links.items():
        if not real.exists():
            raise FileNotFoundError(f"the nvidia-pytriton wheel has no {real} (Python {version})")
        link = python_dir / name
        if link.is_symlink() and Path(os.readlink(link)) == real:
            continue
        temporary = python_dir / f".{name}.tmp"
        temporary.unlink(missing_ok=True)
        temporary.symlink_to(real)
        temporary.replace(link)  # atomic: a concurrent start never sees a missing file
    return target


def find_installation() -> TritonInstallation:
    """A system ``tritonserver`` on PATH wins; otherwise the one bundled with nvidia-pytriton."""
    system = shutil.which("tritonserver")
    if system:
        return TritonInstallation(binary=Path(system), bundled=False, backend_directory=None)
    root = _pytriton_root()
    binary = root / "tritonserver" / "bin" / "tritonserver" if root else None
    if root is None or binary is None or not binary.exists():
        raise FileNotFoundError("no tritonserver on PATH and nvidia-pytriton is not installed")
    library_path = [str(root.parent / "nvidia_pytriton.libs")]
    libpython_dir = _running_libpython_dir()
    if libpython_dir:
        library_path.insert(0, libpython_dir)
    return TritonInstallation(
        binary=binary,
        bundled=True,
        backend_directory=prepare_backend_directory(root),
        library_path=tuple(library_path),
    )


def variant_name(environ: Mapping[str, str] | None = None) -> str:
    """``DOCINTEL_PIPELINE_VARIANT`` as one of :data:`PIPELINE_VARIANTS` (aliases resolved)."""
    raw = (os.environ if environ is None else environ).get(PIPELINE_VARIANT_ENV, "").strip().lower()
    name = PIPELINE_VARIANT_ALIASES.get(raw, raw) or "reference"
    if name not in PIPELINE_VARIANTS:
        known = ", ".join([*PIPELINE_VARIANTS, *PIPELINE_VARIANT_ALIASES])
        raise ValueError(f"{PIPELINE_VARIANT_ENV} must be one of {known}, not {raw!r}")
    return name


def pipeline_variant(environ: Mapping[str, str] | None = None) -> tuple[tuple[str, ...], str | None]:
    """The models to load and the ``--model-config-name`` for ``DOCINTEL_PIPELINE_VARIANT``."""
    env = os.environ if environ is None else environ
    if variant_name(env) == "reference":
        return ("doc_pipeline",), None
    if env.get(MODEL_BACKEND_ENV, "").strip().lower() == "tensorrt_llm":
        return (*TENSORRT_LLM_MODELS, "doc_pipeline"), "gemma4"
    return ("doc_pipeline",), "gemma4"


def configured_models() -> tuple[str, ...]:
    """The models named in ``DOCINTEL_TRITON_MODELS``, else the pipeline variant's
    (:data:`DEFAULT_MODELS` on CPU)."""
    names = tuple(name.strip() for name in os.environ.get(MODELS_ENV, "").split(",") if name.strip())
    if names:
        return names
    variant_models, _config_name = pipeline_variant()
    return variant_models if variant_models != ("doc_pipeline",) else DEFAULT_MODELS


def shm_prefix(grpc_port: int) -> str:
    """The Python backend's /dev/shm region prefix for the server on ``grpc_port``."""
    return f"docintel_{grpc_port}_"


def build_command(
    installation: TritonInstallation,
    *,
    model_repository: Path,
    http_port: int,
    grpc_port: int,
    metrics_port: int,
    models: Sequence[str] = DEFAULT_MODELS,
    address: str = "127.0.0.1",
    log_verbose: int = 0,
    config_name: str | None = None,
) -> list[str]:
    """The ``tritonserver`` command line.

    ``shm-region-prefix-name`` is unique per gRPC port: two servers on one host (a dev stack and
    the test suite) otherwise share the Python backend's /dev/shm regions and hang or crash.
    """
    command = [
        str(installation.binary),
        f"--model-repository={model_repository}",
        f"--http-address={address}",
        f"--http-port={http_port}",
        f"--grpc-address={address}",
        f"--grpc-port={grpc_port}",
        f"--metrics-address={address}",
        f"--metrics-port={metrics_port}",
        "--model-control-mode=explicit",
        *(f"--load-model={name}" for name in models),
        "--strict-readiness=true",
        "--exit-on-error=true",
        # Our configs are complete; auto-complete would start one extra stub per Python model.
        "--disable-auto-complete-config",
        f"--log-verbose={log_verbose}",
        f"--backend-config=python,{SHM_PREFIX_OPTION}{shm_prefix(grpc_port)}",
    ]
    if config_name:
        # Models with configs/<config_name>.pbtxt load it; the others their config.pbtxt.
        command.append(f"--model-config-name={config_name}")
    if installation.backend_directory is not None:
        command.append(f"--backend-directory={installation.backend_directory}")
    if installation.bundled:
        # CPU build: no pinned host memory to stage GPU copies, so don't reserve 256 MB for it.
        command.append("--pinned-memory-pool-byte-size=0")
    return command


def _join(*parts: str | None) -> str:
    return os.pathsep.join(part for part in parts if part)


def build_environment(
    installation: TritonInstallation, base: Mapping[str, str] | None = None
) -> dict[str, str]:
    """The server's environment: ``base`` (default ``os.environ``) plus what the stub needs.

    Run the server with ``cwd=REPO_ROOT`` too (see the module docstring).
    """
    env = dict(os.environ if base is None else base)
    env["PATH"] = _join(str(Path(sys.executable).parent), env.get("PATH"))
    if installation.library_path:
        env["LD_LIBRARY_PATH"] = _join(*installation.library_path, env.get("LD_LIBRARY_PATH"))
    return env


def _terminate_with_parent() -> None:
    """In the child before exec: get SIGTERM when the launching process dies (Linux).

    A killed launcher (``kill -9`` of ``serve_models``, a crashed pytest) must not leave a server
    holding its ports and a gigabyte of models behind.
    """
    if sys.platform != "linux":
        return
    import ctypes

    pr_set_pdeathsig = 1
    ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, signal.SIGTERM)


def start_background(
    *,
    http_port: int = DEFAULT_HTTP_PORT,
    grpc_port: int = DEFAULT_GRPC_PORT,
    metrics_port: int = DEFAULT_METRICS_PORT,
    model_repository: Path = DEFAULT_MODEL_REPOSITORY,
    log_path: Path | None = None,
    models: Sequence[str] = DEFAULT_MODELS,
    address: str = "127.0.0.1",
    log_verbose: int = 0,
    die_with_parent: bool = False,
    config_name: str | None = None,
    environment: Mapping[str, str] | None = None,
) -> subprocess.Popen[bytes]:
    """Start the server detached, in its own session, logging to ``log_path`` (or discarding).

    Its own session keeps a terminal's Ctrl-C away from it and lets :func:`stop` signal the
    server together with its Python stub processes. ``die_with_parent`` (tests) stops it when
    this process dies. ``environment`` adds variables to this process's for the server (its
    models read their ``DOCINTEL_*`` settings there).
    """
    installation = find_installation()
    command = build_command(
        installation,
        model_repository=model_repository,
        http_port=http_port,
        grpc_port=grpc_port,
        metrics_port=metrics_port,
        models=models,
        address=address,
        log_verbose=log_verbose,
        config_name=config_name if config_name is not None else pipeline_variant()[1],
    )
    if log_path is not None:
        log_path.parent.mkdir(parents=True, exist_ok=True)
    with open(log_path or os.devnull, "ab") as log:
        return subprocess.Popen(
            command,
            env=build_environment(installation, {**os.environ, **(environment or {})}),
            cwd=REPO_ROOT,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=_terminate_with_parent if die_with_parent else None,
        )


def stop(process: subprocess.Popen[bytes], timeout_s: float = 30.0) -> int:
    """Stop a server started by :func:`start_background`: SIGTERM, then SIGKILL its session.

    Triton finishes in-flight requests on SIGTERM (up to its exit timeout); the hard kill also
    reaches stub processes that would otherwise outlive a wedged server.
    """
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            _remove_shared_memory(process)
    return process.returncode


def _remove_shared_memory(process: subprocess.Popen[bytes]) -> None:
    """A killed server leaves its Python backend regions in /dev/shm (tmpfs, i.e. RAM)."""
    args = process.args if isinstance(process.args, list) else []
    prefixes = [str(arg).rpartition(SHM_PREFIX_OPTION)[2] for arg in args if SHM_PREFIX_OPTION in str(arg)]
    for prefix in prefixes:
        for region in SHARED_MEMORY.glob(f"{prefix}*"):
            region.unlink(missing_ok=True)


def _http_ok(url: str, timeout_s: float) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=timeout_s) as response:
            return bool(response.status == 200)
    except (urllib.error.URLError, OSError):
        return False


def wait_until_ready(
    url: str,
    timeout: float,
    *,
    models: Sequence[str] = DEFAULT_MODELS,
    process: subprocess.Popen[bytes] | None = None,
) -> None:
    """Block until the server at HTTP ``url`` (``host:port``) and ``models`` are ready.

    Raises ``TimeoutError`` after ``timeout`` seconds, or ``RuntimeError`` as soon as
    ``process`` (when given) has exited — a failed model load ends the server early.
    """
    base = url if url.startswith(("http://", "https://")) else f"http://{url}"
    checks = [f"{base}/v2/health/ready", *(f"{base}/v2/models/{name}/ready" for name in models)]
    deadline = time.monotonic() + timeout
    while True:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"tritonserver exited with status {process.returncode} before ready")
        if all(_http_ok(check, timeout_s=2.0) for check in checks):
            return
        if time.monotonic() >= deadline:
            raise TimeoutError(f"Triton at {base} not ready after {timeout:.0f} s")
        time.sleep(0.5)


def serve(
    http_port: int = DEFAULT_HTTP_PORT,
    grpc_port: int = DEFAULT_GRPC_PORT,
    metrics_port: int = DEFAULT_METRICS_PORT,
    model_repository: Path = DEFAULT_MODEL_REPOSITORY,
    *,
    models: Sequence[str] = DEFAULT_MODELS,
    address: str = "127.0.0.1",
    log_verbose: int = 0,
    config_name: str | None = None,
) -> int:
    """Run the server in the foreground until it exits; return its exit status.

    SIGINT, SIGTERM and SIGHUP sent to this process are forwarded to the server, which shuts
    down gracefully (a second signal, e.g. Ctrl-C reaching both through the terminal, is
    harmless). The server stays in this process group, so ``kill -- -PGID`` (``make down``)
    reaches it and its stub processes, and it gets SIGTERM if this process is killed.
    """
    installation = find_installation()
    command = build_command(
        installation,
        model_repository=Path(model_repository),
        http_port=http_port,
        grpc_port=grpc_port,
        metrics_port=metrics_port,
        models=models,
        address=address,
        log_verbose=log_verbose,
        config_name=config_name if config_name is not None else pipeline_variant()[1],
    )
    process = subprocess.Popen(
        command, env=build_environment(installation), cwd=REPO_ROOT, preexec_fn=_terminate_with_parent
    )

    def forward(signum: int, _frame: FrameType | None) -> None:
        if process.poll() is None:
            process.send_signal(signum)

    forwarded = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
    previous = {signum: signal.signal(signum, forward) for signum in forwarded}
    try:
        returncode = process.wait()
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    # A server ended by a signal reports -N; shells report that as 128+N.
    return 128 - returncode if returncode < 0 else returncode


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m servers.triton_server", description="Run Triton over model_repo/."
    )
    parser.add_argument("--http-port", type=int, default=DEFAULT_HTTP_PORT)
    parser.add_argument("--grpc-port", type=int, default=DEFAULT_GRPC_PORT)
    parser.add_argument("--metrics-port", type=int, default=DEFAULT_METRICS_PORT)
    parser.add_argument("--model-repository", type=Path, default=DEFAULT_MODEL_REPOSITORY)
    parser.add_argument(
        "--model",
        action="append",
        dest="models",
        help=f"model to load (repeatable; default ${MODELS_ENV} or doc_pipeline)",
    )
    parser.add_argument("--address", default="127.0.0.1", help="bind address (0.0.0.0 in a cluster)")
    parser.add_argument("--log-verbose", type=int, default=0)
    args = parser.parse_args(argv)
    return serve(
        args.http_port,
        args.grpc_port,
        args.metrics_port,
        args.model_repository,
        models=tuple(args.models or configured_models()),
        address=args.address,
        log_verbose=args.log_verbose,
    )


if __name__ == "__main__":
    sys.exit(main())
