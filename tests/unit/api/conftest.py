"""API test fixtures: a tenant with a key, and a client that sends it."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient


@pytest.fixture
def api_key(tenant):
    from apps.tenants.services import api_key_create

    # every scope: these tests are about what the API does; tests/unit/api/test_access_table.py
    # is about who may call it
    return api_key_create(tenant=tenant, name="tests", scopes=["all"]).raw_key


@pytest.fixture
def other_api_key(other_tenant):
    from apps.tenants.services import api_key_create

    return api_key_create(tenant=other_tenant, name="tests", scopes=["all"]).raw_key


@pytest.fixture
def api(api_key):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Api-Key {api_key}")
    return client


@pytest.fixture
def other_api(other_api_key):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Api-Key {other_api_key}")
    return client
