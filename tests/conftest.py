"""Shared fixtures. Integration fixtures start the real services (Triton, a Celery worker)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

pytest_plugins = [
    "tests.triton_server_fixture",
    "tests.celery_worker_fixture",
    "tests.sim_triton_fixture",
    "tests.stage_workers_fixture",
]

# The Gemma 4 suite (tests/gemma4) is a session of its own, with the gemma4 pipeline variant behind the
# same fixtures: `DOCINTEL_PIPELINE_VARIANT=gemma4 pytest tests/gemma4` (make test runs both).
GEMMA4_SESSION = os.environ.get("DOCINTEL_PIPELINE_VARIANT", "").strip().lower() in {"gemma4", "gpu"}
collect_ignore = [] if GEMMA4_SESSION else ["gemma4"]

REPO_ROOT = Path(__file__).resolve().parent.parent
REALDATA = REPO_ROOT.parent / "shared" / "realdata"
SAMPLES = REPO_ROOT / "samples"


@pytest.fixture
def tenant(db):
    from apps.tenants.services import tenant_create

    return tenant_create(name="Acme Bank")


@pytest.fixture
def other_tenant(db):
    from apps.tenants.services import tenant_create

    return tenant_create(name="Other Bank")


@pytest.fixture
def operator(tenant, django_user_model):
    from apps.tenants.services import membership_grant

    user = django_user_model.objects.create_user(username="olivia", password="correct horse battery")
    membership_grant(tenant=tenant, user=user, role="operator")
    return user


@pytest.fixture
def operator_client(client, operator):
    client.force_login(operator)
    return client
