#!/usr/bin/env bash
# make up / down / status: Triton, a Celery worker (with beat), the webhook worker and the web server,
# in the background. Webhook deliveries have a worker of their own, as in deploy/k8s: a slow receiver
# holds one of its threads (for DOCINTEL_WEBHOOK_TIMEOUT_S at most), never the pipeline's.
# Idempotent: `up` starts only what is not running (so it also restarts a crashed process).
# DOCINTEL_PIPELINE_VARIANT=gemma4 reads documents with Gemma 4: unless DOCINTEL_MODEL_URL names an
# engine elsewhere (or DOCINTEL_MODEL_BACKEND=tensorrt_llm), vLLM on CPU is installed when missing and
# serves the tiny Gemma 4 checkpoint on 127.0.0.1:8200 (scripts/vllm/install.sh, servers/vllm_server.py).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
PY="$ROOT/.venv/bin/python"
# The local stack runs on the development settings, explicitly: the code's default is production
# (config.settings.prod), which refuses to start without its secrets.
export DJANGO_SETTINGS_MODULE=${DJANGO_SETTINGS_MODULE:-config.settings.dev}
RUN="$ROOT/var/run"
LOG="$ROOT/var/log"
mkdir -p "$RUN" "$LOG"
HTTP_PORT=${DOCINTEL_TRITON_HTTP_PORT:-8100}
GRPC_PORT=${DOCINTEL_TRITON_GRPC_PORT:-8101}
METRICS_PORT=${DOCINTEL_TRITON_METRICS_PORT:-8102}
export DOCINTEL_TRITON_URL=${DOCINTEL_TRITON_URL:-127.0.0.1:$GRPC_PORT}
VARIANT=$(echo "${DOCINTEL_PIPELINE_VARIANT:-reference}" | tr '[:upper:]' '[:lower:]')
VLLM_PORT=${DOCINTEL_VLLM_PORT:-8200}
local_engine() {  # the gemma4 variant on an OpenAI-compatible engine that this stack runs itself
  [[ "$VARIANT" == gemma4 || "$VARIANT" == gpu ]] && [ "${DOCINTEL_MODEL_BACKEND:-openai}" = openai ] \
    && [ -z "${DOCINTEL_MODEL_URL:-}" ]
}

running() { [ -f "$RUN/$1.pid" ] && kill -0 "$(cat "$RUN/$1.pid")" 2>/dev/null; }

start() {  # name, command...
  local name=$1; shift
  if running "$name"; then echo "$name already running (pid $(cat "$RUN/$name.pid"))"; return; fi
  setsid "$@" >>"$LOG/$name.log" 2>&1 < /dev/null &
  echo $! > "$RUN/$name.pid"
  echo "started $name (pid $!, log var/log/$name.log)"
}

stop() {
  local name=$1
  if running "$name"; then
    local pid; pid=$(cat "$RUN/$name.pid")
    kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL -- "-$pid" 2>/dev/null || true
    echo "stopped $name"
  fi
  rm -f "$RUN/$name.pid"
}

wait_http() {  # url, seconds, what
  local deadline=$((SECONDS + $2))
  until "$PY" -c "import sys,urllib.request; urllib.request.urlopen(sys.argv[1], timeout=2)" "$1" >/dev/null 2>&1; do
    if [ $SECONDS -gt $deadline ]; then echo "$3 did not become ready; see var/log/" >&2; return 1; fi
    sleep 1
  done
}

case "${1:-}" in
  up)
    NEED_POSTGRES="" bash scripts/ensure_services.sh
    "$PY" manage.py migrate --noinput >/dev/null
    if local_engine; then
      bash scripts/vllm/install.sh
      start vllm "$PY" -m servers.vllm_server --port "$VLLM_PORT"
      export DOCINTEL_MODEL_URL="http://127.0.0.1:$VLLM_PORT/v1"
    fi
    start triton "$PY" manage.py serve_models --http-port "$HTTP_PORT" --grpc-port "$GRPC_PORT" --metrics-port "$METRICS_PORT"
    QUEUE=${DOCINTEL_CELERY_QUEUE:-docintel}
    start worker "$PY" -m celery -A config worker -B --schedule "$RUN/celerybeat-schedule" --loglevel INFO --concurrency 2 \
      -Q "$QUEUE,${DOCINTEL_INFER_QUEUE:-$QUEUE-infer},${DOCINTEL_ADVISORY_QUEUE:-$QUEUE-advisory}"
    start worker-webhooks "$PY" -m celery -A config worker --loglevel INFO --pool threads --concurrency 16 \
      -n "webhooks@%h" -Q "${DOCINTEL_WEBHOOK_QUEUE:-$QUEUE-webhooks}"
    start web "$PY" manage.py runserver 127.0.0.1:8000 --noreload
    if local_engine || running vllm; then wait_http "http://127.0.0.1:$VLLM_PORT/v1/models" 300 "vLLM"; fi
    wait_http "http://127.0.0.1:$HTTP_PORT/v2/models/doc_pipeline/ready" 180 "Triton"
    wait_http "http://127.0.0.1:8000/login/" 60 "the web server"
    echo "DocIntel is up: http://127.0.0.1:8000/ (Triton gRPC $DOCINTEL_TRITON_URL, pipeline $VARIANT)"
    ;;
  down)
    for name in web worker-webhooks worker triton vllm; do stop "$name"; done
    ;;
  status)
    for name in vllm triton worker worker-webhooks web; do
      if running "$name"; then echo "$name: running (pid $(cat "$RUN/$name.pid"))"; else echo "$name: stopped"; fi
    done
    ;;
  *)
    echo "usage: $0 up|down|status" >&2; exit 2
    ;;
esac
