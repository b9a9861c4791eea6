#!/usr/bin/env bash
# make demo: the bundled samples through the whole path (upload → Celery → Triton → PostgreSQL/SQLite).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
export DOCINTEL_TRITON_URL=${DOCINTEL_TRITON_URL:-127.0.0.1:${DOCINTEL_TRITON_GRPC_PORT:-8101}}
"$PY" manage.py create_tenant Demo --if-missing >/dev/null
"$PY" manage.py ingest samples --tenant Demo --wait 600 --format table
echo
echo "The stack is still running: open http://127.0.0.1:8000/ (create a login with"
echo "  DOCINTEL_USER_PASSWORD=... .venv/bin/python manage.py create_tenant Demo --if-missing --user you)"
echo "and stop it with 'make down'."
