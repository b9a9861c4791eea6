#!/usr/bin/env bash
# The GPU doc_pipeline benchmark, in a few minutes on one H200/B200-class GPU.
#
# Starts the bundled tritonserver (nvidia-pytriton) over a temporary model repository holding
# the real GPU doc_pipeline (configs/gpu.pbtxt, gpu_model.py: classify -> extract -> verify with
# async BLS) backed by a `gemma4_e4b` that is the Gemma 4 E4B architecture with random BF16
# weights (bench/gpu/hf_gemma4/model.py: transformers, instantiated from its configuration, no
# download); the extraction calls go to the same model. Then bench/gpu/loadgen.py measures pages
# per second and p50/p95 latency at 1, 8, 32 and 128 documents in flight, one page each
# (1120 image tokens), 200 generated tokens per extraction, and writes bench/results/.
#
#   bench/gpu/run.sh                                  # on the GPU machine
#   bench/gpu/run.sh --backend standin --concurrency 1 4 --documents 8   # CPU: the plumbing only
#
# Python packages it needs are installed from PyPI only when missing (into $PYTHON's
# environment; default: the repository's .venv, else python3).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
BACKEND=hf
CONCURRENCY=(1 8 32 128)
DOCUMENTS=0
OUT="$ROOT/bench/results"
LABEL=""
READY_TIMEOUT=900  # loading 8B random parameters; the stand-ins need seconds

usage() {
  sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'
  echo "options: --backend hf|standin  --concurrency N [N...]  --documents N  --out DIR  --label NAME"
}

while [ $# -gt 0 ]; do
  case "$1" in
    --backend) BACKEND="${2:?}"; shift 2 ;;
    --concurrency)
      shift; CONCURRENCY=()
      while [ $# -gt 0 ] && [[ "$1" =~ ^[0-9]+$ ]]; do CONCURRENCY+=("$1"); shift; done ;;
    --documents) DOCUMENTS="${2:?}"; shift 2 ;;
    --out) OUT="${2:?}"; shift 2 ;;
    --label) LABEL="${2:?}"; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "run.sh: unknown argument $1" >&2; usage >&2; exit 2 ;;
  esac
