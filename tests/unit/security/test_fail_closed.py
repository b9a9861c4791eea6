"""Fail closed (issue 48, item 11): a process told nothing runs on the production settings.

GIVEN a clean environment (no DJANGO_SETTINGS_MODULE, no secrets), WHEN the WSGI application,
``manage.py`` or the Celery app starts, THEN it refuses to, naming every missing secret — instead
of starting with DEBUG on, a known secret key (forgeable signed links) and a master key generated
beside the blobs. With the secrets it starts with DEBUG off; the development key is refused; and
under the production settings /metrics answers nothing without its token. Development stays
opt-in and works: the scripts and Makefile targets that start Django say so explicitly.
"""

from __future__ import annotations

import base64
import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[3]
REQUIRED = ("DJANGO_SECRET_KEY", "DATABASE_URL", "DOCINTEL_MASTER_KEY", "DOCINTEL_METRICS_TOKEN")
ENTRY_POINTS = {
    "wsgi": [sys.executable, "-c", "import config.wsgi"],
    "manage.py": [sys.executable, "manage.py", "check"],
    "celery": [sys.executable, "-c", "from config.celery import app; print(app.conf.broker_url)"],
}
SHOW = "from django.conf import settings; print(settings.SETTINGS_MODULE, settings.DEBUG)"


def _clean_environment(**extra: str) -> dict[str, str]:
    """What a container or a shell that was told nothing has: no settings module, no secrets."""
    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": "/tmp", "LANG": "C.UTF-8", **extra}


def _secrets() -> dict[str, str]:
    return {
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/docintel",
        "DOCINTEL_MASTER_KEY": base64.b64encode(os.urandom(32)).decode(),
        "DOCINTEL_METRICS_TOKEN": secrets.token_urlsafe(32),
    }


