#!/usr/bin/env bash
# Gemma 4 as the pipeline runs it, random bf16 weights, on one GPU: the 26B-A4B extraction pass
# and the E4B classification pass (vision ms/page, prefill tokens/s, decode step time at batch
# 1..128), pages/s and $ per 1000 pages, a B200 estimate scaled from the card measured
# (bench/gpu/README.md).
#
#   bench/gpu/run.sh                          # the GPU machine: a few minutes, capped near 8
#   bench/gpu/run.sh --tiny --device cpu      # tiny stand-ins on CPU: seconds (the plumbing)
#   bench/gpu/run.sh --help                   # every option of gemma4_bench.py
#
# Needs only a Python with torch and transformers >= 5.17 (Gemma 4; gemma4_bench.py checks the
# version first): $PYTHON, else python3. Installs nothing. Writes var/bench/gpu/gpu_<label>.{json,md}
# (git-ignored; --out elsewhere); the last stdout line is JSON.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
PYTHON="${PYTHON:-python3}"
if ! command -v "$PYTHON" >/dev/null 2>&1; then
  echo "run.sh: no Python interpreter '$PYTHON' (set PYTHON=/path/to/python)" >&2
  exit 1
fi

MISSING="$("$PYTHON" - <<'EOF'
missing = []
try:
    import torch  # noqa: F401
except ImportError as error:
    missing.append(f"torch ({error})")
try:
    import transformers  # noqa: F401  (its version: gemma4_bench.py, first thing)
except ImportError as error:
    missing.append(f"transformers >= 5.17 ({error})")
print("; ".join(missing))
EOF
)"
if [ -n "$MISSING" ]; then
  echo "run.sh: $PYTHON lacks: $MISSING" >&2
  echo "run.sh: nothing is installed by this script; point PYTHON at an environment that has them" >&2
  exit 1
fi

# Decode batch sizes allocate caches of growing size; expandable segments keep them from
# fragmenting the allocator into an early out-of-memory.
export PYTORCH_CUDA_ALLOC_CONF="${PYTORCH_CUDA_ALLOC_CONF:-expandable_segments:True}"
exec "$PYTHON" "$ROOT/bench/gpu/gemma4_bench.py" "$@"
