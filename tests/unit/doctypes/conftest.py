"""The API fixtures of tests/unit/api (a tenant's key and client, another tenant's key)."""

from tests.unit.api.conftest import api, api_key, other_api_key  # noqa: F401
