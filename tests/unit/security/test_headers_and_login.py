"""Security headers on every kind of response, login throttling, and production settings.

GIVEN the real middleware stack WHEN pages, API answers and downloads are served THEN each carries
the Content-Security-Policy and the other security headers; GIVEN repeated wrong passwords THEN the
login is locked for that user name and address (django-axes); GIVEN the production settings with
their required environment THEN ``manage.py check --deploy`` reports nothing.
"""

from __future__ import annotations

import base64
import os
import secrets
import subprocess
import sys

import pytest
from django.urls import reverse

from tests.conftest import REPO_ROOT

pytestmark = pytest.mark.django_db
PASSWORD = "correct horse battery"


def _assert_security_headers(response) -> None:
    csp = response["Content-Security-Policy"]
    assert "script-src 'self'" in csp and "'unsafe-inline'" not in csp.split("script-src")[1].split(";")[0]
    assert "object-src 'none'" in csp and "frame-ancestors 'none'" in csp
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["X-Frame-Options"] == "DENY"
    assert response["Referrer-Policy"] == "same-origin"
    assert response["Cross-Origin-Opener-Policy"] == "same-origin"
    assert "camera=()" in response["Permissions-Policy"]


def test_pages_api_answers_and_errors_carry_the_security_headers(operator_client, client):
    for response in (
        client.get(reverse("login")),
        operator_client.get(reverse("ingestion:document_list")),
        operator_client.get(reverse("ingestion:upload")),
        operator_client.get("/api/v1/documents"),
        client.get("/api/v1/documents"),  # 401
        operator_client.get("/documents/00000000-0000-0000-0000-000000000000/"),  # 404
    ):
        _assert_security_headers(response)


def test_swagger_ui_runs_no_inline_script(client):
    page = client.get("/api/v1/docs")
    assert page.status_code == 200
    html = page.content.decode()
    assert "<script>" not in html and "?script=" in html  # its start-up script is a file of its own
    _assert_security_headers(page)
    script = client.get("/api/v1/docs?script=")
    assert script.status_code == 200 and "SwaggerUIBundle" in script.content.decode()


def _login(client, username: str, password: str):
    return client.post(reverse("login"), {"username": username, "password": password})


def test_login_is_locked_after_repeated_wrong_passwords(client, operator, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert _login(client, operator.username, "wrong").status_code == 200  # the form again, with an error
    assert _login(client, operator.username, "wrong").status_code == 429
    # locked: even the right password is refused now, without being checked
    assert _login(client, operator.username, PASSWORD).status_code == 429
    assert "_auth_user_id" not in client.session


def test_a_lockout_is_per_user_name_and_a_success_resets_the_count(client, operator, django_user_model):
    django_user_model.objects.create_user(username="victor", password=PASSWORD)
    for _ in range(5):
        _login(client, "victor", "wrong")
    assert _login(client, "victor", PASSWORD).status_code == 429
    for _ in range(3):
        _login(client, operator.username, "wrong")
    assert _login(client, operator.username, PASSWORD).status_code == 302  # another user is not locked
    for _ in range(3):
        _login(client, operator.username, "wrong")
    assert _login(client, operator.username, PASSWORD).status_code == 302  # the count started again


def test_production_settings_pass_the_deploy_check():
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings.prod",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DOCINTEL_MASTER_KEY": base64.b64encode(os.urandom(32)).decode(),
        "DOCINTEL_METRICS_TOKEN": secrets.token_urlsafe(32),
        "DATABASE_URL": os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/docintel"),
        "DJANGO_ALLOWED_HOSTS": "docintel.bank.example",
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_production_settings_refuse_to_start_without_their_secrets():
    env = {k: v for k, v in os.environ.items() if k not in {"DJANGO_SECRET_KEY", "DOCINTEL_MASTER_KEY"}}
    env["DJANGO_SETTINGS_MODULE"] = "config.settings.prod"
    result = subprocess.run(
        [sys.executable, "manage.py", "check"],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode != 0 and "must be set in production" in result.stderr
