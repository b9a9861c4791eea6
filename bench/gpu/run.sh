#!/usr/bin/env bash
# Gemma 4 E4B (random bf16 weights) on one GPU: vision ms/page, prefill tokens/s, decode step
# time at batch 1..128, pages/s and $ per 1000 pages, a B200 estimate (bench/gpu/README.md).
#
#   bench/gpu/run.sh                          # the GPU machine: a few minutes, capped near 8
#   bench/gpu/run.sh --tiny --device cpu      # tiny config on CPU: seconds (the plumbing)
#   bench/gpu/run.sh --help                   # every option of gemma4_bench.py
#
# Needs only a Python with torch and transformers >= 5.17 (Gemma 4): $PYTHON, else python3.
# Installs nothing. Writes bench/results/gpu_<label>.{json,md}; the last stdout line is JSON.
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
    from transformers import Gemma4ForConditionalGeneration, StaticCache  # noqa: F401
except ImportError as error:
    missing.append(f"transformers >= 5.17 with Gemma 4 ({error})")
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