done
case "$BACKEND" in hf|standin) ;; *) echo "run.sh: --backend must be hf or standin" >&2; exit 2 ;; esac
if [ ${#CONCURRENCY[@]} -eq 0 ]; then echo "run.sh: --concurrency needs numbers" >&2; exit 2; fi
for c in "${CONCURRENCY[@]}"; do
  if [ "$c" -lt 1 ]; then echo "run.sh: --concurrency must be >= 1" >&2; exit 2; fi
done
if ! [[ "$DOCUMENTS" =~ ^[0-9]+$ ]]; then echo "run.sh: --documents must be a number" >&2; exit 2; fi
LABEL="${LABEL:-$BACKEND-$(date +%Y%m%d-%H%M%S)}"

if [ -z "${PYTHON:-}" ]; then
  if [ -x "$ROOT/.venv/bin/python" ]; then PYTHON="$ROOT/.venv/bin/python"; else PYTHON="$(command -v python3)"; fi
fi

need() {  # need MODULE PIP-SPEC: install PIP-SPEC when MODULE does not import
  "$PYTHON" -c "import $1" 2>/dev/null || { echo "installing $2"; "$PYTHON" -m pip install -q "$2"; }
}
need tritonclient.grpc "tritonclient[grpc]>=2.51"
need pytriton "nvidia-pytriton==0.7.0"
need cv2 "opencv-python-headless<4.12"
need jsonschema "jsonschema>=4.21"
need yaml "pyyaml>=6"
need numpy "numpy>=1.26,<2"
"$PYTHON" -c "import engines.llm" 2>/dev/null || (cd "$ROOT" && "$PYTHON" -m pip install -q -e .)
if [ "$BACKEND" = hf ]; then
  need torch torch
  need PIL pillow
  "$PYTHON" -c "from transformers import Gemma4ForConditionalGeneration" 2>/dev/null \
    || { echo "installing a transformers with Gemma 4"; "$PYTHON" -m pip install -q -U transformers; }
  "$PYTHON" -c "import torch, sys; sys.exit(0 if torch.cuda.is_available() else 1)" \
    || { echo "run.sh: --backend hf needs a CUDA GPU (torch sees none)" >&2; exit 1; }
fi

WORK="$(mktemp -d)"
REPO="$WORK/repo"
SERVER_PID=""
cleanup() {
  if [ -n "$SERVER_PID" ] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill -TERM "$SERVER_PID" 2>/dev/null || true
    for _ in $(seq 60); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 1; done
    kill -KILL "$SERVER_PID" 2>/dev/null || true
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT

mkdir -p "$REPO/gemma4_e4b/1"
cp -r "$ROOT/model_repo/doc_pipeline" "$REPO/doc_pipeline"
cp "$ROOT/model_repo/gemma4_e4b/config.pbtxt" "$REPO/gemma4_e4b/config.pbtxt"
if [ "$BACKEND" = hf ]; then
  cp "$ROOT/bench/gpu/hf_gemma4/model.py" "$REPO/gemma4_e4b/1/model.py"
else
  cp "$ROOT/tests/integration/gpu_standins/standin_model.py" "$REPO/gemma4_e4b/1/model.py"
fi
# One model serves both steps, one page per call.
sed -i -e 's/string_value: "gemma4_26b_a4b"/string_value: "gemma4_e4b"/' \
       -e '/key: "max_images_per_call"/{n;s/string_value: "[0-9]*"/string_value: "1"/}' \
       "$REPO/doc_pipeline/configs/gpu.pbtxt"

read -r HTTP_PORT GRPC_PORT METRICS_PORT < <("$PYTHON" - <<'EOF'
import socket
socks = [socket.socket() for _ in range(3)]
for s in socks:
    s.bind(("127.0.0.1", 0))
print(*[s.getsockname()[1] for s in socks])
EOF
)
mkdir -p "$OUT"
SERVER_LOG="$OUT/gpu_bench_$LABEL.server.log"
echo "tritonserver on gRPC $GRPC_PORT, log $SERVER_LOG"
(cd "$ROOT" && DOCINTEL_PIPELINE_VARIANT=gpu exec "$PYTHON" -m workers.triton_server \
  --model-repository "$REPO" --model gemma4_e4b --model doc_pipeline \
  --http-port "$HTTP_PORT" --grpc-port "$GRPC_PORT" --metrics-port "$METRICS_PORT") >"$SERVER_LOG" 2>&1 &
SERVER_PID=$!

(cd "$ROOT" && "$PYTHON" - "$HTTP_PORT" "$READY_TIMEOUT" "$SERVER_PID" <<'EOF'
import subprocess, sys
from workers.triton_server import wait_until_ready
port, timeout, pid = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
try:
    wait_until_ready(f"127.0.0.1:{port}", timeout, models=("gemma4_e4b", "doc_pipeline"))
except TimeoutError as error:
    sys.exit(f"run.sh: {error}")
EOF
) || { echo "run.sh: the server did not become ready; last lines of its log:" >&2; tail -40 "$SERVER_LOG" >&2; exit 1; }

DOC_ARGS=()
if [ "$DOCUMENTS" -gt 0 ]; then DOC_ARGS=(--documents "$DOCUMENTS"); fi
(cd "$ROOT" && "$PYTHON" bench/gpu/loadgen.py --url "127.0.0.1:$GRPC_PORT" \
  --concurrency "${CONCURRENCY[@]}" "${DOC_ARGS[@]}" --label "$LABEL" --out "$OUT" \
  --backend "$( [ "$BACKEND" = hf ] && echo 'Gemma 4 E4B architecture, random BF16 weights, transformers generate (static batches), bundled tritonserver 2.51' || echo 'CPU stand-in models (plumbing only, not a GPU measurement)')")
