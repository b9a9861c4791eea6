#!/usr/bin/env bash
# make demo: the bundled samples through the whole path (upload → Celery → Triton → PostgreSQL/SQLite).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
# The local stack runs on the development settings, explicitly: the code's default is production
# (config.settings.prod), which refuses to start without its secrets.
export DJANGO_SETTINGS_MODULE=${DJANGO_SETTINGS_MODULE:-config.settings.dev}
export DOCINTEL_TRITON_URL=${DOCINTEL_TRITON_URL:-127.0.0.1:${DOCINTEL_TRITON_GRPC_PORT:-8101}}
"$PY" manage.py create_tenant Demo --if-missing >/dev/null
"$PY" manage.py ingest samples --tenant Demo --wait 600 --format table
echo
echo "The stack is still running: open http://127.0.0.1:8000/ (create a login with"
echo "  DJANGO_SETTINGS_MODULE=config.settings.dev DOCINTEL_USER_PASSWORD=... \\"
echo "  .venv/bin/python manage.py create_tenant Demo --if-missing --user you)"
echo "and stop it with 'make down'."
