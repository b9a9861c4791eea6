#!/usr/bin/env bash
# Serve the TensorRT-LLM stack with Triton: the Gemma 4 models, then doc_pipeline's Gemma 4 variant.
#
#   GEMMA4_E4B_CHECKPOINT=/models/gemma-4-E4B-it-nvfp4 \
#   GEMMA4_26B_A4B_CHECKPOINT=/models/gemma-4-26B-A4B-it-nvfp4 \
#   scripts/gpu/serve.sh
#
# Run in the repository root inside the serving image (deploy/docker/triton-trtllm.Dockerfile:
# TensorRT-LLM 1.3.0rc29 with Triton 2.71 and this project installed), on a Blackwell GPU.
#
# Plain tritonserver, no trtllm-llmapi-launch: the launcher starts one spawn proxy at one address,
# which serves a single LLM() client, so the second Gemma model would not load. Both models are
# TP=1: each runs TensorRT-LLM's executor inside its own Python stub process (model.py sets
# TLLM_WORKER_USE_SINGLE_PROCESS=1 and refuses to start under the launcher). One server per model
# is not an option here: doc_pipeline calls both models in-process (BLS).
#
# Explicit model-control mode, models loaded one after the other: each model.yaml's
# kv_cache_config.free_gpu_memory_fraction is a fraction of the memory free when *it* loads
# (manage.py gpu_plan prints them), so the load order is part of the memory plan.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
HTTP_PORT="${HTTP_PORT:-8100}"; GRPC_PORT="${GRPC_PORT:-8101}"; METRICS_PORT="${METRICS_PORT:-8102}"
MODELS=(gemma4_e4b gemma4_26b_a4b doc_pipeline)

for var in GEMMA4_E4B_CHECKPOINT GEMMA4_26B_A4B_CHECKPOINT; do
  dir="${!var:-}"
  [ -n "$dir" ] && [ -f "$dir/config.json" ] || { echo "serve.sh: set $var to a checkpoint directory" >&2; exit 1; }
  [ -f "$dir/hf_quant_config.json" ] || echo "serve.sh: warning: $dir is not quantised (no hf_quant_config.json)" >&2
done
command -v tritonserver >/dev/null || { echo "serve.sh: tritonserver not found (use the serving image)" >&2; exit 1; }
if [ "${TLLM_SPAWN_PROXY_PROCESS:-}" = 1 ]; then
  echo "serve.sh: do not run under trtllm-llmapi-launch (one spawn proxy, one LLM)" >&2; exit 1
fi

# doc_pipeline's Gemma 4 variant, calling the in-Triton models (not an OpenAI endpoint).
export DOCINTEL_MODEL_BACKEND=tensorrt_llm
tritonserver \
  --model-repository="$PWD/model_repo" \
  --model-control-mode=explicit \
  --model-config-name=gemma4 \
  --disable-auto-complete-config \
  --http-port="$HTTP_PORT" --grpc-port="$GRPC_PORT" --metrics-port="$METRICS_PORT" &
SERVER=$!
trap 'kill -TERM $SERVER 2>/dev/null; wait $SERVER' INT TERM

until curl -sf "http://127.0.0.1:$HTTP_PORT/v2/health/live" >/dev/null; do
  kill -0 $SERVER 2>/dev/null || { echo "serve.sh: tritonserver exited" >&2; exit 1; }
  sleep 2
done
for model in "${MODELS[@]}"; do
  echo "loading $model"
  curl -sf -X POST "http://127.0.0.1:$HTTP_PORT/v2/repository/models/$model/load" >/dev/null \
    || { echo "serve.sh: $model failed to load (see the server log)" >&2; kill -TERM $SERVER; exit 1; }
done
echo "ready: doc_pipeline (gemma4, tensorrt_llm) on gRPC $GRPC_PORT"
wait $SERVER