def _run(command: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("entry", sorted(ENTRY_POINTS))
def test_with_nothing_set_each_entry_point_refuses_to_start_naming_the_missing_secrets(entry, tmp_path):
    done = _run(ENTRY_POINTS[entry], _clean_environment(DOCINTEL_VAR_DIR=str(tmp_path)))
    assert done.returncode != 0, done.stdout
    assert "must be set in production" in done.stderr, done.stderr[-2000:]
    for name in REQUIRED:
        assert name in done.stderr, name
    assert not (tmp_path / "master.key").exists()  # no key made beside the blobs


def test_with_the_secrets_set_the_entry_points_start_in_production_with_debug_off(tmp_path):
    env = _clean_environment(**_secrets(), DOCINTEL_VAR_DIR=str(tmp_path))
    shown = _run([sys.executable, "-c", f"import config.wsgi; {SHOW}"], env)
    assert shown.returncode == 0, shown.stderr[-2000:]
    assert shown.stdout.split() == ["config.settings.prod", "False"]
    celery = _run(
        [sys.executable, "-c", f"from config.celery import app; app.loader.import_default_modules(); {SHOW}"],
        env,
    )
    assert celery.stdout.split()[-2:] == ["config.settings.prod", "False"], celery.stderr[-2000:]
    check = _run([sys.executable, "manage.py", "check"], env)
    assert check.returncode == 0, check.stderr[-2000:]


def test_production_refuses_to_start_without_the_metrics_token():
    """/metrics (queue depths, documents by status and tenant) is served by the web server that
    the ingress exposes: production never serves it open."""
    env = _clean_environment(**_secrets(), DJANGO_SETTINGS_MODULE="config.settings.prod")
    del env["DOCINTEL_METRICS_TOKEN"]
    done = _run(ENTRY_POINTS["manage.py"], env)
    assert done.returncode != 0
    assert "DOCINTEL_METRICS_TOKEN must be set in production" in done.stderr, done.stderr[-2000:]


def test_production_refuses_the_development_secret_key_and_a_malformed_master_key():
    known = _run(
        ENTRY_POINTS["wsgi"],
        _clean_environment(**{**_secrets(), "DJANGO_SECRET_KEY": "insecure-development-key-change-me"}),
    )
    assert known.returncode != 0 and "DJANGO_SECRET_KEY is the development key" in known.stderr
    short = _run(
        ENTRY_POINTS["wsgi"], _clean_environment(**{**_secrets(), "DOCINTEL_MASTER_KEY": "c2hvcnQ="})
    )
    assert short.returncode != 0 and "DOCINTEL_MASTER_KEY must be 32 random bytes" in short.stderr


def test_development_is_opt_in_and_still_starts_without_secrets(tmp_path):
    env = _clean_environment(DJANGO_SETTINGS_MODULE="config.settings.dev", DOCINTEL_VAR_DIR=str(tmp_path))
    shown = _run([sys.executable, "-c", f"import config.wsgi; {SHOW}"], env)
    assert shown.returncode == 0, shown.stderr[-2000:]
    assert shown.stdout.split() == ["config.settings.dev", "True"]


METRICS_PROBE = """
import django, os
django.setup()
from django.test import Client
client = Client()
bare = client.get("/metrics")
wrong = client.get("/metrics", HTTP_AUTHORIZATION="Bearer not-the-token")
right = client.get("/metrics", HTTP_AUTHORIZATION="Bearer " + os.environ["DOCINTEL_METRICS_TOKEN"])
print(bare.status_code, wrong.status_code, right.status_code, b"docintel_" in right.content)
"""


@pytest.mark.django_db
def test_metrics_without_its_token_is_refused_under_the_production_settings(django_db_setup, tmp_path):
    from django.conf import settings

    db = settings.DATABASES["default"]
    env = _clean_environment(
        **{**_secrets(), "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"},
        DJANGO_SETTINGS_MODULE="config.settings.prod",
        CELERY_BROKER_URL=settings.CELERY_BROKER_URL,
        DJANGO_ALLOWED_HOSTS="testserver",
        DOCINTEL_VAR_DIR=str(tmp_path),
    )
    done = _run([sys.executable, "-c", METRICS_PROBE], env)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["404", "404", "200", "True"]


def test_the_workers_exporter_asks_for_the_same_token(settings):
    """Workers and the dispatcher serve /metrics on their own port: the scraper sends every
    DocIntel pod the same header; the probes stay open for Kubernetes."""
    import urllib.error
    import urllib.request

    from apps.observability.exporter import start_exporter

    settings.DOCINTEL_METRICS_TOKEN = "s3cret-exporter"
    server = start_exporter(0, live=lambda: True, ready=lambda: [], address="127.0.0.1")
    base = f"http://127.0.0.1:{server.server_port}"
    try:
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(f"{base}/metrics", timeout=10)
        assert refused.value.code == 404
        request = urllib.request.Request(
            f"{base}/metrics", headers={"Authorization": "Bearer s3cret-exporter"}
        )
        with urllib.request.urlopen(request, timeout=10) as answer:
            assert answer.status == 200
        with urllib.request.urlopen(f"{base}/healthz", timeout=10) as probe:
            assert probe.status == 200
    finally:
        server.shutdown()
        server.server_close()


def _makefile_targets_running_django() -> set[str]:
    targets, target = set(), ""
    for line in (REPO_ROOT / "Makefile").read_text().splitlines():
        header = re.match(r"^([A-Za-z0-9_./%-]+):(?!=)", line)
        if header:
            target = header.group(1)
        elif line.startswith("\t") and re.search(r"manage\.py|bench/\S+\.py|-m celery", line):
            targets.add(target)
    return targets


def test_every_local_launcher_of_django_opts_into_development_explicitly():
    """The scripts of `make up` / `make demo` and the Makefile's targets that start Django say
    config.settings.dev themselves: with the default now production they would refuse to start."""
    for script in sorted((REPO_ROOT / "scripts").glob("*.sh")):
        text = script.read_text()
        if re.search(r'^\s*(start \w+ )?"\$PY" (manage\.py|-m celery)', text, re.MULTILINE):
            assert "export DJANGO_SETTINGS_MODULE=${DJANGO_SETTINGS_MODULE:-config.settings.dev}" in text, (
                script
            )
    makefile = (REPO_ROOT / "Makefile").read_text()
    declared = re.search(
        r"^([\w .-]+): export DJANGO_SETTINGS_MODULE \?= config\.settings\.dev$", makefile, re.M
    )
    assert declared is not None
    missing = _makefile_targets_running_django() - set(declared.group(1).split())
    assert not missing, f"Makefile targets that start Django on the production default: {sorted(missing)}"
