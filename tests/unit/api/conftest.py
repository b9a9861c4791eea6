"""API test fixtures: a tenant with a key, and a client that sends it."""

from __future__ import annotations

import io

import pytest
from PIL import Image
from rest_framework.test import APIClient


def png_bytes(seed: int = 0, size: tuple[int, int] = (60, 40)) -> bytes:
    """A small, valid PNG; different seeds give different bytes (so no content dedup)."""
    image = Image.new("RGB", size, (seed % 256, (seed // 256) % 256, 120))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


def upload(content: bytes, name: str) -> io.BytesIO:
    handle = io.BytesIO(content)
    handle.name = name
    return handle


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
