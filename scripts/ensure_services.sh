#!/usr/bin/env bash
# Start Redis and PostgreSQL where this machine has them installed but not running.
set -euo pipefail

if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
  if command -v redis-server >/dev/null; then
    echo "starting Redis on 127.0.0.1:6379"
    mkdir -p /var/lib/redis /var/log/redis 2>/dev/null || true
    redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no \
      --dir /tmp --logfile /tmp/docintel-redis.log
    for _ in $(seq 50); do redis-cli -h 127.0.0.1 ping >/dev/null 2>&1 && break; sleep 0.1; done
  else
    echo "Redis is not running and not installed (make setup installs it)" >&2; exit 1
  fi
fi

if [ -n "${NEED_POSTGRES:-1}" ] && ! pg_isready -h 127.0.0.1 -p 5432 >/dev/null 2>&1; then
  if command -v pg_ctlcluster >/dev/null && [ -d /etc/postgresql ]; then
    echo "starting PostgreSQL"
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start || true
  fi
  pg_isready -h 127.0.0.1 -p 5432 >/dev/null 2>&1 || { echo "PostgreSQL is not reachable on 127.0.0.1:5432" >&2; exit 1; }
fi
